/*
 * ws_window: several simulated cycles per synchronisation of the threads,
 * with the numbers of one cycle at a time (ws_cycle.h).
 *
 * Where no CTA is in a cluster, SMs meet only in the memory system: an
 * SM's own work (ws_sim.h) reads and writes nothing another SM's work
 * touches, and the work that reaches beyond an SM (L1 misses, stores,
 * CTA dispatch and retirement, a trace's next window) changes other SMs
 * only through the memory system's state, which only such work reads.
 * So a window of cycles [t, t + len) runs in two passes:
 *
 *   first, on the threads: each part runs its SMs' events cycle by cycle
 *   through the window, each SM's own work up to its first event that
 *   reaches beyond it; that event and the SM's later ones in the window
 *   are deferred (the SM stops), and the windows of instructions read are
 *   kept, with their cycle, to commit later;
 *
 *   then, on the calling thread: the cycles of the window that still have
 *   work run one at a time as ws_cycle_round runs them, the deferred
 *   events first in each SM's queue, the windows read in the first pass
 *   committing before the ones read in that cycle's round.
 *
 * Each SM sees its events in the order one cycle at a time gives; work
 * beyond an SM runs in the same order (cycle, then the turning SM order);
 * windows commit in the same order (cycle, SM, order read); and an own
 * work's error is the earliest cycle's lowest SM's.  What moved earlier,
 * an SM's own work of later cycles, touches nothing the work it overtook
 * reads.  Two things keep that true: a warp whose window has not
 * committed does not read the next in own work (its issue waits for the
 * second pass), and a PC whose control bits were not checked when the
 * window began stops its SM (the check is work beyond the SM and the
 * mark only ever goes on).  The numbers are therefore those of one cycle
 * at a time, for any window length and any thread count; the length
 * adapts to how often SMs stop, for speed alone.
 *
 * Leaves out: kernels with clusters (a cluster's work reaches other SMs
 * directly: they run one cycle at a time), dual issue (no own work).
 */
#ifndef WS_WINDOW_H
#define WS_WINDOW_H

#include <stdint.h>

struct ws_sim;

/* The window length the environment forces (WARPSIM_WINDOW, cycles, for
 * tests: windows then run on one thread too), 0 when it does not. */
uint64_t ws_window_forced(void);

/* Runs the window from t, the earliest cycle with work: every event
 * before its end, those its work queues included. */
int ws_window_run(struct ws_sim *s, uint64_t t);

#endif
