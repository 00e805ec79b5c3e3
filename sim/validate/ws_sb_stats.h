/*
 * ws_sb_stats: the error metrics the model scoreboard reports for a set of
 * (prediction, reference) pairs, chosen so that one run far off cannot
 * decide the verdict: the median absolute percentage error, the geometric
 * mean of |ln(model/reference)| (as a percentage, exp(mean) - 1), the
 * signed bias (the geometric mean of model/reference, less 1), Spearman's
 * rank correlation, and percentile bootstrap intervals of the first two;
 * the mean absolute percentage error is kept beside them, not alone.
 *
 * The bootstrap draws from GSL's mt19937 with a fixed seed: the same pairs
 * give the same intervals.
 *
 * Leaves out: weighting (every run counts once), intervals of the bias and
 * the correlation.
 */
#ifndef WS_SB_STATS_H
#define WS_SB_STATS_H

#include <stddef.h>

struct ws_sb_metrics {
    size_t n;
    double mape;               /* mean |m - r| / r */
    double mdape;              /* median of the same */
    double mdape_lo, mdape_hi; /* its 95 % bootstrap interval */
    double gme;                /* exp(mean |ln(m/r)|) - 1 */
    double gme_lo, gme_hi;
    double bias;     /* exp(mean ln(m/r)) - 1: > 0, over-predicts */
    double spearman; /* NaN below 3 pairs or without spread */
};

/* Metrics of the n pairs (model[i], ref[i]), all > 0; NaN fields when
 * n is 0.  -1 when out of memory. */
int ws_sb_metrics(const double *model, const double *ref, size_t n,
                  struct ws_sb_metrics *out);

/* The median of v (n > 0), which is reordered. */
double ws_sb_median(double *v, size_t n);

/* The bootstrap's resamples and seed, as the report states them. */
#define WS_SB_BOOTSTRAP 1000
#define WS_SB_SEED 1

#endif
