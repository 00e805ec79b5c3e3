/*
 * ws_cycle: one simulated cycle's events, SM by SM, the SMs' own work on
 * several threads (the order is ws_sim.h's).
 *
 * The SMs are split into parts of consecutive SMs, one per thread, and
 * each part keeps its own event queue: a thread takes its SMs' events of
 * the cycle and runs their own work in queue order (different SMs' own
 * work commutes, so no sort by SM is needed for it), queueing what that
 * work starts in the same private queue, so that nothing an SM's work
 * touches moves between threads (a shared queue, and the events and
 * follow-ups handed across it every cycle, cost more than the work).
 * Windows of instructions read in own work then commit on the calling
 * thread, part by part and SM by SM (ws_trace.h's commit), and an own-work
 * error stops the kernel with the lowest failing SM's message.  The
 * events that reach beyond their SM then run on the calling thread, SM by
 * SM in the turning order, and queue their follow-ups in the queue of the
 * SM they are for.  Within a queue events are in (cycle, push) order, and
 * every event for an SM is pushed by that SM's own work or by the calling
 * thread in SM order, so each SM sees its events in the same order for any
 * number of parts: the numbers do not depend on the thread count.
 *
 * Leaves out: what events do (ws_sim.c), how warps issue (ws_issue.c).
 */
#ifndef WS_CYCLE_H
#define WS_CYCLE_H

#include <stdint.h>

#include "ws_event.h"

struct ws_err;
struct ws_sim;
struct ws_warp;

/* Parts for `threads` threads (0 or 1: one part on the calling thread). */
int ws_cycle_init(struct ws_sim *s, unsigned threads);
void ws_cycle_free(struct ws_sim *s);

/* Queues an event for SM sm at cycle t.  -1 when out of memory. */
int ws_cycle_push(struct ws_sim *s, uint32_t sm, uint64_t t,
                  enum ws_event_kind kind, union ws_event_payload p);

/* Where an error of SM sm's work goes: the part's while its own work
 * runs (a read error there, the lowest SM's of the cycle, becomes the
 * run's after the own work), else s->err. */
struct ws_err *ws_cycle_err(struct ws_sim *s, uint32_t sm);

/* A window warp w read in SM sm's own work commits (ws_trace.h) at the
 * start of the rest of the cycle, SM by SM (each SM's in the order read;
 * in a window of cycles, ws_window.h, in the second pass): 1 when so
 * queued (w->commit_pending until then), 0 outside own work (commit
 * now), -1 out of memory. */
int ws_cycle_commit_later(struct ws_sim *s, uint32_t sm, struct ws_warp *w);

/* The earliest cycle with an event, UINT64_MAX when none is left. */
uint64_t ws_cycle_next(const struct ws_sim *s);

/* Runs every event of cycle t, the earliest (ws_cycle_next); events its
 * work queues for t itself run at the next call.  Where the kernel allows
 * and threads pay, a window of several cycles from t instead, with the
 * same numbers (ws_window.h). */
int ws_cycle_run(struct ws_sim *s, uint64_t t);

#endif
