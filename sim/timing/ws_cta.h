/*
 * ws_cta: a CTA's life on an SM: dispatch (its streams are copied into the
 * slot, so the reader can move on to the next CTA), barriers, warp
 * completion, retirement.
 *
 * Barriers hold a warp until every warp of its CTA that has not exited has
 * arrived.  A warp that exits while others wait releases them if it was the
 * last one missing: PTX defines exit so, and GPGPU-Sim/Accel-Sim agree.
 *
 * Leaves out: named barriers with thread counts (BAR.SYNC n, m waits for the
 * whole CTA), cluster barriers.
 */
#ifndef WS_CTA_H
#define WS_CTA_H

#include <stdint.h>

#include "ws_sim.h"

/* Puts cta on sm at cycle t; the SM must have a free slot. */
int ws_cta_dispatch(struct ws_sim *s, struct ws_sm *sm,
                    const struct ws_cta_stream *cta, uint64_t t);

/* A streamed warp's next window of instructions: 1 when it has one, 0 at
 * the warp's end (its reader closed), -1 on a reader error (in s->err,
 * or in own work the part's: ws_cycle_err). */
int ws_cta_refill(struct ws_sim *s, struct ws_sm *sm, struct ws_warp *w);
/* The reader's commit of w's window (ws_trace.h). */
int ws_cta_commit(struct ws_warp *w, struct ws_err *err);
/* Whether w's next window can be read in its SM's own work: its reader
 * may read beside others' (ws_cta_source.set_parts) and the read gives
 * instructions. */
int ws_cta_refills_own(const struct ws_warp *w);

/* A warp arrived at BAR.SYNC at cycle t. */
int ws_cta_barrier(struct ws_sim *s, struct ws_sm *sm, struct ws_warp *w,
                   uint64_t t);

/* Makes warp slot wi, held by a wait, a candidate again from cycle at. */
int ws_cta_wake(struct ws_sim *s, struct ws_sm *sm, uint32_t wi, uint64_t at);

/* A warp issued its last instruction at t and its results are in by
 * `finish`. */
int ws_cta_warp_done(struct ws_sim *s, struct ws_sm *sm, struct ws_warp *w,
                     uint64_t t, uint64_t finish);

/* The retirement event of slot at cycle t: frees it and its warps. */
void ws_cta_retire(struct ws_sim *s, struct ws_sm *sm, uint32_t slot,
                   uint64_t t);

#endif
