/*
 * ws_plot_bars: the charts of a fixed shape (see ws_plot.h): a clustered
 * bar chart of named categories (the resource groups of an RSM analysis,
 * a variant's change against a baseline) and the quadrant-split view.
 *
 * Bars go from 0 to their value, down for a negative one: the y range is
 * the values' with 0 in it, never [0:*], which cut off every bar of a
 * variant that uses less than its baseline.
 *
 * Leaves out: the gnuplot driver (ws_plot.c), tables (ws_plot_table.c).
 */
#include "ws_plot.h"

#include <math.h>
#include <stdio.h>

/* ---- bar charts ----------------------------------------------------------- */

static int ws_plot_bars_data(const struct ws_plot_dir *d,
                             const struct ws_plot_bars *b, struct ws_err *err)
{
    FILE *fp = ws_plot_fopen(d->data, err);

    if (!fp)
        return -1;
    for (size_t c = 0; c < b->ncats; c++) {
        ws_plot_data_text(fp, b->cats[c]);
        for (size_t s = 0; s < b->nseries; s++)
            fprintf(fp, " %.17g", b->v[c * b->nseries + s]);
        fputc('\n', fp);
    }
    return ws_plot_close(fp, d->data, err);
}

/* The values' range with 0 in it, and a little room above and below. */
static void ws_plot_bars_range(FILE *fp, const struct ws_plot_bars *b)
{
    double lo = 0, hi = 0, pad;

    for (size_t i = 0; i < b->ncats * b->nseries; i++) {
        lo = fmin(lo, b->v[i]);
        hi = fmax(hi, b->v[i]);
    }
    pad = (hi - lo) * 0.06;
    if (!(pad > 0))
        pad = 1;
    fprintf(fp, "set yrange [%.17g:%.17g]\n", lo < 0 ? lo - pad : 0,
            hi > 0 ? hi + pad : 0);
}

static int ws_plot_bars_script(const struct ws_plot_dir *d, const void *chart,
                               struct ws_err *err)
{
    const struct ws_plot_bars *b = chart;
    FILE *fp = ws_plot_fopen(d->script, err);

    if (!fp)
        return -1;
    ws_plot_terminal(fp, d, 900, 500);
    fputs("set title ", fp);
    ws_plot_quote(fp, b->title);
    fputs(" noenhanced\n", fp);
    ws_plot_axis_label(fp, 'x', b->xlabel, NULL);
    ws_plot_axis_label(fp, 'y', b->ylabel, NULL);
    fputs("set key outside noenhanced title ", fp);
    ws_plot_quote(fp, b->key);
    fputs(" noenhanced\nset grid ytics\nset xzeroaxis lt -1 lw 1\n"
          "set style data histograms\nset style histogram clustered\n"
          "set style fill solid 0.8 border -1\nset xtics rotate by -45 "
          "noenhanced\n",
          fp);
    ws_plot_bars_range(fp, b);
    fputs("plot ", fp);
    for (size_t s = 0; s < b->nseries; s++) {
        fputs(s ? ", \\\n     " : "", fp);
        ws_plot_quote(fp, d->data);
        fprintf(fp, " using %zu%s title ", s + 2, s ? "" : ":xtic(1)");
        ws_plot_quote(fp, b->series[s][0] ? b->series[s] : "(empty)");
    }
    fputc('\n', fp);
    if (ws_plot_close(fp, d->script, err) < 0)
        return -1;
    return ws_plot_bars_data(d, b, err);
}

char *ws_plot_bars_svg(const struct ws_plot_bars *b, struct ws_err *err)
{
    if (b->ncats == 0 || b->nseries == 0) {
        ws_err_msg(err, "nothing to draw (expected at least one bar)");
        return NULL;
    }
    return ws_plot_gnuplot(ws_plot_bars_script, b, err);
}

/* ---- the quadrant-split view -------------------------------------------- */

static int ws_plot_quadrant_data(const struct ws_plot_dir *d,
                                 const struct ws_plot_quadrant *q,
                                 struct ws_err *err)
{
    FILE *fp = ws_plot_fopen(d->data, err);

    if (!fp)
        return -1;
    for (size_t i = 0; i < q->n; i++) {
        fprintf(fp, "%.17g %.17g %.17g %.17g ", q->bw[i], q->peak[i],
                q->got_bw[i], q->got_flops[i]);
        ws_plot_data_text(fp, q->names[i]);
        fputc('\n', fp);
    }
    return ws_plot_close(fp, d->data, err);
}

/* Both axes over the peaks and the simulated points alike. */
static void ws_plot_quadrant_axes(FILE *fp, const struct ws_plot_quadrant *q)
{
    double lo[2] = {INFINITY, INFINITY}, hi[2] = {0, 0};

    for (size_t i = 0; i < q->n; i++) {
        const double x[2] = {q->bw[i], q->got_bw[i]};
        const double y[2] = {q->peak[i], q->got_flops[i]};
        for (int k = 0; k < 2; k++) {
            if (x[k] > 0) {
                lo[0] = fmin(lo[0], x[k]);
                hi[0] = fmax(hi[0], x[k]);
            }
            if (y[k] > 0) {
                lo[1] = fmin(lo[1], y[k]);
                hi[1] = fmax(hi[1], y[k]);
            }
        }
    }
    ws_plot_axis(fp, 'x', lo[0], hi[0], 1, 0, NULL, NULL);
    ws_plot_axis(fp, 'y', lo[1], hi[1], 1, 0, NULL, NULL);
}

static int ws_plot_quadrant_script(const struct ws_plot_dir *d,
                                   const void *chart, struct ws_err *err)
{
    const struct ws_plot_quadrant *q = chart;
    FILE *fp = ws_plot_fopen(d->script, err);

    if (!fp)
        return -1;
    ws_plot_terminal(fp, d, 800, 600);
    fputs("set title ", fp);
    ws_plot_quote(fp, q->title);
    fputs(" noenhanced\nset xlabel 'DRAM bandwidth (GB/s)'\n"
          "set ylabel 'operations per second (GFLOP/s)'\n"
          "set grid\nset key top left noenhanced\n"
          "set key title 'GPU peaks and the kernel'\n",
          fp);
    ws_plot_quadrant_axes(fp, q);
    fprintf(fp, "ai = %.17g\nplot ", q->ai);
    ws_plot_quote(fp, d->data);
    fputs(" using 1:2 with points pt 7 ps 1.2 title 'GPU peak (bandwidth, "
          "compute)', \\\n     ",
          fp);
    ws_plot_quote(fp, d->data);
    fputs(" using 1:2:5 with labels offset 1,1 noenhanced notitle, \\\n     ",
          fp);
    ws_plot_quote(fp, d->data);
    fputs(" using 3:4 with points pt 6 ps 1.2 title 'simulated (achieved)', "
          "\\\n     ai * x with lines lw 2 title sprintf('kernel intensity "
          "%.3g op/B: above the line memory bound', ai)\n",
          fp);
    if (ws_plot_close(fp, d->script, err) < 0)
        return -1;
    return ws_plot_quadrant_data(d, q, err);
}

char *ws_plot_quadrant_svg(const struct ws_plot_quadrant *q, struct ws_err *err)
{
    if (q->n == 0 || !(q->ai > 0)) {
        ws_err_msg(err, "nothing to draw (expected GPUs and a kernel with "
                        "operations and DRAM traffic)");
        return NULL;
    }
    return ws_plot_gnuplot(ws_plot_quadrant_script, q, err);
}
