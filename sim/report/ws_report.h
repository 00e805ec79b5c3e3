/*
 * ws_report: what "warpsim run" prints: a readable summary per kernel and in
 * total, a JSON document with every counter (Nsight names, units, resource
 * groups) and the derived metrics, and a one-row-per-kernel CSV table.
 * Derived metrics are computed here from counters, in one place, so the
 * three forms always agree.
 *
 * Leaves out: evaluating the analytic models (model/); their results,
 * carried in struct ws_kernel_stats, are printed here beside the
 * simulation's in all three forms.
 */
#ifndef WS_REPORT_H
#define WS_REPORT_H

#include <stdio.h>

#include "config/ws_config.h"
#include "stats/ws_kernel_stats.h"

#define WS_REPORT_SCHEMA_VERSION 1

struct ws_ext_models;

struct ws_run_report {
    const char *input;
    const struct ws_gpu *gpu;
    /* External models to run beside the built-in ones (the caller's; NULL
     * or empty: none). */
    const struct ws_ext_models *ext;
    struct ws_kernel_stats *kernels;
    size_t nkernels;
    uint64_t total_cycles; /* first kernel start to last kernel end */
    double wall_seconds;   /* simulator time, not part of outputs
                                       compared by tests */
};

struct ws_derived {
    double time_us, ipc, ipc_per_sm, issue_util_pct, sm_util_pct;
    double achieved_occ_pct, l1_hit_pct, l2_hit_pct;
    double dram_gbps, dram_pct_of_peak;
};

void ws_report_derive(const struct ws_gpu *gpu, const struct ws_counters *c,
                      struct ws_derived *d);

void ws_report_text(FILE *out, const struct ws_run_report *r);
char *ws_report_json(const struct ws_run_report *r);
char *ws_report_csv(const struct ws_run_report *r);

/* A kernel's id (taken), name and launch shape into the JSON object o, as
 * run reports and trace info both write them. */
struct json_t;
struct ws_launch;
void ws_report_json_launch(struct json_t *o, struct json_t *id,
                           const char *name, const struct ws_launch *l);

#endif
