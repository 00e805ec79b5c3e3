/*
 * warpsim sweep: runs a sweep file's points (sweep/ws_sweep.h) in worker
 * processes into one CSV, resumable, in shares for job arrays, and
 * `warpsim sweep merge` joins the shares.
 *
 * The results file is the sweep's memory: a rerun reads it back, keeps
 * the rows whose key is still a point's key, and runs the rest.  Rows are
 * appended a point at a time while the sweep goes, and the file is sorted
 * by point when the last point ends, so a finished file is the same bytes
 * whatever -j was.
 *
 * Leaves out: what a point computes (ws_run_engine), the drawing and the
 * report (sweep/ws_plot, sweep/ws_sweep_report).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sweep/ws_sweep.h"
#include "sweep/ws_sweep_pool.h"
#include "sweep/ws_sweep_rows.h"
#include "sweep/ws_sweep_table.h"
#include "util/ws_num.h"
#include "util/ws_readset.h"
#include "ws_cli.h"
#include "util/ws_output.h"
#include "run/ws_run_engine.h"
#include "run/ws_sweep_cli.h"

enum {
    WS_OPT_DRY_RUN = 0x300,
    WS_OPT_REPORT,
    WS_OPT_ARRAY_INDEX,
    WS_OPT_ARRAY_SIZE,
    WS_OPT_RETRY_FAILED,
    WS_OPT_EXT_MODEL
};

/* Failures listed in the closing summary; the file has them all. */
#define WS_SWEEP_SHOW_FAILED 5

static void ws_sweep_help(FILE *out)
{
    fprintf(out,
"usage: warpsim sweep FILE [OPTIONS]\n"
"       warpsim sweep merge OUT.csv SHARE.csv...\n"
"\n"
"Runs every point of a sweep file (a kernel over the product of axes of\n"
"workload parameters, config keys and GPUs; see README) in worker\n"
"processes, one CSV row per point and kernel: the axes, cycles, every\n"
"counter and every model's prediction.  Rerunning skips the points the\n"
"results file already holds (keyed by a hash of each point's config,\n"
"input files and parameters); a failing point is recorded with its error\n"
"and the sweep goes on.\n"
"\n"
"options:\n"
"  -j, --jobs N              worker processes (default: all cores)\n"
"  -o, --output FILE         results CSV (default: FILE's name with .csv,\n"
"                            in the current folder)\n"
"      --dry-run             list the points and which are done; run none\n"
"      --report              also write a markdown summary (OUT with .md):\n"
"                            best and worst points, elasticity per axis\n"
"      --array-index I       run only share I of --array-size K (a Slurm\n"
"      --array-size K        job array, GNU parallel); join the shares with\n"
"                            'warpsim sweep merge'\n"
"      --retry-failed        rerun points recorded as failed\n"
"      --model NAME=COMMAND  also run an external model at every point, as\n"
"                            the file's models: do (README, \"External\n"
"                            models\"); repeatable\n"
WS_CLI_LIMIT_HELP
"  -h, --help                this text\n"
"\n"
"exit status: 0 when every point ended (failed points included: see the\n"
"summary), 1 on an internal error, 2 on bad input, 130 when interrupted\n"
"(finished points are kept; rerun to go on).\n");
}

static int ws_sweep_count(const char *opt, const char *v, long min, long *out)
{
    uint64_t n;

    if (ws_num_u64(v, strlen(v), &n) < 0 || n > 1000000 || (long)n < min)
        return ws_cli_usage("sweep", "bad %s '%s' (expected a whole number "
                            "from %ld)", opt, v, min);
    *out = (long)n;
    return 0;
}

/* A job array's index given twice is a script's mistake (two shares'
 * options pasted together): which share would run is a guess. */
static int ws_sweep_array_option(struct ws_sweep_args *a, int opt,
                                 const char *v)
{
    int index = opt == WS_OPT_ARRAY_INDEX;
    const char *name = index ? "--array-index" : "--array-size";
    long *out = index ? &a->array_index : &a->array_size;

    if (*out >= 0)
        return ws_cli_usage("sweep", "%s given twice (expected it once)",
                            name);
    return ws_sweep_count(name, v, index ? 0 : 1, out);
}

static int ws_sweep_option(struct ws_sweep_args *a, int opt, char **argv)
{
    int used = ws_cli_limit_option(&a->topts, "sweep", opt, optarg);

    if (used)
        return used == 1 ? 0 : WS_EXIT_INPUT;
    switch (opt) {
    case 'j':
        if (a->jobs)
            return ws_cli_usage("sweep", "--jobs given twice (expected it "
                                "once)");
        return ws_sweep_count("--jobs", optarg, 1, &a->jobs);
    case 'o':
        return ws_cli_once("sweep", &a->out, optarg, "--output") < 0
            ? WS_EXIT_INPUT : 0;
    case WS_OPT_DRY_RUN: a->dry_run = 1; return 0;
    case WS_OPT_REPORT: a->report = 1; return 0;
    case WS_OPT_RETRY_FAILED: a->retry_failed = 1; return 0;
    case WS_OPT_EXT_MODEL:
        if (a->nmodels == WS_SWEEP_MAX_MODELS)
            return ws_cli_usage("sweep", "too many --model (expected at "
                                "most %d)", WS_SWEEP_MAX_MODELS);
        a->models[a->nmodels++] = optarg;
        return 0;
    case WS_OPT_ARRAY_INDEX:
    case WS_OPT_ARRAY_SIZE:
        return ws_sweep_array_option(a, opt, optarg);
    case WS_OPT_HELP: ws_sweep_help(stdout); return 1;
    default: return ws_cli_bad_option("sweep", opt, argv);
    }
}

static int ws_sweep_parse(struct ws_sweep_args *a, int argc, char **argv)
{
    static const struct option longopts[] = {
        {"jobs", required_argument, NULL, 'j'},
        {"output", required_argument, NULL, 'o'},
        {"dry-run", no_argument, NULL, WS_OPT_DRY_RUN},
        {"report", no_argument, NULL, WS_OPT_REPORT},
        {"array-index", required_argument, NULL, WS_OPT_ARRAY_INDEX},
        {"array-size", required_argument, NULL, WS_OPT_ARRAY_SIZE},
        {"retry-failed", no_argument, NULL, WS_OPT_RETRY_FAILED},
        {"model", required_argument, NULL, WS_OPT_EXT_MODEL},
        WS_CLI_LIMIT_LONGOPTS,
        {"help", no_argument, NULL, WS_OPT_HELP},
        {NULL, 0, NULL, 0}
    };
    int opt, rc;

    optind = 1;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":j:o:h", longopts, NULL)) != -1)
        if ((rc = ws_sweep_option(a, opt, argv)) != 0)
            return rc;
    if ((a->array_index < 0) != (a->array_size < 0))
        return ws_cli_usage("sweep", "--array-index and --array-size go "
                            "together (expected both or neither)");
    if (a->array_size > 0 && a->array_index >= a->array_size)
        return ws_cli_usage("sweep", "--array-index %ld is not below "
                            "--array-size %ld (expected 0 to %ld)",
                            a->array_index, a->array_size,
                            a->array_size - 1);
    if (optind != argc - 1)
        return ws_cli_usage("sweep", optind >= argc ? "missing FILE"
                            : "more than one FILE");
    a->file = argv[optind];
    return 0;
}

/* ---- preparing -------------------------------------------------------- */

static int ws_sweep_alloc(struct ws_sweep_run *r, struct ws_err *err)
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
static int ws_sweep_same_points(const struct ws_sweep_run *r, size_t i,
                                size_t j, struct ws_err *err)
{
    struct ws_sweep_point p, q;

    ws_sweep_point_get(&r->s, i, &p);
    ws_sweep_point_get(&r->s, j, &q);
    for (size_t k = 0; k < r->s.naxes; k++) {
        const struct ws_axis_value *v = &r->s.axes[k].values[q.value[k]];
        if (p.value[k] == q.value[k])
            continue;
        return ws_err_at(err, r->s.path, v->line, v->col, "'%s' makes point "
                         "%zu the same point as %zu, with '%s' (expected "
                         "values that make distinct points: same config, "
                         "input and parameters)", v->cell, j, i,
                         r->s.axes[k].values[p.value[k]].cell);
    }
    return ws_err_at(err, r->s.path, 1, 1, "points %zu and %zu are the same "
                     "point (expected distinct points)", i, j);
}

/* The sweep's identity, its rows' sweep cell: every key, in order, so a
 * share of this sweep and a share of any other (a value added, an input
 * edited) never pass for each other.  Two points with one key would hold
 * each other's rows: refused. */
static int ws_sweep_identify(struct ws_sweep_run *r, struct ws_err *err)
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
static int ws_sweep_prepare_all(struct ws_sweep_run *r,
                                const struct ws_sweep_args *a,
                                struct ws_err *err)
{
    for (size_t i = 0; i < r->s.npoints; i++) {
        r->mine[i] = a->array_size < 0
            || ws_sweep_in_share(i, (size_t)a->array_index,
                                 (size_t)a->array_size);
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
static int ws_sweep_check_plots(const struct ws_sweep_run *r,
                                struct ws_err *err)
{
    struct ws_csv h;
    int rc = 0;

    if (ws_csv_parse(&h, "header", r->header, strlen(r->header), 0, 0,
                     err) < 0)
        return -1;
    for (size_t i = 0; rc == 0 && i < r->s.nplots; i++) {
        const struct ws_sweep_plot *p = &r->s.plots[i];
        const char *names[3] = {p->x, p->y, p->series};
        for (int k = 0; rc == 0 && k < 3; k++)
            if (names[k] && ws_csv_col(&h, names[k]) < 0)
                rc = ws_err_at(err, r->s.path, p->line, p->col, "plot names "
                               "column '%s', which the results do not have "
                               "(expected an axis, cycles, a counter or "
                               "MODEL_cycles)", names[k]);
    }
    /* Found only once every point has run, a typo would cost the report. */
    if (rc == 0 && ws_csv_col(&h, r->s.target) < 0)
        rc = ws_err_at(err, r->s.path, r->s.target_line, r->s.target_col,
                       "report target names column '%s', which the results "
                       "do not have (expected an axis, cycles, a counter or "
                       "MODEL_cycles)", r->s.target);
    ws_csv_free(&h);
    return rc;
}

/* The default results file: the sweep file's name, .csv, here; a share
 * gets its number in the name. */
static char *ws_sweep_default_out(const struct ws_sweep_args *a)
{
    const char *base = strrchr(a->file, '/');
    size_t n;
    char *out;

    base = base ? base + 1 : a->file;
    n = strlen(base);
    if (n > 5 && strcmp(base + n - 5, ".yaml") == 0)
        n -= 5;
    else if (n > 4 && strcmp(base + n - 4, ".yml") == 0)
        n -= 4;
    out = malloc(n + 64);
    if (!out)
        return NULL;
    if (a->array_size > 0)
        snprintf(out, n + 64, "%.*s.share-%ld-of-%ld.csv", (int)n, base,
                 a->array_index, a->array_size);
    else
        snprintf(out, n + 64, "%.*s.csv", (int)n, base);
    return out;
}

/* The results file must be a file warpsim may rewrite, and no input.  An
 * error is placed at the word naming it: -o's, else FILE's (the default
 * name comes from it). */
static int ws_sweep_plan_out(struct ws_sweep_run *r, const char *path,
                             const char *named, struct ws_err *err)
{
    struct ws_output o = {.path = path, .flag = "--output", .named = named};
    size_t n;
    const char **inputs = ws_sweep_input_files(&r->s, &n);
    int rc = inputs ? ws_output_plan(&o, 1, inputs, (int)n, err)
                    : ws_err_oom(err);

    if (rc == 0 && (o.stream || o.inplace))
        rc = ws_err_arg(err, named, 0, 0, "--output %s: is not a regular "
                        "file (expected a file: a sweep appends to its "
                        "results and reads them back)", path);
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
static int ws_sweep_pack_input(struct ws_sweep_run *r, struct ws_err *err)
{
    const char *tmpdir = getenv("TMPDIR");
    struct ws_input_params ip = {NULL, 0, NULL, r->ctx.topts};
    struct ws_input in;
    char name[4096];
    FILE *fp;
    int rc, fd;

    memset(&in, 0, sizeof in);
    if (access("/proc/self/fd", X_OK) != 0)
        return 0;
    if (ws_input_open(&in, r->s.input, &ip, err) < 0)
        return -1;
    if (in.kind != WS_INPUT_LIST && in.kind != WS_INPUT_KERNEL) {
        ws_input_close(&in);
        return 0;
    }
    snprintf(name, sizeof name, "%s/warpsim-sweep-XXXXXX",
             tmpdir && *tmpdir ? tmpdir : "/tmp");
    fd = mkstemp(name);
    if (fd < 0 || !(fp = fdopen(dup(fd), "w+b"))) {
        if (fd >= 0)
            close(fd), unlink(name);
        ws_input_close(&in);
        return 0;           /* no room to pack: points read the text */
    }
    unlink(name);
    rc = ws_input_pack(&in, fp, r->s.input, err);
    if (fclose(fp) != 0 && rc == 0) {
        rc = ws_err_msg(err, "%s: cannot write the packed trace: %s", name,
                        strerror(errno));
        err->internal = 1;
    }
    ws_input_close(&in);
    if (rc < 0) {
        close(fd);
        if (!err->internal)
            return -1;      /* the trace's fault: a point would say it too */
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
static void ws_sweep_unpack_error(const struct ws_sweep_run *r,
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
    struct ws_sweep_run *r = ctx;
    struct ws_sweep_point *p = calloc(1, sizeof *p);
    struct ws_gpu *gpu = calloc(1, sizeof *gpu);
    struct ws_run_report rep;
    struct ws_input in;
    char *rows = NULL;

    memset(&in, 0, sizeof in);
    memset(&rep, 0, sizeof rep);
    if (!p || !gpu) {
        ws_err_oom(err);
    } else {
        ws_sweep_point_get(&r->s, index, p);
        if (ws_sweep_open_point(&r->ctx, p, gpu, &in, err) == 0) {
            ws_cli_probe(gpu);
            rep.input = r->s.input;
            rep.gpu = gpu;
            rep.ext = &r->ext;
            if (ws_run_engine_simulate(gpu, &in, &rep, err) == 0) {
                struct ws_sweep_id id = {r->keys[index], r->sweep_id};
                rows = ws_sweep_rows(&r->s, p, &id, &rep, NULL);
                if (!rows)
                    ws_err_oom(err);
                ws_run_engine_free(&rep);
            }
            ws_input_close(&in);
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
    struct ws_sweep_run *r = ctx;
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
        fprintf(stderr, "warpsim sweep: point %zu failed: %s\n", index, why);
    return rc;
}

/* Points that fail before they run are recorded without a worker. */
static int ws_sweep_record_early(struct ws_sweep_run *r,
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

static int ws_sweep_execute(struct ws_sweep_run *r,
                            const struct ws_sweep_args *a,
                            struct ws_sweep_progress *prog, struct ws_err *err)
{
    size_t *todo = malloc((r->s.npoints ? r->s.npoints : 1) * sizeof *todo);
    size_t n = 0;
    long jobs = a->jobs > 0 ? a->jobs : sysconf(_SC_NPROCESSORS_ONLN);
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
                               ws_sweep_run_point, ws_sweep_point_done, r,
                               prog, err);
    }
    free(todo);
    return rc;
}

/* ---- the command ------------------------------------------------------ */

static void ws_sweep_run_free(struct ws_sweep_run *r)
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
static int ws_sweep_ext_models(struct ws_sweep_run *r,
                               const struct ws_sweep_args *a,
                               struct ws_err *err)
{
    for (int i = 0; i < a->nmodels; i++)
        if (ws_sweep_models_add(&r->s, a->models[i], err) < 0)
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
                             r->s.models_at[i][1], "bad model '%s' "
                             "(expected %s)", r->s.models[i], why);
        return ws_err_arg(err, a->models[i - (r->s.nmodels - a->nmodels)],
                          0, 1, "bad --model '%s' (expected %s)",
                          r->s.models[i], why);
    }
    return 0;
}

static int ws_sweep_setup(struct ws_sweep_run *r, const struct ws_sweep_args *a,
                          struct ws_err *err)
{
    char *dflt = NULL;
    int rc;

    if (ws_sweep_load(&r->s, a->file, err) < 0
        || ws_sweep_ext_models(r, a, err) < 0)
        return -1;
    r->ctx.s = &r->s;
    r->ctx.topts = a->topts;
    if (ws_sweep_alloc(r, err) < 0 || ws_sweep_check_plots(r, err) < 0
        || ws_sweep_validate(&r->ctx, err) < 0)
        return -1;
    if (!a->out && !(dflt = ws_sweep_default_out(a)))
        return ws_err_oom(err);
    rc = ws_sweep_plan_out(r, a->out ? a->out : dflt,
                           a->out ? a->out : a->file, err);
    free(dflt);
    if (rc == 0 && a->array_size < 0)
        rc = ws_sweep_check_extras(r, a, err);
    if (rc == 0)
        rc = ws_sweep_prepare_all(r, a, err);
    return rc;
}

static void ws_sweep_summary(const struct ws_sweep_run *r,
                             const struct ws_sweep_progress *prog, int rc)
{
    if (rc == 1) {
        fprintf(stderr, "warpsim sweep: interrupted; %zu of %zu points are "
                "in %s (rerun the same command to go on)\n",
                prog->before + prog->done, prog->total, r->out);
        return;
    }
    printf("sweep %s: %zu point%s", r->s.path, prog->total,
           prog->total == 1 ? "" : "s");
    if (prog->total != r->s.npoints)
        printf(" (this share of %zu)", r->s.npoints);
    printf(", %zu run now, %zu failed; results in %s\n", prog->done,
           prog->failed, r->out);
}

static int ws_sweep_main(struct ws_sweep_args *a)
{
    struct ws_sweep_run r;
    struct ws_sweep_progress prog;
    struct ws_csv t;
    struct ws_err err;
    int rc;

    memset(&r, 0, sizeof r);
    memset(&prog, 0, sizeof prog);
    r.fd = r.pack_fd = -1;
    ws_err_clear(&err);
    rc = ws_sweep_setup(&r, a, &err);
    if (rc == 0 && a->dry_run) {
        rc = ws_sweep_peek(&r, &err);
        if (rc == 0)
            ws_sweep_list(&r);
    } else if (rc == 0) {
        rc = ws_sweep_results_lock(&r, &err);
        if (rc == 0)
            rc = ws_sweep_results_resume(&r, a->retry_failed, &err);
        prog.on = isatty(2);
        if (rc == 0)
            rc = ws_sweep_pack_input(&r, &err);
        if (rc == 0)
            rc = ws_sweep_execute(&r, a, &prog, &err);
        if (rc < 0)
            ws_sweep_results_abandon(&r);
        if (rc == 0) {
            rc = ws_sweep_results_finish(&r, &t, &err);
            if (rc == 0) {
                ws_sweep_summary(&r, &prog, 0);
                if (a->array_size < 0)
                    rc = ws_sweep_extras(&r, &t, a, &err);
                ws_csv_free(&t);
            }
        } else if (rc == 1) {
            ws_sweep_summary(&r, &prog, 1);
        }
    }
    ws_sweep_run_free(&r);
    if (rc == 1)
        return 130;
    if (rc < 0) {
        ws_err_place_arg(&err, a->file);
        return ws_cli_fail(&err);
    }
    return WS_EXIT_OK;
}

int ws_cmd_sweep(int argc, char **argv)
{
    struct ws_sweep_args a;
    int rc;

    if (argc >= 2 && strcmp(argv[1], "merge") == 0)
        return ws_cmd_sweep_merge(argc - 1, argv + 1);
    memset(&a, 0, sizeof a);
    a.array_index = a.array_size = -1;
    ws_trace_opts_default(&a.topts);
    rc = ws_sweep_parse(&a, argc, argv);
    if (rc != 0)
        return rc == 1 ? WS_EXIT_OK : rc;
    return ws_sweep_main(&a);
}
