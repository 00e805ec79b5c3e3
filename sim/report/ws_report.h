/*
 * ws_report: what "warpsim run" prints: a readable summary per kernel and in
 * total, a JSON document with every counter (Nsight names, units, resource
 * groups) and the derived metrics, and a one-row-per-kernel CSV table.
 * Derived metrics are computed here from counters, in one place, so the
 * three forms always agree.
 *
 * Every form says what produced it (struct ws_provenance): the warpsim
 * version and source commit, the config as named and its overrides, the
 * workload parameters, and each input file's size and content hash, so
 * that two results files can be told apart and one can be reproduced.
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

/* One file the input read. */
struct ws_prov_file {
    const char *path;
    uint64_t bytes;
    char hash[33]; /* XXH3-128 of the content, hex (util/ws_hash.h) */
};

/* What produced a report, as the caller knows it (cli/run fills it). */
struct ws_provenance {
    const char *gpu_arg;     /* --gpu as given; NULL: ws_cfg_default_name() */
    const char *const *sets; /* --set KEY=VALUE, in order */
    int nsets;
    const char *const *params; /* --param NAME=VALUE, in order */
    int nparams;
    const char *listing;  /* --listing, or NULL */
    char config_hash[33]; /* the effective config's text */
    const struct ws_prov_file *files;
    size_t nfiles;
};

struct ws_run_report {
    const char *input;
    const struct ws_gpu *gpu;
    /* External models to run beside the built-in ones (the caller's; NULL
     * or empty: none). */
    const struct ws_ext_models *ext;
    const struct ws_provenance *prov; /* NULL: not known (a library call) */
    const char *const *warnings;      /* what the run substituted or lost */
    size_t nwarnings;
    struct ws_kernel_stats *kernels;
    size_t nkernels;
    uint64_t total_cycles; /* first kernel start to last kernel end */
    int mangled;           /* text names kernels as traced, not demangled */
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
