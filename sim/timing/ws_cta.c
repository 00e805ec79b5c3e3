/*
 * ws_cta: CTA dispatch, barriers and retirement (see ws_cta.h).
 */
#include "ws_cta.h"

#include <stdlib.h>
#include <string.h>

#include "stats/ws_timeline.h"
#include "util/ws_grow.h"
#include "ws_cluster.h"
#include "ws_cycle.h"
#include "ws_issue.h"

static int ws_cta_copy(struct ws_cta_slot *slot,
                       const struct ws_cta_stream *cta, struct ws_err *err)
{
    if (ws_grow((void **)&slot->inst, &slot->inst_cap, cta->ninst,
                sizeof *slot->inst, 64)
            < 0
        || ws_grow((void **)&slot->addrs, &slot->addr_cap, cta->naddrs,
                   sizeof *slot->addrs, 64)
               < 0)
        return ws_err_oom(err);
    if (cta->naddrs)
        memcpy(slot->addrs, cta->addrs, cta->naddrs * sizeof *cta->addrs);
    return 0;
}

static uint32_t ws_free_warp_slot(const struct ws_sim *s,
                                  const struct ws_sm *sm)
{
    for (uint32_t i = 0; i < s->gpu->sm.max_warps; i++)
        if (sm->warps[i].state == WS_WARP_FREE)
            return i;
    return UINT32_MAX;
}

/* A streamed warp's next window; 1 when it holds instructions, 0 at the
 * warp's end (the reader is closed then), -1 on a reader error.  Read in
 * an SM's own work (ws_cta_refills_own), its commit waits for the rest of
 * the cycle and its error is the part's (ws_cycle.c). */
int ws_cta_refill(struct ws_sim *s, struct ws_sm *sm, struct ws_warp *w)
{
    struct ws_err *err = ws_cycle_err(s, sm->id);
    int later;
    long n;

    if (!w->reader.read)
        return 0;
    if (!w->win) {
        w->win = malloc(WS_WARP_WINDOW * sizeof *w->win);
        w->win_addrs = malloc(WS_WARP_WINDOW_ADDRS * sizeof *w->win_addrs);
        if (!w->win || !w->win_addrs)
            return ws_err_oom(err);
    }
    n = w->reader.read(w->reader.ctx, w->win, WS_WARP_WINDOW, w->win_addrs,
                       WS_WARP_WINDOW_ADDRS, err);
    if (n < 0)
        return -1;
    if (n == 0) {
        ws_sm_warp_close(w);
        return 0;
    }
    w->inst = w->win;
    w->addrs = w->win_addrs;
    w->ninst = (uint32_t)n;
    w->next = 0;
    if (!w->reader.commit)
        return 1;
    if ((later = ws_cycle_commit_later(s, sm->id, w)) < 0)
        return ws_err_oom(err);
    if (!later && ws_cta_commit(w, s->err) < 0)
        return -1;
    return 1;
}

int ws_cta_commit(struct ws_warp *w, struct ws_err *err)
{
    w->commit_pending = 0;
    return w->reader.commit(w->reader.ctx, w->win, w->ninst, w->win_addrs, err);
}

int ws_cta_refills_own(const struct ws_warp *w)
{
    return w->reader.more && w->reader.more(w->reader.ctx);
}

static void ws_warp_start(struct ws_sim *s, struct ws_sm *sm, uint32_t wi,
                          uint32_t slot, uint32_t warp_in_cta, uint64_t t)
{
    struct ws_warp *w = &sm->warps[wi];

    w->next = 0;
    w->slot = slot;
    w->warp_in_cta = warp_in_cta;
    w->age = s->warp_age++;
    w->state = WS_WARP_ACTIVE;
    w->dispatched = t;
    w->last_issue = t - 1;
    w->ready_after_barrier = 0;
    w->busy_until = t;
    w->mem_until = t;
    ws_groups_reset(&w->ldgsts);
    ws_groups_reset(&w->wgmma);
    w->cga_arrives = 0;
    if (s->tl)
        ws_timeline_warp(s->tl, sm->id, wi, sm->slots[slot].ctaid,
                         sm->slots[slot].linear_id, warp_in_cta);
    /* The scoreboard is not cleared: every value a warp slot's last warp
     * left is ready by the time its CTA retired (a CTA retires when its
     * warps' last results are in: busy_until covers every destination),
     * so no later than t, and nothing here can issue before t.  Clearing
     * 2.3 KB per warp was a tenth of a short kernel's run. */
    w->stall_until = 0;
    memset(w->sb_ready, 0, sizeof w->sb_ready);
    w->fetch_line = 0;
    w->fetch_ready = 0;
    ws_issue_fetch(s, sm, wi, t);
    ws_issue_prepare(s, w);
    ws_sm_activate(sm, wi, s->gpu->sm.sub_cores);
    ws_issue_refresh(sm, s->gpu->sm.sub_cores, wi);
}

/* Gives warp slot wi its instructions: its slice of the CTA's copy, or a
 * reader and its first window.  0 when the warp has no instruction (it is
 * skipped, as a trace's absent warps are). */
static int ws_warp_feed(struct ws_sim *s, struct ws_sm *sm, struct ws_warp *w,
                        const struct ws_cta_stream *cta, uint32_t warp,
                        struct ws_cta_slot *slot, uint32_t *copied)
{
    const struct ws_warp_stream *ws = &cta->warps[warp];

    if (ws->ninst == 0)
        return 0;
    if (!s->streamed) {
        memcpy(slot->inst + *copied, ws->inst, ws->ninst * sizeof *ws->inst);
        w->inst = slot->inst + *copied;
        w->addrs = slot->addrs;
        w->ninst = ws->ninst;
        *copied += ws->ninst;
        return 1;
    }
    memset(&w->reader, 0, sizeof w->reader);
    w->reader.part = s->sm_part[sm->id];
    if (s->src->warp_open(s->src->ctx, cta, warp, &w->reader, s->err) < 0)
        return -1;
    return ws_cta_refill(s, sm, w);
}

int ws_cta_dispatch(struct ws_sim *s, struct ws_sm *sm,
                    const struct ws_cta_stream *cta, uint64_t t)
{
    struct ws_cta_slot *slot = NULL;
    uint32_t si, copied = 0;

    for (si = 0; si < sm->nslots; si++)
        if (!sm->slots[si].used) {
            slot = &sm->slots[si];
            break;
        }
    if (!slot)
        return ws_err_msg(s->err, "internal: no free CTA slot on SM %u",
                          sm->id);
    if (si >= sm->slots_seen)
        sm->slots_seen = si + 1;
    if (!s->streamed && ws_cta_copy(slot, cta, s->err) < 0)
        return -1;
    slot->used = 1;
    memcpy(slot->ctaid, cta->ctaid, sizeof slot->ctaid);
    slot->linear_id = cta->linear_id;
    slot->nwarps = slot->at_barrier = slot->done = 0;
    slot->nmbar = 0;
    ws_cluster_dispatched(s, cta, sm, si);
    memset(slot->wg_arrived, 0, sizeof slot->wg_arrived);
    slot->dispatched = t;
    slot->retire_at = t;
    for (uint32_t w = 0; w < cta->nwarps && w < 32; w++) {
        uint32_t wi;
        int rc;
        if (cta->warps[w].ninst == 0)
            continue;
        wi = ws_free_warp_slot(s, sm);
        if (wi == UINT32_MAX)
            return ws_err_msg(s->err, "internal: no free warp slot on SM %u",
                              sm->id);
        if (wi >= sm->warps_seen)
            sm->warps_seen = wi + 1;
        rc = ws_warp_feed(s, sm, &sm->warps[wi], cta, w, slot, &copied);
        if (rc < 0)
            return -1;
        if (rc == 0)
            continue;
        ws_warp_start(s, sm, wi, si, w, t);
        slot->warp_slots[slot->nwarps++] = wi;
        if (ws_sim_wake(s, sm->id, wi % s->gpu->sm.sub_cores, t) < 0)
            return ws_err_oom(s->err);
    }
    if (sm->resident++ == 0)
        sm->active_since = t;
    s->k->ctr.v[WS_CTR_CTAS]++;
    s->k->ctr.v[WS_CTR_WARPS] += slot->nwarps;
    if (slot->nwarps == 0)
        return ws_sim_retire_at(s, sm->id, si, t);
    return 0;
}

int ws_cta_wake(struct ws_sim *s, struct ws_sm *sm, uint32_t wi, uint64_t at)
{
    struct ws_warp *x = &sm->warps[wi];

    x->state = WS_WARP_ACTIVE;
    if (at > x->ready_after_barrier)
        x->ready_after_barrier = at;
    ws_sm_activate(sm, wi, s->gpu->sm.sub_cores);
    ws_issue_refresh(sm, s->gpu->sm.sub_cores, wi);
    if (ws_sim_wake(s, sm->id, wi % s->gpu->sm.sub_cores, at) < 0)
        return ws_err_oom(s->err);
    return 0;
}

/* Releases the warps waiting at the CTA's barrier.  A barrier waits for
 * the CTA's warps that have not exited: the PTX ISA defines exit to release
 * a barrier that only the exiting threads were holding up, and GPGPU-Sim and
 * Accel-Sim do the same, so a warp that exits early is legal, not a
 * deadlock. */
static int ws_cta_release(struct ws_sim *s, struct ws_sm *sm,
                          struct ws_cta_slot *slot, uint64_t t)
{
    slot->at_barrier = 0;
    for (uint32_t i = 0; i < slot->nwarps; i++) {
        uint32_t wi = slot->warp_slots[i];
        struct ws_warp *x = &sm->warps[wi];
        if (x->state != WS_WARP_AT_BARRIER)
            continue;
        if (ws_cta_wake(s, sm, wi, t + 1) < 0)
            return -1;
    }
    return 0;
}

int ws_cta_barrier(struct ws_sim *s, struct ws_sm *sm, struct ws_warp *w,
                   uint64_t t)
{
    struct ws_cta_slot *slot = &sm->slots[w->slot];

    w->state = WS_WARP_AT_BARRIER;
    ws_sm_deactivate(sm, (uint32_t)(w - sm->warps), s->gpu->sm.sub_cores);
    if (++slot->at_barrier < slot->nwarps - slot->done)
        return 0;
    return ws_cta_release(s, sm, slot, t);
}

int ws_cta_warp_done(struct ws_sim *s, struct ws_sm *sm, struct ws_warp *w,
                     uint64_t t, uint64_t finish)
{
    struct ws_cta_slot *slot = &sm->slots[w->slot];

    w->state = WS_WARP_DONE;
    ws_sm_deactivate(sm, (uint32_t)(w - sm->warps), s->gpu->sm.sub_cores);
    slot->done++;
    if (slot->at_barrier > 0 && slot->at_barrier == slot->nwarps - slot->done
        && ws_cta_release(s, sm, slot, t) < 0)
        return -1;
    if (ws_cluster_warp_exited(s, sm, w->slot, t) < 0)
        return -1;
    if (finish < t + 1)
        finish = t + 1;
    if (finish > slot->retire_at)
        slot->retire_at = finish;
    if (slot->done == slot->nwarps)
        return ws_sim_retire_at(s, sm->id, w->slot, slot->retire_at);
    return 0;
}

void ws_cta_retire(struct ws_sim *s, struct ws_sm *sm, uint32_t si, uint64_t t)
{
    struct ws_cta_slot *slot = &sm->slots[si];
    struct ws_counters *c = &s->k->ctr;

    for (uint32_t i = 0; i < slot->nwarps; i++) {
        struct ws_warp *w = &sm->warps[slot->warp_slots[i]];
        c->v[WS_CTR_WARP_CYCLES_RESIDENT] += t - w->dispatched;
        if (t > w->last_issue + 1)
            c->v[WS_CTR_STALL_DRAINED] += t - (w->last_issue + 1);
        w->state = WS_WARP_FREE;
    }
    if (s->tl)
        ws_timeline_cta(s->tl, sm->id, si, slot->ctaid, slot->linear_id,
                        slot->dispatched, t, slot->warp_slots, slot->nwarps);
    ws_cluster_retired(s, sm, si);
    slot->used = 0;
    if (--sm->resident == 0)
        c->v[WS_CTR_SM_CYCLES_ACTIVE] += t - sm->active_since;
    s->ctas_done++;
}
