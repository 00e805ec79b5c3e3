/*
 * ws_study_scoreboard: study 5, every closed-form model scored against the
 * simulation over the other studies' runs (see ws_study.h).
 *
 * Per model (MWP/CWP, MWP/CWP+L2, TMM; the roofline is a bound, scored as
 * how far above it the simulation sits) and per regime the model names
 * (the text of its regime before any ';'): the runs, the mean absolute
 * percentage error against the simulated cycles, the Pearson correlation
 * of log cycles (GSL), and the three runs where it is furthest off, named
 * by their sweep and parameters.  "Answer to where each model holds" is
 * the regime rows with low MAPE and many runs.
 *
 * Leaves out: runs whose model does not apply (no cycles) and failed rows.
 */
#include "ws_study.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_statistics_double.h>

#define WS_SB_MODELS 4
#define WS_SB_MAX_REGIMES 16
#define WS_SB_WORST 3

static const char *const ws_sb_models[WS_SB_MODELS] = {
    "mwp_cwp", "mwp_cwp_l2", "tmm", "roofline"
};

struct ws_sb_worst {
    double err;
    char what[160];
};

struct ws_sb_cell {
    char regime[96];
    size_t n;
    double abs_err;             /* sum of |model - sim| / sim */
    double *lm, *ls;            /* log model, log sim, for r */
    struct ws_sb_worst worst[WS_SB_WORST];
};

struct ws_sb_model {
    struct ws_sb_cell c[WS_SB_MAX_REGIMES + 1];   /* last: all regimes */
    size_t nc;
};

/* "sweep n=64 stride=8": the run's sweep and its axis values. */
static void ws_sb_describe(const struct ws_csv *t, size_t row, char *out,
                           size_t cap)
{
    const char *base = strrchr(t->name, '/');
    size_t o;

    o = (size_t)snprintf(out, cap, "%s", base ? base + 1 : t->name);
    for (size_t c = 0; c < t->ncols && o < cap; c++)
        if (strncmp(t->header[c], "param.", 6) == 0
            || strncmp(t->header[c], "set.", 4) == 0
            || strcmp(t->header[c], "gpu") == 0)
            o += (size_t)snprintf(out + o, cap - o, " %s=%s",
                                  strchr(t->header[c], '.')
                                  ? strchr(t->header[c], '.') + 1
                                  : t->header[c], ws_csv_cell(t, row, c));
}

static struct ws_sb_cell *ws_sb_cell(struct ws_sb_model *m, const char *reg)
{
    size_t len = strcspn(reg, ";");

    for (size_t i = 0; i < m->nc; i++)
        if (strlen(m->c[i].regime) == len
            && strncmp(m->c[i].regime, reg, len) == 0)
            return &m->c[i];
    if (m->nc == WS_SB_MAX_REGIMES)
        return NULL;
    snprintf(m->c[m->nc].regime, sizeof m->c[0].regime, "%.*s", (int)len,
             reg);
    return &m->c[m->nc++];
}

static void ws_sb_worst_add(struct ws_sb_cell *c, double err,
                            const char *what)
{
    int at = WS_SB_WORST;

    while (at > 0 && err > c->worst[at - 1].err)
        at--;
    if (at == WS_SB_WORST)
        return;
    memmove(&c->worst[at + 1], &c->worst[at],
            (WS_SB_WORST - 1 - (size_t)at) * sizeof c->worst[0]);
    c->worst[at].err = err;
    snprintf(c->worst[at].what, sizeof c->worst[at].what, "%s", what);
}

static int ws_sb_add(struct ws_sb_cell *c, double model, double sim,
                     const char *what, size_t cap)
{
    double e = (model - sim) / sim;

    if (!c->lm) {
        c->lm = malloc((cap + 1) * sizeof *c->lm);
        c->ls = malloc((cap + 1) * sizeof *c->ls);
        if (!c->lm || !c->ls)
            return -1;
    }
    c->lm[c->n] = log(model);
    c->ls[c->n] = log(sim);
    c->n++;
    c->abs_err += fabs(e);
    ws_sb_worst_add(c, fabs(e), what);
    return 0;
}

static int ws_sb_table(struct ws_sb_model *m, const struct ws_csv *t,
                       size_t cap, struct ws_err *err)
{
    long cc = ws_csv_col(t, "cycles");

    if (cc < 0)
        return ws_csv_no_col(t, "cycles", err);
    for (size_t r = 0; r < t->nrows; r++) {
        double sim = ws_csv_value_at(t, r, cc);
        char what[160];
        if (!ws_csv_row_ok(t, r) || !(sim > 0))
            continue;
        ws_sb_describe(t, r, what, sizeof what);
        for (int k = 0; k < WS_SB_MODELS; k++) {
            char name[64];
            long mc, rc;
            double model;
            struct ws_sb_cell *c;
            snprintf(name, sizeof name, "%s_cycles", ws_sb_models[k]);
            mc = ws_csv_col(t, name);
            snprintf(name, sizeof name, "%s_regime", ws_sb_models[k]);
            rc = ws_csv_col(t, name);
            model = ws_csv_value_at(t, r, mc);
            if (!(model > 0) || rc < 0)
                continue;
            c = ws_sb_cell(&m[k], ws_csv_cell(t, r, (size_t)rc));
            if ((c && ws_sb_add(c, model, sim, what, cap) < 0)
                || ws_sb_add(&m[k].c[WS_SB_MAX_REGIMES], model, sim, what,
                             cap) < 0)
                return ws_err_oom(err);
        }
    }
    return 0;
}

static double ws_sb_r(const struct ws_sb_cell *c)
{
    if (c->n < 3 || gsl_stats_sd(c->lm, 1, c->n) == 0
        || gsl_stats_sd(c->ls, 1, c->n) == 0)
        return NAN;
    return gsl_stats_correlation(c->lm, 1, c->ls, 1, c->n);
}

static void ws_sb_row(FILE *out, const char *model, const char *regime,
                      const struct ws_sb_cell *c, int bound)
{
    double r = ws_sb_r(c);

    fprintf(out, "| %s | %s | %zu | %.1f %%%s | ", model, regime, c->n,
            100 * c->abs_err / (double)c->n, bound ? " (sim above bound)" : "");
    if (isnan(r))
        fputs("- | ", out);
    else
        fprintf(out, "%.3f | ", r);
    for (int i = 0; i < WS_SB_WORST && c->worst[i].what[0]; i++)
        fprintf(out, "%s%s (%.0f %%)", i ? "; " : "", c->worst[i].what,
                100 * c->worst[i].err);
    fputs(" |\n", out);
}

/* Where each model holds: its regimes with at least 10 runs and a MAPE
 * under 25 %, and the one it misses most. */
static void ws_sb_findings(FILE *out, const struct ws_sb_model *m)
{
    fprintf(out, "\n## Findings\n\n");
    for (int k = 0; k < WS_SB_MODELS; k++) {
        const struct ws_sb_cell *worst = NULL;
        int any = 0;
        if (m[k].c[WS_SB_MAX_REGIMES].n == 0)
            continue;
        fprintf(out, "- %s holds (10 runs or more, MAPE under 25 %%) in: ",
                ws_sb_models[k]);
        for (size_t i = 0; i < m[k].nc; i++) {
            const struct ws_sb_cell *c = &m[k].c[i];
            double mape = c->abs_err / (double)c->n;
            if (!worst || mape > worst->abs_err / (double)worst->n)
                worst = c;
            if (c->n < 10 || mape >= 0.25)
                continue;
            fprintf(out, "%s%s (%.1f %%)", any ? ", " : "", c->regime,
                    100 * mape);
            any = 1;
        }
        fprintf(out, "%s; furthest off in \"%s\" (%.0f %%), its worst run "
                "%s.\n", any ? "" : "no regime of these runs",
                worst ? worst->regime : "-",
                worst ? 100 * worst->abs_err / (double)worst->n : 0.0,
                worst && worst->worst[0].what[0] ? worst->worst[0].what
                                                 : "-");
    }
}

static json_t *ws_sb_json(const struct ws_sb_model *m)
{
    json_t *o = json_object();

    for (int k = 0; k < WS_SB_MODELS; k++) {
        const struct ws_sb_cell *all = &m[k].c[WS_SB_MAX_REGIMES];
        double r = ws_sb_r(all);
        if (all->n == 0)
            continue;
        json_object_set_new(o, ws_sb_models[k], json_pack(
            "{s:I,s:f,s:o}", "runs", (json_int_t)all->n, "mape",
            all->abs_err / (double)all->n, "r",
            isnan(r) ? json_null() : json_real(r)));
    }
    return o;
}

static void ws_sb_free(struct ws_sb_model *m)
{
    for (int k = 0; k < WS_SB_MODELS; k++)
        for (size_t i = 0; i <= WS_SB_MAX_REGIMES; i++) {
            free(m[k].c[i].lm);
            free(m[k].c[i].ls);
        }
}

int ws_study_scoreboard(const struct ws_csv *const *t, size_t n,
                        struct ws_study_out *o, struct ws_err *err)
{
    struct ws_sb_model *m = calloc(WS_SB_MODELS, sizeof *m);
    size_t cap = 0, len = 0;
    FILE *out = NULL;
    int rc = 0;

    memset(o, 0, sizeof *o);
    if (!m)
        return ws_err_oom(err);
    for (size_t i = 0; i < n; i++)
        cap += t[i]->nrows;
    for (size_t i = 0; i < n && rc == 0; i++)
        rc = ws_sb_table(m, t[i], cap, err);
    if (rc == 0 && !(out = open_memstream(&o->report, &len)))
        rc = ws_err_oom(err);
    if (rc == 0) {
        fprintf(out, "# Study 5: the model scoreboard\n\nEvery closed-form "
                "model against the simulation over the runs of the other "
                "studies (%zu sweeps). MAPE: mean |model - simulation| / "
                "simulation; r: Pearson correlation of log cycles. The "
                "roofline is a lower bound: its MAPE is how far above it the "
                "simulation sits. Per model, its overall row first, then one "
                "row per regime the model names.\n\n| model | regime | runs "
                "| MAPE | r | furthest off |\n|---|---|---|---|---|---|\n", n);
        for (int k = 0; k < WS_SB_MODELS; k++) {
            if (m[k].c[WS_SB_MAX_REGIMES].n == 0)
                continue;
            ws_sb_row(out, ws_sb_models[k], "all",
                      &m[k].c[WS_SB_MAX_REGIMES], k == 3);
            for (size_t i = 0; i < m[k].nc; i++)
                ws_sb_row(out, ws_sb_models[k], m[k].c[i].regime,
                          &m[k].c[i], k == 3);
        }
        ws_sb_findings(out, m);
        if (fclose(out) != 0)
            rc = ws_err_oom(err);
    }
    if (rc == 0 && !(o->summary = json_pack("{s:s,s:o}", "study",
                                            "scoreboard", "models",
                                            ws_sb_json(m))))
        rc = ws_err_oom(err);
    ws_sb_free(m);
    free(m);
    if (rc < 0)
        ws_study_out_free(o);
    return rc;
}
