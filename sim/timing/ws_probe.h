/*
 * ws_probe: microbenchmarks run on the simulator itself, for the config at
 * hand, whose measurements the analytic models take as hardware constants:
 * Hong & Kim's departure delays.  Their paper read them off the hardware's
 * documentation; here they are measured the way the levels study measures
 * latency, so that a what-if override of the memory path (a faster SM
 * port, more L2 slices) moves the models' inputs as it moves the
 * simulation.
 *
 *   Departure_del_uncoal: one warp chases a chain whose every hop is one
 *   load of k whole transactions (model.transaction bytes, one lane per
 *   sector), each hop a DRAM row away; a hop then takes Mem_L_Uncoal =
 *   Mem_LD + (k - 1) x Departure_del_uncoal (Hong & Kim's eq 11), so the
 *   least-squares slope of the time per hop against k is the delay.  A
 *   hop's time is taken between two hop counts, so the start cancels.
 *
 *   Departure_del_coal: one CTA of W warps, each one coalesced load and
 *   its store (STREAM copy): the W loads leave together and the last one's
 *   data is back (W - 1) x Departure_del_coal after the first's, so the
 *   slope of the cycles against W is the delay between two warps'
 *   requests.  (A chase cannot measure it: after its first hop the warps
 *   stay staggered and never queue again.)
 *
 * Each probe kernel runs on a simulator of its own, with one SM (the one
 * its single CTA runs on) above the config's memory system (its L2 cut to
 * 1 MiB of sets: the probe's few hundred lines are cold misses at any
 * size), so no earlier kernel's DRAM rows, refresh phase or L2 contents
 * move it.  About twenty small kernels: a millisecond per run.
 *
 * Leaves out: the SM's other warps and CTAs (one SM, one CTA).
 */
#ifndef WS_PROBE_H
#define WS_PROBE_H

#include "config/ws_config.h"
#include "util/ws_err.h"

/* Both delays for g, in cycles: per transaction of g->model.transaction
 * bytes, and per coalesced warp. */
int ws_probe_departure(const struct ws_gpu *g, double *uncoal, double *coal,
                       struct ws_err *err);

/* Fills the departure delays g's config leaves unset (0) with the probe's
 * measurements; a config that sets them keeps its values.  -1 with err
 * set when the probe cannot run (the delays then stay unset, and the
 * models say their inputs are estimates). */
int ws_probe_model(struct ws_gpu *g, struct ws_err *err);

/* ws_probe_model where a failure is not an error: a probe that cannot run
 * (a config too large to simulate) leaves the delays unset, the models
 * then take estimates and say so, and a run reports the config's own error
 * when it simulates.  What run, profile, model and sweep points call. */
void ws_probe_model_or_estimate(struct ws_gpu *g);

#endif
