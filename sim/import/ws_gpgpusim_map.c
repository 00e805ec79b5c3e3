/*
 * ws_gpgpusim_map: the translation rules, GPGPU-Sim options to warpsim
 * keys (see ws_gpgpusim.h).
 *
 * Three kinds of value, each said in the key's comment:
 *   - from options: "-gpgpu_n_clusters 80 x -gpgpu_n_cores_per_cluster 1";
 *     units converted (KB options to bytes, DRAM clocks to ns, ...);
 *   - [RULE]: derived by the stated rule where warpsim's key means
 *     something GPGPU-Sim spreads over several options (a load-to-use
 *     latency, a bandwidth, function-unit lanes);
 *   - [BASE name]: a key none of whose options the input gives, or that
 *     GPGPU-Sim has no option for, kept from the base config.
 * A key computed from several options of which only some are given takes
 * GPGPU-Sim's registered default for the others, as GPGPU-Sim would, and
 * the comment names it ("-gpgpu_n_sub_partition_per_mchannel default 1").
 *
 * Leaves out: writing and validating the YAML (ws_gpgpusim_yaml.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/ws_cfg_schema.h"
#include "ws_gpgpusim_int.h"
#include "config/ws_units.h"
#include "util/ws_clip.h"

/* ---- fetching options --------------------------------------------------- */

/* The option if given (marked used), with its citation either way. */
struct ws_gpgpusim_opt *ws_gs_fetch(struct ws_gs_map *m, const char *name,
                                    const char *def, struct ws_gs_val *v)
{
    char q[80];
    int n;

    /* A citation longer than cite is cut: it is a comment, and the
     * option's value was already shortened to 60 bytes for the same
     * reason. */
    v->o = ws_gpgpusim_get(m->g, name);
    if (v->o) {
        ws_gs_quote(q, sizeof q, v->o->value, 60);
        n = snprintf(v->cite, sizeof v->cite, "%s %s", name, q);
    } else {
        n = snprintf(v->cite, sizeof v->cite, "%s default %s", name, def);
    }
    if (n < 0)
        v->cite[0] = '\0';
    return v->o;
}

/* A whole-number option, or def when absent. */
int ws_gs_uint(struct ws_gs_map *m, const char *name, uint64_t lo, uint64_t hi,
               uint64_t def, struct ws_gs_val *v, uint64_t *out)
{
    char d[24];

    snprintf(d, sizeof d, "%llu", (unsigned long long)def);
    *out = def;
    if (!ws_gs_fetch(m, name, d, v))
        return 0;
    return ws_gpgpusim_uint(v->o, lo, hi, out, m->err);
}

int ws_gs_flag(struct ws_gs_map *m, const char *name, int def,
               struct ws_gs_val *v, int *out)
{
    *out = def;
    if (!ws_gs_fetch(m, name, def ? "1" : "0", v))
        return 0;
    return ws_gpgpusim_bool(v->o, out, m->err);
}

/* An option of packed text: the given one, or GPGPU-Sim's default as a
 * stand-in option (placed at the input's first line: a default cannot be
 * wrong, but an error must have a place).  Only for small values: an
 * absent cache or DRAM description leaves its keys to the base instead,
 * GPGPU-Sim's defaults for those describing no GPU of today. */
struct ws_gpgpusim_opt *ws_gs_packed(struct ws_gs_map *m, const char *name,
                                     const char *def, struct ws_gs_val *v,
                                     struct ws_gpgpusim_opt *stand)
{
    if (ws_gs_fetch(m, name, def, v))
        return v->o;
    memset(stand, 0, sizeof *stand);
    stand->name = (char *)name;
    stand->value = (char *)def;
    stand->file = m->first_file;
    stand->line = 1;
    stand->col = 1;
    return stand;
}

/* ---- setting keys ------------------------------------------------------- */

int ws_gs_set_u(struct ws_gs_map *m, const char *key,
                const struct ws_gpgpusim_opt *o, size_t off, uint64_t v,
                const char *why)
{
    char text[32];

    snprintf(text, sizeof text, "%llu", (unsigned long long)v);
    return ws_gs_set(m, key, o, off, text, "%s", why);
}

int ws_gs_set_size(struct ws_gs_map *m, const char *key,
                   const struct ws_gpgpusim_opt *o, size_t off, uint64_t bytes,
                   const char *why)
{
    char text[40];

    ws_units_fmt_size(text, sizeof text, bytes);
    return ws_gs_set(m, key, o, off, text, "%s", why);
}

/* A real with its unit, rounded to a thousandth: comments and configs
 * read better as 14.118ns than as 14.117647058823529ns. */
int ws_gs_set_real(struct ws_gs_map *m, const char *key,
                   const struct ws_gpgpusim_opt *o, size_t off, double v,
                   const char *unit, const char *why)
{
    char text[64];

    snprintf(text, sizeof text, "%.15g%s", round(v * 1000.0) / 1000.0, unit);
    return ws_gs_set(m, key, o, off, text, "%s", why);
}

int ws_gs_set_flag(struct ws_gs_map *m, const char *key,
                   const struct ws_gpgpusim_opt *o, int v, const char *why)
{
    return ws_gs_set(m, key, o, 0, v ? "true" : "false", "%s", why);
}

void ws_gs_aside(struct ws_gs_val *v, const char *why)
{
    if (v->o) {
        v->o->used = 0;
        v->o->why = why;
    }
}

void ws_gs_aside_name(struct ws_gs_map *m, const char *name, const char *why)
{
    struct ws_gpgpusim_opt *o = ws_gpgpusim_peek(m->g, name);

    if (o && !o->used)
        o->why = why;
}

/* The first given option of several, to blame. */
const struct ws_gpgpusim_opt *ws_gs_first(const struct ws_gs_val *a,
                                          const struct ws_gs_val *b,
                                          const struct ws_gs_val *c)
{
    return a && a->o ? a->o : b && b->o ? b->o : c ? c->o : NULL;
}

/* ---- identity ----------------------------------------------------------- */

static const char *ws_gs_basename(const char *path)
{
    const char *s = strrchr(path, '/');

    return s ? s + 1 : path;
}

static int ws_gs_map_identity(struct ws_gs_map *m)
{
    char name[96], file[64], text[256];
    struct ws_gs_val maj, min, cap;
    uint64_t vmaj, vmin, vcap;

    ws_gs_quote(file, sizeof file, ws_gs_basename(m->first_file), 50);
    snprintf(name, sizeof name, "GPGPU-Sim import of %s", file);
    if (ws_gs_set(m, "name", NULL, 0, name, "[IMPORT] the file name") < 0)
        return -1;
    snprintf(text, sizeof text,
             "GPGPU-Sim options (%s); keys it lacks from "
             "%s",
             file, m->base_name);
    if (ws_gs_set(m, "source", NULL, 0, text, "[IMPORT]") < 0)
        return -1;
    if (ws_gs_uint(m, "-gpgpu_compute_capability_major", 1, 19, 7, &maj, &vmaj)
            < 0
        || ws_gs_uint(m, "-gpgpu_compute_capability_minor", 0, 9, 0, &min,
                      &vmin)
               < 0
        || ws_gs_uint(m, "-gpgpu_ptx_force_max_capability", 10, 199, 0, &cap,
                      &vcap)
               < 0)
        return -1;
    if (maj.o) {
        snprintf(text, sizeof text, "%s, %s", maj.cite, min.cite);
        ws_gs_aside(&cap, "superseded by -gpgpu_compute_capability_major");
        return ws_gs_set_u(m, "sm_version", maj.o, 0, vmaj * 10 + vmin, text);
    }
    ws_gs_aside(&min,
                "qualifies -gpgpu_compute_capability_major, not given: "
                "sm_version from -gpgpu_ptx_force_max_capability, else the "
                "base");
    if (cap.o)
        return ws_gs_set_u(m, "sm_version", cap.o, 0, vcap, cap.cite);
    return 0;
}

/* ---- clocks and the SM -------------------------------------------------- */

static int ws_gs_map_clocks(struct ws_gs_map *m)
{
    char why[600];

    if (!ws_gs_fetch(m, "-gpgpu_clock_domains", "", &m->clk_src)) {
        /* The base's clocks: a description without clocks is partial, and
         * GPGPU-Sim's default (500 MHz cores) describes no GPU of today. */
        m->clk[0] = m->clk[1] = m->clk[2] = m->out.core_mhz;
        m->clk[3] = m->out.dram.clock_mhz;
        snprintf(m->clk_src.cite, sizeof m->clk_src.cite,
                 "the base's "
                 "clocks");
        return 0;
    }
    if (ws_gpgpusim_reals(m->clk_src.o, ':', 4, 100000, m->clk, m->err) < 0)
        return -1;
    snprintf(why, sizeof why, "-gpgpu_clock_domains %.6g:... (core)",
             m->clk[0]);
    return ws_gs_set_real(m, "clock.core", m->clk_src.o, 0, m->clk[0], "MHz",
                          why);
}

static int ws_gs_map_count(struct ws_gs_map *m)
{
    struct ws_gs_val cl, cpc;
    uint64_t ncl, ncpc;
    char why[600];

    if (ws_gs_uint(m, "-gpgpu_n_clusters", 1, 100000, 10, &cl, &ncl) < 0
        || ws_gs_uint(m, "-gpgpu_n_cores_per_cluster", 1, 1024, 3, &cpc, &ncpc)
               < 0)
        return -1;
    if (!cl.o && !cpc.o)
        return 0;
    snprintf(why, sizeof why, "%s x %s", cl.cite, cpc.cite);
    return ws_gs_set_u(m, "sm.count", ws_gs_first(&cl, &cpc, NULL), 0,
                       ncl * ncpc, why);
}

static int ws_gs_map_pipeline(struct ws_gs_map *m)
{
    struct ws_gs_val v;
    uint64_t f[3];
    size_t n;
    char why[600];

    if (!ws_gs_fetch(m, "-gpgpu_shader_core_pipeline", "1024:32", &v))
        return 0;
    if (ws_gpgpusim_uints(v.o, ':', 2, 3, 1, 65536, f, &n, m->err) < 0)
        return -1;
    if (f[1] != 32)
        return ws_gpgpusim_err(m->err, v.o, strcspn(v.o->value, ":") + 1,
                               "warp size %llu (expected 32: warpsim "
                               "simulates 32-thread warps)",
                               (unsigned long long)f[1]);
    if (f[0] % 32 != 0)
        return ws_gpgpusim_err(m->err, v.o, 0,
                               "%llu threads per SM "
                               "(expected a multiple of the warp size 32)",
                               (unsigned long long)f[0]);
    if (n == 3)
        ws_gs_note(m,
                   "-gpgpu_shader_core_pipeline third field %llu: "
                   "GPGPU-Sim 3's SIMD width, unused by GPGPU-Sim 4",
                   (unsigned long long)f[2]);
    if (ws_gs_set_u(m, "sm.max_threads", v.o, 0, f[0], v.cite) < 0)
        return -1;
    snprintf(why, sizeof why, "%s: %llu threads / 32", v.cite,
             (unsigned long long)f[0]);
    return ws_gs_set_u(m, "sm.max_warps", v.o, 0, f[0] / 32, why);
}

/* A key that is one whole-number option as it stands. */
int ws_gs_map_plain(struct ws_gs_map *m, const char *key, const char *name,
                    uint64_t lo, uint64_t hi)
{
    struct ws_gs_val v;
    uint64_t x;

    if (ws_gs_uint(m, name, lo, hi, 0, &v, &x) < 0)
        return -1;
    return v.o ? ws_gs_set_u(m, key, v.o, 0, x, v.cite) : 0;
}

static int ws_gs_map_sm(struct ws_gs_map *m)
{
    struct ws_gs_val sub;
    int subcore;
    char why[600];

    if (ws_gs_map_count(m) < 0 || ws_gs_map_pipeline(m) < 0
        || ws_gs_map_plain(m, "sm.max_blocks", "-gpgpu_shader_cta", 1, 1024) < 0
        || ws_gs_map_plain(m, "sm.registers", "-gpgpu_shader_registers", 1,
                           16777216)
               < 0
        || ws_gs_uint(m, "-gpgpu_num_sched_per_core", 1, 16, 1, &m->sched_src,
                      &m->sched)
               < 0
        || ws_gs_flag(m, "-gpgpu_sub_core_model", 0, &sub, &subcore) < 0)
        return -1;
    if (!m->sched_src.o) {
        ws_gs_aside(&sub, "qualifies -gpgpu_num_sched_per_core, not given: "
                          "sm.sub_cores kept from the base");
        return 0;
    }
    snprintf(why, sizeof why, "%s: a sub-core per scheduler%s",
             m->sched_src.cite,
             subcore ? " (-gpgpu_sub_core_model 1)"
                     : "; GPGPU-Sim's schedulers share the units "
                       "(-gpgpu_sub_core_model 0), warpsim's own a share each");
    return ws_gs_set_u(m, "sm.sub_cores", m->sched_src.o, 0, m->sched, why);
}

/* ---- scheduling ----------------------------------------------------------- */

static int ws_gs_map_policy(struct ws_gs_map *m)
{
    struct ws_gs_val v;
    const char *s;
    char why[600];
    unsigned long active;

    if (!ws_gs_fetch(m, "-gpgpu_scheduler", "gto", &v))
        return 0;
    s = v.o->value;
    /* GPGPU-Sim picks the policy by substring, in this order. */
    if (strstr(s, "lrr"))
        return ws_gs_set(m, "sched.policy", v.o, 0, "lrr", "%s", v.cite);
    if (strstr(s, "two_level_active")) {
        const char *p = strstr(s, "two_level_active") + 16;
        char *end;
        if (*p != ':' || (active = strtoul(p + 1, &end, 10)) == 0
            || (*end != ':' && *end != '\0'))
            return ws_gpgpusim_err(m->err, v.o, (size_t)(p - s),
                                   "no number of active warps (expected "
                                   "two_level_active:N:inner:outer)");
        if (ws_gs_set(m, "sched.policy", v.o, 0, "two_level", "%s", v.cite) < 0)
            return -1;
        snprintf(why, sizeof why, "%lu", active);
        return ws_gs_set(m, "sched.active_warps", v.o, (size_t)(p + 1 - s), why,
                         "%s: the active set", v.cite);
    }
    if (strstr(s, "gto"))
        return ws_gs_set(m, "sched.policy", v.o, 0, "gto", "%s", v.cite);
    if (strstr(s, "rrr") || strstr(s, "old") || strstr(s, "warp_limiting")) {
        v.o->why = "a policy warpsim does not have (lrr, gto, two_level); "
                   "sched.policy kept from the base";
        v.o->used = 0;
        return 0;
    }
    return ws_gpgpusim_err(m->err, v.o, 0,
                           "unknown scheduler (expected "
                           "lrr, gto, two_level_active:N:I:O, rrr, old or "
                           "warp_limiting)");
}

static int ws_gs_map_sched(struct ws_gs_map *m)
{
    struct ws_gs_val issue, diff;
    uint64_t n;
    int d;
    char why[600];

    if (ws_gs_map_policy(m) < 0
        || ws_gs_uint(m, "-gpgpu_max_insn_issue_per_warp", 1, 2, 2, &issue, &n)
               < 0
        || ws_gs_flag(m, "-gpgpu_dual_issue_diff_exec_units", 1, &diff, &d) < 0)
        return -1;
    if (!issue.o) {
        ws_gs_aside(&diff, "qualifies -gpgpu_max_insn_issue_per_warp, not "
                           "given: sched.dual_issue kept from the base");
        return 0;
    }
    if (n == 1)
        ws_gs_aside(&diff, "applies with -gpgpu_max_insn_issue_per_warp 2 "
                           "only");
    snprintf(why, sizeof why, "%s%s%s", issue.cite,
             n > 1 ? ": GPGPU-Sim issues two of one warp, warpsim two warps"
                   : "",
             n > 1 && diff.o && d ? "; -gpgpu_dual_issue_diff_exec_units"
                                    " 1: of different units, as warpsim's"
                                  : "");
    if (n > 1 && !d)
        ws_gs_note(m, "-gpgpu_dual_issue_diff_exec_units 0: warpsim's dual "
                      "issue always takes two different units");
    return ws_gs_set_flag(m, "sched.dual_issue", issue.o, n > 1, why);
}

/* ---- function units ----------------------------------------------------- */

/* Where one warpsim unit's latency and issue rate come from: Accel-Sim's
 * trace latencies, else GPGPU-Sim's PTX-mode tables (the MAD entry of the
 * int, fp and dp lists), else a specialized unit of that name. */
struct ws_gs_unit_rule {
    enum ws_unit_kind kind;
    const char *trace, *ptx_lat, *ptx_init;
    size_t ptx_index;
    const char *count;
    uint64_t count_def;
    const char *spec; /* a specialized unit that takes over */
};

static const struct ws_gs_unit_rule ws_gs_unit_rules[] = {
    {WS_UNIT_FP32, "-trace_opcode_latency_initiation_sp",
     "-ptx_opcode_latency_fp", "-ptx_opcode_initiation_fp", 3,
     "-gpgpu_num_sp_units", 1, NULL},
    /* Accel-Sim's opcode tables send HADD2/HFMA2/HMUL2 to the SP units. */
    {WS_UNIT_FP16, "-trace_opcode_latency_initiation_sp",
     "-ptx_opcode_latency_fp", "-ptx_opcode_initiation_fp", 3,
     "-gpgpu_num_sp_units", 1, NULL},
    {WS_UNIT_INT, "-trace_opcode_latency_initiation_int",
     "-ptx_opcode_latency_int", "-ptx_opcode_initiation_int", 3,
     "-gpgpu_num_int_units", 0, NULL},
    {WS_UNIT_FP64, "-trace_opcode_latency_initiation_dp",
     "-ptx_opcode_latency_dp", "-ptx_opcode_initiation_dp", 3,
     "-gpgpu_num_dp_units", 0, NULL},
    {WS_UNIT_SFU, "-trace_opcode_latency_initiation_sfu",
     "-ptx_opcode_latency_sfu", "-ptx_opcode_initiation_sfu", 0,
     "-gpgpu_num_sfu_units", 1, NULL},
    /* Accel-Sim's Volta and later tables run HMMA on specialized unit 3,
     * named TENSOR in its trace.config files. */
    {WS_UNIT_TENSOR, "-trace_opcode_latency_initiation_tensor",
     "-ptx_opcode_latency_tesnor", "-ptx_opcode_initiation_tensor", 0,
     "-gpgpu_num_tensor_core_units", 0, "TENSOR"},
    {WS_UNIT_BRANCH, NULL, NULL, NULL, 0, NULL, 0, "BRA"},
    /* Turing's uniform datapath. */
    {WS_UNIT_UNIFORM, NULL, NULL, NULL, 0, NULL, 0, "UDP"},
};

#define WS_GS_SPEC_UNITS 8

/* A unit's numbers as found, before they become lanes and an interval. */
struct ws_gs_unit_src {
    struct ws_gpgpusim_opt *o; /* the latency option */
    uint64_t latency, init, count;
    char cite[256], count_cite[512];
};

/* The enabled specialized unit called name: its number (its option in
 * *opt), or 0. */
static int ws_gs_find_spec(struct ws_gs_map *m, const char *name,
                           struct ws_gpgpusim_spec *spec,
                           struct ws_gpgpusim_opt **opt)
{
    for (int i = 1; i <= WS_GS_SPEC_UNITS; i++) {
        char oname[40];
        struct ws_gpgpusim_opt *o;
        snprintf(oname, sizeof oname, "-specialized_unit_%d", i);
        o = ws_gpgpusim_peek(m->g, oname);
        if (!o || ws_gpgpusim_spec_unit(o, spec, m->err) < 0)
            continue;
        if (spec->enabled && strcmp(spec->name, name) == 0) {
            o->used = 1;
            *opt = o;
            return i;
        }
    }
    return 0;
}

/* "L,I" of a trace latency option. */
static int ws_gs_lat_init(struct ws_gs_map *m, struct ws_gpgpusim_opt *o,
                          struct ws_gs_unit_src *u)
{
    uint64_t v[2];
    size_t n;

    if (ws_gpgpusim_uints(o, ',', 2, 2, 1, 10000, v, &n, m->err) < 0)
        return -1;
    u->latency = v[0];
    u->init = v[1];
    return 0;
}

static int ws_gs_unit_from_spec(struct ws_gs_map *m, int n,
                                const struct ws_gpgpusim_spec *spec,
                                struct ws_gpgpusim_opt *unit,
                                struct ws_gs_unit_src *u)
{
    char opt[56], q[40];
    struct ws_gs_val v;
    struct ws_gpgpusim_opt stand;

    snprintf(opt, sizeof opt, "-trace_opcode_latency_initiation_spec_op_%d", n);
    u->o = ws_gs_packed(m, opt, "4,4", &v, &stand);
    if (ws_gs_lat_init(m, u->o, u) < 0)
        return -1;
    if (!v.o)
        u->o = unit;
    ws_gs_quote(q, sizeof q, spec->name, 15);
    snprintf(u->cite, sizeof u->cite, "%s (unit %s)", v.cite, q);
    u->count = spec->units;
    snprintf(u->count_cite, sizeof u->count_cite,
             "-specialized_unit_%d: "
             "%llu units",
             n, (unsigned long long)spec->units);
    return 0;
}

/* The PTX-mode tables: "4,13,4,5,145,21" lists per operation. */
static int ws_gs_unit_from_ptx(struct ws_gs_map *m,
                               const struct ws_gs_unit_rule *r,
                               struct ws_gs_val *lat, struct ws_gs_unit_src *u)
{
    uint64_t v[8];
    size_t n;
    struct ws_gs_val init;

    if (ws_gpgpusim_uints(lat->o, ',', r->ptx_index + 1, 8, 1, 100000, v, &n,
                          m->err)
        < 0)
        return -1;
    u->o = lat->o;
    u->latency = v[r->ptx_index];
    u->init = 1;
    if (ws_gs_fetch(m, r->ptx_init, "1", &init)) {
        if (ws_gpgpusim_uints(init.o, ',', r->ptx_index + 1, 8, 1, 100000, v,
                              &n, m->err)
            < 0)
            return -1;
        u->init = v[r->ptx_index];
    }
    snprintf(u->cite, sizeof u->cite, "%s%s%s entry %zu%s, PTX-mode", lat->cite,
             init.o ? " and " : "", init.o ? init.cite : "", r->ptx_index + 1,
             r->ptx_index == 3 ? " (MAD)" : "");
    return 0;
}

/* The PTX-mode options of a unit whose numbers come from elsewhere, and
 * the unit count a specialized unit replaces. */
static void ws_gs_superseded(struct ws_gs_map *m,
                             const struct ws_gs_unit_rule *r, const char *why)
{
    const char *names[3] = {r->ptx_lat, r->ptx_init, NULL};

    if (r->spec && r->count)
        names[2] = r->count;
    for (int i = 0; i < 3; i++) {
        struct ws_gpgpusim_opt *o = names[i] ? ws_gpgpusim_peek(m->g, names[i])
                                             : NULL;
        if (o && !o->used)
            o->why = why;
    }
}

#define WS_GS_WHY_NO_LATENCY \
    "given without the unit's latency " \
    "(-trace_opcode_latency_initiation_* or -ptx_opcode_latency_*): the " \
    "unit's keys kept from the base"

/* Where the unit's numbers come from: 1 found, 0 none (base), -1 error. */
static int ws_gs_unit_source(struct ws_gs_map *m,
                             const struct ws_gs_unit_rule *r,
                             struct ws_gs_unit_src *u)
{
    struct ws_gpgpusim_spec spec;
    struct ws_gpgpusim_opt *unit = NULL;
    struct ws_gs_val trace, lat, cnt;
    int n = r->spec ? ws_gs_find_spec(m, r->spec, &spec, &unit) : 0;
    struct ws_gpgpusim_opt *t = r->trace ? ws_gpgpusim_peek(m->g, r->trace)
                                         : NULL;

    if (m->err->set)
        return -1;
    if (n) {
        if (t)
            t->why = "superseded by the specialized unit of that name, "
                     "which Accel-Sim runs these instructions on";
        ws_gs_superseded(m, r,
                         "superseded by the specialized unit of that "
                         "name");
        if (r->kind == WS_UNIT_TENSOR)
            ws_gs_aside(&m->tensor_avail_src,
                        "the tensor-core pipeline, "
                        "superseded by the specialized unit TENSOR, which "
                        "Accel-Sim runs HMMA on");
        return ws_gs_unit_from_spec(m, n, &spec, unit, u) < 0 ? -1 : 1;
    }
    if (!r->trace)
        return 0;
    if (ws_gs_uint(m, r->count, 0, 1024, r->count_def, &cnt, &u->count) < 0)
        return -1;
    snprintf(u->count_cite, sizeof u->count_cite, "%s", cnt.cite);
    if (ws_gs_fetch(m, r->trace, "", &trace)) {
        ws_gs_superseded(m, r,
                         "PTX-mode, superseded by trace.config's "
                         "-trace_opcode_latency_initiation_* in trace mode");
        u->o = trace.o;
        snprintf(u->cite, sizeof u->cite, "%s", trace.cite);
        return ws_gs_lat_init(m, trace.o, u) < 0 ? -1 : 1;
    }
    if (ws_gs_fetch(m, r->ptx_lat, "", &lat))
        return ws_gs_unit_from_ptx(m, r, &lat, u) < 0 ? -1 : 1;
    ws_gs_aside(&cnt, WS_GS_WHY_NO_LATENCY);
    ws_gs_aside_name(m, r->ptx_init, WS_GS_WHY_NO_LATENCY);
    if (r->kind == WS_UNIT_TENSOR)
        ws_gs_aside(&m->tensor_avail_src,
                    "no tensor-core latency given "
                    "(-trace_opcode_latency_initiation_tensor or "
                    "-ptx_opcode_latency_tesnor): units.tensor kept from the "
                    "base");
    return 0;
}

/* Units per SM spread over the schedulers: a sub-core's share sets its
 * issue interval (a unit takes a warp instruction every init cycles) and
 * the lanes warpsim's models count (32 lanes issue a warp per cycle). */
static int ws_gs_map_unit(struct ws_gs_map *m, const struct ws_gs_unit_rule *r)
{
    struct ws_gs_unit_src u;
    char key[48], why[600];
    const char *unit = ws_unit_name(r->kind);
    double share;
    uint64_t interval, lanes;
    int rc, capped;

    memset(&u, 0, sizeof u);
    rc = ws_gs_unit_source(m, r, &u);
    if (rc <= 0)
        return rc;
    if (u.count == 0 && r->kind != WS_UNIT_TENSOR) {
        /* No INT or DP units: GPGPU-Sim runs those on the SP units. */
        struct ws_gs_val sp;
        char own[sizeof u.count_cite];
        memcpy(own, u.count_cite, sizeof own);
        if (ws_gs_uint(m, "-gpgpu_num_sp_units", 1, 1024, 1, &sp, &u.count) < 0)
            return -1;
        snprintf(u.count_cite, sizeof u.count_cite,
                 "%s (%.200s: none of their "
                 "own, GPGPU-Sim issues them to the SP units)",
                 sp.cite, own);
    }
    if (u.count == 0)
        snprintf(u.count_cite + strlen(u.count_cite),
                 sizeof u.count_cite - strlen(u.count_cite),
                 " (taken as "
                 "one per scheduler)");
    /* Still used: the unit's numbers are the tensor-core pipeline's, not a
     * specialized unit's. */
    if (r->kind == WS_UNIT_TENSOR && m->tensor_avail_src.o
        && m->tensor_avail_src.o->used)
        snprintf(
            u.count_cite + strlen(u.count_cite),
            sizeof u.count_cite - strlen(u.count_cite), "; %s%s",
            m->tensor_avail_src.cite,
            m->tensor_avail == 0
                ? ": GPGPU-Sim would build no tensor-core pipeline, warpsim "
                  "keeps the unit"
                : "");
    share = u.count ? (double)u.count / (double)m->sched : 1.0;
    interval = (uint64_t)ceil((double)u.init / share);
    /* warpsim refuses an issue interval longer than the latency. */
    capped = interval > u.latency;
    interval = interval < 1 ? 1 : capped ? u.latency : interval;
    lanes = (uint64_t)lround(32.0 * share / (double)u.init);
    lanes = lanes < 1 ? 1 : lanes > 64 ? 64 : lanes;
    snprintf(key, sizeof key, "units.%s.latency", unit);
    if (ws_gs_set_u(m, key, u.o, 0, u.latency, u.cite) < 0)
        return -1;
    snprintf(key, sizeof key, "units.%s.interval", unit);
    snprintf(why, sizeof why,
             "%s: a warp every %llu cycle%s, %.3g unit%s "
             "per sub-core%s",
             u.cite, (unsigned long long)u.init, u.init == 1 ? "" : "s", share,
             share == 1 ? "" : "s",
             capped ? "; capped at the latency, as warpsim requires" : "");
    if (ws_gs_set_u(m, key, u.o, 0, interval, why) < 0)
        return -1;
    snprintf(key, sizeof key, "units.%s.lanes", unit);
    /* Two citations may not fit: the comment is cut, which gcc's
     * format-truncation check (an error at -O0) is told by the test. */
    if (snprintf(why, sizeof why, "[RULE] 32 x %.3g / %llu: %s over %s", share,
                 (unsigned long long)u.init, u.count_cite, m->sched_src.cite)
        >= (int)sizeof why)
        why[sizeof why - 1] = '\0';
    return ws_gs_set_u(m, key, u.o, 0, lanes, why);
}

/* Specialized units no warpsim unit corresponds to, for the closing list. */
static void ws_gs_spec_leftovers(struct ws_gs_map *m)
{
    for (int i = 1; i <= WS_GS_SPEC_UNITS; i++) {
        char opt[56];
        struct ws_gpgpusim_opt *o, *lat;
        snprintf(opt, sizeof opt, "-specialized_unit_%d", i);
        o = ws_gpgpusim_peek(m->g, opt);
        snprintf(opt, sizeof opt, "-trace_opcode_latency_initiation_spec_op_%d",
                 i);
        lat = ws_gpgpusim_peek(m->g, opt);
        if (o && !o->used) {
            o->why =
                strstr(o->value, "TEX")
                    ? "texture unit: warpsim times texture loads through L1"
                : o->value[0] == '0' ? "disabled"
                                     : "a unit warpsim has no counterpart for";
            if (lat)
                lat->why = "latency of a specialized unit warpsim does not "
                           "have";
        }
        if (!o && lat && !lat->used)
            lat->why = "latency of a specialized unit the input does not "
                       "define (no -specialized_unit_ of its number)";
        if (o && o->used)
            ws_gs_note(m,
                       "%s: its max latency and pipeline widths (fields "
                       "3 to 5) have no warpsim equivalent",
                       o->name);
    }
}

static int ws_gs_map_units(struct ws_gs_map *m)
{
    if (ws_gs_uint(m, "-gpgpu_tensor_core_avail", 0, 1, 0, &m->tensor_avail_src,
                   &m->tensor_avail)
        < 0)
        return -1;
    for (size_t i = 0; i < sizeof ws_gs_unit_rules / sizeof ws_gs_unit_rules[0];
         i++)
        if (ws_gs_map_unit(m, &ws_gs_unit_rules[i]) < 0)
            return -1;
    ws_gs_spec_leftovers(m);
    return 0;
}


/* ---- launches ----------------------------------------------------------- */

static int ws_gs_map_launch(struct ws_gs_map *m)
{
    struct ws_gs_val v;
    int warm;

    if (ws_gs_map_plain(m, "launch_overhead", "-gpgpu_kernel_launch_latency", 0,
                        100000000)
            < 0
        || ws_gs_flag(m, "-gpgpu_perf_sim_memcpy", 0, &v, &warm) < 0)
        return -1;
    if (!v.o)
        return 0;
    return ws_gs_set_flag(m, "memcpy_warms_l2", v.o, warm,
                          warm ? "-gpgpu_perf_sim_memcpy 1: copies fill L2"
                               : "-gpgpu_perf_sim_memcpy 0: copies bypass L2");
}

void ws_gs_base_why(struct ws_gs_map *m, const char *key, const char *why)
{
    long k = ws_cfg_key_find(key);

    if (k >= 0 && !m->key[k].set)
        snprintf(m->key[k].why, sizeof m->key[k].why, "%s", why);
}

/* Keys GPGPU-Sim has no option for at all, with the reason. */
static void ws_gs_base_reasons(struct ws_gs_map *m)
{
    ws_gs_base_why(m, "unknown_opcode_class",
                   "Accel-Sim refuses unknown "
                   "opcodes");
    ws_gs_base_why(m, "sm.reg_alloc_unit",
                   "GPGPU-Sim rounds registers per "
                   "thread to 4 in code, not by an option");
    ws_gs_base_why(m, "sm.shared_alloc_unit", "no GPGPU-Sim option");
    ws_gs_base_why(m, "shared.bank_width",
                   "GPGPU-Sim's banks are 4 bytes "
                   "wide in code");
    ws_gs_base_why(m, "units.misc.lanes",
                   "Accel-Sim has no unit of its own "
                   "for moves and conversions");
    ws_gs_base_why(m, "units.ldst.lanes",
                   "no GPGPU-Sim option for LD/ST "
                   "lanes");
    ws_gs_base_why(m, "model.tmm_scale",
                   "calibrated on the base; rerun "
                   "validate/calibrate_tmm.py for this GPU");
    ws_gs_base_why(m, "model.transaction",
                   "a modelling choice, kept from "
                   "the base");
    ws_gs_base_why(m, "model.departure_del_uncoal",
                   "measured by the "
                   "simulator's probe each run unless set");
    ws_gs_base_why(m, "model.departure_del_coal",
                   "measured by the "
                   "simulator's probe each run unless set");
    ws_gs_base_why(m, "l1.carveout", "the driver's choice per kernel");
}

int ws_gs_map_all(struct ws_gs_map *m)
{
    if (ws_gs_map_identity(m) < 0 || ws_gs_map_clocks(m) < 0
        || ws_gs_map_sm(m) < 0 || ws_gs_map_sched(m) < 0
        || ws_gs_map_units(m) < 0 || ws_gs_map_l1(m) < 0 || ws_gs_map_l2(m) < 0
        || ws_gs_map_dram(m) < 0 || ws_gs_map_icnt(m) < 0
        || ws_gs_map_launch(m) < 0)
        return -1;
    ws_gs_base_reasons(m);
    return m->oom ? ws_err_oom(m->err) : 0;
}
