/*
 * ws_expand_stream: a workload's warps expanded as the simulator reaches
 * them, a window at a time (ws_cta_source.next_header / warp_open), so the
 * memory an expansion holds follows the warps resident now, not how many
 * instructions each runs: a warp of 10^6 instructions costs its reader
 * (its pending paths, its loop counters) and the simulator's window.
 *
 * The expander's per-lane values belong to one warp at a time.  A reader
 * that finds another warp's there sets its own up again: the coordinates
 * are recomputed, and its loop counters, memory offset and lets (all that
 * a warp's walk changes) come back from the reader.  A warp's expansion
 * therefore depends on that warp alone, and the streams are exactly what
 * ws_expand_next hands out whole.
 *
 * The kernel-size estimate needs CTA 0's instruction count before any CTA
 * runs: streamed, CTA 0 is walked once to count it (nothing kept), one
 * CTA's work more for the kernel.
 *
 * Leaves out: the walk itself (ws_expand.c).
 */
#include <stdlib.h>
#include <string.h>

#include "util/ws_cacheline.h"
#include "ws_expand.h"
#include "ws_expand_internal.h"

/* A streamed warp: where its walk stands. */
struct ws_expand_reader {
    struct ws_expander *x;
    uint32_t ctaid[3];
    uint32_t warp;
    struct ws_paths ps;
    uint64_t count; /* instructions handed out */
    struct ws_expand_reader *next_spare;
    /* The lets' state while another warp has the expander: the lanes
     * whose value is current, and of those the ones that faulted. */
    uint32_t let_valid[WS_WL_MAX_LETS], let_bad[WS_WL_MAX_LETS];
    /* The values a walk changes, while another warp has the expander:
     * each loop counter's, then the memory offset's, then each let's
     * (kept, not computed again at the next switch: a switch comes with
     * every window, and the lets cost more than the copy), per lane. */
    int64_t saved[][WS_EXPR_LANES];
};

/* A reader's size: one row of saved values per counter, the offset and
 * each let. */
static size_t ws_stream_size(const struct ws_expander *x)
{
    return sizeof(struct ws_expand_reader)
           + (x->w->ncounters + 1 + x->w->nlets)
                 * sizeof(int64_t[WS_EXPR_LANES]);
}

/* The slots a warp's walk writes: its loop counters, the offset, and the
 * lets computed from them. */
static void ws_stream_slots(const struct ws_expander *x, int *slots,
                            uint32_t *n)
{
    const struct ws_workload *w = x->w;

    *n = 0;
    for (uint32_t c = 0; c < w->ncounters; c++)
        slots[(*n)++] = w->counters[c];
    slots[(*n)++] = (int)w->nparams + WS_SLOT_OFF;
    for (uint32_t i = 0; i < w->nlets; i++)
        slots[(*n)++] = w->let_slot[i];
}

static void ws_stream_save(struct ws_expander *x, struct ws_expand_reader *r)
{
    int slots[WS_WL_MAX_COUNTERS + 1 + WS_WL_MAX_LETS];
    uint32_t n;

    ws_stream_slots(x, slots, &n);
    for (uint32_t i = 0; i < n; i++)
        memcpy(r->saved[i], x->vals[slots[i]], sizeof r->saved[i]);
    memcpy(r->let_valid, x->let_valid, sizeof r->let_valid);
    memcpy(r->let_bad, x->let_bad, sizeof r->let_bad);
}

/* Gives the expander's lane values to r's warp. */
static void ws_stream_switch(struct ws_expander *x, struct ws_expand_reader *r)
{
    int slots[WS_WL_MAX_COUNTERS + 1 + WS_WL_MAX_LETS];
    uint32_t n;

    if (x->cur == r)
        return;
    if (x->cur)
        ws_stream_save(x, x->cur);
    ws_expand_warp_coords(x, r->warp, r->ctaid);
    ws_stream_slots(x, slots, &n);
    for (uint32_t i = 0; i < n; i++)
        memcpy(x->vals[slots[i]], r->saved[i], sizeof r->saved[i]);
    memcpy(x->let_valid, r->let_valid, sizeof x->let_valid);
    memcpy(x->let_bad, r->let_bad, sizeof x->let_bad);
    x->cur = r;
}

static long ws_stream_read(void *ctx, struct ws_inst *inst, size_t cap,
                           uint64_t *addrs, size_t addr_cap, struct ws_err *err)
{
    struct ws_expand_reader *r = ctx;
    struct ws_expander *x = r->x;

    if (r->ps.n == 0)
        return 0;
    ws_stream_switch(x, r);
    x->ninst = x->naddr = 0;
    memcpy(x->cta.ctaid, r->ctaid, sizeof x->cta.ctaid);
    if (ws_expand_walk(x, r->warp, &r->ps, &r->count, cap, addr_cap, err) < 0)
        return -1;
    if (x->ninst)
        memcpy(inst, x->inst, x->ninst * sizeof *inst);
    if (x->naddr)
        memcpy(addrs, x->addrs, x->naddr * sizeof *addrs);
    return (long)x->ninst;
}

static void ws_stream_close(void *ctx)
{
    struct ws_expand_reader *r = ctx;
    struct ws_expander *x = r->x;

    if (x->cur == r)
        x->cur = NULL;
    r->next_spare = x->spare;
    x->spare = r;
}

static void ws_stream_start(struct ws_expand_reader *r, struct ws_expander *x,
                            const uint32_t ctaid[3], uint32_t warp)
{
    memset(r, 0, ws_stream_size(x));
    r->x = x;
    memcpy(r->ctaid, ctaid, sizeof r->ctaid);
    r->warp = warp;
    ws_paths_add(&r->ps, 0,
                 ws_expand_lanes(ws_launch_threads(&x->w->launch), warp));
}

/* A reader of a part's copy reads on its part's thread while it has
 * paths left (each turn of the walk emits one instruction), and counts
 * its instructions into the main expander's total as it commits, on the
 * calling thread in a fixed order: the kernel-wide limit then trips at
 * the same read for any number of threads. */
static int ws_stream_more(void *ctx)
{
    const struct ws_expand_reader *r = ctx;

    return r->ps.n > 0;
}

static int ws_stream_commit(void *ctx, const struct ws_inst *inst, size_t n,
                            const uint64_t *addrs, struct ws_err *err)
{
    struct ws_expander *m = ((struct ws_expand_reader *)ctx)->x->main;

    (void)inst;
    (void)addrs;
    if (n > m->max_total - m->total)
        return ws_expand_over_total(m, err);
    m->total += n;
    return 0;
}

int ws_expand_warp_open(void *ctx, const struct ws_cta_stream *cta,
                        uint32_t warp, struct ws_warp_reader *out,
                        struct ws_err *err)
{
    struct ws_expander *x = ctx;
    struct ws_expander *px = x->nparts ? x->parts[out->part % x->nparts] : x;
    struct ws_expand_reader *r = px->spare;

    if (r)
        px->spare = r->next_spare;
    else if (!(r = malloc(ws_stream_size(px))))
        return ws_err_oom(err);
    ws_stream_start(r, px, cta->ctaid, warp);
    out->ctx = r;
    out->read = ws_stream_read;
    out->close = ws_stream_close;
    out->more = x->nparts ? ws_stream_more : NULL;
    out->commit = x->nparts ? ws_stream_commit : NULL;
    return 0;
}

/* Frees the parts' copies: what each owns (its buffers, its spare
 * readers), not what it shares with x. */
static void ws_expand_parts_free(struct ws_expander *x)
{
    for (unsigned i = 0; i < x->nparts; i++) {
        if (!x->parts[i])
            continue;
        ws_expand_stream_free(x->parts[i]);
        free(x->parts[i]->inst);
        free(x->parts[i]->addrs);
        ws_free_lines(x->parts[i]);
    }
    free(x->parts);
    x->parts = NULL;
    x->nparts = 0;
}

int ws_expand_set_parts(void *ctx, unsigned parts, struct ws_err *err)
{
    struct ws_expander *x = ctx;

    ws_expand_parts_free(x);
    if (!parts)
        return 0;
    if (!(x->parts = calloc(parts, sizeof(struct ws_expander *))))
        return ws_err_oom(err);
    x->nparts = parts;
    for (unsigned i = 0; i < parts; i++) {
        /* lines of its own: each part's thread writes its copy */
        struct ws_expander *px = ws_calloc_lines(1, sizeof *px);
        if (!(x->parts[i] = px))
            return ws_expand_parts_free(x), ws_err_oom(err);
        *px = *x;
        px->inst = NULL;
        px->addrs = NULL;
        px->ninst = px->inst_cap = px->naddr = px->addr_cap = 0;
        px->cur = px->spare = NULL;
        px->parts = NULL;
        px->nparts = 0;
        px->main = x;
        px->total = 0;
        px->max_total = UINT64_MAX;
    }
    return 0;
}

/* CTA 0 walked to its end a window at a time, for its instruction count;
 * the kernel's running total is left as it was. */
static int ws_stream_count_cta0(struct ws_expander *x, uint64_t *cta0,
                                struct ws_err *err)
{
    uint32_t nw = ws_launch_warps_per_cta(&x->w->launch);
    uint64_t total = x->total;
    struct ws_expand_reader *r = malloc(ws_stream_size(x));
    int rc = 0;

    *cta0 = 0;
    if (!r)
        return ws_err_oom(err);
    for (uint32_t w = 0; w < nw && rc == 0; w++) {
        ws_stream_start(r, x, x->cta.ctaid, w);
        x->cur = NULL;
        ws_stream_switch(x, r);
        while (rc == 0 && r->ps.n > 0) {
            x->ninst = x->naddr = 0;
            rc = ws_expand_walk(x, w, &r->ps, &r->count, 4096,
                                4096 * WS_WARP_SIZE, err);
        }
        *cta0 += r->count;
    }
    free(r);
    x->cur = NULL;
    x->total = total;
    return rc;
}

int ws_expand_next_header(void *ctx, const struct ws_cta_stream **cta,
                          struct ws_err *err)
{
    struct ws_expander *x = ctx;
    uint64_t cta0;

    if (!ws_expand_take_cta(x))
        return 0;
    /* Every warp of a block runs at least its first instruction. */
    for (uint32_t w = 0; w < x->cta.nwarps; w++) {
        x->warps[w].inst = NULL;
        x->warps[w].ninst = 1;
    }
    x->cta.addrs = NULL;
    x->cta.ninst = x->cta.nwarps;
    x->cta.naddrs = 0;
    if (x->cta.linear_id == 0
        && (ws_stream_count_cta0(x, &cta0, err) < 0
            || ws_expand_estimate(x, cta0, err) < 0))
        return -1;
    *cta = &x->cta;
    return 1;
}

void ws_expand_stream_free(struct ws_expander *x)
{
    if (!x->main)
        ws_expand_parts_free(x);
    while (x->spare) {
        struct ws_expand_reader *r = x->spare;
        x->spare = r->next_spare;
        free(r);
    }
    x->cur = NULL;
}
