/*
 * ws_sb_stats: the scoreboard's error metrics (see ws_sb_stats.h).
 */
#include "ws_sb_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

double ws_sb_median(double *v, size_t n)
{
    return gsl_stats_median(v, 1, n);
}

/* |model - ref| / ref and ln(model / ref) of each pair. */
static void ws_sb_errors(const double *model, const double *ref, size_t n,
                         double *ape, double *lr)
{
    for (size_t i = 0; i < n; i++) {
        ape[i] = fabs(model[i] - ref[i]) / ref[i];
        lr[i] = log(model[i] / ref[i]);
    }
}

/* The median APE and the mean |ln ratio| of a sample (indices idx). */
static void ws_sb_point(const double *ape, const double *lr, const size_t *idx,
                        size_t n, double *scratch, double *mdape,
                        double *mabslr)
{
    double s = 0;

    for (size_t i = 0; i < n; i++) {
        scratch[i] = ape[idx[i]];
        s += fabs(lr[idx[i]]);
    }
    *mdape = ws_sb_median(scratch, n);
    *mabslr = s / (double)n;
}

/* The 2.5th and 97.5th percentiles of the resampled statistic v. */
static void ws_sb_interval(double *v, double *lo, double *hi)
{
    gsl_sort(v, 1, WS_SB_BOOTSTRAP);
    *lo = gsl_stats_quantile_from_sorted_data(v, 1, WS_SB_BOOTSTRAP, 0.025);
    *hi = gsl_stats_quantile_from_sorted_data(v, 1, WS_SB_BOOTSTRAP, 0.975);
}

/* Percentile bootstrap: WS_SB_BOOTSTRAP resamples of the n pairs with
 * replacement; the 2.5th and 97.5th percentiles of each statistic. */
static int ws_sb_bootstrap(const double *ape, const double *lr, size_t n,
                           struct ws_sb_metrics *out)
{
    size_t *idx = malloc(n * sizeof *idx);
    double *scratch = malloc(n * sizeof *scratch);
    double *md = malloc(WS_SB_BOOTSTRAP * sizeof *md);
    double *gm = malloc(WS_SB_BOOTSTRAP * sizeof *gm);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    int rc = -1;

    if (idx && scratch && md && gm && rng) {
        gsl_rng_set(rng, WS_SB_SEED);
        for (size_t b = 0; b < WS_SB_BOOTSTRAP; b++) {
            double m;
            for (size_t i = 0; i < n; i++)
                idx[i] = (size_t)gsl_rng_uniform_int(rng, n);
            ws_sb_point(ape, lr, idx, n, scratch, &md[b], &m);
            gm[b] = exp(m) - 1;
        }
        ws_sb_interval(md, &out->mdape_lo, &out->mdape_hi);
        ws_sb_interval(gm, &out->gme_lo, &out->gme_hi);
        rc = 0;
    }
    gsl_rng_free(rng);
    free(idx);
    free(scratch);
    free(md);
    free(gm);
    return rc;
}

static double ws_sb_spearman(const double *model, const double *ref, size_t n)
{
    double *work;
    double rho;

    if (n < 3 || gsl_stats_sd(model, 1, n) == 0 || gsl_stats_sd(ref, 1, n) == 0)
        return NAN;
    work = malloc(2 * n * sizeof *work);
    if (!work)
        return NAN;
    rho = gsl_stats_spearman(model, 1, ref, 1, n, work);
    free(work);
    return rho;
}

int ws_sb_metrics(const double *model, const double *ref, size_t n,
                  struct ws_sb_metrics *out)
{
    double *ape, *lr, *scratch, s = 0, sabs = 0;
    size_t *idx;
    int rc = -1;

    memset(out, 0, sizeof *out);
    out->n = n;
    if (n == 0) {
        out->mape = out->mdape = out->gme = out->bias = NAN;
        out->mdape_lo = out->mdape_hi = out->gme_lo = out->gme_hi = NAN;
        out->spearman = NAN;
        return 0;
    }
    ape = malloc(n * sizeof *ape);
    lr = malloc(n * sizeof *lr);
    scratch = malloc(n * sizeof *scratch);
    idx = malloc(n * sizeof *idx);
    if (ape && lr && scratch && idx) {
        ws_sb_errors(model, ref, n, ape, lr);
        for (size_t i = 0; i < n; i++) {
            s += lr[i];
            out->mape += ape[i] / (double)n;
            idx[i] = i;
        }
        ws_sb_point(ape, lr, idx, n, scratch, &out->mdape, &sabs);
        out->gme = exp(sabs) - 1;
        out->bias = exp(s / (double)n) - 1;
        out->spearman = ws_sb_spearman(model, ref, n);
        rc = ws_sb_bootstrap(ape, lr, n, out);
    }
    free(ape);
    free(lr);
    free(scratch);
    free(idx);
    return rc;
}
