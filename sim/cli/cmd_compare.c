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
 * The text report keeps its columns: a value too wide for its column, or
 * of 1e15 or more, is printed in exponent form ("1.23457e+20",
 * "+1.2e+06%"); a metric name too long for its column goes on a line of
 * its own, the values under it; names and paths are printed with their
 * control characters escaped (\n, \r, \t, \xHH), so that a line break in a
 * quoted CSV kernel name cannot break a line of the report.
 *
 * Everything is read and computed before anything is written; outputs go
 * through the safe output path (ws_output.h), so a failure leaves none.
 *
 * Leaves out: the readers and the statistics (sim/input/ws_measured.h,
 * ws_simrun.h, ws_compare.h); the drawing (sweep/ws_plot.c).
 */
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "input/ws_compare.h"
#include "sweep/ws_plot.h"
#include "util/ws_clip.h"
#include "util/ws_csv.h"
#include "ws_cli.h"
#include "ws_output.h"

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
    char why[160];
    int rc;

    if (!a->kernel)
        return 0;
    if (!*a->kernel)
        return ws_cli_usage("compare", "empty --kernel (expected a POSIX "
                            "extended regular expression)");
    rc = regcomp(&a->re, a->kernel, REG_EXTENDED | REG_NOSUB);
    if (rc != 0) {
        regerror(rc, &a->re, why, sizeof why);
        return ws_cli_usage("compare", "bad --kernel '%s': %s (expected a "
                            "POSIX extended regular expression)", a->kernel,
                            why);
    }
    a->has_re = 1;
    return 0;
}

/* An option getopt refused: unknown, or without its value.  The word
 * at fault is the last one read, unless it is a cluster of short options
 * ("-xy"), where optopt says which. */
static int ws_compare_bad_option(int opt, char **argv)
{
    char shortopt[3] = {'-', (char)optopt, '\0'};
    const char *last = argv[optind - 1];
    const char *word = strncmp(last, "--", 2) != 0 && optopt > 0
                       && optopt < 0x100 ? shortopt : last;

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

/* ---- text --------------------------------------------------------------------- */

/* The columns of the tables: metric names, values, percentages. */
#define WS_CMP_NAME_W 58
#define WS_CMP_VAL_W 15
#define WS_CMP_PCT_W 10
/* From here on, a value is printed in exponent form. */
#define WS_CMP_HUGE 1e15

/* v in exponent form ("%.*g" and suffix) with the most significant
 * digits, up to 6, that fit in width. */
static void ws_cmp_exp(char *buf, size_t size, double v, int width,
                       int sign, const char *suffix)
{
    for (int digits = 6; digits >= 1; digits--) {
        snprintf(buf, size, sign ? "%+.*g%s" : "%.*g%s", digits, v, suffix);
        if (strlen(buf) <= (size_t)width)
            break;
    }
}

/* A value as the tables print it, in at most width characters: counts
 * whole, others to 4 digits; exponent form past WS_CMP_HUGE or width. */
static const char *ws_cmp_num(char *buf, size_t size, double v, int width)
{
    if (isnan(v))
        snprintf(buf, size, "-");
    else if (!(fabs(v) < WS_CMP_HUGE))
        buf[0] = '\0';
    else if (v == floor(v))
        snprintf(buf, size, "%.0f", v);
    else if (fabs(v) >= 1000)
        snprintf(buf, size, "%.1f", v);
    else
        snprintf(buf, size, "%.4g", v);
    if (!isnan(v) && (!(fabs(v) < WS_CMP_HUGE)
                      || strlen(buf) > (size_t)width))
        ws_cmp_exp(buf, size, v, width, 0, "");
    return buf;
}

/* A percentage to 2 decimals ("+4.62%"), in at most width characters. */
static const char *ws_cmp_pct(char *buf, size_t size, double v, int sign,
                              int width)
{
    if (fabs(v) < 0.005)
        v = 0;      /* no "-0.00%" for a difference of rounding */
    if (isnan(v))
        snprintf(buf, size, "n/a");
    else if (!(fabs(v) < WS_CMP_HUGE)
             || snprintf(buf, size, sign ? "%+.2f%%" : "%.2f%%", v) > width)
        ws_cmp_exp(buf, size, v, width, sign, "%");
    return buf;
}

/* A name or path as the report prints it: control characters escaped,
 * so that it stays on its line.  Returns the characters written. */
static size_t ws_cmp_put(FILE *f, const char *s)
{
    size_t n = 0;

    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p >= 0x20 && *p != 0x7f) {
            if (f)
                fputc(*p, f);
            n++;
        } else if (*p == '\n' || *p == '\r' || *p == '\t') {
            if (f)
                fprintf(f, "\\%c", *p == '\n' ? 'n' : *p == '\r' ? 'r'
                        : 't');
            n += 2;
        } else {
            if (f)
                fprintf(f, "\\x%02x", *p);
            n += 4;
        }
    }
    return n;
}

/* "  name" padded to the metric column; a name too long for it on a
 * line of its own, the row's values on the next. */
static void ws_cmp_put_metric(FILE *f, const char *name)
{
    size_t n;

    fputs("  ", f);
    n = ws_cmp_put(f, name);
    if (n > WS_CMP_NAME_W)
        fprintf(f, "\n  %*s", WS_CMP_NAME_W, "");
    else
        fprintf(f, "%*s", (int)(WS_CMP_NAME_W - n), "");
}

/* "apsp #2": a kernel's base name and which launch of it. */
static void ws_cmp_label(char *buf, size_t size, const char *base,
                         size_t launch)
{
    snprintf(buf, size, "%s #%zu", base, launch);
}

static void ws_cmp_where(char *buf, size_t size, const struct ws_measured *m,
                         size_t k)
{
    const struct ws_meas_kernel *mk = &m->kernels[k];

    if (mk->id >= 0)
        snprintf(buf, size, "%s %lld, line %ld", m->format == WS_MEAS_NCU
                 ? "ID" : "uid", mk->id, mk->line);
    else
        snprintf(buf, size, "line %ld", mk->line);
}

static void ws_cmp_text_pair(FILE *f, const struct ws_compare *c, size_t p)
{
    const struct ws_compare_pair *pr = &c->pairs[p];
    const struct ws_simrun_kernel *sk = &c->sim->kernels[pr->sim];
    char where[64], a[32], b[32], d[32];

    ws_cmp_where(where, sizeof where, c->meas, pr->meas);
    fputc('\n', f);
    ws_cmp_put(f, sk->base);
    fprintf(f, " #%zu: simulated ", pr->launch);
    ws_cmp_put(f, sk->name);
    fprintf(f, " (id %lld), measured ", sk->id);
    ws_cmp_put(f, c->meas->kernels[pr->meas].name);
    fprintf(f, " (%s)\n", where);
    fprintf(f, "  %-*s %*s %*s %*s\n", WS_CMP_NAME_W, "metric", WS_CMP_VAL_W,
            "simulated", WS_CMP_VAL_W, "measured", WS_CMP_PCT_W, "diff");
    for (size_t j = 0; j < c->nmetrics; j++) {
        const struct ws_compare_cell *cell = ws_compare_cell(c, p, j);
        if (isnan(cell->sim) && isnan(cell->meas))
            continue;
        ws_cmp_put_metric(f, c->metrics[j].name);
        fprintf(f, " %*s %*s %*s\n",
                WS_CMP_VAL_W, ws_cmp_num(a, sizeof a, cell->sim, WS_CMP_VAL_W),
                WS_CMP_VAL_W, ws_cmp_num(b, sizeof b, cell->meas,
                                         WS_CMP_VAL_W),
                WS_CMP_PCT_W, ws_cmp_pct(d, sizeof d, cell->diff_pct, 1,
                                         WS_CMP_PCT_W));
    }
}

static void ws_cmp_text_summary(FILE *f, const struct ws_compare *c)
{
    char mape[32], r[32];

    fprintf(f, "\nper metric (n: kernels with both values; MAPE over "
            "measurements other than 0;\nr: Pearson's, from 3 kernels)\n");
    fprintf(f, "  %-*s %5s %*s %9s\n", WS_CMP_NAME_W, "metric", "n",
            WS_CMP_PCT_W, "MAPE", "r");
    for (size_t j = 0; j < c->nmetrics; j++) {
        const struct ws_compare_metric *m = &c->metrics[j];
        if (isnan(m->r))
            snprintf(r, sizeof r, "n/a");
        else
            snprintf(r, sizeof r, "%.4f", m->r);
        ws_cmp_put_metric(f, m->name);
        fprintf(f, " %5zu %*s %9s\n", m->n, WS_CMP_PCT_W,
                ws_cmp_pct(mape, sizeof mape, m->mape, 0, WS_CMP_PCT_W), r);
    }
}

/* Words wrapped at 78 columns, under a heading. */
static void ws_cmp_list(FILE *f, const char *heading, const char *const *w,
                        size_t n)
{
    size_t col = 2;

    fprintf(f, "%s\n ", heading);
    for (size_t i = 0; i < n; i++) {
        size_t len = ws_cmp_put(NULL, w[i]) + (i + 1 < n ? 1 : 0);
        if (col + len + 1 > 78 && col > 2) {
            fputs("\n ", f);
            col = 2;
        }
        fputc(' ', f);
        ws_cmp_put(f, w[i]);
        fputs(i + 1 < n ? "," : "", f);
        col += len + 1;
    }
    fputc('\n', f);
}

static void ws_cmp_text_lone(FILE *f, const struct ws_compare *c)
{
    char where[64];

    if (c->nsim_only)
        fprintf(f, "\nsimulated only (%zu kernel%s):\n", c->nsim_only,
                c->nsim_only == 1 ? "" : "s");
    for (size_t i = 0; i < c->nsim_only; i++) {
        const struct ws_simrun_kernel *k = &c->sim->kernels[c->sim_only[i]
                                                            .index];
        fputs("  ", f);
        ws_cmp_put(f, k->base);
        fprintf(f, " #%zu: ", c->sim_only[i].launch);
        ws_cmp_put(f, k->name);
        fprintf(f, " (id %lld)\n", k->id);
    }
    if (c->nmeas_only)
        fprintf(f, "\nmeasured only (%zu kernel%s):\n", c->nmeas_only,
                c->nmeas_only == 1 ? "" : "s");
    for (size_t i = 0; i < c->nmeas_only; i++) {
        const struct ws_meas_kernel *k = &c->meas->kernels[c->meas_only[i]
                                                           .index];
        ws_cmp_where(where, sizeof where, c->meas, c->meas_only[i].index);
        fputs("  ", f);
        ws_cmp_put(f, k->base);
        fprintf(f, " #%zu: ", c->meas_only[i].launch);
        ws_cmp_put(f, k->name);
        fprintf(f, " (%s)\n", where);
    }
}

/* Names that share a stem, "dram__sectors_read.avg", ".max", ...,
 * written once: "dram__sectors_read.{avg,max,min,sum}".  NULL when out of
 * memory; *n becomes the number of groups. */
static char **ws_cmp_group_names(const char *const *names, size_t *n)
{
    char **out = calloc(*n + 1, sizeof *out);
    size_t ng = 0;

    for (size_t i = 0; out && i < *n;) {
        size_t stem = strcspn(names[i], "."), j = i + 1, len;
        FILE *f;
        while (j < *n && strncmp(names[j], names[i], stem) == 0
               && names[j][stem] == '.' && names[i][stem] == '.')
            j++;
        f = open_memstream(&out[ng], &len);
        if (!f)
            break;
        if (j - i == 1)
            fputs(names[i], f);
        for (size_t k = i; j - i > 1 && k < j; k++)
            fprintf(f, "%s%.*s%s%s", k == i ? "" : ",", k == i
                    ? (int)stem + 1 : 0, names[k], k == i ? "{" : "",
                    names[k] + stem + 1);
        if (j - i > 1)
            fputc('}', f);
        if (fclose(f) != 0)
            break;
        ng++;
        i = j;
    }
    if (out && ng == 0 && *n > 0) {
        free(out);
        return NULL;
    }
    *n = ng;
    return out;
}

static void ws_cmp_text_metrics(FILE *f, const struct ws_compare *c)
{
    size_t ng = c->nmeas_metrics_only;
    char **groups;
    char h[200];

    if (c->nsim_metrics_only || c->nown) {
        snprintf(h, sizeof h, "\nsimulated, not measured (%zu metric%s, "
                 "and %zu of warpsim's own, ws__*)%s", c->nsim_metrics_only,
                 c->nsim_metrics_only == 1 ? "" : "s", c->nown,
                 c->nsim_metrics_only ? ":" : "");
        if (c->nsim_metrics_only)
            ws_cmp_list(f, h, c->sim_metrics_only, c->nsim_metrics_only);
        else
            fprintf(f, "%s\n", h);
    }
    if (c->nmeas_metrics_only) {
        groups = ws_cmp_group_names(c->meas_metrics_only, &ng);
        snprintf(h, sizeof h, "\nmeasured, not simulated (%zu metric%s):",
                 c->nmeas_metrics_only,
                 c->nmeas_metrics_only == 1 ? "" : "s");
        ws_cmp_list(f, h, groups ? (const char *const *)groups
                    : c->meas_metrics_only, groups ? ng
                    : c->nmeas_metrics_only);
        for (size_t i = 0; groups && i < ng; i++)
            free(groups[i]);
        free(groups);
    }
    if (c->nattrs)
        fprintf(f, "%s(%zu device, launch and profiler attributes and "
                "roll-ups of compared\ncounters not listed)\n",
                c->nmeas_metrics_only ? "" : "\n", c->nattrs);
}

/* The whole report, or NULL when out of memory. */
static char *ws_cmp_text(const struct ws_compare *c)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);

    if (!f)
        return NULL;
    fputs("simulated: ", f);
    ws_cmp_put(f, c->sim->name);
    fprintf(f, " (%zu kernel%s%s", c->sim->nkernels,
            c->sim->nkernels == 1 ? "" : "s", *c->sim->gpu ? ", " : "");
    ws_cmp_put(f, c->sim->gpu);
    fputs(")\nmeasured:  ", f);
    ws_cmp_put(f, c->meas->name);
    fprintf(f, " (%s, %zu kernel%s)\n",
            ws_measured_format_name(c->meas->format), c->meas->nkernels,
            c->meas->nkernels == 1 ? "" : "s");
    fprintf(f, "compared:  %zu kernel%s, %zu metric%s\n", c->npairs,
            c->npairs == 1 ? "" : "s", c->nmetrics,
            c->nmetrics == 1 ? "" : "s");
    for (size_t p = 0; p < c->npairs; p++)
        ws_cmp_text_pair(f, c, p);
    ws_cmp_text_summary(f, c);
    ws_cmp_text_lone(f, c);
    ws_cmp_text_metrics(f, c);
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* ---- JSON --------------------------------------------------------------------- */

static json_t *ws_cmp_real(double v)
{
    return isnan(v) ? json_null() : json_real(v);
}

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
        json_object_set_new(m, "simulated", ws_cmp_real(cell->sim));
        json_object_set_new(m, "measured", ws_cmp_real(cell->meas));
        json_object_set_new(m, "difference_pct", ws_cmp_real(cell->diff_pct));
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
        json_object_set_new(o, "mape_pct", ws_cmp_real(m->mape));
        json_object_set_new(o, "pearson_r", ws_cmp_real(m->r));
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
            ws_cmp_label(label, sizeof label,
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
    o->text = ws_cmp_text(c);
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
