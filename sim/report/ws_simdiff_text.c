/*
 * ws_simdiff_text: two runs compared, as text (see ws_simdiff_text.h).
 *
 * The verdict is built from what ws_simdiff found, in the words of the
 * run's own header ("h100 with --set dram.bandwidth=x1.5"); a difference
 * is named, a sameness only where a reader would ask (the inputs, the
 * config): the params and the build are mentioned when they differ.
 *
 * Leaves out: the values' formats (ws_compare_fmt.h).
 */
#include "ws_simdiff_text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ws_compare_fmt.h"

/* The columns: figure names, values and deltas, percentages. */
#define WS_SDT_NAME_W 50
#define WS_SDT_VAL_W 14
#define WS_SDT_PCT_W 10
/* Inputs named in the verdict before "...". */
#define WS_SDT_MAX_INPUTS 4

/* ---- the verdict ---------------------------------------------------------- */

/* "h100", "h100 with --set a=1, --set b=2", as run's header says it. */
static void ws_sdt_config(FILE *f, const struct ws_simrun_prov *p)
{
    ws_compare_fmt_put(f, *p->config ? p->config : "(unnamed)");
    if (p->noverrides)
        fputs(" with", f);
    for (size_t i = 0; i < p->noverrides; i++) {
        fprintf(f, "%s --set ", i ? "," : "");
        ws_compare_fmt_put(f, p->overrides[i]);
    }
}

static int ws_sdt_same_desc(const struct ws_simrun_prov *a,
                            const struct ws_simrun_prov *b)
{
    if (strcmp(a->config, b->config) != 0 || a->noverrides != b->noverrides)
        return 0;
    for (size_t i = 0; i < a->noverrides; i++)
        if (strcmp(a->overrides[i], b->overrides[i]) != 0)
            return 0;
    return 1;
}

static void ws_sdt_configs(FILE *f, const struct ws_simdiff *d)
{
    fputs("A ", f);
    ws_sdt_config(f, &d->a->prov);
    fputs(", B ", f);
    ws_sdt_config(f, &d->b->prov);
}

static void ws_sdt_verdict_config(FILE *f, const struct ws_simdiff *d)
{
    if (!d->same_config) {
        fputs("config differs: ", f);
        ws_sdt_configs(f, d);
    } else if (ws_sdt_same_desc(&d->a->prov, &d->b->prov)) {
        fputs("same config (", f);
        ws_sdt_config(f, &d->a->prov);
        fputc(')', f);
    } else {
        fputs("same config, named two ways (", f);
        ws_sdt_configs(f, d);
        fputc(')', f);
    }
}

/* The inputs that differ, by path, up to WS_SDT_MAX_INPUTS of them; two
 * runs of other traces share no file, which is said in a word. */
static void ws_sdt_verdict_inputs(FILE *f, const struct ws_simdiff *d)
{
    size_t common = d->a->prov.ninputs;

    if (d->same_inputs) {
        fprintf(f, "same inputs (%zu file%s by XXH3-128)", common,
                common == 1 ? "" : "s");
        return;
    }
    for (size_t i = 0; i < d->ninputs; i++)
        common -= d->inputs[i].a != NULL;
    if (common == 0 && d->ninputs == d->a->prov.ninputs + d->b->prov.ninputs) {
        fprintf(f, "inputs differ: none in common (A %zu file%s, B %zu)",
                d->a->prov.ninputs, d->a->prov.ninputs == 1 ? "" : "s",
                d->b->prov.ninputs);
        return;
    }
    fputs("inputs differ:", f);
    for (size_t i = 0; i < d->ninputs && i < WS_SDT_MAX_INPUTS; i++) {
        const struct ws_simdiff_input *in = &d->inputs[i];
        /* an input is A's, B's or both: one side is there */
        const struct ws_simrun_input *one = in->a ? in->a : in->b;
        fprintf(f, "%s %s (%s)", i ? "," : "", one ? one->path : "?",
                in->a && in->b ? "another content"
                : in->a        ? "A only"
                               : "B only");
    }
    if (d->ninputs > WS_SDT_MAX_INPUTS)
        fprintf(f, " and %zu more", d->ninputs - WS_SDT_MAX_INPUTS);
}

static void ws_sdt_list(FILE *f, char *const *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s%s", i ? " " : "", v[i]);
    if (n == 0)
        fputs("none", f);
}

/* What a run lacking provenance leaves unknown. */
static void ws_sdt_verdict_unknown(FILE *f, const struct ws_simdiff *d)
{
    int a = d->a->prov.present, b = d->b->prov.present;

    fprintf(f,
            "inputs and config unknown: %s (a run JSON written before "
            "warpsim 0.6.0)",
            !a && !b ? "neither run has a provenance"
            : !a     ? "A has no provenance"
                     : "B has no provenance");
}

char *ws_simdiff_verdict(const struct ws_simdiff *d)
{
    const struct ws_simrun_prov *pa = &d->a->prov, *pb = &d->b->prov;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);

    if (!f)
        return NULL;
    if (!d->provenance) {
        ws_sdt_verdict_unknown(f, d);
    } else {
        ws_sdt_verdict_inputs(f, d);
        if (!d->same_params) {
            fputs("; params differ: A ", f);
            ws_sdt_list(f, pa->params, pa->nparams);
            fputs(", B ", f);
            ws_sdt_list(f, pb->params, pb->nparams);
        }
        fputs("; ", f);
        ws_sdt_verdict_config(f, d);
        if (!d->same_build)
            fprintf(f, "; warpsim differs: A %s %s, B %s %s", pa->version,
                    pa->commit, pb->version, pb->commit);
    }
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* ---- the report ------------------------------------------------------------ */

static void ws_sdt_side(FILE *f, const char *label, const struct ws_simrun *s)
{
    const struct ws_simrun_prov *p = &s->prov;

    fprintf(f, "%s: ", label);
    ws_compare_fmt_put(f, s->name);
    fprintf(f, " (%zu kernel%s%s", s->nkernels, s->nkernels == 1 ? "" : "s",
            *s->gpu ? ", " : "");
    ws_compare_fmt_put(f, s->gpu);
    fputs(")\n   ", f);
    if (*s->input) {
        fputs("input ", f);
        ws_compare_fmt_put(f, s->input);
        fputs(", ", f);
    }
    if (!p->present) {
        fputs("no provenance\n", f);
        return;
    }
    fputs("warpsim ", f);
    ws_compare_fmt_put(f, p->version);
    fputs(" (", f);
    ws_compare_fmt_put(f, p->commit);
    fputs("), config ", f);
    ws_sdt_config(f, p);
    fputc('\n', f);
}

/* A row: name, A, B, delta, delta %. */
static void ws_sdt_row(FILE *f, const struct ws_simdiff_row *r)
{
    char a[32], b[32], d[32], pct[32];

    ws_compare_fmt_name(f, ' ', r->name, WS_SDT_NAME_W);
    fprintf(f, " %*s %*s %*s %*s\n", WS_SDT_VAL_W,
            ws_compare_fmt_num(a, sizeof a, r->a, WS_SDT_VAL_W, 0),
            WS_SDT_VAL_W,
            ws_compare_fmt_num(b, sizeof b, r->b, WS_SDT_VAL_W, 0),
            WS_SDT_VAL_W,
            ws_compare_fmt_num(d, sizeof d, r->delta, WS_SDT_VAL_W, 1),
            WS_SDT_PCT_W,
            ws_compare_fmt_pct(pct, sizeof pct, r->delta_pct, 1, WS_SDT_PCT_W));
}

static void ws_sdt_head(FILE *f, const char *what)
{
    fprintf(f, "  %-*s %*s %*s %*s %*s\n", WS_SDT_NAME_W, what, WS_SDT_VAL_W,
            "A", WS_SDT_VAL_W, "B", WS_SDT_VAL_W, "delta", WS_SDT_PCT_W,
            "delta %");
}

/* One kind of figures of a pair: how many differ, and those rows. */
static int ws_sdt_kind(FILE *f, const struct ws_simdiff_pair *p, int derived,
                       enum ws_cmp_sort s, size_t *order)
{
    size_t n = derived ? p->nderived : p->ncounters;
    size_t equal = derived ? p->derived_equal : p->counters_equal;
    const char *what = derived ? "derived figures" : "counters";
    long nd = ws_simdiff_order(p, derived, s, order);

    if (nd < 0)
        return -1;
    if (n == 0)
        return 0;
    if (nd == 0) {
        fprintf(f, "  %s: all %zu equal\n", what, n);
        return 0;
    }
    fprintf(f, "  %s: %ld of %zu differ, %zu equal\n", what, nd, n, equal);
    ws_sdt_head(f, derived ? "figure" : "counter");
    for (long i = 0; i < nd; i++)
        ws_sdt_row(f, &p->rows[order[i]]);
    return 0;
}

static int ws_sdt_pair(FILE *f, const struct ws_simdiff *d, size_t i,
                       enum ws_cmp_sort s, size_t *order)
{
    const struct ws_simdiff_pair *p = &d->pairs[i];
    const struct ws_simrun_kernel *k = &d->a->kernels[p->a];

    fprintf(f, "\nkernel %lld, ", k->id);
    ws_compare_fmt_put(f, k->base);
    fputs(": ", f);
    ws_compare_fmt_put(f, k->name);
    fputc('\n', f);
    if (ws_sdt_kind(f, p, 0, s, order) < 0)
        return -1;
    return ws_sdt_kind(f, p, 1, s, order);
}

static void ws_sdt_lone(FILE *f, const char *label, const struct ws_simrun *s,
                        const size_t *idx, size_t n)
{
    if (n)
        fprintf(f, "\n%s only (%zu kernel%s):\n", label, n, n == 1 ? "" : "s");
    for (size_t i = 0; i < n; i++) {
        const struct ws_simrun_kernel *k = &s->kernels[idx[i]];
        fprintf(f, "  kernel %lld, ", k->id);
        ws_compare_fmt_put(f, k->base);
        fputs(": ", f);
        ws_compare_fmt_put(f, k->name);
        fputc('\n', f);
    }
}

static int ws_sdt_header(FILE *f, const struct ws_simdiff *d,
                         enum ws_cmp_sort s)
{
    char *verdict = ws_simdiff_verdict(d);

    if (!verdict)
        return -1;
    ws_sdt_side(f, "A", d->a);
    ws_sdt_side(f, "B", d->b);
    ws_compare_fmt_wrap(f, "verdict:   ", verdict, 11);
    free(verdict);
    fprintf(f, "compared:  %zu kernel%s by launch id and name, B against A%s\n",
            d->npairs, d->npairs == 1 ? "" : "s",
            s == WS_CMP_SORT_ERROR  ? "; rows by |delta %|, largest first"
            : s == WS_CMP_SORT_NAME ? "; rows by name"
                                    : "");
    if (d->na_only || d->nb_only)
        fprintf(f,
                "kernel lists differ: %zu kernel%s in A only, %zu in B "
                "only (listed at the end)\n",
                d->na_only, d->na_only == 1 ? "" : "s", d->nb_only);
    fputc('\n', f);
    ws_sdt_head(f, "");
    ws_sdt_row(f, &d->total);
    return 0;
}

char *ws_simdiff_text(const struct ws_simdiff *d, enum ws_cmp_sort s)
{
    size_t most = 0, len = 0;
    char *buf = NULL;
    size_t *order;
    FILE *f;
    int rc;

    for (size_t i = 0; i < d->npairs; i++)
        if (d->pairs[i].nrows > most)
            most = d->pairs[i].nrows;
    order = malloc((most + 1) * sizeof *order);
    f = order ? open_memstream(&buf, &len) : NULL;
    rc = f ? ws_sdt_header(f, d, s) : -1;
    for (size_t i = 0; rc == 0 && i < d->npairs; i++)
        rc = ws_sdt_pair(f, d, i, s, order);
    if (rc == 0) {
        ws_sdt_lone(f, "A", d->a, d->a_only, d->na_only);
        ws_sdt_lone(f, "B", d->b, d->b_only, d->nb_only);
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
