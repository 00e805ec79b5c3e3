/*
 * ws_kernel_stats: what the simulation of one kernel leaves behind: its
 * launch, its occupancy, its span on the global clock and its counters.
 * The timing model fills it; reports, timelines and the models read
 * it, so it lives here, below the timing model, and nothing that reads it
 * needs to know the simulator.
 */
#ifndef WS_KERNEL_STATS_H
#define WS_KERNEL_STATS_H

#include <stdint.h>

#include "config/ws_occupancy.h"
#include "trace/ws_trace.h"
#include "ws_model_result.h"
#include "ws_stats.h"

struct ws_kernel_stats {
    char *name;
    struct ws_launch launch; /* scalars; name fields not owned */
    struct ws_occupancy occ;
    uint64_t start, end; /* global clock */
    uint64_t ctas_total;
    struct ws_counters ctr;
    /* Distinct mnemonics the opcode table did not know, simulated with the
     * config's unknown_opcode_class: "A, B, ..." (cut short with "..."). */
    char unknown_ops[160];
    /* The closed-form models on the same kernel (model/), NULL when none
     * were run; nmodels of them, owned. */
    struct ws_model_result *models;
    int nmodels;
};

void ws_kernel_stats_free(struct ws_kernel_stats *k);

#endif
