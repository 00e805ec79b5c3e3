/*
 * ws_compare_text: the text report of `warpsim compare` (see
 * ws_compare_text.h).
 *
 * The report keeps its columns (ws_compare_fmt.h: exponent form past a
 * column or 1e15, control characters escaped); a metric name too long for
 * its column goes on a line of its own, the values under it.  A metric
 * whose definitions differ is marked '!' in the first column, which is
 * otherwise blank, so marking moves nothing.  Notes of measured metrics
 * left out (why a hit rate or a time is missing) follow the per-metric
 * table, wrapped at 78 columns.
 *
 * Leaves out: the values' formats (ws_compare_fmt.c), the sort
 * (measure/ws_compare.h).
 */
#include "ws_compare_text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/ws_clip.h"
#include "ws_compare_fmt.h"

/* The columns of the tables: metric names, values, percentages. */
#define WS_CMP_NAME_W 58
#define WS_CMP_VAL_W 15
#define WS_CMP_PCT_W 10

void ws_compare_label(char *buf, size_t size, const char *base, size_t launch)
{
    snprintf(buf, size, "%s #%zu", base, launch);
}

static void ws_cmp_where(char *buf, size_t size, const struct ws_measured *m,
                         size_t k)
{
    const struct ws_meas_kernel *mk = &m->kernels[k];

    if (mk->id >= 0)
        snprintf(buf, size, "%s %lld, line %ld",
                 m->format == WS_MEAS_NCU ? "ID" : "uid", mk->id, mk->line);
    else
        snprintf(buf, size, "line %ld", mk->line);
}

/* ' ', or '!' for a metric whose definitions differ on the two sides. */
static char ws_cmp_mark(const struct ws_compare_metric *m)
{
    return m->mismatch ? '!' : ' ';
}

static void ws_cmp_text_pair(FILE *f, const struct ws_compare *c, size_t p,
                             const size_t *order)
{
    const struct ws_compare_pair *pr = &c->pairs[p];
    const struct ws_simrun_kernel *sk = &c->sim->kernels[pr->sim];
    char where[64], a[32], b[32], d[32];

    ws_cmp_where(where, sizeof where, c->meas, pr->meas);
    fputc('\n', f);
    ws_compare_fmt_put(f, sk->base);
    fprintf(f, " #%zu: simulated ", pr->launch);
    ws_compare_fmt_put(f, sk->name);
    fprintf(f, " (id %lld), measured ", sk->id);
    ws_compare_fmt_put(f, c->meas->kernels[pr->meas].name);
    fprintf(f, " (%s)\n", where);
    fprintf(f, "  %-*s %*s %*s %*s\n", WS_CMP_NAME_W, "metric", WS_CMP_VAL_W,
            "simulated", WS_CMP_VAL_W, "measured", WS_CMP_PCT_W, "diff");
    for (size_t i = 0; i < c->nmetrics; i++) {
        const struct ws_compare_metric *m = &c->metrics[order[i]];
        const struct ws_compare_cell *cell = ws_compare_cell(c, p, order[i]);
        if (isnan(cell->sim) && isnan(cell->meas))
            continue;
        ws_compare_fmt_name(f, ws_cmp_mark(m), m->name, WS_CMP_NAME_W);
        fprintf(f, " %*s %*s %*s\n", WS_CMP_VAL_W,
                ws_compare_fmt_num(a, sizeof a, cell->sim, WS_CMP_VAL_W, 0),
                WS_CMP_VAL_W,
                ws_compare_fmt_num(b, sizeof b, cell->meas, WS_CMP_VAL_W, 0),
                WS_CMP_PCT_W,
                ws_compare_fmt_pct(d, sizeof d, cell->diff_pct, 1,
                                   WS_CMP_PCT_W));
    }
}

/* The metrics whose definitions differ, and why (the '!' rows). */
static void ws_cmp_text_mismatches(FILE *f, const struct ws_compare *c)
{
    if (c->n_flagged)
        fprintf(f, "\n! where the definitions differ (left out of the "
                   "mean):\n");
    for (size_t j = 0; j < c->nmetrics; j++) {
        if (!c->metrics[j].mismatch)
            continue;
        fputs("  ", f);
        ws_compare_fmt_put(f, c->metrics[j].name);
        fputs(":\n", f);
        ws_compare_fmt_wrap(f, NULL, c->metrics[j].mismatch, 4);
    }
}

/* The mean and median of the metrics' MAPE, those flagged left out. */
static void ws_cmp_text_mean(FILE *f, const struct ws_compare *c)
{
    char mean[32], median[32];

    fprintf(f, "mean of the metrics' MAPE: %s (median %s) over %zu metric%s",
            ws_compare_fmt_pct(mean, sizeof mean, c->mean_mape, 0,
                               WS_CMP_PCT_W),
            ws_compare_fmt_pct(median, sizeof median, c->median_mape, 0,
                               WS_CMP_PCT_W),
            c->n_mean, c->n_mean == 1 ? "" : "s");
    if (c->n_flagged)
        fprintf(f, "; %zu whose definitions differ left out", c->n_flagged);
    fputc('\n', f);
}

static void ws_cmp_text_summary(FILE *f, const struct ws_compare *c,
                                const size_t *order)
{
    char mape[32], r[32];

    fprintf(f, "\nper metric (n: kernels with both values; MAPE over "
               "measurements other than 0;\nr: Pearson's, from 3 kernels)\n");
    fprintf(f, "  %-*s %5s %*s %9s\n", WS_CMP_NAME_W, "metric", "n",
            WS_CMP_PCT_W, "MAPE", "r");
    for (size_t i = 0; i < c->nmetrics; i++) {
        const struct ws_compare_metric *m = &c->metrics[order[i]];
        if (isnan(m->r))
            snprintf(r, sizeof r, "n/a");
        else
            snprintf(r, sizeof r, "%.4f", m->r);
        ws_compare_fmt_name(f, ws_cmp_mark(m), m->name, WS_CMP_NAME_W);
        fprintf(f, " %5zu %*s %9s\n", m->n, WS_CMP_PCT_W,
                ws_compare_fmt_pct(mape, sizeof mape, m->mape, 0, WS_CMP_PCT_W),
                r);
    }
    fputc('\n', f);
    ws_cmp_text_mean(f, c);
    ws_cmp_text_mismatches(f, c);
}

/* Why a measured metric is missing, for a kernel or for all: what the
 * reader noted (an L1D the run did not simulate, a kernel without an
 * access), so that no metric leaves the comparison without a word. */
static void ws_cmp_text_notes(FILE *f, const struct ws_compare *c)
{
    char label[160];

    if (c->nnotes)
        fprintf(f, "\nleft out of the measurements (%zu note%s):\n", c->nnotes,
                c->nnotes == 1 ? "" : "s");
    for (size_t i = 0; i < c->nnotes; i++) {
        const struct ws_compare_note *n = &c->notes[i];
        fputs("  ", f);
        ws_compare_fmt_put(f, n->metric);
        if (n->pair == WS_MEAS_ALL) {
            fputs(" (every kernel):\n", f);
        } else {
            const struct ws_compare_pair *pr = &c->pairs[n->pair];
            ws_compare_label(label, sizeof label, c->sim->kernels[pr->sim].base,
                             pr->launch);
            fputs(", ", f);
            ws_compare_fmt_put(f, label);
            fprintf(f, " (line %ld):\n", n->line);
        }
        ws_compare_fmt_wrap(f, NULL, n->why, 4);
    }
}

/* Words wrapped at 78 columns, under a heading. */
static void ws_cmp_list(FILE *f, const char *heading, const char *const *w,
                        size_t n)
{
    size_t col = 2;

    fprintf(f, "%s\n ", heading);
    for (size_t i = 0; i < n; i++) {
        size_t len = ws_compare_fmt_put(NULL, w[i]) + (i + 1 < n ? 1 : 0);
        if (col + len + 1 > 78 && col > 2) {
            fputs("\n ", f);
            col = 2;
        }
        fputc(' ', f);
        ws_compare_fmt_put(f, w[i]);
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
        const struct ws_simrun_kernel *k =
            &c->sim->kernels[c->sim_only[i].index];
        fputs("  ", f);
        ws_compare_fmt_put(f, k->base);
        fprintf(f, " #%zu: ", c->sim_only[i].launch);
        ws_compare_fmt_put(f, k->name);
        fprintf(f, " (id %lld)\n", k->id);
    }
    if (c->nmeas_only)
        fprintf(f, "\nmeasured only (%zu kernel%s):\n", c->nmeas_only,
                c->nmeas_only == 1 ? "" : "s");
    for (size_t i = 0; i < c->nmeas_only; i++) {
        const struct ws_meas_kernel *k =
            &c->meas->kernels[c->meas_only[i].index];
        ws_cmp_where(where, sizeof where, c->meas, c->meas_only[i].index);
        fputs("  ", f);
        ws_compare_fmt_put(f, k->base);
        fprintf(f, " #%zu: ", c->meas_only[i].launch);
        ws_compare_fmt_put(f, k->name);
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
            fprintf(f, "%s%.*s%s%s", k == i ? "" : ",",
                    k == i ? (int)stem + 1 : 0, names[k], k == i ? "{" : "",
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
        snprintf(h, sizeof h,
                 "\nsimulated, not measured (%zu metric%s, "
                 "and %zu of warpsim's own, ws__*)%s",
                 c->nsim_metrics_only, c->nsim_metrics_only == 1 ? "" : "s",
                 c->nown, c->nsim_metrics_only ? ":" : "");
        if (c->nsim_metrics_only)
            ws_cmp_list(f, h, c->sim_metrics_only, c->nsim_metrics_only);
        else
            fprintf(f, "%s\n", h);
    }
    if (c->nmeas_metrics_only) {
        groups = ws_cmp_group_names(c->meas_metrics_only, &ng);
        snprintf(h, sizeof h, "\nmeasured, not simulated (%zu metric%s):",
                 c->nmeas_metrics_only, c->nmeas_metrics_only == 1 ? "" : "s");
        ws_cmp_list(f, h,
                    groups ? (const char *const *)groups : c->meas_metrics_only,
                    groups ? ng : c->nmeas_metrics_only);
        for (size_t i = 0; groups && i < ng; i++)
            free(groups[i]);
        free(groups);
    }
    if (c->nattrs)
        fprintf(f,
                "%s(%zu device, launch and profiler attributes and "
                "roll-ups of compared\ncounters not listed)\n",
                c->nmeas_metrics_only ? "" : "\n", c->nattrs);
}

/* An Nsight export's times are at the clock ncu held the GPU at: its base
 * clock unless ncu ran with --clock-control none.  Said under the header,
 * with the clock the simulated config runs its SMs at, since time_us
 * differs by their ratio before the simulator is wrong at all. */
static void ws_cmp_text_clocks(FILE *f, const struct ws_compare *c)
{
    char text[512], meas[160], sim[64], mhz[32];

    if (c->meas->format != WS_MEAS_NCU)
        return;
    if (isnan(c->meas_mhz))
        snprintf(meas, sizeof meas, "the export gives no SM clock");
    else
        snprintf(meas, sizeof meas, "this export ran at %s MHz (mean %s)",
                 ws_compare_fmt_num(mhz, sizeof mhz, round(c->meas_mhz), 8, 0),
                 c->meas_clock);
    if (isnan(c->sim_mhz))
        snprintf(sim, sizeof sim, "no simulated kernel has a time");
    else
        snprintf(sim, sizeof sim, "the simulated config runs its SMs at %s MHz",
                 ws_compare_fmt_num(mhz, sizeof mhz, round(c->sim_mhz), 8, 0));
    snprintf(text, sizeof text,
             "ncu locks the clocks to base by default (--clock-control "
             "base), so measured times are at the base clock, not boost; "
             "%s; %s",
             meas, sim);
    ws_compare_fmt_wrap(f, "clocks:    ", text, 11);
}

static void ws_cmp_text_header(FILE *f, const struct ws_compare *c,
                               enum ws_cmp_sort s)
{
    fputs("simulated: ", f);
    ws_compare_fmt_put(f, c->sim->name);
    fprintf(f, " (%zu kernel%s%s", c->sim->nkernels,
            c->sim->nkernels == 1 ? "" : "s", *c->sim->gpu ? ", " : "");
    ws_compare_fmt_put(f, c->sim->gpu);
    fputs(")\nmeasured:  ", f);
    ws_compare_fmt_put(f, c->meas->name);
    fprintf(f, " (%s, %zu kernel%s)\n",
            ws_measured_format_name(c->meas->format), c->meas->nkernels,
            c->meas->nkernels == 1 ? "" : "s");
    ws_cmp_text_clocks(f, c);
    fprintf(f, "compared:  %zu kernel%s, %zu metric%s%s\n", c->npairs,
            c->npairs == 1 ? "" : "s", c->nmetrics, c->nmetrics == 1 ? "" : "s",
            s == WS_CMP_SORT_ERROR  ? "; rows by |diff|, largest first"
            : s == WS_CMP_SORT_NAME ? "; rows by metric name"
                                    : "");
}

/* The whole report, or NULL when out of memory. */
char *ws_compare_text(const struct ws_compare *c, enum ws_cmp_sort s)
{
    char *buf = NULL;
    size_t len = 0;
    size_t *order = malloc((c->nmetrics + 1) * sizeof *order);
    FILE *f = order ? open_memstream(&buf, &len) : NULL;
    int rc = f ? 0 : -1;

    if (f)
        ws_cmp_text_header(f, c, s);
    for (size_t p = 0; rc == 0 && p < c->npairs; p++)
        if ((rc = ws_compare_order_pair(c, p, s, order)) == 0)
            ws_cmp_text_pair(f, c, p, order);
    if (rc == 0 && (rc = ws_compare_order_metrics(c, s, order)) == 0)
        ws_cmp_text_summary(f, c, order);
    if (rc == 0) {
        ws_cmp_text_notes(f, c);
        ws_cmp_text_lone(f, c);
        ws_cmp_text_metrics(f, c);
    }
    free(order);
    if (f && fclose(f) != 0)
        rc = -1;
    if (rc < 0) {
        free(buf);
        return NULL;
    }
    return buf;
}
