/*
 * ws_sweep_extras: what `warpsim sweep` writes beside its results (the
 * plots a sweep file names, the --report summary) and what --dry-run
 * prints.  Plots and the report are checked before any point runs, so a
 * name that would overwrite the results or an input is refused up front;
 * drawing them at the end can only warn.
 *
 * Leaves out: drawing and summarising themselves (sweep/ws_plot,
 * sweep/ws_sweep_report).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "stats/ws_report.h"
#include "sweep/ws_plot.h"
#include "sweep/ws_sweep_report.h"
#include "sweep/ws_sweep_rows.h"
#include "util/ws_readset.h"
#include "ws_sweep_cli.h"

/* path's folder joined with name. */
static char *ws_sweep_beside(const char *path, const char *name)
{
    const char *slash = strrchr(path, '/');
    size_t d = slash ? (size_t)(slash - path) + 1 : 0;
    char *out = malloc(d + strlen(name) + 1);

    if (out) {
        memcpy(out, path, d);
        strcpy(out + d, name);
    }
    return out;
}

/* The report: the results file's name with .md for .csv. */
static char *ws_sweep_report_path(const char *out)
{
    size_t n = strlen(out);
    char *path = malloc(n + 4);

    if (path) {
        memcpy(path, out, n + 1);
        if (n > 4 && strcmp(path + n - 4, ".csv") == 0)
            path[n - 4] = '\0';
        strcat(path, ".md");
    }
    return path;
}

/* 1 when the file st describes is one of the sweep's inputs or a file
 * read so far. */
static int ws_sweep_is_input(const struct ws_sweep_run *r,
                             const struct stat *st)
{
    const char *inputs[4] = {r->s.path, r->s.input, r->s.gpu, r->s.listing};
    struct stat si;

    if (ws_readset_has(st))
        return 1;
    for (int i = 0; i < 4; i++)
        if (inputs[i] && stat(inputs[i], &si) == 0
            && si.st_dev == st->st_dev && si.st_ino == st->st_ino)
            return 1;
    for (size_t i = 0; i < r->s.naxes; i++)
        for (size_t j = 0; r->s.axes[i].kind == WS_AXIS_GPU
                           && j < r->s.axes[i].nvalues; j++)
            if (stat(r->s.axes[i].values[j].assign, &si) == 0
                && si.st_dev == st->st_dev && si.st_ino == st->st_ino)
                return 1;
    return 0;
}

/* What is wrong with writing an extra (a plot, the report) at path beside
 * the results, or NULL: drawn once every point has run, it must not
 * replace an input, the results or an extra written before it. */
static const char *ws_sweep_extra_clash(const struct ws_sweep_run *r,
                                        const char *path,
                                        const char *const *before, size_t n)
{
    struct stat st;

    if (strcmp(path, r->out) == 0)
        return "is the results file";
    for (size_t i = 0; i < n; i++)
        if (before[i] && strcmp(path, before[i]) == 0)
            return "is written twice, by two plots or a plot and the report";
    if (stat(path, &st) != 0)
        return NULL;
    if (S_ISDIR(st.st_mode))
        return "is a folder";
    return ws_sweep_is_input(r, &st) ? "is an input of the sweep" : NULL;
}

/* The plots' files and the report's, checked before any point runs; a
 * plot's error is placed at its entry in the sweep file, the report's at
 * the word that named the results file. */
int ws_sweep_check_extras(const struct ws_sweep_run *r,
                                 const struct ws_sweep_args *a,
                                 struct ws_err *err)
{
    char **paths = calloc(r->s.nplots + 1, sizeof *paths);
    const char *why = NULL;
    size_t i = 0;
    int rc = 0;

    if (!paths)
        return ws_err_oom(err);
    if (a->report && !(paths[0] = ws_sweep_report_path(r->out)))
        rc = ws_err_oom(err);
    if (rc == 0 && paths[0]
        && (why = ws_sweep_extra_clash(r, paths[0], NULL, 0)))
        rc = ws_err_arg(err, a->out ? a->out : a->file, 0, 0, "--report "
                        "%s: %s (expected a results file whose .md name is "
                        "free; choose another -o)", paths[0], why);
    for (; rc == 0 && i < r->s.nplots; i++) {
        const struct ws_sweep_plot *p = &r->s.plots[i];
        if (!(paths[i + 1] = ws_sweep_beside(r->out, p->file)))
            rc = ws_err_oom(err);
        else if ((why = ws_sweep_extra_clash(r, paths[i + 1],
                                             (const char *const *)paths,
                                             i + 1)))
            rc = ws_err_at(err, r->s.path, p->line, p->col, "plot file "
                           "'%s' %s (expected a name of its own)", p->file,
                           why);
    }
    for (size_t k = 0; k <= r->s.nplots; k++)
        free(paths[k]);
    free(paths);
    return rc;
}

/* Plots and the report are extras: a failure to draw is a warning, the
 * results are already safe. */
void ws_sweep_extras(struct ws_sweep_run *r, const struct ws_csv *t,
                            const struct ws_sweep_args *a)
{
    const char *axes[WS_SWEEP_MAX_AXES];
    size_t dims[WS_SWEEP_MAX_AXES];
    struct ws_err err;

    for (size_t i = 0; i < r->s.nplots; i++) {
        const struct ws_sweep_plot *p = &r->s.plots[i];
        struct ws_plot_spec spec = {p->x, p->y, p->series, p->logx, p->logy,
                                    p->title};
        char *svg, *path = ws_sweep_beside(r->out, p->file);
        ws_err_clear(&err);
        svg = path && ws_plot_check(t, &spec, &err) == 0
            ? ws_plot_svg(t, &spec, &err) : NULL;
        if (svg && ws_sweep_replace(path, svg, &err) == 0)
            printf("plot: %s\n", path);
        else
            fprintf(stderr, "warpsim sweep: plot %s not drawn: %s\n",
                    p->file, err.set ? err.text : "out of memory");
        free(svg);
        free(path);
    }
    if (!a->report)
        return;
    for (size_t i = 0; i < r->s.naxes; i++) {
        axes[i] = r->s.axes[i].name;
        dims[i] = r->s.axes[i].dim;
    }
    {
        char *md, *path = ws_sweep_report_path(r->out);
        ws_err_clear(&err);
        md = path ? ws_sweep_report(t, axes, dims, r->s.naxes,
                                     r->s.target, &err)
                  : NULL;
        if (md && ws_sweep_replace(path, md, &err) == 0)
            printf("report: %s\n", path);
        else
            fprintf(stderr, "warpsim sweep: report not written: %s\n",
                    err.set ? err.text : "out of memory");
        free(md);
        free(path);
    }
}

/* ---- dry run ---------------------------------------------------------- */

void ws_sweep_list(const struct ws_sweep_run *r)
{
    struct ws_sweep_point p;

    printf("point,key,state");
    for (size_t i = 0; i < r->s.naxes; i++) {
        putchar(',');
        ws_csv_put(stdout, r->s.axes[i].name);
    }
    putchar('\n');
    for (size_t i = 0; i < r->s.npoints; i++) {
        if (!r->mine[i])
            continue;
        ws_sweep_point_get(&r->s, i, &p);
        printf("%zu,%s,%s", i, r->keys[i], r->done[i] ? "done"
               : r->why[i] ? "fails" : "to run");
        for (size_t k = 0; k < r->s.naxes; k++) {
            putchar(',');
            ws_csv_put(stdout, r->s.axes[k].values[p.value[k]].cell);
        }
        putchar('\n');
    }
}

/* What a dry run reads from an existing results file, without changing it. */
int ws_sweep_peek(struct ws_sweep_run *r, struct ws_err *err)
{
    struct ws_csv t;
    size_t stale;
    struct stat st;

    if (stat(r->out, &st) < 0 || st.st_size == 0)
        return 0;
    if (ws_csv_load(&t, r->out, 1, 1, err) < 0)
        return -1;
    if (t.ncols && ws_sweep_check_header(&t, r->header, err) < 0) {
        ws_csv_free(&t);
        return -1;
    }
    if (t.ncols)
        ws_sweep_resume_scan(&t, &r->s, r->keys, r->done, &stale);
    ws_csv_free(&t);
    return 0;
}

