/*
 * ws_issue: warp selection and issue (see ws_issue.h).
 *
 * Stall accounting: between two issues of a warp, its waiting cycles are
 * split by cause in the order a warp meets them: held at a barrier, then
 * waiting for operands (a scoreboard stall on a producer: long for global,
 * local and texture loads, short for shared memory, wait for fixed-latency
 * units, as Nsight splits them), then for its function unit or an MSHR; whatever remains after
 * the warp became ready is "not selected".  Each warp cycle is counted once,
 * like Nsight's stall reasons.
 */
#include "ws_issue.h"

#include <stdlib.h>
#include <string.h>

#include "stats/ws_timeline.h"
#include "trace/ws_opcode.h"
#include "util/ws_bits.h"
#include "util/ws_strtab.h"
#include "ws_async.h"
#include "ws_cluster.h"
#include "ws_cta.h"

/* When a warp's next instruction can issue, and what holds it until then. */
struct ws_ready {
    uint64_t at;
    uint64_t dep, barrier, unit, mshr;
    enum ws_ctr dep_ctr;
};

static int ws_needs_mshr(const struct ws_gpu *g, const struct ws_inst *in)
{
    return g->l1.enabled && in->mask && in->width
           && !(in->flags & WS_INST_ASYNC) /* TMA bypasses L1's MSHRs */
           && (in->space == WS_SPACE_GLOBAL || in->space == WS_SPACE_LOCAL
               || in->space == WS_SPACE_TEX)
           && (in->memop == WS_MEMOP_LOAD || in->memop == WS_MEMOP_ASYNC_COPY);
}

static void ws_dep(const struct ws_warp *w, uint8_t reg, struct ws_ready *r)
{
    if (w->reg_ready[reg] > r->dep) {
        r->dep = w->reg_ready[reg];
        r->dep_ctr = (enum ws_ctr)w->reg_stall[reg];
    }
}

/* The unit an instruction issues to: its class's, but for S2R when the
 * config times it (sm.s2r_latency): a special-register read goes down the
 * sub-core's MIO path with shared-memory and other LD/ST instructions
 * (Huerta et al. 2025's simulator queues it with SHFL in the per-sub-core
 * memory pipeline; Nsight counts its waits as short scoreboard and MIO
 * throttle), so it takes the LD/ST unit's issue slots. */
static enum ws_unit_kind ws_issue_unit(const struct ws_sim *s,
                                       const struct ws_inst *in)
{
    if (s->gpu->sm.s2r_latency && in->cls == WS_OPC_MISC
        && ws_async_is_s2r(s, in->op))
        return WS_UNIT_LDST;
    return ws_unit_for_class(in->cls);
}

/* Dependences by the control bits: past the previous instruction's
 * stall count (r already holds it), the dependence counters the wait mask
 * names. */
static void ws_dep_control(const struct ws_warp *w,
                           const struct ws_ctrl_entry *e, struct ws_ready *r)
{
    unsigned wait = ws_ctrl_wait(e->word);

    for (unsigned k = 0; wait && k < 6; k++)
        if (((wait >> k) & 1u) && w->sb_ready[k] > r->dep) {
            r->dep = w->sb_ready[k];
            r->dep_ctr = (enum ws_ctr)w->sb_stall[k];
        }
}

void ws_issue_prepare(struct ws_sim *s, struct ws_warp *w)
{
    const struct ws_gpu *g = s->gpu;
    const struct ws_inst *in;
    const struct ws_ctrl_entry *e;
    struct ws_ready r;

    if (w->next >= w->ninst)
        return;
    in = &w->inst[w->next];
    e = s->ctrl ? ws_ctrl_at(s->ctrl, in->pc) : NULL;
    r.dep = w->stall_until;
    r.dep_ctr = WS_CTR_STALL_ALU_DEP;
    if (e) {
        ws_dep_control(w, e, &r);
    } else {
        for (uint8_t i = 0; i < in->nsrc; i++)
            ws_dep(w, in->src[i], &r);
        for (uint8_t i = 0; i < in->ndst; i++)
            ws_dep(w, in->dst[i], &r);
    }
    if ((in->flags & WS_INST_FENCE) && w->busy_until > r.dep) {
        r.dep = w->busy_until;
        r.dep_ctr = WS_CTR_STALL_MEM_DEP;
    }
    if (in->flags & WS_INST_ASYNC_WAIT) {
        /* DEPBAR.LE SB0, n: at most n committed LDGSTS groups in flight */
        uint64_t a = ws_groups_wait(&w->ldgsts, in->imm, 0);
        if (a > r.dep) {
            r.dep = a;
            r.dep_ctr = WS_CTR_STALL_MEM_DEP;
        }
    }
    if (in->flags & WS_INST_WG_WAIT) {
        uint64_t a = ws_groups_wait(&w->wgmma, in->imm, 1);
        if (a > r.dep) {
            r.dep = a;
            r.dep_ctr = WS_CTR_STALL_ALU_DEP;
        }
    }
    if (w->fetch_ready > r.dep) {
        r.dep = w->fetch_ready;
        r.dep_ctr = WS_CTR_STALL_NO_INST;
    }
    if (in->width && in->mask) {
        /* The lane addresses were written when the window was read or the
         * CTA copied, many warps ago: asked for now, they are in the
         * host's cache by the issue, which reads them first.  The pool
         * holds the active lanes' addresses only. */
        uintptr_t a = (uintptr_t)(w->addrs + in->addr);
        uintptr_t end = a + ws_popcount32(in->mask) * sizeof *w->addrs;
        for (a &= ~(uintptr_t)(WS_CACHELINE - 1); a < end; a += WS_CACHELINE)
            __builtin_prefetch((const void *)a);
    }
    w->next_dep = r.dep;
    w->next_dep_ctr = (uint8_t)r.dep_ctr;
    w->next_unit = (uint8_t)ws_issue_unit(s, in);
    w->next_mshr = (uint8_t)ws_needs_mshr(g, in);
}

void ws_issue_fetch(struct ws_sim *s, struct ws_sm *sm, uint32_t wi, uint64_t t)
{
    struct ws_warp *w = &sm->warps[wi];
    struct ws_icache *ic = &sm->sub[wi % s->gpu->sm.sub_cores].icache;
    struct ws_counters *c = &sm->ctr;
    uint64_t line, misses = ic->misses, hits = ic->prefetch_hits;

    if (!ic->lines || w->next >= w->ninst)
        return;
    line = ws_icache_line_of(ic, w->inst[w->next].pc) + 1;
    if (line == w->fetch_line)
        return;
    w->fetch_line = line;
    w->fetch_ready = ws_icache_fetch(ic, w->inst[w->next].pc, t);
    c->v[WS_CTR_ICACHE_MISSES] += ic->misses - misses;
    c->v[WS_CTR_ICACHE_PREFETCH_HITS] += ic->prefetch_hits - hits;
}

void ws_issue_refresh(struct ws_sm *sm, uint32_t sub_cores, uint32_t wi)
{
    const struct ws_warp *w = &sm->warps[wi];
    struct ws_cand *c;
    uint64_t at = w->last_issue + 1;

    if (sm->cand_of[wi] == WS_NO_CAND)
        return;
    c = &sm->sub[wi % sub_cores].cand[sm->cand_of[wi]];
    if (w->next_dep > at)
        at = w->next_dep;
    if (w->ready_after_barrier > at)
        at = w->ready_after_barrier;
    c->ready_own = at;
    c->unit = w->next_unit;
    c->mshr = w->next_mshr;
}

static void ws_warp_ready(struct ws_sim *s, struct ws_sm *sm,
                          const struct ws_subcore *sc, const struct ws_warp *w,
                          uint64_t now, struct ws_ready *r)
{
    r->dep = w->next_dep;
    r->dep_ctr = (enum ws_ctr)w->next_dep_ctr;
    r->barrier = w->ready_after_barrier;
    r->unit = sc->unit_free[w->next_unit];
    r->mshr = w->next_mshr ? ws_mem_mshr_ready(&s->mem, sm->id, now) : 0;
    r->at = w->last_issue + 1;
    if (r->dep > r->at)
        r->at = r->dep;
    if (r->barrier > r->at)
        r->at = r->barrier;
    if (r->unit > r->at)
        r->at = r->unit;
    if (r->mshr > r->at)
        r->at = r->mshr;
}

/* One hazard's share of a stall: the cycles from the cursor until it
 * clears (at), or until t; returns the new cursor. */
static inline uint64_t ws_stall_to(struct ws_sim *s, struct ws_sm *sm,
                                   uint32_t wi, uint64_t cursor, uint64_t at,
                                   uint64_t t, enum ws_ctr ctr)
{
    uint64_t end = at < t ? at : t;

    if (end <= cursor)
        return cursor;
    sm->ctr.v[ctr] += end - cursor;
    if (s->tl)
        ws_timeline_stall(s->tl, sm->id, wi, ctr, cursor, end);
    return end;
}

/* The order a warp meets its hazards in: held at a barrier, then its
 * operands, then the structural ones (unit, MSHRs), then not chosen.
 * Each takes the cycles from the end of the previous one until it clears.
 * Written out, not as a table of the five: every stalled issue builds
 * it, and the table on the stack cost more than the counting. */
static void ws_stall_account(struct ws_sim *s, struct ws_sm *sm, uint32_t wi,
                             const struct ws_ready *r, uint64_t t)
{
    uint64_t cursor = sm->warps[wi].last_issue + 1;

    /* Issued the cycle after its last issue (greedy scheduling's common
     * case): no cycle to account. */
    if (t <= cursor)
        return;
    cursor = ws_stall_to(s, sm, wi, cursor, r->barrier, t,
                         WS_CTR_STALL_BARRIER);
    cursor = ws_stall_to(s, sm, wi, cursor, r->dep, t, r->dep_ctr);
    cursor = ws_stall_to(s, sm, wi, cursor, r->unit, t, WS_CTR_STALL_UNIT_BUSY);
    cursor = ws_stall_to(s, sm, wi, cursor, r->mshr, t, WS_CTR_STALL_MSHR);
    ws_stall_to(s, sm, wi, cursor, t, t, WS_CTR_STALL_NOT_SELECTED);
}

/* ---- selection --------------------------------------------------------- */

struct ws_pick {
    uint32_t warp;
    struct ws_ready ready;
};

/* Rank of warp wi among this sub-core's active warps by age (0 = oldest). */
static uint32_t ws_age_rank(const struct ws_sim *s, const struct ws_sm *sm,
                            uint32_t sub, uint32_t wi)
{
    const struct ws_subcore *sc = &sm->sub[sub];
    uint32_t rank = 0;

    (void)s;
    for (uint32_t i = 0; i < sc->ncand; i++)
        if (sc->cand[i].age < sm->warps[wi].age)
            rank++;
    return rank;
}

/* Is candidate `cand` preferred over the current choice `best`? */
static int ws_prefer(const struct ws_sim *s, const struct ws_sm *sm,
                     uint32_t sub, uint32_t cand, uint32_t best)
{
    const struct ws_subcore *sc = &sm->sub[sub];
    uint32_t n = s->gpu->sm.max_warps;

    switch (s->gpu->sched.policy) {
    case WS_SCHED_GTO:
        if (best == sc->last)
            return 0;
        return cand == sc->last || sm->warps[cand].age < sm->warps[best].age;
    case WS_SCHED_LRR:
        return (cand + n - sc->last - 1) % n < (best + n - sc->last - 1) % n;
    default: {
        /* Two-level: round robin inside the ready set of the oldest
         * active_warps warps, the rest only when none of those can go. */
        uint32_t k = s->gpu->sched.active_warps;
        int ci = ws_age_rank(s, sm, sub, cand) < k;
        int bi = ws_age_rank(s, sm, sub, best) < k;
        if (ci != bi)
            return ci;
        return (cand + n - sc->last - 1) % n < (best + n - sc->last - 1) % n;
    }
    }
}

/* The cycle candidate c can issue at, given the cycle t the SM's MSHRs
 * were asked about (*mshr_known says whether *mshr holds the answer: one
 * per SM and cycle, whichever warp asks). */
static uint64_t ws_cand_at(struct ws_sim *s, const struct ws_sm *sm,
                           const struct ws_subcore *sc, const struct ws_cand *c,
                           uint64_t t, uint64_t *mshr, int *mshr_known)
{
    uint64_t at = c->ready_own > sc->unit_free[c->unit]
                      ? c->ready_own
                      : sc->unit_free[c->unit];

    if (c->mshr) {
        if (!*mshr_known) {
            *mshr = ws_mem_mshr_ready(&s->mem, sm->id, t);
            *mshr_known = 1;
        }
        if (*mshr > at)
            at = *mshr;
    }
    return at;
}

/* Greedy-then-oldest without a scan when it can: the warp that issued
 * last, if ready, else the first ready candidate in age order.  The next
 * cycle to look is only needed when nothing is ready, and then every
 * candidate was seen. */
static int ws_select_gto(struct ws_sim *s, struct ws_sm *sm, uint32_t sub,
                         uint64_t t, struct ws_pick *pick, uint64_t *next)
{
    const struct ws_subcore *sc = &sm->sub[sub];
    uint32_t last = sc->last_cand;
    uint64_t mshr = 0;
    int known = 0;

    *next = WS_NEVER;
    if (last != WS_NO_CAND
        && ws_cand_at(s, sm, sc, &sc->cand[last], t, &mshr, &known) <= t) {
        pick->warp = sc->last;
        ws_warp_ready(s, sm, sc, &sm->warps[pick->warp], t, &pick->ready);
        return 1;
    }
    for (uint32_t i = 0; i < sc->ncand; i++) {
        uint64_t at = ws_cand_at(s, sm, sc, &sc->cand[i], t, &mshr, &known);
        if (at <= t) {
            pick->warp = sc->cand[i].warp;
            ws_warp_ready(s, sm, sc, &sm->warps[pick->warp], t, &pick->ready);
            return 1;
        }
        if (at < *next)
            *next = at;
    }
    return 0;
}

/* Picks the warp to issue at t, or returns 0 and the next cycle to look. */
static int ws_select(struct ws_sim *s, struct ws_sm *sm, uint32_t sub,
                     uint64_t t, struct ws_pick *pick, uint64_t *next)
{
    const struct ws_subcore *sc = &sm->sub[sub];
    uint64_t mshr = 0;
    int found = 0, mshr_known = 0;

    if (s->gpu->sched.policy == WS_SCHED_GTO)
        return ws_select_gto(s, sm, sub, t, pick, next);
    *next = WS_NEVER;
    pick->warp = 0;
    for (uint32_t i = 0; i < sc->ncand; i++) {
        uint32_t wi = sc->cand[i].warp;
        uint64_t at = ws_cand_at(s, sm, sc, &sc->cand[i], t, &mshr,
                                 &mshr_known);
        if (at > t) {
            if (at < *next)
                *next = at;
            continue;
        }
        if (!found || ws_prefer(s, sm, sub, wi, pick->warp)) {
            pick->warp = wi;
            found = 1;
        }
    }
    if (found)
        ws_warp_ready(s, sm, &sm->sub[sub], &sm->warps[pick->warp], t,
                      &pick->ready);
    return found;
}

/* ---- issue ------------------------------------------------------------- */

_Static_assert(WS_CTR_PIPE_LDST_CYCLES - WS_CTR_PIPE_FP32_CYCLES == WS_UNIT_LDST
                   && WS_UNIT_LDST + 1 == WS_UNIT_COUNT,
               "one pipe-cycles counter per unit, in unit order");

static const enum ws_ctr ws_class_ctr[WS_OPC_COUNT] = {
    [WS_OPC_FP32] = WS_CTR_INST_FP32,
    [WS_OPC_FP16] = WS_CTR_INST_FP16,
    [WS_OPC_INT] = WS_CTR_INST_INT,
    [WS_OPC_FP64] = WS_CTR_INST_FP64,
    [WS_OPC_SFU] = WS_CTR_INST_SFU,
    [WS_OPC_TENSOR] = WS_CTR_INST_TENSOR,
    [WS_OPC_UNIFORM] = WS_CTR_INST_UNIFORM,
    [WS_OPC_MISC] = WS_CTR_INST_MISC,
    [WS_OPC_BRANCH] = WS_CTR_INST_BRANCH,
    [WS_OPC_BARRIER] = WS_CTR_INST_BARRIER,
    [WS_OPC_EXIT] = WS_CTR_INST_EXIT,
    [WS_OPC_GLOBAL] = WS_CTR_INST_LSU,
    [WS_OPC_SHARED] = WS_CTR_INST_LSU,
    [WS_OPC_LOCAL] = WS_CTR_INST_LSU,
    [WS_OPC_CONST] = WS_CTR_INST_LSU,
    [WS_OPC_TEX] = WS_CTR_INST_LSU,
};

/* What the models' terms are measured by: a global or local load of warp
 * w issued at t with its data in at `done` counts once, its latency, and
 * the cycles it adds to the warp's and the SM's time with a load in flight
 * (loads issue in time order, so each union grows at its end). */
static void ws_issue_mem_terms(struct ws_counters *c, struct ws_sm *sm,
                               struct ws_warp *w, uint64_t t, uint64_t done)
{
    uint64_t from;

    c->v[WS_CTR_MEM_LOADS]++;
    c->v[WS_CTR_MEM_LOAD_LATENCY] += done - t;
    from = t > w->mem_until ? t : w->mem_until;
    if (done > from) {
        c->v[WS_CTR_WARP_MEM_CYCLES] += done - from;
        w->mem_until = done;
    }
    from = t > sm->mem_until ? t : sm->mem_until;
    if (done > from) {
        c->v[WS_CTR_SM_MEM_CYCLES] += done - from;
        sm->mem_until = done;
    }
}

/* The memory request of warp w's instruction in, issued at t. */
static struct ws_mem_req ws_issue_mem_req(struct ws_sm *sm,
                                          const struct ws_warp *w,
                                          const struct ws_inst *in, uint64_t t)
{
    const uint64_t *pool = w->addrs;
    /* A CTA whose accesses are all predicated off has no address pool. */
    const struct ws_mem_req req = {sm->id,
                                   t,
                                   pool ? pool + in->addr : NULL,
                                   ws_popcount32(in->mask),
                                   in->width,
                                   &sm->ctr};

    return req;
}

/* A global or local load: on the sectors its own-work check coalesced
 * (ws_issue_load_is_own), or coalesced now. */
static uint64_t ws_issue_load(struct ws_sim *s, struct ws_sm *sm,
                              const struct ws_warp *w,
                              const struct ws_mem_req *req)
{
    if (sm->coal_warp == (uint32_t)(w - sm->warps) + 1) {
        sm->coal_warp = 0;
        return ws_mem_load_sectors(&s->mem, req, &sm->coal, 1);
    }
    return ws_mem_load(&s->mem, req, 1);
}

/* A memory instruction's result cycle (for its destination registers). */
static uint64_t ws_issue_memory(struct ws_sim *s, struct ws_sm *sm,
                                struct ws_warp *w, const struct ws_inst *in,
                                uint64_t t)
{
    const struct ws_gpu *g = s->gpu;
    const struct ws_mem_req req = ws_issue_mem_req(sm, w, in, t);
    uint64_t done;

    /* Memory latencies in the config are load-to-use from issue, as a
     * pointer chase measures them; the LD/ST unit's own latency is what an
     * access that moves no data (predicated off) costs. */
    if (req.nlanes == 0 || in->width == 0)
        return t + g->unit[WS_UNIT_LDST].latency;
    if (in->space == WS_SPACE_SHARED)
        return ws_mem_shared(&s->mem, &req);
    if (in->space == WS_SPACE_CONST)
        return t + g->l1.latency; /* constant cache hit */
    switch (in->memop) {
    case WS_MEMOP_STORE:
        ws_mem_store(&s->mem, &req);
        return t;
    case WS_MEMOP_ATOMIC:
    case WS_MEMOP_REDUCTION:
        done = ws_mem_atomic(&s->mem, &req);
        return in->memop == WS_MEMOP_ATOMIC ? done : t;
    default:
        done = ws_issue_load(s, sm, w, &req);
        ws_issue_mem_terms(&sm->ctr, sm, w, t, done);
        if (in->memop == WS_MEMOP_ASYNC_COPY) {
            ws_groups_add(&w->ldgsts, done);
            return t;
        }
        return done;
    }
}

/* What a consumer of in's results waits as: Nsight's long scoreboard for
 * what goes through L1TEX (global, local, texture), short scoreboard for
 * the MIO path (shared memory), wait for the fixed-latency units. */
static enum ws_ctr ws_issue_dep_ctr(const struct ws_inst *in, int from_mem)
{
    if (!from_mem)
        return WS_CTR_STALL_ALU_DEP;
    if (in->space == WS_SPACE_SHARED)
        return WS_CTR_STALL_SHORT_DEP;
    return WS_CTR_STALL_MEM_DEP;
}

/* What an asynchronous instruction needs after its own issue: its kind,
 * and what the window refill below may overwrite. */
struct ws_async_ctx {
    const struct ws_async_op *op; /* NULL: not asynchronous */
    uint64_t mbar;                /* first active lane's address */
    int32_t imm;
};

static int ws_issue_async(struct ws_sim *s, struct ws_sm *sm, uint32_t wi,
                          const struct ws_inst *in, uint64_t t,
                          struct ws_async_ctx *ac, uint64_t *done)
{
    const struct ws_warp *w = &sm->warps[wi];

    ac->op = ws_async_lookup(s, in->op);
    if (!ac->op)
        return -1;
    ac->mbar = in->mask && in->width && w->addrs ? w->addrs[in->addr] : 0;
    ac->imm = in->imm;
    return ws_async_exec(s, sm, wi, in, ac->op, ac->mbar, t, done);
}

/* After instruction in of warp w issued at t with its results at done:
 * the stall count runs, and the dependence counters it names are raised
 * until its write-back (wbar) and its operand read (rbar).  A yield asks
 * the scheduler for another warp next cycle, so the warp waits at least
 * two; a stall of 0 is one. */
static void ws_issue_control(const struct ws_gpu *g, struct ws_warp *w,
                             const struct ws_ctrl_entry *e, uint64_t t,
                             uint64_t done, enum ws_ctr stall)
{
    unsigned st = ws_ctrl_stall(e->word), wb = ws_ctrl_wbar(e->word);
    unsigned rb = ws_ctrl_rbar(e->word);

    if (!ws_ctrl_yield(e->word) && st < 2)
        st = 2;
    w->stall_until = t + (st ? st : 1);
    if (wb < 6 && done > w->sb_ready[wb]) {
        w->sb_ready[wb] = done;
        w->sb_stall[wb] = (uint8_t)stall;
    }
    /* Sources are read as the LD/ST pipeline takes the instruction:
     * Huerta et al. Table 2 measure 9-20 cycles of WAR latency on Ampere
     * for loads and stores; the unit's latency stands for it. */
    if (rb < 6 && t + g->unit[WS_UNIT_LDST].latency > w->sb_ready[rb]) {
        w->sb_ready[rb] = t + g->unit[WS_UNIT_LDST].latency;
        w->sb_stall[rb] = (uint8_t)WS_CTR_STALL_ALU_DEP;
    }
}

/* The register file's reads of in (ws_regfile.h): the bubble a bank
 * conflict leaves before the sub-core's next issue. */
static void ws_issue_operands(struct ws_sim *s, struct ws_sm *sm,
                              struct ws_subcore *sc, uint32_t wi,
                              const struct ws_inst *in,
                              const struct ws_ctrl_entry *e, int from_mem,
                              uint64_t t)
{
    uint32_t hits = 0, bubble;

    if (!s->gpu->regfile.banks)
        return;
    bubble = ws_regfile_read(&sc->rfc, from_mem ? 0 : s->gpu->regfile.banks, wi,
                             in, e, &hits);
    sm->ctr.v[WS_CTR_RFC_HITS] += hits;
    sm->ctr.v[WS_CTR_RF_BANK_BUBBLES] += bubble;
    sc->issue_free = t + 1 + bubble;
}

/* With control bits, every instruction must have its own, and the first
 * issue at each PC checks that they belong to the same instruction: a
 * trace joined with the listing of another binary (another sm_ version,
 * another build) would otherwise be timed by someone else's stall
 * counts. */
static int ws_issue_ctrl_check(struct ws_sim *s, const struct ws_inst *in,
                               const struct ws_ctrl_entry *e)
{
    uint32_t i = in->pc >> 4;
    const char *op;

    if (!s->ctrl)
        return 0;
    if (!e)
        return ws_err_at(s->err, s->src->origin, 1, 1,
                         "kernel %s: PC 0x%04x is not an instruction of the "
                         "listing its control bits come from (expected the "
                         "listing of the traced binary, or none)",
                         s->k->name, in->pc);
    if (s->ctrl_seen[i])
        return 0;
    s->ctrl_seen[i] = 1;
    op = ws_strtab_str(s->src->ops, in->op);
    if (ws_ctrl_op_hash(op) == e->op_hash)
        return 0;
    return ws_err_at(s->err, s->src->origin, 1, 1,
                     "kernel %s: %s at PC 0x%04x is another instruction in "
                     "the listing its control bits come from (expected the "
                     "listing of the traced binary, or none)",
                     s->k->name, op, in->pc);
}

static int ws_issue(struct ws_sim *s, struct ws_sm *sm, uint32_t sub,
                    const struct ws_pick *pick, uint64_t t)
{
    const struct ws_gpu *g = s->gpu;
    struct ws_warp *w = &sm->warps[pick->warp];
    const struct ws_inst *in = &w->inst[w->next];
    enum ws_unit_kind unit = (enum ws_unit_kind)w->next_unit;
    struct ws_counters *c = &sm->ctr;
    int from_mem = ws_opcode_class_is_memory((enum ws_op_class)in->cls);
    int sreg = unit == WS_UNIT_LDST && !from_mem;
    enum ws_ctr stall = sreg ? WS_CTR_STALL_SHORT_DEP
                             : ws_issue_dep_ctr(in, from_mem);
    uint8_t flags = in->flags; /* in's window may be refilled below */
    struct ws_async_ctx ac = {NULL, 0, 0};
    const struct ws_ctrl_entry *e = s->ctrl ? ws_ctrl_at(s->ctrl, in->pc)
                                            : NULL;
    int timed = 0;
    uint64_t done = t;

    ws_stall_account(s, sm, pick->warp, &pick->ready, t);
    /* Here, while in is still the instruction: a refill below reuses its
     * window. */
    if (s->tl)
        ws_timeline_issue(s->tl, sm->id, pick->warp, t, in->pc,
                          ws_strtab_str(s->src->ops, in->op));
    sm->sub[sub].unit_free[unit] = t + g->unit[unit].interval;
    c->v[WS_CTR_PIPE_FP32_CYCLES + unit] += g->unit[unit].interval;
    sm->sub[sub].last = pick->warp;
    sm->sub[sub].last_cand = sm->cand_of[pick->warp];
    c->v[WS_CTR_INST]++;
    c->v[ws_class_ctr[in->cls]]++;
    if ((flags & WS_INST_UNKNOWN) && ws_async_unknown(s, in->op) < 0)
        return -1;
    if (ws_issue_ctrl_check(s, in, e) < 0)
        return -1;
    if ((flags & WS_INST_ASYNC)
        && (timed = ws_issue_async(s, sm, pick->warp, in, t, &ac, &done)) < 0)
        return -1;
    /* A bulk copy's "lanes" are its box words: one thread issues it. */
    c->v[WS_CTR_THREAD_INST] += ac.op && in->mask == WS_BOX_MASK
                                        && ws_async_kind_is_bulk(ac.op->kind)
                                    ? 1u
                                    : ws_popcount32(in->mask);
    if (!timed && (flags & WS_INST_GENERIC) && in->space == WS_SPACE_SHARED
        && in->mask && in->width && sm->slots[w->slot].cluster != WS_NO_CLUSTER
        && (timed = ws_async_dsmem(s, sm, w, in, w->addrs[in->addr], t, &done))
               < 0)
        return -1;
    if (!timed)
        done = from_mem ? ws_issue_memory(s, sm, w, in, t)
               : sreg   ? t + g->sm.s2r_latency
                        : t + g->unit[unit].latency;
    for (uint8_t i = 0; i < in->ndst; i++) {
        w->reg_ready[in->dst[i]] = done;
        w->reg_stall[in->dst[i]] = (uint8_t)stall;
    }
    if ((in->ndst || from_mem) && done > w->busy_until)
        w->busy_until = done;
    ws_issue_operands(s, sm, &sm->sub[sub], pick->warp, in, e, from_mem, t);
    if (e) {
        ws_issue_control(g, w, e, t, done, stall);
        c->v[WS_CTR_INST_CONTROL]++;
    }
    if (in->flags & WS_INST_ASYNC_COMMIT)
        ws_groups_commit(&w->ldgsts);
    w->last_issue = t;
    w->next++;
    if (w->next == w->ninst && ws_cta_refill(s, sm, w) < 0)
        return -1;
    ws_issue_fetch(s, sm, pick->warp, t);
    ws_issue_prepare(s, w);
    ws_issue_refresh(sm, g->sm.sub_cores, pick->warp);
    if (w->next == w->ninst)
        return ws_cta_warp_done(s, sm, w, t, w->busy_until);
    if (ac.op
        && ws_async_block(s, sm, pick->warp, ac.op, ac.mbar, ac.imm, t) < 0)
        return -1;
    if (flags & WS_INST_BAR_SYNC)
        return ws_cta_barrier(s, sm, w, t);
    return 0;
}

/* Whether warp wi's global or local load stays inside its SM: every
 * sector it wants is in L1 (valid, or filling from a miss this SM sent),
 * and an L1 is touched by its own SM's accesses alone; a predicated-off
 * one touches no memory.  The sectors are kept for the issue.  Asked only
 * where SMs run in parts: on one thread nothing is gained, and where
 * among the cycle's events such a load runs does not change what it
 * computes (threads_same compares the two). */
static int ws_issue_load_is_own(const struct ws_sim *s, struct ws_sm *sm,
                                uint32_t wi, const struct ws_inst *in)
{
    const struct ws_warp *w = &sm->warps[wi];
    struct ws_mem_req req;

    if (s->nparts < 2 || in->memop != WS_MEMOP_LOAD
        || (in->space != WS_SPACE_GLOBAL && in->space != WS_SPACE_LOCAL))
        return 0;
    if (!in->mask || !in->width)
        return 1;
    req = ws_issue_mem_req(sm, w, in, 0);
    if (!req.addrs)
        return 0;
    ws_mem_sectors(&s->mem, &req, &sm->coal);
    if (!ws_mem_load_hits(&s->mem, &req, &sm->coal))
        return 0;
    sm->coal_warp = wi + 1;
    return 1;
}

/* Whether issuing warp w's next instruction stays inside its SM (struct
 * ws_sim's own work): it reads and writes the SM's warps, units, shared
 * memory, constant cache and counters, and nothing another SM or the
 * input can touch.  Conservative: a global load that would hit in L1 still
 * counts as reaching beyond, since whether it hits is known only inside
 * L1, and so does a warp's last instruction in its stream (its CTA may
 * retire) or in its window, unless its reader can read the next window
 * on the part's thread (ws_cta_refills_own: a workload's, which commits
 * in the rest of the cycle) and the window before has committed (in a
 * window of cycles it may not have yet, ws_window.h: the commit reads
 * the warp's window). */
static int ws_issue_is_own(const struct ws_sim *s, struct ws_sm *sm,
                           uint32_t wi)
{
    const struct ws_warp *w = &sm->warps[wi];
    const struct ws_inst *in = &w->inst[w->next];

    if ((w->next + 1 >= w->ninst
         && (!ws_cta_refills_own(w) || w->commit_pending))
        || (in->flags & (WS_INST_UNKNOWN | WS_INST_ASYNC | WS_INST_GENERIC)))
        return 0;
    /* the first issue at a PC checks its control bits (ctrl_seen) */
    if (s->ctrl && !(ws_ctrl_at(s->ctrl, in->pc) && s->ctrl_seen[in->pc >> 4]))
        return 0;
    /* last: a load's check keeps its sectors for the issue that follows */
    return !ws_opcode_class_is_memory((enum ws_op_class)in->cls)
           || in->space == WS_SPACE_SHARED || in->space == WS_SPACE_CONST
           || ws_issue_load_is_own(s, sm, wi, in);
}

int ws_issue_step(struct ws_sim *s, struct ws_sm *sm, uint32_t sub, uint64_t t,
                  int own)
{
    struct ws_pick pick;
    uint64_t next = WS_NEVER;
    int picked;

    if (own && s->gpu->sched.dual_issue)
        return 1;
    if (t < sm->sub[sub].issue_free) {
        /* a register-bank bubble holds the sub-core's issue */
        sm->sub[sub].wake = WS_NEVER;
        if (ws_sim_wake(s, sm->id, sub, sm->sub[sub].issue_free) < 0)
            return ws_err_oom(s->err);
        return 0;
    }
    picked = ws_select(s, sm, sub, t, &pick, &next);
    if (own && picked && !ws_issue_is_own(s, sm, pick.warp))
        return 1;
    sm->sub[sub].wake = WS_NEVER;
    if (picked) {
        int rc = ws_issue(s, sm, sub, &pick, t);
        sm->coal_warp = 0; /* used by the issue, or not a load after all */
        if (rc < 0)
            return -1;
        sm->ctr.v[WS_CTR_ISSUE_CYCLES]++;
        /* Dual issue (Kepler to Pascal): a second instruction in the same
         * cycle, from another warp and to another unit, since the first
         * one's unit is now busy and a warp issues once per cycle. */
        if (s->gpu->sched.dual_issue && ws_select(s, sm, sub, t, &pick, &next)
            && ws_issue(s, sm, sub, &pick, t) < 0)
            return -1;
        next = t + 1;
    }
    if (next != WS_NEVER && ws_sim_wake(s, sm->id, sub, next) < 0)
        return ws_err_oom(s->err);
    return 0;
}
