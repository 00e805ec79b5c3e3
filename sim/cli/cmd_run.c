/*
 * warpsim run: simulate every kernel of a trace (or those --kernel and
 * --max-kernels pick), in launch order, on one GPU, and report.  Outputs
 * (stdout summary, --json, --csv, --roofline, --timeline) are produced
 * only when the whole run succeeded; a timeline is written to a temporary
 * file while the run goes and renamed at the end.
 *
 * Progress goes to stderr, on a terminal only.
 *
 * Leaves out: the run itself (run/ws_run.h): this file parses, calls and
 * prints.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "report/ws_report.h"
#include "report/ws_roofline_plot.h"
#include "report/ws_timeline_json.h"
#include "stats/ws_timeline.h"
#include "timing/ws_par.h"
#include "trace/ws_opcode.h"
#include "util/ws_num.h"
#include "util/ws_regex.h"
#include "ws_cli.h"
#include "run/ws_ext_model.h"
#include "util/ws_hash.h"
#include "util/ws_output.h"
#include "util/ws_utf8.h"
#include "run/ws_run.h"

enum {
    WS_OPT_CSV = 0x200,
    WS_OPT_TIMELINE,
    WS_OPT_TIMELINE_WINDOW,
    WS_OPT_TIMELINE_MAX,
    WS_OPT_TIMELINE_LEVEL,
    WS_OPT_KERNEL,
    WS_OPT_MAX_KERNELS,
    WS_OPT_EXT_MODEL,
    WS_OPT_MANGLED,
    WS_OPT_ROOFLINE,
    WS_OPT_THREADS
};

struct ws_run_args {
    struct ws_cli_gpu_opts gpu;
    struct ws_cli_params params;
    struct ws_trace_opts topts;
    const char *json, *csv, *roofline, *timeline, *input;
    uint64_t tl_from, tl_to, tl_max;
    const char *tl_level_arg; /* --timeline-level, as typed */
    enum ws_tl_level tl_level;
    const char *tl_option;   /* a --timeline-* option given, for checks */
    const char *kernel;      /* --kernel, as typed */
    const char *max_kernels; /* --max-kernels, as typed */
    struct ws_run_select sel;
    struct ws_ext_models ext; /* --model */
    int mangled;              /* --mangled */
    unsigned threads;         /* --threads; 0: as many as there are cores */
};

/* The progress line is rubbed out with this many blanks: a terminal's
 * usual 80 columns less the cursor. */
#define WS_RUN_PROGRESS_WIDTH 79

struct ws_progress {
    int on;
    double start, last;
    size_t kernel, nkernels;
};

static void ws_run_help(FILE *out)
{
    fprintf(
        out,
        "usage: warpsim run [OPTIONS] TRACE\n"
        "\n"
        "Simulates every kernel of TRACE (a kernelslist.g, a folder holding one,\n"
        "one kernel-N.traceg[.xz|.zst], or a workload.yaml that expands a SASS listing)\n"
        "in launch order on one GPU, host-to-device copies warming L2 between\n"
        "them, and prints per kernel and in total:\n"
        "cycles, time at the SM clock, warp instructions, IPC, occupancy and what\n"
        "limits it, the top stall reasons, L1/L2 hit rates and DRAM bandwidth,\n"
        "each unit's and memory level's use as a share of its peak, rule hints,\n"
        "and for several kernels a summary by kernel name.\n"
        "\n"
        "options:\n" WS_CLI_INPUT_HELP
        "      --json FILE           everything, every counter, as JSON\n"
        "      --csv FILE            one row per kernel\n"
        "      --roofline FILE       each kernel's hierarchical roofline (L1, L2,\n"
        "                            DRAM) under the config's ceilings, SVG (gnuplot)\n"
        "      --timeline FILE       Chrome/Perfetto trace-event JSON of kernels, CTA\n"
        "                            residency and warp issue and stalls per SM, in\n"
        "                            microseconds at the SM clock (open in\n"
        "                            ui.perfetto.dev)\n"
        "      --timeline-window A:B only cycles [A, B) (default 0:200000)\n"
        "      --timeline-max-events N  at most N events (default 1000000)\n"
        "      --timeline-level warp|cta  warp: warp tracks too (default); cta:\n"
        "                            kernels and CTA residency only, a far smaller\n"
        "                            file\n"
        "  -k, --kernel N|REGEX      simulate only the kernel of launch id N (as the\n"
        "                            report numbers them), or the kernels whose name,\n"
        "                            mangled, base ('reduce') or demangled, matches\n"
        "                            REGEX (POSIX extended, unanchored); the others\n"
        "                            are skipped\n"
        "                            after their header, their host-to-device copies\n"
        "                            still warming L2\n"
        "      --max-kernels N       simulate at most N kernels (after --kernel)\n"
        "      --threads N           simulate a kernel's SMs on N threads (0: one\n"
        "                            per core; default 1); the numbers are the\n"
        "                            same for any N\n"
        "      --mangled             name kernels as traced (default: demangled C++\n"
        "                            names in the text; the JSON has both)\n"
        "      --model NAME=COMMAND  also run an external model beside the built-in\n"
        "                            ones, through the JSON contract (README,\n"
        "                            \"External models\"); repeatable\n"
        "      --allow-unknown-keys  skip unknown trace header keys\n" WS_CLI_LIMIT_HELP
        "  -h, --help                this text\n",
        ws_cfg_default_name());
}

static double ws_wall(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void ws_run_progress(void *ctx, const struct ws_kernel_stats *k,
                            uint64_t ctas_done, uint64_t now)
{
    struct ws_progress *p = ctx;
    double t = ws_wall();

    if (t - p->last < 0.25)
        return;
    p->last = t;
    fprintf(stderr,
            "\rkernel %zu/%zu %.32s: CTAs %llu/%llu, %llu cycles, "
            "%.0f kcycles/s   ",
            p->kernel, p->nkernels, k->name, (unsigned long long)ctas_done,
            (unsigned long long)k->ctas_total,
            (unsigned long long)(now - k->start),
            (double)now / 1000.0 / (t - p->start));
}

/* The output files, in the order they are written. */
enum {
    WS_RUN_OUT_TIMELINE,
    WS_RUN_OUT_JSON,
    WS_RUN_OUT_CSV,
    WS_RUN_OUT_ROOFLINE,
    WS_RUN_NOUT
};

/* The roofline is drawn before --json and --csv are written: gnuplot,
 * missing or failing, is what may fail, and then neither is.  (The
 * timeline, written while the run went, is already in place.) */
static int ws_run_outputs(struct ws_output *outs,
                          const struct ws_run_report *rep, struct ws_err *err)
{
    struct ws_output *roof = &outs[WS_RUN_OUT_ROOFLINE];
    char *text, *svg = NULL;
    int rc = 0;

    if (roof->path && !(svg = ws_roofline_svg(rep, err))) {
        ws_err_place_arg(err, roof->path);
        return -1;
    }
    for (int i = WS_RUN_OUT_JSON; i < WS_RUN_NOUT && rc == 0; i++) {
        if (!outs[i].path)
            continue;
        if (i == WS_RUN_OUT_ROOFLINE) {
            rc = ws_output_write(&outs[i], svg, err);
            continue;
        }
        text = i == WS_RUN_OUT_JSON ? ws_report_json(rep) : ws_report_csv(rep);
        rc = text ? ws_output_write(&outs[i], text, err) : ws_err_oom(err);
        free(text);
    }
    free(svg);
    return rc;
}

/* The timeline is written while the simulation runs, into a temporary
 * file that becomes the output only if the whole run succeeds. */
static int ws_run_timeline_start(const struct ws_run_args *a,
                                 struct ws_output *o, struct ws_timeline *tl,
                                 struct ws_timeline_json *j,
                                 const struct ws_gpu *gpu, struct ws_err *err)
{
    struct ws_timeline_writer w;

    if (ws_output_open(o, err) < 0)
        return -1;
    w = ws_timeline_json_writer(j, o->fp);
    if (ws_timeline_open(tl, &w, gpu, a->tl_level, a->tl_from, a->tl_to,
                         a->tl_max, err)
        < 0) {
        ws_output_abort(o);
        return -1;
    }
    return 0;
}

/* The run's warnings: every substitution or loss the outputs would not
 * show by themselves, each on stderr as it is found and, whole, in the
 * JSON's "warnings" (report/ws_report.h). */
struct ws_run_warnings {
    char **v;
    size_t n;
};

static void ws_run_warn(struct ws_run_warnings *w, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void ws_run_warn(struct ws_run_warnings *w, const char *fmt, ...)
{
    char *text, *clean, **v;
    va_list ap, again;
    int len;

    va_start(ap, fmt);
    va_copy(again, ap);
    len = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    text = len >= 0 ? malloc((size_t)len + 1) : NULL;
    if (text)
        vsnprintf(text, (size_t)len + 1, fmt, again);
    va_end(again);
    if (!text)
        return;
    /* one line, and the same bytes on stderr as in the JSON: a path with
     * a line break or invalid UTF-8 is shown, not copied */
    clean = ws_utf8_sanitize(text);
    free(text);
    if (!clean)
        return;
    text = clean;
    for (char *c = text; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            *c = ' ';
    fprintf(stderr, "warpsim: warning: %s\n", text);
    v = realloc(w->v, (w->n + 1) * sizeof *v);
    if (!v) {
        free(text);
        return;
    }
    w->v = v;
    w->v[w->n++] = text;
}

static void ws_run_warnings_free(struct ws_run_warnings *w)
{
    for (size_t i = 0; i < w->n; i++)
        free(w->v[i]);
    free(w->v);
}

/* Unknown opcodes timed as the config's class, kernel by kernel. */
static void ws_run_warn_unknown(struct ws_run_warnings *w,
                                const struct ws_run_report *rep,
                                const struct ws_gpu *gpu)
{
    for (size_t i = 0; i < rep->nkernels; i++)
        if (rep->kernels[i].unknown_ops[0])
            ws_run_warn(w, "kernel %u: unknown opcodes simulated as %s: %s",
                        rep->kernels[i].launch.id,
                        ws_opcode_class_name(
                            (enum ws_op_class)gpu->unknown_class),
                        rep->kernels[i].unknown_ops);
}

/* What produced the report (report/ws_report.h): the options as typed,
 * the effective config's hash and every file the input read, by content.
 * *files is the caller's to free. */
static int ws_run_provenance(const struct ws_run_args *a,
                             const struct ws_gpu *gpu, struct ws_input *in,
                             struct ws_provenance *p,
                             struct ws_prov_file **files, struct ws_err *err)
{
    size_t n = ws_input_nfiles(in), k = 0, len = 0;
    char *text;

    memset(p, 0, sizeof *p);
    *files = calloc(n ? n : 1, sizeof **files);
    if (!*files || !(text = ws_cfg_text(gpu, &len)))
        return ws_err_oom(err);
    ws_hash_hex(text, len, p->config_hash);
    free(text);
    for (size_t i = 0; i < n; i++) {
        const char *path = ws_input_file(in, i);
        if (!path)
            continue;
        (*files)[k].path = path;
        if (ws_hash_file_hex(path, (*files)[k].hash, &(*files)[k].bytes, err)
            < 0)
            return -1;
        k++;
    }
    p->gpu_arg = a->gpu.gpu;
    p->sets = a->gpu.sets;
    p->nsets = a->gpu.nsets;
    p->params = a->params.sets;
    p->nparams = a->params.nsets;
    p->listing = a->params.listing;
    p->files = *files;
    p->nfiles = k;
    return 0;
}

/* The library's run between the timeline's opening and its commit, and
 * the outputs once everything succeeded.  The hooks point at this frame's
 * progress and timeline, so they go on a copy of the request, never on
 * the caller's. */
static int ws_run_go(struct ws_run_args *a, const struct ws_run_request *req,
                     struct ws_input *in, struct ws_output *outs,
                     struct ws_err *err)
{
    size_t n = ws_input_nkernels(in);
    struct ws_progress prog = {isatty(2), ws_wall(), ws_wall(), 1, n ? n : 1};
    struct ws_output *tlo = &outs[WS_RUN_OUT_TIMELINE];
    struct ws_run_report rep;
    struct ws_provenance prov;
    struct ws_prov_file *files = NULL;
    struct ws_run_warnings warn = {NULL, 0};
    struct ws_timeline tl;
    struct ws_timeline_json tlj;
    struct ws_run_request r = *req, *rq = &r;
    int rc;

    /* Hashed before the run reads them: a file replaced while it runs
     * (a rename over a packed trace) is named as it was opened. */
    if (ws_run_provenance(a, rq->gpu, in, &prov, &files, err) < 0) {
        free(files);
        return -1;
    }
    if (prog.on) {
        rq->hooks.progress = ws_run_progress;
        rq->hooks.progress_ctx = &prog;
        rq->kernel_no = &prog.kernel;
    }
    if (tlo->path) {
        if (ws_run_timeline_start(a, tlo, &tl, &tlj, rq->gpu, err) < 0) {
            free(files);
            return -1;
        }
        rq->hooks.tl = &tl;
    }
    rc = ws_run_simulate(rq, in, &rep, err); /* rep zeroed on failure */
    if (prog.on)
        fprintf(stderr, "\r%*s\r", WS_RUN_PROGRESS_WIDTH, "");
    if (rq->hooks.tl) {
        if (rc == 0 && tl.truncated)
            ws_run_warn(&warn,
                        "timeline %s: truncated at %llu events "
                        "(--timeline-max-events); later events dropped",
                        tlo->path, (unsigned long long)tl.max_events);
        ws_timeline_close(&tl);
        if (rc == 0)
            rc = ws_output_commit(tlo, err);
        else
            ws_output_abort(tlo);
    }
    if (rc == 0) {
        ws_run_warn_unknown(&warn, &rep, rq->gpu);
        rep.prov = &prov;
        rep.mangled = a->mangled;
        rep.warnings = (const char *const *)warn.v;
        rep.nwarnings = warn.n;
        rc = ws_run_outputs(outs, &rep, err);
    }
    if (rc == 0)
        ws_report_text(stdout, &rep);
    ws_run_free(&rep);
    ws_run_warnings_free(&warn);
    free(files);
    return rc;
}

/* Checks the output paths against each other and every input, before any
 * simulation: a run of an hour must not end in "cannot write". */
static int ws_run_plan_outputs(const struct ws_run_args *a,
                               const struct ws_input *in,
                               struct ws_output *outs, struct ws_err *err)
{
    const char *extra[2] = {a->gpu.gpu, a->params.listing};

    outs[WS_RUN_OUT_TIMELINE] = (struct ws_output){.path = a->timeline,
                                                   .flag = "--timeline"};
    outs[WS_RUN_OUT_JSON] = (struct ws_output){.path = a->json,
                                               .flag = "--json"};
    outs[WS_RUN_OUT_CSV] = (struct ws_output){.path = a->csv, .flag = "--csv"};
    outs[WS_RUN_OUT_ROOFLINE] = (struct ws_output){.path = a->roofline,
                                                   .flag = "--roofline"};
    return ws_cli_plan_outputs(outs, WS_RUN_NOUT, in, extra, 2, err);
}

/* 0 asks for one thread per core (more than that only slows a run down:
 * ws_par.h). */
static int ws_run_threads(struct ws_run_args *a, const char *v)
{
    uint64_t n;

    if (ws_num_u64(v, strlen(v), &n) < 0 || n > 4096)
        return ws_cli_usage("run",
                            "bad --threads '%s' (expected a count from 0 to "
                            "4096; 0 for one per core)",
                            v);
    a->threads = ws_par_threads((unsigned)n);
    return 0;
}

static int ws_run_window(struct ws_run_args *a, const char *v)
{
    const char *colon = strchr(v, ':');

    if (!colon || ws_num_u64(v, (size_t)(colon - v), &a->tl_from) < 0
        || ws_num_u64(colon + 1, strlen(colon + 1), &a->tl_to) < 0
        || a->tl_to <= a->tl_from)
        return ws_cli_usage("run",
                            "bad --timeline-window '%s' (expected "
                            "START:END cycles with START < END)",
                            v);
    return 0;
}

static int ws_run_level(struct ws_run_args *a, const char *v)
{
    if (ws_cli_once("run", &a->tl_level_arg, v, "--timeline-level") < 0)
        return -1;
    if (strcmp(v, "warp") == 0)
        a->tl_level = WS_TL_LEVEL_WARP;
    else if (strcmp(v, "cta") == 0)
        a->tl_level = WS_TL_LEVEL_CTA;
    else
        return ws_cli_usage("run",
                            "bad --timeline-level '%s' (expected warp or "
                            "cta)",
                            v);
    return 0;
}

/* --kernel: digits are a launch id, anything else a regular expression. */
static int ws_run_kernel_option(struct ws_run_args *a, const char *v)
{
    char why[160], shown[WS_REGEX_SHOWN];
    uint64_t id;
    int rc;

    if (ws_cli_once("run", &a->kernel, v, "--kernel") < 0)
        return -1;
    a->sel.given = v;
    if (v[0] >= '0' && v[0] <= '9' && ws_num_u64(v, strlen(v), &id) == 0) {
        if (id > UINT32_MAX)
            return ws_cli_usage("run",
                                "bad --kernel '%s' (expected a launch "
                                "id below 2^32 or a name pattern)",
                                v);
        a->sel.by_id = 1;
        a->sel.id = (uint32_t)id;
        return 0;
    }
    if (v[0] == '\0')
        return ws_cli_usage("run", "empty --kernel (expected a launch id or "
                                   "a POSIX extended regular expression)");
    /* Bounded first: glibc's regcomp can exhaust memory on a short one. */
    rc = ws_regex_compile(&a->sel.re, v, REG_NOSUB, why, sizeof why);
    if (rc == WS_REGEX_BOUND)
        return ws_cli_usage("run", "bad --kernel '%s': %s",
                            ws_regex_shown(shown, v), why);
    if (rc != 0)
        return ws_cli_usage("run",
                            "bad --kernel '%s': %s (expected a launch "
                            "id or a POSIX extended regular expression)",
                            ws_regex_shown(shown, v), why);
    a->sel.by_name = 1;
    return 0;
}

static int ws_run_max_kernels(struct ws_run_args *a, const char *v)
{
    uint64_t n;

    if (ws_cli_once("run", &a->max_kernels, v, "--max-kernels") < 0)
        return -1;
    if (ws_num_u64(v, strlen(v), &n) < 0 || n == 0 || n > UINT32_MAX)
        return ws_cli_usage("run",
                            "bad --max-kernels '%s' (expected a "
                            "count from 1 to 4294967295)",
                            v);
    a->sel.max = (size_t)n;
    return 0;
}

static int ws_run_parse(struct ws_run_args *a, int argc, char **argv)
{
    static const struct option longopts[] = {
        {"gpu", required_argument, NULL, WS_OPT_GPU},
        {"set", required_argument, NULL, WS_OPT_SET},
        {"json", required_argument, NULL, WS_OPT_JSON},
        {"csv", required_argument, NULL, WS_OPT_CSV},
        {"roofline", required_argument, NULL, WS_OPT_ROOFLINE},
        {"timeline", required_argument, NULL, WS_OPT_TIMELINE},
        {"timeline-window", required_argument, NULL, WS_OPT_TIMELINE_WINDOW},
        {"timeline-max-events", required_argument, NULL, WS_OPT_TIMELINE_MAX},
        {"timeline-level", required_argument, NULL, WS_OPT_TIMELINE_LEVEL},
        {"allow-unknown-keys", no_argument, NULL, WS_OPT_ALLOW_UNKNOWN_KEYS},
        {"kernel", required_argument, NULL, 'k'},
        {"max-kernels", required_argument, NULL, WS_OPT_MAX_KERNELS},
        {"model", required_argument, NULL, WS_OPT_EXT_MODEL},
        {"mangled", no_argument, NULL, WS_OPT_MANGLED},
        {"threads", required_argument, NULL, WS_OPT_THREADS},
        {"param", required_argument, NULL, 'p'},
        {"listing", required_argument, NULL, WS_OPT_LISTING},
        WS_CLI_LIMIT_LONGOPTS,
        {"help", no_argument, NULL, WS_OPT_HELP},
        {NULL, 0, NULL, 0}};
    int opt;

    optind = 1;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":g:s:p:k:h", longopts, NULL))
           != -1) {
        int used = ws_cli_input_option(&a->gpu, &a->params, &a->topts, "run",
                                       opt, optarg);
        if (used < 0)
            return WS_EXIT_INPUT;
        if (used)
            continue;
        switch (opt) {
        case WS_OPT_JSON:
            if (ws_cli_once("run", &a->json, optarg, "--json") < 0)
                return WS_EXIT_INPUT;
            break;
        case WS_OPT_EXT_MODEL: {
            const char *why;
            if (ws_ext_models_add(&a->ext, optarg, &why) < 0)
                return ws_cli_usage("run", "bad --model '%s' (expected %s)",
                                    optarg, why);
            break;
        }
        case WS_OPT_CSV:
            if (ws_cli_once("run", &a->csv, optarg, "--csv") < 0)
                return WS_EXIT_INPUT;
            break;
        case WS_OPT_ROOFLINE:
            if (ws_cli_once("run", &a->roofline, optarg, "--roofline") < 0)
                return WS_EXIT_INPUT;
            break;
        case WS_OPT_TIMELINE:
            if (ws_cli_once("run", &a->timeline, optarg, "--timeline") < 0)
                return WS_EXIT_INPUT;
            break;
        case WS_OPT_TIMELINE_WINDOW:
            a->tl_option = "--timeline-window";
            if (ws_run_window(a, optarg) != 0)
                return WS_EXIT_INPUT;
            break;
        case WS_OPT_TIMELINE_MAX:
            a->tl_option = "--timeline-max-events";
            if (ws_num_u64(optarg, strlen(optarg), &a->tl_max) < 0)
                return ws_cli_usage("run",
                                    "bad --timeline-max-events '%s' "
                                    "(expected a count)",
                                    optarg);
            break;
        case WS_OPT_TIMELINE_LEVEL:
            a->tl_option = "--timeline-level";
            if (ws_run_level(a, optarg) != 0)
                return WS_EXIT_INPUT;
            break;
        case 'k':
            if (ws_run_kernel_option(a, optarg) != 0)
                return WS_EXIT_INPUT;
            break;
        case WS_OPT_MAX_KERNELS:
            if (ws_run_max_kernels(a, optarg) != 0)
                return WS_EXIT_INPUT;
            break;
        case WS_OPT_ALLOW_UNKNOWN_KEYS:
            a->topts.allow_unknown_keys = 1;
            break;
        case WS_OPT_MANGLED:
            a->mangled = 1;
            break;
        case WS_OPT_THREADS:
            if (ws_run_threads(a, optarg) != 0)
                return WS_EXIT_INPUT;
            break;
        case WS_OPT_HELP:
            ws_run_help(stdout);
            return 1;
        default:
            return ws_cli_bad_option("run", opt, argv);
        }
    }
    if (a->tl_option && !a->timeline)
        return ws_cli_usage("run",
                            "%s shapes the timeline only (expected "
                            "--timeline FILE too)",
                            a->tl_option);
    if (optind != argc - 1)
        return ws_cli_usage("run", optind >= argc ? "missing TRACE"
                                                  : "more than one TRACE");
    a->input = argv[optind];
    return 0;
}

static void ws_run_args_free(struct ws_run_args *a)
{
    if (a->sel.by_name)
        regfree(&a->sel.re);
    a->sel.by_name = 0;
}

int ws_cmd_run(int argc, char **argv)
{
    struct ws_run_args a;
    struct ws_run_request rq;
    struct ws_input *in = NULL;
    struct ws_output outs[WS_RUN_NOUT];
    struct ws_gpu gpu;
    struct ws_err err;
    int rc;

    memset(&a, 0, sizeof a);
    memset(outs, 0, sizeof outs);
    memset(&rq, 0, sizeof rq);
    ws_err_clear(&err);
    ws_trace_opts_default(&a.topts);
    a.threads = 1;
    a.tl_to = 200000;
    a.tl_max = 1000000;
    rc = ws_run_parse(&a, argc, argv);
    if (rc != 0) {
        ws_run_args_free(&a);
        return rc == 1 ? WS_EXIT_OK : rc;
    }
    if (ws_cli_load_gpu_probed(&a.gpu, &gpu, &err) < 0) {
        ws_run_args_free(&a);
        return ws_cli_fail(&err);
    }
    a.topts.unknown_class = gpu.unknown_class;
    rq.input = a.input;
    rq.params = ws_cli_input_params(&a.params, &a.topts);
    rq.params.listing_trace = 1;
    rq.gpu = &gpu;
    rq.sel = &a.sel;
    rq.ext = &a.ext;
    rq.hooks.threads = a.threads;
    rc = ws_run_open(&rq, &in, &err);
    if (rc == 0)
        rc = ws_run_plan_outputs(&a, in, outs, &err);
    if (rc == 0)
        rc = ws_run_go(&a, &rq, in, outs, &err);
    for (int i = 0; i < WS_RUN_NOUT; i++)
        ws_output_free(&outs[i]);
    ws_input_close(in);
    ws_run_args_free(&a);
    if (rc < 0)
        ws_err_place_arg(&err, a.input);
    return rc < 0 ? ws_cli_fail(&err) : WS_EXIT_OK;
}
