/*
 * ws_study: the studies of `warpsim validate`, their one table
 * (ws_studies.c) and their reports, each computed from its sweeps' results
 * tables (CSVs a sweep wrote): markdown with tables and a paragraph of
 * findings a reader can check against the numbers, a per-point CSV where
 * the study has one, and a JSON summary of the qualitative findings, which
 * the tests assert.
 *
 * Adding a study: its file (ws_study_NAME.c, its analysis), its
 * declaration below, and one row in ws_studies.c.
 *
 * Leaves out: running the sweeps and writing the files (run/ws_study_run.c).
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

/* Study 7: the simulation against the H100's measured times, t the hw_*
 * sweeps' tables (validate/studies/hw_*.yaml), matched to
 * validate/measured/h100/timing.csv: per case and in summary. */
int ws_study_hardware(const struct ws_csv *const *t, size_t n,
                      struct ws_study_out *out, struct ws_err *err);

void ws_study_out_free(struct ws_study_out *out);

/* A study's analysis: the tables of its sweeps that ran, in the order the
 * study lists them, into its report.  Unplaced errors. */
typedef int ws_study_fn(const struct ws_csv *const *t, size_t n,
                        struct ws_study_out *out, struct ws_err *err);

#define WS_STUDY_MAX_SWEEPS 40

/* One row of the table of studies. */
struct ws_study_def {
    const char *name; /* `warpsim validate NAME` */
    const char *what; /* its line in validate --help */
    /* Its sweeps, in order: "S", validate/studies/S.yaml with its results
     * in DIR/NAME/S.csv, or "OWNER/S", a sweep another study owns, with
     * its results in DIR/OWNER/S.csv (a sweep resumes, so a study run
     * before leaves nothing to run).  --quick runs S.quick.yaml instead
     * and leaves out a sweep without one: the quick variants are the
     * files beside the full ones, not a second list kept here. */
    const char *sweeps[WS_STUDY_MAX_SWEEPS];
    ws_study_fn *analysis;
    const char *chart; /* the study's own chart (WS_STUDY_CHART_*),
                                   or NULL */
};

/* The studies, in the order validate runs them all. */
size_t ws_study_count(void);
const struct ws_study_def *ws_study_at(size_t i);
/* The study called name, or NULL. */
const struct ws_study_def *ws_study_find(const char *name);

#endif
