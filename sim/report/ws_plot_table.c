/*
 * ws_plot_table: one chart of a results table (see ws_plot.h): the rows
 * drawn checked, grouped into lines, sorted by x within each, and the
 * gnuplot script that draws them.
 *
 * A line is a value of the series column and, in a table of runs of a
 * multi-kernel trace, a kernel: a sweep point of such a trace is one row
 * per kernel, and a line through all of them jumped from one kernel's
 * cycles to the next at every x (a sawtooth that looks like a result).
 *
 * Leaves out: the gnuplot driver (ws_plot.c), axes and units
 * (ws_plot_axes.c).
 */
#include "ws_plot.h"

#include "measure/ws_kname.h"
#include "util/ws_clip.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* More lines than this make an unreadable key; a series column with more
 * values is probably the wrong column. */
#define WS_PLOT_MAX_SERIES 64

/* The spec's columns, resolved; -1 when absent (kid and kname: or not
 * split by kernel). */
struct ws_plot_cols {
    long x, y, series, status, kid, kname;
};

struct ws_plot_pt {
    size_t line, row;
    double x, y;
};

/* The lines met so far: each a series cell and a kernel id cell (NULL
 * for none), and the row that first drew it (for the kernel's name). */
struct ws_plot_lines {
    const char *series[WS_PLOT_MAX_SERIES], *kid[WS_PLOT_MAX_SERIES];
    size_t row[WS_PLOT_MAX_SERIES];
    size_t n, nkernels;
};

/* Sets *which to the spec string an error is about (NULL: the table). */
static int ws_plot_col(const struct ws_csv *t, const char *name, long *col,
                       const char **which, struct ws_err *err)
{
    *col = ws_csv_col(t, name);
    if (*col >= 0)
        return 0;
    *which = name;
    return ws_csv_no_col(t, name, err);
}

/* The number in column col (named name by the spec) of row. */
static int ws_plot_value(const struct ws_csv *t, size_t row, long col,
                         const char *name, int log, const char **which,
                         double *v, struct ws_err *err)
{
    const char *cell = ws_csv_cell(t, row, (size_t)col);
    struct ws_clip q1, q2;

    if (ws_csv_num_text(cell, v) < 0) {
        *which = name;
        return ws_err_msg(err,
                          "'%s' in column '%s' at %s line %ld is not a "
                          "number (expected a number in every row drawn)",
                          ws_clip(&q1, cell), ws_clip(&q2, name), t->name,
                          t->row_line[row]);
    }
    if (log && *v <= 0) {
        *which = name;
        return ws_err_msg(err,
                          "%s in column '%s' at %s line %ld cannot be "
                          "shown on a log scale (expected positive numbers "
                          "on a log axis)",
                          ws_clip(&q1, cell), ws_clip(&q2, name), t->name,
                          t->row_line[row]);
    }
    return 0;
}

static int ws_plot_same(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

/* The line of row: its index among the lines met so far, added when new;
 * -1 when there would be more than WS_PLOT_MAX_SERIES. */
static int ws_plot_line_of(const struct ws_csv *t, size_t row,
                           const struct ws_plot_cols *c,
                           struct ws_plot_lines *l, size_t *idx)
{
    const char *s = c->series >= 0 ? ws_csv_cell(t, row, (size_t)c->series)
                                   : NULL;
    const char *k = c->kid >= 0 ? ws_csv_cell(t, row, (size_t)c->kid) : NULL;
    int new_kernel = k != NULL;

    for (size_t i = 0; i < l->n; i++) {
        if (ws_plot_same(l->series[i], s) && ws_plot_same(l->kid[i], k)) {
            *idx = i;
            return 0;
        }
        new_kernel &= !ws_plot_same(l->kid[i], k);
    }
    if (l->n == WS_PLOT_MAX_SERIES)
        return -1;
    l->series[l->n] = s;
    l->kid[l->n] = k;
    l->row[l->n] = row;
    l->nkernels += (size_t)new_kernel;
    *idx = l->n++;
    return 0;
}

static int ws_plot_too_many(const struct ws_plot_spec *s,
                            const struct ws_plot_cols *c, const char **which,
                            struct ws_err *err)
{
    struct ws_clip q;

    *which = s->series;
    if (c->kid >= 0)
        return ws_err_msg(err,
                          "the rows drawn make more than %d lines, one "
                          "per %s%s kernel (expected at most %d lines)",
                          WS_PLOT_MAX_SERIES, s->series ? "value of " : "",
                          s->series ? ws_clip(&q, s->series) : "",
                          WS_PLOT_MAX_SERIES);
    return ws_err_msg(err,
                      "column '%s' has more than %d values "
                      "(expected at most %d series)",
                      ws_clip(&q, s->series), WS_PLOT_MAX_SERIES,
                      WS_PLOT_MAX_SERIES);
}

/* The kernel columns, when lines are split by kernel: not when the chart
 * already draws a kernel column (on an axis or as the series). */
static void ws_plot_kernel_cols(const struct ws_csv *t,
                                const struct ws_plot_spec *s,
                                struct ws_plot_cols *c)
{
    static const char *const kcols[] = {"kernel_id", "kernel"};

    c->kid = c->kname = -1;
    if (!s->by_kernel)
        return;
    for (size_t i = 0; i < 2; i++)
        if (strcmp(s->x, kcols[i]) == 0 || strcmp(s->y, kcols[i]) == 0
            || (s->series && strcmp(s->series, kcols[i]) == 0))
            return;
    c->kid = ws_csv_col(t, "kernel_id");
    c->kname = ws_csv_col(t, "kernel");
}

/* Checks and, when pts is not NULL, collects the points drawn (pts holds
 * t->nrows). */
static int ws_plot_scan(const struct ws_csv *t, const struct ws_plot_spec *s,
                        const char **which, struct ws_plot_pt *pts,
                        size_t *npts, struct ws_plot_lines *l,
                        struct ws_plot_cols *c, struct ws_err *err)
{
    *c = (struct ws_plot_cols){-1, -1, -1, ws_csv_col(t, "status"), -1, -1};
    *which = NULL;
    *npts = l->n = l->nkernels = 0;
    if (ws_plot_col(t, s->x, &c->x, which, err) < 0
        || ws_plot_col(t, s->y, &c->y, which, err) < 0
        || (s->series && ws_plot_col(t, s->series, &c->series, which, err) < 0))
        return -1;
    ws_plot_kernel_cols(t, s, c);
    for (size_t r = 0; r < t->nrows; r++) {
        struct ws_plot_pt p = {0, r, 0, 0};
        if (!ws_csv_row_ok(t, r))
            continue;
        if (ws_plot_value(t, r, c->x, s->x, s->logx, which, &p.x, err) < 0
            || ws_plot_value(t, r, c->y, s->y, s->logy, which, &p.y, err) < 0)
            return -1;
        if (ws_plot_line_of(t, r, c, l, &p.line) < 0)
            return ws_plot_too_many(s, c, which, err);
        if (pts)
            pts[*npts] = p;
        (*npts)++;
    }
    if (*npts == 0)
        return ws_err_msg(err,
                          "%s has no row%s to draw (expected at least "
                          "one)",
                          t->name, c->status >= 0 ? " with status 'ok'" : "");
    return 0;
}

int ws_plot_check_at(const struct ws_csv *t, const struct ws_plot_spec *s,
                     const char **which, struct ws_err *err)
{
    struct ws_plot_lines l;
    struct ws_plot_cols c;
    size_t npts;

    return ws_plot_scan(t, s, which, NULL, &npts, &l, &c, err);
}

int ws_plot_check(const struct ws_csv *t, const struct ws_plot_spec *s,
                  struct ws_err *err)
{
    const char *which;

    return ws_plot_check_at(t, s, &which, err);
}

/* By line, then x; the row keeps equal points in the table's order. */
static int ws_plot_pt_cmp(const void *a, const void *b)
{
    const struct ws_plot_pt *p = a, *q = b;

    if (p->line != q->line)
        return p->line < q->line ? -1 : 1;
    if (p->x != q->x)
        return p->x < q->x ? -1 : 1;
    return p->row < q->row ? -1 : p->row > q->row;
}

/* ---- the script ----------------------------------------------------------- */

/* What ws_plot_gnuplot's writer draws. */
struct ws_plot_chart {
    const struct ws_csv *t;
    const struct ws_plot_spec *s;
    const struct ws_plot_pt *pts;
    size_t npts;
    struct ws_plot_lines l;
    struct ws_plot_cols c;
};

/* Whether lines are told apart by kernel: more than one in the rows. */
static int ws_plot_split(const struct ws_plot_chart *ch)
{
    return ch->c.kid >= 0 && ch->l.nkernels > 1;
}

/* One data block per line, separated by two blank lines (gnuplot's
 * "index"); a parity chart's diagonal after them, over range. */
static int ws_plot_write_data(const struct ws_plot_dir *d,
                              const struct ws_plot_chart *ch,
                              const double *range, struct ws_err *err)
{
    FILE *fp = ws_plot_fopen(d->data, err);

    if (!fp)
        return -1;
    for (size_t i = 0; i < ch->npts; i++) {
        if (i > 0 && ch->pts[i].line != ch->pts[i - 1].line)
            fputs("\n\n", fp);
        fprintf(fp, "%.17g %.17g\n", ch->pts[i].x, ch->pts[i].y);
    }
    if (ch->s->parity)
        fprintf(fp, "\n\n%.17g %.17g\n%.17g %.17g\n", range[0], range[0],
                range[1], range[1]);
    return ws_plot_close(fp, d->data, err);
}

/* A line's title: its series value (a size in bytes as "3 MiB"), and its
 * kernel as "BASE #ID" when lines are split by kernel. */
static void ws_plot_line_title(FILE *fp, const struct ws_plot_chart *ch,
                               size_t i)
{
    const char *sv = ch->l.series[i];
    const char *unit = sv ? ws_plot_unit(ch->s->series) : NULL;
    char num[48];
    double v;

    fputc('\'', fp);
    if (unit && strcmp(unit, "bytes") == 0 && ws_csv_num_text(sv, &v) == 0) {
        ws_plot_num_text(num, sizeof num, v, 1);
        sv = num;
    }
    if (sv)
        ws_plot_quote_body(fp, sv[0] ? sv : "(empty)");
    if (ws_plot_split(ch)) {
        const char *name = ch->c.kname >= 0 ? ws_csv_cell(ch->t, ch->l.row[i],
                                                          (size_t)ch->c.kname)
                                            : "kernel";
        char *base = ws_kname_base(name);
        fputs(sv ? ", " : "", fp);
        ws_plot_quote_body(fp, base && base[0] ? base : name);
        fputs(" #", fp);
        ws_plot_quote_body(fp, ch->l.kid[i]);
        free(base);
    }
    fputc('\'', fp);
}

static void ws_plot_key(FILE *fp, const struct ws_plot_chart *ch)
{
    const struct ws_plot_spec *s = ch->s;
    const char *unit = s->series ? ws_plot_unit(s->series) : NULL;

    if (!s->series && !ws_plot_split(ch) && !s->parity) {
        fputs("set key off\n", fp);
        return;
    }
    fputs("set key outside right top noenhanced title '", fp);
    if (s->key) {
        ws_plot_quote_body(fp, s->key);
    } else {
        if (s->series)
            ws_plot_quote_body(fp, s->series);
        if (unit) {
            fputs(" (", fp);
            ws_plot_quote_body(fp, unit);
            fputc(')', fp);
        }
        if (ws_plot_split(ch))
            fputs(s->series ? ", kernel" : "kernel", fp);
    }
    fputs("' noenhanced\n", fp);
}

static void ws_plot_labels(FILE *fp, const struct ws_plot_spec *s)
{
    fputs("set title ", fp);
    if (s->title) {
        ws_plot_quote(fp, s->title);
    } else {
        fputc('\'', fp);
        ws_plot_quote_body(fp, s->y);
        fputs(" against ", fp);
        ws_plot_quote_body(fp, s->x);
        fputc('\'', fp);
    }
    fputs(" noenhanced\n", fp);
    if (s->xlabel)
        ws_plot_axis_label(fp, 'x', s->xlabel, NULL);
    else
        ws_plot_axis_label(fp, 'x', s->x, ws_plot_unit(s->x));
    if (s->ylabel)
        ws_plot_axis_label(fp, 'y', s->ylabel, NULL);
    else
        ws_plot_axis_label(fp, 'y', s->y, ws_plot_unit(s->y));
}

static int ws_plot_pow2(double v)
{
    int e;

    return v > 0 && frexp(v, &e) == 0.5;
}

/* The axes' ranges and ticks; a parity chart's are one range, both axes,
 * returned in range. */
static void ws_plot_axes(FILE *fp, const struct ws_plot_chart *ch,
                         double *range)
{
    const struct ws_plot_spec *s = ch->s;
    double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
    int pow2[2] = {1, 1};

    for (size_t i = 0; i < ch->npts; i++) {
        const double v[2] = {ch->pts[i].x, ch->pts[i].y};
        for (int a = 0; a < 2; a++) {
            lo[a] = fmin(lo[a], v[a]);
            hi[a] = fmax(hi[a], v[a]);
            pow2[a] &= ws_plot_pow2(v[a]);
        }
    }
    for (int a = 0; a < 2; a++)
        pow2[a] &= hi[a] > lo[a];
    if (s->parity) {
        lo[0] = lo[1] = fmin(lo[0], lo[1]);
        hi[0] = hi[1] = fmax(hi[0], hi[1]);
        pow2[0] = pow2[1] = 0;
    }
    ws_plot_axis(fp, 'x', lo[0], hi[0], s->logx, pow2[0],
                 s->xlabel ? NULL : ws_plot_unit(s->x), range);
    ws_plot_axis(fp, 'y', lo[1], hi[1], s->logy, pow2[1],
                 s->ylabel ? NULL : ws_plot_unit(s->y), NULL);
}

static void ws_plot_plots(FILE *fp, const struct ws_plot_dir *d,
                          const struct ws_plot_chart *ch)
{
    size_t n = ch->l.n;
    int titled = ch->s->series || ws_plot_split(ch) || ch->s->parity;

    fputs("plot ", fp);
    for (size_t i = 0; i < n; i++) {
        fputs(i ? ", \\\n     " : "", fp);
        ws_plot_quote(fp, d->data);
        fprintf(fp, " index %zu using 1:2 with %s ", i,
                ch->s->parity ? "points" : "linespoints");
        if (!titled) {
            fputs("notitle", fp);
            continue;
        }
        fputs("title ", fp);
        ws_plot_line_title(fp, ch, i);
    }
    if (ch->s->parity) {
        fputs(", \\\n     ", fp);
        ws_plot_quote(fp, d->data);
        fprintf(fp,
                " index %zu using 1:2 with lines lw 1.5 lc rgb 'black' "
                "title 'y = x'",
                n);
    }
    fputc('\n', fp);
}

static int ws_plot_write(const struct ws_plot_dir *d, const void *chart,
                         struct ws_err *err)
{
    const struct ws_plot_chart *ch = chart;
    FILE *fp = ws_plot_fopen(d->script, err);
    double range[2];

    if (!fp)
        return -1;
    ws_plot_terminal(fp, d, 800, 500);
    ws_plot_labels(fp, ch->s);
    ws_plot_key(fp, ch);
    /* Room around the points on an autoscaled (linear) axis: a point on
     * the frame hides half its marker. */
    fputs("set offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05\n", fp);
    /* One range on both axes in a square frame: y = x at 45 degrees. */
    fputs(ch->s->parity ? "set grid\nset size square\n" : "set grid\n", fp);
    ws_plot_axes(fp, ch, range);
    ws_plot_plots(fp, d, ch);
    if (ws_plot_close(fp, d->script, err) < 0)
        return -1;
    return ws_plot_write_data(d, ch, range, err);
}

char *ws_plot_svg(const struct ws_csv *t, const struct ws_plot_spec *s,
                  struct ws_err *err)
{
    struct ws_plot_pt *pts = malloc((t->nrows + 1) * sizeof *pts);
    struct ws_plot_chart ch = {t, s, pts, 0, {{0}, {0}, {0}, 0, 0}, {0}};
    const char *which;
    char *svg;

    if (!pts) {
        ws_err_oom(err);
        return NULL;
    }
    if (ws_plot_scan(t, s, &which, pts, &ch.npts, &ch.l, &ch.c, err) < 0) {
        free(pts);
        return NULL;
    }
    qsort(pts, ch.npts, sizeof *pts, ws_plot_pt_cmp);
    svg = ws_plot_gnuplot(ws_plot_write, &ch, err);
    free(pts);
    return svg;
}
