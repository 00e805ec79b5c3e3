/*
 * ws_model_mwp: the MWP/CWP analytical model of Hong & Kim ("An Analytical
 * Model for a GPU Architecture with Memory-level and Thread-level
 * Parallelism Awareness", ISCA 2009) with its synchronization cost, and
 * the L2 form of Wang & Lou ("GPU Performance Modeling and Analysis Using
 * Software and Hardware Characteristics"), eqs 20-22.
 *
 * Both look at one SM running N warps that all issue the same per-warp mix
 * of computation and memory instructions.  MWP (memory warp parallelism)
 * is how many warps' memory requests overlap; CWP (computation warp
 * parallelism) is how many warps can compute during one memory wait, plus
 * the one waiting.  The smaller of the two decides whether memory or
 * computation sets the time of one round of N warps, and #Rep rounds run
 * back to back.  Equation numbers below are Wang & Lou's: their eqs 5-19
 * restate Hong & Kim's, and eqs 1, 2 and 4 are Hong & Kim's three cases.
 *
 * Nothing is rounded: MWP, CWP and #Rep stay real numbers.  (Rounding them
 * up, as some reimplementations do, turns Hong & Kim's worked example from
 * 50728 cycles into 48444.)
 *
 * On an SM with several schedulers two quantities the papers call
 * Issue_cycles part: the SM's issue time of a warp instruction (the rate at
 * which N warps' computation drains: eqs 2, 9, 10 and the overlap terms)
 * and one warp's own time per instruction (its compute period: the first
 * and last warps of eqs 4, 20 and 22).  On the papers' one-scheduler SMs
 * they are the same number; Comp_cycles below is the warp's, Comp_cycles_SM
 * the SM's.
 *
 * Leaves out: where the parameters come from (ws_model_params.c); every
 * cache but Wang & Lou's L2 latency ratio; shared memory and its bank
 * conflicts; branch divergence; per-opcode latency (Issue_cycles is one
 * number for every instruction); DRAM rows and partition camping; the tail
 * of a last partial round (#Rep is a fraction, not a count of waves).
 */
#include "ws_model.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "ws_model_params.h"

/* The quantities both forms share, as the paper names them. */
struct ws_model_mwp_q {
    double n;               /* N: active warps per SM (eq 18) */
    double mem_insts;       /* #Mem_insts = uncoalesced + coalesced */
    double total_insts;     /* #Total_insts = #Comp_insts + #Mem_insts */
    double mem_l;           /* Mem_L (eq 8) */
    double departure_delay; /* eq 15 */
    double mwp;             /* eq 5 */
    const char *mwp_bound;  /* the term of eq 5 that is smallest */
    double comp_cycles;     /* eq 17: one warp's compute period */
    double comp_sm;         /* the SM's issue time of the same */
    double mem_cycles;      /* eq 16 */
    double cwp;             /* eq 9 */
    double rep;             /* #Rep (eq 19, Hong & Kim's reading) */
};

/* Hong & Kim's three cases, the memory-bound one split by which of its two
 * conditions selected it, so the regime can say. */
enum ws_model_mwp_case {
    WS_MODEL_MWP_FEW_WARPS, /* MWP == N and CWP == N */
    WS_MODEL_MWP_MEM_CWP,   /* CWP >= MWP */
    WS_MODEL_MWP_MEM_COMP,  /* Comp_cycles > Mem_cycles */
    WS_MODEL_MWP_COMPUTE    /* otherwise: MWP > CWP */
};

static const char *const ws_model_mwp_case_names[] = {
    "not enough warps (MWP = CWP = N)",
    "memory bound (CWP >= MWP)",
    "memory bound (Comp_cycles > Mem_cycles)",
    "compute bound (MWP > CWP)",
};

/* ---- Checking the input ---- */

/* Every parameter is a count, a latency, a rate or a fraction: a negative,
 * infinite or NaN one means the input is broken, not that the kernel is
 * unusual, so the model refuses it by name. */
static const struct {
    const char *name;
    size_t off;
} ws_model_mwp_fields[] = {
    {"Freq", offsetof(struct ws_mwp_params, freq_ghz)},
    {"Mem_Bandwidth", offsetof(struct ws_mwp_params, mem_bw_gbs)},
    {"Mem_LD", offsetof(struct ws_mwp_params, mem_ld)},
    {"Mem_L2_cache_hit", offsetof(struct ws_mwp_params, mem_l2_hit)},
    {"l2_hit_rate", offsetof(struct ws_mwp_params, l2_hit_rate)},
    {"transaction_bytes", offsetof(struct ws_mwp_params, transaction_bytes)},
    {"Departure_del_uncoal",
     offsetof(struct ws_mwp_params, departure_del_uncoal)},
    {"Departure_del_coal", offsetof(struct ws_mwp_params, departure_del_coal)},
    {"#Uncoal_per_mw", offsetof(struct ws_mwp_params, uncoal_per_mw)},
    {"#Coal_per_mw", offsetof(struct ws_mwp_params, coal_per_mw)},
    {"Load_bytes_per_warp",
     offsetof(struct ws_mwp_params, load_bytes_per_warp)},
    {"#Active_SMs", offsetof(struct ws_mwp_params, active_sms)},
    {"Issue_cycles", offsetof(struct ws_mwp_params, issue_cycles)},
    {"Issue_cycles_warp", offsetof(struct ws_mwp_params, issue_cycles_warp)},
    {"#Comp_insts", offsetof(struct ws_mwp_params, comp_insts)},
    {"#Uncoal_Mem_insts", offsetof(struct ws_mwp_params, uncoal_insts)},
    {"#Coal_Mem_insts", offsetof(struct ws_mwp_params, coal_insts)},
    {"#Synch_insts", offsetof(struct ws_mwp_params, synch_insts)},
    {"First_comp_period_insts",
     offsetof(struct ws_mwp_params, first_comp_period_insts)},
    {"#Threads_per_block", offsetof(struct ws_mwp_params, threads_per_block)},
    {"#Blocks", offsetof(struct ws_mwp_params, blocks)},
    {"#Active_blocks_per_SM",
     offsetof(struct ws_mwp_params, active_blocks_per_sm)},
};

static double ws_model_mwp_field(const struct ws_mwp_params *p, size_t off)
{
    return *(const double *)(const void *)((const char *)p + off);
}

/* Returns 1 when every parameter is a finite number >= 0 and the launch
 * and the issue rate are positive (each a divisor below), else skips. */
static int ws_model_mwp_check(const struct ws_mwp_params *p,
                              struct ws_model_result *r)
{
    size_t n = sizeof ws_model_mwp_fields / sizeof ws_model_mwp_fields[0];

    for (size_t i = 0; i < n; i++) {
        double v = ws_model_mwp_field(p, ws_model_mwp_fields[i].off);

        if (!isfinite(v) || v < 0)
            return ws_model_skip(r,
                                 "%s is %g: it must be a finite number "
                                 ">= 0",
                                 ws_model_mwp_fields[i].name, v);
    }
    if (p->blocks <= 0)
        return ws_model_skip(r, "#Blocks is 0: no blocks, nothing to run");
    if (p->active_sms <= 0)
        return ws_model_skip(r, "#Active_SMs is 0: #Rep would divide by 0");
    if (p->active_blocks_per_sm <= 0)
        return ws_model_skip(r, "#Active_blocks_per_SM is 0: no block fits "
                                "on an SM");
    if (p->threads_per_block <= 0)
        return ws_model_skip(r, "#Threads_per_block is 0: no warps");
    if (p->issue_cycles <= 0)
        return ws_model_skip(r, "Issue_cycles is 0: CWP would divide by 0");
    return 1;
}

/* The inputs only a kernel with memory instructions needs: each is a
 * divisor of eqs 5-7, or (#Uncoal_per_mw) a count of transactions that an
 * uncoalesced instruction needs at least one of. */
static int ws_model_mwp_check_memory(const struct ws_mwp_params *p,
                                     struct ws_model_result *r)
{
    if (p->freq_ghz <= 0)
        return ws_model_skip(r, "Freq is 0: BW_per_warp (eq 7) needs a "
                                "clock");
    if (p->mem_bw_gbs <= 0)
        return ws_model_skip(r, "Mem_Bandwidth is 0: memory instructions "
                                "could never complete");
    if (p->mem_ld <= 0)
        return ws_model_skip(r, "Mem_LD is 0: Mem_L (eq 8) divides "
                                "BW_per_warp (eq 7)");
    if (p->load_bytes_per_warp <= 0)
        return ws_model_skip(r, "Load_bytes_per_warp is 0: MWP_peak_BW "
                                "(eq 6) would divide by 0");
    if (p->uncoal_insts > 0 && p->uncoal_per_mw < 1)
        return ws_model_skip(r,
                             "#Uncoal_per_mw is %g: an uncoalesced "
                             "instruction needs at least 1 transaction",
                             p->uncoal_per_mw);
    return 1;
}

/* ---- The shared quantities (eqs 5-19) ---- */

/* Eqs 8 and 11-15: the latency of one memory warp and the delay between
 * two warps' requests, each weighted by the coalesced/uncoalesced mix.
 * Eq 12 is garbled in Wang & Lou's text ("Mem L_Uncoal = Mem LD"); Hong &
 * Kim's Mem_L_Coal = Mem_LD is meant.  #Coal_per_mw appears in neither
 * paper's equations (a coalesced warp's extra transactions are taken to
 * pipeline behind the first), so it is read and checked but not used. */
static int ws_model_mwp_latency(const struct ws_mwp_params *p,
                                struct ws_model_mwp_q *q,
                                struct ws_model_result *r)
{
    double mem_l_uncoal = p->mem_ld
                          + (p->uncoal_per_mw - 1) * p->departure_del_uncoal;
    double mem_l_coal = p->mem_ld;
    double w_uncoal = p->uncoal_insts / q->mem_insts; /* eq 13 */
    double w_coal = p->coal_insts / q->mem_insts;     /* eq 14 */

    ws_model_var(r, "Mem_L_Uncoal", mem_l_uncoal); /* eq 11 */
    ws_model_var(r, "Mem_L_Coal", mem_l_coal);     /* eq 12 */
    ws_model_var(r, "Weight_uncoal", w_uncoal);
    ws_model_var(r, "Weight_coal", w_coal);
    q->mem_l = mem_l_uncoal * w_uncoal + mem_l_coal * w_coal;
    ws_model_var(r, "Mem_L", q->mem_l);
    q->departure_delay = p->departure_del_uncoal * p->uncoal_per_mw * w_uncoal
                         + p->departure_del_coal * w_coal;
    ws_model_var(r, "Departure_delay", q->departure_delay);
    if (q->departure_delay <= 0)
        return ws_model_skip(r, "Departure_delay is 0 (a departure delay "
                                "of 0 for the accesses the kernel makes): "
                                "MWP (eq 5) would divide by 0");
    q->mem_cycles = mem_l_uncoal * p->uncoal_insts
                    + mem_l_coal * p->coal_insts; /* eq 16 */
    return 1;
}

/* Eqs 5-7: MWP, the memory requests in flight at once, is the least of
 * what latency allows (Mem_L / Departure_delay), what the SM's share of
 * DRAM bandwidth allows, and the warps there are.  Freq in GHz times bytes
 * per cycle gives GB/s, the unit of Mem_Bandwidth. */
static void ws_model_mwp_parallelism(const struct ws_mwp_params *p,
                                     struct ws_model_mwp_q *q,
                                     struct ws_model_result *r)
{
    double latency = q->mem_l / q->departure_delay;
    double without_bw = fmin(latency, q->n);
    double bw_per_warp = p->freq_ghz * p->load_bytes_per_warp / q->mem_l;
    double peak_bw = p->mem_bw_gbs / (bw_per_warp * p->active_sms);

    ws_model_var(r, "MWP_Without_BW", without_bw);
    ws_model_var(r, "BW_per_warp", bw_per_warp);
    ws_model_var(r, "MWP_peak_BW", peak_bw);
    q->mwp = fmin(fmin(without_bw, peak_bw), q->n);
    ws_model_var(r, "MWP", q->mwp);
    /* Ties name the warps first: "not enough warps" is the case they pick. */
    if (q->mwp == q->n)
        q->mwp_bound = "N";
    else if (q->mwp == peak_bw)
        q->mwp_bound = "peak bandwidth";
    else
        q->mwp_bound = "Mem_L/Departure_delay";
}

/* Eqs 9-10: CWP, the warps the SM computes while one waits for memory,
 * plus that one: the SM's issue time is the divisor.  Comp_cycles_SM > 0
 * here: a kernel with memory instructions has #Total_insts >= 1 and
 * Issue_cycles > 0 was checked. */
static void ws_model_mwp_cwp(struct ws_model_mwp_q *q,
                             struct ws_model_result *r)
{
    double full = (q->mem_cycles + q->comp_sm) / q->comp_sm;

    ws_model_var(r, "CWP_full", full);
    q->cwp = fmin(full, q->n);
    ws_model_var(r, "CWP", q->cwp);
}

/* #Rep, the rounds of resident blocks each SM runs (Hong & Kim's; Wang &
 * Lou's eq 19 writes #Blocks / (N x #Active_SM), which would count warps
 * as blocks); 0 where no block is resident. */
static double ws_model_mwp_rep(const struct ws_mwp_params *p)
{
    return p->active_blocks_per_sm > 0 && p->active_sms > 0
               ? p->blocks / (p->active_blocks_per_sm * p->active_sms)
               : 0;
}

/* Fills q and records every quantity in the order computed.  Returns 1 for
 * a kernel with memory instructions, 0 for one without (q then holds only
 * N, the instruction counts, Comp_cycles, Mem_cycles = 0 and #Rep), -1
 * when the model was skipped. */
static int ws_model_mwp_prepare(const struct ws_mwp_params *p,
                                struct ws_model_mwp_q *q,
                                struct ws_model_result *r)
{
    int memory;

    if (!ws_model_mwp_check(p, r))
        return -1;
    /* Eq 18; a partial warp still takes a warp slot. */
    q->n = p->active_blocks_per_sm * ceil(p->threads_per_block / 32.0);
    ws_model_var(r, "N", q->n);
    q->mem_insts = p->uncoal_insts + p->coal_insts;
    /* Table 1: #Total_insts = #Comp_insts + #Mem_insts.  Synchronization
     * instructions are not in it: Hong & Kim's example counts 27 + 6 = 33
     * instructions (Comp_cycles = 132) beside its 6 barriers, whose cost
     * is Synch_cost alone. */
    q->total_insts = p->comp_insts + q->mem_insts;
    ws_model_var(r, "Mem_insts", q->mem_insts);
    ws_model_var(r, "Total_insts", q->total_insts);
    if (q->total_insts <= 0) {
        ws_model_skip(r, "#Total_insts is 0: the kernel has no computation "
                         "or memory instructions");
        return -1;
    }
    memory = q->mem_insts > 0;
    q->mem_cycles = 0;
    if (memory) {
        if (!ws_model_mwp_check_memory(p, r) || !ws_model_mwp_latency(p, q, r))
            return -1;
        ws_model_mwp_parallelism(p, q, r);
        /* The cases count warps in flight: below one, (MWP - 1) turns the
         * overlap and the barrier cost negative.  It means requests leave
         * slower than they return, or one warp's demand exceeds the SM's
         * share of bandwidth: outside what the model describes. */
        if (q->mwp < 1) {
            ws_model_skip(r,
                          "MWP = %.3g is below one warp (bound by %s): "
                          "Hong & Kim's cases assume at least one memory "
                          "warp in flight",
                          q->mwp, q->mwp_bound);
            return -1;
        }
    }
    q->comp_cycles = (p->issue_cycles_warp > 0 ? p->issue_cycles_warp
                                               : p->issue_cycles)
                     * q->total_insts; /* eq 17 */
    q->comp_sm = p->issue_cycles * q->total_insts;
    ws_model_var(r, "Comp_cycles", q->comp_cycles);
    ws_model_var(r, "Comp_cycles_SM", q->comp_sm);
    ws_model_var(r, "Mem_cycles", q->mem_cycles);
    if (memory)
        ws_model_mwp_cwp(q, r);
    q->rep = ws_model_mwp_rep(p);
    ws_model_var(r, "Rep", q->rep);
    return memory;
}

/* Hong & Kim's case analysis, as written (the order of the tests matters:
 * "not enough warps" first). */
static enum ws_model_mwp_case ws_model_mwp_case(const struct ws_model_mwp_q *q)
{
    if (q->mwp == q->n && q->cwp == q->n)
        return WS_MODEL_MWP_FEW_WARPS;
    if (q->cwp >= q->mwp)
        return WS_MODEL_MWP_MEM_CWP;
    if (q->comp_sm > q->mem_cycles)
        return WS_MODEL_MWP_MEM_COMP;
    return WS_MODEL_MWP_COMPUTE;
}

/* ---- Finishing: synchronization, total, regime ---- */

/* Hong & Kim's synchronization cost: at each barrier the MWP - 1 requests
 * that would have overlapped the last one instead drain one after another,
 * Departure_delay apart, once per barrier, resident block and round. */
static double ws_model_mwp_synch(const struct ws_mwp_params *p,
                                 const struct ws_model_mwp_q *q)
{
    return q->departure_delay * (q->mwp - 1) * p->synch_insts
           * p->active_blocks_per_sm * q->rep;
}

static int ws_model_mwp_finish(const struct ws_mwp_params *p,
                               const struct ws_model_mwp_q *q,
                               struct ws_model_result *r, double exec,
                               const char *regime, const char *which)
{
    double synch = ws_model_mwp_synch(p, q);

    ws_model_var(r, "Exec", exec);
    ws_model_var(r, "Synch_cost", synch);
    r->cycles = exec + synch;
    ws_model_var(r, "Total", r->cycles);
    snprintf(r->regime, sizeof r->regime, "%s%s%s; MWP bound by %s", regime,
             which ? ", " : "", which ? which : "", q->mwp_bound);
    return 1;
}

/* Eq 2's computation of N warps: the SM's issue time of all of them, but
 * never less than one warp's own period (fewer warps than schedulers leave
 * schedulers idle). */
static double ws_model_mwp_comp_n(const struct ws_model_mwp_q *q)
{
    return fmax(q->comp_sm * q->n, q->comp_cycles);
}

/* A kernel without memory instructions: every warp only computes, so one
 * round takes the computation of N warps, which is the compute-bound case
 * (eq 2) with Mem_L = 0; the other cases divide by #Mem_insts = 0.  No
 * barrier cost: Hong & Kim charge a barrier for the memory requests it
 * stops from overlapping, and there are none. */
static int ws_model_mwp_compute_only(const struct ws_model_mwp_q *q,
                                     struct ws_model_result *r)
{
    double exec = ws_model_mwp_comp_n(q) * q->rep;

    ws_model_var(r, "Exec", exec);
    ws_model_var(r, "Synch_cost", 0);
    r->cycles = exec;
    ws_model_var(r, "Total", r->cycles);
    snprintf(r->regime, sizeof r->regime,
             "no memory instructions: compute only");
    return 1;
}

/* ---- Domains ---- */

/* Hong & Kim's GPUs had no data caches: every access pays Mem_LD, which a
 * kernel that reads its sectors again (from L1 or L2) does not.  A tenth
 * of the reads is where that starts to show beside their reported 13 %
 * error on applications. */
#define WS_MWP_MAX_REUSE 0.10

/* A partial last round the model leaves out (#Rep is a fraction) may add
 * this much to the time at most: B_r large, or whole rounds. */
#define WS_MWP_MAX_TAIL 0.10

/* Both papers model one SM's round of blocks and multiply by #Rep, a
 * fraction: where the last round is partial, the SMs that run it take a
 * whole round, which they leave out; so their domain is whole rounds or
 * many of them.  Hong & Kim also assume no caches, Wang & Lou an L2. */
static void ws_model_mwp_domain(const struct ws_mwp_params *p,
                                struct ws_model_result *r, int no_cache)
{
    double rep = ws_model_mwp_rep(p);

    if (rep > 0 && ceil(rep - 1e-9) > (1 + WS_MWP_MAX_TAIL) * rep)
        ws_model_domain(r, 0,
                        "#Rep = %.3g rounds: the partial last round "
                        "it leaves out adds %.0f%% (expected whole rounds, "
                        "or many)",
                        rep, 100 * (ceil(rep - 1e-9) / rep - 1));
    else if (no_cache && p->l2_hit_rate > WS_MWP_MAX_REUSE)
        ws_model_domain(r, 0,
                        "%.0f%% of sector reads reuse a sector: Hong & "
                        "Kim's GPUs had no caches (expected at most %.0f%%)",
                        100 * p->l2_hit_rate, 100 * WS_MWP_MAX_REUSE);
    else if (no_cache)
        ws_model_domain(r, 1,
                        "whole rounds of blocks, little reuse (no "
                        "caches)");
    else
        ws_model_domain(r, 1, "whole rounds of blocks");
}

/* ---- Hong & Kim ---- */

int ws_model_mwp(const struct ws_mwp_params *p, struct ws_model_result *r)
{
    struct ws_model_mwp_q q;
    enum ws_model_mwp_case c;
    double exec;

    ws_model_begin(r, "mwp_cwp");
    ws_model_mwp_domain(p, r, 1);
    switch (ws_model_mwp_prepare(p, &q, r)) {
    case -1:
        return 0;
    case 0:
        return ws_model_mwp_compute_only(&q, r);
    }
    c = ws_model_mwp_case(&q);
    switch (c) {
    case WS_MODEL_MWP_FEW_WARPS:
        /* Eq 4: every request is exposed; the warps' computation between
         * requests delays the last of the MWP. */
        exec = q.mem_cycles + q.comp_cycles
               + q.comp_sm / q.mem_insts * (q.mwp - 1);
        break;
    case WS_MODEL_MWP_MEM_CWP:
    case WS_MODEL_MWP_MEM_COMP:
        /* Eq 1: N/MWP rounds of memory periods, computation hidden under
         * them but for the last warp's.  Wang & Lou print eq 1 with
         * "x MWP"; Hong & Kim's model (and Wang & Lou's own eq 21) has
         * MWP - 1, which their worked example needs.  Hong & Kim also send
         * Comp_cycles > Mem_cycles here, as written, though it then can
         * predict less than Comp_cycles x N. */
        exec = q.mem_cycles * q.n / q.mwp
               + q.comp_sm / q.mem_insts * (q.mwp - 1);
        break;
    default:
        /* Eq 2: computation of all N warps, plus one exposed latency. */
        exec = q.mem_l + ws_model_mwp_comp_n(&q);
        break;
    }
    return ws_model_mwp_finish(p, &q, r, exec * q.rep,
                               ws_model_mwp_case_names[c], NULL);
}

/* ---- Wang & Lou's L2 form (eqs 20-22) ---- */

/* The L2 parameters, needed only with memory instructions. */
static int ws_model_mwp_l2_check(const struct ws_mwp_params *p,
                                 const struct ws_model_mwp_q *q,
                                 struct ws_model_result *r)
{
    if (p->mem_l2_hit <= 0)
        return ws_model_skip(r, "Mem_L2_cache_hit is 0: the L2 form needs "
                                "the L2 hit latency");
    if (p->mem_l2_hit > p->mem_ld)
        return ws_model_skip(r,
                             "Mem_L2_cache_hit (%g) exceeds "
                             "Mem_L2_cache_miss = Mem_LD (%g): an L2 hit "
                             "slower than DRAM",
                             p->mem_l2_hit, p->mem_ld);
    /* Lenient on purpose: the counts are averages over warps and the
     * profile's categories need not sum to every instruction. */
    if (p->first_comp_period_insts > q->total_insts + p->synch_insts)
        return ws_model_skip(r,
                             "First_comp_period_insts (%g) exceeds the "
                             "kernel's instructions (%g)",
                             p->first_comp_period_insts,
                             q->total_insts + p->synch_insts);
    return 1;
}

/* The factor on later warps' memory cycles.  Wang & Lou write
 * Mem_L2_cache_hit / Mem_L2_cache_miss and apply it to every warp after
 * the first, as if every later access hit (their saxpy reads what the
 * first warps brought in): that is the paper's form (reuse 0 here).
 * warpsim's extension (reuse 1) lets the kernel's reuse decide how many
 * do: with h = l2_hit_rate, a later access costs hit latency with
 * probability h and miss latency otherwise, so
 *     L2_ratio = h x Mem_L2_cache_hit / Mem_L2_cache_miss + (1 - h),
 * which is the paper's ratio at h = 1 and 1 (later warps pay DRAM latency
 * too) at h = 0.  Mem_L2_cache_miss = Mem_LD (Table 1, row 8). */
static double ws_model_mwp_l2_ratio(const struct ws_mwp_params *p, int reuse,
                                    struct ws_model_result *r)
{
    double hit_miss = p->mem_l2_hit / p->mem_ld;
    double h = reuse ? p->l2_hit_rate : 1;
    double ratio = h * hit_miss + (1 - h);

    ws_model_var(r, "L2_hit_miss_ratio", hit_miss);
    if (reuse)
        ws_model_var(r, "L2_hit_rate", p->l2_hit_rate);
    ws_model_var(r, "L2_ratio", ratio);
    return ratio;
}

/* Eqs 20 and 22 take the later of the first warp, which misses cold, and
 * the last warp, which starts late but hits in L2. */
static double ws_model_mwp_l2_warps(struct ws_model_result *r, double first,
                                    double last, const char **which)
{
    ws_model_var(r, "First_warp_cycles", first);
    ws_model_var(r, "Last_warp_cycles", last);
    *which = last > first ? "last warp binds" : "first warp binds";
    return fmax(first, last);
}

/* Eq 20: not enough warps.  As written, the last warp's time has no
 * Comp_cycles of its own: it starts (MWP - 1) first computation periods
 * after the first warp and then pays only its (L2) memory cycles. */
static double ws_model_mwp_l2_few(const struct ws_mwp_params *p,
                                  const struct ws_model_mwp_q *q, double ratio,
                                  struct ws_model_result *r, const char **which)
{
    double first = q->mem_cycles + q->comp_cycles;
    double last = p->first_comp_period_insts * p->issue_cycles * (q->mwp - 1)
                  + q->mem_cycles * ratio;

    return ws_model_mwp_l2_warps(r, first, last, which);
}

/* Eq 21: memory bound.  Of Hong & Kim's N/MWP memory rounds (eq 1) the
 * first misses and the other #Cache_hit_mem = N/MWP - 1 pay the L2 ratio;
 * so with L2_ratio = 1 this is eq 1 exactly. */
static double ws_model_mwp_l2_memory(const struct ws_model_mwp_q *q,
                                     double ratio, struct ws_model_result *r)
{
    double hit_mem = fmax(q->n / q->mwp - 1, 0);

    ws_model_var(r, "Cache_hit_mem", hit_mem);
    return q->mem_cycles + q->mem_cycles * ratio * hit_mem
           + q->comp_sm / q->mem_insts * (q->mwp - 1);
}

/* Eq 22: compute bound.  Its last warp uses "Mem_l", a name defined
 * nowhere; it is read as Mem_L (eq 8), the one latency the first warp of
 * this case pays too, not Mem_cycles.  As written, First_warp_cycles =
 * Mem_L + Comp_cycles has no "x N" (eq 2 has), and the last warp starts
 * First_comp_period_insts x Issue_cycles x N late and computes nothing
 * after: so this case predicts about one warp's computation, far below
 * eq 2's N warps', and does not reduce to eq 2 at L2_ratio = 1.  Kept
 * literal; Wang & Lou test it on no compute-bound kernel. */
static double ws_model_mwp_l2_compute(const struct ws_mwp_params *p,
                                      const struct ws_model_mwp_q *q,
                                      double ratio, struct ws_model_result *r,
                                      const char **which)
{
    double first = q->mem_l + q->comp_cycles;
    double last = p->first_comp_period_insts * p->issue_cycles * q->n
                  + q->mem_l * ratio;

    return ws_model_mwp_l2_warps(r, first, last, which);
}

/* Both L2 forms: the paper's (reuse 0) and warpsim's (reuse 1). */
static int ws_model_mwp_l2_form(const struct ws_mwp_params *p,
                                struct ws_model_result *r, const char *name,
                                int reuse)
{
    struct ws_model_mwp_q q;
    enum ws_model_mwp_case c;
    const char *which = NULL;
    double ratio, exec;
    int memory;

    ws_model_begin(r, name);
    ws_model_mwp_domain(p, r, 0);
    memory = ws_model_mwp_prepare(p, &q, r);
    if (memory < 0)
        return 0;
    if (p->l2_hit_rate > 1)
        return ws_model_skip(r, "l2_hit_rate is %g: a fraction must be <= 1",
                             p->l2_hit_rate);
    if (!memory) /* no memory, no L2: Hong & Kim's compute-only round */
        return ws_model_mwp_compute_only(&q, r);
    if (!ws_model_mwp_l2_check(p, &q, r))
        return 0;
    ratio = ws_model_mwp_l2_ratio(p, reuse, r);
    c = ws_model_mwp_case(&q);
    switch (c) {
    case WS_MODEL_MWP_FEW_WARPS:
        exec = ws_model_mwp_l2_few(p, &q, ratio, r, &which);
        break;
    case WS_MODEL_MWP_MEM_CWP:
    case WS_MODEL_MWP_MEM_COMP:
        exec = ws_model_mwp_l2_memory(&q, ratio, r);
        break;
    default:
        exec = ws_model_mwp_l2_compute(p, &q, ratio, r, &which);
        break;
    }
    /* Wang & Lou keep Hong & Kim's synchronization cost unchanged. */
    return ws_model_mwp_finish(p, &q, r, exec * q.rep,
                               ws_model_mwp_case_names[c], which);
}

int ws_model_mwp_l2(const struct ws_mwp_params *p, struct ws_model_result *r)
{
    return ws_model_mwp_l2_form(p, r, "mwp_cwp_l2", 0);
}

int ws_model_mwp_l2_reuse(const struct ws_mwp_params *p,
                          struct ws_model_result *r)
{
    return ws_model_mwp_l2_form(p, r, "mwp_cwp_l2_reuse", 1);
}

/* ---- The three models for the table (ws_model_def.h) ---- */

/* The inputs the family shares, by the names --params reads (the paper's
 * names are in ws_model_mwp_fields above, for messages). */
#define MWP(f) offsetof(struct ws_mwp_params, f)
static const struct ws_model_field ws_model_mwp_inputs[] = {
    {"freq_ghz", MWP(freq_ghz), "Freq, SM clock in GHz"},
    {"mem_bw_gbs", MWP(mem_bw_gbs), "Mem_Bandwidth, GB/s"},
    {"mem_ld", MWP(mem_ld), "Mem_LD = Mem_L2_cache_miss, cycles"},
    {"mem_l2_hit", MWP(mem_l2_hit), "Mem_L2_cache_hit, cycles (L2 form)"},
    {"l2_hit_rate", MWP(l2_hit_rate),
     "share of sector reads that reuse a sector (reuse variant, domain)"},
    {"transaction_bytes", MWP(transaction_bytes),
     "the transaction: 128 (the papers' block) or 32 (sector)"},
    {"departure_del_uncoal", MWP(departure_del_uncoal),
     "Departure_del_uncoal, cycles per transaction"},
    {"departure_del_coal", MWP(departure_del_coal),
     "Departure_del_coal, cycles per coalesced warp"},
    {"departure_measured", MWP(departure_measured),
     "1: delays measured by the config's microbenchmark, 0: estimated"},
    {"uncoal_per_mw", MWP(uncoal_per_mw), "#Uncoal_per_mw, transactions"},
    {"coal_per_mw", MWP(coal_per_mw), "#Coal_per_mw, transactions"},
    {"load_bytes_per_warp", MWP(load_bytes_per_warp),
     "Load_bytes_per_warp, bytes moved per memory warp instruction"},
    {"active_sms", MWP(active_sms), "#Active_SMs"},
    {"issue_cycles", MWP(issue_cycles),
     "Issue_cycles: SM cycles per warp instruction"},
    {"issue_cycles_warp", MWP(issue_cycles_warp),
     "one warp's own cycles per instruction (0: Issue_cycles)"},
    {"comp_insts", MWP(comp_insts), "#Comp_insts per warp"},
    {"uncoal_insts", MWP(uncoal_insts), "#Uncoal_Mem_insts per warp"},
    {"coal_insts", MWP(coal_insts), "#Coal_Mem_insts per warp"},
    {"synch_insts", MWP(synch_insts), "#Synch_insts per warp"},
    {"first_comp_period_insts", MWP(first_comp_period_insts),
     "First_comp_period_insts per warp"},
    {"threads_per_block", MWP(threads_per_block), "#Threads_per_block"},
    {"blocks", MWP(blocks), "#Blocks"},
    {"active_blocks_per_sm", MWP(active_blocks_per_sm),
     "#Active_blocks_per_SM"},
};

_Static_assert(sizeof(struct ws_mwp_params) <= sizeof(union ws_model_params),
               "MWP/CWP's inputs fit the buffer every model shares");

static void ws_model_mwp_derive(const struct ws_profile *p,
                                const struct ws_gpu *g, int l2_may_be_warm,
                                union ws_model_params *out)
{
    struct ws_mwp_params in;

    memset(&in, 0, sizeof in);
    ws_model_params_mwp(p, g, &in);
    memcpy(out, &in, sizeof in);
}

static int ws_model_mwp_evaluate(const union ws_model_params *in,
                                 struct ws_model_result *r)
{
    struct ws_mwp_params p;

    memcpy(&p, in, sizeof p);
    return ws_model_mwp(&p, r);
}

static int ws_model_mwp_l2_evaluate(const union ws_model_params *in,
                                    struct ws_model_result *r)
{
    struct ws_mwp_params p;

    memcpy(&p, in, sizeof p);
    return ws_model_mwp_l2(&p, r);
}

static int ws_model_mwp_l2_reuse_evaluate(const union ws_model_params *in,
                                          struct ws_model_result *r)
{
    struct ws_mwp_params p;

    memcpy(&p, in, sizeof p);
    return ws_model_mwp_l2_reuse(&p, r);
}

#define WS_MWP_NINPUTS \
    (int)(sizeof ws_model_mwp_inputs / sizeof ws_model_mwp_inputs[0])

const struct ws_model_def ws_model_mwp_def = {
    .name = "mwp_cwp",
    .what = "Hong & Kim's MWP/CWP (ISCA 2009)",
    .fields = ws_model_mwp_inputs,
    .nfields = WS_MWP_NINPUTS,
    .derive = ws_model_mwp_derive,
    .evaluate = ws_model_mwp_evaluate,
};

const struct ws_model_def ws_model_mwp_l2_def = {
    .name = "mwp_cwp_l2",
    .what = "Wang & Lou's L2 form of MWP/CWP, eqs 20-22 as written",
    .fields = ws_model_mwp_inputs,
    .nfields = WS_MWP_NINPUTS,
    .inputs_of = &ws_model_mwp_def,
    .derive = ws_model_mwp_derive,
    .evaluate = ws_model_mwp_l2_evaluate,
};

const struct ws_model_def ws_model_mwp_l2_reuse_def = {
    .name = "mwp_cwp_l2_reuse",
    .what = "warpsim's extension of it: the L2 ratio weighted by the "
            "kernel's reuse",
    .fields = ws_model_mwp_inputs,
    .nfields = WS_MWP_NINPUTS,
    .inputs_of = &ws_model_mwp_def,
    .derive = ws_model_mwp_derive,
    .evaluate = ws_model_mwp_l2_reuse_evaluate,
};
