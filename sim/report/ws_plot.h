/*
 * ws_plot: one chart of a results table (a sweep's CSV) drawn by gnuplot
 * as SVG: a column against another, one line per value of a series
 * column, log axes on request.  Only rows whose status column (when the
 * table has one) reads "ok" are drawn; points are sorted by x within each
 * series so lines do not zigzag.
 *
 * gnuplot runs as a child process on temporary files; the SVG comes back
 * as text, so the caller writes it through the safe-output path like any
 * other output.
 *
 * Also a clustered bar chart of named categories (the resource groups of
 * an RSM analysis).
 *
 * Leaves out: styling beyond titles and log scales; other terminals.
 */
#ifndef WS_PLOT_H
#define WS_PLOT_H

#include "util/ws_csv.h"
#include "util/ws_err.h"

struct ws_plot_spec {
    const char *x, *y;  /* column names */
    const char *series; /* column name, or NULL for one line */
    int logx, logy;
    const char *title; /* NULL: "Y against X" */
};

/* Checks that the columns exist and that x and y hold numbers in the rows
 * drawn.  The error is left unplaced (ws_err_msg) for the caller to put at
 * the command-line word or the sweep-file value that named the column. */
int ws_plot_check(const struct ws_csv *t, const struct ws_plot_spec *s,
                  struct ws_err *err);

/* ws_plot_check that also says where to place the error: *which is the
 * spec's string the error is about (s->x, s->y or s->series, the very
 * pointer), or NULL when it is about the table (no row to draw). */
int ws_plot_check_at(const struct ws_csv *t, const struct ws_plot_spec *s,
                     const char **which, struct ws_err *err);

/* The SVG text (malloc'd), or NULL with err set: gnuplot missing or
 * failing (its first error line quoted), or no row to draw. */
char *ws_plot_svg(const struct ws_csv *t, const struct ws_plot_spec *s,
                  struct ws_err *err);

/* A clustered bar chart: ncats categories along x, one bar per series in
 * each (v[cat * nseries + s]), as SVG text (malloc'd) or NULL with err
 * set, as ws_plot_svg. */
char *ws_plot_bars_svg(const char *title, const char *ylabel,
                       const char *const *cats, size_t ncats,
                       const char *const *series, size_t nseries,
                       const double *v, struct ws_err *err);

/* The quadrant-split view (the blog seed, after Konstantinidis &
 * Cotronis): one kernel on several GPUs, each GPU a point at its peak
 * bandwidth and peak operation rate, the kernel's operational intensity a
 * line through the origin (a GPU above it runs the kernel memory bound,
 * below it compute bound), and where the simulation put the kernel on
 * each.  Log-log. */
struct ws_plot_quadrant {
    const char *title;
    const char *const *names; /* per GPU */
    const double *bw, *peak;  /* GB/s, GFLOP/s */
    const double *got_bw, *got_flops;
    size_t n;
    double ai; /* operations per DRAM byte */
};

char *ws_plot_quadrant_svg(const struct ws_plot_quadrant *q,
                           struct ws_err *err);

#endif
