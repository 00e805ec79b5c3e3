/*
 * ws_issue: one sub-core's scheduling step: find the warps that can issue now,
 * pick one by the configured policy (LRR, GTO, two-level), issue it, and
 * say when to look again.  Issue reserves the function unit, marks the
 * destination registers with the cycle their value is ready, and sends
 * memory instructions to the memory system, which answers with that cycle.
 *
 * Dependences come from the register scoreboard, or, with control bits
 * (sim->ctrl), from the instruction's stall count, yield flag and
 * dependence counters, as the hardware does from Volta on: it checks no
 * register itself (Huerta et al., MICRO 2025, sec. 4).
 *
 * Leaves out: same-warp dual issue (two instructions of one warp in a
 * cycle, as Maxwell pairs them).
 */
#ifndef WS_ISSUE_H
#define WS_ISSUE_H

#include <stdint.h>

#include "ws_sim.h"

/* Caches what only the warp itself changes about its next instruction's
 * readiness; called at dispatch and after each issue. */
void ws_issue_prepare(struct ws_sim *s, struct ws_warp *w);

/* Warp wi's next instruction is fetched, asked at t: its line from the
 * sub-core's L0 or the stream buffer (ws_icache.h) when the warp enters a
 * new line.  Before ws_issue_prepare. */
void ws_issue_fetch(struct ws_sim *s, struct ws_sm *sm, uint32_t wi,
                    uint64_t t);

/* Copies what selection reads of warp wi into its candidate entry, after
 * last_issue, the next instruction or ready_after_barrier changed. */
void ws_issue_refresh(struct ws_sm *sm, uint32_t sub_cores, uint32_t wi);

/* The wake-up of sub-core sub at cycle t.  With own set, only when what
 * it issues stays inside the SM (ws_sim.h's own work): 1, with nothing
 * changed, when it would not. */
int ws_issue_step(struct ws_sim *s, struct ws_sm *sm, uint32_t sub, uint64_t t,
                  int own);

#endif
