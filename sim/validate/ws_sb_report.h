/*
 * ws_sb_report: the scoreboard's sections beyond the models' error tables
 * (ws_study_scoreboard.c): the hardware beside the simulation, the model
 * terms against the simulation's measurement of them, each model's
 * elasticity to its inputs, and the simulated cycles' elasticity to the
 * configs' estimated ([EST]) values.
 *
 * Leaves out: the metrics (ws_sb_stats.c) and the runs (ws_sb_runs.c).
 */
#ifndef WS_SB_REPORT_H
#define WS_SB_REPORT_H

#include <stdio.h>

#include <jansson.h>

#include "ws_sb.h"
#include "ws_sb_stats.h"

/* The hardware measurements the hw_* sweeps are matched against. */
#define WS_SB_MEASURED "validate/measured/h100/timing.csv"

/* Prints a fraction as a percentage ("-" for NaN). */
void ws_sb_pct(FILE *out, double v);
/* The same with its sign and `decimals` digits after the point. */
void ws_sb_signed(FILE *out, double v, int decimals);

/* The (prediction, simulation) pairs of model m over the runs keep
 * selects, and their metrics (ws_study_scoreboard.c). */
int ws_sb_pairs(const struct ws_sb *sb, size_t m,
                int (*keep)(const struct ws_sb_run *, size_t, const void *),
                const void *arg, double **model, double **sim, size_t *n);
int ws_sb_score(const struct ws_sb *sb, size_t m,
                int (*keep)(const struct ws_sb_run *, size_t, const void *),
                const void *arg, struct ws_sb_metrics *out);

/* Each returns -1 when out of memory. */
int ws_sb_hardware(FILE *out, const struct ws_sb *sb, json_t *summary);
int ws_sb_terms(FILE *out, const struct ws_sb *sb);
int ws_sb_elasticities(FILE *out, const struct ws_sb *sb);
int ws_sb_est(FILE *out, const struct ws_sb *sb);

#endif
