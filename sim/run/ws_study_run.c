/*
 * ws_study_run: one study of `warpsim validate` as a call: its sweeps
 * (validate/studies/S.yaml, or S.quick.yaml with quick) run through
 * ws_sweep_run into DIR/NAME/S.csv with their plots, then its analysis
 * (sim/validate, the table of studies) over their tables, written as
 * report.md, points.csv where the study has one, summary.json and its
 * chart.  Run from the source root, where the study files are.
 *
 * Every file the study writes is planned before its first sweep, against
 * every file its sweeps read: an output that is an input, or two outputs
 * on one file, are refused before an hour of work rather than after.  A
 * study's sweep resumes like any sweep: a rerun keeps the points it
 * already has and only rewrites the report.
 *
 * Leaves out: the analyses (sim/validate), options and printing
 * (cli/cmd_validate.c).
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "input/ws_input.h"
#include "sweep/ws_sweep.h"
#include "util/ws_csv.h"
#include "util/ws_grow.h"
#include "util/ws_output.h"
#include "validate/ws_study.h"
#include "ws_study_run.h"
#include "ws_sweep_internal.h"
#include "ws_sweep_run.h"

/* "A/B" followed by C, malloc'd (NULL when out of memory). */
static char *ws_study_join(const char *a, const char *b, const char *c)
{
    size_t n = strlen(a) + strlen(b) + strlen(c) + 3;
    char *s = malloc(n);

    if (s)
        snprintf(s, n, "%s/%s%s", a, b, c);
    return s;
}

/* The word errors about the study folders are placed at: -o's DIR, or
 * the command's name when the folder is the default. */
static const char *ws_study_named(const struct ws_study_request *rq)
{
    return rq->dir ? rq->dir : rq->word;
}

/* The report's files, as outputs under the rules every file warpsim
 * writes follows (ws_output.h): planned when the study starts, so that a
 * read-only report.md or a folder that takes no files is refused before
 * hours of sweeps, and planned again when they are written. */
enum {
    WS_SOUT_REPORT,
    WS_SOUT_POINTS,
    WS_SOUT_SUMMARY,
    WS_SOUT_CHART,
    WS_SOUT_NOUT
};

struct ws_study_outs {
    struct ws_output o[WS_SOUT_NOUT];
    char *path[WS_SOUT_NOUT];
};

static void ws_study_outs_free(struct ws_study_outs *v)
{
    for (int i = 0; i < WS_SOUT_NOUT; i++) {
        ws_output_free(&v->o[i]);
        free(v->path[i]);
        v->path[i] = NULL;
    }
}

static int ws_study_outs_plan(const struct ws_study_request *rq,
                              struct ws_study_outs *v, const char *dir,
                              const char *chart, struct ws_err *err)
{
    const char *names[WS_SOUT_NOUT] = {"report.md", "points.csv",
                                       "summary.json", chart};

    ws_study_outs_free(v);
    for (int i = 0; i < WS_SOUT_NOUT; i++) {
        v->o[i] = (struct ws_output){.flag = "-o"};
        if (!names[i])
            continue;
        if (!(v->path[i] = ws_study_join(dir, names[i], "")))
            return ws_err_oom(err);
        v->o[i].path = v->path[i];
        v->o[i].named = ws_study_named(rq);
    }
    return ws_output_plan(v->o, WS_SOUT_NOUT, NULL, 0, err);
}

static char *ws_study_json(json_t *summary)
{
    char *json = json_dumps(summary, JSON_INDENT(1) | JSON_SORT_KEYS);
    size_t n = json ? strlen(json) : 0;
    char *line = json ? realloc(json, n + 2) : NULL;

    if (!line) {
        free(json);
        return NULL;
    }
    strcpy(line + n, "\n");
    return line;
}

static int ws_study_outputs(const struct ws_study_request *rq,
                            struct ws_study_outs *v, const char *dir,
                            const struct ws_study_out *o, struct ws_err *err)
{
    char *json = ws_study_json(o->summary);
    const char *text[WS_SOUT_NOUT] = {o->report, o->points, json, o->chart};
    int rc;

    if (!json)
        return ws_err_oom(err);
    rc = ws_study_outs_plan(rq, v, dir, o->chart ? o->chart_name : NULL, err);
    /* One file that cannot be written does not cost the others; the
     * first failure is the command's. */
    for (int i = 0; rc == 0 && i < WS_SOUT_NOUT; i++) {
        struct ws_err e;
        ws_err_clear(&e);
        if (text[i] && ws_output_write(&v->o[i], text[i], &e) < 0 && !err->set)
            *err = e;
    }
    free(json);
    return rc < 0 || err->set ? -1 : 0;
}

/* Where a sweep's results go: DIR/NAME/S.csv, or DIR/OWNER/S.csv for
 * "OWNER/S" (malloc'd; NULL when out of memory). */
static char *ws_study_csv_path(const struct ws_study_request *rq,
                               const char *dir, const char *sweep)
{
    return strchr(sweep, '/') ? ws_study_join(ws_study_root(rq), sweep, ".csv")
                              : ws_study_join(dir, sweep, ".csv");
}

/* Where a sweep's results go: DIR/NAME/S.csv, or for "OWNER/S" the owning
 * study's folder, made when missing (*owner and *made say what was made,
 * for ws_output_rmdirs if the sweep fails). */
static char *ws_study_csv(const struct ws_study_request *rq, const char *dir,
                          const char *sweep, char **owner_dir, size_t *made,
                          struct ws_err *err)
{
    const char *slash = strchr(sweep, '/');
    const char *root = ws_study_root(rq);
    char *owner, *csv;

    *owner_dir = NULL;
    *made = 0;
    if (!slash) {
        if (!(csv = ws_study_join(dir, sweep, ".csv")))
            ws_err_oom(err);
        return csv;
    }
    owner = strndup(sweep, (size_t)(slash - sweep));
    *owner_dir = owner ? ws_study_join(root, owner, "") : NULL;
    free(owner);
    if (!*owner_dir) {
        ws_err_oom(err);
        return NULL;
    }
    if (ws_output_mkdirs(*owner_dir, ws_study_named(rq),
                         "a folder for "
                         "the study's results",
                         made, err)
        < 0)
        return NULL;
    if (!(csv = ws_study_join(root, sweep, ".csv")))
        ws_err_oom(err);
    return csv;
}

/* The sweep checks its results file too, but its errors would be placed
 * at the path built here, which is no word the user typed. */
static int ws_study_plan_csv(const struct ws_study_request *rq, const char *csv,
                             struct ws_err *err)
{
    struct ws_output o = {.path = csv,
                          .flag = "-o",
                          .named = ws_study_named(rq)};
    int rc = ws_output_plan(&o, 1, NULL, 0, err);

    ws_output_free(&o);
    return rc;
}

/* The sweep file a study's sweep runs: validate/studies/S.yaml, or with
 * --quick S.quick.yaml, where the sweep has one (the scoreboard's hardware
 * and sensitivity sweeps, whose full form is already small, have one for a
 * case or two only: the others are left out).  1: left out; -1: the study
 * file is missing, which is a checkout without its studies. */
static int ws_study_file(const struct ws_study_request *rq, const char *stem,
                         char *file, size_t cap, struct ws_err *err)
{
    struct stat st;

    snprintf(file, cap, "validate/studies/%s.yaml", stem);
    if (stat(file, &st) != 0)
        return ws_err_arg(err, ws_study_named(rq), 0, 0,
                          "%s: no such "
                          "file (expected warpsim's source root, with the "
                          "study files)",
                          file);
    if (!rq->quick)
        return 0;
    snprintf(file, cap, "validate/studies/%s.quick.yaml", stem);
    return stat(file, &st) == 0 ? 0 : 1;
}

/* ---- every output of a study, planned before its first sweep ------------ */

struct ws_study_preplan {
    struct ws_output *outs;
    char **paths;
    size_t nouts;
    const char **inputs;
    size_t ninputs, incap;
    char full[WS_STUDY_MAX_SWEEPS][160]; /* S.yaml, when --quick runs
                                               S.quick.yaml */
    struct ws_sweep sweeps[WS_STUDY_MAX_SWEEPS];
    size_t nsweeps;
};

static void ws_study_preplan_free(struct ws_study_preplan *p)
{
    for (size_t i = 0; i < p->nouts; i++) {
        ws_output_free(&p->outs[i]);
        free(p->paths[i]);
    }
    for (size_t i = 0; i < p->nsweeps; i++)
        ws_sweep_free(&p->sweeps[i]);
    free(p->outs);
    free(p->paths);
    free(p->inputs);
}

/* Adds the output at path (taken), when its folder exists: a study's
 * folder made later is checked by the sweep that makes it. */
static void ws_study_add_out(struct ws_study_preplan *p, char *path,
                             struct ws_output o)
{
    char *slash = path ? strrchr(path, '/') : NULL;
    struct stat st;
    int there;

    if (!slash) {
        free(path);
        return;
    }
    *slash = '\0';
    there = stat(path, &st) == 0 && S_ISDIR(st.st_mode);
    *slash = '/';
    if (!there) {
        free(path);
        return;
    }
    o.path = path;
    p->paths[p->nouts] = path;
    p->outs[p->nouts++] = o;
}

/* Opens the sweep's input as its points will, for what that reads to
 * join the read set (a workload's own listing, a list's kernel traces):
 * outputs are checked against it.  A failure is the sweep's to report. */
static void ws_study_touch_input(const struct ws_sweep *s)
{
    struct ws_input_params ip = {NULL, 0, s->listing, 0, {0}};
    struct ws_input *in;
    struct ws_err scratch;

    ws_err_clear(&scratch);
    ws_trace_opts_default(&ip.opts);
    if (ws_input_open(&in, s->input, &ip, &scratch) == 0)
        ws_input_close(in);
}

/* files[0..n) join the study's input files. */
static int ws_study_add_inputs(struct ws_study_preplan *p,
                               const char *const *files, size_t n,
                               struct ws_err *err)
{
    if (ws_grow((void **)&p->inputs, &p->incap, p->ninputs + n,
                sizeof *p->inputs, 64)
        < 0)
        return ws_err_oom(err);
    memcpy(p->inputs + p->ninputs, files, n * sizeof *files);
    p->ninputs += n;
    return 0;
}

/* One sweep's files: its results and plots as outputs, what it reads as
 * inputs. */
static int ws_study_preplan_sweep(const struct ws_study_request *rq,
                                  struct ws_study_preplan *p, const char *file,
                                  char *csv, struct ws_err *err)
{
    struct ws_sweep *s = &p->sweeps[p->nsweeps];
    const char **files;
    size_t n;
    int rc;

    if (ws_sweep_load(s, file, err) < 0) {
        free(csv);
        return -1;
    }
    p->nsweeps++;
    /* The plots first: ws_study_add_out takes csv (and may free it). */
    for (size_t i = 0; i < s->nplots; i++)
        ws_study_add_out(p, ws_sweep_beside(csv, s->plots[i].file),
                         (struct ws_output){.flag = "plot file",
                                            .at_file = s->path,
                                            .at_line = s->plots[i].line,
                                            .at_col = s->plots[i].col});
    ws_study_add_out(p, csv,
                     (struct ws_output){.flag = "-o",
                                        .named = ws_study_named(rq)});
    files = ws_sweep_input_files(s, &n);
    rc = files ? ws_study_add_inputs(p, files, n, err) : ws_err_oom(err);
    free(files);
    ws_study_touch_input(s);
    return rc;
}

/* Every file the study will write (report files, each sweep's results and
 * plots) planned together against every file its sweeps read, before the
 * first sweep runs: an output that is an input, or two outputs on one
 * file (points.csv linked to a sweep's results), are refused before any
 * work rather than after an hour of it. */
static int ws_study_preplan(const struct ws_study_request *rq,
                            const struct ws_study_def *d, const char *dir,
                            struct ws_err *err)
{
    static const char *const reports[] = {"report.md", "points.csv",
                                          "summary.json"};
    size_t cap = 4 + WS_STUDY_MAX_SWEEPS * (1 + WS_SWEEP_MAX_PLOTS);
    struct ws_study_preplan p;
    int rc = 0;

    memset(&p, 0, sizeof p);
    p.outs = calloc(cap, sizeof *p.outs);
    p.paths = calloc(cap, sizeof *p.paths);
    if (!p.outs || !p.paths) {
        ws_study_preplan_free(&p);
        return ws_err_oom(err);
    }
    for (size_t i = 0; rc == 0 && i < 3; i++)
        ws_study_add_out(&p, ws_study_join(dir, reports[i], ""),
                         (struct ws_output){.flag = "-o",
                                            .named = ws_study_named(rq)});
    if (rc == 0 && d->chart)
        ws_study_add_out(&p, ws_study_join(dir, d->chart, ""),
                         (struct ws_output){.flag = "-o",
                                            .named = ws_study_named(rq)});
    for (size_t i = 0; rc == 0 && i < WS_STUDY_MAX_SWEEPS && d->sweeps[i];
         i++) {
        const char *stem = strrchr(d->sweeps[i], '/');
        char file[160];
        stem = stem ? stem + 1 : d->sweeps[i];
        rc = ws_study_file(rq, stem, file, sizeof file, err);
        /* The full study file is the study's even when --quick reads the
         * reduced one (or leaves the sweep out). */
        snprintf(p.full[i], sizeof p.full[i], "validate/studies/%s.yaml", stem);
        if (rc >= 0
            && ws_study_add_inputs(&p, (const char *const[]){p.full[i]}, 1, err)
                   < 0)
            rc = -1;
        if (rc == 1) {
            rc = 0;
            continue;
        }
        if (rc == 0)
            rc = ws_study_preplan_sweep(
                rq, &p, file, ws_study_csv_path(rq, dir, d->sweeps[i]), err);
    }
    if (rc == 0)
        rc = ws_output_plan(p.outs, (int)p.nouts, p.inputs, (int)p.ninputs,
                            err);
    ws_study_preplan_free(&p);
    return rc;
}

/* One of the study's sweeps (its file) into csv, as `warpsim sweep FILE
 * -o CSV` would run it: 0, 1 when interrupted, -1.  file and csv are no
 * words of the command line: errors the sweep would place there are
 * placed at word 0, as before the sweep was a call. */
static int ws_study_sweep(const struct ws_study_request *rq, const char *file,
                          const char *csv, struct ws_err *err)
{
    struct ws_sweep_request srq;

    ws_sweep_request_init(&srq);
    srq.file = file;
    srq.out = csv;
    srq.jobs = rq->jobs;
    for (int i = 0; i < rq->nmodels; i++)
        srq.models[i] = rq->models[i];
    srq.nmodels = rq->nmodels;
    srq.say = rq->say;
    srq.log = rq->log;
    srq.progress = rq->progress;
    return ws_sweep_run(&srq, NULL, err);
}

/* Runs the study's sweeps, loads their tables; returns how many it
 * loaded, or -1 (error in err) / -2 (a sweep was interrupted). */
static long ws_study_tables(const struct ws_study_request *rq,
                            const struct ws_study_def *d, const char *dir,
                            struct ws_csv *t, struct ws_err *err)
{
    long n = 0;

    for (size_t i = 0; i < WS_STUDY_MAX_SWEEPS && d->sweeps[i]; i++) {
        const char *stem = strrchr(d->sweeps[i], '/');
        char *csv, *owner_dir = NULL, file[160];
        size_t made = 0;
        int rc, stopped = 0;
        stem = stem ? stem + 1 : d->sweeps[i];
        rc = ws_study_file(rq, stem, file, sizeof file, err);
        if (rc == 1)
            continue;
        csv = rc < 0
                  ? NULL
                  : ws_study_csv(rq, dir, d->sweeps[i], &owner_dir, &made, err);
        if (!csv || ws_study_plan_csv(rq, csv, err) < 0)
            rc = -1;
        else if ((rc = ws_study_sweep(rq, file, csv, err)) != 0)
            stopped = rc == 1, rc = -1;
        else
            rc = ws_csv_load_own(&t[n], csv, err);
        /* Interrupted, the finished points stay for the rerun. */
        if (rc < 0 && !stopped && owner_dir)
            ws_output_rmdirs(owner_dir, made);
        free(owner_dir);
        free(csv);
        if (rc < 0) {
            while (n-- > 0)
                ws_csv_free(&t[n]);
            return stopped ? -2 : -1;
        }
        n++;
    }
    return n;
}

/* The study's analysis over its tables t[0..n), and its files written. */
static int ws_study_report(const struct ws_study_request *rq,
                           const struct ws_study_def *d, const char *dir,
                           struct ws_csv *t, long n, struct ws_err *err)
{
    const struct ws_csv *tp[WS_STUDY_MAX_SWEEPS];
    struct ws_study_outs v;
    struct ws_study_out o;
    int rc;

    memset(&v, 0, sizeof v);
    for (long i = 0; i < n; i++)
        tp[i] = &t[i];
    rc = d->analysis(tp, (size_t)n, &o, err);
    if (rc == 0) {
        rc = ws_study_outputs(rq, &v, dir, &o, err);
        ws_study_out_free(&o);
    }
    ws_study_outs_free(&v);
    return rc;
}

const char *ws_study_root(const struct ws_study_request *rq)
{
    return rq->dir ? rq->dir : "validate/out";
}

int ws_study_run(const struct ws_study_request *rq,
                 const struct ws_study_def *d, struct ws_err *err)
{
    char *dir = ws_study_join(ws_study_root(rq), d->name, "");
    struct ws_csv t[WS_STUDY_MAX_SWEEPS];
    size_t made = 0;
    long n = -1;
    int rc;

    if (!dir)
        return ws_err_oom(err);
    rc = ws_output_mkdirs(dir, ws_study_named(rq),
                          "a folder for the "
                          "study's results",
                          &made, err);
    if (rc == 0)
        rc = ws_study_preplan(rq, d, dir, err);
    if (rc == 0)
        n = ws_study_tables(rq, d, dir, t, err);
    if (rc == 0 && n == -2)
        rc = 1;
    else if (rc == 0 && n < 0)
        rc = -1;
    else if (rc == 0 && n == 0)
        rc = ws_err_arg(err, ws_study_named(rq), 0, 0,
                        "study %s ran no "
                        "sweep%s (expected its study files in "
                        "validate/studies/)",
                        d->name,
                        rq->quick ? ": none "
                                    "has a .quick.yaml"
                                  : "");
    if (rc == 0) {
        rc = ws_study_report(rq, d, dir, t, n, err);
        while (n-- > 0)
            ws_csv_free(&t[n]);
    }
    if (rc < 0)
        ws_output_rmdirs(dir, made); /* only folders left empty */
    free(dir);
    return rc;
}

/* The studies are files of the source tree: run elsewhere, every sweep
 * would be missing (and --quick would skip them all, reporting nothing). */
int ws_study_check_root(const struct ws_study_request *rq, struct ws_err *err)
{
    struct stat st;

    if (stat("validate/studies", &st) == 0 && S_ISDIR(st.st_mode))
        return 0;
    return ws_err_arg(err, rq->word, 0, 0,
                      "validate/studies: no such folder "
                      "here (expected to run from warpsim's source root, "
                      "where the study files are)");
}
