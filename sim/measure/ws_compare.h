/*
 * ws_compare: simulated kernels (ws_simrun.h) lined up against measured
 * ones (ws_measured.h), metric by metric, with the error statistics a
 * validation reports.
 *
 * Pairing: by base name (ws_kname.h: "_Z4apspPKfPfii" and "apsp(const
 * float *, float *, int, int)" are both "apsp") and launch order: the
 * k-th launch of a name in the simulation goes with the k-th launch of
 * that name in the measurements.  A kernel with no partner is listed,
 * not an error.  A regular expression (POSIX extended), when given, keeps
 * the pairs where it matches either side's name, as written or base.
 *
 * Metrics: those of the simulated kernels whose name the measurements
 * have too (both sides use Nsight Compute's names; the Accel-Sim reader
 * translates).  Per pair and metric: the two values and the difference
 * (simulated - measured) / |measured| in percent; per metric, over the
 * pairs that have both values: MAPE (over those whose measurement is not
 * 0: a zero makes the relative error undefined, as does a difference past
 * a double's range) and Pearson's r
 * (gsl_stats_correlation; only with 3 pairs or more, and undefined when
 * either side is constant).  A metric on one side only is listed:
 * simulated counters the measurements lack (warpsim's own, "ws__*",
 * counted apart), and measured metrics warpsim does not simulate, less
 * the device, launch and profiler attributes and the other roll-ups
 * (.avg, .min, ...) of a counter compared.
 *
 * Units: a compared metric's dimension is its simulated counter's unit's
 * (byte, cycle, inst, %, us, ...), else what its Nsight name says; a
 * measured unit of another dimension is refused at its place in the
 * file, as scaling it would compare bytes with milliseconds.  A metric
 * the measurements leave out for a reason of their format (no L1D in an
 * Accel-Sim run, a kernel without an access) comes with the reader's
 * note, for the report to say why it is missing.
 *
 * Leaves out: reading both sides and making the outputs
 * (run/ws_run_compare.h), the presentation (report/ws_compare_*.h).
 */
#ifndef WS_COMPARE_H
#define WS_COMPARE_H

#include <regex.h>
#include <stddef.h>

#include "ws_measured.h"
#include "ws_simrun.h"

struct ws_compare_pair {
    size_t sim, meas; /* kernel indices on each side */
    size_t launch;    /* the k-th launch of its base name, from 1 */
};

/* A kernel on one side only, the k-th launch of its base name. */
struct ws_compare_lone {
    size_t index, launch;
};

struct ws_compare_metric {
    const char *name; /* the simulated side's strings */
    const char *unit;
    size_t meas;   /* its index among the measured metrics */
    size_t n;      /* pairs with both values */
    size_t n_mape; /* of those, with a measurement other than 0
                               and a difference a double holds */
    double mape;   /* percent; NAN when n_mape is 0 */
    double r;      /* NAN when not defined */
};

struct ws_compare_cell {
    double sim, meas; /* NAN when the side lacks it */
    double diff_pct;  /* NAN when either lacks it, when measured is 0
                               and simulated is not, or when it passes a
                               double */
};

/* A measured metric the file leaves out, for one pair or for all (pair
 * WS_MEAS_ALL), and why (ws_measured.h's notes of compared metrics and
 * paired kernels). */
struct ws_compare_note {
    const char *metric;
    size_t pair;
    long line; /* where the reason shows; 0: an absence */
    const char *why;
};

struct ws_compare {
    const struct ws_simrun *sim;
    const struct ws_measured *meas;
    size_t npairs, nmetrics;
    struct ws_compare_pair *pairs; /* in simulated launch order */
    struct ws_compare_metric *metrics;
    struct ws_compare_cell *cells; /* npairs x nmetrics */
    size_t nsim_only, nmeas_only;
    struct ws_compare_lone *sim_only, *meas_only;
    size_t nsim_metrics_only, nmeas_metrics_only;
    const char **sim_metrics_only; /* not ws__* */
    const char **meas_metrics_only;
    size_t nown;   /* ws__* simulated only */
    size_t nattrs; /* measured columns left out */
    size_t nnotes;
    struct ws_compare_note *notes; /* in the file's order */
};

/* Pairs, compares and sums up; re may be NULL (every kernel).  Errors:
 * no pair or no metric in common (unplaced: the caller puts it at the
 * command line), a measured cell that is not a number or is negative, a
 * clock of 0, or a column whose unit is unknown or of another dimension
 * than the metric (ws_measured.h), where a value is needed (at its place
 * in the file). */
int ws_compare_run(struct ws_compare *c, const struct ws_simrun *s,
                   const struct ws_measured *m, const regex_t *re,
                   struct ws_err *err);

void ws_compare_free(struct ws_compare *c);

static inline const struct ws_compare_cell *
ws_compare_cell(const struct ws_compare *c, size_t pair, size_t metric)
{
    return &c->cells[pair * c->nmetrics + metric];
}

#endif
