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
 * Definitions: where a measured metric and the simulated counter it is
 * paired with are not defined alike (Accel-Sim's L1D totals count stores
 * too; warpsim's L1 hit rate, as Nsight's, is of loads only), the metric
 * carries a note saying so (mismatch), and its MAPE is kept out of the
 * mean over the metrics.  A pairing that could be made exact by taking
 * another simulated counter would take it instead; for the one known
 * mismatch there is none (warpsim counts no L1 store hits).
 *
 * Clocks: the simulated SM clock (a kernel's cycles over its time) and,
 * for an Nsight export, the clock the measured kernels ran at (the mean
 * of the paired kernels' *cycles_elapsed.avg.per_second): ncu locks the
 * clocks to base by default (--clock-control base), so its times are at
 * the base clock, not boost, and the report says so.
 *
 * Leaves out: reading both sides and making the outputs
 * (run/ws_run_compare.h), the presentation (report/ws_compare_*.h).
 */
#ifndef WS_COMPARE_H
#define WS_COMPARE_H

#include <regex.h>
#include <stddef.h>

#include "ws_cmp_sort.h"
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
    size_t meas;          /* its index among the measured metrics */
    size_t n;             /* pairs with both values */
    size_t n_mape;        /* of those, with a measurement other than 0
                               and a difference a double holds */
    double mape;          /* percent; NAN when n_mape is 0 */
    double r;             /* NAN when not defined */
    const char *mismatch; /* where the two definitions differ; NULL
                               when they agree */
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
    double mean_mape;       /* the mean of the metrics' MAPE, those with a
                               mismatch left out; NAN when none has one */
    double median_mape;     /* the median of the same */
    size_t n_mean;          /* metrics in mean_mape */
    size_t n_flagged;       /* metrics with a mismatch */
    double sim_mhz;         /* the simulated SM clock; NAN unknown */
    double meas_mhz;        /* the measured kernels' (Nsight exports); NAN */
    const char *meas_clock; /* the metric meas_mhz is of, or NULL */
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

/* The metrics of pair p in the order s shows them (by |diff %|), into
 * order[0..c->nmetrics); -1 when out of memory. */
int ws_compare_order_pair(const struct ws_compare *c, size_t p,
                          enum ws_cmp_sort s, size_t *order);

/* The metrics in the order s shows their statistics (by MAPE). */
int ws_compare_order_metrics(const struct ws_compare *c, enum ws_cmp_sort s,
                             size_t *order);

static inline const struct ws_compare_cell *
ws_compare_cell(const struct ws_compare *c, size_t pair, size_t metric)
{
    return &c->cells[pair * c->nmetrics + metric];
}

#endif
