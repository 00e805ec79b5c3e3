/*
 * ws_sb_report: the scoreboard's hardware, terms, elasticity and
 * sensitivity sections (see ws_sb_report.h).
 */
#include "ws_sb_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/ws_json.h"

/* ---- the hardware beside the simulation --------------------------------- */

/* A run's prediction by model m as a time, at the simulation's clock. */
static double ws_sb_model_us(const struct ws_sb_run *r, size_t m)
{
    return r->pred[m].cycles * r->sim_us / r->sim;
}

static void ws_sb_case_row(FILE *out, const struct ws_sb *sb,
                           const struct ws_sb_run *r)
{
    fprintf(out, "| %s | %.2f | %.2f (", r->what, r->hw_us, r->sim_us);
    ws_sb_signed(out, r->sim_us / r->hw_us - 1, 0);
    fputs(") |", out);
    for (size_t m = 0; m < sb->nmodels; m++) {
        if (sb->model[m].bound)
            continue;
        fputc(' ', out);
        if (isnan(r->pred[m].cycles)) {
            fputs("- |", out);
            continue;
        }
        ws_sb_signed(out, ws_sb_model_us(r, m) / r->hw_us - 1, 0);
        fputs(" (", out);
        ws_sb_signed(out, r->pred[m].cycles / r->sim - 1, 0);
        fprintf(out, ")%s |", r->pred[m].in_domain ? "" : " *");
    }
    fputc('\n', out);
}

/* Model m (or the simulation, m = nmodels) against the hardware and, for
 * a model, against the simulation, over the measured cases in its domain
 * (all cases for the simulation). */
static int ws_sb_hw_summary(FILE *out, const struct ws_sb *sb, size_t m,
                            json_t *summary)
{
    size_t n = 0, cap = sb->nruns + 1;
    double *us = malloc(cap * sizeof *us), *hw = malloc(cap * sizeof *hw);
    double *mod = malloc(cap * sizeof *mod), *sim = malloc(cap * sizeof *sim);
    struct ws_sb_metrics vhw, vsim;
    int self = m == sb->nmodels, rc = -1;

    for (size_t i = 0; us && hw && mod && sim && i < sb->nruns; i++) {
        const struct ws_sb_run *r = &sb->run[i];
        if (isnan(r->hw_us)
            || (!self && (isnan(r->pred[m].cycles) || !r->pred[m].in_domain)))
            continue;
        us[n] = self ? r->sim_us : ws_sb_model_us(r, m);
        hw[n] = r->hw_us;
        mod[n] = self ? r->sim : r->pred[m].cycles;
        sim[n] = r->sim;
        n++;
    }
    if (us && hw && mod && sim && ws_sb_metrics(us, hw, n, &vhw) == 0
        && ws_sb_metrics(mod, sim, n, &vsim) == 0) {
        fprintf(out, "| %s | %zu | ",
                self ? "the simulation" : sb->model[m].name, n);
        ws_sb_pct(out, vhw.mdape);
        fputs(" | ", out);
        ws_sb_pct(out, vhw.gme);
        fputs(" | ", out);
        ws_sb_signed(out, vhw.bias, 1);
        fputs(" | ", out);
        if (self)
            fputs("- |\n", out);
        else {
            ws_sb_pct(out, vsim.mdape);
            fputs(" |\n", out);
        }
        json_object_set_new(summary, self ? "simulation" : sb->model[m].name,
                            json_pack("{s:I,s:o,s:o}", "cases", (json_int_t)n,
                                      "median_ape_vs_hardware",
                                      ws_json_real(vhw.mdape),
                                      "median_ape_vs_simulation",
                                      self ? json_null()
                                           : ws_json_real(vsim.mdape)));
        rc = 0;
    }
    free(us);
    free(hw);
    free(mod);
    free(sim);
    return rc;
}

int ws_sb_hardware(FILE *out, const struct ws_sb *sb, json_t *summary)
{
    size_t cases = 0;

    for (size_t i = 0; i < sb->nruns; i++)
        cases += !isnan(sb->run[i].hw_us);
    fprintf(out, "\n## Against the hardware\n\n");
    if (cases == 0) {
        fprintf(out, "No run matches a measured case (%s).\n", WS_SB_MEASURED);
        return 0;
    }
    fprintf(out,
            "The runs of the `hw_*` sweeps are the cases measured on an "
            "H100 (%s: the cold median where taken, less the empty "
            "launch). Per case: the simulation's error against the "
            "hardware, and each model's against the hardware with its error "
            "against the simulation in brackets (* outside the model's "
            "domain).\n\n| case | measured us | simulated us |",
            WS_SB_MEASURED);
    for (size_t m = 0; m < sb->nmodels; m++)
        if (!sb->model[m].bound)
            fprintf(out, " %s |", sb->model[m].name);
    fputs("\n|---|---|---|", out);
    for (size_t m = 0; m < sb->nmodels; m++)
        if (!sb->model[m].bound)
            fputs("---|", out);
    fputc('\n', out);
    for (size_t i = 0; i < sb->nruns; i++)
        if (!isnan(sb->run[i].hw_us))
            ws_sb_case_row(out, sb, &sb->run[i]);
    fprintf(out,
            "\nOver the cases in each model's domain:\n\n| against the "
            "hardware | cases | median APE | geometric-mean error | bias | "
            "median APE against the simulation |\n|---|---|---|---|---|---|"
            "\n");
    if (ws_sb_hw_summary(out, sb, sb->nmodels, summary) < 0)
        return -1;
    for (size_t m = 0; m < sb->nmodels; m++)
        if (!sb->model[m].bound && ws_sb_hw_summary(out, sb, m, summary) < 0)
            return -1;
    return 0;
}

/* ---- the terms ------------------------------------------------------------ */

int ws_sb_terms(FILE *out, const struct ws_sb *sb)
{
    size_t m = 0;

    while (m < sb->nmodels && strcmp(sb->model[m].name, "mwp_cwp") != 0)
        m++;
    if (m == sb->nmodels)
        return 0;
    fprintf(out, "\n## MWP/CWP's terms against the simulation's measurement"
                 "\n\nOver mwp_cwp's runs in its domain: each term the model "
                 "computes beside what the simulation measured of it (`run` "
                 "prints both; the definitions are in the README). A ratio far "
                 "from 1 names the term that makes the model's error.\n\n"
                 "| term | runs | median model / measured | geometric-mean "
                 "\\|ln(model / measured)\\| |\n|---|---|---|---|\n");
    for (int k = 0; k < WS_TERM_COUNT; k++) {
        const struct ws_term_info *ti = ws_term_info((enum ws_term)k);
        double *ratio, s = 0;
        size_t n = 0;
        if (!ti->model || strcmp(ti->model, "mwp_cwp") != 0)
            continue;
        if (!(ratio = malloc((sb->nruns + 1) * sizeof *ratio)))
            return -1;
        for (size_t i = 0; i < sb->nruns; i++) {
            const struct ws_sb_run *r = &sb->run[i];
            double mod = ws_sb_cell_var(r->pred[m].terms, ti->var);
            double meas = r->term[k];
            if (!r->pred[m].in_domain || !(mod > 0) || !(meas > 0))
                continue;
            ratio[n] = mod / meas;
            s += fabs(log(ratio[n]));
            n++;
        }
        fprintf(out, "| %s | %zu | ", ti->name, n);
        if (n)
            fprintf(out, "%.3g | %.3g |\n", ws_sb_median(ratio, n),
                    exp(s / (double)n));
        else
            fputs("- | - |\n", out);
        free(ratio);
    }
    return 0;
}

/* ---- elasticities ------------------------------------------------------ */

#define WS_SB_MAX_INPUTS 32

struct ws_sb_input {
    char name[40];
    double *v;
    size_t n;
};

/* Adds every "name=value" of a cell to the inputs' samples. */
static int ws_sb_add_elast(struct ws_sb_input *in, size_t *nin, size_t cap,
                           const char *cell)
{
    const char *p = cell;

    while (p && *p) {
        const char *eq = strchr(p, '='), *sp = strchr(p, ' ');
        size_t k = 0, len = eq ? (size_t)(eq - p) : 0;
        if (!eq || len >= sizeof in[0].name)
            break;
        while (
            k < *nin
            && (strlen(in[k].name) != len || strncmp(in[k].name, p, len) != 0))
            k++;
        if (k == *nin && *nin < WS_SB_MAX_INPUTS) {
            memcpy(in[k].name, p, len);
            in[k].name[len] = '\0';
            in[k].v = malloc(cap * sizeof *in[k].v);
            if (!in[k].v)
                return -1;
            (*nin)++;
        }
        if (k < *nin)
            in[k].v[in[k].n++] = strtod(eq + 1, NULL);
        p = sp ? sp + 1 : NULL;
    }
    return 0;
}

/* Model m's inputs by the size of their median elasticity over its runs
 * in its domain (every run, for a bound); those above 0.05 printed. */
static int ws_sb_model_elast(FILE *out, const struct ws_sb *sb, size_t m)
{
    struct ws_sb_input in[WS_SB_MAX_INPUTS];
    double med[WS_SB_MAX_INPUTS];
    size_t nin = 0, shown = 0;
    int rc = 0;

    memset(in, 0, sizeof in);
    for (size_t i = 0; i < sb->nruns && rc == 0; i++) {
        const struct ws_sb_run *r = &sb->run[i];
        if (!isnan(r->pred[m].cycles)
            && (r->pred[m].in_domain || sb->model[m].bound))
            rc = ws_sb_add_elast(in, &nin, sb->nruns, r->pred[m].elast);
    }
    for (size_t k = 0; k < nin; k++)
        med[k] = ws_sb_median(in[k].v, in[k].n);
    fprintf(out, "| %s |", sb->model[m].name);
    for (int pass = 0; pass < 8; pass++) {
        size_t best = nin;
        for (size_t k = 0; k < nin; k++)
            if (in[k].n && fabs(med[k]) >= 0.05
                && (best == nin || fabs(med[k]) > fabs(med[best])))
                best = k;
        if (best == nin)
            break;
        fprintf(out, "%s %s %+.2f", shown++ ? ";" : "", in[best].name,
                med[best]);
        in[best].n = 0;
    }
    fprintf(out, "%s |\n", shown ? "" : " -");
    for (size_t k = 0; k < nin; k++)
        free(in[k].v);
    return rc;
}

int ws_sb_elasticities(FILE *out, const struct ws_sb *sb)
{
    fprintf(out, "\n## Each model's elasticity to its inputs\n\nd ln(cycles) "
                 "/ d ln(input) by central differences at +-1 %% (the model's "
                 "inputs as `warpsim model NAME` prints them), the median over "
                 "the model's runs in its domain, largest first; an input at 1 "
                 "moves the prediction in proportion.\n\n| model | inputs |\n"
                 "|---|---|\n");
    for (size_t m = 0; m < sb->nmodels; m++)
        if (ws_sb_model_elast(out, sb, m) < 0)
            return -1;
    return 0;
}

/* ---- the simulation's sensitivity to estimates ------------------------- */

/* The one set.* column in which row r differs from row 0, or -1. */
static long ws_sb_moved(const struct ws_csv *t, size_t r)
{
    long moved = -1;

    for (size_t c = 0; c < t->ncols; c++) {
        if (strncmp(t->header[c], "set.", 4) != 0
            || strcmp(ws_csv_cell(t, 0, c), ws_csv_cell(t, r, c)) == 0)
            continue;
        if (moved >= 0)
            return -1;
        moved = (long)c;
    }
    return moved;
}

static void ws_sb_est_table(FILE *out, const struct ws_csv *t)
{
    double base = ws_csv_value(t, 0, "cycles");
    const char *stem = strrchr(t->name, '/');

    fprintf(out,
            "\n%s:\n\n| estimate | from | to | elasticity of cycles |"
            "\n|---|---|---|---|\n",
            stem ? stem + 1 : t->name);
    for (size_t r = 1; r < t->nrows; r++) {
        long c = ws_sb_moved(t, r);
        double v0 = ws_csv_value_at(t, 0, c), v1 = ws_csv_value_at(t, r, c);
        double cyc = ws_csv_value(t, r, "cycles");
        if (c < 0 || !ws_csv_row_ok(t, r) || !(cyc > 0) || !(base > 0)
            || !(v0 > 0) || !(v1 > 0) || v0 == v1)
            continue;
        fprintf(out, "| %s | %.4g | %.4g | %+.3f |\n", t->header[c] + 4, v0, v1,
                log(cyc / base) / log(v1 / v0));
    }
}

int ws_sb_est(FILE *out, const struct ws_sb *sb)
{
    if (sb->nest == 0)
        return 0;
    fprintf(out, "\n## The simulation's sensitivity to the configs' "
                 "estimates\n\nEvery value a config marks [EST] (no published "
                 "measurement), moved one at a time from the config's value "
                 "(the `est_*` sweeps: the first point is the config as "
                 "shipped): d ln(cycles) / d ln(value). A value whose "
                 "elasticity is near 0 on every kernel cannot move a result; "
                 "one near 1 is where a measurement would matter most.\n");
    for (size_t i = 0; i < sb->nest; i++)
        if (sb->est[i]->nrows > 1)
            ws_sb_est_table(out, sb->est[i]);
    return 0;
}
