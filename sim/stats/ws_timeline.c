/*
 * ws_timeline: the timeline recorder (see ws_timeline.h): spans from the
 * engine's reports, clipped to the window and capped in number, each with
 * what the engine knew of it, handed to the writer after the first-use
 * descriptions of its process and track.
 */
#include "ws_timeline.h"

#include <stdlib.h>
#include <string.h>

/* Counts an event against the cap; 0 when it must be dropped. */
static int ws_tl_take(struct ws_timeline *tl)
{
    if (tl->events >= tl->max_events) {
        tl->truncated = 1;
        return 0;
    }
    tl->events++;
    return 1;
}

/* Index in tl->named of the process (process 1) or the track: the
 * kernels' process and its one track first, then per SM its process, its
 * CTA slots and its warp slots. */
static size_t ws_tl_named_at(const struct ws_timeline *tl, uint32_t pid,
                             uint32_t tid, int process)
{
    size_t per_sm = 1 + (size_t)tl->nctas + tl->nwarps;

    if (pid == WS_TL_KERNELS_PID(tl->nsms))
        return process ? 0 : 1;
    if (process)
        return 2 + pid * per_sm;
    if (tid >= WS_TL_WARP_TRACK)
        return 2 + pid * per_sm + 1 + tl->nctas + (tid - WS_TL_WARP_TRACK);
    return 2 + pid * per_sm + 1 + tid;
}

/* Describes the span's process and track to the writer, the first time
 * either gets a span: a short kernel does not list the tracks it left
 * empty. */
static void ws_tl_name(struct ws_timeline *tl, const struct ws_tl_span *s)
{
    size_t p = ws_tl_named_at(tl, s->pid, s->tid, 1);
    size_t t = ws_tl_named_at(tl, s->pid, s->tid, 0);
    int kernels = s->pid == WS_TL_KERNELS_PID(tl->nsms);

    if (!tl->named[p]) {
        tl->named[p] = 1;
        tl->w.process(tl->w.ctx, s->pid, kernels ? WS_TL_KERNELS : WS_TL_SM,
                      kernels ? 0 : s->pid);
    }
    if (!tl->named[t]) {
        tl->named[t] = 1;
        if (kernels)
            tl->w.track(tl->w.ctx, s->pid, s->tid, WS_TL_KERNELS, 0);
        else if (s->tid >= WS_TL_WARP_TRACK)
            tl->w.track(tl->w.ctx, s->pid, s->tid, WS_TL_WARP_SLOT,
                        s->tid - WS_TL_WARP_TRACK);
        else
            tl->w.track(tl->w.ctx, s->pid, s->tid, WS_TL_CTA_SLOT, s->tid);
    }
}

/* A span [start, end) clipped to the window; dropped when outside or over
 * the cap.  s carries everything but the times, which are set here. */
static void ws_tl_span(struct ws_timeline *tl, struct ws_tl_span *s,
                       uint64_t start, uint64_t end)
{
    if (end <= tl->from || start >= tl->to)
        return;
    if (start < tl->from)
        start = tl->from;
    if (end > tl->to)
        end = tl->to;
    if (!ws_tl_take(tl))
        return;
    s->start = start;
    s->dur = end - start;
    s->kernel = tl->kernel ? tl->kernel : "";
    s->kernel_id = tl->kernel_id;
    ws_tl_name(tl, s);
    tl->w.span(tl->w.ctx, s);
}

int ws_timeline_open(struct ws_timeline *tl, const struct ws_timeline_writer *w,
                     const struct ws_gpu *gpu, enum ws_tl_level level,
                     uint64_t from, uint64_t to, uint64_t max_events,
                     struct ws_err *err)
{
    size_t nsms = gpu->sm.count;

    memset(tl, 0, sizeof *tl);
    tl->level = level;
    tl->from = from;
    tl->to = to;
    tl->max_events = max_events;
    tl->nsms = gpu->sm.count;
    tl->nctas = gpu->sm.max_blocks;
    tl->nwarps = gpu->sm.max_warps;
    tl->warps = calloc(nsms * tl->nwarps, sizeof *tl->warps);
    tl->named = calloc(2 + nsms * (1 + (size_t)tl->nctas + tl->nwarps), 1);
    if (!tl->warps || !tl->named) {
        free(tl->warps);
        free(tl->named);
        return ws_err_oom(err);
    }
    tl->w = *w;
    tl->w.begin(tl->w.ctx, gpu->core_mhz, level);
    return 0;
}

int ws_timeline_kernel(struct ws_timeline *tl, const char *name, uint32_t id,
                       uint64_t t)
{
    free(tl->kernel);
    tl->kernel = strdup(name ? name : "");
    tl->kernel_id = id;
    tl->kernel_start = t;
    return tl->kernel ? 0 : -1;
}

void ws_timeline_kernel_end(struct ws_timeline *tl, uint64_t t)
{
    struct ws_tl_span s = {.kind = WS_TL_KERNELS,
                           .pid = WS_TL_KERNELS_PID(tl->nsms)};

    ws_tl_span(tl, &s, tl->kernel_start, t);
}

void ws_timeline_close(struct ws_timeline *tl)
{
    tl->w.end(tl->w.ctx, tl->events, tl->truncated, tl->from, tl->to);
    free(tl->kernel);
    free(tl->warps);
    free(tl->named);
}

void ws_timeline_warp(struct ws_timeline *tl, uint32_t sm, uint32_t warp,
                      const uint32_t ctaid[3], uint64_t cta,
                      uint32_t warp_in_cta)
{
    struct ws_tl_warp *w = &tl->warps[(size_t)sm * tl->nwarps + warp];

    if (tl->level != WS_TL_LEVEL_WARP)
        return;
    memcpy(w->ctaid, ctaid, sizeof w->ctaid);
    w->cta = cta;
    w->warp = warp_in_cta;
    w->start = w->end = 0;
}

/* A warp span of slot w on SM sm, its CTA and warp filled in. */
static struct ws_tl_span ws_tl_warp_span(const struct ws_tl_warp *w,
                                         uint32_t sm, uint32_t warp,
                                         enum ws_tl_kind kind)
{
    struct ws_tl_span s = {.kind = kind,
                           .pid = sm,
                           .tid = WS_TL_WARP_TRACK + warp,
                           .cta = w->cta,
                           .warp = w->warp};

    memcpy(s.ctaid, w->ctaid, sizeof s.ctaid);
    return s;
}

static void ws_tl_flush_warp(struct ws_timeline *tl, uint32_t sm, uint32_t warp)
{
    struct ws_tl_warp *w = &tl->warps[(size_t)sm * tl->nwarps + warp];

    if (w->end > w->start) {
        struct ws_tl_span s = ws_tl_warp_span(w, sm, warp, WS_TL_ISSUE);
        s.pc = w->pc;
        s.op = w->op;
        ws_tl_span(tl, &s, w->start, w->end);
    }
    w->start = w->end = 0;
}

void ws_timeline_cta(struct ws_timeline *tl, uint32_t sm, uint32_t slot,
                     const uint32_t ctaid[3], uint64_t cta, uint64_t start,
                     uint64_t end, const uint32_t *warp_slots, uint32_t nwarps)
{
    struct ws_tl_span s = {.kind = WS_TL_CTA_SLOT,
                           .pid = sm,
                           .tid = slot,
                           .cta = cta};

    memcpy(s.ctaid, ctaid, sizeof s.ctaid);
    ws_tl_span(tl, &s, start, end);
    if (tl->level == WS_TL_LEVEL_WARP)
        for (uint32_t i = 0; i < nwarps; i++)
            ws_tl_flush_warp(tl, sm, warp_slots[i]);
}

void ws_timeline_issue(struct ws_timeline *tl, uint32_t sm, uint32_t warp,
                       uint64_t t, uint32_t pc, const char *op)
{
    struct ws_tl_warp *w = &tl->warps[(size_t)sm * tl->nwarps + warp];

    if (tl->level != WS_TL_LEVEL_WARP)
        return;
    if (w->end == t && t > 0) {
        w->end = t + 1;
        return;
    }
    ws_tl_flush_warp(tl, sm, warp);
    w->start = t;
    w->end = t + 1;
    w->pc = pc;
    w->op = op;
}

void ws_timeline_stall(struct ws_timeline *tl, uint32_t sm, uint32_t warp,
                       enum ws_ctr reason, uint64_t start, uint64_t end)
{
    struct ws_tl_span s;

    if (tl->level != WS_TL_LEVEL_WARP)
        return;
    ws_tl_flush_warp(tl, sm, warp);
    s = ws_tl_warp_span(&tl->warps[(size_t)sm * tl->nwarps + warp], sm, warp,
                        WS_TL_STALL);
    s.stall = reason;
    ws_tl_span(tl, &s, start, end);
}
