/*
 * ws_timeline: a Chrome / Perfetto trace-event JSON file of a simulation,
 * for ui.perfetto.dev or chrome://tracing: per SM (a process) one track per
 * CTA slot showing which CTA was resident when, and one track per warp slot
 * showing the spans in which that warp issued back to back and, between
 * them, its stalls named by cause.  Time stamps are SM cycles.
 *
 * It stays bounded on big kernels: only events inside a cycle window are
 * written, and at most a fixed number of them; the file says when it was
 * cut.  Events are written as the simulation runs, never held in memory.
 *
 * Leaves out: memory-system tracks (L2, DRAM queues).
 */
#ifndef WS_TIMELINE_H
#define WS_TIMELINE_H

#include <stdint.h>
#include <stdio.h>

#include "config/ws_config.h"
#include "ws_stats.h"
#include "util/ws_err.h"

struct ws_timeline {
    FILE *fp;
    uint64_t from, to;          /* cycle window [from, to) */
    uint64_t max_events, events;
    int truncated;
    uint32_t nwarps;            /* warp slots per SM */
    uint64_t *run_start, *run_end;   /* per SM x warp slot: current span */
};

/* Writes to fp, which the caller opened and closes (and checks for write
 * errors): where the file goes is the command's business. */
int ws_timeline_open(struct ws_timeline *tl, FILE *fp,
                     const struct ws_gpu *gpu, uint64_t from, uint64_t to,
                     uint64_t max_events, struct ws_err *err);
/* Names the kernel that starts at cycle t (a marker on the time axis). */
void ws_timeline_kernel(struct ws_timeline *tl, const char *name, uint64_t t);
/* Ends the JSON and frees the timeline; fp stays open. */
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
