/*
 * ws_rsm_table: RSM of a results table (see ws_rsm_table.h).
 *
 * What it reads is held to what it can be before anything is fitted:
 * time_us a time (at least 0), sm_util_pct a percentage (0 to 100), each
 * counter a count (at least 0: warpsim's are unsigned), a refusal placed
 * at the cell; and the work of the whole analysis to WS_RSM_MAX_WORK.
 * The kernels' rows are grouped by one sort, so a table of n rows naming
 * n kernels costs n log n, not n^2.
 */
#include "ws_rsm_table.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/ws_stats.h"
#include "ws_plot.h"
#include "util/ws_clip.h"

struct ws_rsm_kernel {
    const char *name;
    size_t *rows, nrows; /* a slice of ws_rsm_tab's order */
    struct ws_rsm_out out;
    int ran;
};

struct ws_rsm_tab {
    const struct ws_csv *t;
    const struct ws_rsm_args *a;
    long c_kernel, c_time, c_util;
    size_t *feat;  /* table columns of the counters */
    size_t *group; /* their enum ws_group */
    size_t nfeat;
    double *target; /* per table row (ok rows only) */
    size_t *order;  /* the ok rows by kernel, then row */
    struct ws_rsm_kernel *k;
    size_t nk;
};

const char *ws_rsm_target_name(enum ws_rsm_target t)
{
    return t == WS_RSM_TS ? "ts" : t == WS_RSM_UL ? "ul" : "score";
}

/* ---- columns ------------------------------------------------------------- */

/* Counters that are the kernel's duration in another unit (elapsed cycles,
 * SM-active cycles, resident warp-cycles) would explain ts and ul by
 * definition, not by any resource's use: left out of the dictionary, as
 * are the measurements of model terms (latencies and overlaps, not uses
 * of a resource). */
/* A pipe's busy cycles are its unit's instructions times the unit's
 * issue interval: the instruction counters again, which the regression
 * would see as one feature twice. */
static int ws_rsm_pipe_cycles(enum ws_ctr c)
{
    return c >= WS_CTR_PIPE_FP32_CYCLES && c <= WS_CTR_PIPE_LDST_CYCLES;
}

static int ws_rsm_tautology(enum ws_ctr c)
{
    return ws_ctr_info(c)->group == WS_GRP_TIME
           || ws_ctr_info(c)->group == WS_GRP_TERMS
           || c == WS_CTR_SM_CYCLES_ACTIVE || c == WS_CTR_WARP_CYCLES_RESIDENT
           || ws_rsm_pipe_cycles(c);
}

static int ws_rsm_need(const struct ws_rsm_tab *r, const char *name, long *col,
                       struct ws_err *err)
{
    *col = ws_csv_col(r->t, name);
    return *col < 0 ? ws_csv_no_col(r->t, name, err) : 0;
}

static int ws_rsm_columns(struct ws_rsm_tab *r, struct ws_err *err)
{
    const struct ws_csv *t = r->t;

    r->c_kernel = ws_csv_col(t, "kernel");
    if (ws_rsm_need(r, "time_us", &r->c_time, err) < 0
        || ws_rsm_need(r, "sm_util_pct", &r->c_util, err) < 0)
        return -1;
    r->feat = malloc((t->ncols + 1) * sizeof *r->feat);
    r->group = malloc((t->ncols + 1) * sizeof *r->group);
    if (!r->feat || !r->group)
        return ws_err_oom(err);
    for (size_t c = 0; c < t->ncols; c++) {
        long k = ws_ctr_find(t->header[c]);
        if (k < 0 || ws_rsm_tautology((enum ws_ctr)k))
            continue;
        r->feat[r->nfeat] = c;
        r->group[r->nfeat++] = ws_ctr_info((enum ws_ctr)k)->group;
    }
    if (r->nfeat == 0)
        return ws_err_msg(err,
                          "%s has no counter columns (expected a "
                          "sweep's results, with counters under their "
                          "Nsight names)",
                          t->name);
    return 0;
}

/* ---- values ---------------------------------------------------------------- */

/* The byte column of cell (row, col) in its line as warpsim writes a row,
 * each field quoted only when it must be (ws_csv_put); the column name in
 * the message finds the cell in a table quoted otherwise. */
static long ws_rsm_cell_col(const struct ws_csv *t, size_t row, size_t col)
{
    long at = 1;

    for (size_t c = 0; c < col; c++) {
        const char *s = ws_csv_cell(t, row, c);
        at += (long)strlen(s) + 1;
        if (s[strcspn(s, ",\"\r\n")] != '\0') {
            at += 2;
            for (const char *q = strchr(s, '"'); q; q = strchr(q + 1, '"'))
                at++;
        }
    }
    return at;
}

/* Cell (row, col) as a number from 0 to hi: 0, or -1 with the error at
 * the cell, what saying what the column holds. */
static int ws_rsm_value(const struct ws_csv *t, size_t row, size_t col,
                        double hi, const char *what, double *v,
                        struct ws_err *err)
{
    struct ws_clip qh, qv;

    if (ws_csv_number(t, row, col, v, err) < 0)
        return -1;
    if (*v >= 0 && *v <= hi)
        return 0;
    return ws_err_at(err, t->name, t->row_line[row],
                     ws_rsm_cell_col(t, row, col),
                     "column '%s' holds %s "
                     "(expected %s)",
                     ws_clip(&qh, t->header[col]),
                     ws_clip(&qv, ws_csv_cell(t, row, col)), what);
}

/* ---- targets --------------------------------------------------------------- */

static double ws_rsm_alpha(const struct ws_rsm_args *a, double ul)
{
    return ul < 0.5 ? a->alpha[0] : ul < 0.8 ? a->alpha[1] : a->alpha[2];
}

/* Eqs 6-8 for every ok row: ts against the table's longest kernel. */
static int ws_rsm_targets(struct ws_rsm_tab *r, struct ws_err *err)
{
    const struct ws_csv *t = r->t;
    double tmax = 0, v;

    r->target = calloc(t->nrows + 1, sizeof *r->target);
    if (!r->target)
        return ws_err_oom(err);
    for (size_t i = 0; i < t->nrows; i++) {
        if (!ws_csv_row_ok(r->t, i))
            continue;
        if (ws_rsm_value(t, i, (size_t)r->c_time, HUGE_VAL,
                         "a time, at "
                         "least 0",
                         &v, err)
            < 0)
            return -1;
        if (v > tmax)
            tmax = v;
    }
    for (size_t i = 0; i < t->nrows; i++) {
        double ts, ul;
        if (!ws_csv_row_ok(r->t, i))
            continue;
        if (ws_csv_number(r->t, i, (size_t)r->c_time, &ts, err) < 0
            || ws_rsm_value(t, i, (size_t)r->c_util, 100,
                            "a percentage "
                            "from 0 to 100",
                            &ul, err)
                   < 0)
            return -1;
        ts = tmax > 0 ? ts / tmax : 0;
        ul /= 100.0;
        if (r->a->target == WS_RSM_TS)
            r->target[i] = ts;
        else if (r->a->target == WS_RSM_UL)
            r->target[i] = 1.0 - ul;
        else
            r->target[i] = ts > 0 ? 1.0 - ws_rsm_alpha(r->a, ul) / ts : 0;
    }
    return 0;
}

/* ---- kernels ----------------------------------------------------------------- */

static const char *ws_rsm_kernel_of(const struct ws_rsm_tab *r, size_t row)
{
    return r->c_kernel < 0 ? "(all)"
                           : ws_csv_cell(r->t, row, (size_t)r->c_kernel);
}

struct ws_rsm_key {
    const char *name;
    size_t row;
};

static int ws_rsm_key_cmp(const void *a, const void *b)
{
    const struct ws_rsm_key *x = a, *y = b;
    int c = strcmp(x->name, y->name);

    return c ? c : (x->row > y->row) - (x->row < y->row);
}

static int ws_rsm_first_cmp(const void *a, const void *b)
{
    const struct ws_rsm_kernel *x = a, *y = b;

    return (x->rows[0] > y->rows[0]) - (x->rows[0] < y->rows[0]);
}

/* The kernels, in the order they first appear, each with its ok rows in
 * order: the rows sorted by kernel name make each kernel one slice of
 * r->order. */
static int ws_rsm_kernels(struct ws_rsm_tab *r, struct ws_err *err)
{
    const struct ws_csv *t = r->t;
    struct ws_rsm_key *key = malloc((t->nrows + 1) * sizeof *key);
    size_t n = 0;

    r->order = malloc((t->nrows + 1) * sizeof *r->order);
    r->k = calloc(t->nrows + 1, sizeof *r->k);
    if (!key || !r->order || !r->k) {
        free(key);
        return ws_err_oom(err);
    }
    for (size_t i = 0; i < t->nrows; i++)
        if (ws_csv_row_ok(t, i))
            key[n++] = (struct ws_rsm_key){ws_rsm_kernel_of(r, i), i};
    qsort(key, n, sizeof *key, ws_rsm_key_cmp);
    for (size_t i = 0; i < n; i++) {
        r->order[i] = key[i].row;
        if (i == 0 || strcmp(key[i].name, key[i - 1].name) != 0) {
            r->k[r->nk].name = key[i].name;
            r->k[r->nk++].rows = r->order + i;
        }
        r->k[r->nk - 1].nrows++;
    }
    free(key);
    qsort(r->k, r->nk, sizeof *r->k, ws_rsm_first_cmp);
    return 0;
}

/* The analysis's work, before any of it: WS_RSM_MAX_WORK at most. */
static int ws_rsm_bounded(const struct ws_rsm_tab *r, struct ws_err *err)
{
    const struct ws_rsm_opts *o = &r->a->opts;
    double work = 0;
    size_t most = 0;

    for (size_t k = 0; k < r->nk; k++) {
        if (r->k[k].nrows < 3)
            continue; /* not fitted */
        work += ws_rsm_work(r->k[k].nrows, r->nfeat, o);
        if (r->k[k].nrows > most)
            most = r->k[k].nrows;
    }
    if (work <= WS_RSM_MAX_WORK)
        return 0;
    return ws_err_msg(err,
                      "%s: %u members over up to %zu runs of a kernel "
                      "and %zu counters are about %.2g multiply-adds of "
                      "fitting, more than %.0e (expected fewer --members, a "
                      "smaller --subsample or --kappa, or fewer rows)",
                      r->t->name, o->members, most, r->nfeat, work,
                      WS_RSM_MAX_WORK);
}

/* One kernel's dictionary, each counter over its largest magnitude. */
static int ws_rsm_kernel_run(struct ws_rsm_tab *r, struct ws_rsm_kernel *k,
                             struct ws_err *err)
{
    size_t n = k->nrows, f = r->nfeat;
    double *d = malloc((n * f + 1) * sizeof *d);
    double *t = malloc((n + 1) * sizeof *t);
    struct ws_rsm_in in = {n, f, WS_GRP_COUNT, d, t, r->group};
    int rc = 0;

    if (!d || !t) {
        free(d);
        free(t);
        return ws_err_oom(err);
    }
    for (size_t j = 0; j < f && rc == 0; j++) {
        double big = 0;
        for (size_t i = 0; i < n && rc == 0; i++) {
            rc = ws_rsm_value(r->t, k->rows[i], r->feat[j], HUGE_VAL,
                              "a "
                              "count, at least 0",
                              &d[i * f + j], err);
            if (fabs(d[i * f + j]) > big)
                big = fabs(d[i * f + j]);
        }
        for (size_t i = 0; i < n && big > 0; i++)
            d[i * f + j] /= big;
    }
    for (size_t i = 0; i < n; i++)
        t[i] = r->target[k->rows[i]];
    if (rc == 0 && n >= 3) {
        if (ws_rsm_run(&in, &r->a->opts, &k->out) < 0)
            rc = ws_err_oom(err);
        else
            k->ran = 1;
    }
    free(d);
    free(t);
    return rc;
}

/* ---- report ---------------------------------------------------------------------- */

struct ws_rsm_rank {
    size_t idx;
    double v;
};

static int ws_rsm_rank_cmp(const void *a, const void *b)
{
    const struct ws_rsm_rank *x = a, *y = b;

    if (x->v != y->v)
        return x->v < y->v ? 1 : -1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Up to three of the group's counters, most often chosen first. */
static void ws_rsm_counters(FILE *out, const struct ws_rsm_tab *r,
                            const struct ws_rsm_kernel *k, size_t g)
{
    struct ws_rsm_rank top[3];
    size_t n = 0;

    for (size_t j = 0; j < r->nfeat; j++) {
        struct ws_rsm_rank c = {j, k->out.picked[j]};
        size_t at;
        if (r->group[j] != g || c.v <= 0)
            continue;
        if (n == 3 && ws_rsm_rank_cmp(&c, &top[2]) >= 0)
            continue;
        at = n < 3 ? n++ : 2;
        while (at > 0 && ws_rsm_rank_cmp(&c, &top[at - 1]) < 0) {
            top[at] = top[at - 1];
            at--;
        }
        top[at] = c;
    }
    for (size_t i = 0; i < n; i++)
        fprintf(out, "%s`%s` (%.0f %%, belief %.2f)", i ? ", " : "",
                r->t->header[r->feat[top[i].idx]], 100 * top[i].v,
                k->out.belief[top[i].idx] / (top[i].v > 0 ? top[i].v : 1));
}

static void ws_rsm_kernel_md(FILE *out, const struct ws_rsm_tab *r,
                             const struct ws_rsm_kernel *k)
{
    struct ws_rsm_rank g[WS_GRP_COUNT];

    fprintf(out, "\n## %s (%zu runs)\n\n", k->name, k->nrows);
    if (!k->ran) {
        fprintf(out, "Too few runs to fit (expected at least 3).\n");
        return;
    }
    for (size_t i = 0; i < WS_GRP_COUNT; i++)
        g[i] = (struct ws_rsm_rank){i, k->out.rsm[i]};
    qsort(g, WS_GRP_COUNT, sizeof g[0], ws_rsm_rank_cmp);
    fprintf(out, "| resource | RSM | counters chosen (share of members, "
                 "mean belief when chosen) |\n|---|---|---|\n");
    for (size_t i = 0; i < WS_GRP_COUNT; i++) {
        if (g[i].v <= 0)
            continue;
        fprintf(out, "| %s | %.3f | ", ws_group_name((enum ws_group)g[i].idx),
                g[i].v);
        ws_rsm_counters(out, r, k, g[i].idx);
        fprintf(out, " |\n");
    }
    if (g[0].v <= 0)
        fprintf(out, "| (none) | 0 | the target does not vary |\n");
}

static void ws_rsm_head(FILE *out, const struct ws_rsm_tab *r)
{
    const struct ws_rsm_args *a = r->a;
    const struct ws_rsm_opts *o = &a->opts;
    size_t rows = 0;

    for (size_t k = 0; k < r->nk; k++)
        rows += r->k[k].nrows;
    fprintf(out, "# Resource significance of %s\n\n", r->t->name);
    fprintf(out, "Target `%s`", ws_rsm_target_name(a->target));
    if (a->target == WS_RSM_SCORE)
        fprintf(out,
                " = 1 - alpha / ts, alpha %g / %g / %g for ul below "
                "0.5 / below 0.8 / above",
                a->alpha[0], a->alpha[1], a->alpha[2]);
    fprintf(out,
            " (Islam et al., eqs 6-8); %zu runs of %zu kernel%s, %zu "
            "counters (the kernel's duration in cycles left out).\n\n",
            rows, r->nk, r->nk == 1 ? "" : "s", r->nfeat);
    fprintf(out,
            "Ensemble OMP (eqs 1-5): tau %u, kappa %g, %u members on "
            "%g of the runs each, gamma %.4g, seed %lu (GSL mt19937).  RSM "
            "is in [0, 1]: 1 - prod(1 - belief) over the group's counters, "
            "averaged over the members.\n",
            o->tau, o->kappa, o->members, o->subsample, o->gamma, o->seed);
}

/* ---- the chart ------------------------------------------------------------------ */

static char *ws_rsm_chart(const struct ws_rsm_tab *r, struct ws_err *err)
{
    const char *cats[WS_GRP_COUNT], **series = malloc(r->nk * sizeof *series);
    double *v = malloc((WS_GRP_COUNT * r->nk + 1) * sizeof *v);
    size_t nc = 0;
    char title[160], *svg = NULL;
    struct ws_plot_bars bars;

    if (!series || !v) {
        free(series);
        free(v);
        ws_err_oom(err);
        return NULL;
    }
    for (size_t k = 0; k < r->nk; k++)
        series[k] = r->k[k].name;
    for (size_t g = 0; g < WS_GRP_COUNT; g++) {
        int any = 0;
        for (size_t k = 0; k < r->nk; k++)
            any |= r->k[k].ran && r->k[k].out.rsm[g] > 0;
        if (!any)
            continue;
        for (size_t k = 0; k < r->nk; k++)
            v[nc * r->nk + k] = r->k[k].ran ? r->k[k].out.rsm[g] : 0;
        cats[nc++] = ws_group_name((enum ws_group)g);
    }
    snprintf(title, sizeof title, "Resource significance for %s",
             ws_rsm_target_name(r->a->target));
    bars =
        (struct ws_plot_bars){.title = title,
                              .xlabel = "resource group",
                              .ylabel = "RSM (resource significance, 0 to 1)",
                              .key = "kernel",
                              .cats = cats,
                              .ncats = nc,
                              .series = series,
                              .nseries = r->nk,
                              .v = v};
    svg = ws_plot_bars_svg(&bars, err);
    free(series);
    free(v);
    return svg;
}

/* ---- entry ------------------------------------------------------------------------- */

static void ws_rsm_tab_free(struct ws_rsm_tab *r)
{
    for (size_t k = 0; r->k && k < r->nk; k++)
        ws_rsm_out_free(&r->k[k].out);
    free(r->k);
    free(r->order);
    free(r->feat);
    free(r->group);
    free(r->target);
}

/* {kernel: {group: rsm}} over the kernels that ran. */
static json_t *ws_rsm_json(const struct ws_rsm_tab *r)
{
    json_t *all = json_object();

    for (size_t k = 0; all && k < r->nk; k++) {
        json_t *g = json_object();
        if (!r->k[k].ran || !g) {
            json_decref(g);
            continue;
        }
        for (size_t i = 0; i < WS_GRP_COUNT; i++)
            if (r->k[k].out.rsm[i] > 0)
                json_object_set_new(g, ws_group_name((enum ws_group)i),
                                    json_real(r->k[k].out.rsm[i]));
        json_object_set_new(all, r->k[k].name, g);
    }
    return all;
}

char *ws_rsm_report(const struct ws_csv *t, const struct ws_rsm_args *a,
                    char **svg, json_t **json, struct ws_err *err)
{
    struct ws_rsm_tab r = {0};
    char *text = NULL;
    size_t len = 0, ran = 0;
    FILE *out;

    r.t = t;
    r.a = a;
    if (svg)
        *svg = NULL;
    if (json)
        *json = NULL;
    if (ws_rsm_columns(&r, err) < 0 || ws_rsm_targets(&r, err) < 0
        || ws_rsm_kernels(&r, err) < 0 || ws_rsm_bounded(&r, err) < 0)
        goto fail;
    for (size_t k = 0; k < r.nk; k++) {
        if (ws_rsm_kernel_run(&r, &r.k[k], err) < 0)
            goto fail;
        ran += r.k[k].ran;
    }
    if (ran == 0) {
        ws_err_msg(err,
                   "%s has no kernel with 3 ok rows (expected a sweep "
                   "of at least 3 points)",
                   t->name);
        goto fail;
    }
    if (svg && !(*svg = ws_rsm_chart(&r, err)))
        goto fail;
    if (json && !(*json = ws_rsm_json(&r))) {
        ws_err_oom(err);
        goto fail;
    }
    if (!(out = open_memstream(&text, &len))) {
        ws_err_oom(err);
        goto fail;
    }
    ws_rsm_head(out, &r);
    for (size_t k = 0; k < r.nk; k++)
        ws_rsm_kernel_md(out, &r, &r.k[k]);
    if (fclose(out) != 0) {
        free(text);
        text = NULL;
        ws_err_oom(err);
    }
    ws_rsm_tab_free(&r);
    return text;
fail:
    if (svg) {
        free(*svg);
        *svg = NULL;
    }
    if (json && *json) {
        json_decref(*json);
        *json = NULL;
    }
    ws_rsm_tab_free(&r);
    return NULL;
}
