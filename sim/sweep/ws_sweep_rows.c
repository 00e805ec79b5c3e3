/*
 * ws_sweep_rows: a sweep's results file: its columns, the rows of one
 * point, and the file operations that keep it whole: resuming (which
 * points it already holds), the final sort, and the merge of shares.
 *
 * Columns: point, points (the sweep's total), key, status ("ok" or
 * "failed"), error; one per axis (the value in the key's base unit, or
 * its text); then per kernel its id and name, total_cycles of the point,
 * cycles, derived figures, every counter under its Nsight Compute name,
 * and per model its prediction, regime, domain ("in: ..." or "out: ..."),
 * intermediates ("name=value ...") and elasticities (the same form).  A
 * multi-kernel trace gives a point one row per kernel; they are written
 * together, by one write(2), so a killed sweep never leaves half a point.
 *
 * Leaves out: running points (ws_sweep_pool.c).
 */
#include "ws_sweep_rows.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stats/ws_stats.h"
#include "util/ws_num.h"
#include "ws_model_params.h"

static const char *const ws_sweep_fixed_cols[] = {
    "point", "points", "key", "status", "error"
};
static const char *const ws_sweep_kernel_cols[] = {
    "kernel_id", "kernel", "total_cycles", "cycles", "time_us", "ipc",
    "sm_util_pct", "achieved_occupancy_pct", "l1_hit_pct", "l2_hit_pct",
    "dram_gbps", "dram_pct_of_peak", "ctas_per_sm", "occupancy_limit"
};
#define WS_NFIXED (sizeof ws_sweep_fixed_cols / sizeof *ws_sweep_fixed_cols)
#define WS_NKCOLS (sizeof ws_sweep_kernel_cols / sizeof *ws_sweep_kernel_cols)

/* Per model: its prediction and what says where it comes from. */
static const char *const ws_sweep_model_cols[] = {
    "cycles", "regime", "domain", "terms", "elasticity"
};
#define WS_NMCOLS (sizeof ws_sweep_model_cols / sizeof *ws_sweep_model_cols)

size_t ws_sweep_ncols(const struct ws_sweep *s)
{
    return WS_NFIXED + s->naxes + WS_NKCOLS + WS_CTR_COUNT
        + WS_NMCOLS * ((size_t)WS_MODEL_COUNT + s->nmodels);
}

/* Closes a memory stream; its buffer is only final after fclose. */
static char *ws_sweep_close(FILE *f, char **buf)
{
    if (fclose(f) != 0) {
        free(*buf);
        return NULL;
    }
    return *buf;
}

char *ws_sweep_header(const struct ws_sweep *s)
{
    char *buf = NULL, name[64];
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    const char *sep = "";

    if (!f)
        return NULL;
    for (size_t i = 0; i < WS_NFIXED; i++, sep = ",")
        fprintf(f, "%s%s", sep, ws_sweep_fixed_cols[i]);
    for (size_t i = 0; i < s->naxes; i++) {
        fputc(',', f);
        ws_csv_put(f, s->axes[i].name);
    }
    for (size_t i = 0; i < WS_NKCOLS; i++)
        fprintf(f, ",%s", ws_sweep_kernel_cols[i]);
    for (int c = 0; c < WS_CTR_COUNT; c++)
        fprintf(f, ",%s", ws_ctr_info((enum ws_ctr)c)->name);
    for (size_t m = 0; m < WS_MODEL_COUNT + s->nmodels; m++) {
        size_t nlen;
        const char *n;
        if (m < WS_MODEL_COUNT) {
            n = ws_model_name((enum ws_model_kind)m);
            nlen = strlen(n);
        } else {
            n = ws_sweep_model_name(s, m - WS_MODEL_COUNT, &nlen);
        }
        for (size_t c = 0; c < WS_NMCOLS; c++) {
            snprintf(name, sizeof name, "%.*s_%s", (int)nlen, n,
                     ws_sweep_model_cols[c]);
            fprintf(f, ",%s", name);
        }
    }
    fputc('\n', f);
    return ws_sweep_close(f, &buf);
}

static void ws_sweep_point_cells(FILE *f, const struct ws_sweep *s,
                                 const struct ws_sweep_point *p,
                                 const char *key, const char *status,
                                 const char *why)
{
    fprintf(f, "%zu,%zu,%s,%s,", p->index, s->npoints, key, status);
    ws_csv_put(f, why ? why : "");
    for (size_t i = 0; i < s->naxes; i++) {
        fputc(',', f);
        ws_csv_put(f, s->axes[i].values[p->value[i]].cell);
    }
}

/* "name=value name=value": a model's intermediates or elasticities in one
 * cell, for the scoreboard to read back. */
static void ws_sweep_vars_cell(FILE *f, const struct ws_model_var *v, int n)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);

    fputc(',', f);
    if (!m)
        return;
    for (int i = 0; i < n; i++)
        fprintf(m, "%s%s=%.6g", i ? " " : "", v[i].name, v[i].value);
    if (fclose(m) == 0)
        ws_csv_put(f, buf);
    free(buf);
}

static void ws_sweep_model_cells(FILE *f, const struct ws_model_result *r)
{
    char domain[sizeof r->domain + 8];

    if (!r) {
        for (size_t c = 0; c < WS_NMCOLS; c++)
            fputc(',', f);
        return;
    }
    if (r->applies)
        fprintf(f, ",%.10g,", r->cycles);
    else
        fputs(",,", f);
    ws_csv_put(f, r->applies ? r->regime : r->why);
    snprintf(domain, sizeof domain, "%s: %s",
             r->bound ? "bound" : r->in_domain ? "in" : "out", r->domain);
    fputc(',', f);
    ws_csv_put(f, domain);
    ws_sweep_vars_cell(f, r->vars, r->applies ? r->nvars : 0);
    ws_sweep_vars_cell(f, r->elast, r->nelast);
}

static void ws_sweep_kernel_cells(FILE *f, const struct ws_sweep *s,
                                  const struct ws_run_report *rep,
                                  const struct ws_kernel_stats *k)
{
    struct ws_derived d;

    ws_report_derive(rep->gpu, &k->ctr, &d);
    fprintf(f, ",%u,", k->launch.id);
    ws_csv_put(f, k->name ? k->name : "");
    fprintf(f, ",%llu,%llu,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,"
            "%u,%s", (unsigned long long)rep->total_cycles,
            (unsigned long long)k->ctr.v[WS_CTR_CYCLES], d.time_us, d.ipc,
            d.sm_util_pct, d.achieved_occ_pct, d.l1_hit_pct, d.l2_hit_pct,
            d.dram_gbps, d.dram_pct_of_peak, k->occ.ctas_per_sm,
            ws_occ_limit_name(k->occ.limit));
    for (int c = 0; c < WS_CTR_COUNT; c++)
        fprintf(f, ",%llu", (unsigned long long)k->ctr.v[c]);
    for (size_t m = 0; m < WS_MODEL_COUNT + s->nmodels; m++)
        ws_sweep_model_cells(f, m < (size_t)k->nmodels ? &k->models[m]
                                                       : NULL);
    fputc('\n', f);
}

char *ws_sweep_rows(const struct ws_sweep *s, const struct ws_sweep_point *p,
                    const char *key, const struct ws_run_report *rep,
                    const char *why)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);

    if (!f)
        return NULL;
    if (!rep || rep->nkernels == 0) {
        ws_sweep_point_cells(f, s, p, key, "failed",
                             why ? why : "the input has no kernel");
        for (size_t i = 0; i < ws_sweep_ncols(s) - WS_NFIXED - s->naxes; i++)
            fputc(',', f);
        fputc('\n', f);
        return ws_sweep_close(f, &buf);
    }
    for (size_t k = 0; k < rep->nkernels; k++) {
        ws_sweep_point_cells(f, s, p, key, "ok", NULL);
        ws_sweep_kernel_cells(f, s, rep, &rep->kernels[k]);
    }
    return ws_sweep_close(f, &buf);
}

/* ---- whole files ------------------------------------------------------ */

/* A cell holding a whole number; -1 when it holds anything else. */
static int ws_sweep_cell_u64(const struct ws_csv *t, size_t row, size_t col,
                             uint64_t *v)
{
    const char *c = ws_csv_cell(t, row, col);

    return ws_num_u64(c, strlen(c), v);
}

long ws_sweep_row_point(const struct ws_csv *t, size_t row, size_t npoints)
{
    uint64_t v;

    if (ws_sweep_cell_u64(t, row, 0, &v) < 0 || v >= npoints)
        return -1;
    return (long)v;
}

/* The point a row holds results of, when they are still that point's:
 * its key is the point's key now, in a sweep of as many points.  -1 for a
 * row that belongs to no current point. */
static long ws_sweep_row_current(const struct ws_csv *t, size_t row,
                                 const struct ws_sweep *s, char (*keys)[33])
{
    long p = ws_sweep_row_point(t, row, s->npoints);
    uint64_t points;

    if (p < 0 || strcmp(ws_csv_cell(t, row, 2), keys[p]) != 0
        || ws_sweep_cell_u64(t, row, 1, &points) < 0 || points != s->npoints)
        return -1;
    return p;
}

int ws_sweep_check_header(const struct ws_csv *t, const char *header,
                          struct ws_err *err)
{
    struct ws_csv h;
    int same;

    if (ws_csv_parse(&h, "header", header, strlen(header), 0, 0, err) < 0)
        return -1;
    same = h.ncols == t->ncols;
    for (size_t i = 0; same && i < h.ncols; i++)
        same = strcmp(h.header[i], t->header[i]) == 0;
    ws_csv_free(&h);
    if (!same)
        return ws_err_at(err, t->name, 1, 1, "the columns are not this "
                         "sweep's (expected the results of the same sweep "
                         "file and warpsim version; write to a new file with "
                         "-o)");
    return 0;
}

/* Row i of t, with its separators and line break, appended to f. */
static void ws_sweep_put_row(FILE *f, const struct ws_csv *t, size_t row)
{
    for (size_t c = 0; c < t->ncols; c++) {
        if (c)
            fputc(',', f);
        ws_csv_put(f, ws_csv_cell(t, row, c));
    }
    fputc('\n', f);
}

static void ws_sweep_put_header(FILE *f, const struct ws_csv *t)
{
    for (size_t c = 0; c < t->ncols; c++) {
        if (c)
            fputc(',', f);
        ws_csv_put(f, t->header[c]);
    }
    fputc('\n', f);
}

struct ws_sweep_rowref {
    size_t point, table, row;
};

static int ws_sweep_rowref_cmp(const void *a, const void *b)
{
    const struct ws_sweep_rowref *x = a, *y = b;

    if (x->point != y->point)
        return x->point < y->point ? -1 : 1;
    if (x->table != y->table)
        return x->table < y->table ? -1 : 1;
    return x->row < y->row ? -1 : x->row > y->row;
}

/* The tables' rows, sorted by point, as text with the header. */
static char *ws_sweep_sorted_text(const struct ws_csv *tabs, size_t ntabs,
                                  struct ws_sweep_rowref *refs, size_t nrefs)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);

    if (!f)
        return NULL;
    qsort(refs, nrefs, sizeof *refs, ws_sweep_rowref_cmp);
    ws_sweep_put_header(f, &tabs[0]);
    for (size_t i = 0; i < nrefs; i++)
        ws_sweep_put_row(f, &tabs[refs[i].table], refs[i].row);
    (void)ntabs;
    return ws_sweep_close(f, &buf);
}

void ws_sweep_resume_scan(const struct ws_csv *t, const struct ws_sweep *s,
                          char (*keys)[33], unsigned char *done,
                          size_t *stale)
{
    *stale = 0;
    for (size_t r = 0; r < t->nrows; r++) {
        long p = ws_sweep_row_current(t, r, s, keys);
        if (p < 0)
            (*stale)++;
        else
            done[p] = 1;
    }
}

char *ws_sweep_current_text(const struct ws_csv *t, const struct ws_sweep *s,
                            char (*keys)[33], const unsigned char *keep)
{
    struct ws_sweep_rowref *refs = calloc(t->nrows ? t->nrows : 1,
                                          sizeof *refs);
    size_t n = 0;
    char *text;

    if (!refs)
        return NULL;
    for (size_t r = 0; r < t->nrows; r++) {
        long p = ws_sweep_row_current(t, r, s, keys);
        if (p < 0 || !keep[p])
            continue;
        refs[n].point = (size_t)p;
        refs[n].table = 0;
        refs[n].row = r;
        n++;
    }
    text = ws_sweep_sorted_text(t, 1, refs, n);
    free(refs);
    return text;
}

/* ---- merge ------------------------------------------------------------- */

static int ws_sweep_merge_point(const struct ws_csv *t, size_t r,
                                size_t *npoints, struct ws_err *err)
{
    uint64_t v;

    if (ws_sweep_cell_u64(t, r, 1, &v) < 0 || v == 0
        || v > WS_SWEEP_MAX_POINTS)
        return ws_err_at(err, t->name, t->row_line[r], 1, "bad points cell "
                         "'%s' (expected the sweep's point count)",
                         ws_csv_cell(t, r, 1));
    if (*npoints && v != *npoints)
        return ws_err_at(err, t->name, t->row_line[r], 1, "this row's sweep "
                         "has %llu points, an earlier one %zu (expected "
                         "shares of one sweep)", (unsigned long long)v,
                         *npoints);
    *npoints = (size_t)v;
    return 0;
}

/* Checks that shares tabs[0..n) hold every point of one sweep once: each
 * point's rows in one share only, all with one key. */
static int ws_sweep_merge_check(const struct ws_csv *tabs, size_t n,
                                struct ws_sweep_rowref **refs, size_t *nrefs,
                                struct ws_err *err)
{
    size_t npoints = 0, total = 0, missing = 0, first_missing = 0;
    size_t *owner;

    for (size_t i = 0; i < n; i++)
        total += tabs[i].nrows;
    for (size_t i = 0; i < n; i++)
        for (size_t r = 0; r < tabs[i].nrows; r++)
            if (ws_sweep_merge_point(&tabs[i], r, &npoints, err) < 0)
                return -1;
    if (!npoints)
        return ws_err_at(err, tabs[0].name, 1, 1, "no rows in any share "
                         "(expected the results of a sweep)");
    owner = malloc(npoints * sizeof *owner);
    *refs = calloc(total ? total : 1, sizeof **refs);
    if (!owner || !*refs) {
        free(owner);
        return ws_err_oom(err);
    }
    for (size_t p = 0; p < npoints; p++)
        owner[p] = (size_t)-1;
    *nrefs = 0;
    for (size_t i = 0; i < n; i++) {
        for (size_t r = 0; r < tabs[i].nrows; r++) {
            long p = ws_sweep_row_point(&tabs[i], r, npoints);
            size_t o;
            if (p < 0) {
                free(owner);
                return ws_err_at(err, tabs[i].name, tabs[i].row_line[r], 1,
                                 "bad point cell '%s' (expected a number "
                                 "below %zu)", ws_csv_cell(&tabs[i], r, 0),
                                 npoints);
            }
            o = owner[p];
            if (o != (size_t)-1 && o != i) {
                free(owner);
                return ws_err_at(err, tabs[i].name, tabs[i].row_line[r], 1,
                                 "point %ld is also in %s (expected each "
                                 "point in one share)", p, tabs[o].name);
            }
            owner[p] = i;
            (*refs)[(*nrefs)++] = (struct ws_sweep_rowref){(size_t)p, i, r};
        }
    }
    for (size_t p = 0; p < npoints; p++)
        if (owner[p] == (size_t)-1 && missing++ == 0)
            first_missing = p;
    free(owner);
    if (missing)
        return ws_err_at(err, tabs[0].name, 1, 1, "%zu of %zu points are in "
                         "no share, the first point %zu (expected every "
                         "share of the sweep, each run to the end)", missing,
                         npoints, first_missing);
    return 0;
}

/* Within one share, one point's rows must carry one key: two keys mean
 * the share was appended to by two different sweeps. */
static int ws_sweep_merge_keys(const struct ws_csv *tabs,
                               const struct ws_sweep_rowref *refs,
                               size_t nrefs, struct ws_err *err)
{
    for (size_t i = 1; i < nrefs; i++) {
        const struct ws_sweep_rowref *a = &refs[i - 1], *b = &refs[i];
        if (a->point == b->point
            && strcmp(ws_csv_cell(&tabs[a->table], a->row, 2),
                      ws_csv_cell(&tabs[b->table], b->row, 2)) != 0)
            return ws_err_at(err, tabs[b->table].name,
                             tabs[b->table].row_line[b->row], 1, "point %zu "
                             "appears twice, with two keys (expected each "
                             "point once)", b->point);
    }
    return 0;
}

char *ws_sweep_merge(const struct ws_csv *tabs, size_t n, struct ws_err *err)
{
    struct ws_sweep_rowref *refs = NULL;
    size_t nrefs = 0;
    char *text = NULL;

    for (size_t i = 1; i < n; i++) {
        int same = tabs[i].ncols == tabs[0].ncols;
        for (size_t c = 0; same && c < tabs[0].ncols; c++)
            same = strcmp(tabs[i].header[c], tabs[0].header[c]) == 0;
        if (!same) {
            ws_err_at(err, tabs[i].name, 1, 1, "columns differ from %s's "
                      "(expected shares of one sweep)", tabs[0].name);
            return NULL;
        }
    }
    for (size_t c = 0; c < WS_NFIXED; c++) {
        if (c < tabs[0].ncols
            && strcmp(tabs[0].header[c], ws_sweep_fixed_cols[c]) == 0)
            continue;
        ws_err_at(err, tabs[0].name, 1, 1, "not a sweep's results (expected "
                  "columns point, points, key, status, error, ...)");
        return NULL;
    }
    if (ws_sweep_merge_check(tabs, n, &refs, &nrefs, err) == 0) {
        qsort(refs, nrefs, sizeof *refs, ws_sweep_rowref_cmp);
        if (ws_sweep_merge_keys(tabs, refs, nrefs, err) == 0
            && !(text = ws_sweep_sorted_text(tabs, n, refs, nrefs)))
            ws_err_oom(err);
    }
    free(refs);
    return text;
}
