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
#include "ws_par.h"
#include "mem/ws_cache.h"
#include "util/ws_grow.h"
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

/* Fewer events in a cycle than this run on the calling thread: waking the
 * workers costs about as much as a few issues. */
#define WS_SIM_PAR_MIN 32

static uint64_t ws_sim_sm_bytes(const struct ws_gpu *g)
{
    return (uint64_t)g->sm.max_warps * sizeof(struct ws_warp)
           + (uint64_t)g->sm.max_blocks * sizeof(struct ws_cta_slot)
           + (uint64_t)g->sm.sub_cores * sizeof(struct ws_subcore)
           + ((uint64_t)g->sm.max_warps + g->sm.sub_cores)
                 * sizeof(struct ws_cand)
           + g->l1.size / g->l1.line
                 * (sizeof(struct ws_cache_line) + 2 * sizeof(uint64_t))
           + (uint64_t)g->l1.mshrs * sizeof(struct ws_heap_key)
           + sizeof(struct ws_sm);
}

static uint64_t ws_sim_l2_bytes(const struct ws_gpu *g)
{
    return g->l2.size / g->l2.line
               * (sizeof(struct ws_cache_line) + 2 * sizeof(uint64_t))
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
    ws_event_init(&s->q);
    if (ws_memsys_init(&s->mem, gpu) < 0)
        return ws_err_oom(err);
    s->sms = calloc(gpu->sm.count, sizeof *s->sms);
    if (!s->sms) {
        ws_sim_free(s);
        return ws_err_oom(err);
    }
    for (uint32_t i = 0; i < gpu->sm.count; i++)
        if (ws_sm_init(&s->sms[i], i, gpu) < 0) {
            ws_sim_free(s);
            return ws_err_oom(err);
        }
    s->segs = calloc(gpu->sm.count, sizeof *s->segs);
    s->seg_count = calloc((size_t)gpu->sm.count + 1, sizeof *s->seg_count);
    if (!s->segs || !s->seg_count) {
        ws_sim_free(s);
        return ws_err_oom(err);
    }
    /* A timeline is written as events happen, by one thread. */
    if (opts && opts->threads > 1 && !opts->tl) {
        s->part_seg = calloc((size_t)opts->threads + 1, sizeof *s->part_seg);
        if (!s->part_seg) {
            ws_sim_free(s);
            return ws_err_oom(err);
        }
        if ((s->par = ws_par_start(opts->threads)))
            s->nparts = opts->threads;
    }
    return 0;
}

void ws_sim_free(struct ws_sim *s)
{
    for (uint32_t i = 0; s->sms && i < s->gpu->sm.count; i++)
        ws_sm_free(&s->sms[i]);
    free(s->sms);
    ws_memsys_free(&s->mem);
    ws_event_free(&s->q);
    ws_async_free(s);
    ws_cluster_free(s);
    free(s->ctrl_seen);
    s->ctrl_seen = NULL;
    s->sms = NULL;
    free(s->batch);
    free(s->sorted);
    free(s->segs);
    free(s->seg_count);
    free(s->part_seg);
    s->part_seg = NULL;
    ws_par_stop(s->par);
    s->batch = s->sorted = NULL;
    s->segs = NULL;
    s->seg_count = NULL;
    s->par = NULL;
}

/* While SMs run side by side an SM's events go to its own list, which
 * ws_sim_flush queues in SM order.  Out of memory there marks the SM
 * (s->err is everyone's) and the kernel stops after this part. */
static int ws_sim_queue(struct ws_sim *s, uint32_t sm, uint64_t t,
                        enum ws_event_kind kind, union ws_event_payload p)
{
    struct ws_sm *m = &s->sms[sm];
    size_t cap = m->push_cap;

    if (!s->side_by_side)
        return ws_event_push(&s->q, t, kind, p);
    if (m->npush == m->push_cap) {
        if (ws_grow((void **)&m->push, &cap, (size_t)m->npush + 1,
                    sizeof *m->push, 16)
            < 0) {
            m->failed = 1;
            return 0;
        }
        m->push_cap = (uint32_t)cap;
    }
    m->push[m->npush].cycle = t;
    m->push[m->npush].kind = kind;
    m->push[m->npush].p = p;
    m->npush++;
    return 0;
}

int ws_sim_wake(struct ws_sim *s, uint32_t sm, uint32_t sub, uint64_t t)
{
    struct ws_subcore *sc = &s->sms[sm].sub[sub];

    union ws_event_payload p = {.wake = {sm, sub}};

    if (t >= sc->wake)
        return 0;
    sc->wake = t;
    return ws_sim_queue(s, sm, t, WS_EV_SUBCORE_WAKE, p);
}

int ws_sim_retire_at(struct ws_sim *s, uint32_t sm, uint32_t slot, uint64_t t)
{
    union ws_event_payload p = {.retire = {sm, slot}};

    if (ws_sim_queue(s, sm, t, WS_EV_CTA_RETIRE, p) < 0)
        return ws_err_oom(s->err);
    return 0;
}

void ws_sim_close_readers(struct ws_sim *s)
{
    for (uint32_t i = 0; s->sms && i < s->gpu->sm.count; i++)
        for (uint32_t w = 0; w < s->sms[i].nwarps; w++)
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

static int ws_sim_event(struct ws_sim *s, const struct ws_event *ev)
{
    struct ws_sm *sm;

    if (ev->kind == WS_EV_CTA_RETIRE) {
        sm = &s->sms[ev->u.retire.sm];
        ws_cta_retire(s, sm, ev->u.retire.slot, ev->cycle);
        if (ws_sim_feed(s, sm, ev->cycle) < 0)
            return -1;
        return ws_sim_feed_starved(s, ev->cycle);
    }
    sm = &s->sms[ev->u.wake.sm];
    if (sm->sub[ev->u.wake.sub].wake != ev->cycle)
        return 0; /* superseded by an earlier wake-up */
    return ws_issue_step(s, sm, ev->u.wake.sub, ev->cycle, 0);
}

/* ---- one cycle -------------------------------------------------------- */

static uint32_t ws_sim_event_sm(const struct ws_event *ev)
{
    return ev->kind == WS_EV_CTA_RETIRE ? ev->u.retire.sm : ev->u.wake.sm;
}

/* Takes cycle t's events off the queue, in queue order, and sorts them by
 * SM (stable: each SM's stay in queue order) into s->sorted and s->segs. */
static int ws_sim_take(struct ws_sim *s, uint64_t t)
{
    uint32_t nsm = s->gpu->sm.count, *count = s->seg_count, at = 0;
    size_t cap = s->batch_cap;

    s->nbatch = 0;
    for (;;) {
        if (s->nbatch == s->batch_cap) {
            if (ws_grow((void **)&s->batch, &cap, s->nbatch + 1,
                        sizeof *s->batch, 256)
                    < 0
                || ws_grow((void **)&s->sorted, &s->batch_cap, cap,
                           sizeof *s->sorted, cap)
                       < 0)
                return ws_err_oom(s->err);
            s->batch_cap = cap;
        }
        if (!ws_event_pop_at(&s->q, t, &s->batch[s->nbatch]))
            break;
        s->nbatch++;
    }
    memset(count, 0, ((size_t)nsm + 1) * sizeof *count);
    for (size_t i = 0; i < s->nbatch; i++)
        count[ws_sim_event_sm(&s->batch[i]) + 1]++;
    s->nsegs = 0;
    for (uint32_t m = 0; m < nsm; m++) {
        if (count[m + 1]) {
            struct ws_sim_seg *g = &s->segs[s->nsegs++];
            g->sm = m;
            g->begin = g->stop = at;
            g->end = at + count[m + 1];
        }
        count[m + 1] = at += count[m + 1];
    }
    for (size_t i = 0; i < s->nbatch; i++)
        s->sorted[count[ws_sim_event_sm(&s->batch[i])]++] = s->batch[i];
    return 0;
}

/* Segment i's own work: its SM's events up to the first that reaches
 * beyond the SM (ws_issue_step says which), or the first retirement. */
static void ws_sim_own_seg(struct ws_sim *s, uint32_t i)
{
    struct ws_sim_seg *g = &s->segs[i];
    struct ws_sm *sm = &s->sms[g->sm];

    for (; g->stop < g->end; g->stop++) {
        const struct ws_event *ev = &s->sorted[g->stop];
        int rc;
        if (ev->kind != WS_EV_SUBCORE_WAKE)
            return;
        if (sm->sub[ev->u.wake.sub].wake != ev->cycle)
            continue; /* superseded by an earlier wake-up */
        rc = ws_issue_step(s, sm, ev->u.wake.sub, ev->cycle, 1);
        if (rc != 0 || sm->failed) {
            sm->failed |= rc < 0;
            return;
        }
    }
}

/* Part `part` of the own work on threads: the run of segments
 * ws_sim_split gave it.  Runs of segments one after another keep each
 * thread's writes apart, and a thread reads nothing of another's runs. */
static void ws_sim_own_part(void *ctx, uint32_t part)
{
    struct ws_sim *s = ctx;

    for (uint32_t i = s->part_seg[part]; i < s->part_seg[part + 1]; i++)
        ws_sim_own_seg(s, i);
}

/* Splits the segments into s->nparts runs of about equal events. */
static void ws_sim_split(struct ws_sim *s)
{
    uint32_t i = 0;

    for (uint32_t p = 0; p < s->nparts; p++) {
        size_t from = s->nbatch * p / s->nparts;
        while (i < s->nsegs && s->segs[i].begin < from)
            i++;
        s->part_seg[p] = i;
    }
    s->part_seg[s->nparts] = s->nsegs;
}

/* The events the own work queued, SM by SM. */
static int ws_sim_flush(struct ws_sim *s)
{
    int failed = 0;

    for (uint32_t i = 0; i < s->nsegs; i++) {
        struct ws_sm *sm = &s->sms[s->segs[i].sm];
        for (uint32_t k = 0; k < sm->npush; k++)
            if (ws_event_push(&s->q, sm->push[k].cycle,
                              (enum ws_event_kind)sm->push[k].kind,
                              sm->push[k].p)
                < 0)
                failed = 1;
        sm->npush = 0;
        failed |= sm->failed;
        sm->failed = 0;
    }
    return failed ? ws_err_oom(s->err) : 0;
}

/* Cycle t: the SMs' own work, side by side when there are threads for it
 * and more than one SM has some, then each SM's other events in SM
 * order. */
static int ws_sim_cycle(struct ws_sim *s, uint64_t t)
{
    uint32_t first;

    s->now = t;
    if (ws_sim_take(s, t) < 0)
        return -1;
    s->events += s->nbatch;
    /* On one thread the SMs' own work runs in SM order and queues its
     * events directly, in the order ws_sim_flush would. */
    if (s->par && s->nsegs > 1 && s->nbatch >= WS_SIM_PAR_MIN) {
        ws_sim_split(s);
        s->side_by_side = 1;
        ws_par_for(s->par, s->nparts, ws_sim_own_part, s);
        s->side_by_side = 0;
    } else {
        for (uint32_t i = 0; i < s->nsegs; i++)
            ws_sim_own_seg(s, i);
    }
    if (ws_sim_flush(s) < 0)
        return -1;
    /* The SM that goes first turns with the cycle: a fixed order would
     * always let SM 0 ahead of SM 79 into L2's and DRAM's queues, an
     * arbitration no crossbar has. */
    first = 0;
    while (first < s->nsegs && s->segs[first].sm < t % s->gpu->sm.count)
        first++;
    for (uint32_t j = 0; j < s->nsegs; j++) {
        const struct ws_sim_seg *g = &s->segs[(first + j) % s->nsegs];
        for (uint32_t k = g->stop; k < g->end; k++)
            if (ws_sim_event(s, &s->sorted[k]) < 0)
                return -1;
    }
    return 0;
}

/* Issue counted per SM (struct ws_sm's ctr) joins the kernel's counters. */
static void ws_sim_gather(struct ws_sim *s, struct ws_counters *into)
{
    for (uint32_t i = 0; i < s->gpu->sm.count; i++) {
        struct ws_counters *c = &s->sms[i].ctr;
        for (size_t k = 0; k < WS_CTR_COUNT; k++)
            into->v[k] += c->v[k];
        memset(c, 0, sizeof *c);
    }
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
 * kernel that never finished: ", warp W of CTA (x,y,z) waits ...". */
static void ws_sim_stuck(const struct ws_sim *s, char *why, size_t n)
{
    static const char *const on[] = {"", "on the mbarrier at shared 0x%llx",
                                     "for its warpgroup at WARPGROUP.ARRIVE",
                                     "at a cluster barrier"};

    why[0] = '\0';
    if (s->held) {
        snprintf(why, n, "; CTA (%u,%u,%u) of a cluster never found room",
                 s->held->ctaid[0], s->held->ctaid[1], s->held->ctaid[2]);
        return;
    }
    for (uint32_t i = 0; i < s->gpu->sm.count; i++) {
        const struct ws_sm *sm = &s->sms[i];
        for (uint32_t w = 0; w < sm->nwarps; w++) {
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
    while ((t = ws_event_next_cycle(&s->q)) != UINT64_MAX) {
        if (ws_sim_cycle(s, t) < 0)
            return -1;
        if (s->progress && s->events >= s->next_report) {
            s->next_report = s->events + 0x10000;
            s->progress(s->progress_ctx, k, s->ctas_done, s->now);
        }
    }
    ws_sim_gather(s, &k->ctr);
    if (s->ctas_done != s->ctas_dispatched) {
        char why[160];
        ws_sim_stuck(s, why, sizeof why);
        return ws_err_at(err, src->origin, 1, 1,
                         "kernel %s: %llu CTAs "
                         "never finished%s (expected every CTA to run to its "
                         "end)",
                         k->name,
                         (unsigned long long)(s->ctas_dispatched
                                              - s->ctas_done),
                         why);
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
