/*
 * ws_rsm: which hardware resources explain a target metric: Islam et al.'s
 * Resource Significance Measure (seed 001, eqs 1-5) by Ensemble Orthogonal
 * Matching Pursuit.
 *
 * A dictionary D (rows: runs, columns: counters, each normalised to its
 * largest magnitude) and a target t (one value per run) go in.  One
 * ensemble member draws a random subsample of the runs, centres t and D's
 * columns over it (a fit with an intercept), and runs OMP: at each step
 * the tau counters most correlated with the residual are candidates, one
 * is drawn with probability proportional to its |correlation| (tau = 1 is
 * plain, greedy OMP), the target is refitted by least squares on every
 * counter chosen so far (eq 1's sparse code a) and the residual updated;
 * it stops after ceil(kappa x counters) picks, when the residual is below
 * 1e-9 of the target, or when a pick explains less than 0.1 % of the
 * target's variance (that pick, noise, is dropped: "until the desired
 * sparsity is met or the model achieves sufficient fidelity").  Each chosen counter's error is
 * e_i = ||t - d_i a_i||^2 / ||t||^2 (eq 2, relative so that gamma does not
 * depend on the target's scale), its belief alpha_i = exp(-gamma e_i)
 * (eq 3); counters not chosen believe 0.  A resource group's RSM in the
 * member is 1 - prod(1 - alpha_i) over its counters (eq 4), and its RSM is
 * the mean over the W members (eq 5), so it lies in [0, 1].
 *
 * Least squares (gsl_multifit_linear) and correlations come from GSL; the
 * draws from a gsl_rng (mt19937) seeded by the caller, so a run is
 * repeatable and its seed is reported.
 *
 * Leaves out: the paper's comparative analysis (D1 - D2, Figure 3b), which
 * a caller forms by differencing dictionaries; choosing kappa by fidelity.
 */
#ifndef WS_RSM_H
#define WS_RSM_H

#include <stddef.h>

struct ws_rsm_opts {
    unsigned tau;     /* candidates per step (the seed: 5) */
    double kappa;     /* share of counters picked at most (0.5) */
    unsigned members; /* ensemble size W */
    double subsample; /* share of runs each member draws (0..1] */
    double gamma;     /* belief scale, eq 3; 2 ln 2: a counter whose
                             * term alone leaves half the target's variance
                             * believes 0.5 */
    unsigned long seed;
};

struct ws_rsm_in {
    size_t nrows, nfeat, ngroups;
    const double *d;     /* nrows x nfeat, row-major */
    const double *t;     /* nrows */
    const size_t *group; /* nfeat: each counter's group, < ngroups */
};

struct ws_rsm_out {
    double *rsm;    /* ngroups: eq 5 */
    double *belief; /* nfeat: mean alpha over the members */
    double *picked; /* nfeat: share of members that chose it */
};

/* One OMP pass over the runs rows[0..nr) of a dictionary already centred
 * on them: dc (nr x nfeat, row-major), tc (nr).  Chooses at most kmax
 * counters (their indices in sel, their least-squares coefficients in
 * coef; *nsel how many), drawing among the tau best with rng, or greedily
 * when rng is NULL.  Returns 0, or -1 on allocation failure. */
int ws_omp(const double *dc, const double *tc, size_t nr, size_t nfeat,
           size_t kmax, unsigned tau, void *rng, size_t *sel, double *coef,
           size_t *nsel);

/* What ws_rsm_run computes at most on nrows runs of nfeat counters, in
 * multiply-adds: per member, centring and norms (2 x runs x counters),
 * then S picks, each a scan of every counter over the runs and a least
 * squares fit of up to S columns (runs x S^2), S being the most picks
 * (kappa's share of the counters, fewer than the runs drawn, and at most
 * 1000, since each must explain 0.1 % of the target). */
double ws_rsm_work(size_t nrows, size_t nfeat, const struct ws_rsm_opts *o);

/* The most work (ws_rsm_work, summed over a table's kernels) an analysis
 * may ask for: the fits run at some 2 x 10^9 multiply-adds a second, so
 * this is under a minute.  A default analysis (1000 members, 80 counters)
 * of a sweep of up to about 1500 points per kernel stays below; a table
 * of many thousands of rows, or --members near its 10^6, would otherwise
 * run for hours. */
#define WS_RSM_MAX_WORK 1e11

/* The ensemble: fills out (arrays allocated here; ws_rsm_out_free).
 * Returns 0, or -1 on allocation failure or when fewer than 3 runs or no
 * counter that varies leave nothing to fit (then out is left empty). */
int ws_rsm_run(const struct ws_rsm_in *in, const struct ws_rsm_opts *o,
               struct ws_rsm_out *out);

void ws_rsm_out_free(struct ws_rsm_out *out);

#endif
