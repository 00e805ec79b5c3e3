/*
 * ws_study_scoreboard: study 5, every closed-form model scored over the
 * other studies' runs (see ws_study.h and ws_sb.h).
 *
 * What a reviewer asks of such a table, it answers: each model is scored
 * only inside the domain its authors meant it for, with the runs outside
 * reported apart, never pooled; the metrics are robust to one run far off
 * (median APE and the geometric mean of |ln(model/simulation)|, with
 * bootstrap intervals, the signed bias and Spearman's rank correlation;
 * MAPE kept beside them); the breakdowns are by study and by the
 * simulation's own bottleneck, not by the regime the model names itself;
 * and where validate/measured/ holds the same case, the model's error
 * against the hardware is printed beside its error against the simulation
 * and the simulation's own (ws_sb_report.c, with the terms, elasticities
 * and the simulation's sensitivity to the configs' estimates).  The
 * roofline is a bound: it is scored by how far above it the simulation
 * sits and whether it ever falls below.
 *
 * Leaves out: failed rows and runs where a model does not apply.
 */
#include "ws_study.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/ws_json.h"
#include "ws_sb.h"
#include "ws_sb_report.h"
#include "ws_sb_stats.h"

/* The pairs (prediction, simulation) of model m over the runs `keep`
 * selects; n set to their count.  -1 when out of memory. */
int ws_sb_pairs(const struct ws_sb *sb, size_t m,
                int (*keep)(const struct ws_sb_run *, size_t, const void *),
                const void *arg, double **model, double **sim, size_t *n)
{
    *n = 0;
    *model = malloc((sb->nruns + 1) * sizeof **model);
    *sim = malloc((sb->nruns + 1) * sizeof **sim);
    if (!*model || !*sim) {
        free(*model);
        free(*sim);
        return -1;
    }
    for (size_t i = 0; i < sb->nruns; i++) {
        const struct ws_sb_run *r = &sb->run[i];
        if (isnan(r->pred[m].cycles) || !keep(r, m, arg))
            continue;
        (*model)[*n] = r->pred[m].cycles;
        (*sim)[*n] = r->sim;
        (*n)++;
    }
    return 0;
}

int ws_sb_score(const struct ws_sb *sb, size_t m,
                int (*keep)(const struct ws_sb_run *, size_t, const void *),
                const void *arg, struct ws_sb_metrics *out)
{
    double *model, *sim;
    size_t n;
    int rc;

    if (ws_sb_pairs(sb, m, keep, arg, &model, &sim, &n) < 0)
        return -1;
    rc = ws_sb_metrics(model, sim, n, out);
    free(model);
    free(sim);
    return rc;
}

static int ws_sb_in(const struct ws_sb_run *r, size_t m, const void *arg)
{
    return r->pred[m].in_domain == *(const int *)arg;
}

static int ws_sb_in_study(const struct ws_sb_run *r, size_t m, const void *arg)
{
    return r->pred[m].in_domain && strcmp(r->study, arg) == 0;
}

static int ws_sb_in_bottleneck(const struct ws_sb_run *r, size_t m,
                               const void *arg)
{
    return r->pred[m].in_domain && r->bottleneck == arg;
}

/* ---- printing ------------------------------------------------------------ */

void ws_sb_pct(FILE *out, double v)
{
    if (isnan(v))
        fputs("-", out);
    else
        fprintf(out, "%.1f %%", 100 * v);
}

void ws_sb_signed(FILE *out, double v, int decimals)
{
    if (isnan(v))
        fputs("-", out);
    else
        fprintf(out, "%+.*f %%", decimals, 100 * v);
}

static void ws_sb_interval(FILE *out, double v, double lo, double hi)
{
    ws_sb_pct(out, v);
    if (!isnan(lo))
        fprintf(out, " [%.1f, %.1f]", 100 * lo, 100 * hi);
}

/* "runs | median APE [CI] | geo-mean [CI] | bias | rho | MAPE |" */
static void ws_sb_cells(FILE *out, const struct ws_sb_metrics *s)
{
    fprintf(out, "%zu | ", s->n);
    ws_sb_interval(out, s->mdape, s->mdape_lo, s->mdape_hi);
    fputs(" | ", out);
    ws_sb_interval(out, s->gme, s->gme_lo, s->gme_hi);
    fputs(" | ", out);
    ws_sb_signed(out, s->bias, 1);
    if (isnan(s->spearman))
        fputs(" | - | ", out);
    else
        fprintf(out, " | %.3f | ", s->spearman);
    ws_sb_pct(out, s->mape);
    fputs(" |\n", out);
}

/* A bound's runs: how far above it the simulation sits (sim / bound - 1,
 * median and largest) and how many fall below it (none may); into the
 * summary as well.  A bound of 0 says nothing and is left out. */
static int ws_sb_bound_row(FILE *out, const struct ws_sb *sb, size_t m,
                           json_t *models)
{
    double *above = malloc((sb->nruns + 1) * sizeof *above), worst = 0;
    double med;
    size_t n = 0, below = 0;

    if (!above)
        return -1;
    for (size_t i = 0; i < sb->nruns; i++) {
        double b = sb->run[i].pred[m].cycles;
        if (isnan(b) || !(b > 0))
            continue;
        above[n] = sb->run[i].sim / b - 1;
        below += above[n] < -1e-9;
        worst = fmax(worst, above[n]);
        n++;
    }
    med = n ? ws_sb_median(above, n) : NAN;
    fprintf(out, "| %s | a lower bound | %zu | simulation above it by ",
            sb->model[m].name, n);
    ws_sb_pct(out, med);
    fprintf(out, " (median), ");
    ws_sb_pct(out, n ? worst : NAN);
    fprintf(out, " (most); runs below it: %zu | | | | |\n", below);
    free(above);
    json_object_set_new(models, sb->model[m].name,
                        json_pack("{s:b,s:I,s:o,s:o,s:I}", "bound", 1, "runs",
                                  (json_int_t)n, "median_above",
                                  ws_json_real(med), "most_above",
                                  n ? json_real(worst) : json_null(),
                                  "runs_below", (json_int_t)below));
    return 0;
}

static int ws_sb_models_table(FILE *out, const struct ws_sb *sb, json_t *models)
{
    fprintf(out,
            "## Each model in its domain, and outside it\n\n"
            "| model | runs | count | median APE [95 %% CI] | geometric-mean "
            "error [95 %% CI] | bias | Spearman | MAPE |\n"
            "|---|---|---|---|---|---|---|---|\n");
    for (size_t m = 0; m < sb->nmodels; m++) {
        if (sb->model[m].bound) {
            if (ws_sb_bound_row(out, sb, m, models) < 0)
                return -1;
            continue;
        }
        for (int in = 1; in >= 0; in--) {
            struct ws_sb_metrics s;
            if (ws_sb_score(sb, m, ws_sb_in, &in, &s) < 0)
                return -1;
            fprintf(out, "| %s | %s | ", sb->model[m].name,
                    in ? "in its domain" : "outside it (apart)");
            ws_sb_cells(out, &s);
        }
    }
    return 0;
}

/* One table of in-domain rows per group (a study, a bottleneck). */
static int ws_sb_groups(FILE *out, const struct ws_sb *sb, const char *title,
                        const char *col, const char *const *names,
                        size_t ngroups, int by_study)
{
    fprintf(out,
            "\n## In its domain, by %s\n\n| model | %s | count | "
            "median APE [95 %% CI] | geometric-mean error [95 %% CI] | bias "
            "| Spearman | MAPE |\n|---|---|---|---|---|---|---|---|\n",
            title, col);
    for (size_t m = 0; m < sb->nmodels; m++) {
        if (sb->model[m].bound)
            continue;
        for (size_t g = 0; g < ngroups; g++) {
            struct ws_sb_metrics s;
            if (ws_sb_score(sb, m,
                            by_study ? ws_sb_in_study : ws_sb_in_bottleneck,
                            names[g], &s)
                < 0)
                return -1;
            if (s.n == 0)
                continue;
            fprintf(out, "| %s | %s | ", sb->model[m].name, names[g]);
            ws_sb_cells(out, &s);
        }
    }
    return 0;
}

/* The studies present, in the order their runs come. */
static size_t ws_sb_studies(const struct ws_sb *sb, const char **names,
                            size_t cap)
{
    size_t n = 0;

    for (size_t i = 0; i < sb->nruns; i++) {
        size_t k = 0;
        while (k < n && strcmp(names[k], sb->run[i].study) != 0)
            k++;
        if (k == n && n < cap)
            names[n++] = sb->run[i].study;
    }
    return n;
}

/* ---- findings and summary -------------------------------------------------- */

static json_t *ws_sb_metrics_json(const struct ws_sb_metrics *s)
{
    return json_pack("{s:I,s:o,s:o,s:o,s:o,s:o}", "runs", (json_int_t)s->n,
                     "median_ape", ws_json_real(s->mdape), "geo_mean_error",
                     ws_json_real(s->gme), "bias", ws_json_real(s->bias),
                     "spearman", ws_json_real(s->spearman), "mape",
                     ws_json_real(s->mape));
}

static int ws_sb_findings(FILE *out, const struct ws_sb *sb, json_t *models)
{
    fprintf(out, "\n## Findings\n\n");
    for (size_t m = 0; m < sb->nmodels; m++) {
        struct ws_sb_metrics in, outside;
        int one = 1, zero = 0;
        if (sb->model[m].bound)
            continue;
        if (ws_sb_score(sb, m, ws_sb_in, &one, &in) < 0
            || ws_sb_score(sb, m, ws_sb_in, &zero, &outside) < 0)
            return -1;
        json_object_set_new(models, sb->model[m].name,
                            json_pack("{s:b,s:o,s:o}", "bound", 0, "in_domain",
                                      ws_sb_metrics_json(&in), "out_of_domain",
                                      ws_sb_metrics_json(&outside)));
        fprintf(out, "- %s: %zu runs in its domain, median error ",
                sb->model[m].name, in.n);
        ws_sb_pct(out, in.mdape);
        fprintf(out, " (geometric mean ");
        ws_sb_pct(out, in.gme);
        fprintf(out, ", bias ");
        ws_sb_signed(out, in.bias, 1);
        fprintf(out, "); %zu runs outside it, median ", outside.n);
        ws_sb_pct(out, outside.mdape);
        fprintf(out, ".%s\n",
                in.n < 10 ? " Too few runs in its domain to "
                            "judge."
                : in.mdape_hi < 0.25
                    ? " It holds in its domain: "
                      "the 95 % interval of its median error lies under 25 %."
                : in.mdape < 0.25
                    ? " Its median error is under 25 % in its "
                      "domain, but not the whole 95 % interval."
                    : " It does not hold within 25 % even there.");
    }
    return 0;
}

static void ws_sb_intro(FILE *out, const struct ws_sb *sb, size_t ntables)
{
    fprintf(out,
            "# Study 5: the model scoreboard\n\n"
            "Every analytic model against the simulation over %zu runs of "
            "the other studies (%zu sweeps), each scored only inside the "
            "domain its authors meant it for (`run` prints it under every "
            "model line; the runs outside are reported apart, never "
            "pooled). Median APE: the median |model - simulation| / "
            "simulation; geometric-mean error: exp(mean |ln(model / "
            "simulation)|) - 1; both with 95 %% percentile-bootstrap "
            "intervals (%d resamples, GSL mt19937, seed %d). Bias: exp(mean "
            "ln(model / simulation)) - 1, positive when the model "
            "over-predicts. Spearman: rank correlation of model and "
            "simulation. MAPE is kept beside them, not alone. The "
            "breakdowns are by study and by the simulation's own bottleneck "
            "(DRAM at %.0f %% of peak or more, else the stall reason with "
            "the most warp-cycles), never by the regime a model names. The "
            "roofline is a lower bound.\n\n",
            sb->nruns, ntables, WS_SB_BOOTSTRAP, WS_SB_SEED,
            WS_SB_DRAM_BOUND_PCT);
}

static int ws_sb_write(FILE *out, const struct ws_sb *sb, size_t ntables,
                       json_t *models, json_t *hw)
{
    const char *studies[16];
    size_t nstudies = ws_sb_studies(sb, studies, 16);

    ws_sb_intro(out, sb, ntables);
    if (ws_sb_models_table(out, sb, models) < 0
        || ws_sb_groups(out, sb, "study", "study", studies, nstudies, 1) < 0
        || ws_sb_groups(out, sb, "the simulation's bottleneck", "bottleneck",
                        ws_sb_bottlenecks, ws_sb_nbottlenecks, 0)
               < 0
        || ws_sb_hardware(out, sb, hw) < 0 || ws_sb_terms(out, sb) < 0
        || ws_sb_elasticities(out, sb) < 0 || ws_sb_est(out, sb) < 0
        || ws_sb_findings(out, sb, models) < 0)
        return -1;
    return 0;
}

int ws_study_scoreboard(const struct ws_csv *const *t, size_t n,
                        struct ws_study_out *o, struct ws_err *err)
{
    struct ws_sb *sb = calloc(1, sizeof *sb);
    struct ws_csv measured;
    int have_measured, rc = 0;
    size_t len = 0;
    FILE *out = NULL;
    json_t *models = json_object(), *hw = json_object();

    memset(o, 0, sizeof *o);
    memset(&measured, 0, sizeof measured);
    if (!sb || !models || !hw) {
        free(sb);
        json_decref(models);
        json_decref(hw);
        return ws_err_oom(err);
    }
    have_measured = ws_csv_load(&measured, WS_SB_MEASURED, 0, 0, err) == 0;
    if (!have_measured)
        ws_err_clear(err);
    rc = ws_sb_collect(sb, t, n, have_measured ? &measured : NULL, err);
    if (rc == 0 && !(out = open_memstream(&o->report, &len)))
        rc = ws_err_oom(err);
    if (rc == 0 && ws_sb_write(out, sb, n, models, hw) < 0)
        rc = ws_err_oom(err);
    if (out && fclose(out) != 0 && rc == 0)
        rc = ws_err_oom(err);
    if (rc == 0
        && !(o->summary = json_pack("{s:s,s:I,s:I,s:O,s:O}", "study",
                                    "scoreboard", "sweeps", (json_int_t)n,
                                    "runs", (json_int_t)sb->nruns, "models",
                                    models, "hardware", hw)))
        rc = ws_err_oom(err);
    json_decref(models);
    json_decref(hw);
    ws_sb_free(sb);
    free(sb);
    if (have_measured)
        ws_csv_free(&measured);
    if (rc < 0)
        ws_study_out_free(o);
    return rc;
}
