/*
 * ws_rsm: Ensemble OMP and the Resource Significance Measure (see
 * ws_rsm.h).
 */
#include "ws_rsm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

/* ---- OMP ------------------------------------------------------------------ */

/* The least share of the target's variance a pick must explain. */
#define WS_OMP_GAIN 1e-3

static double ws_dot_col(const double *dc, size_t nr, size_t nfeat, size_t j,
                         const double *v)
{
    double s = 0;

    for (size_t r = 0; r < nr; r++)
        s += dc[r * nfeat + j] * v[r];
    return s;
}

/* The tau counters not yet chosen most correlated with the residual:
 * their indices in cand, |correlations| in w; returns how many (0 when
 * nothing correlates). */
static size_t ws_omp_candidates(const double *dc, const double *norm,
                                const double *res, size_t nr, size_t nfeat,
                                const unsigned char *chosen, unsigned tau,
                                size_t *cand, double *w)
{
    size_t n = 0;

    for (size_t j = 0; j < nfeat; j++) {
        double c;
        size_t at;
        if (chosen[j] || norm[j] == 0)
            continue;
        c = fabs(ws_dot_col(dc, nr, nfeat, j, res)) / norm[j];
        if (c <= 1e-12)
            continue;
        if (n == tau && c <= w[n - 1])
            continue;
        /* Insertion into the sorted shortlist, dropping its last. */
        at = n < tau ? n++ : n - 1;
        while (at > 0 && w[at - 1] < c) {
            w[at] = w[at - 1];
            cand[at] = cand[at - 1];
            at--;
        }
        w[at] = c;
        cand[at] = j;
    }
    return n;
}

static size_t ws_omp_draw(const double *w, size_t n, gsl_rng *rng)
{
    double total = 0, u;

    if (!rng)
        return 0;
    for (size_t i = 0; i < n; i++)
        total += w[i];
    u = gsl_rng_uniform(rng) * total;
    for (size_t i = 0; i < n; i++) {
        if (u < w[i])
            return i;
        u -= w[i];
    }
    return n - 1;
}

/* Least squares of tc on the chosen columns; the residual into res. */
static int ws_omp_fit(const double *dc, const double *tc, size_t nr,
                      size_t nfeat, const size_t *sel, size_t k, double *coef,
                      double *res)
{
    gsl_matrix *x = gsl_matrix_alloc(nr, k), *cov = gsl_matrix_alloc(k, k);
    gsl_vector *c = gsl_vector_alloc(k);
    gsl_vector_const_view y = gsl_vector_const_view_array(tc, nr);
    gsl_multifit_linear_workspace *ws = gsl_multifit_linear_alloc(nr, k);
    double chisq;
    int rc = -1;

    if (x && cov && c && ws) {
        for (size_t r = 0; r < nr; r++)
            for (size_t i = 0; i < k; i++)
                gsl_matrix_set(x, r, i, dc[r * nfeat + sel[i]]);
        if (gsl_multifit_linear(x, &y.vector, c, cov, &chisq, ws) == 0) {
            for (size_t i = 0; i < k; i++)
                coef[i] = gsl_vector_get(c, i);
            for (size_t r = 0; r < nr; r++) {
                double p = 0;
                for (size_t i = 0; i < k; i++)
                    p += dc[r * nfeat + sel[i]] * coef[i];
                res[r] = tc[r] - p;
            }
            rc = 0;
        }
    }
    gsl_multifit_linear_free(ws);
    gsl_vector_free(c);
    gsl_matrix_free(cov);
    gsl_matrix_free(x);
    return rc;
}

static double ws_sumsq(const double *v, size_t n)
{
    double s = 0;

    for (size_t i = 0; i < n; i++)
        s += v[i] * v[i];
    return s;
}

int ws_omp(const double *dc, const double *tc, size_t nr, size_t nfeat,
           size_t kmax, unsigned tau, void *rng, size_t *sel, double *coef,
           size_t *nsel)
{
    double *norm = calloc(nfeat ? nfeat : 1, sizeof *norm);
    double *res = malloc((nr ? nr : 1) * sizeof *res);
    double *w = malloc((tau ? tau : 1) * sizeof *w);
    size_t *cand = malloc((tau ? tau : 1) * sizeof *cand);
    unsigned char *chosen = calloc(nfeat ? nfeat : 1, 1);
    double *prev_coef = malloc((nfeat ? nfeat : 1) * sizeof *prev_coef);
    double target = ws_sumsq(tc, nr);
    int rc = -1;

    *nsel = 0;
    if (!norm || !res || !w || !cand || !chosen || !prev_coef || tau == 0)
        goto out;
    for (size_t j = 0; j < nfeat; j++) {
        double s = 0;
        for (size_t r = 0; r < nr; r++)
            s += dc[r * nfeat + j] * dc[r * nfeat + j];
        norm[j] = sqrt(s);
    }
    memcpy(res, tc, nr * sizeof *res);
    rc = 0;
    /* A least-squares fit needs more runs than counters. */
    while (*nsel < kmax && *nsel + 1 < nr
           && ws_sumsq(res, nr) > 1e-9 * target) {
        size_t n = ws_omp_candidates(dc, norm, res, nr, nfeat, chosen, tau,
                                     cand, w);
        double before = ws_sumsq(res, nr);
        size_t pick;
        if (n == 0)
            break;
        pick = cand[ws_omp_draw(w, n, rng)];
        chosen[pick] = 1;
        sel[(*nsel)++] = pick;
        memcpy(prev_coef, coef, (*nsel - 1) * sizeof *coef);
        if (ws_omp_fit(dc, tc, nr, nfeat, sel, *nsel, coef, res) < 0) {
            rc = -1;
            break;
        }
        /* Enough fidelity: a pick that explains less than WS_OMP_GAIN of
         * the target is noise, and the fit stops without it. */
        if (before - ws_sumsq(res, nr) < WS_OMP_GAIN * target && *nsel > 1) {
            (*nsel)--;
            memcpy(coef, prev_coef, *nsel * sizeof *coef);
            break;
        }
    }
out:
    free(prev_coef);
    free(norm);
    free(res);
    free(w);
    free(cand);
    free(chosen);
    return rc;
}

/* ---- the ensemble ---------------------------------------------------------- */

struct ws_rsm_member {
    size_t *rows, *all, *sel;
    double *dc, *tc, *coef, *prod;
};

static void ws_member_free(struct ws_rsm_member *m)
{
    free(m->rows);
    free(m->all);
    free(m->sel);
    free(m->dc);
    free(m->tc);
    free(m->coef);
    free(m->prod);
}

static int ws_member_alloc(struct ws_rsm_member *m, const struct ws_rsm_in *in,
                           size_t nr)
{
    memset(m, 0, sizeof *m);
    m->rows = malloc(nr * sizeof *m->rows);
    m->all = malloc(in->nrows * sizeof *m->all);
    m->sel = malloc((in->nfeat + 1) * sizeof *m->sel);
    m->dc = malloc(nr * (in->nfeat + 1) * sizeof *m->dc);
    m->tc = malloc(nr * sizeof *m->tc);
    m->coef = malloc((in->nfeat + 1) * sizeof *m->coef);
    m->prod = malloc((in->ngroups + 1) * sizeof *m->prod);
    if (m->rows && m->all && m->sel && m->dc && m->tc && m->coef && m->prod) {
        for (size_t r = 0; r < in->nrows; r++)
            m->all[r] = r;
        return 0;
    }
    ws_member_free(m);
    return -1;
}

/* The member's runs, centred: tc and every column of dc. */
static void ws_member_centre(struct ws_rsm_member *m,
                             const struct ws_rsm_in *in, size_t nr)
{
    double mt = 0;

    for (size_t r = 0; r < nr; r++)
        mt += in->t[m->rows[r]];
    mt /= (double)nr;
    for (size_t r = 0; r < nr; r++)
        m->tc[r] = in->t[m->rows[r]] - mt;
    for (size_t j = 0; j < in->nfeat; j++) {
        double mean = 0;
        for (size_t r = 0; r < nr; r++)
            mean += in->d[m->rows[r] * in->nfeat + j];
        mean /= (double)nr;
        for (size_t r = 0; r < nr; r++)
            m->dc[r * in->nfeat + j] = in->d[m->rows[r] * in->nfeat + j] - mean;
    }
}

/* Eqs 2-4 for one member's sparse code, added into the sums of out. */
static void ws_member_score(const struct ws_rsm_member *m,
                            const struct ws_rsm_in *in, size_t nr, size_t k,
                            const struct ws_rsm_opts *o, struct ws_rsm_out *out)
{
    double target = ws_sumsq(m->tc, nr);

    for (size_t g = 0; g < in->ngroups; g++)
        m->prod[g] = 1.0;
    for (size_t i = 0; i < k; i++) {
        size_t j = m->sel[i];
        double e = 0, alpha;
        for (size_t r = 0; r < nr; r++) {
            double d = m->tc[r] - m->dc[r * in->nfeat + j] * m->coef[i];
            e += d * d;
        }
        alpha = exp(-o->gamma * e / target);
        out->belief[j] += alpha;
        out->picked[j] += 1;
        m->prod[in->group[j]] *= 1.0 - alpha;
    }
    for (size_t g = 0; g < in->ngroups; g++)
        out->rsm[g] += 1.0 - m->prod[g];
}

static int ws_rsm_alloc_out(const struct ws_rsm_in *in, struct ws_rsm_out *out)
{
    out->rsm = calloc(in->ngroups + 1, sizeof *out->rsm);
    out->belief = calloc(in->nfeat + 1, sizeof *out->belief);
    out->picked = calloc(in->nfeat + 1, sizeof *out->picked);
    if (out->rsm && out->belief && out->picked)
        return 0;
    ws_rsm_out_free(out);
    return -1;
}

/* The runs each member draws, as ws_rsm_run draws them. */
static size_t ws_rsm_drawn(size_t nrows, const struct ws_rsm_opts *o)
{
    size_t nr = (size_t)llround(o->subsample * (double)nrows);

    if (nr < 3)
        nr = nrows < 3 ? nrows : 3;
    return nr;
}

double ws_rsm_work(size_t nrows, size_t nfeat, const struct ws_rsm_opts *o)
{
    double nr = (double)ws_rsm_drawn(nrows, o), f = (double)nfeat;
    double picks = ceil(o->kappa * f);

    if (picks > nr - 1)
        picks = nr - 1;
    if (picks > 1 / WS_OMP_GAIN)
        picks = 1 / WS_OMP_GAIN;
    if (picks < 1)
        picks = 1;
    return (double)o->members * nr * (2 * f + picks * (f + picks * picks));
}

int ws_rsm_run(const struct ws_rsm_in *in, const struct ws_rsm_opts *o,
               struct ws_rsm_out *out)
{
    size_t nr = ws_rsm_drawn(in->nrows, o);
    size_t kmax = (size_t)ceil(o->kappa * (double)in->nfeat);
    struct ws_rsm_member m;
    gsl_rng *rng;
    int rc = 0;

    /* GSL's default handler aborts; its errors come back as return codes
     * here instead. */
    gsl_set_error_handler_off();
    memset(out, 0, sizeof *out);
    if (in->nrows < 3 || in->nfeat == 0 || o->members == 0)
        return -1;
    if (kmax < 1)
        kmax = 1;
    if (ws_rsm_alloc_out(in, out) < 0)
        return -1;
    if (ws_member_alloc(&m, in, nr) < 0) {
        ws_rsm_out_free(out);
        return -1;
    }
    rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!rng) {
        ws_member_free(&m);
        ws_rsm_out_free(out);
        return -1;
    }
    gsl_rng_set(rng, o->seed);
    for (unsigned w = 0; w < o->members && rc == 0; w++) {
        size_t k = 0;
        if (nr == in->nrows)
            memcpy(m.rows, m.all, nr * sizeof *m.rows);
        else
            gsl_ran_choose(rng, m.rows, nr, m.all, in->nrows, sizeof *m.rows);
        ws_member_centre(&m, in, nr);
        if (ws_sumsq(m.tc, nr) == 0)
            continue; /* a constant target: nothing explains it */
        rc = ws_omp(m.dc, m.tc, nr, in->nfeat, kmax, o->tau, rng, m.sel, m.coef,
                    &k);
        if (rc == 0)
            ws_member_score(&m, in, nr, k, o, out);
    }
    for (size_t g = 0; g < in->ngroups; g++)
        out->rsm[g] /= o->members;
    for (size_t j = 0; j < in->nfeat; j++) {
        out->belief[j] /= o->members;
        out->picked[j] /= o->members;
    }
    gsl_rng_free(rng);
    ws_member_free(&m);
    if (rc < 0)
        ws_rsm_out_free(out);
    return rc;
}

void ws_rsm_out_free(struct ws_rsm_out *out)
{
    free(out->rsm);
    free(out->belief);
    free(out->picked);
    memset(out, 0, sizeof *out);
}
