/*
 * warpsim validate: the seed studies, each one command that runs its sweeps
 * (validate/studies/S.yaml, or S.quick.yaml with --quick) and writes
 * validate/out/NAME/: each sweep's S.csv and plots, report.md, points.csv
 * where the study has one, and summary.json (the qualitative findings the
 * tests assert).  Run from the source root, where the study files are.
 *
 * A study's sweep is resumable like any sweep: a rerun keeps the points it
 * already has and only rewrites the report.
 *
 * Leaves out: the reports themselves (sim/validate).
 */
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/ws_csv.h"
#include "input/ws_input.h"
#include "sweep/ws_sweep.h"
#include "util/ws_grow.h"
#include "util/ws_num.h"
#include "validate/ws_study.h"
#include "ws_cli.h"
#include "util/ws_output.h"
#include "run/ws_sweep_cli.h"

#define WS_STUDY_MAX_SWEEPS 40

struct ws_study_def {
    const char *name;
    const char *what;
    /* validate/studies/S.yaml, results in DIR/NAME/S.csv; "OWNER/S": a
     * sweep another study owns, its results in DIR/OWNER/S.csv (a
     * sweep resumes, so a study run before leaves nothing to run) */
    const char *sweeps[WS_STUDY_MAX_SWEEPS];
    int (*report)(const struct ws_csv *const *t, size_t n,
                  struct ws_study_out *out, struct ws_err *err);
    const char *chart;          /* the study's own chart, or NULL */
};

static const struct ws_study_def ws_studies[] = {
    {"saxpy", "saxpy on TITAN X against MWP/CWP and MWP/CWP+L2 (seed 000)",
     {"saxpy_paper", "saxpy"}, ws_study_saxpy, NULL},
    {"apsp", "APSP on GTX 480: the B_r zigzag, eq 15's fit, section V "
     "(seed 004)", {"apsp_br", "apsp_t", "apsp_ba", "apsp_anomaly"}, ws_study_apsp,
     WS_STUDY_CHART_APSP},
    {"levels", "chase latency per level and STREAM bandwidth, every config",
     {"levels_chase", "levels_copy", "levels_triad"}, ws_study_levels, NULL},
    {"matmul", "the 7 matmul variants on V100: ts, ul, score, RSM (seed 001)",
     {"matmul_baseline", "matmul_tiling", "matmul_coalescing",
      "matmul_nobankconflict", "matmul_computeopt", "matmul_unroll",
      "matmul_prefetch"}, ws_study_matmul, WS_STUDY_CHART_MATMUL},
    {"scoreboard", "every model against the simulation in its domain and "
     "outside it, against the H100 where measured, over the runs above",
     {"saxpy/saxpy_paper", "saxpy/saxpy", "apsp/apsp_br", "apsp/apsp_t",
      "apsp/apsp_ba", "levels/levels_chase",
      "levels/levels_copy",
      "levels/levels_triad", "matmul/matmul_baseline", "matmul/matmul_tiling",
      "matmul/matmul_coalescing", "matmul/matmul_nobankconflict",
      "matmul/matmul_computeopt", "matmul/matmul_unroll",
      "matmul/matmul_prefetch",
      "hw_saxpy", "hw_copy", "hw_triad", "hw_fma", "hw_baseline",
      "hw_tiling", "hw_coalescing", "hw_nobankconflict", "hw_computeopt",
      "hw_unroll", "hw_prefetch", "hw_apsp", "hw_pchase", "hw_reduce",
      "est_copy", "est_matmul", "est_saxpy"}, ws_study_scoreboard, NULL},
    {"quadrant", "one kernel across the GPUs against its intensity (the "
     "blog seed's quadrant-split view)", {"quadrant"}, ws_study_quadrant,
     WS_STUDY_CHART_QUADRANT},
};
#define WS_NSTUDIES (sizeof ws_studies / sizeof ws_studies[0])

static void ws_validate_help(FILE *out)
{
    fprintf(out,
"usage: warpsim validate [--quick] [-j N] [-o DIR] [STUDY...]\n"
"\n"
"Runs the named studies (all by default) from the source root: each runs\n"
"its sweeps (validate/studies/*.yaml) and writes DIR/STUDY/ with their\n"
"results (one CSV per sweep), plots (SVG, gnuplot), report.md (tables and\n"
"findings), points.csv and summary.json. Studies:\n");
    for (size_t i = 0; i < WS_NSTUDIES; i++)
        fprintf(out, "  %-10s %s\n", ws_studies[i].name, ws_studies[i].what);
    fprintf(out,
"\n"
"options:\n"
"      --quick               the reduced sweeps (*.quick.yaml): seconds\n"
"  -j, --jobs N              worker processes for the sweeps (default: cores)\n"
"  -o, --output DIR          where the studies' folders go (default\n"
"                            validate/out)\n"
"      --model NAME=COMMAND  also run an external model at every point of\n"
"                            every study, and score it (repeatable)\n"
"  -h, --help                this text\n");
}

struct ws_validate_args {
    const char *word;           /* argv[0], "validate": errors about the
                                   default folder are placed there */
    int quick;
    const char *jobs, *dir;
    const char *models[WS_SWEEP_MAX_MODELS];
    int nmodels;
    const struct ws_study_def *run[WS_NSTUDIES];
    size_t nrun;
};

enum { WS_VAL_QUICK = 0x200, WS_VAL_MODEL };

static const struct ws_study_def *ws_study_find(const char *name)
{
    for (size_t i = 0; i < WS_NSTUDIES; i++)
        if (strcmp(ws_studies[i].name, name) == 0)
            return &ws_studies[i];
    return NULL;
}

static int ws_validate_names(struct ws_validate_args *a, int argc,
                             char **argv)
{
    for (int i = optind; i < argc; i++) {
        const struct ws_study_def *d = ws_study_find(argv[i]);
        if (!d)
            return ws_cli_usage("validate", "unknown study '%s' (expected "
                                "one of: saxpy, apsp, levels, matmul, "
                                "scoreboard, quadrant)", argv[i]);
        for (size_t k = 0; k < a->nrun; k++)
            if (a->run[k] == d)
                return ws_cli_usage("validate", "study '%s' named twice "
                                    "(expected each once)", argv[i]);
        a->run[a->nrun++] = d;
    }
    for (size_t i = 0; a->nrun == 0 && i < WS_NSTUDIES; i++)
        a->run[i] = &ws_studies[i];
    if (a->nrun == 0)
        a->nrun = WS_NSTUDIES;
    return 0;
}

/* 0 ok, 1 after --help, WS_EXIT_INPUT after a usage error. */
static int ws_validate_parse(struct ws_validate_args *a, int argc, char **argv)
{
    static const struct option longopts[] = {
        {"quick", no_argument, NULL, WS_VAL_QUICK},
        {"jobs", required_argument, NULL, 'j'},
        {"output", required_argument, NULL, 'o'},
        {"model", required_argument, NULL, WS_VAL_MODEL},
        {"help", no_argument, NULL, WS_OPT_HELP},
        {NULL, 0, NULL, 0}
    };
    int opt, rc = 0;

    optind = 1;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":j:o:h", longopts, NULL)) != -1) {
        if (opt == WS_OPT_HELP) {
            ws_validate_help(stdout);
            return 1;
        }
        if (opt == WS_VAL_QUICK)
            a->quick = 1;
        else if (opt == WS_VAL_MODEL && a->nmodels == WS_SWEEP_MAX_MODELS)
            return ws_cli_usage("validate", "too many --model (expected at "
                                "most %d)", WS_SWEEP_MAX_MODELS);
        else if (opt == WS_VAL_MODEL)
            a->models[a->nmodels++] = optarg;
        else if (opt == 'j')
            rc = ws_cli_once("validate", &a->jobs, optarg, "-j");
        else if (opt == 'o' && !optarg[0])
            return ws_cli_usage("validate", "-o '': an empty folder name "
                                "(expected the folder the studies go in)");
        else if (opt == 'o')
            rc = ws_cli_once("validate", &a->dir, optarg, "-o");
        else
            return ws_cli_bad_option("validate", opt, argv);
        if (rc < 0)
            return WS_EXIT_INPUT;
    }
    return ws_validate_names(a, argc, argv);
}

static char *ws_join(const char *a, const char *b, const char *c)
{
    size_t n = strlen(a) + strlen(b) + strlen(c) + 3;
    char *s = malloc(n);

    if (s)
        snprintf(s, n, "%s/%s%s", a, b, c);
    return s;
}

/* One of the study's sweeps (its file) into out, through `warpsim
 * sweep`. */
static int ws_validate_sweep(const struct ws_validate_args *a,
                             const char *file, const char *out)
{
    char *argv[8 + 2 * WS_SWEEP_MAX_MODELS];
    int argc = 0;

    argv[argc++] = "sweep";
    argv[argc++] = (char *)file;
    if (a->jobs) {
        argv[argc++] = "-j";
        argv[argc++] = (char *)a->jobs;
    }
    argv[argc++] = "-o";
    argv[argc++] = (char *)out;
    for (int i = 0; i < a->nmodels; i++) {
        argv[argc++] = "--model";
        argv[argc++] = (char *)a->models[i];
    }
    argv[argc] = NULL;
    return ws_cmd_sweep(argc, argv);
}

/* The word errors about the study folders are placed at: -o's DIR, or
 * the command's name when the folder is the default. */
static const char *ws_validate_named(const struct ws_validate_args *a)
{
    return a->dir ? a->dir : a->word;
}

/* The report's files, as outputs under the rules every file warpsim
 * writes follows (ws_output.h): planned when the study starts, so that a
 * read-only report.md or a folder that takes no files is refused before
 * hours of sweeps, and planned again when they are written. */
enum { WS_VAL_REPORT, WS_VAL_POINTS, WS_VAL_SUMMARY, WS_VAL_CHART,
       WS_VAL_NOUT };

struct ws_validate_outs {
    struct ws_output o[WS_VAL_NOUT];
    char *path[WS_VAL_NOUT];
};

static void ws_validate_outs_free(struct ws_validate_outs *v)
{
    for (int i = 0; i < WS_VAL_NOUT; i++) {
        ws_output_free(&v->o[i]);
        free(v->path[i]);
        v->path[i] = NULL;
    }
}

static int ws_validate_outs_plan(const struct ws_validate_args *a,
                                 struct ws_validate_outs *v, const char *dir,
                                 const char *chart, struct ws_err *err)
{
    const char *names[WS_VAL_NOUT] = {"report.md", "points.csv",
                                      "summary.json", chart};

    ws_validate_outs_free(v);
    for (int i = 0; i < WS_VAL_NOUT; i++) {
        v->o[i] = (struct ws_output){.flag = "-o"};
        if (!names[i])
            continue;
        if (!(v->path[i] = ws_join(dir, names[i], "")))
            return ws_err_oom(err);
        v->o[i].path = v->path[i];
        v->o[i].named = ws_validate_named(a);
    }
    return ws_output_plan(v->o, WS_VAL_NOUT, NULL, 0, err);
}

static char *ws_validate_json(json_t *summary)
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

static int ws_validate_outputs(const struct ws_validate_args *a,
                               struct ws_validate_outs *v, const char *dir,
                               const struct ws_study_out *o,
                               struct ws_err *err)
{
    char *json = ws_validate_json(o->summary);
    const char *text[WS_VAL_NOUT] = {o->report, o->points, json, o->chart};
    int rc;

    if (!json)
        return ws_err_oom(err);
    rc = ws_validate_outs_plan(a, v, dir, o->chart ? o->chart_name : NULL,
                               err);
    /* One file that cannot be written does not cost the others; the
     * first failure is the command's. */
    for (int i = 0; rc == 0 && i < WS_VAL_NOUT; i++) {
        struct ws_err e;
        ws_err_clear(&e);
        if (text[i] && ws_output_write(&v->o[i], text[i], &e) < 0
            && !err->set)
            *err = e;
    }
    free(json);
    return rc < 0 || err->set ? -1 : 0;
}

/* Where a sweep's results go: DIR/NAME/S.csv, or DIR/OWNER/S.csv for
 * "OWNER/S" (malloc'd; NULL when out of memory). */
static char *ws_validate_csv_path(const struct ws_validate_args *a,
                                  const char *dir, const char *sweep)
{
    return strchr(sweep, '/') ? ws_join(a->dir ? a->dir : "validate/out",
                                        sweep, ".csv")
                              : ws_join(dir, sweep, ".csv");
}

/* Where a sweep's results go: DIR/NAME/S.csv, or for "OWNER/S" the owning
 * study's folder, made when missing (*owner and *made say what was made,
 * for ws_output_rmdirs if the sweep fails). */
static char *ws_validate_csv(const struct ws_validate_args *a,
                             const char *dir, const char *sweep,
                             char **owner_dir, size_t *made,
                             struct ws_err *err)
{
    const char *slash = strchr(sweep, '/');
    const char *root = a->dir ? a->dir : "validate/out";
    char *owner, *csv;

    *owner_dir = NULL;
    *made = 0;
    if (!slash) {
        if (!(csv = ws_join(dir, sweep, ".csv")))
            ws_err_oom(err);
        return csv;
    }
    owner = strndup(sweep, (size_t)(slash - sweep));
    *owner_dir = owner ? ws_join(root, owner, "") : NULL;
    free(owner);
    if (!*owner_dir) {
        ws_err_oom(err);
        return NULL;
    }
    if (ws_output_mkdirs(*owner_dir, ws_validate_named(a), "a folder for "
                         "the study's results", made, err) < 0)
        return NULL;
    if (!(csv = ws_join(root, sweep, ".csv")))
        ws_err_oom(err);
    return csv;
}

/* The sweep checks its results file too, but its errors would be placed
 * on the argv validate built for it, which is no word the user typed. */
static int ws_validate_plan_csv(const struct ws_validate_args *a,
                                const char *csv, struct ws_err *err)
{
    struct ws_output o = {.path = csv, .flag = "-o",
                          .named = ws_validate_named(a)};
    int rc = ws_output_plan(&o, 1, NULL, 0, err);

    ws_output_free(&o);
    return rc;
}

/* The sweep file a study's sweep runs: validate/studies/S.yaml, or with
 * --quick S.quick.yaml, where the sweep has one (the scoreboard's hardware
 * and sensitivity sweeps, whose full form is already small, have one for a
 * case or two only: the others are left out).  1: left out; -1: the study
 * file is missing, which is a checkout without its studies. */
static int ws_validate_file(const struct ws_validate_args *a,
                            const char *stem, char *file, size_t cap,
                            struct ws_err *err)
{
    struct stat st;

    snprintf(file, cap, "validate/studies/%s.yaml", stem);
    if (stat(file, &st) != 0)
        return ws_err_arg(err, ws_validate_named(a), 0, 0, "%s: no such "
                          "file (expected warpsim's source root, with the "
                          "study files)", file);
    if (!a->quick)
        return 0;
    snprintf(file, cap, "validate/studies/%s.quick.yaml", stem);
    return stat(file, &st) == 0 ? 0 : 1;
}

/* ---- every output of a study, planned before its first sweep ------------ */

struct ws_validate_preplan {
    struct ws_output *outs;
    char **paths;
    size_t nouts;
    const char **inputs;
    size_t ninputs, incap;
    char full[WS_STUDY_MAX_SWEEPS][160];    /* S.yaml, when --quick runs
                                               S.quick.yaml */
    struct ws_sweep sweeps[WS_STUDY_MAX_SWEEPS];
    size_t nsweeps;
};

static void ws_validate_preplan_free(struct ws_validate_preplan *p)
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
static void ws_validate_add_out(struct ws_validate_preplan *p, char *path,
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
static void ws_validate_touch_input(const struct ws_sweep *s)
{
    struct ws_input_params ip = {NULL, 0, s->listing, {0}};
    struct ws_input in;
    struct ws_err scratch;

    memset(&in, 0, sizeof in);
    ws_err_clear(&scratch);
    ws_trace_opts_default(&ip.opts);
    if (ws_input_open(&in, s->input, &ip, &scratch) == 0)
        ws_input_close(&in);
}

/* files[0..n) join the study's input files. */
static int ws_validate_add_inputs(struct ws_validate_preplan *p,
                                  const char *const *files, size_t n,
                                  struct ws_err *err)
{
    if (ws_grow((void **)&p->inputs, &p->incap, p->ninputs + n,
                sizeof *p->inputs, 64) < 0)
        return ws_err_oom(err);
    memcpy(p->inputs + p->ninputs, files, n * sizeof *files);
    p->ninputs += n;
    return 0;
}

/* One sweep's files: its results and plots as outputs, what it reads as
 * inputs. */
static int ws_validate_preplan_sweep(const struct ws_validate_args *a,
                                     struct ws_validate_preplan *p,
                                     const char *file, char *csv,
                                     struct ws_err *err)
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
    /* The plots first: ws_validate_add_out takes csv (and may free it). */
    for (size_t i = 0; i < s->nplots; i++)
        ws_validate_add_out(p, ws_sweep_beside(csv, s->plots[i].file),
                            (struct ws_output){
            .flag = "plot file", .at_file = s->path,
            .at_line = s->plots[i].line, .at_col = s->plots[i].col});
    ws_validate_add_out(p, csv, (struct ws_output){
        .flag = "-o", .named = ws_validate_named(a)});
    files = ws_sweep_input_files(s, &n);
    rc = files ? ws_validate_add_inputs(p, files, n, err) : ws_err_oom(err);
    free(files);
    ws_validate_touch_input(s);
    return rc;
}

/* Every file the study will write (report files, each sweep's results and
 * plots) planned together against every file its sweeps read, before the
 * first sweep runs: an output that is an input, or two outputs on one
 * file (points.csv linked to a sweep's results), are refused before any
 * work rather than after an hour of it. */
static int ws_validate_preplan(const struct ws_validate_args *a,
                               const struct ws_study_def *d, const char *dir,
                               struct ws_err *err)
{
    static const char *const reports[] = {"report.md", "points.csv",
                                          "summary.json"};
    size_t cap = 4 + WS_STUDY_MAX_SWEEPS * (1 + WS_SWEEP_MAX_PLOTS);
    struct ws_validate_preplan p;
    int rc = 0;

    memset(&p, 0, sizeof p);
    p.outs = calloc(cap, sizeof *p.outs);
    p.paths = calloc(cap, sizeof *p.paths);
    if (!p.outs || !p.paths)
        rc = ws_err_oom(err);
    for (size_t i = 0; rc == 0 && i < 3; i++)
        ws_validate_add_out(&p, ws_join(dir, reports[i], ""),
                            (struct ws_output){.flag = "-o",
                                               .named = ws_validate_named(a)});
    if (rc == 0 && d->chart)
        ws_validate_add_out(&p, ws_join(dir, d->chart, ""),
                            (struct ws_output){.flag = "-o",
                                               .named = ws_validate_named(a)});
    for (size_t i = 0; rc == 0 && i < WS_STUDY_MAX_SWEEPS && d->sweeps[i];
         i++) {
        const char *stem = strrchr(d->sweeps[i], '/');
        char file[160];
        stem = stem ? stem + 1 : d->sweeps[i];
        rc = ws_validate_file(a, stem, file, sizeof file, err);
        /* The full study file is the study's even when --quick reads the
         * reduced one (or leaves the sweep out). */
        snprintf(p.full[i], sizeof p.full[i], "validate/studies/%s.yaml",
                 stem);
        if (rc >= 0 && ws_validate_add_inputs(&p, (const char *const[]){
                                                  p.full[i]}, 1, err) < 0)
            rc = -1;
        if (rc == 1) {
            rc = 0;
            continue;
        }
        if (rc == 0)
            rc = ws_validate_preplan_sweep(a, &p, file,
                                           ws_validate_csv_path(a, dir,
                                                                d->sweeps[i]),
                                           err);
    }
    if (rc == 0)
        rc = ws_output_plan(p.outs, (int)p.nouts, p.inputs, (int)p.ninputs,
                            err);
    ws_validate_preplan_free(&p);
    return rc;
}

/* Runs the study's sweeps, loads their tables; returns how many it
 * loaded, or -1 (error in err) / -2 (a sweep failed and said why: its
 * exit status in *code, 130 when interrupted). */
static long ws_validate_tables(const struct ws_validate_args *a,
                               const struct ws_study_def *d, const char *dir,
                               struct ws_csv *t, int *code,
                               struct ws_err *err)
{
    long n = 0;

    for (size_t i = 0; i < WS_STUDY_MAX_SWEEPS && d->sweeps[i]; i++) {
        const char *stem = strrchr(d->sweeps[i], '/');
        char *csv, *owner_dir = NULL, file[160];
        size_t made = 0;
        int rc;
        stem = stem ? stem + 1 : d->sweeps[i];
        rc = ws_validate_file(a, stem, file, sizeof file, err);
        if (rc == 1)
            continue;
        csv = rc < 0 ? NULL : ws_validate_csv(a, dir, d->sweeps[i],
                                              &owner_dir, &made, err);
        if (!csv || ws_validate_plan_csv(a, csv, err) < 0)
            rc = -1;
        else if ((*code = ws_validate_sweep(a, file, csv)) != WS_EXIT_OK)
            rc = -2;
        else
            rc = ws_csv_load_own(&t[n], csv, err);
        /* Interrupted, the finished points stay for the rerun. */
        if (rc < 0 && *code != 130 && owner_dir)
            ws_output_rmdirs(owner_dir, made);
        free(owner_dir);
        free(csv);
        if (rc < 0) {
            while (n-- > 0)
                ws_csv_free(&t[n]);
            return rc;
        }
        n++;
    }
    return n;
}

static int ws_validate_one(const struct ws_validate_args *a,
                           const struct ws_study_def *d, struct ws_err *err)
{
    char *dir = ws_join(a->dir ? a->dir : "validate/out", d->name, "");
    struct ws_csv t[WS_STUDY_MAX_SWEEPS];
    const struct ws_csv *tp[WS_STUDY_MAX_SWEEPS];
    struct ws_validate_outs v;
    struct ws_study_out o;
    size_t made = 0;
    long n = -1;
    int rc, code = 0;

    memset(&v, 0, sizeof v);
    if (!dir)
        return ws_err_oom(err);
    rc = ws_output_mkdirs(dir, ws_validate_named(a), "a folder for the "
                          "study's results", &made, err);
    if (rc == 0)
        rc = ws_validate_preplan(a, d, dir, err);
    if (rc == 0)
        n = ws_validate_tables(a, d, dir, t, &code, err);
    if (rc == 0 && n == -2)
        rc = code;              /* the sweep said why */
    else if (rc == 0 && n < 0)
        rc = -1;
    else if (rc == 0 && n == 0)
        rc = ws_err_arg(err, ws_validate_named(a), 0, 0, "study %s ran no "
                        "sweep%s (expected its study files in "
                        "validate/studies/)", d->name, a->quick ? ": none has "
                        "a .quick.yaml" : "");
    if (rc == 0) {
        for (long i = 0; i < n; i++)
            tp[i] = &t[i];
        rc = d->report(tp, (size_t)n, &o, err);
        if (rc == 0) {
            rc = ws_validate_outputs(a, &v, dir, &o, err);
            ws_study_out_free(&o);
        }
        while (n-- > 0)
            ws_csv_free(&t[n]);
    }
    ws_validate_outs_free(&v);
    if (rc == 0)
        printf("validate %s: %s/report.md\n", d->name, dir);
    else if (rc != 130)
        ws_output_rmdirs(dir, made);    /* only folders left empty */
    free(dir);
    return rc;
}

/* The studies are files of the source tree: run elsewhere, every sweep
 * would be missing (and --quick would skip them all, reporting nothing). */
static int ws_validate_root(const struct ws_validate_args *a,
                            struct ws_err *err)
{
    struct stat st;

    if (stat("validate/studies", &st) == 0 && S_ISDIR(st.st_mode))
        return 0;
    return ws_err_arg(err, a->word, 0, 0, "validate/studies: no such folder "
                      "here (expected to run from warpsim's source root, "
                      "where the study files are)");
}

int ws_cmd_validate(int argc, char **argv)
{
    struct ws_validate_args a;
    struct ws_err err;
    int rc;

    memset(&a, 0, sizeof a);
    ws_err_clear(&err);
    a.word = argv[0];
    rc = ws_validate_parse(&a, argc, argv);
    if (rc != 0)
        return rc == 1 ? WS_EXIT_OK : rc;
    if (ws_validate_root(&a, &err) < 0)
        return ws_cli_fail(&err);
    for (size_t i = 0; i < a.nrun; i++) {
        rc = ws_validate_one(&a, a.run[i], &err);
        if (rc > 0)
            return rc;          /* a sweep's status: 1, 2 or 130 */
        if (rc < 0)
            return ws_cli_fail(&err);
    }
    return WS_EXIT_OK;
}
