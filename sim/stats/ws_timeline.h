/*
 * ws_timeline: the timeline recorder the timing model reports into: per SM
 * (a process) one track per CTA slot showing which CTA was resident when,
 * and one track per warp slot showing the spans in which that warp issued
 * back to back and, between them, its stalls named by cause.  Time stamps
 * are SM cycles.
 *
 * It turns the engine's per-cycle reports into spans, keeps them inside a
 * cycle window and under a number of events, and hands each finished span
 * to a writer (struct ws_timeline_writer) as the simulation runs, never
 * holding them in memory.  The writer is the file format's business:
 * report/ws_timeline_json.c writes Chrome / Perfetto trace-event JSON.
 * Keeping the format out of stats/ is what lets the engine below report
 * without knowing any renderer.
 *
 * Leaves out: memory-system tracks (L2, DRAM queues); file formats.
 */
#ifndef WS_TIMELINE_H
#define WS_TIMELINE_H

#include <stdint.h>

#include "config/ws_config.h"
#include "ws_stats.h"
#include "util/ws_err.h"

/* Where finished spans go.  ctx is the writer's own; begin comes first,
 * end last, with the count kept and whether any span was dropped. */
struct ws_timeline_writer {
    void *ctx;
    void (*begin)(void *ctx);
    /* A span [start, start + dur) on track tid of process pid. */
    void (*span)(void *ctx, const char *name, uint32_t pid, uint32_t tid,
                 uint64_t start, uint64_t dur);
    /* A kernel named at cycle t (a marker on the time axis). */
    void (*mark)(void *ctx, const char *name, uint64_t t);
    void (*end)(void *ctx, uint64_t events, int truncated, uint64_t from,
                uint64_t to);
};

struct ws_timeline {
    struct ws_timeline_writer w;
    uint64_t from, to; /* cycle window [from, to) */
    uint64_t max_events, events;
    int truncated;
    uint32_t nwarps;               /* warp slots per SM */
    uint64_t *run_start, *run_end; /* per SM x warp slot: current span */
};

/* Records into w (copied); where its output goes and its write errors are
 * the caller's business. */
int ws_timeline_open(struct ws_timeline *tl, const struct ws_timeline_writer *w,
                     const struct ws_gpu *gpu, uint64_t from, uint64_t to,
                     uint64_t max_events, struct ws_err *err);
/* Names the kernel that starts at cycle t (a marker on the time axis). */
void ws_timeline_kernel(struct ws_timeline *tl, const char *name, uint64_t t);
/* Ends the writer's output and frees the timeline. */
void ws_timeline_close(struct ws_timeline *tl);

/* What the timing model reports as it goes.  Tracks: per SM (a process),
 * one per CTA slot, then one per warp slot from WS_TL_WARP_TRACK on. */
#define WS_TL_WARP_TRACK 1000

/* A CTA resident in slot from start to end; its warps' open issue spans
 * are closed with it. */
void ws_timeline_cta(struct ws_timeline *tl, uint32_t sm, uint32_t slot,
                     const uint32_t ctaid[3], uint64_t start, uint64_t end,
                     const uint32_t *warp_slots, uint32_t nwarps);
/* Warp slot `warp` issued at cycle t (back-to-back issues form a span). */
void ws_timeline_issue(struct ws_timeline *tl, uint32_t sm, uint32_t warp,
                       uint64_t t);
/* A stall of warp slot `warp` over [start, end), named by its counter. */
void ws_timeline_stall(struct ws_timeline *tl, uint32_t sm, uint32_t warp,
                       enum ws_ctr reason, uint64_t start, uint64_t end);

#endif
