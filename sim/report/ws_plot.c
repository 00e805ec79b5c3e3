/*
 * ws_plot: a results table drawn by gnuplot as SVG (see ws_plot.h).
 *
 * The rows drawn are checked first (numbers, positive on a log axis), so
 * gnuplot is only ever given data it can draw and its failures are
 * warpsim's bugs or a missing program, never bad input.  Column names and
 * series values come from the user: they reach the script only as
 * single-quoted gnuplot strings (no escapes are processed there, a quote
 * is doubled, control characters become blanks) and are shown
 * "noenhanced", so an underscore stays an underscore.
 *
 * gnuplot runs with -d (no ~/.gnuplot), its standard input from /dev/null
 * and its output to a file, in a private folder that is always removed.
 *
 * SIGINT, SIGTERM and SIGHUP are held off while the folder exists.
 *
 * Leaves out: a time limit on gnuplot.
 */
#include "ws_plot.h"

#include "util/ws_clip.h"
#include "util/ws_sighold.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* More lines than this make an unreadable key; a series column with more
 * values is probably the wrong column. */
#define WS_PLOT_MAX_SERIES 64
/* A chart of a few thousand points is well under a megabyte; more than
 * this is gnuplot gone wrong, not a chart to keep. */
#define WS_PLOT_MAX_SVG ((size_t)64 << 20)

/* The spec's columns, resolved; series and status -1 when absent. */
struct ws_plot_cols {
    long x, y, series, status;
};

struct ws_plot_pt {
    size_t series, row;
    double x, y;
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

/* The series of row: its index among the values met so far, added when
 * new.  vals holds up to WS_PLOT_MAX_SERIES cells. */
static int ws_plot_series_of(const struct ws_csv *t, size_t row, long col,
                             const char **vals, size_t *nvals, size_t *idx)
{
    const char *cell = ws_csv_cell(t, row, (size_t)col);

    for (size_t i = 0; i < *nvals; i++) {
        if (strcmp(vals[i], cell) == 0) {
            *idx = i;
            return 0;
        }
    }
    if (*nvals == WS_PLOT_MAX_SERIES)
        return -1;
    vals[*nvals] = cell;
    *idx = (*nvals)++;
    return 0;
}

/* Checks and, when pts is not NULL, collects the points drawn (pts holds
 * t->nrows; vals WS_PLOT_MAX_SERIES). */
static int ws_plot_scan(const struct ws_csv *t, const struct ws_plot_spec *s,
                        const char **which, struct ws_plot_pt *pts,
                        size_t *npts, const char **vals, size_t *nvals,
                        struct ws_err *err)
{
    struct ws_plot_cols c = {-1, -1, -1, ws_csv_col(t, "status")};
    struct ws_clip q;

    *which = NULL;
    *npts = *nvals = 0;
    if (ws_plot_col(t, s->x, &c.x, which, err) < 0
        || ws_plot_col(t, s->y, &c.y, which, err) < 0
        || (s->series && ws_plot_col(t, s->series, &c.series, which, err) < 0))
        return -1;
    for (size_t r = 0; r < t->nrows; r++) {
        struct ws_plot_pt p = {0, r, 0, 0};
        if (!ws_csv_row_ok(t, r))
            continue;
        if (ws_plot_value(t, r, c.x, s->x, s->logx, which, &p.x, err) < 0
            || ws_plot_value(t, r, c.y, s->y, s->logy, which, &p.y, err) < 0)
            return -1;
        if (c.series >= 0
            && ws_plot_series_of(t, r, c.series, vals, nvals, &p.series) < 0) {
            *which = s->series;
            return ws_err_msg(err,
                              "column '%s' has more than %d values "
                              "(expected at most %d series)",
                              ws_clip(&q, s->series), WS_PLOT_MAX_SERIES,
                              WS_PLOT_MAX_SERIES);
        }
        if (pts)
            pts[*npts] = p;
        (*npts)++;
    }
    if (*npts == 0)
        return ws_err_msg(err,
                          "%s has no row%s to draw (expected at least "
                          "one)",
                          t->name, c.status >= 0 ? " with status 'ok'" : "");
    return 0;
}

int ws_plot_check_at(const struct ws_csv *t, const struct ws_plot_spec *s,
                     const char **which, struct ws_err *err)
{
    const char *vals[WS_PLOT_MAX_SERIES];
    size_t npts, nvals;

    return ws_plot_scan(t, s, which, NULL, &npts, vals, &nvals, err);
}

int ws_plot_check(const struct ws_csv *t, const struct ws_plot_spec *s,
                  struct ws_err *err)
{
    const char *which;

    return ws_plot_check_at(t, s, &which, err);
}

/* By series, then x; the row keeps equal points in the table's order. */
static int ws_plot_pt_cmp(const void *a, const void *b)
{
    const struct ws_plot_pt *p = a, *q = b;

    if (p->series != q->series)
        return p->series < q->series ? -1 : 1;
    if (p->x != q->x)
        return p->x < q->x ? -1 : 1;
    return p->row < q->row ? -1 : p->row > q->row;
}

/* The inside of a gnuplot single-quoted string: nothing is escaped there
 * but the quote itself, which is doubled; a line break would end the
 * command. */
static void ws_plot_quote_body(FILE *out, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '\'')
            fputc('\'', out);
        fputc(c < 0x20 || c == 0x7f ? ' ' : c, out);
    }
}

static void ws_plot_quote(FILE *out, const char *s)
{
    fputc('\'', out);
    ws_plot_quote_body(out, s);
    fputc('\'', out);
}

/* The private folder and the files gnuplot reads and writes in it. */
struct ws_plot_dir {
    sigset_t old; /* the signal mask before the folder existed */
    char dir[PATH_MAX];
    char data[PATH_MAX + 16], script[PATH_MAX + 16];
    char svg[PATH_MAX + 16], log[PATH_MAX + 16];
};

static int ws_plot_internal(struct ws_err *err)
{
    if (err->set && !err->placed)
        err->internal = 1;
    return -1;
}

/* SIGINT, SIGTERM and SIGHUP wait while the private folder exists
 * (ws_sighold), so no signal leaves it behind; gnuplot runs with the
 * caller's mask (a Ctrl-C to the process group stops it at once, and the
 * signal reaches warpsim when the folder is gone). */
/* $TMPDIR when it is an absolute path a script can quote, else /tmp. */
static int ws_plot_mkdir(struct ws_plot_dir *d, struct ws_err *err)
{
    const char *base = getenv("TMPDIR");

    if (!base || base[0] != '/' || strlen(base) > PATH_MAX - 64)
        base = "/tmp";
    for (const char *p = base; *p; p++)
        if ((unsigned char)*p < 0x20)
            base = "/tmp";
    snprintf(d->dir, sizeof d->dir, "%s/warpsim-plot-XXXXXX", base);
    ws_sighold(&d->old);
    if (!mkdtemp(d->dir)) {
        ws_sighold_release(&d->old);
        ws_err_msg(err,
                   "cannot create a temporary folder in %s: %s "
                   "(expected a writable $TMPDIR or /tmp)",
                   base, strerror(errno));
        return ws_plot_internal(err);
    }
    snprintf(d->data, sizeof d->data, "%s/data.txt", d->dir);
    snprintf(d->script, sizeof d->script, "%s/plot.gp", d->dir);
    snprintf(d->svg, sizeof d->svg, "%s/plot.svg", d->dir);
    snprintf(d->log, sizeof d->log, "%s/gnuplot.log", d->dir);
    return 0;
}

static void ws_plot_rmdir(const struct ws_plot_dir *d)
{
    unlink(d->data);
    unlink(d->script);
    unlink(d->svg);
    unlink(d->log);
    rmdir(d->dir);
    ws_sighold_release(&d->old);
}

static FILE *ws_plot_fopen(const char *path, struct ws_err *err)
{
    FILE *fp = fopen(path, "w");

    if (!fp) {
        ws_err_msg(err,
                   "cannot create %s: %s (expected a writable "
                   "temporary folder)",
                   path, strerror(errno));
        ws_plot_internal(err);
    }
    return fp;
}

static int ws_plot_close(FILE *fp, const char *path, struct ws_err *err)
{
    if (ferror(fp) | (fclose(fp) != 0)) {
        ws_err_msg(err,
                   "cannot write %s: %s (expected space in the "
                   "temporary folder)",
                   path, strerror(errno));
        return ws_plot_internal(err);
    }
    return 0;
}

/* One data block per series, separated by two blank lines (gnuplot's
 * "index"). */
static int ws_plot_write_data(const struct ws_plot_dir *d,
                              const struct ws_plot_pt *pts, size_t n,
                              struct ws_err *err)
{
    FILE *fp = ws_plot_fopen(d->data, err);

    if (!fp)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && pts[i].series != pts[i - 1].series)
            fputs("\n\n", fp);
        fprintf(fp, "%.17g %.17g\n", pts[i].x, pts[i].y);
    }
    return ws_plot_close(fp, d->data, err);
}

static void ws_plot_labels(FILE *fp, const struct ws_plot_spec *s, int keyed)
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
    fputs(" noenhanced\nset xlabel ", fp);
    ws_plot_quote(fp, s->x);
    fputs(" noenhanced\nset ylabel ", fp);
    ws_plot_quote(fp, s->y);
    fputs(keyed ? " noenhanced\nset key outside noenhanced\n"
                : " noenhanced\nset key off\n",
          fp);
}

static int ws_plot_write_script(const struct ws_plot_dir *d,
                                const struct ws_plot_spec *s,
                                const char *const *vals, size_t nvals,
                                struct ws_err *err)
{
    FILE *fp = ws_plot_fopen(d->script, err);

    if (!fp)
        return -1;
    fputs("set terminal svg size 800,500 dynamic enhanced font 'sans,11'\n"
          "set output ",
          fp);
    ws_plot_quote(fp, d->svg);
    fputc('\n', fp);
    ws_plot_labels(fp, s, nvals > 0);
    fputs("set grid\n", fp);
    if (s->logx)
        fputs("set logscale x\n", fp);
    if (s->logy)
        fputs("set logscale y\n", fp);
    fputs("plot ", fp);
    for (size_t i = 0; i < (nvals ? nvals : 1); i++) {
        fputs(i ? ", \\\n     " : "", fp);
        ws_plot_quote(fp, d->data);
        fprintf(fp, " index %zu using 1:2 with linespoints ", i);
        if (nvals == 0) {
            fputs("notitle", fp);
            continue;
        }
        fputs("title ", fp);
        ws_plot_quote(fp, vals[i][0] ? vals[i] : "(empty)");
    }
    fputc('\n', fp);
    return ws_plot_close(fp, d->script, err);
}

/* The line of gnuplot's output that says what went wrong: the one giving
 * the script's line ('"plot.gp" line 9: ...'), else the first non-blank
 * one. */
static void ws_plot_log_line(const char *path, char *out, size_t size)
{
    FILE *fp = fopen(path, "r");
    char line[512];
    int found = 0;

    snprintf(out, size, "no message");
    while (fp && !found && fgets(line, sizeof line, fp)) {
        const char *p = line + strspn(line, " \t");
        line[strcspn(line, "\r\n")] = '\0';
        found = strstr(p, "\" line ") != NULL;
        if (*p && (found || strcmp(out, "no message") == 0))
            snprintf(out, size, "%s", p);
    }
    if (fp)
        fclose(fp);
}

static int ws_plot_spawn_failed(int rc, struct ws_err *err)
{
    if (rc == ENOENT)
        ws_err_msg(err, "gnuplot is not installed (expected the Debian "
                        "package gnuplot-nox)");
    else
        ws_err_msg(err,
                   "cannot run gnuplot: %s (expected the Debian "
                   "package gnuplot-nox)",
                   strerror(rc));
    return ws_plot_internal(err);
}

/* Runs "gnuplot -d SCRIPT", output and errors to the log file. */
static int ws_plot_run(const struct ws_plot_dir *d, struct ws_err *err)
{
    char *argv[] = {"gnuplot", "-d", (char *)d->script, NULL};
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    char msg[240];
    pid_t pid;
    int rc, status;

    if (posix_spawnattr_init(&at) != 0)
        return ws_err_oom(err);
    if (posix_spawn_file_actions_init(&fa) != 0) {
        posix_spawnattr_destroy(&at);
        return ws_err_oom(err);
    }
    rc = posix_spawnattr_setsigmask(&at, &d->old);
    if (rc == 0)
        rc = posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK);
    if (rc == 0)
        rc = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    if (rc == 0)
        rc = posix_spawn_file_actions_addopen(&fa, 1, d->log,
                                              O_WRONLY | O_CREAT | O_TRUNC,
                                              0600);
    if (rc == 0)
        rc = posix_spawn_file_actions_adddup2(&fa, 1, 2);
    if (rc == 0)
        rc = posix_spawnp(&pid, "gnuplot", &fa, &at, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    if (rc != 0)
        return ws_plot_spawn_failed(rc, err);
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return ws_plot_spawn_failed(errno, err);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    /* A shell-like spawn reports a missing program as status 127. */
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
        return ws_plot_spawn_failed(ENOENT, err);
    ws_plot_log_line(d->log, msg, sizeof msg);
    ws_err_msg(err,
               "gnuplot failed (%s %d): %s (expected it to draw the "
               "chart)",
               WIFEXITED(status) ? "exit status" : "signal",
               WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), msg);
    return ws_plot_internal(err);
}

/* The SVG gnuplot wrote, read whole.  Not through ws_file: the file is
 * not an input, and must not join the set that outputs are checked
 * against. */
static char *ws_plot_read_svg(const char *path, struct ws_err *err)
{
    FILE *fp = fopen(path, "rb");
    char *text = malloc(WS_PLOT_MAX_SVG + 1);
    size_t n = 0;

    if (fp && text)
        n = fread(text, 1, WS_PLOT_MAX_SVG + 1, fp);
    if (fp && text && !ferror(fp) && n > 0 && n <= WS_PLOT_MAX_SVG) {
        fclose(fp);
        text[n] = '\0';
        return text;
    }
    if (!text)
        ws_err_oom(err);
    ws_err_msg(err,
               "gnuplot wrote %s SVG (expected a chart of at most "
               "%zu MiB)",
               n ? "too large an" : "no", WS_PLOT_MAX_SVG >> 20);
    ws_plot_internal(err);
    if (fp)
        fclose(fp);
    free(text);
    return NULL;
}

/* The points to draw, sorted, and the series' values. */
static struct ws_plot_pt *ws_plot_points(const struct ws_csv *t,
                                         const struct ws_plot_spec *s,
                                         const char **vals, size_t *nvals,
                                         size_t *npts, struct ws_err *err)
{
    struct ws_plot_pt *pts = malloc((t->nrows + 1) * sizeof *pts);
    const char *which;

    if (!pts) {
        ws_err_oom(err);
        return NULL;
    }
    if (ws_plot_scan(t, s, &which, pts, npts, vals, nvals, err) < 0) {
        free(pts);
        return NULL;
    }
    qsort(pts, *npts, sizeof *pts, ws_plot_pt_cmp);
    return pts;
}

char *ws_plot_svg(const struct ws_csv *t, const struct ws_plot_spec *s,
                  struct ws_err *err)
{
    const char *vals[WS_PLOT_MAX_SERIES];
    size_t nvals, npts;
    struct ws_plot_pt *pts = ws_plot_points(t, s, vals, &nvals, &npts, err);
    struct ws_plot_dir d;
    char *svg = NULL;

    if (!pts)
        return NULL;
    if (ws_plot_mkdir(&d, err) < 0) {
        free(pts);
        return NULL;
    }
    if (ws_plot_write_data(&d, pts, npts, err) == 0
        && ws_plot_write_script(&d, s, vals, nvals, err) == 0
        && ws_plot_run(&d, err) == 0)
        svg = ws_plot_read_svg(d.svg, err);
    ws_plot_rmdir(&d);
    free(pts);
    return svg;
}

/* ---- bar charts ----------------------------------------------------------- */

static int ws_plot_bars_data(const struct ws_plot_dir *d,
                             const char *const *cats, size_t ncats,
                             size_t nseries, const double *v,
                             struct ws_err *err)
{
    FILE *fp = ws_plot_fopen(d->data, err);

    if (!fp)
        return -1;
    for (size_t c = 0; c < ncats; c++) {
        fputc('"', fp);
        for (const char *p = cats[c]; *p; p++)
            fputc(*p == '"' || (unsigned char)*p < 0x20 ? '_' : *p, fp);
        fputc('"', fp);
        for (size_t s = 0; s < nseries; s++)
            fprintf(fp, " %.17g", v[c * nseries + s]);
        fputc('\n', fp);
    }
    return ws_plot_close(fp, d->data, err);
}

static int ws_plot_bars_script(const struct ws_plot_dir *d, const char *title,
                               const char *ylabel, const char *const *series,
                               size_t nseries, struct ws_err *err)
{
    FILE *fp = ws_plot_fopen(d->script, err);

    if (!fp)
        return -1;
    fputs("set terminal svg size 900,500 dynamic enhanced font 'sans,11'\n"
          "set output ",
          fp);
    ws_plot_quote(fp, d->svg);
    fputs("\nset title ", fp);
    ws_plot_quote(fp, title);
    fputs(" noenhanced\nset ylabel ", fp);
    ws_plot_quote(fp, ylabel);
    fputs(" noenhanced\nset key outside noenhanced\nset grid ytics\n"
          "set style data histograms\nset style histogram clustered\n"
          "set style fill solid 0.8 border -1\nset xtics rotate by -45 "
          "noenhanced\nset yrange [0:*]\nplot ",
          fp);
    for (size_t s = 0; s < nseries; s++) {
        fputs(s ? ", \\\n     " : "", fp);
        ws_plot_quote(fp, d->data);
        fprintf(fp, " using %zu%s title ", s + 2, s ? "" : ":xtic(1)");
        ws_plot_quote(fp, series[s][0] ? series[s] : "(empty)");
    }
    fputc('\n', fp);
    return ws_plot_close(fp, d->script, err);
}

char *ws_plot_bars_svg(const char *title, const char *ylabel,
                       const char *const *cats, size_t ncats,
                       const char *const *series, size_t nseries,
                       const double *v, struct ws_err *err)
{
    struct ws_plot_dir d;
    char *svg = NULL;

    if (ncats == 0 || nseries == 0) {
        ws_err_msg(err, "nothing to draw (expected at least one bar)");
        return NULL;
    }
    if (ws_plot_mkdir(&d, err) < 0)
        return NULL;
    if (ws_plot_bars_data(&d, cats, ncats, nseries, v, err) == 0
        && ws_plot_bars_script(&d, title, ylabel, series, nseries, err) == 0
        && ws_plot_run(&d, err) == 0)
        svg = ws_plot_read_svg(d.svg, err);
    ws_plot_rmdir(&d);
    return svg;
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
        fprintf(fp, "%.17g %.17g %.17g %.17g \"", q->bw[i], q->peak[i],
                q->got_bw[i], q->got_flops[i]);
        for (const char *p = q->names[i]; *p; p++)
            fputc(*p == '"' || (unsigned char)*p < 0x20 ? '_' : *p, fp);
        fputs("\"\n", fp);
    }
    return ws_plot_close(fp, d->data, err);
}

static int ws_plot_quadrant_script(const struct ws_plot_dir *d,
                                   const struct ws_plot_quadrant *q,
                                   struct ws_err *err)
{
    FILE *fp = ws_plot_fopen(d->script, err);

    if (!fp)
        return -1;
    fputs("set terminal svg size 800,600 dynamic enhanced font 'sans,11'\n"
          "set output ",
          fp);
    ws_plot_quote(fp, d->svg);
    fputs("\nset title ", fp);
    ws_plot_quote(fp, q->title);
    fputs(" noenhanced\nset xlabel 'DRAM bandwidth (GB/s)'\n"
          "set ylabel 'operations per second (GFLOP/s)'\n"
          "set logscale xy\nset grid\nset key top left noenhanced\n"
          "set key title 'GPU peaks and the kernel'\n",
          fp);
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
    return ws_plot_close(fp, d->script, err);
}

char *ws_plot_quadrant_svg(const struct ws_plot_quadrant *q, struct ws_err *err)
{
    struct ws_plot_dir d;
    char *svg = NULL;

    if (q->n == 0 || !(q->ai > 0)) {
        ws_err_msg(err, "nothing to draw (expected GPUs and a kernel with "
                        "operations and DRAM traffic)");
        return NULL;
    }
    if (ws_plot_mkdir(&d, err) < 0)
        return NULL;
    if (ws_plot_quadrant_data(&d, q, err) == 0
        && ws_plot_quadrant_script(&d, q, err) == 0
        && ws_plot_run(&d, err) == 0)
        svg = ws_plot_read_svg(d.svg, err);
    ws_plot_rmdir(&d);
    return svg;
}
