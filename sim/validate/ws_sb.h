/*
 * ws_sb: the model scoreboard's runs, as study 5 (ws_study_scoreboard.c)
 * reads them from the other studies' results tables: each run's simulated
 * cycles, the study it belongs to, the simulation's own bottleneck (from
 * its stall shares and DRAM utilisation, never from a model's label), the
 * hardware's time where validate/measured/ has the same case, and per
 * model its prediction, whether the run lies in the model's domain, its
 * terms and elasticities.  Models are found by their columns (NAME_cycles
 * with NAME_domain), so an external model's are read like a built-in's.
 *
 * Leaves out: the report (ws_study_scoreboard.c) and the metrics
 * (ws_sb_stats.c).
 */
#ifndef WS_SB_H
#define WS_SB_H

#include <stddef.h>

#include "stats/ws_terms.h"
#include "util/ws_csv.h"
#include "util/ws_err.h"

#define WS_SB_MAX_MODELS 16

/* DRAM at this share of its peak or more names a run DRAM-bandwidth
 * bound, whatever its warps stall on. */
#define WS_SB_DRAM_BOUND_PCT 60.0

/* One model's view of a run. */
struct ws_sb_pred {
    double cycles;     /* NaN where the model does not apply */
    int in_domain;     /* 1 in, 0 out */
    const char *terms; /* "name=value ..." cells, or "" */
    const char *elast;
};

struct ws_sb_run {
    const char *study;      /* the folder of its table: saxpy, apsp, ... */
    const char *sweep;      /* the table's file stem */
    char what[160];         /* sweep and parameters, for the report */
    const char *bottleneck; /* the simulation's */
    double sim;             /* simulated cycles */
    double sim_us;
    double hw_us;               /* measured, NaN when no case matches */
    double term[WS_TERM_COUNT]; /* the simulation's measured model terms
                                   (ws_terms.h), from the row's counters */
    const struct ws_csv *t;
    size_t row;
    struct ws_sb_pred pred[WS_SB_MAX_MODELS];
};

struct ws_sb_model {
    char name[48];
    int bound; /* a lower bound (its domain cell "bound: ") */
};

struct ws_sb {
    struct ws_sb_model model[WS_SB_MAX_MODELS];
    size_t nmodels;
    struct ws_sb_run *run;
    size_t nruns;
    /* the one-at-a-time sensitivity tables (est_*.csv) */
    const struct ws_csv *est[8];
    size_t nest;
    /* each table's path, cut into its study and sweep names */
    char names[48][256];
    size_t nnames;
};

/* The runs of tables t[0..n) (failed rows left out); hardware times from
 * measured (validate/measured/h100/timing.csv, or NULL) for tables named
 * hw_KERNEL.csv.  Unplaced errors. */
int ws_sb_collect(struct ws_sb *sb, const struct ws_csv *const *t, size_t n,
                  const struct ws_csv *measured, struct ws_err *err);
void ws_sb_free(struct ws_sb *sb);

/* The value of `name` in a "name=value name=value" cell, NaN if absent. */
double ws_sb_cell_var(const char *cell, const char *name);

/* The names the simulation's bottleneck classes go by, for the report. */
extern const char *const ws_sb_bottlenecks[];
extern const size_t ws_sb_nbottlenecks;

#endif
