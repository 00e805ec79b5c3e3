/*
 * ws_sol: the Nsight-style view of one simulated kernel, what users of
 * Nsight Compute read first: its "GPU Speed Of Light", "Compute Workload
 * Analysis", "Occupancy" and "Launch Statistics" sections, from the
 * simulation's counters and the config:
 *   - each function unit's busy share of the active sub-core cycles, and
 *     the busiest named;
 *   - throughput as a share of peak at L1/shared, the SM-to-L2
 *     interconnect, L2 and DRAM;
 *   - theoretical occupancy with every limiter's CTA count beside the
 *     achieved occupancy;
 *   - waves per SM, the last wave's fill and the tail;
 *   - a few rule hints, each one sentence ("the grid fills 3 % of the
 *     SMs"), where a number crosses a threshold Nsight's rules also use.
 * The JSON form names each number as Nsight Compute does where it has the
 * metric (sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active...),
 * ws__ where it does not.
 *
 * Peaks come from the config, never from measurement: a pipe's peak is
 * one issue per interval on every sub-core; L1/shared moves one bank row
 * (shared.banks x shared.bank_width bytes) per SM-cycle, the width of the
 * unified SRAM's data path; the interconnect moves icnt.bandwidth_per_sm
 * for each SM while it is active; L2 and DRAM peaks are l2.bandwidth and
 * dram.bandwidth.  Each share is capped at 100 %: the simulator need not
 * enforce the peak the config's numbers imply (it times L1 by its tag
 * pipe, not by bank rows), and a share of peak past 100 would read as a
 * measurement.
 *
 * Leaves out: Nsight's memory-chart, source-counter and instruction-
 * statistics sections; its rules' estimated speed-ups.
 */
#ifndef WS_SOL_H
#define WS_SOL_H

#include <stdio.h>

#include "config/ws_config.h"
#include "stats/ws_kernel_stats.h"

#define WS_SOL_MAX_HINTS 8
#define WS_SOL_HINT_LEN 200

struct ws_sol {
    double pipe_pct[WS_UNIT_COUNT]; /* of active sub-core cycles */
    int busiest;                    /* a unit, or -1: nothing issued */
    double l1_pct, icnt_pct, l2_pct, dram_pct;
    double theoretical_occ_pct, achieved_occ_pct;
    double waves;         /* CTAs over one wave's CTA slots */
    double last_wave_pct; /* how full the last wave is */
    double tail_pct;      /* of the kernel's cycles */
    double grid_sm_pct;   /* SMs the grid can keep busy */
    char hint[WS_SOL_MAX_HINTS][WS_SOL_HINT_LEN];
    int nhints;
};

/* The bytes L2 moved: its sectors read, written and of atomics (the
 * roofline's L2 level too). */
double ws_sol_l2_bytes(const struct ws_gpu *g, const uint64_t *v);

void ws_sol_derive(const struct ws_gpu *g, const struct ws_kernel_stats *k,
                   struct ws_sol *s);
/* The section's lines, from s as ws_sol_derive gave it for k. */
void ws_sol_text(FILE *out, const struct ws_gpu *g,
                 const struct ws_kernel_stats *k, const struct ws_sol *s);
struct json_t;
struct json_t *ws_sol_json(const struct ws_gpu *g,
                           const struct ws_kernel_stats *k);

#endif
