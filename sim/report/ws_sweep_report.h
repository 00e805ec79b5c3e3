/*
 * ws_sweep_report: a short markdown summary of a sweep's results: how
 * many points ran and failed, the best and worst points for a target
 * column, and per axis the elasticity of the target (how much it changes
 * when that axis doubles), so "which resource matters" is visible at a
 * glance.
 *
 * Elasticity: for each axis, points are grouped by the values of every
 * other axis; within each group ln(target) is regressed on ln(axis) and
 * the groups share one slope (the fixed-effects, "within" estimator: both
 * logs are centred per group, then one least-squares slope through the
 * origin, gsl_fit_mul).  A slope e means doubling the axis multiplies the
 * target by 2^e.  Axes that are not positive numbers are reported as such.
 *
 * Leaves out: interactions between axes (the slope is an average over the
 * other axes' values); rows other than status "ok".
 */
#ifndef WS_SWEEP_REPORT_H
#define WS_SWEEP_REPORT_H

#include <stddef.h>

#include "util/ws_csv.h"
#include "util/ws_err.h"

struct ws_elasticity {
    double slope;  /* d ln(target) / d ln(axis) */
    double r2;     /* of the within regression; NaN when undefined */
    size_t n;      /* points used */
    size_t groups; /* groups with at least two distinct axis values */
};

/* The within estimator over n points: x and y positive, group[i] the
 * group of point i (any integers).  -1 when no group has two distinct x. */
int ws_elasticity_fit(const double *x, const double *y, const size_t *group,
                      size_t n, struct ws_elasticity *out);

/* The markdown text (malloc'd).  axes: the table's axis column names;
 * target: the column summarised (e.g. "cycles").  A point with several
 * rows (one per kernel of a multi-kernel trace, same "point" column) counts
 * once, with the sum of its rows' targets.  dims (may be NULL) gives each
 * axis's digit: zipped axes share one and are not held still for each
 * other.  Unplaced error (ws_err_msg)
 * when target is not a column. */
char *ws_sweep_report(const struct ws_csv *t, const char *const *axes,
                      const size_t *dims, size_t naxes, const char *target,
                      struct ws_err *err);

#endif
