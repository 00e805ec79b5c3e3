/*
 * ws_study: the reports of `warpsim validate`'s studies, each computed from
 * its sweep's results table (a CSV `warpsim sweep` wrote): markdown with
 * tables and a paragraph of findings a reader can check against the
 * numbers, a per-point CSV where the study has one, and a JSON summary of
 * the qualitative findings, which the tests assert.
 *
 * Leaves out: running the sweeps and writing the files (cli/cmd_validate.c).
 */
#ifndef WS_STUDY_H
#define WS_STUDY_H

#include <jansson.h>

#include "util/ws_csv.h"
#include "util/ws_err.h"

/* The studies' own charts, named here so that validate can check where
 * they go before the study's sweeps run. */
#define WS_STUDY_CHART_APSP "time_vs_x.svg"
#define WS_STUDY_CHART_MATMUL "vs_baseline.svg"
#define WS_STUDY_CHART_QUADRANT "quadrant.svg"

struct ws_study_out {
    char *report;           /* markdown, malloc'd */
    char *points;           /* per-point CSV, malloc'd, or NULL */
    char *chart;            /* an SVG the study draws itself, or NULL */
    const char *chart_name; /* its file name: one of WS_STUDY_CHART_* */
    json_t *summary;        /* the findings, owned */
};

/* Study 1 (seed 000): saxpy on TITAN X, simulated cycles against MWP/CWP
 * and its two L2 forms per stride and warp count, for the paper's kernel
 * (t[0]) and the bundled one that strides y too (t[1]).  Needs the columns
 * status, param.stride, param.threads, cycles, l2_hit_pct, the models'
 * cycles and the loaded-latency counters.  Unplaced errors. */
int ws_study_saxpy(const struct ws_csv *const *t, size_t n,
                   struct ws_study_out *out, struct ws_err *err);

/* Study 4: chase latency per level and STREAM copy/triad per config.
 * t: the chase, copy and triad sweeps' tables (validate/studies/
 * levels_*.yaml); the published figures come from
 * validate/studies/levels_published.csv, the configured latencies and
 * peaks from each config. */
int ws_study_levels(const struct ws_csv *const *t, size_t n,
                    struct ws_study_out *out, struct ws_err *err);

/* Study 2 (seed 004): APSP on GTX 480, t the B_r, T, B_a and anomaly
 * sweeps' tables (validate/studies/apsp_*.yaml): the zigzag of eq 3, the
 * fit of eq 15 with GSL over the T and B_a sweeps (points.csv and its
 * chart), section V's anomaly. */
int ws_study_apsp(const struct ws_csv *const *t, size_t n,
                  struct ws_study_out *out, struct ws_err *err);

/* Study 3 (seed 001): the seven matmul variants on V100, t in the order
 * baseline, tiling, coalescing, nobankconflict, computeopt, unroll,
 * prefetch: targets, resource significance per variant for ts and score,
 * usage against the baseline, the seed's Table III beside. */
int ws_study_matmul(const struct ws_csv *const *t, size_t n,
                    struct ws_study_out *out, struct ws_err *err);

/* Study 5: every model's MAPE and correlation against the simulation, per
 * regime it names, over the tables of the other studies' sweeps. */
int ws_study_scoreboard(const struct ws_csv *const *t, size_t n,
                        struct ws_study_out *out, struct ws_err *err);

/* Study 6: the quadrant-split view of one kernel across GPUs, t[0] a
 * sweep over gpu: (validate/studies/quadrant.yaml): a table, a chart. */
int ws_study_quadrant(const struct ws_csv *const *t, size_t n,
                      struct ws_study_out *out, struct ws_err *err);

void ws_study_out_free(struct ws_study_out *out);

#endif
