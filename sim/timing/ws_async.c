/*
 * ws_async: Hopper's asynchronous pipeline (see ws_async.h).
 */
#include "ws_async.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/ws_bits.h"
#include "util/ws_strtab.h"
#include "ws_cluster.h"
#include "ws_cta.h"
#include "ws_issue.h"

/* ---- the opcode cache ---------------------------------------------------- */

/* The note of opcode id op, the table grown to hold it; NULL with s->err
 * set when memory runs out. */
static struct ws_op_note *ws_async_note(struct ws_sim *s, uint32_t op)
{
    if (op >= s->nnotes) {
        uint32_t n = op + 64;
        struct ws_op_note *a = realloc(s->notes, n * sizeof *a);
        if (!a) {
            ws_err_oom(s->err);
            return NULL;
        }
        memset(a + s->nnotes, 0, (n - s->nnotes) * sizeof *a);
        s->notes = a;
        s->nnotes = n;
    }
    return &s->notes[op];
}

static int ws_text_is_s2r(const char *t)
{
    return strncmp(t, "S2R", 3) == 0 && (t[3] == '\0' || t[3] == '.');
}

/* From the text every time, not cached in the notes: it is asked in SMs'
 * own work, side by side (a cache would be written there), only for the
 * few MISC instructions, and costs a compare of four bytes.  The opcode
 * table is not written while own work runs (only a text or packed
 * trace's reader adds to it, and those read in the rest of the cycle). */
int ws_async_is_s2r(const struct ws_sim *s, uint32_t op)
{
    return ws_text_is_s2r(ws_strtab_str(s->src->ops, op));
}

const struct ws_async_op *ws_async_lookup(struct ws_sim *s, uint32_t op)
{
    struct ws_op_note *n = ws_async_note(s, op);

    if (!n)
        return NULL;
    if (!n->decoded) {
        /* A malformed wgmma shape decodes as no kind: it is then timed as
         * the tensor unit times any other MMA. */
        (void)ws_async_op_decode(ws_strtab_str(s->src->ops, op), &n->op);
        n->decoded = 1;
    }
    return &n->op;
}

void ws_async_kernel_reset(struct ws_sim *s)
{
    if (s->notes)
        memset(s->notes, 0, s->nnotes * sizeof *s->notes);
}

int ws_async_unknown(struct ws_sim *s, uint32_t op)
{
    char *list = s->k->unknown_ops;
    size_t len = strlen(list), cap = sizeof s->k->unknown_ops;
    struct ws_op_note *n;
    const char *name;

    s->k->ctr.v[WS_CTR_INST_UNKNOWN]++;
    if (!(n = ws_async_note(s, op)))
        return -1;
    if (n->named)
        return 0;
    n->named = 1;
    name = ws_strtab_str(s->src->ops, op);
    if (len + strlen(name) + 6 < cap)
        snprintf(list + len, cap - len, "%s%s", len ? ", " : "", name);
    else if (len == 0) /* one name longer than the list: its start */
        snprintf(list, cap, "%.*s...", (int)(cap - 4), name);
    else if (len + 5 < cap && strcmp(list + len - 3, "...") != 0)
        snprintf(list + len, cap - len, ", ...");
    return 0;
}

void ws_async_free(struct ws_sim *s)
{
    free(s->notes);
    s->notes = NULL;
    s->nnotes = 0;
}

/* ---- wgmma --------------------------------------------------------------- */

/* Cycles one warp's share of a wgmma holds its quarter of the pipe: its
 * 16 x N x K multiply-adds at a quarter of the SM's rate for the type. */
static uint64_t ws_wgmma_cycles(const struct ws_gpu *g,
                                const struct ws_async_op *a)
{
    /* Rates relative to fp16: the H100 whitepaper's dense peaks, tf32
     * 494.7, fp16 989.4, fp8/int8 1978.9 TFLOP/s; binary [EST] as A100's
     * 16x of fp16. */
    static const double rate[] = {1.0, 0.5, 2.0, 16.0};
    double macs = 16.0 * a->n * a->k;
    double per_clk = g->wgmma.macs / 4.0 * rate[a->type];
    uint64_t c = (uint64_t)(macs / per_clk + 0.999999);

    return c > g->wgmma.min_interval ? c : g->wgmma.min_interval;
}

static int ws_async_wgmma(struct ws_sim *s, struct ws_sm *sm, struct ws_warp *w,
                          const struct ws_async_op *a, uint64_t t)
{
    const struct ws_gpu *g = s->gpu;
    uint32_t q = w->warp_in_cta % 4;
    uint64_t start, cycles, done;

    if (g->wgmma.macs <= 0)
        return ws_err_at(s->err, s->src->origin, 1, 1,
                         "kernel %s: this GPU has no warpgroup MMA pipe "
                         "(expected a Hopper config such as h100 for "
                         "HGMMA/QGMMA/IGMMA, wgmma.macs above 0)",
                         s->k->name);
    cycles = ws_wgmma_cycles(g, a);
    start = sm->wg_pipe[q] > t ? sm->wg_pipe[q] : t;
    sm->wg_pipe[q] = start + cycles;
    done = start + cycles + g->wgmma.latency;
    ws_groups_add(&w->wgmma, done);
    s->k->ctr.v[WS_CTR_WGMMA_INST]++;
    s->k->ctr.v[WS_CTR_WGMMA_PIPE_CYCLES] += cycles;
    return 0;
}

/* ---- mbarriers ----------------------------------------------------------- */

static struct ws_mbar *ws_mbar_find(struct ws_cta_slot *slot, uint64_t addr)
{
    for (uint32_t i = 0; i < slot->nmbar; i++)
        if (slot->mbar[i].addr == addr)
            return &slot->mbar[i];
    return NULL;
}

/* A fresh barrier at addr in its first phase, count arrivals per phase
 * (0 taken as 1). */
static void ws_mbar_reset(struct ws_mbar *mb, uint64_t addr, uint32_t count,
                          uint64_t t)
{
    memset(mb, 0, sizeof *mb);
    mb->addr = addr;
    mb->count = count ? count : 1;
    mb->pending = mb->count;
    mb->cur_at = t;
}

/* The barrier at addr, made with one arrival per phase if the CTA has
 * none there yet (an arrive before any init); NULL with s->err set when
 * the CTA's table is full. */
static struct ws_mbar *ws_mbar_get(struct ws_sim *s, struct ws_cta_slot *slot,
                                   uint64_t addr, uint64_t t)
{
    struct ws_mbar *mb = ws_mbar_find(slot, addr);

    if (mb)
        return mb;
    if (slot->nmbar == WS_CTA_MBARS) {
        ws_err_msg(s->err,
                   "a CTA uses more than %d mbarriers, expected at most %d "
                   "(the simulator's table per CTA)",
                   WS_CTA_MBARS, WS_CTA_MBARS);
        return NULL;
    }
    mb = &slot->mbar[slot->nmbar++];
    ws_mbar_reset(mb, addr, 1, t);
    return mb;
}

/* The CTA's warp slot of warp `warp` of the CTA, or UINT32_MAX. */
static uint32_t ws_cta_warp_slot(const struct ws_sm *sm,
                                 const struct ws_cta_slot *slot, uint32_t warp)
{
    for (uint32_t i = 0; i < slot->nwarps; i++)
        if (sm->warps[slot->warp_slots[i]].warp_in_cta == warp)
            return slot->warp_slots[i];
    return UINT32_MAX;
}

/* Releases the warps of the CTA in `bits` that wait on `on`, from `at`. */
static int ws_async_release(struct ws_sim *s, struct ws_sm *sm,
                            const struct ws_cta_slot *slot, uint32_t bits,
                            enum ws_wait_on on, uint64_t at)
{
    for (uint32_t warp = 0; bits; warp++, bits >>= 1) {
        uint32_t wi;
        struct ws_warp *x;
        uint64_t from;
        if (!(bits & 1u))
            continue;
        wi = ws_cta_warp_slot(sm, slot, warp);
        if (wi == UINT32_MAX)
            continue;
        x = &sm->warps[wi];
        if (x->state != WS_WARP_WAITING || x->waiting_on != on)
            continue;
        from = x->wait_from + 1;
        if (at < from)
            at = from;
        if (at < s->now)
            at = s->now;
        if (on == WS_WAIT_MBAR)
            s->k->ctr.v[WS_CTR_MBAR_WAIT_CYCLES] += at - from;
        x->waiting_on = WS_WAIT_NONE;
        if (ws_cta_wake(s, sm, wi, at) < 0)
            return -1;
    }
    return 0;
}

/* The current phase completes once it has every arrival and every byte. */
static int ws_mbar_check(struct ws_sim *s, struct ws_sm *sm,
                         const struct ws_cta_slot *slot, struct ws_mbar *mb)
{
    uint32_t waiters = mb->waiters;

    if (mb->pending > 0 || mb->tx != 0)
        return 0;
    mb->last_at = mb->cur_at;
    mb->phase++;
    mb->pending = mb->count;
    mb->tx = 0;
    mb->cur_at = 0;
    mb->waiters = 0;
    return ws_async_release(s, sm, slot, waiters, WS_WAIT_MBAR, mb->last_at);
}

static int ws_mbar_arrive(struct ws_sim *s, struct ws_sm *sm,
                          struct ws_cta_slot *slot, uint64_t addr,
                          uint32_t arrivals, int64_t tx, uint64_t at)
{
    struct ws_mbar *mb = ws_mbar_get(s, slot, addr, at);

    if (!mb)
        return -1;
    mb->pending -= arrivals;
    mb->tx += tx;
    if (at > mb->cur_at)
        mb->cur_at = at;
    return ws_mbar_check(s, sm, slot, mb);
}

static int ws_mbar_init(struct ws_sim *s, struct ws_cta_slot *slot,
                        uint64_t addr, int32_t count, uint64_t t)
{
    struct ws_mbar *mb = ws_mbar_get(s, slot, addr, t);

    if (!mb)
        return -1;
    ws_mbar_reset(mb, addr, count > 0 ? (uint32_t)count : 1u, t);
    return 0;
}

/* ---- TMA ----------------------------------------------------------------- */

/* Sends a box's lines from the copy engine; returns when the last one is
 * done. */
static uint64_t ws_tma_lines(struct ws_sim *s, struct ws_sm *sm,
                             const struct ws_box *b, int write, uint64_t t)
{
    const struct ws_gpu *g = s->gpu;
    uint64_t sent = 0, done = t, a;
    double rate = g->tma.bytes_per_clk > 0 ? g->tma.bytes_per_clk : 1e9;
    uint64_t start = t + g->tma.latency;
    struct ws_box_walk it;
    uint32_t n;

    if (sm->tma_free > start)
        start = sm->tma_free;
    ws_box_walk_init(&it, b, g->l2.line);
    while (ws_box_walk_next(&it, &a, &n)) {
        uint64_t at = start + (uint64_t)((double)sent / rate);
        uint64_t d = ws_mem_bulk(&s->mem, sm->id, at, a, n, write, &s->k->ctr);
        if (d > done)
            done = d;
        sent += n;
    }
    sm->tma_free = start + (uint64_t)((double)sent / rate + 0.999999);
    s->k->ctr.v[WS_CTR_TMA_OPS]++;
    s->k->ctr.v[WS_CTR_TMA_BYTES] += sent;
    return done;
}

/* A cluster-scope shared address: the rank in bits 24..31 (ws_cluster.h);
 * the rest, the window's high half included, is the CTA's own address.
 * Only a CTA in a cluster has them. */
#define WS_DSMEM_RANK_SHIFT 24
#define WS_DSMEM_RANK_MASK (0xffull << WS_DSMEM_RANK_SHIFT)

/* The CTA a cluster-scope access names is not running (a trace of part of
 * a grid, a rank beyond the cluster): the access reaches nobody, and the
 * output says how often. */
static int ws_async_no_peer(struct ws_sim *s)
{
    s->k->ctr.v[WS_CTR_CLUSTER_UNMATCHED]++;
    return 0;
}

/* Arrivals and transaction bytes on the barrier at addr of the CTA of
 * warp w's cluster with this rank, at `at`, one SM-to-SM hop later when
 * that CTA is on another SM; counted, and dropped, when no running CTA has
 * the rank. */
static int ws_mbar_arrive_rank(struct ws_sim *s, struct ws_sm *sm,
                               const struct ws_warp *w, uint32_t rank,
                               uint64_t addr, uint32_t arrivals, int64_t tx,
                               uint64_t at)
{
    struct ws_sm *psm;
    uint32_t pslot;

    if (ws_cluster_peer(s, sm, w->slot, rank, &psm, &pslot) < 0)
        return ws_async_no_peer(s);
    return ws_mbar_arrive(s, psm, &psm->slots[pslot], addr, arrivals, tx,
                          at + (psm != sm ? s->gpu->dsmem.latency : 0));
}

static int ws_async_bulk(struct ws_sim *s, struct ws_sm *sm, struct ws_warp *w,
                         const struct ws_inst *in, const struct ws_async_op *a,
                         uint64_t t)
{
    struct ws_box b;
    uint64_t done;
    uint32_t mask;

    if (in->mask == 0)
        return 0;
    if (in->mask != WS_BOX_MASK || !w->addrs
        || ws_box_unpack(w->addrs + in->addr, WS_BOX_MAX_BYTES, &b) < 0)
        return ws_err_msg(s->err,
                          "bulk copy at pc 0x%x without a valid box, expected "
                          "%d box words as its addresses (trace/ws_async_op.h)",
                          in->pc, WS_BOX_WORDS);
    done = ws_tma_lines(s, sm, &b, a->kind == WS_ASYNC_BULK_STORE, t);
    if (a->kind == WS_ASYNC_BULK_STORE) {
        if (done > w->busy_until)
            w->busy_until = done;
        return 0;
    }
    if (a->kind != WS_ASYNC_BULK_LOAD || b.mbar == 0)
        return 0;
    /* The bytes land on the barrier at the same offset in every CTA of the
     * multicast mask, or in the CTA itself without one. */
    mask = b.multicast ? b.multicast : 1u << sm->slots[w->slot].rank;
    for (uint32_t r = 0; r < WS_CLUSTER_MAX_CTAS; r++)
        if ((mask & (1u << r))
            && ws_mbar_arrive_rank(s, sm, w, r, b.mbar, 0,
                                   -(int64_t)(ws_box_bytes(&b) + b.fill), done)
                   < 0)
            return -1;
    return 0;
}

/* SYNCS.ARRIVE...RED: each active lane arrives on the barrier of the CTA
 * its address's rank names, one network hop away when that CTA is on
 * another SM; the expected bytes go with the first lane's arrival. */
static int ws_mbar_remote(struct ws_sim *s, struct ws_sm *sm,
                          const struct ws_warp *w, const struct ws_inst *in,
                          uint64_t t)
{
    uint32_t lanes = ws_popcount32(in->mask);

    for (uint32_t i = 0; i < lanes; i++) {
        uint64_t addr = w->addrs[in->addr + i];
        uint32_t rank = (uint32_t)(addr >> WS_DSMEM_RANK_SHIFT) & 0xffu;
        if (ws_mbar_arrive_rank(s, sm, w, rank, addr & ~WS_DSMEM_RANK_MASK, 1,
                                i == 0 && in->imm > 0 ? in->imm : 0, t)
            < 0)
            return -1;
    }
    return 0;
}

int ws_async_dsmem(struct ws_sim *s, struct ws_sm *sm, const struct ws_warp *w,
                   const struct ws_inst *in, uint64_t addr, uint64_t t,
                   uint64_t *done)
{
    const struct ws_cta_slot *slot = &sm->slots[w->slot];
    uint32_t rank = (uint32_t)(addr >> WS_DSMEM_RANK_SHIFT) & 0xffu;
    struct ws_sm *psm;
    uint32_t pslot;
    uint64_t start, bytes;
    double rate = s->gpu->dsmem.bytes_per_clk;

    if (slot->cluster == WS_NO_CLUSTER || rank == slot->rank)
        return 0;
    if (ws_cluster_peer(s, sm, w->slot, rank, &psm, &pslot) < 0)
        return ws_async_no_peer(s);
    bytes = (uint64_t)ws_popcount32(in->mask) * in->width;
    start = sm->dsmem_free > t ? sm->dsmem_free : t;
    sm->dsmem_free = start
                     + (rate > 0 ? (uint64_t)((double)bytes / rate + 0.999999)
                                 : 0);
    *done = start + s->gpu->dsmem.latency;
    s->k->ctr.v[WS_CTR_DSMEM_BYTES] += bytes;
    return 1;
}

/* ---- issue and wait ------------------------------------------------------ */

int ws_async_exec(struct ws_sim *s, struct ws_sm *sm, uint32_t wi,
                  const struct ws_inst *in, const struct ws_async_op *a,
                  uint64_t addr, uint64_t t, uint64_t *done)
{
    struct ws_warp *w = &sm->warps[wi];
    struct ws_cta_slot *slot = &sm->slots[w->slot];

    *done = t;
    switch (a->kind) {
    case WS_ASYNC_WGMMA:
        return ws_async_wgmma(s, sm, w, a, t) < 0 ? -1 : 1;
    case WS_ASYNC_WG_ARRIVE:
    case WS_ASYNC_WG_WAIT:
        if (w->wgmma.open_n) /* an empty batch is no group */
            ws_groups_commit(&w->wgmma);
        return 0;
    case WS_ASYNC_MBAR_INIT:
        return in->mask ? ws_mbar_init(s, slot, addr, in->imm, t) : 0;
    case WS_ASYNC_MBAR_ARRIVE:
        if (!in->mask)
            return 0;
        if (a->remote && slot->cluster != WS_NO_CLUSTER && w->addrs)
            return ws_mbar_remote(s, sm, w, in, t);
        return ws_mbar_arrive(s, sm, slot, addr, ws_popcount32(in->mask),
                              in->imm > 0 ? in->imm : 0, t);
    case WS_ASYNC_CLUSTER_ARRIVE:
        return ws_cluster_arrive(s, sm, wi, t);
    case WS_ASYNC_MBAR_ARRIVE_LDGSTS: {
        /* cp.async.mbarrier.arrive: once every LDGSTS the warp issued
         * before, committed or not, is done. */
        uint64_t at = ws_groups_wait(&w->ldgsts, 0, 1);
        if (!in->mask || !in->width)
            return 0;
        return ws_mbar_arrive(s, sm, slot, addr, ws_popcount32(in->mask), 0,
                              at > t ? at : t);
    }
    case WS_ASYNC_BULK_LOAD:
    case WS_ASYNC_BULK_STORE:
    case WS_ASYNC_BULK_PREFETCH:
        return ws_async_bulk(s, sm, w, in, a, t) < 0 ? -1 : 1;
    default:
        return 0;
    }
}

static void ws_async_hold(struct ws_sim *s, struct ws_sm *sm, uint32_t wi,
                          enum ws_wait_on on, uint64_t t)
{
    struct ws_warp *w = &sm->warps[wi];

    w->state = WS_WARP_WAITING;
    w->waiting_on = (uint8_t)on;
    w->wait_from = t;
    ws_sm_deactivate(sm, wi, s->gpu->sm.sub_cores);
}

/* An mbarrier wait on parity imm & 1 (known when imm & 2). */
static int ws_mbar_wait(struct ws_sim *s, struct ws_sm *sm, uint32_t wi,
                        uint64_t addr, int32_t imm, uint64_t t)
{
    struct ws_warp *w = &sm->warps[wi];
    struct ws_cta_slot *slot = &sm->slots[w->slot];
    struct ws_mbar *mb;
    uint32_t parity = (uint32_t)imm & 1u;

    if (!((uint32_t)imm & 2u)) {
        s->k->ctr.v[WS_CTR_MBAR_REPLAYED]++;
        return 0;
    }
    mb = ws_mbar_find(slot, addr);
    if (!mb)
        return 0; /* never initialised: nothing to wait for */
    if (mb->phase > 0 && mb->last_at > t + 1
        && ((mb->phase - 1) & 1u) != parity)
        return 0; /* at t the barrier is still in the phase that completes
                     at last_at: the one before it, waited for, is done */
    if ((mb->phase & 1u) != parity) {
        /* The phase waited for is the last one completed, maybe at a
         * cycle still to come (its bytes land then). */
        if (mb->last_at > t + 1 && mb->last_at > w->ready_after_barrier) {
            s->k->ctr.v[WS_CTR_MBAR_WAITS]++;
            s->k->ctr.v[WS_CTR_MBAR_WAIT_CYCLES] += mb->last_at - (t + 1);
            w->ready_after_barrier = mb->last_at;
            ws_issue_refresh(sm, s->gpu->sm.sub_cores, wi);
        }
        return 0;
    }
    s->k->ctr.v[WS_CTR_MBAR_WAITS]++;
    mb->waiters |= 1u << (w->warp_in_cta & 31u);
    w->wait_mbar = addr;
    ws_async_hold(s, sm, wi, WS_WAIT_MBAR, t);
    return 0;
}

/* WARPGROUP.ARRIVE: the warpgroup's warps that have not exited meet. */
static int ws_wg_arrive(struct ws_sim *s, struct ws_sm *sm, uint32_t wi,
                        uint64_t t)
{
    struct ws_warp *w = &sm->warps[wi];
    struct ws_cta_slot *slot = &sm->slots[w->slot];
    uint32_t g = (w->warp_in_cta / 4) % WS_CTA_WARPGROUPS;
    uint32_t members = 0;

    slot->wg_arrived[g] |= 1u << (w->warp_in_cta & 31u);
    for (uint32_t i = 0; i < slot->nwarps; i++) {
        const struct ws_warp *x = &sm->warps[slot->warp_slots[i]];
        if (x->warp_in_cta / 4 == w->warp_in_cta / 4
            && x->state != WS_WARP_DONE)
            members |= 1u << (x->warp_in_cta & 31u);
    }
    if ((slot->wg_arrived[g] & members) != members) {
        ws_async_hold(s, sm, wi, WS_WAIT_WG, t);
        return 0;
    }
    members = slot->wg_arrived[g];
    slot->wg_arrived[g] = 0;
    return ws_async_release(s, sm, slot, members, WS_WAIT_WG, t + 1);
}

int ws_async_block(struct ws_sim *s, struct ws_sm *sm, uint32_t wi,
                   const struct ws_async_op *a, uint64_t mbar, int32_t imm,
                   uint64_t t)
{
    switch (a->kind) {
    case WS_ASYNC_MBAR_WAIT:
        return ws_mbar_wait(s, sm, wi, mbar, imm, t);
    case WS_ASYNC_WG_ARRIVE:
        return ws_wg_arrive(s, sm, wi, t);
    case WS_ASYNC_CLUSTER_WAIT:
        return ws_cluster_wait(s, sm, wi, t);
    default:
        return 0;
    }
}
