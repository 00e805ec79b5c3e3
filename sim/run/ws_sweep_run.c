/*
 * ws_sweep_run: a sweep as one call (ws_sweep_run.h): the file loaded and
 * checked, every point keyed, the outputs planned, the points run in
 * worker processes (sweep/ws_sweep_pool) into the locked results file,
 * which is then sorted, and the plots and report written beside it.
 *
 * Leaves out: the results file on disk (ws_sweep_results.c), the plots,
 * the report and the dry run's listing (ws_sweep_extras.c), what a point
 * computes (ws_run_engine), options and exit statuses (cli/cmd_sweep.c).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input/ws_input.h"
#include "sweep/ws_sweep.h"
#include "sweep/ws_sweep_pool.h"
#include "sweep/ws_sweep_rows.h"
#include "sweep/ws_sweep_table.h"
#include "timing/ws_probe.h"
#include "util/ws_output.h"
#include "ws_run_engine.h"
#include "ws_sweep_internal.h"

/* Failures listed in the closing summary; the file has them all. */
#define WS_SWEEP_SHOW_FAILED 5

void ws_sweep_say(FILE *fp, const char *fmt, ...)
{
    va_list ap;

    if (!fp)
        return;
    va_start(ap, fmt);
    vfprintf(fp, fmt, ap);
    va_end(ap);
}

void ws_sweep_request_init(struct ws_sweep_request *rq)
{
    memset(rq, 0, sizeof *rq);
    rq->array_index = rq->array_size = -1;
    ws_trace_opts_default(&rq->topts);
}

/* ---- preparing -------------------------------------------------------- */

static int ws_sweep_alloc(struct ws_sweep_state *r, struct ws_err *err)
{
    size_t n = r->s.npoints;

    r->keys = calloc(n, sizeof *r->keys);
    r->why = calloc(n, sizeof *r->why);
    r->done = calloc(n, 1);
    r->mine = calloc(n, 1);
    r->header = ws_sweep_header(&r->s);
    if (!r->keys || !r->why || !r->done || !r->mine || !r->header)
        return ws_err_oom(err);
    return 0;
}

/* Where two points differ: the first axis whose values differ, at the
 * later point's value. */
static int ws_sweep_same_points(const struct ws_sweep_state *r, size_t i,
                                size_t j, struct ws_err *err)
{
    struct ws_sweep_point p, q;

    ws_sweep_point_get(&r->s, i, &p);
    ws_sweep_point_get(&r->s, j, &q);
    for (size_t k = 0; k < r->s.naxes; k++) {
        const struct ws_axis_value *v = &r->s.axes[k].values[q.value[k]];
        if (p.value[k] == q.value[k])
            continue;
        return ws_err_at(err, r->s.path, v->line, v->col,
                         "'%s' makes point "
                         "%zu the same point as %zu, with '%s' (expected "
                         "values that make distinct points: same config, "
                         "input and parameters)",
                         v->cell, j, i, r->s.axes[k].values[p.value[k]].cell);
    }
    return ws_err_at(err, r->s.path, 1, 1,
                     "points %zu and %zu are the same "
                     "point (expected distinct points)",
                     i, j);
}

/* The sweep's identity, its rows' sweep cell: every key, in order, so a
 * share of this sweep and a share of any other (a value added, an input
 * edited) never pass for each other.  Two points with one key would hold
 * each other's rows: refused. */
static int ws_sweep_identify(struct ws_sweep_state *r, struct ws_err *err)
{
    size_t a, b;
    int alike;

    ws_sweep_id_of(r->keys, r->s.npoints, r->sweep_id);
    alike = ws_sweep_keys_alike(r->keys, r->s.npoints, &a, &b);
    if (alike < 0)
        return ws_err_oom(err);
    return alike ? ws_sweep_same_points(r, a, b, err) : 0;
}

/* Keys of every point, early failures of this share's.  Every share keys
 * every point (about 0.4 ms each): a share resumes from a file that holds
 * other shares' rows, and writes the sweep's identity. */
static int ws_sweep_prepare_all(struct ws_sweep_state *r,
                                const struct ws_sweep_request *rq,
                                struct ws_err *err)
{
    for (size_t i = 0; i < r->s.npoints; i++) {
        r->mine[i] = rq->array_size < 0
                     || ws_sweep_in_share(i, (size_t)rq->array_index,
                                          (size_t)rq->array_size);
        if (ws_sweep_prepare(&r->ctx, i, r->keys[i], &r->why[i], err) < 0)
            return -1;
        if (!r->mine[i]) {
            free(r->why[i]);
            r->why[i] = NULL;
        }
    }
    return ws_sweep_identify(r, err);
}

/* A plot may name any column the results will have. */
static int ws_sweep_check_plots(const struct ws_sweep_state *r,
                                struct ws_err *err)
{
    struct ws_csv h;
    int rc = 0;

    if (ws_csv_parse(&h, "header", r->header, strlen(r->header), 0, 0, err) < 0)
        return -1;
    for (size_t i = 0; rc == 0 && i < r->s.nplots; i++) {
        const struct ws_sweep_plot *p = &r->s.plots[i];
        const char *names[3] = {p->x, p->y, p->series};
        for (int k = 0; rc == 0 && k < 3; k++)
            if (names[k] && ws_csv_col(&h, names[k]) < 0)
                rc = ws_err_at(err, r->s.path, p->line, p->col,
                               "plot names "
                               "column '%s', which the results do not have "
                               "(expected an axis, cycles, a counter or "
                               "MODEL_cycles)",
                               names[k]);
    }
    /* Found only once every point has run, a typo would cost the report. */
    if (rc == 0 && ws_csv_col(&h, r->s.target) < 0)
        rc = ws_err_at(err, r->s.path, r->s.target_line, r->s.target_col,
                       "report target names column '%s', which the results "
                       "do not have (expected an axis, cycles, a counter or "
                       "MODEL_cycles)",
                       r->s.target);
    ws_csv_free(&h);
    return rc;
}

/* The default results file: the sweep file's name, .csv, here; a share
 * gets its number in the name. */
static char *ws_sweep_default_out(const struct ws_sweep_request *rq)
{
    const char *base = strrchr(rq->file, '/');
    size_t n;
    char *out;

    base = base ? base + 1 : rq->file;
    n = strlen(base);
    if (n > 5 && strcmp(base + n - 5, ".yaml") == 0)
        n -= 5;
    else if (n > 4 && strcmp(base + n - 4, ".yml") == 0)
        n -= 4;
    out = malloc(n + 64);
    if (!out)
        return NULL;
    if (rq->array_size > 0)
        snprintf(out, n + 64, "%.*s.share-%ld-of-%ld.csv", (int)n, base,
                 rq->array_index, rq->array_size);
    else
        snprintf(out, n + 64, "%.*s.csv", (int)n, base);
    return out;
}

/* The results file must be a file warpsim may rewrite, and no input.  An
 * error is placed at the word naming it: -o's, else FILE's (the default
 * name comes from it). */
static int ws_sweep_plan_out(struct ws_sweep_state *r, const char *path,
                             const char *named, struct ws_err *err)
{
    struct ws_output o = {.path = path, .flag = "--output", .named = named};
    size_t n;
    const char **inputs = ws_sweep_input_files(&r->s, &n);
    int rc;

    if (!inputs)
        return ws_err_oom(err);
    rc = ws_output_plan(&o, 1, inputs, (int)n, err);

    if (rc == 0 && (o.stream || o.inplace))
        rc = ws_err_arg(err, named, 0, 0,
                        "--output %s: is not a regular "
                        "file (expected a file: a sweep appends to its "
                        "results and reads them back)",
                        path);
    if (rc == 0 && !(r->out = strdup(o.real)))
        rc = ws_err_oom(err);
    r->out_named = named;
    ws_output_free(&o);
    free(inputs);
    return rc;
}

/* ---- one parse for every point ----------------------------------------- */

/* A text trace is packed once for the whole sweep, and every point's
 * worker maps the pack instead of parsing the text again.  The pack is
 * unlinked as soon as it is written and the workers reach it through
 * /proc/self/fd (they are forks: the descriptor is theirs too), so no
 * way of ending the sweep, kill -9 included, leaves it behind.  Keys still
 * hash the text's files: a point is the same point packed or not.  Where
 * /proc is missing, points read the text. */
static int ws_sweep_pack_input(struct ws_sweep_state *r, struct ws_err *err)
{
    const char *tmpdir = getenv("TMPDIR");
    struct ws_input_params ip = {NULL, 0, NULL, 0, r->ctx.topts};
    struct ws_input *in;
    char name[4096];
    FILE *fp;
    int rc, fd;

    if (access("/proc/self/fd", X_OK) != 0)
        return 0;
    if (ws_input_open(&in, r->s.input, &ip, err) < 0)
        return -1;
    if (!ws_input_can_pack(in) || ws_input_is_packed(in)) {
        ws_input_close(in);
        return 0;
    }
    snprintf(name, sizeof name, "%s/warpsim-sweep-XXXXXX",
             tmpdir && *tmpdir ? tmpdir : "/tmp");
    fd = mkstemp(name);
    if (fd < 0 || !(fp = fdopen(dup(fd), "w+b"))) {
        if (fd >= 0)
            close(fd), unlink(name);
        ws_input_close(in);
        return 0; /* no room to pack: points read the text */
    }
    unlink(name);
    rc = ws_input_pack(in, fp, r->s.input, err);
    if (fclose(fp) != 0 && rc == 0) {
        rc = ws_err_msg(err, "%s: cannot write the packed trace: %s", name,
                        strerror(errno));
        err->internal = 1;
    }
    ws_input_close(in);
    if (rc < 0) {
        close(fd);
        if (!err->internal)
            return -1; /* the trace's fault: a point would say it too */
        /* No room to pack (a full TMPDIR, a file size limit): the pack
         * writer's error names the trace, which is not at fault, so the
         * points read the text as where mkstemp fails. */
        ws_err_clear(err);
        return 0;
    }
    r->pack_fd = fd;
    snprintf(r->pack_path, sizeof r->pack_path, "/proc/self/fd/%d", fd);
    r->ctx.run_input = r->pack_path;
    return 0;
}

/* A point's error at the pack's path is at the trace's. */
static void ws_sweep_unpack_error(const struct ws_sweep_state *r,
                                  struct ws_err *err)
{
    size_t n = strlen(r->pack_path);
    char text[WS_ERR_TEXT];

    if (!r->ctx.run_input || strncmp(err->text, r->pack_path, n) != 0)
        return;
    snprintf(text, sizeof text, "%s%s", r->s.input, err->text + n);
    snprintf(err->text, sizeof err->text, "%s", text);
}

/* ---- running ---------------------------------------------------------- */

static char *ws_sweep_run_point(void *ctx, size_t index, struct ws_err *err)
{
    struct ws_sweep_state *r = ctx;
    struct ws_sweep_point *p = calloc(1, sizeof *p);
    struct ws_gpu *gpu = calloc(1, sizeof *gpu);
    struct ws_run_report rep;
    struct ws_input *in = NULL;
    char *rows = NULL;

    memset(&rep, 0, sizeof rep);
    if (!p || !gpu) {
        ws_err_oom(err);
    } else {
        ws_sweep_point_get(&r->s, index, p);
        if (ws_sweep_open_point(&r->ctx, p, gpu, &in, err) == 0) {
            ws_probe_model_or_estimate(gpu);
            rep.input = r->s.input;
            rep.gpu = gpu;
            rep.ext = &r->ext;
            if (ws_run_engine_simulate(gpu, in, &rep, err) == 0) {
                struct ws_sweep_id id = {r->keys[index], r->sweep_id};
                rows = ws_sweep_rows(&r->s, p, &id, &rep, NULL);
                if (!rows)
                    ws_err_oom(err);
                ws_run_engine_free(&rep);
            }
            ws_input_close(in);
        }
        if (!rows)
            ws_sweep_unpack_error(r, err);
    }
    free(p);
    free(gpu);
    return rows;
}

static int ws_sweep_point_done(void *ctx, size_t index, const char *rows,
                               const char *why, struct ws_err *err)
{
    struct ws_sweep_state *r = ctx;
    struct ws_sweep_id id = {r->keys[index], r->sweep_id};
    struct ws_sweep_point p;
    char *failed;
    int rc;

    r->done[index] = 1;
    if (rows)
        return ws_sweep_results_append(r, rows, err);
    ws_sweep_point_get(&r->s, index, &p);
    failed = ws_sweep_rows(&r->s, &p, &id, NULL, why);
    if (!failed)
        return ws_err_oom(err);
    rc = ws_sweep_results_append(r, failed, err);
    free(failed);
    if (r->failed_shown++ < WS_SWEEP_SHOW_FAILED)
        ws_sweep_say(r->rq->log, "warpsim sweep: point %zu failed: %s\n", index,
                     why);
    return rc;
}

/* Points that fail before they run are recorded without a worker. */
static int ws_sweep_record_early(struct ws_sweep_state *r,
                                 struct ws_sweep_progress *prog,
                                 struct ws_err *err)
{
    for (size_t i = 0; i < r->s.npoints; i++) {
        if (!r->mine[i] || r->done[i] || !r->why[i])
            continue;
        if (ws_sweep_point_done(r, i, NULL, r->why[i], err) < 0)
            return -1;
        r->done[i] = 1;
        prog->failed++;
        prog->before++;
    }
    return 0;
}

static int ws_sweep_execute(struct ws_sweep_state *r,
                            const struct ws_sweep_request *rq,
                            struct ws_sweep_progress *prog, struct ws_err *err)
{
    size_t *todo = malloc((r->s.npoints ? r->s.npoints : 1) * sizeof *todo);
    size_t n = 0;
    long jobs = rq->jobs > 0 ? rq->jobs : sysconf(_SC_NPROCESSORS_ONLN);
    int rc;

    if (!todo)
        return ws_err_oom(err);
    for (size_t i = 0; i < r->s.npoints; i++) {
        if (!r->mine[i])
            continue;
        prog->total++;
        if (r->done[i])
            prog->before++;
        else
            todo[n++] = i;
    }
    rc = ws_sweep_record_early(r, prog, err);
    if (rc == 0) {
        size_t m = 0;
        for (size_t i = 0; i < n; i++)
            if (!r->done[todo[i]])
                todo[m++] = todo[i];
        rc = ws_sweep_pool_run(todo, m, (int)(jobs < 1 ? 1 : jobs),
                               ws_sweep_run_point, ws_sweep_point_done, r, prog,
                               err);
    }
    free(todo);
    return rc;
}

/* ---- the sweep -------------------------------------------------------- */

static void ws_sweep_run_free(struct ws_sweep_state *r)
{
    for (size_t i = 0; r->why && i < r->s.npoints; i++)
        free(r->why[i]);
    free(r->why);
    free(r->keys);
    free(r->done);
    free(r->mine);
    free(r->header);
    ws_sweep_extras_free(r);
    free(r->out);
    if (r->fd >= 0)
        close(r->fd);
    if (r->pack_fd >= 0)
        close(r->pack_fd);
    ws_sweep_free(&r->s);
}

/* The file's models: and the command line's --model, checked as a run
 * checks them (an error at the file's line, or at the --model word). */
static int ws_sweep_ext_models(struct ws_sweep_state *r,
                               const struct ws_sweep_request *rq,
                               struct ws_err *err)
{
    for (int i = 0; i < rq->nmodels; i++)
        if (ws_sweep_models_add(&r->s, rq->models[i], err) < 0)
            return -1;
    for (size_t i = 0; i < r->s.nmodels; i++) {
        const char *why;
        if (ws_ext_models_add(&r->ext, r->s.models[i], &why) == 0) {
            struct ws_ext_model *m = &r->ext.m[r->ext.n - 1];
            m->dir = r->s.models_dir[i];
            if (r->s.models_at[i][0]) {
                m->file = r->s.path;
                m->line = r->s.models_at[i][0];
                m->col = r->s.models_at[i][1];
            }
            continue;
        }
        if (r->s.models_at[i][0])
            return ws_err_at(err, r->s.path, r->s.models_at[i][0],
                             r->s.models_at[i][1],
                             "bad model '%s' "
                             "(expected %s)",
                             r->s.models[i], why);
        return ws_err_arg(err, rq->models[i - (r->s.nmodels - rq->nmodels)], 0,
                          1, "bad --model '%s' (expected %s)", r->s.models[i],
                          why);
    }
    return 0;
}

static int ws_sweep_setup(struct ws_sweep_state *r,
                          const struct ws_sweep_request *rq, struct ws_err *err)
{
    char *dflt = NULL;
    int rc;

    if (ws_sweep_load(&r->s, rq->file, err) < 0
        || ws_sweep_ext_models(r, rq, err) < 0)
        return -1;
    r->ctx.s = &r->s;
    r->ctx.topts = rq->topts;
    if (ws_sweep_alloc(r, err) < 0 || ws_sweep_check_plots(r, err) < 0
        || ws_sweep_validate(&r->ctx, err) < 0)
        return -1;
    if (!rq->out && !(dflt = ws_sweep_default_out(rq)))
        return ws_err_oom(err);
    rc = ws_sweep_plan_out(r, rq->out ? rq->out : dflt,
                           rq->out ? rq->out : rq->file, err);
    free(dflt);
    if (rc == 0 && rq->array_size < 0)
        rc = ws_sweep_check_extras(r, err);
    if (rc == 0)
        rc = ws_sweep_prepare_all(r, rq, err);
    return rc;
}

static void ws_sweep_summary(const struct ws_sweep_state *r,
                             const struct ws_sweep_progress *prog, int rc)
{
    FILE *say = r->rq->say;

    if (rc == 1) {
        ws_sweep_say(r->rq->log,
                     "warpsim sweep: interrupted; %zu of %zu "
                     "points are in %s (rerun the same command to go on)\n",
                     prog->before + prog->done, prog->total, r->out);
        return;
    }
    ws_sweep_say(say, "sweep %s: %zu point%s", r->s.path, prog->total,
                 prog->total == 1 ? "" : "s");
    if (prog->total != r->s.npoints)
        ws_sweep_say(say, " (this share of %zu)", r->s.npoints);
    ws_sweep_say(say, ", %zu run now, %zu failed; results in %s\n", prog->done,
                 prog->failed, r->out);
}

/* Runs the points and sorts the results: 0, 1 when interrupted, -1. */
static int ws_sweep_points(struct ws_sweep_state *r,
                           struct ws_sweep_progress *prog, struct ws_err *err)
{
    struct ws_csv t;
    int rc = ws_sweep_results_lock(r, err);

    if (rc == 0)
        rc = ws_sweep_results_resume(r, r->rq->retry_failed, err);
    prog->on = r->rq->progress;
    if (rc == 0)
        rc = ws_sweep_pack_input(r, err);
    if (rc == 0)
        rc = ws_sweep_execute(r, r->rq, prog, err);
    if (rc < 0)
        ws_sweep_results_abandon(r);
    if (rc == 1)
        ws_sweep_summary(r, prog, 1);
    if (rc != 0 || ws_sweep_results_finish(r, &t, err) < 0)
        return rc ? rc : -1;
    ws_sweep_summary(r, prog, 0);
    if (r->rq->array_size < 0)
        rc = ws_sweep_extras(r, &t, err);
    ws_csv_free(&t);
    return rc;
}

int ws_sweep_run(const struct ws_sweep_request *rq,
                 struct ws_sweep_outcome *out, struct ws_err *err)
{
    struct ws_sweep_state r;
    struct ws_sweep_progress prog;
    int rc;

    memset(&r, 0, sizeof r);
    memset(&prog, 0, sizeof prog);
    r.rq = rq;
    r.fd = r.pack_fd = -1;
    rc = ws_sweep_setup(&r, rq, err);
    if (rc == 0 && rq->dry_run) {
        rc = ws_sweep_peek(&r, err);
        if (rc == 0)
            ws_sweep_list(&r, rq->say);
    } else if (rc == 0) {
        rc = ws_sweep_points(&r, &prog, err);
    }
    if (out)
        *out = (struct ws_sweep_outcome){r.s.npoints, prog.total, prog.before,
                                         prog.done, prog.failed};
    ws_sweep_run_free(&r);
    if (rc < 0)
        ws_err_place_arg(err, rq->file);
    return rc;
}
