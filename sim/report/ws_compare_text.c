/*
 * ws_compare_text: the text report of `warpsim compare` (see
 * ws_compare_text.h).
 *
 * The report keeps its columns: a value too wide for its column, or of
 * 1e15 or more, is printed in exponent form ("1.23457e+20", "+1.2e+06%");
 * a metric name too long for its column goes on a line of its own, the
 * values under it; names and paths are printed with their control
 * characters escaped (\n, \r, \t, \xHH), so that a line break in a quoted
 * CSV kernel name cannot break a line of the report.  Notes of measured
 * metrics left out (why a hit rate or a time is missing) follow the
 * per-metric table, wrapped at 78 columns.
 */
#include "ws_compare_text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/ws_clip.h"

/* ---- text --------------------------------------------------------------------- */

/* The columns of the tables: metric names, values, percentages. */
#define WS_CMP_NAME_W 58
#define WS_CMP_VAL_W 15
#define WS_CMP_PCT_W 10
/* From here on, a value is printed in exponent form. */
#define WS_CMP_HUGE 1e15

/* v in exponent form ("%.*g" and suffix) with the most significant
 * digits, up to 6, that fit in width. */
static void ws_cmp_exp(char *buf, size_t size, double v, int width, int sign,
                       const char *suffix)
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
    if (!isnan(v) && (!(fabs(v) < WS_CMP_HUGE) || strlen(buf) > (size_t)width))
        ws_cmp_exp(buf, size, v, width, 0, "");
    return buf;
}

/* A percentage to 2 decimals ("+4.62%"), in at most width characters. */
static const char *ws_cmp_pct(char *buf, size_t size, double v, int sign,
                              int width)
{
    if (fabs(v) < 0.005)
        v = 0; /* no "-0.00%" for a difference of rounding */
    if (isnan(v))
        snprintf(buf, size, "n/a");
    else if (!(fabs(v) < WS_CMP_HUGE)
             || snprintf(buf, size, sign ? "%+.2f%%" : "%.2f%%", v) > width)
        ws_cmp_exp(buf, size, v, width, sign, "%");
    return buf;
}

/* One character as the report prints it: control characters escaped.
 * Returns the characters written (f NULL: only counted). */
static size_t ws_cmp_put_char(FILE *f, unsigned char ch)
{
    if (ch >= 0x20 && ch != 0x7f) {
        if (f)
            fputc(ch, f);
        return 1;
    }
    if (ch == '\n' || ch == '\r' || ch == '\t') {
        if (f)
            fprintf(f, "\\%c", ch == '\n' ? 'n' : ch == '\r' ? 'r' : 't');
        return 2;
    }
    if (f)
        fprintf(f, "\\x%02x", ch);
    return 4;
}

/* A name or path as the report prints it: control characters escaped,
 * so that it stays on its line.  Returns the characters written. */
static size_t ws_cmp_put(FILE *f, const char *s)
{
    size_t n = 0;

    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        n += ws_cmp_put_char(f, *p);
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
        fprintf(f, " %*s %*s %*s\n", WS_CMP_VAL_W,
                ws_cmp_num(a, sizeof a, cell->sim, WS_CMP_VAL_W), WS_CMP_VAL_W,
                ws_cmp_num(b, sizeof b, cell->meas, WS_CMP_VAL_W), WS_CMP_PCT_W,
                ws_cmp_pct(d, sizeof d, cell->diff_pct, 1, WS_CMP_PCT_W));
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

/* Text wrapped at 78 columns, each line indented by indent. */
static void ws_cmp_wrap(FILE *f, const char *text, int indent)
{
    const char *p = text;

    while (*p) {
        size_t room = 78 - (size_t)indent, n = strlen(p), cut = n;
        if (n > room) {
            for (cut = room; cut > 0 && p[cut] != ' '; cut--)
                ;
            if (cut == 0) /* one word longer than the line */
                cut = strcspn(p, " ");
        }
        fprintf(f, "%*s", indent, "");
        for (size_t i = 0; i < cut; i++)
            ws_cmp_put_char(f, (unsigned char)p[i]);
        fputc('\n', f);
        p += cut;
        p += strspn(p, " ");
    }
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
        ws_cmp_put(f, n->metric);
        if (n->pair == WS_MEAS_ALL) {
            fputs(" (every kernel):\n", f);
        } else {
            const struct ws_compare_pair *pr = &c->pairs[n->pair];
            ws_compare_label(label, sizeof label, c->sim->kernels[pr->sim].base,
                             pr->launch);
            fputs(", ", f);
            ws_cmp_put(f, label);
            fprintf(f, " (line %ld):\n", n->line);
        }
        ws_cmp_wrap(f, n->why, 4);
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
        const struct ws_simrun_kernel *k =
            &c->sim->kernels[c->sim_only[i].index];
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
        const struct ws_meas_kernel *k =
            &c->meas->kernels[c->meas_only[i].index];
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

/* The whole report, or NULL when out of memory. */
char *ws_compare_text(const struct ws_compare *c)
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
    ws_cmp_text_notes(f, c);
    ws_cmp_text_lone(f, c);
    ws_cmp_text_metrics(f, c);
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}
