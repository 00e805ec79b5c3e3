/*
 * warpsim validate [--quick] [-j N] [-o DIR] [STUDY...]: the seed studies
 * of the table in validate/ws_studies.c, each run by ws_study_run
 * (run/ws_study_run.h) into DIR/NAME/: each sweep's S.csv and plots,
 * report.md, points.csv where the study has one, and summary.json (the
 * qualitative findings the tests assert).  Parses, calls, prints.
 *
 * Leaves out: running a study (run/ws_study_run.c), the studies and their
 * reports (sim/validate).
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run/ws_study_run.h"
#include "validate/ws_study.h"
#include "ws_cli.h"

/* Names in the list of known studies an unknown one's error gives. */
#define WS_VALIDATE_NAMES_CAP 512

static void ws_validate_help(FILE *out)
{
    fprintf(
        out,
        "usage: warpsim validate [--quick] [-j N] [-o DIR] [STUDY...]\n"
        "\n"
        "Runs the named studies (all by default) from the source root: each runs\n"
        "its sweeps (validate/studies/*.yaml) and writes DIR/STUDY/ with their\n"
        "results (one CSV per sweep), plots (SVG, gnuplot), report.md (tables and\n"
        "findings), points.csv and summary.json. Studies:\n");
    for (size_t i = 0; i < ws_study_count(); i++)
        fprintf(out, "  %-10s %s\n", ws_study_at(i)->name,
                ws_study_at(i)->what);
    fprintf(
        out,
        "\n"
        "options:\n"
        "      --quick               the reduced sweeps (*.quick.yaml): minutes,\n"
        "                            not seconds (1-4 on 2 cores)\n"
        "  -j, --jobs N              worker processes for the sweeps (default: cores)\n"
        "  -o, --output DIR          where the studies' folders go (default\n"
        "                            validate/out)\n"
        "      --model NAME=COMMAND  also run an external model at every point of\n"
        "                            every study, and score it (repeatable)\n"
        "  -h, --help                this text\n");
}

struct ws_validate_args {
    const char *word; /* argv[0], "validate": errors about the
                                   default folder are placed there */
    int quick;
    const char *jobs, *dir;
    char dir_abs[PATH_MAX]; /* dir made absolute (ws_validate_find_root) */
    const char *models[WS_SWEEP_MAX_MODELS];
    int nmodels;
    const struct ws_study_def **run; /* ws_study_count() slots */
    size_t nrun;
};

enum {
    WS_VAL_QUICK = 0x200,
    WS_VAL_MODEL
};

/* An unknown study's error lists the table's names. */
static int ws_validate_unknown(const char *name)
{
    char names[WS_VALIDATE_NAMES_CAP];
    size_t used = 0;

    names[0] = '\0';
    for (size_t i = 0; i < ws_study_count() && used < sizeof names; i++)
        used += (size_t)snprintf(names + used, sizeof names - used, "%s%s",
                                 i ? ", " : "", ws_study_at(i)->name);
    return ws_cli_usage("validate",
                        "unknown study '%s' (expected one of: "
                        "%s)",
                        name, names);
}

static int ws_validate_names(struct ws_validate_args *a, int argc, char **argv)
{
    for (int i = optind; i < argc; i++) {
        const struct ws_study_def *d = ws_study_find(argv[i]);
        if (!d)
            return ws_validate_unknown(argv[i]);
        for (size_t k = 0; k < a->nrun; k++)
            if (a->run[k] == d)
                return ws_cli_usage("validate",
                                    "study '%s' named twice "
                                    "(expected each once)",
                                    argv[i]);
        a->run[a->nrun++] = d;
    }
    for (size_t i = 0; a->nrun == 0 && i < ws_study_count(); i++)
        a->run[i] = ws_study_at(i);
    if (a->nrun == 0)
        a->nrun = ws_study_count();
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
        {NULL, 0, NULL, 0}};
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
            return ws_cli_usage("validate",
                                "too many --model (expected at "
                                "most %d)",
                                WS_SWEEP_MAX_MODELS);
        else if (opt == WS_VAL_MODEL)
            a->models[a->nmodels++] = optarg;
        else if (opt == 'j')
            rc = ws_cli_once("validate", &a->jobs, optarg, "-j");
        else if (opt == 'o' && !optarg[0])
            return ws_cli_usage("validate",
                                "-o '': an empty folder name "
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

#ifdef WS_SOURCE_DIR
static int ws_validate_isdir(const char *path)
{
    struct stat st;

    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}
#endif

/* The study files live in the source tree.  Run elsewhere by a build
 * whose source tree is still where it was built (WS_SOURCE_DIR), validate
 * works from there: the output folder, relative to where the user stands,
 * is made absolute first, then the process moves to the source root (so
 * a --model command is best given by absolute path).  Anywhere else
 * ws_study_check_root says what is missing.  0, or -1 when
 * the names do not fit. */
static int ws_validate_find_root(struct ws_validate_args *a)
{
#ifdef WS_SOURCE_DIR
    char *out = a->dir_abs;
    size_t cap = sizeof a->dir_abs;
    char cwd[PATH_MAX], studies[PATH_MAX];
    const char *dir = a->dir ? a->dir : "validate/out";

    if (ws_validate_isdir("validate/studies"))
        return 0;
    if ((size_t)snprintf(studies, sizeof studies, "%s/validate/studies",
                         WS_SOURCE_DIR)
            >= sizeof studies
        || !ws_validate_isdir(studies) || !getcwd(cwd, sizeof cwd))
        return 0;
    if ((size_t)snprintf(out, cap, "%s%s%s", dir[0] == '/' ? "" : cwd,
                         dir[0] == '/' ? "" : "/", dir)
        >= cap)
        return -1;
    if (chdir(WS_SOURCE_DIR) != 0)
        return 0; /* ws_study_check_root then says what is missing */
    a->dir = out;
    printf("validate: the study files of %s; results in %s\n", WS_SOURCE_DIR,
           out);
#else
    (void)a;
#endif
    return 0;
}

static int ws_validate_main(struct ws_validate_args *a)
{
    struct ws_study_request rq;
    struct ws_err err;
    int rc;

    memset(&rq, 0, sizeof rq);
    ws_err_clear(&err);
    if (ws_validate_find_root(a) < 0)
        return ws_cli_usage("validate",
                            "-o '%s': the path is too long (expected at "
                            "most %d bytes)",
                            a->dir ? a->dir : "validate/out", PATH_MAX);
    rq.dir = a->dir;
    rq.word = a->word;
    rq.quick = a->quick;
    for (int i = 0; i < a->nmodels; i++)
        rq.models[i] = a->models[i];
    rq.nmodels = a->nmodels;
    rq.say = stdout;
    rq.log = stderr;
    rq.progress = isatty(2);
    if (ws_study_check_root(&rq, &err) < 0)
        return ws_cli_fail(&err);
    /* -j is checked as the sweeps it goes to check their --jobs, with
     * their message, which the tests know. */
    if (a->jobs
        && (rc = ws_cli_count("sweep", "--jobs", a->jobs, 1, &rq.jobs)) != 0)
        return rc;
    for (size_t i = 0; i < a->nrun; i++) {
        rc = ws_study_run(&rq, a->run[i], &err);
        if (rc == 1)
            return 130;
        if (rc < 0)
            return ws_cli_fail(&err);
        /* a->run[0..nrun) is filled from the table by the parser; the
         * analyser cannot follow that through the calloc.
         * NOLINTNEXTLINE(clang-analyzer-core.NullDereference) */
        printf("validate %s: %s/%s/report.md\n", a->run[i]->name,
               ws_study_root(&rq), a->run[i]->name);
    }
    return WS_EXIT_OK;
}

int ws_cmd_validate(int argc, char **argv)
{
    struct ws_validate_args a;
    int rc;

    memset(&a, 0, sizeof a);
    a.word = argv[0];
    /* An array of pointers to table rows: sizeof *a.run is meant.
     * NOLINTNEXTLINE(bugprone-sizeof-expression) */
    a.run = calloc(ws_study_count(), sizeof *a.run);
    if (!a.run)
        return ws_cli_fail(&(struct ws_err){1, 1, 0, "out of memory"});
    rc = ws_validate_parse(&a, argc, argv);
    if (rc == 0)
        rc = ws_validate_main(&a);
    else if (rc == 1)
        rc = WS_EXIT_OK;
    free(a.run);
    return rc;
}
