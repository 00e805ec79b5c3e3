/*
 * ws_sim: kernels on the GPU, event by event (see ws_sim.h).
 *
 * CTA dispatch follows the hardware's order: the first wave goes round
 * robin over SMs (CTA 0 to SM 0, CTA 1 to SM 1, ...) until every SM holds
 * as many CTAs as occupancy allows; after that each retiring CTA's slot
 * takes the next CTA of the trace at the cycle it frees.
 */
#include "ws_sim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ws_async.h"
#include "ws_cluster.h"
#include "ws_cta.h"
#include "ws_issue.h"
#include "ws_cycle.h"
#include "mem/ws_cache.h"
#include "util/ws_heap.h"
#include "stats/ws_timeline.h"

/* The simulator allocates all its state when it starts: per SM a warp slot
 * with its scoreboard for each of sm.max_warps, CTA slots, an L1 tag array
 * and MSHRs; per L2 slice a tag array; per DRAM channel its banks' rows.
 * Each config key's range alone allows terabytes (100000 SMs of 2048 warps,
 * a 1 GiB L2 of 32-byte lines), which would fail as "out of memory" (exit
 * 1) after seconds of work; a GPU needing more than this is bad input,
 * reported at the key responsible.  The sizes come from the structures
 * themselves, so the estimate follows them. */
#define WS_SIM_MAX_STATE (UINT64_C(2) << 30)

static uint64_t ws_sim_sm_bytes(const struct ws_gpu *g)
{
    return (uint64_t)g->sm.max_warps * sizeof(struct ws_warp)
           + (uint64_t)g->sm.max_blocks * sizeof(struct ws_cta_slot)
           + (uint64_t)g->sm.sub_cores * sizeof(struct ws_subcore)
           + ((uint64_t)g->sm.max_warps + g->sm.sub_cores)
                 * sizeof(struct ws_cand)
           + (uint64_t)g->sm.max_warps * sizeof(uint32_t) /* cand_of */
           + g->l1.size / g->l1.line * WS_CACHE_WAY_BYTES
           + (uint64_t)g->l1.mshrs * sizeof(struct ws_heap_key)
           + sizeof(struct ws_sm);
}

static uint64_t ws_sim_l2_bytes(const struct ws_gpu *g)
{
    return g->l2.size / g->l2.line * WS_CACHE_WAY_BYTES
           + (uint64_t)g->l2.slices * g->l2.mshrs * sizeof(struct ws_heap_key)
           + (uint64_t)g->dram.channels
                 * (g->dram.banks * 3 + g->dram.bank_groups) * sizeof(uint64_t);
}

/* Reported at the key with the larger share: sm.count or l2.size. */
static int ws_sim_check_state(const struct ws_gpu *g, struct ws_err *err)
{
    uint64_t sm = ws_sim_sm_bytes(g), all = sm * g->sm.count;
    uint64_t l2 = ws_sim_l2_bytes(g);
    double mib = 1024.0 * 1024.0;

    if (all + l2 <= WS_SIM_MAX_STATE)
        return 0;
    if (all >= l2)
        return ws_cfg_key_error(g, "sm.count", err,
                                "%u SMs of %.0f KiB of "
                                "simulator state each (warp slots, L1 tags) "
                                "need %.0f MiB (expected at most %.0f MiB in "
                                "all: lower sm.count, sm.max_warps or "
                                "l1.size)",
                                g->sm.count, sm / 1024.0, (all + l2) / mib,
                                WS_SIM_MAX_STATE / mib);
    return ws_cfg_key_error(g, "l2.size", err,
                            "an L2 of %llu lines of %llu "
                            "bytes needs %.0f MiB of simulator state "
                            "(expected at most %.0f MiB in all: lower l2.size "
                            "or raise l2.line)",
                            (unsigned long long)(g->l2.size / g->l2.line),
                            (unsigned long long)g->l2.line, (all + l2) / mib,
                            WS_SIM_MAX_STATE / mib);
}

int ws_sim_init(struct ws_sim *s, const struct ws_gpu *gpu,
                const struct ws_sim_opts *opts, struct ws_err *err)
{
    memset(s, 0, sizeof *s);
    if (opts) {
        s->tl = opts->tl;
        s->progress = opts->progress;
        s->progress_ctx = opts->progress_ctx;
    }
    if (ws_sim_check_state(gpu, err) < 0)
        return -1;
    s->gpu = gpu;
    s->err = err;
    if (ws_memsys_init(&s->mem, gpu) < 0)
        return ws_err_oom(err);
    s->sms = ws_calloc_lines(gpu->sm.count, sizeof *s->sms);
    if (!s->sms) {
        ws_sim_free(s);
        return ws_err_oom(err);
    }
    for (uint32_t i = 0; i < gpu->sm.count; i++)
        if (ws_sm_init(&s->sms[i], i, gpu) < 0) {
            ws_sim_free(s);
            return ws_err_oom(err);
        }
    if (ws_cycle_init(s, opts && !opts->tl ? opts->threads : 1) < 0) {
        ws_sim_free(s);
        return ws_err_oom(err);
    }
    return 0;
}

void ws_sim_free(struct ws_sim *s)
{
    for (uint32_t i = 0; s->sms && i < s->gpu->sm.count; i++)
        ws_sm_free(&s->sms[i]);
    ws_free_lines(s->sms);
    ws_memsys_free(&s->mem);
    ws_cycle_free(s);
    ws_async_free(s);
    ws_cluster_free(s);
    free(s->ctrl_seen);
    s->ctrl_seen = NULL;
    s->sms = NULL;
}

int ws_sim_wake(struct ws_sim *s, uint32_t sm, uint32_t sub, uint64_t t)
{
    struct ws_subcore *sc = &s->sms[sm].sub[sub];

    union ws_event_payload p = {.wake = {sm, sub}};

    if (t >= sc->wake)
        return 0;
    sc->wake = t;
    return ws_cycle_push(s, sm, t, WS_EV_SUBCORE_WAKE, p);
}

int ws_sim_retire_at(struct ws_sim *s, uint32_t sm, uint32_t slot, uint64_t t)
{
    union ws_event_payload p = {.retire = {sm, slot}};

    if (ws_cycle_push(s, sm, t, WS_EV_CTA_RETIRE, p) < 0)
        return ws_err_oom(s->err);
    return 0;
}

void ws_sim_close_readers(struct ws_sim *s)
{
    for (uint32_t i = 0; s->sms && i < s->gpu->sm.count; i++)
        for (uint32_t w = 0; w < s->sms[i].warps_seen; w++)
            ws_sm_warp_close(&s->sms[i].warps[w]);
}

void ws_sim_memcpy(struct ws_sim *s, uint64_t addr, uint64_t bytes)
{
    if (s->gpu->memcpy_warms_l2)
        ws_mem_warm_l2(&s->mem, addr, bytes);
}

/* Fills a free slot of sm at t with the input's next CTA (or the CTA held
 * for sm's GPC); a cluster's CTA may go to another SM of its GPC instead
 * (ws_cluster.h), and then sm asks again.  0 when the input is done or
 * nothing can go to sm now, -1 on error. */
static int ws_sim_feed(struct ws_sim *s, struct ws_sm *sm, uint64_t t)
{
    while (ws_sm_has_free_slot(sm)) {
        const struct ws_cta_stream *cta;
        struct ws_sm *to;
        int rc;
        if (s->held) {
            cta = s->held;
            if (ws_cluster_place(s, cta, sm, &to) < 0)
                return -1;
            if (!to) {
                s->starved = 1;
                return 0;
            }
        } else {
            if (s->src_done)
                return 0;
            rc = s->streamed ? s->src->next_header(s->src->ctx, &cta, s->err)
                             : s->src->next(s->src->ctx, &cta, s->err);
            if (rc <= 0) {
                s->src_done = 1;
                if (rc == 0)
                    s->tail_from = t;
                return rc;
            }
            s->ctas_dispatched++;
            if (ws_cluster_place(s, cta, sm, &to) < 0)
                return -1;
            if (!to) { /* held until its GPC has a free slot */
                s->starved = 1;
                return 0;
            }
        }
        if (ws_cta_dispatch(s, to, cta, t) < 0)
            return -1;
        if (to == sm)
            return 0;
    }
    return 0;
}

/* A CTA was held while SMs had free slots: once it runs, every SM with a
 * free slot asks again, as the ones that asked meanwhile got nothing. */
static int ws_sim_feed_starved(struct ws_sim *s, uint64_t t)
{
    if (!s->starved || s->held)
        return 0;
    s->starved = 0;
    for (uint32_t i = 0; i < s->gpu->sm.count && !s->held; i++)
        if (ws_sm_has_free_slot(&s->sms[i])
            && ws_sim_feed(s, &s->sms[i], t) < 0)
            return -1;
    return 0;
}

static int ws_sim_first_wave(struct ws_sim *s, uint64_t t)
{
    for (uint32_t round = 0; round < s->k->occ.ctas_per_sm; round++)
        for (uint32_t i = 0; i < s->gpu->sm.count; i++) {
            if (ws_sim_feed(s, &s->sms[i], t) < 0)
                return -1;
            if (s->src_done)
                return 0;
        }
    return 0;
}

int ws_sim_event(struct ws_sim *s, const struct ws_event *ev, int own)
{
    struct ws_sm *sm;

    if (ev->kind == WS_EV_CTA_RETIRE) {
        if (own)
            return 1; /* it feeds from the input */
        sm = &s->sms[ev->u.retire.sm];
        ws_cta_retire(s, sm, ev->u.retire.slot, ev->cycle);
        if (ws_sim_feed(s, sm, ev->cycle) < 0)
            return -1;
        return ws_sim_feed_starved(s, ev->cycle);
    }
    sm = &s->sms[ev->u.wake.sm];
    if (sm->sub[ev->u.wake.sub].wake != ev->cycle)
        return 0; /* superseded by an earlier wake-up */
    return ws_issue_step(s, sm, ev->u.wake.sub, ev->cycle, own);
}

/* Issue counted per SM (struct ws_sm's ctr) joins the kernel's counters;
 * the next kernel's setup clears them. */
static void ws_sim_gather(struct ws_sim *s, struct ws_counters *into)
{
    for (uint32_t i = 0; i < s->gpu->sm.count; i++)
        for (size_t k = 0; k < WS_CTR_COUNT; k++)
            into->v[k] += s->sms[i].ctr.v[k];
}

static int ws_sim_check_fit(struct ws_sim *s, const struct ws_launch *l)
{
    const struct ws_occupancy *o = &s->k->occ;

    if (o->ctas_per_sm > 0)
        return 0;
    return ws_err_at(s->err, s->src->origin, 1, 1,
                     "kernel %s: one CTA needs "
                     "more %s than an SM of %s has (expected %u threads, %u "
                     "registers and %llu bytes of shared memory to fit)",
                     s->k->name, ws_occ_limit_name(o->limit), s->gpu->name,
                     ws_launch_threads(l), o->regs_per_cta,
                     (unsigned long long)o->shared_per_cta);
}

static int ws_sim_setup_kernel(struct ws_sim *s, struct ws_cta_source *src,
                               struct ws_kernel_stats *k)
{
    const struct ws_launch *l = src->launch;

    memset(k, 0, sizeof *k);
    k->launch = ws_launch_scalars(l);
    k->name = strdup(l->name ? l->name : "?");
    if (!k->name)
        return ws_err_oom(s->err);
    k->ctas_total = ws_launch_ctas(l);
    ws_occupancy_compute(s->gpu, l, &k->occ);
    s->k = k;
    s->src = src;
    s->src_done = 0;
    s->tail_from = 0;
    s->streamed = src->next_header && src->warp_open;
    /* Dual issue (Kepler to Pascal) has no own work to run ahead, and a
     * timeline is written as work runs, in the order of one cycle at a
     * time (it forces one thread; WARPSIM_WINDOW would reorder it). */
    s->win.ok = src->no_clusters && !s->gpu->sched.dual_issue && !s->tl;
    /* Readers per part, whose windows can then be read in own work. */
    if (s->streamed && src->set_parts
        && src->set_parts(src->ctx, s->nparts, s->err) < 0)
        return -1;
    s->ctas_done = s->ctas_dispatched = 0;
    if (ws_sim_check_fit(s, l) < 0)
        return -1;
    if (k->occ.ctas_per_sm > s->gpu->sm.max_blocks)
        k->occ.ctas_per_sm = s->gpu->sm.max_blocks;
    for (uint32_t i = 0; i < s->gpu->sm.count; i++) {
        s->sms[i].nslots = k->occ.ctas_per_sm;
        memset(&s->sms[i].ctr, 0, sizeof s->sms[i].ctr);
        s->sms[i].mem_until = 0;
        s->sms[i].tma_free = 0;
        s->sms[i].dsmem_free = 0;
        memset(s->sms[i].wg_pipe, 0, sizeof s->sms[i].wg_pipe);
        for (uint32_t j = 0; j < s->sms[i].nsub; j++) {
            struct ws_subcore *sc = &s->sms[i].sub[j];
            sc->issue_free = 0;
            sc->rfc.warp = UINT32_MAX;
            sc->rfc.n = 0;
            ws_icache_reset(&sc->icache);
        }
    }
    s->ctrl = s->gpu->sched.control_bits ? src->ctrl : NULL;
    free(s->ctrl_seen);
    s->ctrl_seen = s->ctrl ? calloc(s->ctrl->n, 1) : NULL;
    if (s->ctrl && !s->ctrl_seen)
        return ws_err_oom(s->err);
    ws_memsys_new_kernel(&s->mem, k->occ.l1_size);
    return 0;
}

/* What the first warp still waiting waits for, for the message of a
 * kernel that never finished: ", warp W of CTA (x,y,z) waits ...".  A
 * cluster's CTA held for room is named only when no warp waits: it waits
 * because the resident CTAs never leave, and they are the cause. */
static void ws_sim_stuck(const struct ws_sim *s, char *why, size_t n)
{
    static const char *const on[] = {"", "on the mbarrier at shared 0x%llx",
                                     "for its warpgroup at WARPGROUP.ARRIVE",
                                     "at a cluster barrier"};

    why[0] = '\0';
    if (s->held)
        snprintf(why, n, "; a CTA of a cluster never found room");
    for (uint32_t i = 0; i < s->gpu->sm.count; i++) {
        const struct ws_sm *sm = &s->sms[i];
        for (uint32_t w = 0; w < sm->warps_seen; w++) {
            const struct ws_warp *x = &sm->warps[w];
            const struct ws_cta_slot *slot = &sm->slots[x->slot];
            char what[64];
            if (x->state != WS_WARP_WAITING && x->state != WS_WARP_AT_BARRIER)
                continue;
            if (x->state == WS_WARP_AT_BARRIER)
                snprintf(what, sizeof what, "at a CTA barrier");
            else
                snprintf(what, sizeof what, on[x->waiting_on & 3u],
                         (unsigned long long)x->wait_mbar);
            snprintf(why, n, "; warp %u of CTA (%u,%u,%u) waits %s",
                     x->warp_in_cta, slot->ctaid[0], slot->ctaid[1],
                     slot->ctaid[2], what);
            return;
        }
    }
}

int ws_sim_kernel(struct ws_sim *s, struct ws_cta_source *src,
                  struct ws_kernel_stats *k, struct ws_err *err)
{
    uint64_t start, drained, t;

    s->err = err;
    if (ws_sim_setup_kernel(s, src, k) < 0)
        return -1;
    ws_async_kernel_reset(s);
    ws_cluster_kernel(s);
    start = s->now;
    k->start = start;
    if (s->tl && ws_timeline_kernel(s->tl, k->name, k->launch.id, start) < 0)
        return ws_err_oom(err);
    if (ws_sim_first_wave(s, start) < 0)
        return -1;
    while ((t = ws_cycle_next(s)) != UINT64_MAX) {
        if (ws_cycle_run(s, t) < 0)
            return -1;
        if (s->progress && s->events >= s->next_report) {
            s->next_report = s->events + 0x10000;
            s->progress(s->progress_ctx, k, s->ctas_done, s->now);
        }
    }
    ws_sim_gather(s, &k->ctr);
    if (s->ctas_done != s->ctas_dispatched) {
        /* The ones never dispatched never finished either, unless the
         * input ran out before the grid did (a trace of fewer CTAs). */
        uint64_t left = s->ctas_dispatched - s->ctas_done;
        char why[160];
        if (!s->src_done && k->ctas_total > s->ctas_dispatched)
            left = k->ctas_total - s->ctas_done;
        ws_sim_stuck(s, why, sizeof why);
        return ws_err_at(err, src->origin, 1, 1,
                         "kernel %s: %llu CTAs "
                         "never finished%s (expected every CTA to run to its "
                         "end)",
                         k->name, (unsigned long long)left, why);
    }
    /* The kernel is over when its last SM event is and memory is drained
     * (its stores and atomics included). */
    drained = ws_mem_drained(&s->mem);
    k->end = s->now > drained ? s->now : drained;
    k->ctr.v[WS_CTR_CYCLES] = k->end - start;
    if (s->tl)
        ws_timeline_kernel_end(s->tl, k->end);
    /* The grid ran out while slots were free: from then on, a tail. */
    if (s->src_done && s->tail_from < k->end)
        k->ctr.v[WS_CTR_TAIL_CYCLES] = k->end - s->tail_from;
    s->now = k->end + s->gpu->launch_overhead;
    return 0;
}
