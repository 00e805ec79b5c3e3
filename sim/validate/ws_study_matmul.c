/*
 * ws_study_matmul: study 3, the seven matmul variants on V100 (seed 001,
 * Islam et al.), see ws_study.h.
 *
 * The seven sweeps' tables are read as one (the kernel column relabelled
 * with the variant's name), so ts is normalised across every kernel and
 * size as the seed does.  Per variant and size: cycles, ts, ul and score
 * (eqs 6-8, alpha 0.1 / 0.5 / 0.8 by ul bucket); per variant the resource
 * significance for ts and for score (sim/analyze); the relative change of
 * each resource group against the baseline at the same size (the seed's
 * Figure 3b: the mean over the group's counters of variant / baseline - 1),
 * as a chart; and the two groups of highest RSM beside the seed's Table
 * III.
 *
 * Leaves out: the seed's SYSMEM and PCIE groups (no host traffic is
 * simulated) and TEX (global loads go through L1 here, its group).
 */
#include "ws_study.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/ws_rsm_table.h"
#include "stats/ws_stats.h"
#include "report/ws_plot.h"

#define WS_MM_VARIANTS 7

static const char *const ws_mm_names[WS_MM_VARIANTS] = {
    "baseline",   "tiling", "coalescing", "nobankconflict",
    "computeopt", "unroll", "prefetch"};

/* Table III of the seed (TS and Score rows), for the variants it lists. */
static const char *const ws_mm_seed_ts[WS_MM_VARIANTS] = {
    "-", "L2, TEX", "L2, TEX", "DRAM", "FMA, SM, DRAM", "FMA, DRAM", "-"};
static const char *const ws_mm_seed_score[WS_MM_VARIANTS] = {
    "-",
    "SYSMEM, DRAM",
    "SYSMEM",
    "SYSMEM, DRAM, L2",
    "SYSMEM, DRAM, FMA",
    "SYSMEM, DRAM, FMA",
    "-"};

/* The seven tables as one, not owning the cells: the kernel column points
 * at the variant's name. */
static int ws_mm_join(const struct ws_csv *const *t, size_t n,
                      struct ws_csv *all, struct ws_err *err)
{
    size_t rows = 0, r = 0;
    long kc;

    memset(all, 0, sizeof *all);
    for (size_t i = 0; i < n; i++) {
        if (t[i]->ncols != t[0]->ncols)
            return ws_err_msg(err,
                              "%s has other columns than %s (expected "
                              "the seven sweeps alike)",
                              t[i]->name, t[0]->name);
        rows += t[i]->nrows;
    }
    if ((kc = ws_csv_col(t[0], "kernel")) < 0)
        return ws_csv_no_col(t[0], "kernel", err);
    all->name = (char *)"matmul";
    all->ncols = t[0]->ncols;
    all->nrows = rows;
    all->header = t[0]->header;
    all->cells = malloc((rows * all->ncols + 1) * sizeof *all->cells);
    all->row_line = malloc((rows + 1) * sizeof *all->row_line);
    if (!all->cells || !all->row_line) {
        free(all->cells);
        free(all->row_line);
        return ws_err_oom(err);
    }
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < t[i]->nrows; k++, r++) {
            memcpy(&all->cells[r * all->ncols], &t[i]->cells[k * all->ncols],
                   all->ncols * sizeof *all->cells);
            all->cells[r * all->ncols + (size_t)kc] = (char *)ws_mm_names[i];
            all->row_line[r] = t[i]->row_line[k];
        }
    return 0;
}

static double ws_mm_tmax(const struct ws_csv *const *t, size_t n)
{
    double m = 0;

    for (size_t i = 0; i < n; i++)
        for (size_t r = 0; r < t[i]->nrows; r++)
            if (ws_csv_row_ok(t[i], r) && ws_csv_value(t[i], r, "time_us") > m)
                m = ws_csv_value(t[i], r, "time_us");
    return m;
}

static void ws_mm_targets(FILE *out, const struct ws_csv *const *t, size_t n)
{
    double tmax = ws_mm_tmax(t, n);

    fprintf(out, "## Targets per variant and size (eqs 6-8)\n\n"
                 "| variant | n | cycles | ts | ul | score |\n"
                 "|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < n; i++)
        for (size_t r = 0; r < t[i]->nrows; r++) {
            double ts, ul, alpha;
            if (!ws_csv_row_ok(t[i], r))
                continue;
            ts = ws_csv_value(t[i], r, "time_us") / tmax;
            ul = ws_csv_value(t[i], r, "sm_util_pct") / 100;
            alpha = ul < 0.5 ? 0.1 : ul < 0.8 ? 0.5 : 0.8;
            fprintf(out, "| %s | %.0f | %.0f | %.3f | %.3f | %.3f |\n",
                    ws_mm_names[i], ws_csv_value(t[i], r, "param.n"),
                    ws_csv_value(t[i], r, "cycles"), ts, ul, 1 - alpha / ts);
        }
}

/* ---- Figure 3b: usage against the baseline -------------------------------- */

/* The row of table t with param.n equal to size, or -1. */
static long ws_mm_row_of(const struct ws_csv *t, double size)
{
    for (size_t r = 0; r < t->nrows; r++)
        if (ws_csv_row_ok(t, r) && ws_csv_value(t, r, "param.n") == size)
            return (long)r;
    return -1;
}

/* For each group, the mean over its counters and the matched sizes of
 * variant / baseline - 1 (baseline 0: left out). */
static void ws_mm_change(const struct ws_csv *v, const struct ws_csv *b,
                         double *change)
{
    double sum[WS_GRP_COUNT] = {0}, cnt[WS_GRP_COUNT] = {0};

    for (size_t r = 0; r < v->nrows; r++) {
        long br;
        if (!ws_csv_row_ok(v, r)
            || (br = ws_mm_row_of(b, ws_csv_value(v, r, "param.n"))) < 0)
            continue;
        for (size_t c = 0; c < v->ncols; c++) {
            long k = ws_ctr_find(v->header[c]);
            double x, y;
            if (k < 0)
                continue;
            x = strtod(ws_csv_cell(v, r, c), NULL);
            y = strtod(ws_csv_cell(b, (size_t)br, c), NULL);
            if (!(y > 0) || !isfinite(x))
                continue;
            sum[ws_ctr_info((enum ws_ctr)k)->group] += x / y - 1;
            cnt[ws_ctr_info((enum ws_ctr)k)->group] += 1;
        }
    }
    for (size_t g = 0; g < WS_GRP_COUNT; g++)
        change[g] = cnt[g] > 0 ? sum[g] / cnt[g] : 0;
}

static char *ws_mm_chart(const struct ws_csv *const *t, size_t n, FILE *out,
                         struct ws_err *err)
{
    const char *cats[WS_GRP_COUNT], *series[WS_MM_VARIANTS];
    double change[WS_MM_VARIANTS][WS_GRP_COUNT];
    double v[WS_GRP_COUNT * WS_MM_VARIANTS];
    size_t nc = 0;
    struct ws_plot_bars bars = {
        .title = "Resource usage of each variant against the baseline "
                 "(mean over the group's counters and the sizes)",
        .xlabel = "resource group",
        .ylabel = "change against the baseline (%, variant / baseline - 1)",
        .key = "variant",
        .cats = cats,
        .series = series,
        .v = v};

    fprintf(out, "\n## Usage against the baseline (the seed's Figure 3b)\n\n"
                 "Mean over each group's counters and the sizes of variant / "
                 "baseline - 1 (+0.5: half as much again).  Chart, in "
                 "percent: `vs_baseline.svg`.\n\n| variant |");
    for (size_t i = 1; i < n; i++) {
        ws_mm_change(t[i], t[0], change[i]);
        series[i - 1] = ws_mm_names[i];
    }
    for (size_t g = 0; g < WS_GRP_COUNT; g++)
        if (g != WS_GRP_TIME)
            fprintf(out, " %s |", ws_group_name((enum ws_group)g));
    fprintf(out, "\n|---|");
    for (size_t g = 1; g < WS_GRP_COUNT; g++)
        fprintf(out, "---|");
    for (size_t i = 1; i < n; i++) {
        fprintf(out, "\n| %s |", ws_mm_names[i]);
        for (size_t g = 0; g < WS_GRP_COUNT; g++)
            if (g != WS_GRP_TIME)
                fprintf(out, " %+.2f |", change[i][g]);
    }
    fprintf(out, "\n");
    /* In percent on the chart: -40 % reads faster than -0.40. */
    for (size_t g = 0; g < WS_GRP_COUNT; g++) {
        if (g == WS_GRP_TIME)
            continue;
        for (size_t i = 1; i < n; i++)
            v[nc * (n - 1) + i - 1] = 100 * change[i][g];
        cats[nc++] = ws_group_name((enum ws_group)g);
    }
    bars.ncats = nc;
    bars.nseries = n - 1;
    return ws_plot_bars_svg(&bars, err);
}

/* ---- significance ---------------------------------------------------------- */

/* The names of the two groups of highest RSM in g (an object of group:
 * rsm), into out as "A, B", and into list when given. */
static void ws_mm_top(json_t *g, FILE *out, json_t *list)
{
    const char *best[2] = {NULL, NULL}, *key;
    double v[2] = {-1, -1};
    json_t *val;

    json_object_foreach(g, key, val)
    {
        double x = json_real_value(val);
        if (x > v[0]) {
            best[1] = best[0];
            v[1] = v[0];
            best[0] = key;
            v[0] = x;
        } else if (x > v[1]) {
            best[1] = key;
            v[1] = x;
        }
    }
    if (!best[0]) {
        fputc('-', out);
        return;
    }
    for (int i = 0; i < 2 && best[i]; i++) {
        fprintf(out, "%s%s (%.2f)", i ? ", " : "", best[i], v[i]);
        if (list)
            json_array_append_new(list, json_string(best[i]));
    }
}

static void ws_mm_significant(FILE *out, json_t *ts, json_t *score, json_t *sig)
{
    fprintf(out,
            "\n## The most significant resource groups beside the "
            "seed's Table III\n\nThe two groups of highest RSM per variant "
            "(their RSM in brackets).\n\n| variant | ts, here | ts, seed | "
            "score, here | score, seed |\n|---|---|---|---|---|\n");
    for (size_t i = 0; i < WS_MM_VARIANTS; i++) {
        json_t *list = json_array();
        fprintf(out, "| %s | ", ws_mm_names[i]);
        ws_mm_top(json_object_get(ts, ws_mm_names[i]), out, list);
        fprintf(out, " | %s | ", ws_mm_seed_ts[i]);
        ws_mm_top(json_object_get(score, ws_mm_names[i]), out, NULL);
        fprintf(out, " | %s |\n", ws_mm_seed_score[i]);
        json_object_set_new(sig, ws_mm_names[i], list);
    }
    fprintf(out,
            "\nThe seed measured on a real V100 with nvprof's events, "
            "among them SYSMEM (host memory) and PCIE traffic that a "
            "simulation of the kernel alone has none of, and TEX, which is "
            "L1 here.  Every counter of a variant grows with n^3, so the "
            "counters are nearly collinear across sizes and the ensemble "
            "spreads significance over several groups; the ranking, not the "
            "level, is what compares with the seed.\n");
}

/* 1 when every RSM of every kernel lies in [0, 1]. */
static int ws_mm_in_range(json_t *rsm)
{
    const char *k, *g;
    json_t *kv, *gv;

    json_object_foreach(rsm, k, kv)
        json_object_foreach(kv, g, gv) if (json_real_value(gv) < 0
                                           || json_real_value(gv) > 1) return 0;
    return 1;
}

static char *ws_mm_rsm(const struct ws_csv *all, enum ws_rsm_target target,
                       json_t **json, struct ws_err *err)
{
    struct ws_rsm_args a = {target,
                            {0.1, 0.5, 0.8},
                            {5, 0.5, 1000, 0.8, 2 * log(2.0), 1}};

    return ws_rsm_report(all, &a, NULL, json, err);
}

/* ---- the sizes the seed ran ------------------------------------------------ */

/* The seed's matrices: 60 x 60 to 200 x 200 in steps of 5; ours are
 * multiples of 64 (the kernels' tiles need multiples of 16) up to 512. */
#define WS_MM_SEED_MAX_N 200

/* The rows of `all` whose n is within the seed's range, not owning the
 * cells. */
static int ws_mm_small(const struct ws_csv *all, struct ws_csv *small,
                       struct ws_err *err)
{
    long nc = ws_csv_col(all, "param.n");

    memset(small, 0, sizeof *small);
    if (nc < 0)
        return ws_csv_no_col(all, "param.n", err);
    small->name = (char *)"matmul, n <= 200";
    small->ncols = all->ncols;
    small->header = all->header;
    small->cells = malloc((all->nrows * all->ncols + 1) * sizeof *small->cells);
    small->row_line = malloc((all->nrows + 1) * sizeof *small->row_line);
    if (!small->cells || !small->row_line)
        return ws_err_oom(err);
    for (size_t r = 0; r < all->nrows; r++) {
        double n = ws_csv_value_at(all, r, nc);
        if (!(n <= WS_MM_SEED_MAX_N))
            continue;
        memcpy(&small->cells[small->nrows * all->ncols],
               &all->cells[r * all->ncols], all->ncols * sizeof *all->cells);
        small->row_line[small->nrows++] = all->row_line[r];
    }
    return 0;
}

/* The group of highest RSM in g, or NULL. */
static const char *ws_mm_first(json_t *g)
{
    const char *best = NULL, *key;
    double v = -1;
    json_t *val;

    json_object_foreach(g, key, val) if (json_real_value(val) > v)
    {
        v = json_real_value(val);
        best = key;
    }
    return best;
}

/* Whether the reduction of sizes changes the verdict: the top group for
 * ts over every size against over the seed's range only.  Returns how
 * many variants keep it, -1 when the subset cannot be analysed (the
 * report says why). */
static int ws_mm_sizes(FILE *out, const struct ws_csv *all, json_t *rts,
                       struct ws_err *err)
{
    struct ws_csv small;
    json_t *rsmall = NULL;
    char *md = NULL;
    int same = 0;

    fprintf(out,
            "\n## Reduced from the seed, and whether it matters\n\n"
            "The seed ran square matrices of 60 to 200 in steps of 5 (29 "
            "sizes) on a real V100; here 6 sizes, multiples of 64 from 64 to "
            "512 (the tiled kernels need multiples of 16), simulated. Rerun "
            "over the sizes within the seed's range (n <= %d), the group of "
            "highest RSM for ts:\n\n",
            WS_MM_SEED_MAX_N);
    if (ws_mm_small(all, &small, err) < 0
        || !(md = ws_mm_rsm(&small, WS_RSM_TS, &rsmall, err))) {
        fprintf(out, "not computable here (%s).\n", err->text);
        ws_err_clear(err);
        free(small.cells);
        free(small.row_line);
        return -1;
    }
    fprintf(out,
            "| variant | all sizes | n <= %d | same |\n"
            "|---|---|---|---|\n",
            WS_MM_SEED_MAX_N);
    for (size_t i = 0; i < WS_MM_VARIANTS; i++) {
        const char *a = ws_mm_first(json_object_get(rts, ws_mm_names[i]));
        const char *b = ws_mm_first(json_object_get(rsmall, ws_mm_names[i]));
        int eq = a && b && strcmp(a, b) == 0;
        fprintf(out, "| %s | %s | %s | %s |\n", ws_mm_names[i], a ? a : "-",
                b ? b : "-", eq ? "yes" : "no");
        same += eq;
    }
    fprintf(out,
            "\nThe top group for ts holds for %d of the %d variants "
            "within the seed's range of sizes.\n",
            same, WS_MM_VARIANTS);
    json_decref(rsmall);
    free(md);
    free(small.cells);
    free(small.row_line);
    return same;
}

int ws_study_matmul(const struct ws_csv *const *t, size_t n,
                    struct ws_study_out *o, struct ws_err *err)
{
    struct ws_csv all;
    json_t *rts = NULL, *rscore = NULL, *sig = json_object();
    char *md_ts = NULL, *md_score = NULL;
    size_t len = 0;
    FILE *out = NULL;
    int rc, same = -1;

    memset(o, 0, sizeof *o);
    if (n != WS_MM_VARIANTS || !sig) {
        json_decref(sig);
        return ws_err_msg(err,
                          "the matmul study takes %d tables (expected "
                          "one per variant)",
                          WS_MM_VARIANTS);
    }
    rc = ws_mm_join(t, n, &all, err);
    if (rc == 0
        && (!(md_ts = ws_mm_rsm(&all, WS_RSM_TS, &rts, err))
            || !(md_score = ws_mm_rsm(&all, WS_RSM_SCORE, &rscore, err))))
        rc = -1;
    if (rc == 0 && !(out = open_memstream(&o->report, &len)))
        rc = ws_err_oom(err);
    if (rc == 0) {
        fprintf(out, "# Study 3: matmul variants on V100 (seed 001, Islam et "
                     "al.)\n\n");
        ws_mm_targets(out, t, n);
        o->chart = ws_mm_chart(t, n, out, err);
        o->chart_name = WS_STUDY_CHART_MATMUL;
        ws_mm_significant(out, rts, rscore, sig);
        same = ws_mm_sizes(out, &all, rts, err);
        fprintf(out,
                "\n## Resource significance, target ts\n\n%s\n"
                "## Resource significance, target score\n\n%s",
                strchr(md_ts, '\n') + 1, strchr(md_score, '\n') + 1);
        if (fclose(out) != 0 || !o->chart)
            rc = -1;
    }
    if (rc == 0)
        o->summary = json_pack("{s:s,s:O,s:O,s:O,s:b,s:i}", "study", "matmul",
                               "rsm_ts", rts, "rsm_score", rscore, "top_ts",
                               sig, "rsm_in_range",
                               ws_mm_in_range(rts) && ws_mm_in_range(rscore),
                               "top_ts_same_in_seed_sizes", same);
    if (rc == 0 && !o->summary)
        rc = ws_err_oom(err);
    json_decref(rts);
    json_decref(rscore);
    json_decref(sig);
    free(md_ts);
    free(md_score);
    free(all.cells);
    free(all.row_line);
    if (rc < 0)
        ws_study_out_free(o);
    return rc;
}
