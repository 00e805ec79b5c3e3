/*
 * ws_sweep_rows: a sweep's results file: its columns and the rows of one
 * point.
 *
 * Columns: point, points (the sweep's total), key, status ("ok" or
 * "failed"), error, sweep (which sweep wrote the row: a hash of every
 * point's key), row and rows (this row's number among the point's rows,
 * and how many it has: a point is whole only with all of them); one per
 * axis (the value in the key's base unit, or its text); then per kernel
 * its id and name, total_cycles of the point, cycles, derived figures,
 * every counter under its Nsight Compute name, and per model its
 * prediction, regime, domain ("in: ..." or "out: ..."), intermediates
 * ("name=value ...") and elasticities (the same form).  A multi-kernel
 * trace gives a point one row per kernel; they are written together, by
 * one write(2), so a killed sweep never leaves half a point.
 *
 * Leaves out: reading results back, resuming and merging
 * (ws_sweep_table.c); running points (ws_sweep_pool.c).
 */
#include "ws_sweep_rows.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stats/ws_stats.h"
#include "util/ws_num.h"
#include "ws_model_def.h"

static const char *const ws_sweep_fixed_cols[] = {"point",  "points", "key",
                                                  "status", "error",  "sweep",
                                                  "row",    "rows"};
static const char *const ws_sweep_kernel_cols[] = {
    "kernel_id",    "kernel",
    "total_cycles", "cycles",
    "time_us",      "ipc",
    "sm_util_pct",  "achieved_occupancy_pct",
    "l1_hit_pct",   "l2_hit_pct",
    "dram_gbps",    "dram_pct_of_peak",
    "ctas_per_sm",  "occupancy_limit"};
#define WS_NFIXED (sizeof ws_sweep_fixed_cols / sizeof *ws_sweep_fixed_cols)
_Static_assert(WS_NFIXED == WS_SWEEP_NFIXED,
               "the fixed columns' names and "
               "numbers (ws_sweep_rows.h) go together");
#define WS_NKCOLS (sizeof ws_sweep_kernel_cols / sizeof *ws_sweep_kernel_cols)

/* Per model: its prediction and what says where it comes from. */
static const char *const ws_sweep_model_cols[] = {"cycles", "regime", "domain",
                                                  "terms", "elasticity"};
#define WS_NMCOLS (sizeof ws_sweep_model_cols / sizeof *ws_sweep_model_cols)

size_t ws_sweep_ncols(const struct ws_sweep *s)
{
    return WS_NFIXED + s->naxes + WS_NKCOLS + WS_CTR_COUNT
           + WS_NMCOLS * ((size_t)ws_model_count() + s->nmodels);
}

char *ws_sweep_text_close(FILE *f, char **buf)
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
    size_t nbuiltin = (size_t)ws_model_count();

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
    for (size_t m = 0; m < nbuiltin + s->nmodels; m++) {
        size_t nlen;
        const char *n;
        if (m < nbuiltin) {
            n = ws_model_nth((int)m)->name;
            nlen = strlen(n);
        } else {
            n = ws_sweep_model_name(s, m - nbuiltin, &nlen);
        }
        for (size_t c = 0; c < WS_NMCOLS; c++) {
            snprintf(name, sizeof name, "%.*s_%s", (int)nlen, n,
                     ws_sweep_model_cols[c]);
            fprintf(f, ",%s", name);
        }
    }
    fputc('\n', f);
    return ws_sweep_text_close(f, &buf);
}

static void ws_sweep_point_cells(FILE *f, const struct ws_sweep *s,
                                 const struct ws_sweep_point *p,
                                 const struct ws_sweep_id *id,
                                 const char *status, const char *why,
                                 size_t row, size_t rows)
{
    fprintf(f, "%zu,%zu,%s,%s,", p->index, s->npoints, id->key, status);
    ws_csv_put(f, why ? why : "");
    fprintf(f, ",%s,%zu,%zu", id->sweep, row, rows);
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
             r->bound       ? "bound"
             : r->in_domain ? "in"
                            : "out",
             r->domain);
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
    fprintf(f,
            ",%llu,%llu,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,"
            "%u,%s",
            (unsigned long long)rep->total_cycles,
            (unsigned long long)k->ctr.v[WS_CTR_CYCLES], d.time_us, d.ipc,
            d.sm_util_pct, d.achieved_occ_pct, d.l1_hit_pct, d.l2_hit_pct,
            d.dram_gbps, d.dram_pct_of_peak, k->occ.ctas_per_sm,
            ws_occ_limit_name(k->occ.limit));
    for (int c = 0; c < WS_CTR_COUNT; c++)
        fprintf(f, ",%llu", (unsigned long long)k->ctr.v[c]);
    for (size_t m = 0; m < (size_t)ws_model_count() + s->nmodels; m++)
        ws_sweep_model_cells(f, m < (size_t)k->nmodels ? &k->models[m] : NULL);
    fputc('\n', f);
}

char *ws_sweep_rows(const struct ws_sweep *s, const struct ws_sweep_point *p,
                    const struct ws_sweep_id *id,
                    const struct ws_run_report *rep, const char *why)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);

    if (!f)
        return NULL;
    if (!rep || rep->nkernels == 0) {
        ws_sweep_point_cells(f, s, p, id, "failed",
                             why ? why : "the input has no kernel", 0, 1);
        for (size_t i = 0; i < ws_sweep_ncols(s) - WS_NFIXED - s->naxes; i++)
            fputc(',', f);
        fputc('\n', f);
        return ws_sweep_text_close(f, &buf);
    }
    for (size_t k = 0; k < rep->nkernels; k++) {
        ws_sweep_point_cells(f, s, p, id, "ok", NULL, k, rep->nkernels);
        ws_sweep_kernel_cells(f, s, rep, &rep->kernels[k]);
    }
    return ws_sweep_text_close(f, &buf);
}
