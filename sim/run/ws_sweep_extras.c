/*
 * ws_sweep_extras: what a sweep (ws_sweep_run) writes beside its results (the
 * plots a sweep file names, the --report summary) and what --dry-run
 * prints.  Plots and the report are checked before any point runs, so a
 * name that would overwrite the results or an input is refused up front;
 * drawing them at the end can only warn.
 *
 * Leaves out: drawing and summarising themselves (report/ws_plot,
 * report/ws_sweep_report).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report/ws_report.h"
#include "report/ws_plot.h"
#include "report/ws_sweep_report.h"
#include "sweep/ws_sweep_rows.h"
#include "util/ws_readset.h"
#include "ws_sweep_internal.h"

char *ws_sweep_beside(const char *path, const char *name)
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

/* Plans outs[0..nouts) against the sweep's input files, under
 * ws_output's rules: links followed, read-only files, folders, inputs and
 * two outputs on one file refused, each folder tried.  A plot's error is
 * placed at its entry in the sweep file, the report's at the word that
 * named the results file. */
static int ws_sweep_plan_outs(const struct ws_sweep_state *r,
                              struct ws_output *outs, size_t nouts,
                              struct ws_err *err)
{
    size_t n;
    const char **inputs = ws_sweep_input_files(&r->s, &n);
    int rc;

    if (!inputs)
        return ws_err_oom(err);
    for (size_t i = 0; i < nouts; i++)
        ws_output_free(&outs[i]);
    rc = ws_output_plan(outs, (int)nouts, inputs, (int)n, err);
    free(inputs);
    return rc;
}

int ws_sweep_check_extras(struct ws_sweep_state *r, struct ws_err *err)
{
    size_t n = r->s.nplots + 1;

    /* extra_outs[0] is the results file, the extras follow it. */
    r->extra_outs = calloc(n + 1, sizeof *r->extra_outs);
    r->extra_paths = calloc(n, sizeof *r->extra_paths);
    if (!r->extra_outs || !r->extra_paths)
        return ws_err_oom(err);
    r->extra_outs[0] = (struct ws_output){.path = r->out,
                                          .flag = "--output",
                                          .named = r->out_named};
    for (size_t i = 0; i < r->s.nplots; i++) {
        const struct ws_sweep_plot *p = &r->s.plots[i];
        if (!(r->extra_paths[i] = ws_sweep_beside(r->out, p->file)))
            return ws_err_oom(err);
        r->extra_outs[i + 1] = (struct ws_output){.path = r->extra_paths[i],
                                                  .flag = "plot file",
                                                  .at_file = r->s.path,
                                                  .at_line = p->line,
                                                  .at_col = p->col};
    }
    r->nextras = r->s.nplots;
    if (r->rq->report) {
        if (!(r->extra_paths[r->nextras] = ws_sweep_report_path(r->out)))
            return ws_err_oom(err);
        r->extra_outs[r->nextras + 1] =
            (struct ws_output){.path = r->extra_paths[r->nextras],
                               .flag = "--report",
                               .named = r->out_named};
        r->nextras++;
    }
    return ws_sweep_plan_outs(r, r->extra_outs, r->nextras + 1, err);
}

void ws_sweep_extras_free(struct ws_sweep_state *r)
{
    for (size_t i = 0; r->extra_outs && i <= r->nextras; i++)
        ws_output_free(&r->extra_outs[i]);
    for (size_t i = 0; r->extra_paths && i <= r->s.nplots; i++)
        free(r->extra_paths[i]);
    free(r->extra_outs);
    free(r->extra_paths);
    r->extra_outs = NULL;
    r->extra_paths = NULL;
    r->nextras = 0;
}

/* Writes one extra, planned again first (alone: one bad name must not
 * cost the others): hours may have passed since the first plan, and the
 * rules hold at the moment of writing. */
static int ws_sweep_write_extra(struct ws_sweep_state *r, struct ws_output *o,
                                const char *text, struct ws_err *err)
{
    if (ws_sweep_plan_outs(r, o, 1, err) < 0)
        return -1;
    return ws_output_write(o, text, err);
}

/* One extra drawn (NULL: a warning says why, the results are safe) and
 * written; a write that fails is the command's failure, kept in err (the
 * first one) while the other extras are still written. */
static void ws_sweep_put_extra(struct ws_sweep_state *r, struct ws_output *o,
                               const char *what, char *text,
                               struct ws_err *draw, struct ws_err *err)
{
    struct ws_err e;

    if (!text) {
        fprintf(stderr, "warpsim sweep: %s not drawn: %s\n", what,
                draw->set ? draw->text : "out of memory");
        return;
    }
    ws_err_clear(&e);
    if (ws_sweep_write_extra(r, o, text, &e) == 0)
        ws_sweep_say(r->rq->say, "%s: %s\n",
                     strncmp(what, "plot", 4) == 0 ? "plot" : "report",
                     o->path);
    else if (!err->set)
        *err = e;
    free(text);
}

int ws_sweep_extras(struct ws_sweep_state *r, const struct ws_csv *t,
                    struct ws_err *err)
{
    const char *axes[WS_SWEEP_MAX_AXES];
    size_t dims[WS_SWEEP_MAX_AXES];
    struct ws_err draw;
    char what[WS_ERR_TEXT];

    for (size_t i = 0; i < r->s.nplots; i++) {
        const struct ws_sweep_plot *p = &r->s.plots[i];
        /* A point of a multi-kernel trace is a row per kernel: a line
         * per kernel, never one through them all. */
        struct ws_plot_spec spec = {.x = p->x,
                                    .y = p->y,
                                    .series = p->series,
                                    .logx = p->logx,
                                    .logy = p->logy,
                                    .title = p->title,
                                    .by_kernel = 1};
        char *svg;
        ws_err_clear(&draw);
        svg = ws_plot_check(t, &spec, &draw) == 0 ? ws_plot_svg(t, &spec, &draw)
                                                  : NULL;
        snprintf(what, sizeof what, "plot %s", p->file);
        ws_sweep_put_extra(r, &r->extra_outs[i + 1], what, svg, &draw, err);
    }
    if (r->rq->report) {
        for (size_t i = 0; i < r->s.naxes; i++) {
            axes[i] = r->s.axes[i].name;
            dims[i] = r->s.axes[i].dim;
        }
        ws_err_clear(&draw);
        ws_sweep_put_extra(r, &r->extra_outs[r->nextras], "report",
                           ws_sweep_report(t, axes, dims, r->s.naxes,
                                           r->s.target, &draw),
                           &draw, err);
    }
    return err->set ? -1 : 0;
}

/* ---- dry run ---------------------------------------------------------- */

void ws_sweep_list(const struct ws_sweep_state *r, FILE *fp)
{
    struct ws_sweep_point p;

    if (!fp)
        return;
    fprintf(fp, "point,key,state");
    for (size_t i = 0; i < r->s.naxes; i++) {
        fputc(',', fp);
        ws_csv_put(fp, r->s.axes[i].name);
    }
    fputc('\n', fp);
    for (size_t i = 0; i < r->s.npoints; i++) {
        if (!r->mine[i])
            continue;
        ws_sweep_point_get(&r->s, i, &p);
        fprintf(fp, "%zu,%s,%s", i, r->keys[i],
                r->done[i]  ? "done"
                : r->why[i] ? "fails"
                            : "to run");
        for (size_t k = 0; k < r->s.naxes; k++) {
            fputc(',', fp);
            ws_csv_put(fp, r->s.axes[k].values[p.value[k]].cell);
        }
        fputc('\n', fp);
    }
}
