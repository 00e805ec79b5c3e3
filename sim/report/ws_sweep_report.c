/*
 * ws_sweep_report: the markdown summary of a sweep's results (see
 * ws_sweep_report.h).
 *
 * The table's own columns say what a row is: "point" (rows of one point
 * share it; without it every row is a point), "status" ("ok" or not;
 * without it every row is ok) and "error" (quoted for failed points;
 * without it the status is).  Every number is printed with a fixed format,
 * so the same table gives the same report byte for byte.
 *
 * Leaves out: plots (ws_plot.c); choosing the target (the sweep file's
 * report: entry).
 */
#include "ws_sweep_report.h"

#include <gsl/gsl_fit.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Points shown at each end of the ranking, and failures quoted. */
#define WS_REP_SHOWN 3

struct ws_rep_point {
    size_t row;        /* its first row: axis values, line */
    int ok;            /* every row's status is ok */
    int has_target;    /* every row's target is a number */
    double target;     /* their sum */
    const char *error; /* the first failed row's error or status */
};

/* An axis's fate in the elasticity table. */
enum ws_rep_fit {
    WS_REP_FITTED,
    WS_REP_NOT_NUMERIC,
    WS_REP_NOT_POSITIVE,
    WS_REP_ONE_VALUE
};

struct ws_rep_axis {
    size_t axis;
    enum ws_rep_fit fit;
    struct ws_elasticity e;
};

struct ws_rep {
    const struct ws_csv *t;
    const char *const *axes;
    const size_t *dims; /* axes with one dim move together; may be NULL */
    size_t naxes;
    const char *target;
    long *axis_col;
    long target_col, status_col, error_col, point_col;
    struct ws_rep_point *pts;
    size_t npts, nok, nfailed, nranked;
    size_t *ranked; /* ok points with a target, lowest first */
    FILE *out;
};

/* ---- the within estimator ---------------------------------------------- */

struct ws_rep_gi {
    size_t group, i;
};

static int ws_rep_gi_cmp(const void *a, const void *b)
{
    const struct ws_rep_gi *p = a, *q = b;

    if (p->group != q->group)
        return p->group < q->group ? -1 : 1;
    return p->i < q->i ? -1 : p->i > q->i;
}

/* Appends the group's logs, centred, to cx/cy when it has two distinct
 * x; returns the points added. */
static size_t ws_rep_centre(const double *x, const double *y,
                            const struct ws_rep_gi *g, size_t k, double *cx,
                            double *cy)
{
    size_t m = 0;
    double mx, my;

    for (size_t j = 0; j < k; j++) {
        double xv = x[g[j].i], yv = y[g[j].i];
        if (!(xv > 0) || !(yv > 0) || !isfinite(xv) || !isfinite(yv))
            continue;
        cx[m] = log(xv);
        cy[m] = log(yv);
        m++;
    }
    if (m < 2 || gsl_stats_min(cx, 1, m) == gsl_stats_max(cx, 1, m))
        return 0;
    mx = gsl_stats_mean(cx, 1, m);
    my = gsl_stats_mean(cy, 1, m);
    for (size_t j = 0; j < m; j++) {
        cx[j] -= mx;
        cy[j] -= my;
    }
    return m;
}

int ws_elasticity_fit(const double *x, const double *y, const size_t *group,
                      size_t n, struct ws_elasticity *out)
{
    struct ws_rep_gi *g = malloc((n + 1) * sizeof *g);
    double *cx = malloc((n + 1) * sizeof *cx);
    double *cy = malloc((n + 1) * sizeof *cy);
    size_t m = 0, groups = 0;
    double c1 = 0, cov, sumsq = 0, tss;

    memset(out, 0, sizeof *out);
    out->r2 = NAN;
    /* Out of memory reads as "nothing to fit": the report then says the
     * axis could not be fitted rather than failing whole. */
    if (!g || !cx || !cy)
        n = 0;
    for (size_t i = 0; i < n; i++)
        g[i] = (struct ws_rep_gi){group[i], i};
    if (n > 0)
        qsort(g, n, sizeof *g, ws_rep_gi_cmp);
    for (size_t a = 0, b; a < n; a = b) {
        size_t k;
        for (b = a + 1; b < n && g[b].group == g[a].group; b++)
            ;
        k = ws_rep_centre(x, y, g + a, b - a, cx + m, cy + m);
        m += k;
        groups += k > 0;
    }
    if (groups > 0) {
        gsl_fit_mul(cx, 1, cy, 1, m, &c1, &cov, &sumsq);
        tss = gsl_stats_tss_m(cy, 1, m, 0.0);
        out->slope = c1;
        out->r2 = tss > 0 ? 1 - sumsq / tss : NAN;
        out->n = m;
        out->groups = groups;
    }
    free(g);
    free(cx);
    free(cy);
    return groups > 0 ? 0 : -1;
}

/* ---- reading the table ------------------------------------------------- */

static const char *ws_rep_cell(const struct ws_rep *r, size_t row, long col)
{
    return ws_csv_cell(r->t, row, (size_t)col);
}

/* Folds row into point p (its first row already set). */
static void ws_rep_add_row(const struct ws_rep *r, struct ws_rep_point *p,
                           size_t row)
{
    double v;

    if (!ws_csv_row_ok(r->t, row) && p->ok) {
        p->ok = 0;
        p->error = ws_rep_cell(r, row,
                               r->error_col >= 0 ? r->error_col
                                                 : r->status_col);
    }
    if (ws_csv_num_text(ws_rep_cell(r, row, r->target_col), &v) < 0)
        p->has_target = 0;
    else
        p->target += v;
}

struct ws_rep_key {
    const char *key;
    size_t row;
};

static int ws_rep_key_cmp(const void *a, const void *b)
{
    const struct ws_rep_key *p = a, *q = b;
    int c = strcmp(p->key, q->key);

    return c ? c : p->row < q->row ? -1 : p->row > q->row;
}

static int ws_rep_point_cmp(const void *a, const void *b)
{
    const struct ws_rep_point *p = a, *q = b;

    return p->row < q->row ? -1 : p->row > q->row;
}

/* The points, in the order their first rows appear. */
static int ws_rep_points(struct ws_rep *r, struct ws_err *err)
{
    size_t n = r->t->nrows;
    struct ws_rep_key *k = malloc((n + 1) * sizeof *k);

    r->pts = malloc((n + 1) * sizeof *r->pts);
    if (!k || !r->pts) {
        free(k);
        return ws_err_oom(err);
    }
    for (size_t i = 0; i < n; i++)
        k[i] = (struct ws_rep_key){
            r->point_col >= 0 ? ws_rep_cell(r, i, r->point_col) : "", i};
    if (r->point_col >= 0)
        qsort(k, n, sizeof *k, ws_rep_key_cmp);
    for (size_t i = 0; i < n; i++) {
        struct ws_rep_point *p = &r->pts[r->npts];
        if (r->point_col < 0 || i == 0 || strcmp(k[i].key, k[i - 1].key)) {
            *p = (struct ws_rep_point){k[i].row, 1, 1, 0, NULL};
            r->npts++;
        }
        ws_rep_add_row(r, &r->pts[r->npts - 1], k[i].row);
    }
    free(k);
    qsort(r->pts, r->npts, sizeof *r->pts, ws_rep_point_cmp);
    return 0;
}

struct ws_rep_rank {
    double target;
    size_t point;
};

/* Equal targets keep the table's order. */
static int ws_rep_rank_cmp(const void *a, const void *b)
{
    const struct ws_rep_rank *p = a, *q = b;

    if (p->target != q->target)
        return p->target < q->target ? -1 : 1;
    return p->point < q->point ? -1 : p->point > q->point;
}

/* Counts ok and failed points; ranks the ok ones with a target, lowest
 * first. */
static int ws_rep_rank(struct ws_rep *r, struct ws_err *err)
{
    struct ws_rep_rank *k = malloc((r->npts + 1) * sizeof *k);

    r->ranked = malloc((r->npts + 1) * sizeof *r->ranked);
    if (!k || !r->ranked) {
        free(k);
        return ws_err_oom(err);
    }
    for (size_t i = 0; i < r->npts; i++) {
        r->nok += r->pts[i].ok;
        r->nfailed += !r->pts[i].ok;
        if (r->pts[i].ok && r->pts[i].has_target)
            k[r->nranked++] = (struct ws_rep_rank){r->pts[i].target, i};
    }
    qsort(k, r->nranked, sizeof *k, ws_rep_rank_cmp);
    for (size_t i = 0; i < r->nranked; i++)
        r->ranked[i] = k[i].point;
    free(k);
    return 0;
}

static int ws_rep_columns(struct ws_rep *r, struct ws_err *err)
{
    r->target_col = ws_csv_col(r->t, r->target);
    if (r->target_col < 0)
        return ws_csv_no_col(r->t, r->target, err);
    r->axis_col = malloc((r->naxes + 1) * sizeof *r->axis_col);
    if (!r->axis_col)
        return ws_err_oom(err);
    for (size_t a = 0; a < r->naxes; a++) {
        r->axis_col[a] = ws_csv_col(r->t, r->axes[a]);
        if (r->axis_col[a] < 0)
            return ws_csv_no_col(r->t, r->axes[a], err);
    }
    r->status_col = ws_csv_col(r->t, "status");
    r->error_col = ws_csv_col(r->t, "error");
    r->point_col = ws_csv_col(r->t, "point");
    return 0;
}

/* ---- elasticities ------------------------------------------------------ */

/* The ranked points usable for axis a's fit (a positive target), with
 * x, y and the text of every other axis joined as the group key.  *fit
 * says why the axis cannot be fitted, if it cannot. */
struct ws_rep_data {
    double *x, *y;
    size_t *group;
    struct ws_rep_key *keys;
    char *text;
    size_t n;
};

static void ws_rep_data_free(struct ws_rep_data *d)
{
    free(d->x);
    free(d->y);
    free(d->group);
    free(d->keys);
    free(d->text);
}

/* Zipped axes move together: none of them can hold still while another
 * doubles, so they are left out of each other's groups. */
static int ws_rep_same_dim(const struct ws_rep *r, size_t a, size_t b)
{
    return a == b || (r->dims && r->dims[a] == r->dims[b]);
}

static size_t ws_rep_key_len(const struct ws_rep *r, size_t row, size_t a)
{
    size_t len = 1;

    for (size_t b = 0; b < r->naxes; b++)
        if (!ws_rep_same_dim(r, a, b))
            len += strlen(ws_rep_cell(r, row, r->axis_col[b])) + 1;
    return len;
}

/* Joins the other axes' cells with a unit separator, which a cell of a
 * sweep's table does not hold. */
static char *ws_rep_key_put(const struct ws_rep *r, size_t row, size_t a,
                            char *at)
{
    for (size_t b = 0; b < r->naxes; b++) {
        const char *c = ws_rep_cell(r, row, r->axis_col[b]);
        size_t n = strlen(c);
        if (ws_rep_same_dim(r, a, b))
            continue;
        memcpy(at, c, n);
        at[n] = '\x1f';
        at += n + 1;
    }
    *at = '\0';
    return at + 1;
}

static int ws_rep_data_fill(const struct ws_rep *r, size_t a,
                            struct ws_rep_data *d, enum ws_rep_fit *fit)
{
    size_t len = 0;
    char *at;

    for (size_t i = 0; i < r->nranked; i++)
        len += ws_rep_key_len(r, r->pts[r->ranked[i]].row, a);
    d->text = malloc(len + 1);
    if (!d->text)
        return -1;
    at = d->text;
    *fit = WS_REP_FITTED;
    for (size_t i = 0; i < r->nranked; i++) {
        const struct ws_rep_point *p = &r->pts[r->ranked[i]];
        double x = 0;
        if (!(p->target > 0))
            continue;
        if (ws_csv_num_text(ws_rep_cell(r, p->row, r->axis_col[a]), &x) < 0)
            *fit = WS_REP_NOT_NUMERIC;
        else if (!(x > 0) && *fit == WS_REP_FITTED)
            *fit = WS_REP_NOT_POSITIVE;
        d->x[d->n] = x;
        d->y[d->n] = p->target;
        d->keys[d->n] = (struct ws_rep_key){at, d->n};
        at = ws_rep_key_put(r, p->row, a, at);
        d->n++;
    }
    return 0;
}

/* Groups: the same key, the same number. */
static void ws_rep_groups(struct ws_rep_data *d)
{
    size_t g = 0;

    qsort(d->keys, d->n, sizeof *d->keys, ws_rep_key_cmp);
    for (size_t i = 0; i < d->n; i++) {
        if (i > 0 && strcmp(d->keys[i].key, d->keys[i - 1].key) != 0)
            g++;
        d->group[d->keys[i].row] = g;
    }
}

static int ws_rep_fit_axis(const struct ws_rep *r, size_t a,
                           struct ws_rep_axis *out, struct ws_err *err)
{
    struct ws_rep_data d = {NULL, NULL, NULL, NULL, NULL, 0};
    size_t n = r->nranked + 1;

    memset(out, 0, sizeof *out);
    out->axis = a;
    d.x = malloc(n * sizeof *d.x);
    d.y = malloc(n * sizeof *d.y);
    d.group = malloc(n * sizeof *d.group);
    d.keys = malloc(n * sizeof *d.keys);
    if (!d.x || !d.y || !d.group || !d.keys
        || ws_rep_data_fill(r, a, &d, &out->fit) < 0) {
        ws_rep_data_free(&d);
        return ws_err_oom(err);
    }
    if (out->fit == WS_REP_FITTED) {
        ws_rep_groups(&d);
        if (ws_elasticity_fit(d.x, d.y, d.group, d.n, &out->e) < 0)
            out->fit = WS_REP_ONE_VALUE;
    }
    ws_rep_data_free(&d);
    return 0;
}

/* Fitted axes by |slope|, largest first; then the others in axis order. */
static int ws_rep_axis_cmp(const void *a, const void *b)
{
    const struct ws_rep_axis *p = a, *q = b;
    int pf = p->fit == WS_REP_FITTED, qf = q->fit == WS_REP_FITTED;

    if (pf != qf)
        return qf - pf;
    if (pf && fabs(p->e.slope) != fabs(q->e.slope))
        return fabs(p->e.slope) > fabs(q->e.slope) ? -1 : 1;
    return p->axis < q->axis ? -1 : p->axis > q->axis;
}

/* ---- writing ----------------------------------------------------------- */

/* Text inside a table cell or a list item: '|' would split the cell and
 * a line break the table. */
static void ws_rep_md(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '|' || *s == '\\')
            fputc('\\', out);
        fputc(*s == '\n' || *s == '\r' || *s == '\t' ? ' ' : *s, out);
    }
}

/* Three significant digits; whole numbers of 1000 and more in full
 * (1e+03 reads badly in a table) and rounding noise as 0. */
static const char *ws_rep_g3(char *buf, size_t size, double v)
{
    if (fabs(v) < 1e-9)
        v = 0;
    if (fabs(v) >= 1e3 && fabs(v) < 1e15)
        snprintf(buf, size, "%.0f", v);
    else
        snprintf(buf, size, "%.3g", v);
    return buf;
}

/* A target value: whole numbers (cycles, bytes) in full. */
static const char *ws_rep_value(char *buf, size_t size, double v)
{
    if (v == floor(v) && fabs(v) < 1e15)
        snprintf(buf, size, "%.0f", v);
    else
        snprintf(buf, size, "%.6g", v);
    return buf;
}

/* What doubling an axis does to the target, as "+N %". */
static const char *ws_rep_pct(char *buf, size_t size, double slope)
{
    char num[32];
    double v = (pow(2.0, slope) - 1) * 100;

    ws_rep_g3(num, sizeof num, v);
    snprintf(buf, size, "%s%s %%", num[0] == '-' ? "" : "+", num);
    return buf;
}

/* -1 when less of the target is better (time), 1 when more is (rates),
 * 0 when the name does not say. */
static int ws_rep_direction(const char *target)
{
    static const char *const lower[] = {"cycles", "time", "latency"};
    static const char *const higher[] = {"ipc", "gbps", "hit", "occupancy"};

    for (size_t i = 0; i < sizeof lower / sizeof *lower; i++)
        if (strstr(target, lower[i]))
            return -1;
    for (size_t i = 0; i < sizeof higher / sizeof *higher; i++)
        if (strstr(target, higher[i]))
            return 1;
    return 0;
}

/* "point 4" from the point column, else the row's line. */
static void ws_rep_label(const struct ws_rep *r, const struct ws_rep_point *p)
{
    if (r->point_col >= 0) {
        fputs("point ", r->out);
        ws_rep_md(r->out, ws_rep_cell(r, p->row, r->point_col));
    } else {
        fprintf(r->out, "line %ld", r->t->row_line[p->row]);
    }
}

static void ws_rep_failures(const struct ws_rep *r)
{
    size_t shown = 0;

    if (r->nfailed == 0)
        return;
    if (r->nfailed > WS_REP_SHOWN)
        fprintf(r->out, "\nFailed points (the first %d of %zu):\n\n",
                WS_REP_SHOWN, r->nfailed);
    else
        fputs("\nFailed points:\n\n", r->out);
    for (size_t i = 0; i < r->npts && shown < WS_REP_SHOWN; i++) {
        const struct ws_rep_point *p = &r->pts[i];
        if (p->ok)
            continue;
        fputs("- ", r->out);
        ws_rep_label(r, p);
        for (size_t a = 0; a < r->naxes; a++) {
            fputs(a ? ", " : " (", r->out);
            ws_rep_md(r->out, r->axes[a]);
            fputc('=', r->out);
            ws_rep_md(r->out, ws_rep_cell(r, p->row, r->axis_col[a]));
        }
        fputs(r->naxes ? "): " : ": ", r->out);
        ws_rep_md(r->out, p->error && *p->error ? p->error : "no message");
        fputc('\n', r->out);
        shown++;
    }
}

static void ws_rep_table_head(const struct ws_rep *r)
{
    fputs("| point | ", r->out);
    ws_rep_md(r->out, r->target);
    for (size_t a = 0; a < r->naxes; a++) {
        fputs(" | ", r->out);
        ws_rep_md(r->out, r->axes[a]);
    }
    fputs(" |\n|---|---:|", r->out);
    for (size_t a = 0; a < r->naxes; a++)
        fputs("---|", r->out);
    fputc('\n', r->out);
}

/* Ranked points first..last (inclusive; last < first walks down). */
static void ws_rep_table(const struct ws_rep *r, const char *title,
                         size_t first, size_t last)
{
    char num[40];

    fprintf(r->out, "\n## %s\n\n", title);
    ws_rep_table_head(r);
    for (size_t i = first;; i += last < first ? (size_t)-1 : 1) {
        const struct ws_rep_point *p = &r->pts[r->ranked[i]];
        fputs("| ", r->out);
        if (r->point_col >= 0)
            ws_rep_md(r->out, ws_rep_cell(r, p->row, r->point_col));
        else
            fprintf(r->out, "line %ld", r->t->row_line[p->row]);
        fprintf(r->out, " | %s |", ws_rep_value(num, sizeof num, p->target));
        for (size_t a = 0; a < r->naxes; a++) {
            fputc(' ', r->out);
            ws_rep_md(r->out, ws_rep_cell(r, p->row, r->axis_col[a]));
            fputs(" |", r->out);
        }
        fputc('\n', r->out);
        if (i == last)
            break;
    }
}

/* Both ends of the ranking, the better end first when the target's name
 * says which that is. */
static void ws_rep_ranking(const struct ws_rep *r)
{
    int dir = ws_rep_direction(r->target);
    size_t n = r->nranked, k = n < WS_REP_SHOWN ? n : WS_REP_SHOWN;
    char low[256], high[256];

    if (n == 0) {
        fprintf(r->out, "\nNo ok point has a numeric %s: nothing to rank.\n",
                r->target);
        return;
    }
    if (n <= 2 * WS_REP_SHOWN) {
        snprintf(low, sizeof low, "All %zu points by %s, lowest first", n,
                 r->target);
        ws_rep_table(r, low, 0, n - 1);
        return;
    }
    snprintf(low, sizeof low, "%s %zu points (lowest %s)",
             dir < 0   ? "Best"
             : dir > 0 ? "Worst"
                       : "Lowest",
             k, r->target);
    snprintf(high, sizeof high, "%s %zu points (highest %s)",
             dir < 0   ? "Worst"
             : dir > 0 ? "Best"
                       : "Highest",
             k, r->target);
    if (dir > 0) {
        ws_rep_table(r, high, n - 1, n - k);
        ws_rep_table(r, low, 0, k - 1);
    } else {
        ws_rep_table(r, low, 0, k - 1);
        ws_rep_table(r, high, n - 1, n - k);
    }
}

static const char *ws_rep_fit_name(enum ws_rep_fit f)
{
    switch (f) {
    case WS_REP_NOT_NUMERIC:
        return "not numeric";
    case WS_REP_NOT_POSITIVE:
        return "not positive";
    case WS_REP_ONE_VALUE:
        return "one value per group";
    default:
        return "";
    }
}

static void ws_rep_axis_row(const struct ws_rep *r, const struct ws_rep_axis *x)
{
    char s[32], pct[40], r2[32];

    fputs("| ", r->out);
    ws_rep_md(r->out, r->axes[x->axis]);
    if (x->fit != WS_REP_FITTED) {
        fprintf(r->out, " | %s | | | | |\n", ws_rep_fit_name(x->fit));
        return;
    }
    if (isnan(x->e.r2))
        snprintf(r2, sizeof r2, "n/a");
    else
        ws_rep_g3(r2, sizeof r2, x->e.r2);
    fprintf(r->out, " | %s | %s | %s | %zu | %zu |\n",
            ws_rep_g3(s, sizeof s, x->e.slope),
            ws_rep_pct(pct, sizeof pct, x->e.slope), r2, x->e.n, x->e.groups);
}

/* One sentence on the axis that matters most. */
static void ws_rep_reading(const struct ws_rep *r, const struct ws_rep_axis *ax)
{
    char pct[40];
    size_t nfit = 0;

    for (size_t a = 0; a < r->naxes; a++)
        nfit += ax[a].fit == WS_REP_FITTED;
    fputs("\nReading: ", r->out);
    if (nfit == 0) {
        fputs("no axis could be fitted (each needs positive numbers, and "
              "two values among points that share the other axes).\n",
              r->out);
        return;
    }
    if (fabs(pow(2.0, ax[0].e.slope) - 1) < 0.01) {
        fprintf(r->out,
                "no axis changes %s by 1 %% or more when it "
                "doubles.\n",
                r->target);
        return;
    }
    fputs("doubling ", r->out);
    ws_rep_md(r->out, r->axes[ax[0].axis]);
    fprintf(r->out, " changes %s by %s, %s.\n", r->target,
            ws_rep_pct(pct, sizeof pct, ax[0].e.slope),
            nfit > 1 ? "more than any other axis" : "the only axis fitted");
}

static int ws_rep_elasticities(const struct ws_rep *r, struct ws_err *err)
{
    struct ws_rep_axis *ax = malloc((r->naxes + 1) * sizeof *ax);

    if (!ax)
        return ws_err_oom(err);
    for (size_t a = 0; a < r->naxes; a++) {
        if (ws_rep_fit_axis(r, a, &ax[a], err) < 0) {
            free(ax);
            return -1;
        }
    }
    qsort(ax, r->naxes, sizeof *ax, ws_rep_axis_cmp);
    fprintf(r->out,
            "\n## Elasticity of %s\n\nHow %s changes when one "
            "axis doubles and the others stay: the slope of ln(%s) on "
            "ln(axis) among points that share every other axis's value, "
            "so doubling multiplies %s by 2^slope.\n\n| axis | slope | "
            "x2 changes %s by | r^2 | points | groups |\n"
            "|---|---:|---:|---:|---:|---:|\n",
            r->target, r->target, r->target, r->target, r->target);
    for (size_t a = 0; a < r->naxes; a++)
        ws_rep_axis_row(r, &ax[a]);
    ws_rep_reading(r, ax);
    free(ax);
    return 0;
}

static int ws_rep_write(struct ws_rep *r, struct ws_err *err)
{
    fputs("# Sweep report: ", r->out);
    ws_rep_md(r->out, r->target);
    fputs("\n\n", r->out);
    ws_rep_md(r->out, r->t->name);
    fprintf(r->out, ": %zu point%s, %zu ok, %zu failed.\n", r->npts,
            r->npts == 1 ? "" : "s", r->nok, r->nfailed);
    if (r->nok > r->nranked)
        fprintf(r->out, "%zu ok point%s no numeric %s and %s left out.\n",
                r->nok - r->nranked,
                r->nok - r->nranked == 1 ? " has" : "s have", r->target,
                r->nok - r->nranked == 1 ? "is" : "are");
    ws_rep_failures(r);
    ws_rep_ranking(r);
    return r->naxes ? ws_rep_elasticities(r, err) : 0;
}

char *ws_sweep_report(const struct ws_csv *t, const char *const *axes,
                      const size_t *dims, size_t naxes, const char *target,
                      struct ws_err *err)
{
    struct ws_rep r;
    char *buf = NULL;
    size_t len = 0;
    int rc;

    memset(&r, 0, sizeof r);
    r.t = t;
    r.axes = axes;
    r.dims = dims;
    r.naxes = naxes;
    r.target = target;
    rc = ws_rep_columns(&r, err);
    if (rc == 0)
        rc = ws_rep_points(&r, err);
    if (rc == 0)
        rc = ws_rep_rank(&r, err);
    if (rc == 0 && !(r.out = open_memstream(&buf, &len)))
        rc = ws_err_oom(err);
    if (rc == 0)
        rc = ws_rep_write(&r, err);
    if (r.out && fclose(r.out) != 0 && rc == 0)
        rc = ws_err_oom(err);
    free(r.axis_col);
    free(r.pts);
    free(r.ranked);
    if (rc < 0) {
        free(buf);
        return NULL;
    }
    return buf;
}
