/*
 * ws_plot: charts drawn by gnuplot as SVG.
 *
 * One chart of a results table (a sweep's CSV, ws_plot_table.c): a
 * column against another, one line per value of a series column and, in
 * a table of runs, per kernel; log axes on request.  Only rows whose
 * status column (when the table has one) reads "ok" are drawn; points are
 * sorted by x within each line so lines do not zigzag.  A parity chart
 * (simulated against measured) is the same table drawn as points beside
 * the line y = x.
 *
 * A clustered bar chart of named categories, and the quadrant-split view
 * (ws_plot_bars.c).  Every chart names its axes with their units where
 * the column says them, titles its key, and gives log axes ticks a reader
 * can place (ws_plot_axes.c).
 *
 * gnuplot runs as a child process on temporary files (ws_plot.c, the
 * driver the charts share, the roofline's included); the SVG comes back
 * as text, so the caller writes it through the safe-output path like any
 * other output.
 *
 * Leaves out: styling beyond titles, units and log scales; other
 * terminals.
 */
#ifndef WS_PLOT_H
#define WS_PLOT_H

#include <limits.h>
#include <signal.h>
#include <stdio.h>

#include "util/ws_csv.h"
#include "util/ws_err.h"

struct ws_plot_spec {
    const char *x, *y;  /* column names */
    const char *series; /* column name, or NULL for one line */
    int logx, logy;
    const char *title; /* NULL: "Y against X" */
    /* A table of runs (a sweep's results): one line per kernel (column
     * kernel_id, named by column kernel) within each series when the rows
     * drawn hold more than one kernel, so that no line joins two kernels'
     * points.  A table without kernel_id draws as without it. */
    int by_kernel;
    /* Simulated (y) against measured (x): points only, never joined, and
     * the line y = x, over one range shared by both axes. */
    int parity;
    /* The axes' labels, NULL: the column's name and its unit where the
     * name says it (ws_plot_unit); the key's title, NULL: the series
     * column's name (and "kernel" when lines are split by kernel). */
    const char *xlabel, *ylabel, *key;
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
 * each (v[cat * nseries + s]), each bar from 0 up or down to its value
 * (the y range covers every value and 0). */
struct ws_plot_bars {
    const char *title;
    const char *xlabel, *ylabel; /* with their units */
    const char *key;             /* what the series are */
    const char *const *cats;
    size_t ncats;
    const char *const *series;
    size_t nseries;
    const double *v;
};

/* The SVG text (malloc'd) or NULL with err set, as ws_plot_svg. */
char *ws_plot_bars_svg(const struct ws_plot_bars *b, struct ws_err *err);

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

/* ---- the driver every chart uses (ws_plot.c) ------------------------------ */

/* The private folder a chart is drawn in, and the files gnuplot reads and
 * writes there; SIGINT, SIGTERM and SIGHUP wait while it exists. */
struct ws_plot_dir {
    sigset_t old; /* the signal mask before the folder existed */
    char dir[PATH_MAX];
    char data[PATH_MAX + 16], script[PATH_MAX + 16];
    char svg[PATH_MAX + 16], log[PATH_MAX + 16];
};

/* Writes a chart's data (d->data) and script (d->script, which opens with
 * ws_plot_terminal) from chart, the caller's description of it. */
typedef int (*ws_plot_write_fn)(const struct ws_plot_dir *d, const void *chart,
                                struct ws_err *err);

/* Makes the folder, has write fill it, runs gnuplot on the script and
 * returns the SVG it drew (malloc'd), the folder removed whatever
 * happened; NULL with err set. */
char *ws_plot_gnuplot(ws_plot_write_fn write, const void *chart,
                      struct ws_err *err);

/* fopen for writing in the folder, and its fclose; errors are internal
 * (not the input's fault). */
FILE *ws_plot_fopen(const char *path, struct ws_err *err);
int ws_plot_close(FILE *fp, const char *path, struct ws_err *err);

/* s as a gnuplot single-quoted string (with, or only the inside of it,
 * body): a quote doubled, control characters blanks.  Text from users
 * reaches a script only this way, and is shown "noenhanced". */
void ws_plot_quote(FILE *out, const char *s);
void ws_plot_quote_body(FILE *out, const char *s);

/* s as a double-quoted field of a data file: quotes and control
 * characters become '_' (gnuplot reads no escapes there). */
void ws_plot_data_text(FILE *out, const char *s);

/* The script's first lines: an SVG of width x height pixels into
 * d->svg, UTF-8 text. */
void ws_plot_terminal(FILE *fp, const struct ws_plot_dir *d, int width,
                      int height);

/* ---- axes, units and numbers (ws_plot_axes.c) ----------------------------- */

/* The unit of a results column, from its name: "cycles" for cycles and
 * model predictions (*_cycles), "%" for *_pct, "GB/s", "µs", "bytes"...;
 * a counter's (stats/ws_stats.h) for a counter; a config key's base unit
 * for the key or a sweep's "set.KEY" axis.  NULL when the name does not
 * say (a workload parameter, a name). */
const char *ws_plot_unit(const char *column);

/* v as a person writes it on an axis or in a key: "3 MiB" in bytes,
 * "1.5k", "2M", "0.25" otherwise (4 significant digits at most). */
void ws_plot_num_text(char *buf, size_t size, double v, int bytes);

/* "set {x,y}label 'TEXT (UNIT)'": unit NULL, empty or TEXT itself
 * ("cycles") leaves it out. */
void ws_plot_axis_label(FILE *fp, char axis, const char *text,
                        const char *unit);

/* One axis' scale, range and ticks over data from lo to hi.  Log: the
 * range a little wider than the data, labelled ticks at powers of two
 * (pow2: every value is one, or the unit is bytes) or at 1, 2, 5 (or
 * every digit, in a narrow range) times powers of ten, unlabelled minor
 * ticks between.  Linear in bytes: ticks at multiples of a power of two,
 * labelled with binary prefixes.  Otherwise gnuplot's own ticks.  The
 * range set goes into range[0..1] when range is not NULL (lo and hi when
 * gnuplot chooses it). */
void ws_plot_axis(FILE *fp, char axis, double lo, double hi, int log, int pow2,
                  const char *unit, double *range);

#endif
