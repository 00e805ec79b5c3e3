/*
 * ws_run_engine: an input simulated on one GPU, every kernel in launch
 * order with host-to-device copies warming L2 between them, each kernel's
 * closed-form models run on the very CTA stream it simulated.  `warpsim
 * run` and every point of `warpsim sweep` go through here, so a sweep row
 * and a run report are the same numbers.
 *
 * Leaves out: outputs and progress lines (the commands'), the timeline
 * (the caller passes it in the simulator's options).
 */
#ifndef WS_RUN_ENGINE_H
#define WS_RUN_ENGINE_H

#include <regex.h>
#include <stddef.h>
#include <stdint.h>

#include "input/ws_input.h"
#include "report/ws_report.h"
#include "timing/ws_sim.h"
#include "util/ws_err.h"

/* Allocates rep->kernels for every kernel of in (rep->input and rep->gpu
 * are the caller's); on failure rep holds nothing to free. */
int ws_run_engine_prepare(struct ws_run_report *rep, const struct ws_input *in,
                          struct ws_err *err);

/* Which kernels of a long trace to simulate (run --kernel, --max-kernels):
 * the others are opened for their name only and skipped, while the
 * host-to-device copies between them still warm L2. */
struct ws_run_select {
    int by_id; /* only the kernel whose launch id is id */
    uint32_t id;
    int by_name; /* only kernels whose name re matches */
    regex_t re;
    size_t max;        /* at most this many simulated; 0: all */
    const char *given; /* by_id or by_name as typed, for the
                                   error when none matches (ws_run.h) */
};

/* Runs in's commands on sim, filling rep->kernels; *kernel_no (may be
 * NULL) is kept at the 1-based number of the kernel being simulated, for
 * progress lines; sel (may be NULL: every kernel) picks the kernels. */
int ws_run_engine_list(struct ws_sim *sim, struct ws_input *in,
                       struct ws_run_report *rep, size_t *kernel_no,
                       const struct ws_run_select *sel, struct ws_err *err);

/* ws_run_engine_prepare, a fresh simulator with no hooks, and
 * ws_run_engine_list: what a sweep point needs. */
int ws_run_engine_simulate(const struct ws_gpu *gpu, struct ws_input *in,
                           struct ws_run_report *rep, struct ws_err *err);

/* Frees the kernels of rep. */
void ws_run_engine_free(struct ws_run_report *rep);

#endif
