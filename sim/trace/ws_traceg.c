/*
 * ws_traceg: Accel-Sim kernel trace reader (see ws_traceg.h).
 *
 * The body is a small state machine over lines:
 *   outside a CTA:  "#BEGIN_TB" (other '#' lines but "#END_TB" are comments)
 *   CTA header:     "thread block = x,y,z", optional Hopper cluster lines
 *   warps:          "warp = w", "insts = n", then exactly n instruction lines
 *   end:            "#END_TB" returns the CTA
 * Each CTA of the grid may appear once (a bit per CTA remembers which have);
 * the trace must hold at least one, and holding fewer than the grid is
 * legal but gets a warning.  Warp and kernel lengths are held to the
 * --max-warp-insts and --max-insts limits as soon as "insts =" announces
 * them, before anything is read or allocated for them.  Between blocks,
 * comment and blank lines together are bounded (WS_TRACEG_MAX_IDLE): a
 * few KiB of .xz can decode to gigabytes of "#" lines, which would
 * otherwise be read to their end before "no thread block" is said.
 * The header is read by ws_traceg_header.c and instruction lines are parsed
 * by ws_traceg_inst.c; this file owns the CTA blocks and the public API.
 */
#include "ws_traceg_internal.h"

#include <stdlib.h>
#include <string.h>

#include "util/ws_grow.h"
#include "util/ws_num.h"
#include "ws_opcode.h"

/* Most bytes of comment and blank lines in a row between blocks (or before
 * the first, after the header): the tracer writes none there, and the runs
 * of blank lines alone are bounded alike (WS_LINES_MAX_BLANK). */
#define WS_TRACEG_MAX_IDLE WS_LINES_MAX_BLANK

void ws_trace_opts_default(struct ws_trace_opts *opts)
{
    opts->unknown_class = WS_OPC_MISC;
    opts->allow_unknown_keys = 0;
    opts->max_ctas = WS_LIMIT_CTAS_DEFAULT;
    opts->max_insts = WS_LIMIT_INSTS_DEFAULT;
    opts->max_warp_insts = WS_LIMIT_WARP_INSTS_DEFAULT;
}

const char *ws_space_name(enum ws_space space)
{
    static const char *const names[WS_SPACE_COUNT] = {"none",   "global",
                                                      "shared", "local",
                                                      "const",  "tex"};
    return (unsigned)space < WS_SPACE_COUNT ? names[space] : "?";
}

const char *ws_traceg_name(const struct ws_traceg *r)
{
    return r->lines.name;
}

int ws_traceg_fail(struct ws_traceg *r, struct ws_err *err, long col,
                   const char *what, const char *expected)
{
    return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, col,
                     "%s "
                     "(expected %s)",
                     what, expected);
}

/* ---- CTA blocks -------------------------------------------------------- */

static int ws_keyline(const char *p, const char *key, const char **val)
{
    size_t n;

    if (*p != *key)
        return 0;
    n = strlen(key);
    if (strncmp(p, key, n) != 0)
        return 0;
    p += n;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p != '=')
        return 0;
    p++;
    while (*p == ' ' || *p == '\t')
        p++;
    *val = p;
    return 1;
}

enum ws_warp_phase {
    WS_WARP_NONE,  /* no warp yet, or the last one is complete */
    WS_WARP_NAMED, /* "warp = w" read, "insts = n" not yet */
    WS_WARP_BODY   /* reading its n instruction lines */
};

struct ws_cta_state {
    enum ws_warp_phase phase;
    uint32_t warp;
    uint32_t want, got; /* instructions announced and read for this warp */
};

static int ws_close_warp(struct ws_traceg *r, struct ws_cta_state *st,
                         struct ws_err *err)
{
    if (st->phase == WS_WARP_NAMED)
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, 1,
                         "warp %u has no 'insts =' line (expected 'insts = n' "
                         "after 'warp = %u')",
                         st->warp, st->warp);
    if (st->phase == WS_WARP_BODY && st->got != st->want)
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, 1,
                         "warp %u has %u instruction lines (expected %u from "
                         "its 'insts =' line)",
                         st->warp, st->got, st->want);
    if (st->phase == WS_WARP_BODY) /* lines less markers and repeats */
        r->warps[st->warp].ninst = (uint32_t)(r->ninst
                                              - r->warp_first[st->warp]);
    st->phase = WS_WARP_NONE;
    return 0;
}

static int ws_cta_begin(struct ws_traceg *r, const char *v, struct ws_err *err)
{
    const struct ws_launch *l = &r->launch;
    uint32_t *id = r->cta.ctaid;
    uint64_t lin;

    if (ws_traceg_parse_u32s(v, id, 0) < 0)
        return ws_traceg_fail(r, err, 1, "bad thread block line",
                              "'thread block = x,y,z'");
    if (id[0] >= l->grid[0] || id[1] >= l->grid[1] || id[2] >= l->grid[2])
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, 1,
                         "thread block (%u,%u,%u) lies outside the grid "
                         "(expected indices below (%u,%u,%u))",
                         id[0], id[1], id[2], l->grid[0], l->grid[1],
                         l->grid[2]);
    lin = ((uint64_t)id[2] * l->grid[1] + id[1]) * l->grid[0] + id[0];
    if (r->cta_seen[lin / 8] & (1u << (lin % 8)))
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, 1,
                         "thread block (%u,%u,%u) appears a second time "
                         "(expected each CTA of the grid once)",
                         id[0], id[1], id[2]);
    r->cta_seen[lin / 8] |= (uint8_t)(1u << (lin % 8));
    r->cta.linear_id = lin;
    return 0;
}

static int ws_warp_begin(struct ws_traceg *r, struct ws_cta_state *st,
                         const char *v, struct ws_err *err)
{
    if (ws_close_warp(r, st, err) < 0)
        return -1;
    if (ws_num_u32(v, strlen(v), &st->warp) < 0)
        return ws_traceg_fail(r, err, 1, "bad warp line", "'warp = n'");
    if (st->warp >= r->cta.nwarps)
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, 1,
                         "warp "
                         "%u does not exist (expected 0 to %u for a block of "
                         "%u threads)",
                         st->warp, r->cta.nwarps - 1,
                         ws_launch_threads(&r->launch));
    if (r->warp_seen[st->warp])
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, 1,
                         "warp "
                         "%u appears twice in this block (expected each warp "
                         "once)",
                         st->warp);
    r->warp_seen[st->warp] = 1;
    st->phase = WS_WARP_NAMED;
    return 0;
}

static int ws_insts_begin(struct ws_traceg *r, struct ws_cta_state *st,
                          const char *v, struct ws_err *err)
{
    if (st->phase != WS_WARP_NAMED)
        return ws_traceg_fail(r, err, 1, "'insts =' without a 'warp =' line",
                              "'warp = n' first");
    if (ws_num_u32(v, strlen(v), &st->want) < 0)
        return ws_traceg_fail(r, err, 1, "bad instruction count",
                              "'insts = n' with n below 2^32");
    /* The limits the user can raise come first, so the message names the
     * flag; the block cap behind them only guards memory. */
    if (st->want > r->opts.max_warp_insts)
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, 1,
                         "insts = %u is over the limit of %llu instructions "
                         "per warp (expected at most --max-warp-insts; raise "
                         "it with --max-warp-insts N)",
                         st->want, (unsigned long long)r->opts.max_warp_insts);
    if (st->want > r->opts.max_insts - r->insts_total) /* total <= max */
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, 1,
                         "insts = %u takes the kernel past the limit of %llu "
                         "warp instructions (expected at most --max-insts in "
                         "all; raise it with --max-insts N)",
                         st->want, (unsigned long long)r->opts.max_insts);
    if (st->want > WS_TRACEG_MAX_CTA_INSTS - r->ninst)
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, 1,
                         "insts = %u makes the block larger than %u "
                         "instructions (expected a real warp length)",
                         st->want, WS_TRACEG_MAX_CTA_INSTS);
    r->insts_total += st->want;
    st->phase = WS_WARP_BODY;
    st->got = 0;
    r->warp_first[st->warp] = r->ninst;
    return 0;
}

static int ws_inst_line(struct ws_traceg *r, struct ws_cta_state *st,
                        const char *line, size_t len, struct ws_err *err)
{
    int rc;

    if (st->phase != WS_WARP_BODY)
        return ws_traceg_fail(r, err, 1, "instruction line outside a warp",
                              "'warp = n' and 'insts = n' first");
    if (st->got == st->want)
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, 1,
                         "more instruction lines than warp %u's 'insts = %u' "
                         "(expected 'warp =' or '#END_TB')",
                         st->warp, st->want);
    if (r->ninst == r->inst_cap
        && ws_grow((void **)&r->inst, &r->inst_cap, r->ninst + 1,
                   sizeof *r->inst, 1024)
               < 0)
        return ws_err_oom(err);
    rc = ws_traceg_parse_inst(r, line, len, st->warp, &r->inst[r->ninst], err);
    if (rc < 0)
        return -1;
    r->ninst += rc == 0; /* 1: a spin-loop marker or repeat, no instruction */
    st->got++;
    return 0;
}

static void ws_cta_reset(struct ws_traceg *r)
{
    r->ninst = 0;
    r->naddr = 0;
    r->cta.has_cluster = 0;
    for (uint32_t w = 0; w < r->cta.nwarps; w++) {
        r->warps[w].ninst = 0;
        r->warps[w].inst = NULL;
        r->warp_seen[w] = 0;
        r->warp_first[w] = 0;
    }
}

static void ws_cta_finish(struct ws_traceg *r)
{
    for (uint32_t w = 0; w < r->cta.nwarps; w++)
        r->warps[w].inst = r->warps[w].ninst ? r->inst + r->warp_first[w]
                                             : NULL;
    r->cta.warps = r->warps;
    r->cta.addrs = r->addrs;
    r->cta.ninst = (uint32_t)r->ninst;
    r->cta.naddrs = (uint32_t)r->naddr;
}

static int ws_cta_cluster(struct ws_traceg *r, const char *p,
                          struct ws_err *err)
{
    const char *v;

    r->cta.has_cluster = 1;
    if (ws_keyline(p, "cluster id", &v))
        return ws_traceg_parse_u32s(v, r->cta.cluster_id, 0) < 0
                   ? ws_traceg_fail(r, err, 1, "bad cluster id line",
                                    "'cluster id = x,y,z'")
                   : 0;
    if (ws_keyline(p, "cluster cta", &v))
        return ws_traceg_parse_u32s(v, r->cta.cluster_cta, 0) < 0
                   ? ws_traceg_fail(r, err, 1, "bad cluster cta line",
                                    "'cluster cta = x,y,z'")
                   : 0;
    if (ws_keyline(p, "cluster rank", &v))
        return ws_num_u32(v, strlen(v), &r->cta.cluster_rank) < 0
                   ? ws_traceg_fail(r, err, 1, "bad cluster rank line",
                                    "'cluster rank = n'")
                   : 0;
    return ws_traceg_fail(r, err, 1, "unknown cluster line",
                          "'cluster id', "
                          "'cluster cta' or 'cluster rank'");
}

/* The first characters of the lines inside a block that are not
 * instruction lines: '#', "thread block", "cluster", "warp", "insts". */
static int ws_may_be_key(char c)
{
    return c == '#' || c == 't' || c == 'c' || c == 'w' || c == 'i';
}

/* One line inside "#BEGIN_TB ... #END_TB".  Returns 1 at "#END_TB".  Key
 * lines are recognised before instruction lines so that a short warp is
 * reported as a count mismatch, not as a bad PC "warp". */
static int ws_cta_line(struct ws_traceg *r, struct ws_cta_state *st, char *p,
                       size_t len, int *have_block, struct ws_err *err)
{
    const char *v;

    /* Nearly every line is an instruction: one that cannot start any other
     * line skips the comparisons below, which would all fail. */
    if (*have_block && !ws_may_be_key(*p))
        return ws_inst_line(r, st, p, len, err);
    if (strncmp(p, "#END_TB", 7) == 0) {
        if (!*have_block)
            return ws_traceg_fail(r, err, 1,
                                  "'#END_TB' before a thread "
                                  "block line",
                                  "'thread block = x,y,z'");
        return ws_close_warp(r, st, err) < 0 ? -1 : 1;
    }
    if (strncmp(p, "#BEGIN_TB", 9) == 0)
        return ws_traceg_fail(r, err, 1, "'#BEGIN_TB' inside a thread block",
                              "'#END_TB' first");
    if (*p == '#')
        return ws_traceg_fail(r, err, 1, "'#' line inside a thread block",
                              "warps and their instructions");
    if (ws_keyline(p, "thread block", &v)) {
        if (*have_block)
            return ws_traceg_fail(r, err, 1, "second thread block line",
                                  "one per '#BEGIN_TB'");
        *have_block = 1;
        return ws_cta_begin(r, v, err);
    }
    if (!*have_block)
        return ws_traceg_fail(r, err, 1,
                              "block content before its 'thread "
                              "block' line",
                              "'thread block = x,y,z'");
    if (strncmp(p, "cluster ", 8) == 0)
        return ws_cta_cluster(r, p, err);
    if (ws_keyline(p, "warp", &v))
        return ws_warp_begin(r, st, v, err);
    if (ws_keyline(p, "insts", &v))
        return ws_insts_begin(r, st, v, err);
    return ws_inst_line(r, st, p, len, err);
}

/* The end of the trace: at least one CTA (the tracer writes every CTA that
 * ran an instruction, and each runs at least its EXIT), and a warning when
 * some of the grid is missing, which is legal: the tracer skips CTAs that
 * recorded nothing. */
static int ws_trace_end(struct ws_traceg *r, struct ws_err *err)
{
    uint64_t grid = ws_launch_ctas(&r->launch);
    long line = r->lines.lineno + 1;

    r->finished = 1;
    if (r->ctas_read == 0)
        return ws_err_at(err, ws_traceg_name(r), line, 1,
                         "the trace has no "
                         "thread block (expected at least one '#BEGIN_TB' "
                         "... '#END_TB' block after the header)");
    if (r->ctas_read < grid)
        ws_warn_at(ws_traceg_name(r), line, 1,
                   "%llu of %llu CTAs in the "
                   "trace; the rest are taken to be empty (the tracer skips "
                   "CTAs with no instructions)",
                   (unsigned long long)r->ctas_read, (unsigned long long)grid);
    return 0;
}

/* A line between blocks: 1 when it opens one, 0 for a comment. */
static int ws_between_blocks(struct ws_traceg *r, const char *line,
                             const char *p, struct ws_err *err)
{
    if (strncmp(p, "#BEGIN_TB", 9) == 0)
        return 1;
    if (strncmp(p, "#END_TB", 7) == 0)
        return ws_traceg_fail(r, err, (long)(p - line) + 1,
                              "'#END_TB' "
                              "outside a thread block",
                              "'#BEGIN_TB' first");
    if (*p == '#')
        return 0;
    return ws_traceg_fail(r, err, (long)(p - line) + 1,
                          "text outside a "
                          "thread block",
                          "'#BEGIN_TB'");
}

int ws_traceg_next_cta(struct ws_traceg *r, const struct ws_cta_stream **cta,
                       struct ws_err *err)
{
    struct ws_cta_state st = {WS_WARP_NONE, 0, 0, 0};
    int in_block = r->begin_pending, have_block = 0, rc;
    size_t idle = 0; /* bytes read between blocks */
    char *line;
    size_t len;

    if (r->finished)
        return 0;
    r->begin_pending = 0;
    ws_cta_reset(r);
    while ((rc = ws_lines_next(&r->lines, &line, &len, err)) == 1) {
        char *p;
        if (!in_block && (idle += len + 1) > WS_TRACEG_MAX_IDLE)
            return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, 1,
                             "more than %u MiB of comment and blank lines "
                             "between thread blocks (expected '#BEGIN_TB' "
                             "within them)",
                             WS_TRACEG_MAX_IDLE >> 20);
        if (len == 0)
            continue; /* blank lines are common; skip them cheaply */
        p = ws_traceg_trim_len(line, &len);
        if (len == 0)
            continue;
        if (!in_block) {
            if ((in_block = ws_between_blocks(r, line, p, err)) < 0)
                return -1;
            continue;
        }
        rc = ws_cta_line(r, &st, p, len, &have_block, err);
        if (rc < 0)
            return -1;
        if (rc == 1) {
            ws_cta_finish(r);
            r->ctas_read++;
            *cta = &r->cta;
            return 1;
        }
    }
    if (rc < 0)
        return -1;
    if (in_block) {
        r->finished = 1;
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno + 1, 1,
                         "file ends inside a thread block (expected "
                         "%s'#END_TB')",
                         st.phase == WS_WARP_BODY && st.got < st.want
                             ? "the rest of the warp's "
                               "instructions and "
                             : "");
    }
    return ws_trace_end(r, err);
}

/* ---- open / close ---------------------------------------------------- */

static int ws_traceg_setup(struct ws_traceg *r, struct ws_err *err)
{
    uint32_t nw;

    if (ws_traceg_read_header(r, err) < 0)
        return -1;
    nw = ws_launch_warps_per_cta(&r->launch);
    r->cta.nwarps = nw;
    r->warps = calloc(nw, sizeof *r->warps);
    r->warp_first = calloc(nw, sizeof *r->warp_first);
    r->warp_seen = calloc(nw, 1);
    /* One bit per CTA, once per kernel: the grid is at most max_ctas. */
    r->cta_seen = calloc((size_t)((ws_launch_ctas(&r->launch) + 7) / 8), 1);
    if (!r->warps || !r->warp_first || !r->warp_seen || !r->cta_seen)
        return ws_err_oom(err);
    return 0;
}

static struct ws_traceg *ws_traceg_new(const struct ws_trace_opts *opts)
{
    struct ws_traceg *r = calloc(1, sizeof *r);

    if (!r)
        return NULL;
    if (opts)
        r->opts = *opts;
    else
        ws_trace_opts_default(&r->opts);
    ws_strtab_init(&r->ops);
    return r;
}

int ws_traceg_open(struct ws_traceg **out, const char *path,
                   const struct ws_trace_opts *opts, struct ws_err *err)
{
    struct ws_traceg *r = ws_traceg_new(opts);

    *out = NULL;
    if (!r)
        return ws_err_oom(err);
    if (ws_lines_open(&r->lines, path, err) < 0) {
        free(r);
        return -1;
    }
    if (ws_traceg_setup(r, err) < 0) {
        ws_traceg_close(r);
        return -1;
    }
    *out = r;
    return 0;
}

int ws_traceg_open_mem(struct ws_traceg **out, const char *name,
                       const void *data, size_t len,
                       const struct ws_trace_opts *opts, struct ws_err *err)
{
    struct ws_traceg *r = ws_traceg_new(opts);

    *out = NULL;
    if (!r)
        return ws_err_oom(err);
    if (ws_lines_open_mem(&r->lines, name, data, len, err) < 0) {
        free(r);
        return -1;
    }
    if (ws_traceg_setup(r, err) < 0) {
        ws_traceg_close(r);
        return -1;
    }
    *out = r;
    return 0;
}

const struct ws_launch *ws_traceg_launch(const struct ws_traceg *r)
{
    return &r->launch;
}

const struct ws_strtab *ws_traceg_opcodes(const struct ws_traceg *r)
{
    return &r->ops;
}

size_t ws_traceg_footprint(const struct ws_traceg *r)
{
    return r->inst_cap * sizeof *r->inst + r->addr_cap * sizeof *r->addrs
           + r->opinfo_cap * sizeof *r->opinfo;
}

void ws_traceg_close(struct ws_traceg *r)
{
    if (!r)
        return;
    ws_lines_close(&r->lines);
    ws_strtab_free(&r->ops);
    free(r->launch.name);
    free(r->launch.nvbit_version);
    free(r->opinfo);
    free(r->inst);
    free(r->addrs);
    free(r->warps);
    free(r->warp_first);
    free(r->warp_seen);
    free(r->cta_seen);
    free(r);
}
