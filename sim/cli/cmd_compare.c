/*
 * warpsim compare: simulated counters (the JSON of `warpsim run --json`)
 * held against measured ones, an Nsight Compute CSV export or an
 * Accel-Sim log, kernel by kernel and metric by metric, with MAPE and
 * Pearson's r per metric; optionally as JSON and as a log-log chart.
 *
 * How each format maps onto warpsim's metric names (the readers' header
 * comments say where each fact comes from):
 *   Nsight Compute CSV (ncu --csv --page raw, with or without
 *   --print-units base): every column is a metric under the name warpsim
 *   uses; values are scaled to base units.  gpc__cycles_elapsed.max is
 *   the cycles (sm__cycles_elapsed.avg when the export lacks it);
 *   time_us is those cycles over the SM clock
 *   (gpc__cycles_elapsed.avg.per_second, else
 *   sm__cycles_elapsed.avg.per_second), else gpu__time_duration.sum.
 *   Accel-Sim log: gpu_sim_cycle -> gpc__cycles_elapsed.max (and time_us
 *   at the -gpgpu_clock_domains core clock); gpu_sim_insn (thread
 *   instructions) -> smsp__thread_inst_executed.sum; the rise of
 *   gpgpu_n_tot_w_icount -> smsp__inst_executed.sum; gpu_occupancy ->
 *   sm__warps_active.avg.pct_of_peak_sustained_active; L1D and L2
 *   accesses and misses -> l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct
 *   and lts__t_sector_hit_rate.pct; total dram reads / writes x the DRAM
 *   atom -> dram__bytes_read.sum / dram__bytes_write.sum.
 *
 * Units, identity and totals are checked before anything is compared: a
 * measured unit of another dimension than the metric, a launch id twice
 * (or for two kernels) on either side, cache totals no cache gives, are
 * one error at their place; what a log lacks for a reason of its own is
 * compared without, and the report (and the JSON's "notes") says why.
 *
 * Everything is read and computed before anything is written; outputs go
 * through the safe output path (ws_output.h), so a failure leaves none.
 *
 * Leaves out: the readers and the statistics (sim/input/ws_measured.h,
 * ws_simrun.h, ws_compare.h); the text report's layout
 * (ws_compare_text.c); the drawing (sweep/ws_plot.c).
 */
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "measure/ws_compare.h"
#include "report/ws_plot.h"
#include "util/ws_clip.h"
#include "util/ws_csv.h"
#include "util/ws_json.h"
#include "util/ws_regex.h"
#include "ws_cli.h"
#include "report/ws_compare_text.h"
#include "util/ws_output.h"

static void ws_compare_help(FILE *out)
{
    fprintf(out,
"usage: warpsim compare SIM.json MEASURED [OPTIONS]\n"
"\n"
"Holds a simulation (SIM.json, written by 'warpsim run --json') against\n"
"measurements of the same kernels and prints, per kernel and metric, the\n"
"simulated and measured values and their difference in percent of the\n"
"measured, then per metric the MAPE and Pearson's r across kernels (r with\n"
"3 kernels or more).  Kernels or metrics found on one side only are listed\n"
"at the end.\n"
"\n"
"MEASURED, recognised by its content (plain or .xz):\n"
"  an Nsight Compute CSV export, 'ncu --csv --page raw' (with or without\n"
"    --print-units base): metrics under the names warpsim uses, scaled to\n"
"    base units; gpc__cycles_elapsed.max is the cycles (else\n"
"    sm__cycles_elapsed.avg); time_us is the cycles over the SM clock\n"
"    (gpc__ or sm__cycles_elapsed.avg.per_second), else\n"
"    gpu__time_duration.sum\n"
"  an Accel-Sim / GPGPU-Sim log (its standard output):\n"
"    gpu_sim_cycle               gpc__cycles_elapsed.max (and time_us at the\n"
"                                -gpgpu_clock_domains core clock)\n"
"    gpu_sim_insn                smsp__thread_inst_executed.sum\n"
"    gpgpu_n_tot_w_icount rise   smsp__inst_executed.sum\n"
"    gpu_occupancy               sm__warps_active.avg.pct_of_peak_sustained_active\n"
"    L1D_total_cache_* rises     l1tex__t_sector_pipe_lsu_mem_global_op_ld_\n"
"                                hit_rate.pct (all L1D accesses)\n"
"    L2_total_cache_* rises      lts__t_sector_hit_rate.pct\n"
"    total dram reads / writes   dram__bytes_read.sum / dram__bytes_write.sum\n"
"    rises x DRAM atom           (busW x BL of the DRAM[0] line, else 32 B)\n"
"    (cache, instruction and DRAM totals run on across kernels in GPGPU-Sim:\n"
"    a kernel's share is the rise since the block before)\n"
"\n"
"Kernels pair by name and launch order: the base name (mangled\n"
"_Z4apspPKfPfii and demangled apsp(const float *, ...) are both apsp) and\n"
"the k-th launch of a name on each side.\n"
"\n"
"Refused, at the place at fault: a measured unit of another dimension\n"
"than the metric (bytes in msecond, cycles in %%; units scale within a\n"
"dimension only), a launch id twice or for two kernels (in either file),\n"
"cache misses past the accesses or a miss rate that is not their quotient.\n"
"What a log lacks for a reason of its own (no L1D simulated, a kernel\n"
"without an access, no clock echoed) is noted in the report instead.\n"
"\n"
"options:\n"
"      --kernel REGEX        only the kernels whose name, on either side, as\n"
"                            written or base, matches (POSIX extended)\n"
"      --json FILE           the same figures as JSON\n"
"      --plot FILE           simulated against measured, log-log, one point\n"
"                            per kernel and metric (a colour per metric, or\n"
"                            per unit, dram, lts, smsp..., past 12 metrics),\n"
"                            beside the line y = x (SVG, gnuplot)\n"
"  -h, --help                this text\n");
}

enum { WS_CMP_KERNEL = 0x200, WS_CMP_JSON, WS_CMP_PLOT };

/* What a usage error says is expected. */
#define WS_CMP_EXPECT_FILES "(expected two files: SIM.json, written by " \
    "'warpsim run --json', then MEASURED, an Nsight Compute CSV export or " \
    "an Accel-Sim log)"
#define WS_CMP_EXPECT_OPTS "(expected --kernel REGEX, --json FILE, " \
    "--plot FILE or --help)"

struct ws_compare_args {
    const char *sim, *meas, *kernel, *json, *plot;
    regex_t re;
    int has_re;
};

/* ---- command line ----------------------------------------------------------- */

static int ws_compare_option(struct ws_compare_args *a, int opt,
                             const char *arg)
{
    switch (opt) {
    case WS_CMP_KERNEL:
        return ws_cli_once("compare", &a->kernel, arg, "--kernel");
    case WS_CMP_JSON: return ws_cli_once("compare", &a->json, arg, "--json");
    case WS_CMP_PLOT: return ws_cli_once("compare", &a->plot, arg, "--plot");
    default: return 1;
    }
}

static int ws_compare_regex(struct ws_compare_args *a)
{
    char why[160], shown[WS_REGEX_SHOWN];
    int rc;

    if (!a->kernel)
        return 0;
    if (!*a->kernel)
        return ws_cli_usage("compare", "empty --kernel (expected a POSIX "
                            "extended regular expression)");
    /* Bounded first: glibc's regcomp can exhaust memory on a short one. */
    rc = ws_regex_compile(&a->re, a->kernel, REG_NOSUB, why, sizeof why);
    if (rc == WS_REGEX_BOUND)
        return ws_cli_usage("compare", "bad --kernel '%s': %s",
                            ws_regex_shown(shown, a->kernel), why);
    if (rc != 0)
        return ws_cli_usage("compare", "bad --kernel '%s': %s (expected a "
                            "POSIX extended regular expression)",
                            ws_regex_shown(shown, a->kernel), why);
    a->has_re = 1;
    return 0;
}

/* An option getopt refused: unknown, or without its value.  The word
 * at fault is the last one read, unless it is a cluster of short options
 * ("-xy"), where optopt says which. */
static int ws_compare_bad_option(int opt, char **argv)
{
    char buf[3];
    const char *word = ws_cli_option_word(opt, argv, buf);

    if (opt == ':')
        return ws_cli_usage("compare", "option '%s' needs a value (expected "
                            "it followed by one: --kernel REGEX, --json FILE, "
                            "--plot FILE)", word);
    return ws_cli_usage("compare", "bad option '%s' " WS_CMP_EXPECT_OPTS,
                        word);
}

/* 0 ok, 1 after --help, WS_EXIT_INPUT after a usage error. */
static int ws_compare_parse(struct ws_compare_args *a, int argc, char **argv)
{
    static const struct option longopts[] = {
        {"kernel", required_argument, NULL, WS_CMP_KERNEL},
        {"json", required_argument, NULL, WS_CMP_JSON},
        {"plot", required_argument, NULL, WS_CMP_PLOT},
        {"help", no_argument, NULL, WS_OPT_HELP},
        {NULL, 0, NULL, 0}
    };
    int opt, rc;

    optind = 1;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        if (opt == WS_OPT_HELP) {
            ws_compare_help(stdout);
            return 1;
        }
        rc = ws_compare_option(a, opt, optarg);
        if (rc < 0)
            return WS_EXIT_INPUT;
        if (rc > 0)
            return ws_compare_bad_option(opt, argv);
    }
    if (argc - optind != 2)
        return ws_cli_usage("compare", argc - optind < 2 ? "missing %s "
                            WS_CMP_EXPECT_FILES : "more than SIM.json and "
                            "MEASURED, '%s' " WS_CMP_EXPECT_FILES,
                            argc - optind == 0 ? "SIM.json and MEASURED"
                            : argc - optind == 1 ? "MEASURED"
                            : argv[optind + 2]);
    a->sim = argv[optind];
    a->meas = argv[optind + 1];
    return ws_compare_regex(a);
}

/* ---- JSON --------------------------------------------------------------------- */

static json_t *ws_cmp_json_pair(const struct ws_compare *c, size_t p)
{
    const struct ws_compare_pair *pr = &c->pairs[p];
    const struct ws_simrun_kernel *sk = &c->sim->kernels[pr->sim];
    const struct ws_meas_kernel *mk = &c->meas->kernels[pr->meas];
    json_t *o = json_object(), *ms = json_array();

    json_object_set_new(o, "kernel", json_string(sk->base));
    json_object_set_new(o, "launch", json_integer((json_int_t)pr->launch));
    json_object_set_new(o, "simulated_name", json_string(sk->name));
    json_object_set_new(o, "simulated_id", json_integer(sk->id));
    json_object_set_new(o, "measured_name", json_string(mk->name));
    json_object_set_new(o, "measured_id", mk->id >= 0
                        ? json_integer(mk->id) : json_null());
    json_object_set_new(o, "measured_line", json_integer(mk->line));
    for (size_t j = 0; j < c->nmetrics; j++) {
        const struct ws_compare_cell *cell = ws_compare_cell(c, p, j);
        json_t *m = json_object();
        json_object_set_new(m, "metric", json_string(c->metrics[j].name));
        json_object_set_new(m, "unit", json_string(c->metrics[j].unit));
        json_object_set_new(m, "simulated", ws_json_real(cell->sim));
        json_object_set_new(m, "measured", ws_json_real(cell->meas));
        json_object_set_new(m, "difference_pct", ws_json_real(cell->diff_pct));
        json_array_append_new(ms, m);
    }
    json_object_set_new(o, "metrics", ms);
    return o;
}

static json_t *ws_cmp_json_lone(const struct ws_compare *c, int sim)
{
    json_t *a = json_array();
    size_t n = sim ? c->nsim_only : c->nmeas_only;

    for (size_t i = 0; i < n; i++) {
        const struct ws_compare_lone *l = sim ? &c->sim_only[i]
                                              : &c->meas_only[i];
        json_t *o = json_object();
        json_object_set_new(o, "kernel", json_string(
            sim ? c->sim->kernels[l->index].base
                : c->meas->kernels[l->index].base));
        json_object_set_new(o, "launch", json_integer((json_int_t)l->launch));
        json_object_set_new(o, "name", json_string(
            sim ? c->sim->kernels[l->index].name
                : c->meas->kernels[l->index].name));
        if (!sim)
            json_object_set_new(o, "line", json_integer(
                c->meas->kernels[l->index].line));
        json_array_append_new(a, o);
    }
    return a;
}

static json_t *ws_cmp_json_names(const char *const *names, size_t n)
{
    json_t *a = json_array();

    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, json_string(names[i]));
    return a;
}

static json_t *ws_cmp_json_side(const char *path, const char *format,
                                size_t nkernels)
{
    json_t *o = json_object();

    json_object_set_new(o, "path", json_string(path));
    json_object_set_new(o, "format", json_string(format));
    json_object_set_new(o, "kernels", json_integer((json_int_t)nkernels));
    return o;
}

/* The notes of measured metrics left out: kernel and launch null when
 * the note is of every kernel. */
static json_t *ws_cmp_json_notes(const struct ws_compare *c)
{
    json_t *a = json_array();

    for (size_t i = 0; i < c->nnotes; i++) {
        const struct ws_compare_note *n = &c->notes[i];
        const struct ws_compare_pair *pr = n->pair == WS_MEAS_ALL ? NULL
                                           : &c->pairs[n->pair];
        json_t *o = json_object();
        json_object_set_new(o, "metric", json_string(n->metric));
        json_object_set_new(o, "kernel", pr ? json_string(
            c->sim->kernels[pr->sim].base) : json_null());
        json_object_set_new(o, "launch", pr ? json_integer(
            (json_int_t)pr->launch) : json_null());
        json_object_set_new(o, "measured_line", n->line > 0
                            ? json_integer(n->line) : json_null());
        json_object_set_new(o, "why", json_string(n->why));
        json_array_append_new(a, o);
    }
    return a;
}

static json_t *ws_cmp_json(const struct ws_compare *c, const char *kernel)
{
    json_t *root = json_object(), *ks = json_array(), *ms = json_array();

    json_object_set_new(root, "schema_version", json_integer(1));
    json_object_set_new(root, "tool", json_string("warpsim " WS_VERSION));
    json_object_set_new(root, "simulated", ws_cmp_json_side(c->sim->name,
                        "warpsim run JSON", c->sim->nkernels));
    json_object_set_new(root, "measured", ws_cmp_json_side(c->meas->name,
                        ws_measured_format_name(c->meas->format),
                        c->meas->nkernels));
    json_object_set_new(root, "kernel_filter", kernel ? json_string(kernel)
                        : json_null());
    for (size_t p = 0; p < c->npairs; p++)
        json_array_append_new(ks, ws_cmp_json_pair(c, p));
    json_object_set_new(root, "kernels", ks);
    for (size_t j = 0; j < c->nmetrics; j++) {
        const struct ws_compare_metric *m = &c->metrics[j];
        json_t *o = json_object();
        json_object_set_new(o, "metric", json_string(m->name));
        json_object_set_new(o, "unit", json_string(m->unit));
        json_object_set_new(o, "kernels", json_integer((json_int_t)m->n));
        json_object_set_new(o, "mape_pct", ws_json_real(m->mape));
        json_object_set_new(o, "pearson_r", ws_json_real(m->r));
        json_array_append_new(ms, o);
    }
    json_object_set_new(root, "metrics", ms);
    json_object_set_new(root, "simulated_only_kernels",
                        ws_cmp_json_lone(c, 1));
    json_object_set_new(root, "measured_only_kernels",
                        ws_cmp_json_lone(c, 0));
    json_object_set_new(root, "simulated_only_metrics", ws_cmp_json_names(
                        c->sim_metrics_only, c->nsim_metrics_only));
    json_object_set_new(root, "warpsim_own_metrics",
                        json_integer((json_int_t)c->nown));
    json_object_set_new(root, "measured_only_metrics", ws_cmp_json_names(
                        c->meas_metrics_only, c->nmeas_metrics_only));
    json_object_set_new(root, "notes", ws_cmp_json_notes(c));
    return root;
}

/* ---- plot ------------------------------------------------------------------------ */

/* More metrics than a key can show legibly are drawn by family, the
 * unit before "__": "dram", "lts", "smsp", ... (and "time"). */
#define WS_CMP_PLOT_SERIES 12

static void ws_cmp_plot_row(FILE *f, const char *kernel, const char *series,
                            double x, double y)
{
    ws_csv_put(f, kernel);
    fputc(',', f);
    ws_csv_put(f, series);
    fprintf(f, ",%.17g,%.17g\n", x, y);
}

/* The points as a table (kernel, metric, measured, simulated), and two
 * rows of a "y = x" series spanning them; NULL when nothing is positive
 * (log axes) or out of memory (*n says which). */
static char *ws_cmp_plot_csv(const struct ws_compare *c, size_t *len,
                             size_t *n)
{
    int by_family = c->nmetrics > WS_CMP_PLOT_SERIES;
    double lo = INFINITY, hi = 0;
    char *buf = NULL, label[160], fam[64];
    FILE *f = open_memstream(&buf, len);

    *n = 0;
    if (!f)
        return NULL;
    fputs("kernel,metric,measured,simulated\n", f);
    for (size_t p = 0; p < c->npairs; p++)
        for (size_t j = 0; j < c->nmetrics; j++) {
            const struct ws_compare_cell *cell = ws_compare_cell(c, p, j);
            const char *name = c->metrics[j].name;
            if (!(cell->sim > 0 && cell->meas > 0))
                continue;
            snprintf(fam, sizeof fam, "%.*s", (int)strcspn(name, "_."),
                     name);
            ws_compare_label(label, sizeof label,
                         c->sim->kernels[c->pairs[p].sim].base,
                         c->pairs[p].launch);
            ws_cmp_plot_row(f, label, by_family ? fam : name, cell->meas,
                            cell->sim);
            lo = fmin(lo, fmin(cell->meas, cell->sim));
            hi = fmax(hi, fmax(cell->meas, cell->sim));
            (*n)++;
        }
    if (*n) {
        ws_cmp_plot_row(f, "", "y = x", lo, lo);
        ws_cmp_plot_row(f, "", "y = x", hi, hi);
    }
    if (fclose(f) != 0 || *n == 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

static char *ws_cmp_plot(const struct ws_compare *c, struct ws_err *err)
{
    struct ws_plot_spec spec = {"measured", "simulated", "metric", 1, 1,
        "simulated against measured, a point per kernel and metric "
        "(log-log; on the line y = x they agree)"};
    struct ws_csv t;
    size_t len, n;
    char *text = ws_cmp_plot_csv(c, &len, &n), *svg;

    if (!text) {
        if (n)
            ws_err_oom(err);
        else
            ws_err_msg(err, "nothing to draw on log axes (expected a metric "
                       "whose simulated and measured values are positive)");
        return NULL;
    }
    if (ws_csv_parse(&t, "compare plot", text, len, 0, 0, err) < 0) {
        free(text);
        err->internal = 1;
        return NULL;
    }
    svg = ws_plot_svg(&t, &spec, err);
    ws_csv_free(&t);
    free(text);
    return svg;
}

/* ---- the command ------------------------------------------------------------------ */

/* Reads both inputs (I/O errors placed at their command-line words). */
static int ws_cmp_load(const struct ws_compare_args *a, struct ws_simrun *s,
                       struct ws_measured *m, struct ws_err *err)
{
    if (ws_simrun_load(s, a->sim, err) < 0) {
        ws_err_place_arg(err, a->sim);
        return -1;
    }
    if (ws_measured_load(m, a->meas, err) < 0) {
        ws_err_place_arg(err, a->meas);
        ws_simrun_free(s);
        return -1;
    }
    return 0;
}

/* The report, JSON and chart, all made before any is written. */
struct ws_cmp_made {
    char *text, *svg;
    json_t *json;
};

static int ws_cmp_make(const struct ws_compare_args *a,
                       const struct ws_compare *c, struct ws_cmp_made *o,
                       struct ws_err *err)
{
    o->text = ws_compare_text(c);
    o->json = a->json ? ws_cmp_json(c, a->kernel) : NULL;
    if (!o->text || (a->json && !o->json))
        return ws_err_oom(err);
    if (a->plot && !(o->svg = ws_cmp_plot(c, err))) {
        ws_err_place_arg(err, a->plot);
        return -1;
    }
    return 0;
}

/* Writes the outputs' texts to their temporary files first and puts them
 * in place only when every one is written, so a write that fails (a full
 * disk) leaves none of them; then the report. */
static int ws_cmp_write(struct ws_output *outs, const char *const *texts,
                        const char *report, struct ws_err *err)
{
    int rc = 0;

    for (int i = 0; rc == 0 && i < 2; i++) {
        size_t n = texts[i] ? strlen(texts[i]) : 0;
        if (!outs[i].path)
            continue;
        rc = ws_output_open(&outs[i], err);
        if (rc == 0 && (fputs(texts[i], outs[i].fp) == EOF
                        || (n && texts[i][n - 1] != '\n'
                            && fputc('\n', outs[i].fp) == EOF)
                        || fflush(outs[i].fp) != 0)) {
            struct ws_clip q;
            rc = ws_err_msg(err, "%s %s: cannot write: %s (expected a "
                            "writable path)", outs[i].flag,
                            ws_clip_path(&q, outs[i].path), strerror(errno));
            err->internal = 1;
        }
    }
    for (int i = 0; i < 2; i++)
        if (outs[i].fp && (rc < 0 || ws_output_commit(&outs[i], err) < 0)) {
            ws_output_abort(&outs[i]);
            rc = -1;
        }
    if (rc == 0 && (fputs(report, stdout) == EOF || fflush(stdout) != 0)) {
        ws_err_msg(err, "cannot write the report to standard output "
                   "(expected it open)");
        err->internal = 1;
        return -1;
    }
    return rc;
}

/* The JSON as text, indented and in order, as every --json is. */
static char *ws_cmp_json_text(json_t *root)
{
    return root ? json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER
                             | JSON_REAL_PRECISION(10)) : NULL;
}

static int ws_cmp_run(const struct ws_compare_args *a, struct ws_output *outs,
                      struct ws_err *err)
{
    const char *inputs[2] = {a->sim, a->meas};
    struct ws_cmp_made o = {NULL, NULL, NULL};
    struct ws_simrun s;
    struct ws_measured m;
    struct ws_compare c;
    int rc;

    if (ws_output_plan(outs, 2, inputs, 2, err) < 0
        || ws_cmp_load(a, &s, &m, err) < 0)
        return -1;
    rc = ws_compare_run(&c, &s, &m, a->has_re ? &a->re : NULL, err);
    if (rc < 0)
        ws_err_place_arg(err, a->kernel ? a->kernel : a->meas);
    if (rc == 0)
        rc = ws_cmp_make(a, &c, &o, err);
    if (rc == 0) {
        char *json = ws_cmp_json_text(o.json);
        const char *texts[2] = {json, o.svg};
        rc = a->json && !json ? ws_err_oom(err)
                              : ws_cmp_write(outs, texts, o.text, err);
        free(json);
    }
    free(o.text);
    free(o.svg);
    json_decref(o.json);
    ws_compare_free(&c);
    ws_measured_free(&m);
    ws_simrun_free(&s);
    return rc;
}

int ws_cmd_compare(int argc, char **argv)
{
    struct ws_compare_args a;
    struct ws_output outs[2] = {{.flag = "--json"}, {.flag = "--plot"}};
    struct ws_err err;
    int rc;

    memset(&a, 0, sizeof a);
    ws_err_clear(&err);
    rc = ws_compare_parse(&a, argc, argv);
    if (rc != 0) {
        if (a.has_re)
            regfree(&a.re);
        return rc == 1 ? WS_EXIT_OK : rc;
    }
    outs[0].path = a.json;
    outs[1].path = a.plot;
    rc = ws_cmp_run(&a, outs, &err);
    for (int i = 0; i < 2; i++)
        ws_output_free(&outs[i]);
    if (a.has_re)
        regfree(&a.re);
    return rc < 0 ? ws_cli_fail(&err) : WS_EXIT_OK;
}
