/*
 * ws_timeline: the timeline recorder (see ws_timeline.h): spans from the
 * engine's reports, clipped to the window and capped in number, handed to
 * the writer.
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

/* A complete ("X") event clipped to the window; dropped when outside. */
static void ws_tl_span(struct ws_timeline *tl, const char *name, uint32_t pid,
                       uint32_t tid, uint64_t start, uint64_t end)
{
    if (end <= tl->from || start >= tl->to)
        return;
    if (start < tl->from)
        start = tl->from;
    if (end > tl->to)
        end = tl->to;
    if (ws_tl_take(tl))
        tl->w.span(tl->w.ctx, name, pid, tid, start, end - start);
}

int ws_timeline_open(struct ws_timeline *tl, const struct ws_timeline_writer *w,
                     const struct ws_gpu *gpu, uint64_t from, uint64_t to,
                     uint64_t max_events, struct ws_err *err)
{
    size_t n = (size_t)gpu->sm.count * gpu->sm.max_warps;

    memset(tl, 0, sizeof *tl);
    tl->from = from;
    tl->to = to;
    tl->max_events = max_events;
    tl->nwarps = gpu->sm.max_warps;
    tl->run_start = calloc(n, sizeof *tl->run_start);
    tl->run_end = calloc(n, sizeof *tl->run_end);
    if (!tl->run_start || !tl->run_end)
        return ws_err_oom(err);
    tl->w = *w;
    tl->w.begin(tl->w.ctx);
    return 0;
}

void ws_timeline_kernel(struct ws_timeline *tl, const char *name, uint64_t t)
{
    if (t < tl->from || t >= tl->to)
        return;
    if (ws_tl_take(tl))
        tl->w.mark(tl->w.ctx, name, t);
}

void ws_timeline_close(struct ws_timeline *tl)
{
    tl->w.end(tl->w.ctx, tl->events, tl->truncated, tl->from, tl->to);
    free(tl->run_start);
    free(tl->run_end);
}

static void ws_tl_flush_warp(struct ws_timeline *tl, uint32_t sm, uint32_t w)
{
    size_t i = (size_t)sm * tl->nwarps + w;

    if (tl->run_end[i] > tl->run_start[i])
        ws_tl_span(tl, "issue", sm, WS_TL_WARP_TRACK + w, tl->run_start[i],
                   tl->run_end[i]);
    tl->run_start[i] = tl->run_end[i] = 0;
}

void ws_timeline_cta(struct ws_timeline *tl, uint32_t sm, uint32_t slot,
                     const uint32_t ctaid[3], uint64_t start, uint64_t end,
                     const uint32_t *warp_slots, uint32_t nwarps)
{
    char name[64];

    snprintf(name, sizeof name, "CTA (%u,%u,%u)", ctaid[0], ctaid[1], ctaid[2]);
    ws_tl_span(tl, name, sm, slot, start, end);
    for (uint32_t i = 0; i < nwarps; i++)
        ws_tl_flush_warp(tl, sm, warp_slots[i]);
}

void ws_timeline_issue(struct ws_timeline *tl, uint32_t sm, uint32_t warp,
                       uint64_t t)
{
    size_t i = (size_t)sm * tl->nwarps + warp;

    if (tl->run_end[i] == t && t > 0) {
        tl->run_end[i] = t + 1;
        return;
    }
    ws_tl_flush_warp(tl, sm, warp);
    tl->run_start[i] = t;
    tl->run_end[i] = t + 1;
}

void ws_timeline_stall(struct ws_timeline *tl, uint32_t sm, uint32_t warp,
                       enum ws_ctr reason, uint64_t start, uint64_t end)
{
    ws_tl_flush_warp(tl, sm, warp);
    ws_tl_span(tl, ws_ctr_info(reason)->what, sm, WS_TL_WARP_TRACK + warp,
               start, end);
}
