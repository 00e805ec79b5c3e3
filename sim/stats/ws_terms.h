/*
 * ws_terms: the simulation's own measurement of what the analytic models'
 * terms estimate, from a kernel's counters, so that a model's disagreement
 * with the simulation points at a term: memory warps in flight (MWP), the
 * loaded memory latency (Mem_L), the spacing of an SM's loads (departure
 * delay), one warp's compute and memory cycles, waves and the last wave's
 * tail.  Each measured value has a model counterpart named beside it
 * (Hong & Kim's, or TMM's passes for waves).
 *
 * Leaves out: terms no counter measures (CWP, the L2 ratio).
 */
#ifndef WS_TERMS_H
#define WS_TERMS_H

#include <stdio.h>

#include <jansson.h>

#include "config/ws_config.h"
#include "ws_kernel_stats.h"

enum ws_term {
    WS_TERM_MWP,       /* warps with a load in flight, while any is */
    WS_TERM_MEM_L,     /* cycles from a load's issue to its data */
    WS_TERM_DEPARTURE, /* SM cycles with a load in flight per load */
    WS_TERM_COMP,      /* per warp: resident cycles without a load */
    WS_TERM_MEM,       /* per warp: cycles with a load in flight */
    WS_TERM_WAVES,     /* CTAs / (SMs x CTAs per SM) */
    WS_TERM_TAIL_PCT,  /* the tail's share of the kernel's cycles */
    WS_TERM_COUNT
};

struct ws_term_info {
    const char *name;  /* as printed, the model's name for it */
    const char *model; /* the model that estimates it, and its var */
    const char *var;
    const char *what; /* how the simulation measures it */
};

const struct ws_term_info *ws_term_info(enum ws_term t);

/* Each term from counter values (v[c] for each enum ws_ctr c, NaN where
 * not known) over `slots` CTA slots (SMs x resident CTAs per SM, NaN
 * where not known): NaN where the kernel gives nothing to measure (no
 * loads).  The one definition of the measured terms, for a kernel's
 * counters and for a results table's columns alike. */
void ws_terms_from_counters(const double *v, double slots,
                            double out[WS_TERM_COUNT]);

/* ws_terms_from_counters of a simulated kernel. */
void ws_terms_measure(const struct ws_gpu *g, const struct ws_kernel_stats *k,
                      double out[WS_TERM_COUNT]);

/* The model's value of term t for this kernel, NaN when its model did
 * not run or does not apply. */
double ws_terms_model(const struct ws_kernel_stats *k, enum ws_term t);

/* "  model terms (model / simulation): ..." lines of the text report. */
void ws_terms_text(FILE *out, const struct ws_gpu *g,
                   const struct ws_kernel_stats *k);

/* {"MWP": {"measured": x, "model": y, "model_name": "mwp_cwp",
 *  "definition": "..."}, ...} */
json_t *ws_terms_json(const struct ws_gpu *g, const struct ws_kernel_stats *k);

#endif
