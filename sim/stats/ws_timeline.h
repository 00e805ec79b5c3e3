/*
 * ws_timeline: the timeline recorder the timing model reports into: a
 * process holding one track per kernel launch, and per SM (a process) one
 * track per CTA slot showing which CTA was resident when and, at the warp
 * level, one track per warp slot showing the spans in which that warp
 * issued back to back and, between them, its stalls named by cause.  Time
 * stamps are SM cycles; each span carries what the engine knew of it
 * (kernel, CTA, warp, first instruction, stall reason).
 *
 * It turns the engine's per-cycle reports into spans, keeps them inside a
 * cycle window and under a number of events, and hands each finished span
 * to a writer (struct ws_timeline_writer) as the simulation runs, never
 * holding them in memory.  The first span of a process or track is
 * preceded by the process's or track's description, so that a writer
 * names only what appears.  The writer is the file format's business:
 * report/ws_timeline_json.c writes Chrome / Perfetto trace-event JSON.
 * Keeping the format out of stats/ is what lets the engine below report
 * without knowing any renderer.
 *
 * Leaves out: memory-system tracks (L2, DRAM queues); file formats, names
 * and units of display (the writer's).
 */
#ifndef WS_TIMELINE_H
#define WS_TIMELINE_H

#include <stdint.h>

#include "config/ws_config.h"
#include "ws_stats.h"
#include "util/ws_err.h"

/* How much is recorded: CTA residency and kernels only, or warps too. */
enum ws_tl_level {
    WS_TL_LEVEL_WARP,
    WS_TL_LEVEL_CTA
};

/* What a process, a track or a span is. */
enum ws_tl_kind {
    WS_TL_KERNELS,   /* the kernels' process and its track; a launch */
    WS_TL_SM,        /* an SM's process */
    WS_TL_CTA_SLOT,  /* a CTA slot's track; a CTA's residency */
    WS_TL_WARP_SLOT, /* a warp slot's track */
    WS_TL_ISSUE,     /* a warp issuing back to back */
    WS_TL_STALL      /* a warp stalled, for one reason */
};

/* A finished span, in SM cycles, with what the engine knew of it.  The
 * strings last until the writer's call returns. */
struct ws_tl_span {
    enum ws_tl_kind kind; /* WS_TL_KERNELS, CTA_SLOT, ISSUE or STALL */
    uint32_t pid, tid;
    uint64_t start, dur; /* clipped to the window */
    const char *kernel;  /* the kernel's name, as the input gave it */
    uint32_t kernel_id;  /* its launch id (the report's) */
    uint64_t cta;        /* CTA and warp spans: the CTA's linear id */
    uint32_t ctaid[3];   /* CTA and warp spans */
    uint32_t warp;       /* warp spans: the warp's index in its CTA */
    uint32_t pc;         /* issue spans: the first instruction's PC */
    const char *op;      /* and its opcode; NULL when not known */
    enum ws_ctr stall;   /* stall spans: the counter it is charged to */
};

/* Where finished spans go.  ctx is the writer's own; begin comes first,
 * end last, with the spans counted and whether any was dropped.  A
 * process and a track are described once, before their first span. */
struct ws_timeline_writer {
    void *ctx;
    void (*begin)(void *ctx, double core_mhz, enum ws_tl_level level);
    /* kind WS_TL_KERNELS or WS_TL_SM (index: the SM). */
    void (*process)(void *ctx, uint32_t pid, enum ws_tl_kind kind,
                    uint32_t index);
    /* kind WS_TL_KERNELS, WS_TL_CTA_SLOT or WS_TL_WARP_SLOT (index: the
     * slot). */
    void (*track)(void *ctx, uint32_t pid, uint32_t tid, enum ws_tl_kind kind,
                  uint32_t index);
    void (*span)(void *ctx, const struct ws_tl_span *s);
    void (*end)(void *ctx, uint64_t events, int truncated, uint64_t from,
                uint64_t to);
};

/* A warp slot: the warp it holds and its open issue span. */
struct ws_tl_warp {
    uint64_t start, end; /* the issue span so far; empty when equal */
    uint64_t cta;
    uint32_t ctaid[3];
    uint32_t warp, pc;
    const char *op;
};

struct ws_timeline {
    struct ws_timeline_writer w;
    enum ws_tl_level level;
    uint64_t from, to; /* cycle window [from, to) */
    uint64_t max_events, events;
    int truncated;
    uint32_t nsms, nctas, nwarps; /* SMs, CTA and warp slots per SM */
    char *kernel;                 /* the kernel running, owned */
    uint32_t kernel_id;
    uint64_t kernel_start;
    struct ws_tl_warp *warps; /* per SM x warp slot */
    /* Processes and tracks described to the writer: the kernels' process,
     * then per SM its process, its CTA slots and its warp slots. */
    unsigned char *named;
};

/* Records into w (copied) at level; where its output goes and its write
 * errors are the caller's business. */
int ws_timeline_open(struct ws_timeline *tl, const struct ws_timeline_writer *w,
                     const struct ws_gpu *gpu, enum ws_tl_level level,
                     uint64_t from, uint64_t to, uint64_t max_events,
                     struct ws_err *err);
/* Ends the writer's output and frees the timeline. */
void ws_timeline_close(struct ws_timeline *tl);

/* What the timing model reports as it goes.  Tracks: the kernels'
 * process is WS_TL_KERNELS_PID(number of SMs), one track; per SM (process
 * = the SM), one per CTA slot, then one per warp slot from
 * WS_TL_WARP_TRACK on. */
#define WS_TL_KERNELS_PID(nsms) (nsms)
#define WS_TL_WARP_TRACK 1000

/* The kernel of launch id `id` starts at cycle t; the spans until
 * ws_timeline_kernel_end are its. */
int ws_timeline_kernel(struct ws_timeline *tl, const char *name, uint32_t id,
                       uint64_t t);
/* The kernel ends at cycle t (its span on the kernels' track). */
void ws_timeline_kernel_end(struct ws_timeline *tl, uint64_t t);
/* Warp slot `warp` of SM sm now holds warp warp_in_cta of the CTA ctaid
 * (linear id cta). */
void ws_timeline_warp(struct ws_timeline *tl, uint32_t sm, uint32_t warp,
                      const uint32_t ctaid[3], uint64_t cta,
                      uint32_t warp_in_cta);
/* A CTA resident in slot from start to end; its warps' open issue spans
 * are closed with it. */
void ws_timeline_cta(struct ws_timeline *tl, uint32_t sm, uint32_t slot,
                     const uint32_t ctaid[3], uint64_t cta, uint64_t start,
                     uint64_t end, const uint32_t *warp_slots, uint32_t nwarps);
/* Warp slot `warp` issued the instruction at pc (opcode op, NULL when not
 * known) at cycle t; back-to-back issues form a span named by its first. */
void ws_timeline_issue(struct ws_timeline *tl, uint32_t sm, uint32_t warp,
                       uint64_t t, uint32_t pc, const char *op);
/* A stall of warp slot `warp` over [start, end), named by its counter. */
void ws_timeline_stall(struct ws_timeline *tl, uint32_t sm, uint32_t warp,
                       enum ws_ctr reason, uint64_t start, uint64_t end);

#endif
