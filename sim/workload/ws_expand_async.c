/*
 * ws_expand_async: expansion of Hopper's asynchronous instructions: a bulk
 * copy's tma: rule becomes the WS_BOX_WORDS box words of
 * trace/ws_async_op.h (mask WS_BOX_MASK), and an mbarrier rule the
 * immediate timing/ws_async.h reads.
 *
 * One elected thread issues a bulk copy or an mbarrier operation, so the
 * expressions are evaluated for the first active lane only.  A box is
 * clipped to its tensor as TMA does for out-of-bounds elements: rows and
 * columns outside are read from nowhere (fewer rows, shorter rows, none
 * for a box wholly outside) and are the box's fill, which TMA writes to
 * shared memory and counts as transaction bytes like those read.
 *
 * Leaves out: multicast's delivery to the other CTAs (the timing
 * model's).
 */
#include <string.h>

#include "trace/ws_async_op.h"
#include "util/ws_grow.h"
#include "ws_expand.h"
#include "ws_expand_internal.h"

/* The value of rule `rule` for one lane, `off` set to the instruction's
 * memory offset as for addresses. */
static int ws_async_value(struct ws_expander *x, uint32_t idx, int rule,
                          uint32_t lane, int64_t *v, struct ws_err *err)
{
    const struct ws_wl_rule *r = &x->w->rules[rule];
    int off = (int)x->w->nparams + WS_SLOT_OFF;
    int64_t vals[WS_EXPR_LANES];
    uint32_t bad;

    if (x->reads_off) {
        x->vals[off][lane] = x->mem_off[idx];
        ws_expand_lets_stale(x, off, 1u << lane);
    }
    bad = ws_expand_rule_lanes(x, r, 1u << lane, vals);
    *v = vals[lane];
    return ws_expand_lane_check(x, bad, lane, &r->expr, v, err);
}

/* "what of VALUE for lane L of warp W, CTA (x,y,z) (expected EXPECTED)",
 * at the rule's expression. */
static int ws_async_fail(struct ws_expander *x, int rule, uint32_t lane,
                         const char *what, int64_t v, const char *expected,
                         struct ws_err *err)
{
    const struct ws_expr *e = &x->w->rules[rule].expr;

    return ws_err_at(err, e->file, e->line, e->col,
                     "%s of %lld for lane %u of warp %lld, CTA (%u,%u,%u) "
                     "(expected %s)",
                     what, (long long)v, lane,
                     (long long)x->vals[x->w->nparams + WS_SLOT_WARP][lane],
                     x->cta.ctaid[0], x->cta.ctaid[1], x->cta.ctaid[2],
                     expected);
}

/* The box's extent in each dimension, clipped to the tensor: [lo, hi).
 * 0 when some dimension is empty (the box lies outside the tensor). */
static int ws_async_extent(struct ws_expander *x, uint32_t idx,
                           const struct ws_wl_tma *t, uint32_t lane,
                           int64_t lo[WS_WL_TENSOR_DIMS],
                           int64_t hi[WS_WL_TENSOR_DIMS], int *inside,
                           struct ws_err *err)
{
    const struct ws_wl_tensor *ten = &x->w->tensors[t->tensor];

    *inside = 1;
    for (uint32_t k = 0; k < WS_WL_TENSOR_DIMS; k++) {
        int64_t c = 0;
        lo[k] = 0;
        hi[k] = 1;
        if (k >= ten->ndims)
            continue;
        if (ws_async_value(x, idx, t->coord[k], lane, &c, err) < 0)
            return -1;
        /* TMA coordinates are signed 32-bit element indices. */
        if (c < INT32_MIN || c > INT32_MAX)
            return ws_async_fail(x, t->coord[k], lane, "box coordinate", c,
                                 "a signed 32-bit element index", err);
        lo[k] = c > 0 ? c : 0;
        hi[k] = c + ten->box[k] < ten->dim[k] ? c + ten->box[k] : ten->dim[k];
        if (lo[k] >= hi[k])
            *inside = 0;
    }
    return 0;
}

/* mbar: and multicast: into the box. */
static int ws_async_targets(struct ws_expander *x, uint32_t idx,
                            const struct ws_wl_tma *t, uint32_t lane,
                            struct ws_box *b, struct ws_err *err)
{
    int64_t v = 0;

    if (t->mbar >= 0) {
        if (ws_async_value(x, idx, t->mbar, lane, &v, err) < 0)
            return -1;
        /* An mbarrier is 8 bytes, 8-aligned, in the CTA's shared memory;
         * 0 means "none" in a box. */
        if (v <= 0 || v % 8 != 0 || (uint64_t)v + 8 > x->w->launch.shmem)
            return ws_async_fail(x, t->mbar, lane, "mbarrier address", v,
                                 "an 8-byte aligned address above 0 inside "
                                 "the CTA's shared allocation",
                                 err);
        b->mbar = (uint64_t)v;
    }
    if (t->multicast >= 0) {
        if (ws_async_value(x, idx, t->multicast, lane, &v, err) < 0)
            return -1;
        if (v < 0 || v > 0xffff)
            return ws_async_fail(x, t->multicast, lane, "multicast mask", v,
                                 "a mask of cluster ranks, 0 to 0xffff", err);
        b->multicast = (uint16_t)v;
    }
    return 0;
}

int ws_expand_box(struct ws_expander *x, uint32_t idx, struct ws_inst *in,
                  struct ws_err *err)
{
    const struct ws_wl_tma *t = ws_workload_tma(x->w, idx);
    const struct ws_wl_tensor *ten = &x->w->tensors[t->tensor];
    uint32_t lane = (uint32_t)__builtin_ctz(in->mask);
    int64_t lo[WS_WL_TENSOR_DIMS] = {0}, hi[WS_WL_TENSOR_DIMS] = {0};
    struct ws_box b;
    int inside;

    memset(&b, 0, sizeof b);
    if (ws_async_extent(x, idx, t, lane, lo, hi, &inside, err) < 0)
        return -1;
    if (!inside) {
        /* Wholly outside the tensor: TMA reads nothing and fills the whole
         * box, whose bytes still complete the mbarrier. */
        memset(lo, 0, sizeof lo);
        memset(hi, 0, sizeof hi);
    }
    if (ws_async_targets(x, idx, t, lane, &b, err) < 0)
        return -1;
    b.base = x->w->buffers[ten->buffer].base;
    for (uint32_t k = 0; k < ten->ndims && k < WS_WL_TENSOR_DIMS; k++)
        b.base += (uint64_t)lo[k] * ten->stride[k];
    b.row_bytes = (uint32_t)(hi[0] - lo[0]) * ten->elem;
    b.rows = (uint32_t)(hi[1] - lo[1]);
    b.planes = (uint32_t)(hi[2] - lo[2]);
    /* What the clipping left out TMA fills, and counts as delivered. */
    b.fill = (uint32_t)(ws_wl_box_bytes(ten) - ws_box_bytes(&b));
    b.pitch = ten->ndims > 1 ? ten->stride[1] : 0;
    b.plane_pitch = ten->ndims > 2 ? ten->stride[2] : 0;
    if (x->naddr + WS_BOX_WORDS > x->addr_cap
        && ws_grow((void **)&x->addrs, &x->addr_cap, x->naddr + WS_BOX_WORDS,
                   sizeof *x->addrs, 4096)
               < 0)
        return ws_err_oom(err);
    in->mask = WS_BOX_MASK;
    in->addr = (uint32_t)x->naddr;
    ws_box_pack(&b, x->addrs + x->naddr);
    x->naddr += WS_BOX_WORDS;
    return 0;
}

/* PTX: an mbarrier counts 1 to 2^20 - 1 arrivals and up to 2^20 - 1
 * pending transaction bytes per phase. */
#define WS_MBAR_MAX ((INT64_C(1) << 20) - 1)

int ws_expand_imm(struct ws_expander *x, uint32_t idx, struct ws_inst *in,
                  struct ws_err *err)
{
    const struct ws_wl_rule *r = ws_workload_rule(x->w, WS_RULE_IMM, idx);
    int rule = (int)(r - x->w->rules);
    uint32_t lane = (uint32_t)__builtin_ctz(in->mask);
    int64_t v = 0;

    if (ws_async_value(x, idx, rule, lane, &v, err) < 0)
        return -1;
    switch (r->imm) {
    case WS_IMM_COUNT:
        if (v < 1 || v > WS_MBAR_MAX)
            return ws_async_fail(x, rule, lane, "mbarrier count", v,
                                 "1 to 1048575 arrivals", err);
        in->imm = (int32_t)v;
        break;
    case WS_IMM_TX:
        if (v < 0 || v > WS_MBAR_MAX)
            return ws_async_fail(x, rule, lane, "transaction bytes", v,
                                 "0 to 1048575", err);
        in->imm = (int32_t)v;
        break;
    default:
        in->imm = (int32_t)(2 | (v & 1));
        break;
    }
    return 0;
}
