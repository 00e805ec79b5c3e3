/*
 * ws_accelsim_log: the standard output of an Accel-Sim (or GPGPU-Sim)
 * run, read into the measurements table (ws_measured.h) so that warpsim
 * can be held against another simulator kernel by kernel.
 *
 * When a kernel ends, GPGPU-Sim prints a statistics block
 * (gpgpu_sim::gpu_print_stat in src/gpgpu-sim/gpu-sim.cc) that starts
 *
 *     kernel_name = _Z6vecAddPKfS0_Pfi
 *     kernel_launch_uid = 1
 *     gpu_sim_cycle = 4312
 *     gpu_sim_insn = 1245184
 *
 * and goes on with the core caches (shader_print_cache_stats:
 * "\tL1D_total_cache_accesses = N", "..._misses"), the shader statistics
 * ("gpgpu_n_tot_w_icount = N"), the memory statistics
 * (memory_stats_t::memlatstat_print: "total dram reads = N", "total dram
 * writes = N", with -gpgpu_memlatency_stat), each DRAM channel
 * ("DRAM[0]: 16 bks, busW=2 BL=16 CL=...") and L2 ("L2_total_cache_accesses
 * = N", "..._misses"), and ends with the interconnect's packet counts,
 * "icnt_total_pkts_mem_to_simt=N" then "icnt_total_pkts_simt_to_mem=N",
 * the last figure gpu_print_stat prints (GPGPU-Sim 3.x and 4.x; what
 * follows, the interconnect details, depends on the network model).
 * A block is read up to that line: one that stops before it (the log cut
 * short, or another kernel_name first) is refused, as its figures would be
 * partial.  Which figures are per kernel: gpu_sim_* and
 * gpu_occupancy are reset when a kernel starts; the cache totals,
 * gpgpu_n_tot_w_icount and the DRAM totals run on from the start of the
 * simulation (nothing clears them; Accel-Sim's own
 * util/job_launching/stats/example_stats.yml lists them under
 * collect_aggregate, "should be diff'd"), so a kernel's share is the
 * difference from the block before; gpu_tot_* are running sums and not
 * used.
 *
 * The figures, in warpsim's names:
 *   gpc__cycles_elapsed.max          gpu_sim_cycle (core clock cycles)
 *   time_us                          gpu_sim_cycle over the core clock of
 *                                    "-gpgpu_clock_domains CORE:ICNT:L2:DRAM"
 *                                    (MHz), when the log echoes its options
 *                                    (anywhere: the run has one clock)
 *   smsp__inst_executed.sum          the rise of gpgpu_n_tot_w_icount (warp
 *                                    instructions)
 *   smsp__thread_inst_executed.sum   gpu_sim_insn: GPGPU-Sim adds each
 *                                    instruction's active thread count
 *                                    (shader_core_ctx::func_exec_inst)
 *   sm__warps_active.avg.pct_of_peak_sustained_active
 *                                    gpu_occupancy (achieved occupancy, %)
 *   l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct
 *                                    100 (1 - misses / accesses) of L1D's
 *                                    rises: every L1D access, stores and
 *                                    local memory too, where Nsight counts
 *                                    global loads; a pending hit counts as
 *                                    a hit, as Nsight counts one
 *   lts__t_sector_hit_rate.pct       the same of L2's totals
 *   dram__bytes_read.sum             the rise of "total dram reads" times
 *   dram__bytes_write.sum            the DRAM atom, busW x BL of the
 *                                    "DRAM[0]:" line (32 bytes when the log
 *                                    has none), as memlatstat_dram_access
 *                                    counts accesses in atoms; writes
 *                                    include L2 write-backs
 *
 * A block naming several kernels (concurrent kernels finishing together)
 * is refused: its figures cannot be split between them.  A running total
 * that falls, a second gpu_sim_cycle (gpu_sim_insn, gpu_occupancy) in
 * one block, or a second, other core clock, is refused: the log holds
 * more than one run.  Refused too: a negative figure, a count that is not
 * whole or is nan, gpu_occupancy above 100%, a core clock in
 * -gpgpu_clock_domains that is not a number above 0, and a DRAM line whose
 * busW and BL are not whole numbers from 1 with a product (the atom) of at
 * most 4096 bytes.
 *
 * Identity: kernel_launch_uid is one launch; a second block with it is
 * refused (a block repeated, or two logs joined), naming both kernels
 * when they differ.  A log without uids still shows a repeated block: its
 * warp instructions do not rise though its threads' did.  Every block
 * prints the same figures; one lacking a running total would shift its
 * share into the next block, so that is refused too.
 *
 * Cache totals: GPGPU-Sim counts each access as one hit, pending hit or
 * miss, and prints the miss rate of the totals; misses and pending hits
 * rising past the accesses, a miss rate that is not misses / accesses, or
 * one of the pair without the other, is refused at the figure.  What a
 * log lacks for a reason of its own is noted, not refused, and the report
 * says so: a cache the config does not simulate (no totals in any block),
 * a kernel without an access of a cache (no hit rate), an empty kernel's
 * occupancy (nan), DRAM totals without -gpgpu_memlatency_stat, the time
 * without the option echo that gives the core clock.
 *
 * Leaves out: the per-core, per-bank and breakdown lines, AccelWattch,
 * and logs of GPGPU-Sim 3.x whose caches printed other names.
 */
#include "ws_measured.h"

#include "util/ws_clip.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What each block's figure is read into; order of ws_as_keys.  Those
 * from WS_AS_WINSN on run on from kernel to kernel; the miss rates are
 * the quotients of the running totals, printed when there was an access. */
enum ws_as_key {
    WS_AS_CYCLE,
    WS_AS_INSN,
    WS_AS_OCC,
    WS_AS_L1_RATE,
    WS_AS_L2_RATE,
    WS_AS_WINSN,
    WS_AS_L1_ACC,
    WS_AS_L1_MISS,
    WS_AS_L1_PEND,
    WS_AS_L2_ACC,
    WS_AS_L2_MISS,
    WS_AS_L2_PEND,
    WS_AS_DRAM_RD,
    WS_AS_DRAM_WR,
    WS_AS_NKEYS
};

static const char *const ws_as_keys[WS_AS_NKEYS] = {
    "gpu_sim_cycle",
    "gpu_sim_insn",
    "gpu_occupancy",
    "L1D_total_cache_miss_rate",
    "L2_total_cache_miss_rate",
    "gpgpu_n_tot_w_icount",
    "L1D_total_cache_accesses",
    "L1D_total_cache_misses",
    "L1D_total_cache_pending_hits",
    "L2_total_cache_accesses",
    "L2_total_cache_misses",
    "L2_total_cache_pending_hits",
    "total dram reads",
    "total dram writes",
};

/* The units the log implies for them (GPGPU-Sim prints none). */
static const char *const ws_as_units[] = {
    "cycle", "us", "inst", "inst", "%", "%", "%", "byte", "byte",
};

/* The metrics the reader fills, in the table's order. */
enum ws_as_metric {
    WS_AS_M_CYCLES,
    WS_AS_M_TIME,
    WS_AS_M_WARP_INSTS,
    WS_AS_M_THREAD_INSTS,
    WS_AS_M_OCC,
    WS_AS_M_L1_HIT,
    WS_AS_M_L2_HIT,
    WS_AS_M_DRAM_RD,
    WS_AS_M_DRAM_WR,
    WS_AS_NMETRICS
};

static const char *const ws_as_metrics[WS_AS_NMETRICS] = {
    "gpc__cycles_elapsed.max",
    "time_us",
    "smsp__inst_executed.sum",
    "smsp__thread_inst_executed.sum",
    "sm__warps_active.avg.pct_of_peak_sustained_active",
    "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct",
    "lts__t_sector_hit_rate.pct",
    "dram__bytes_read.sum",
    "dram__bytes_write.sum",
};

/* The last figure of a block. */
#define WS_AS_END "icnt_total_pkts_simt_to_mem"

/* Core clocks above this (MHz) are no GPU's. */
#define WS_AS_MAX_MHZ 1e5

struct ws_as {
    struct ws_measured *m;
    const char *name;
    long kernel;             /* the last block, -1 before */
    int open;                /* its end line not read yet */
    double val[WS_AS_NKEYS]; /* this block's figures, NAN absent */
    int seen[WS_AS_NKEYS];   /* the key's line read in this block */
    long line[WS_AS_NKEYS], col[WS_AS_NKEYS];
    double prev[WS_AS_NKEYS]; /* running totals at the last block */
    double clock_mhz;         /* core clock, NAN until seen */
    long clock_line;
    double atom; /* DRAM bytes per counted access */
    int atom_seen;
    long kernel_line;
    int uid_seen;               /* this block's kernel_launch_uid */
    int had[WS_AS_NKEYS];       /* the key in the blocks so far: -1
                                       none read yet, 0 absent, 1 there */
    long had_line[WS_AS_NKEYS]; /* the first block's kernel_name line */
    struct ws_meas_ids ids;     /* launch uids seen */
    struct ws_err *err;
};

/* The number after "key =", whole: a count, a rate, "81.5%" when pct;
 * 1 for GPGPU-Sim's "nan"/"-nan" (an empty kernel's rates), -1 if bad. */
static int ws_as_number(const char *s, int pct, double *v)
{
    char *end;

    s += strspn(s, " \t");
    if (strncmp(s, "nan", 3) == 0 || strncmp(s, "-nan", 4) == 0)
        return 1;
    if (!((*s >= '0' && *s <= '9') || *s == '-' || *s == '.'))
        return -1;
    *v = strtod(s, &end);
    /* GPGPU-Sim prints decimals: no hex ("0x10") that strtod would take */
    if (strspn(s, "0123456789.eE+-") < (size_t)(end - s))
        return -1;
    if (pct && *end == '%')
        end++;
    end += strspn(end, " \t");
    return end == s || *end || !isfinite(*v) ? -1 : 0;
}

/* "-gpgpu_clock_domains 1132.0:1132.0:1132.0:850.0 # ...": the core
 * clock, the first of the four (MHz). */
static int ws_as_clock(struct ws_as *a, const char *s, long line, long col)
{
    const char *v = s + strlen("-gpgpu_clock_domains");
    char *end = NULL;
    double mhz;

    if (*v != ' ' && *v != '\t')
        return 0; /* another option */
    v += strspn(v, " \t");
    mhz = *v >= '0' && *v <= '9' ? strtod(v, &end) : NAN;
    if (!(mhz > 0 && mhz <= WS_AS_MAX_MHZ) || *end != ':')
        return ws_err_at(a->err, a->name, line, col + (long)(v - s),
                         "bad "
                         "core clock '%.*s' in -gpgpu_clock_domains "
                         "(expected CORE:ICNT:L2:DRAM in MHz, the core clock "
                         "a number above 0, such as "
                         "1132.0:1132.0:1132.0:850.0)",
                         (int)(strcspn(v, ": \t") < 32 ? strcspn(v, ": \t")
                                                       : 32),
                         v);
    /* every kernel's time is taken at the one clock (ws_as_end): a
     * second, other clock is a second run's option echo */
    if (!isnan(a->clock_mhz) && mhz != a->clock_mhz)
        return ws_err_at(a->err, a->name, line, col + (long)(v - s),
                         "a "
                         "second core clock, %g MHz, after %g MHz at line "
                         "%ld (expected one run per log, at one clock)",
                         mhz, a->clock_mhz, a->clock_line);
    a->clock_mhz = mhz;
    a->clock_line = line;
    return 0;
}

/* The whole number after "busW=" or "BL=" at p; -1 when there is none. */
static double ws_as_dram_field(const char *p)
{
    char *end;
    double v;

    if (!p || !(*p >= '0' && *p <= '9'))
        return -1;
    v = strtod(p, &end);
    return v == floor(v) && (!*end || strchr(" \t,", *end)) ? v : -1;
}

/* "DRAM[0]: 16 bks, busW=4 BL=8 CL=12, ...": bytes per DRAM atom, as
 * memory_config computes dram_atom_size (BL x busW x chips per
 * controller; one chip, as every Accel-Sim config has).  Every channel's
 * line is checked; the first gives the atom. */
static int ws_as_dram(struct ws_as *a, const char *s, long line, long col)
{
    const char *bw = strstr(s, "busW="), *bl = strstr(s, "BL=");
    double w = ws_as_dram_field(bw ? bw + 5 : NULL);
    double l = ws_as_dram_field(bl ? bl + 3 : NULL);
    const char *at = bw ? bw : bl;

    if (!bw && !bl)
        return 0;
    if (w < 1 || l < 1 || w * l > 4096)
        return ws_err_at(a->err, a->name, line, col + (long)(at - s),
                         "bad "
                         "DRAM atom '%.*s' (expected busW=W BL=L, whole "
                         "numbers from 1 whose product, the bytes of one "
                         "DRAM access, is at most 4096, such as busW=4 "
                         "BL=8)",
                         (int)(strcspn(at, ",") < 48 ? strcspn(at, ",") : 48),
                         at);
    if (!a->atom_seen) {
        a->atom = w * l;
        a->atom_seen = 1;
    }
    return 0;
}

/* The rise of running total k since the block before (every block has
 * it, or none: ws_as_same_keys). */
static int ws_as_rise(struct ws_as *a, enum ws_as_key k, double *rise)
{
    struct ws_clip q;

    *rise = NAN;
    if (isnan(a->val[k]))
        return 0;
    if (a->val[k] < a->prev[k])
        return ws_err_at(a->err, a->name, a->line[k], a->col[k],
                         "%s falls "
                         "from %.0f to %.0f (expected a running total, as "
                         "GPGPU-Sim prints it: one simulation per log)",
                         ws_clip(&q, ws_as_keys[k]), a->prev[k], a->val[k]);
    *rise = a->val[k] - a->prev[k];
    a->prev[k] = a->val[k];
    return 0;
}

/* A cache's figures: its running totals and the miss rate of them. */
struct ws_as_cache {
    enum ws_as_key acc, miss, pend, rate;
    const char *name;
    enum ws_as_metric metric;
};

static const struct ws_as_cache ws_as_caches[] = {
    {WS_AS_L1_ACC, WS_AS_L1_MISS, WS_AS_L1_PEND, WS_AS_L1_RATE, "L1D",
     WS_AS_M_L1_HIT},
    {WS_AS_L2_ACC, WS_AS_L2_MISS, WS_AS_L2_PEND, WS_AS_L2_RATE, "L2",
     WS_AS_M_L2_HIT},
};

static int ws_as_no_cycle(struct ws_as *a)
{
    struct ws_clip q;

    return ws_err_at(a->err, a->name, a->kernel_line, 1,
                     "the statistics "
                     "block of %s has no gpu_sim_cycle (expected the block "
                     "GPGPU-Sim prints when a kernel ends; is the log cut "
                     "short?)",
                     ws_clip(&q, a->m->kernels[a->kernel].name));
}

/* A block still open at line (the next kernel_name, or the log's last
 * line when at_end). */
static int ws_as_cut(struct ws_as *a, long line, int at_end)
{
    struct ws_clip q;

    if (!a->open)
        return 0;
    if (isnan(a->val[WS_AS_CYCLE]))
        return ws_as_no_cycle(a);
    return ws_err_at(a->err, a->name, line, 1,
                     "the statistics block of %s "
                     "(from line %ld) ends %s, cut short (expected it to "
                     "run to '" WS_AS_END "=N', the last figure GPGPU-Sim "
                     "prints for a kernel)",
                     ws_clip(&q, a->m->kernels[a->kernel].name), a->kernel_line,
                     at_end ? "with the log" : "at another kernel_name");
}

/* GPGPU-Sim prints the same figures in every block: a running total
 * missing from one block would put that kernel's share into the next
 * block's rise (or take the earlier kernels' into this one's), and a
 * per-kernel figure missing from one would vanish for it alone.  The
 * miss rates are left out: GPGPU-Sim prints one only after an access. */
static int ws_as_same_keys(struct ws_as *a)
{
    struct ws_clip q;

    for (int i = WS_AS_INSN; i < WS_AS_NKEYS; i++) {
        if (i == WS_AS_L1_RATE || i == WS_AS_L2_RATE)
            continue;
        if (a->had[i] < 0) {
            a->had[i] = a->seen[i];
            a->had_line[i] = a->kernel_line;
        } else if (a->had[i] != a->seen[i] && a->seen[i]) {
            return ws_err_at(a->err, a->name, a->line[i], a->col[i],
                             "%s in "
                             "the statistics block of %s, but not in the "
                             "block from line %ld (expected every block to "
                             "print the same figures, as GPGPU-Sim does: "
                             "are two logs joined?)",
                             ws_as_keys[i],
                             ws_clip(&q, a->m->kernels[a->kernel].name),
                             a->had_line[i]);
        } else if (a->had[i] != a->seen[i]) {
            return ws_err_at(a->err, a->name, a->kernel_line, 1,
                             "the "
                             "statistics block of %s has no %s, which the "
                             "block from line %ld has (expected every block "
                             "to print the same figures, as GPGPU-Sim does: "
                             "is a line lost?)",
                             ws_clip(&q, a->m->kernels[a->kernel].name),
                             ws_as_keys[i], a->had_line[i]);
        }
    }
    return 0;
}

/* A block repeated without a kernel_launch_uid (older GPGPU-Sim prints
 * none) shows as a kernel whose warp instructions do not rise: a kernel
 * that executed threads' instructions executed warps' too. */
static int ws_as_repeat(struct ws_as *a, const double *r)
{
    struct ws_clip q;

    if (!a->seen[WS_AS_WINSN] || r[WS_AS_WINSN] != 0
        || !(a->val[WS_AS_INSN] > 0))
        return 0;
    return ws_err_at(a->err, a->name, a->line[WS_AS_WINSN], a->col[WS_AS_WINSN],
                     "gpgpu_n_tot_w_icount does not "
                     "rise in the statistics block of %s, though its "
                     "gpu_sim_insn is %.0f (expected the running total to "
                     "take in the kernel's warp instructions: is a block "
                     "repeated?)",
                     ws_clip(&q, a->m->kernels[a->kernel].name),
                     a->val[WS_AS_INSN]);
}

/* One of a cache's figures without its accesses, or the accesses
 * without the misses. */
static int ws_as_cache_alone(struct ws_as *a, const struct ws_as_cache *c)
{
    enum ws_as_key has = a->seen[c->acc]    ? c->acc
                         : a->seen[c->miss] ? c->miss
                         : a->seen[c->pend] ? c->pend
                                            : c->rate;
    enum ws_as_key lacks = a->seen[c->acc] ? c->miss : c->acc;
    struct ws_clip q;

    return ws_err_at(a->err, a->name, a->line[has], a->col[has],
                     "%s "
                     "without %s in the statistics block of %s (expected "
                     "both, as GPGPU-Sim prints a cache's totals together)",
                     ws_as_keys[has], ws_as_keys[lacks],
                     ws_clip(&q, a->m->kernels[a->kernel].name));
}

/* GPGPU-Sim counts every access of a cache as one hit, one pending hit
 * or one miss (cache_stats::get_sub_stats: accesses = HIT + HIT_RESERVED
 * + MISS + SECTOR_MISS), and prints the miss rate, misses over accesses
 * of the totals, to 4 decimals once there is an access.  Totals that
 * break either rule are no cache's: refused at the figure, rather than
 * left as a hit rate that is not there. */
static int ws_as_cache_check(struct ws_as *a, const struct ws_as_cache *c,
                             const double *r)
{
    const double *v = a->val;
    double pend = a->seen[c->pend] ? r[c->pend] : 0;
    enum ws_as_key at = r[c->miss] > r[c->acc] ? c->miss : c->pend;
    struct ws_clip q;

    if (a->seen[c->acc] != a->seen[c->miss]
        || (!a->seen[c->acc] && (a->seen[c->pend] || a->seen[c->rate])))
        return ws_as_cache_alone(a, c);
    if (!a->seen[c->acc])
        return 0;
    if (r[c->miss] + pend > r[c->acc])
        return ws_err_at(a->err, a->name, a->line[at], a->col[at],
                         "the %s "
                         "totals rise by %.0f misses and %.0f pending hits "
                         "in the statistics block of %s, past their %.0f "
                         "accesses (expected at most the accesses: "
                         "GPGPU-Sim counts each access as one hit, pending "
                         "hit or miss)",
                         c->name, r[c->miss], pend,
                         ws_clip(&q, a->m->kernels[a->kernel].name), r[c->acc]);
    if (!a->seen[c->rate] || isnan(v[c->rate]))
        return 0;
    if (!(v[c->acc] > 0))
        return ws_err_at(a->err, a->name, a->line[c->rate], a->col[c->rate],
                         "%s %g with no access in %s (expected none: "
                         "GPGPU-Sim prints a miss rate once there is an "
                         "access)",
                         ws_as_keys[c->rate], v[c->rate], ws_as_keys[c->acc]);
    /* printed with %.4lf: off by at most half its last digit */
    if (fabs(v[c->rate] - v[c->miss] / v[c->acc]) > 0.00005 + 1e-9)
        return ws_err_at(a->err, a->name, a->line[c->rate], a->col[c->rate],
                         "%s %g is not %s / %s, %.0f / %.0f = %.4f "
                         "(expected the quotient of the totals, as GPGPU-Sim "
                         "prints it to 4 decimals)",
                         ws_as_keys[c->rate], v[c->rate], ws_as_keys[c->miss],
                         ws_as_keys[c->acc], v[c->miss], v[c->acc],
                         v[c->miss] / v[c->acc]);
    return 0;
}

/* A cache's hit rate for the kernel, pending hits counting as hits as
 * Nsight counts them; a kernel without any access has none, and a note
 * says why. */
static int ws_as_hit(struct ws_as *a, const struct ws_as_cache *c,
                     const double *r)
{
    size_t k = (size_t)a->kernel;

    if (!a->seen[c->acc])
        return 0; /* the log has no such cache: ws_as_notes */
    if (r[c->acc] > 0) {
        ws_measured_set(a->m, k, c->metric, 100 * (1 - r[c->miss] / r[c->acc]));
        return 0;
    }
    return ws_measured_add_note(a->m, k, c->metric, a->line[c->acc],
                                "no "
                                "%s access in its block (%s does not "
                                "rise): a hit rate of no access is not "
                                "defined",
                                c->name, ws_as_keys[c->acc])
                   < 0
               ? ws_err_oom(a->err)
               : 0;
}

/* DRAM accesses in bytes, the rise times the atom: a product past a
 * double's range is refused, not left out. */
static int ws_as_bytes(struct ws_as *a, enum ws_as_key key,
                       enum ws_as_metric metric, const double *r)
{
    double v = r[key] * a->atom;

    if (!isnan(r[key]) && !isfinite(v))
        return ws_err_at(a->err, a->name, a->line[key], a->col[key],
                         "%s "
                         "rises by %g, which at %g bytes an access passes a "
                         "double (expected a count a run can reach)",
                         ws_as_keys[key], r[key], a->atom);
    ws_measured_set(a->m, (size_t)a->kernel, metric, v);
    return 0;
}

/* The metrics of the block just ended (its end line read); time_us is
 * set at the end of the log, from its one core clock. */
static int ws_as_finish(struct ws_as *a)
{
    double r[WS_AS_NKEYS], *v = a->val;
    size_t k = (size_t)a->kernel;

    if (!a->open)
        return 0; /* a stray end line, outside any block */
    a->open = 0;
    if (isnan(a->val[WS_AS_CYCLE]))
        return ws_as_no_cycle(a);
    if (ws_as_same_keys(a) < 0)
        return -1;
    for (int i = WS_AS_WINSN; i < WS_AS_NKEYS; i++)
        if (ws_as_rise(a, (enum ws_as_key)i, &r[i]) < 0)
            return -1;
    if (ws_as_repeat(a, r) < 0)
        return -1;
    for (size_t i = 0; i < sizeof ws_as_caches / sizeof ws_as_caches[0]; i++)
        if (ws_as_cache_check(a, &ws_as_caches[i], r) < 0
            || ws_as_hit(a, &ws_as_caches[i], r) < 0)
            return -1;
    ws_measured_set(a->m, k, WS_AS_M_CYCLES, v[WS_AS_CYCLE]);
    ws_measured_set(a->m, k, WS_AS_M_WARP_INSTS, r[WS_AS_WINSN]);
    ws_measured_set(a->m, k, WS_AS_M_THREAD_INSTS, v[WS_AS_INSN]);
    ws_measured_set(a->m, k, WS_AS_M_OCC, v[WS_AS_OCC]);
    if (ws_as_bytes(a, WS_AS_DRAM_RD, WS_AS_M_DRAM_RD, r) < 0
        || ws_as_bytes(a, WS_AS_DRAM_WR, WS_AS_M_DRAM_WR, r) < 0)
        return -1;
    if (a->seen[WS_AS_OCC] && isnan(v[WS_AS_OCC])
        && ws_measured_add_note(a->m, k, WS_AS_M_OCC, a->line[WS_AS_OCC],
                                "GPGPU-Sim prints gpu_occupancy nan: no "
                                "warp was active")
               < 0)
        return ws_err_oom(a->err);
    return 0;
}

/* "kernel_name = NAME " starts a block; more than one name is refused. */
static int ws_as_kernel(struct ws_as *a, char *s, long line, long col)
{
    char *name = s + strspn(s, " \t");
    size_t len = strcspn(name, " \t");
    long k;

    if (ws_as_cut(a, line, 0) < 0)
        return -1;
    if (len == 0)
        return ws_err_at(a->err, a->name, line, col,
                         "no kernel name after "
                         "'kernel_name =' (expected the kernel this block "
                         "measured)");
    if (name[len + strspn(name + len, " \t")])
        return ws_err_at(a->err, a->name, line, col,
                         "this block names "
                         "several kernels (expected one: kernels that ran "
                         "concurrently cannot be told apart)");
    k = ws_measured_add_kernel(a->m, name, len, line, -1);
    if (k < 0)
        return ws_err_oom(a->err);
    a->kernel = k;
    a->kernel_line = line;
    a->open = 1;
    a->uid_seen = 0;
    for (int i = 0; i < WS_AS_NKEYS; i++) {
        a->val[i] = NAN;
        a->seen[i] = 0;
    }
    return 0;
}

/* "kernel_launch_uid = N": the launch's identity, checked against the
 * blocks before (ws_meas_ids_add: a uid twice is refused, even when the
 * blocks are the same, and so is one uid for two kernels). */
static int ws_as_uid(struct ws_as *a, const char *s, long line, long col)
{
    struct ws_meas_kernel *k;
    struct ws_clip q;
    double v;

    if (!a->open)
        return 0;
    if (a->uid_seen)
        return ws_err_at(a->err, a->name, line, col,
                         "a second "
                         "kernel_launch_uid in the statistics block of %s "
                         "(from line %ld) (expected one per block, as "
                         "GPGPU-Sim prints it)",
                         ws_clip(&q, a->m->kernels[a->kernel].name),
                         a->kernel_line);
    if (ws_as_number(s, 0, &v) != 0 || v < 0 || v != floor(v) || v > 9e15)
        return ws_err_at(a->err, a->name, line, col,
                         "bad kernel_launch_uid "
                         "(expected a whole number)");
    a->uid_seen = 1;
    k = &a->m->kernels[a->kernel];
    k->id = (long long)v;
    k->id_line = line;
    k->id_col = col + 19 + (long)strspn(s, " \t");
    return ws_meas_ids_add(&a->ids, a->m, (size_t)a->kernel, a->err);
}

/* A second gpu_sim_cycle (or insn, occupancy; or a total, a miss rate
 * with another value): the lines of two runs. */
static int ws_as_twice(struct ws_as *a, enum ws_as_key i, long line, long col)
{
    struct ws_clip q;

    return ws_err_at(a->err, a->name, line, col,
                     "a second %s in the "
                     "statistics block of %s (from line %ld) (expected one "
                     "per block, as GPGPU-Sim prints it: are two runs' logs "
                     "mixed?)",
                     ws_as_keys[i], ws_clip(&q, a->m->kernels[a->kernel].name),
                     a->kernel_line);
}

/* Whether figure i is a count (the cycles, instructions, totals). */
static int ws_as_count(int i)
{
    return i != WS_AS_OCC && i != WS_AS_L1_RATE && i != WS_AS_L2_RATE;
}

/* "KEY = VALUE": a figure of the current block when KEY is one of ours. */
static int ws_as_figure(struct ws_as *a, const char *s, long line, long col)
{
    const char *eq = strchr(s, '=');
    size_t klen;

    if (!eq || !a->open)
        return 0;
    for (klen = (size_t)(eq - s); klen > 0 && s[klen - 1] == ' '; klen--)
        ;
    for (int i = 0; i < WS_AS_NKEYS; i++) {
        double v;
        int rc;
        if (strlen(ws_as_keys[i]) != klen
            || strncmp(s, ws_as_keys[i], klen) != 0)
            continue;
        if (a->seen[i] && i <= WS_AS_OCC)
            return ws_as_twice(a, (enum ws_as_key)i, line, col);
        rc = ws_as_number(eq + 1, i == WS_AS_OCC, &v);
        /* a total or a rate printed again must say the same: a block
         * holding two values of one figure has no figure */
        if (a->seen[i] && rc >= 0
            && !(rc == 1 ? isnan(a->val[i]) : v == a->val[i]))
            return ws_as_twice(a, (enum ws_as_key)i, line, col);
        /* counts are whole and never nan: GPGPU-Sim prints nan only for
         * a rate of nothing (an empty kernel's occupancy, a miss rate) */
        if (rc < 0 || (rc == 0 && v < 0)
            || (ws_as_count(i) && (rc == 1 || v != floor(v))))
            return ws_err_at(a->err, a->name, line, col + (long)(eq + 1 - s),
                             "bad %s value "
                             "(expected a %snumber of at least 0)",
                             ws_as_keys[i], ws_as_count(i) ? "whole " : "");
        if (rc == 0 && i == WS_AS_OCC && v > 100)
            return ws_err_at(a->err, a->name, line, col + (long)(eq + 1 - s),
                             "gpu_occupancy %g%% "
                             "is above 100%% (expected the achieved "
                             "occupancy, a percentage of at most 100)",
                             v);
        a->seen[i] = 1;
        a->val[i] = rc == 0 ? v : NAN;
        a->line[i] = line;
        a->col[i] = col;
        return 0;
    }
    return 0;
}

static int ws_as_line(struct ws_as *a, char *line, long lineno)
{
    char *s = line + strspn(line, " \t");
    long col = (long)(s - line) + 1;

    if (strncmp(s, "kernel_name =", 13) == 0)
        return ws_as_kernel(a, s + 13, lineno, col);
    if (strncmp(s, "kernel_launch_uid =", 19) == 0)
        return ws_as_uid(a, s + 19, lineno, col);
    if (strncmp(s, "-gpgpu_clock_domains", 20) == 0)
        return ws_as_clock(a, s, lineno, col);
    if (strncmp(s, "DRAM[", 5) == 0)
        return ws_as_dram(a, s, lineno, col);
    if (strncmp(s, WS_AS_END, strlen(WS_AS_END)) == 0
        && s[strlen(WS_AS_END) + strspn(s + strlen(WS_AS_END), " \t")] == '=')
        return ws_as_finish(a);
    return ws_as_figure(a, s, lineno, col);
}

/* The metrics, with the units the log implies (no place in the file). */
static int ws_as_metrics_add(struct ws_measured *m, struct ws_err *err)
{
    for (int i = 0; i < WS_AS_NMETRICS; i++)
        if (ws_measured_add_metric(m, ws_as_metrics[i]) != i
            || ws_measured_set_unit(m, (size_t)i, ws_as_units[i], 0, 0) < 0)
            return ws_err_oom(err);
    return 0;
}

/* Why a metric is in no block: the figure GPGPU-Sim would print it from,
 * and when it does. */
static const struct {
    enum ws_as_key key;
    enum ws_as_metric metric;
    const char *why;
} ws_as_absent[] = {
    {WS_AS_INSN, WS_AS_M_THREAD_INSTS, "no gpu_sim_insn in the log"},
    {WS_AS_WINSN, WS_AS_M_WARP_INSTS, "no gpgpu_n_tot_w_icount in the log"},
    {WS_AS_OCC, WS_AS_M_OCC, "no gpu_occupancy in the log"},
    {WS_AS_L1_ACC, WS_AS_M_L1_HIT,
     "no L1D_total_cache_accesses in the log: "
     "GPGPU-Sim prints the L1D's totals only when the config enables it"},
    {WS_AS_L2_ACC, WS_AS_M_L2_HIT,
     "no L2_total_cache_accesses in the log: "
     "GPGPU-Sim prints the L2's totals only when the config enables it"},
    {WS_AS_DRAM_RD, WS_AS_M_DRAM_RD,
     "no 'total dram reads' in the log: "
     "GPGPU-Sim prints it with -gpgpu_memlatency_stat"},
    {WS_AS_DRAM_WR, WS_AS_M_DRAM_WR,
     "no 'total dram writes' in the log: "
     "GPGPU-Sim prints it with -gpgpu_memlatency_stat"},
};

/* Once the log is read: each kernel's time at the run's one core clock,
 * and a note for each metric the log has no figure for. */
static int ws_as_end(struct ws_as *a)
{
    struct ws_measured *m = a->m;
    struct ws_clip q;
    int rc = 0;

    for (size_t k = 0; k < m->nkernels; k++) {
        double t = ws_measured_value(m, k, WS_AS_M_CYCLES) / a->clock_mhz;
        /* cycles a double holds, over a clock below 1 MHz, can pass it */
        if (isinf(t))
            return ws_err_at(a->err, a->name, m->kernels[k].line, 1,
                             "the "
                             "gpu_sim_cycle of %s over the core clock, %g "
                             "MHz, passes a double (expected a time a run "
                             "can take)",
                             ws_clip(&q, m->kernels[k].name), a->clock_mhz);
        ws_measured_set(m, k, WS_AS_M_TIME, t);
    }
    if (isnan(a->clock_mhz))
        rc = ws_measured_add_note(m, WS_MEAS_ALL, WS_AS_M_TIME, 0,
                                  "the log "
                                  "does not echo -gpgpu_clock_domains, the "
                                  "core clock that turns gpu_sim_cycle into "
                                  "time");
    for (size_t i = 0;
         rc == 0 && i < sizeof ws_as_absent / sizeof ws_as_absent[0]; i++)
        if (a->had[ws_as_absent[i].key] == 0)
            rc = ws_measured_add_note(m, WS_MEAS_ALL, ws_as_absent[i].metric, 0,
                                      "%s", ws_as_absent[i].why);
    return rc < 0 ? ws_err_oom(a->err) : 0;
}

int ws_accelsim_read(struct ws_measured *m, struct ws_lines *r,
                     struct ws_err *err)
{
    struct ws_as a;
    char *line;
    size_t len;
    int rc;

    memset(&a, 0, sizeof a);
    a.m = m;
    a.name = m->name;
    a.kernel = -1;
    a.clock_mhz = NAN;
    a.atom = 32;
    a.err = err;
    for (int i = 0; i < WS_AS_NKEYS; i++)
        a.had[i] = -1;
    ws_meas_ids_init(&a.ids);
    m->format = WS_MEAS_ACCELSIM;
    rc = ws_as_metrics_add(m, err) < 0 ? -1 : 1;
    while (rc == 1 && (rc = ws_lines_next(r, &line, &len, err)) == 1)
        if (ws_as_line(&a, line, r->lineno) < 0)
            rc = -1;
    ws_meas_ids_free(&a.ids);
    if (rc < 0 || ws_as_cut(&a, r->lineno, 1) < 0)
        return -1;
    if (m->nkernels == 0)
        return ws_err_at(err, m->name, 1, 1,
                         "neither an Nsight Compute CSV "
                         "export (no header row starting \"ID\") nor an "
                         "Accel-Sim log (no 'kernel_name = ' line) (expected "
                         "ncu --csv --page raw output or Accel-Sim's "
                         "standard output)");
    return ws_as_end(&a);
}
