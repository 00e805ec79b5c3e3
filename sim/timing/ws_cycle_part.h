/*
 * ws_cycle_part: a part of the SMs with its event queue and the lists a
 * cycle's work goes through; shared by ws_cycle.c (one cycle at a time)
 * and ws_window.c (several cycles per synchronisation).  Internal to the
 * timing layer.
 */
#ifndef WS_CYCLE_PART_H
#define WS_CYCLE_PART_H

#include <stddef.h>
#include <stdint.h>

#include "util/ws_err.h"
#include "ws_event.h"
#include "ws_par.h"

struct ws_sim;
struct ws_warp;

/* A window read in SM sm's own work at `cycle`, waiting to commit. */
struct ws_cycle_commit {
    uint32_t sm;
    uint32_t seq; /* its place among its part's, for a stable sort */
    struct ws_warp *w;
    uint64_t cycle;
};

/* One SM's run of a sorted list: [begin, end). */
struct ws_cycle_seg {
    uint32_t sm, begin, end;
};

/* What the rest of the cycle goes through SM by SM, the parts merged: a
 * part's events held (sorted), and its windows read in own work
 * (commits_sorted). */
enum ws_cycle_list {
    WS_CYCLE_HELD,
    WS_CYCLE_WINDOWS,
    WS_CYCLE_LISTS
};

/* A list's runs, one per SM that has some, in SM order; and a merge's
 * place in them. */
struct ws_cycle_segs {
    struct ws_cycle_seg *seg; /* [nsm] */
    uint32_t n, cur, left;
    /* [nsm + 1]: per SM (at its local index + 1) its items, zero between
     * cycles; then the sort's offsets */
    uint32_t *count;
};

/* SMs first, first + stride, ... (nsm of them: every nparts'th SM, so
 * that a grid smaller than the GPU, on the first SMs, still spreads over
 * the threads), their queue, their events of the cycle in
 * queue order (batch), and of those the ones held for the rest of the
 * cycle: their indices in batch (held), then sorted by SM (sorted).
 * Allocated apart from each other: each is one thread's. */
struct ws_cycle_part {
    struct ws_event_queue q;
    uint32_t first, stride, nsm;
    struct ws_event *batch, *sorted;
    uint32_t *held;
    size_t nbatch, nheld, cap; /* cap: of batch, sorted and held */
    struct ws_cycle_segs lists[WS_CYCLE_LISTS];
    int own;    /* its own work is running (on some thread) */
    int failed; /* out of memory there: the kernel stops after it */
    /* Errors of its own work: the one being made, and the kept one, of
     * the lowest SM that failed (fail_sm) this cycle. */
    struct ws_err err, kept;
    uint32_t fail_sm;
    /* Windows read in its own work, to commit in the rest of the cycle:
     * in the order read, then sorted by SM. */
    struct ws_cycle_commit *commits, *commits_sorted;
    size_t ncommits, commit_cap;
    /* The cycle the kept error is of. */
    uint64_t kept_cycle;
    /* A window's first pass (ws_window.c): the cycle its own work is at,
     * the last it ran and the events it ran; the SMs that met work beyond
     * them (stop, by local index), whose events from there are deferred,
     * in cycle order (defer, taken from defer_at); and the windows it
     * read, in cycle order (ahead, committed from ahead_at). */
    int ahead;
    /* No SM of it stopped: the second pass has nothing for it but the
     * windows it read (its queue is left alone, on its thread's core). */
    int idle;
    uint64_t cycle, last;
    size_t events;
    uint8_t *stop;
    struct ws_event *defer;
    size_t ndefer, defer_at, defer_cap;
    struct ws_cycle_commit *ahead_commits;
    size_t nahead, ahead_at, ahead_cap;
};

/* The SM an event is for. */
uint32_t ws_cycle_event_sm(const struct ws_event *ev);

/* Takes the part's events of cycle t, its deferred ones first, in queue
 * order: -1 when out of memory. */
int ws_cycle_take(struct ws_cycle_part *p, uint64_t t);

/* SM sm's own work failed at `cycle`, with p->err: the earliest cycle's
 * lowest SM's error is kept (the same for any number of parts). */
void ws_cycle_fail_at(struct ws_cycle_part *p, uint32_t sm, uint64_t cycle);

/* fn(s, i) for every part i: on the threads when `threads`, else one
 * after the other on the calling thread. */
void ws_cycle_parts(struct ws_sim *s, ws_par_fn fn, int threads);

/* Runs every event of cycle t, the earliest: the own work on the threads
 * when `threads`, then the commits, then the rest. */
int ws_cycle_round(struct ws_sim *s, uint64_t t, int threads);

#endif
