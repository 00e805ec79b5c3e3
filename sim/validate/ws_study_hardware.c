/*
 * ws_study_hardware: study 7, the simulator against the real H100.  Its
 * sweeps (validate/studies/hw_*.yaml) are the bundled kernels at the
 * parameters they were timed at on an H100 (validate/measured/h100/,
 * timing.csv: the cold median where taken, less the empty launch); each
 * run is matched to its measured case (ws_sb_collect) and the report gives
 * per case the measured and simulated times and their ratio, then the mean
 * absolute error, the geometric mean of simulated / measured (under 1:
 * the simulator is fast) and the worst case, with the median's bootstrap
 * interval: the table users ask for first.
 *
 * Leaves out: the models against the hardware (the scoreboard study,
 * which reads these sweeps too); cases past the sweeps' instruction
 * budget (their yaml files say which).
 */
#include "ws_study.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ws_sb.h"
#include "ws_sb_report.h"
#include "ws_sb_stats.h"

struct ws_hw_pairs {
    double *sim, *hw;
    size_t n;
    const struct ws_sb_run *worst; /* the largest |ln(sim/hw)| */
};

/* A run that is a measured case: a hardware time and a simulated one. */
static int ws_hw_case(const struct ws_sb_run *r)
{
    return !isnan(r->hw_us) && r->sim_us > 0;
}

static int ws_hw_pairs(const struct ws_sb *sb, struct ws_hw_pairs *p)
{
    size_t cap = sb->nruns + 1;

    memset(p, 0, sizeof *p);
    p->sim = calloc(cap, sizeof *p->sim);
    p->hw = calloc(cap, sizeof *p->hw);
    if (!p->sim || !p->hw)
        return -1;
    for (size_t i = 0; i < sb->nruns; i++) {
        const struct ws_sb_run *r = &sb->run[i];
        if (!ws_hw_case(r))
            continue;
        p->sim[p->n] = r->sim_us;
        p->hw[p->n] = r->hw_us;
        if (!p->worst
            || fabs(log(r->sim_us / r->hw_us))
                   > fabs(log(p->worst->sim_us / p->worst->hw_us)))
            p->worst = r;
        p->n++;
    }
    return 0;
}

static void ws_hw_table(FILE *out, const struct ws_sb *sb)
{
    fprintf(out, "| case | measured us | simulated us | simulated / "
                 "measured |\n|---|---|---|---|\n");
    for (size_t i = 0; i < sb->nruns; i++) {
        const struct ws_sb_run *r = &sb->run[i];
        if (ws_hw_case(r))
            fprintf(out, "| %s | %.2f | %.2f | %.3f |\n", r->what, r->hw_us,
                    r->sim_us, r->sim_us / r->hw_us);
    }
}

static int ws_hw_write(FILE *out, const struct ws_sb *sb,
                       const struct ws_hw_pairs *p,
                       const struct ws_sb_metrics *m, json_t **summary)
{
    const char *worst = p->worst->what;
    double wr = p->worst->sim_us / p->worst->hw_us;

    fprintf(out,
            "# The simulator against the H100\n\nThe bundled kernels at "
            "the parameters they were timed at on an H100 SXM5 "
            "(validate/measured/h100/: the cold median where taken, less "
            "the empty launch), each simulated on the h100 config.\n\n"
            "**%zu cases: mean |simulated / measured - 1| %.1f %%, "
            "geometric mean of simulated / measured %.3f (%s), worst "
            "%.2f (%s).** Median absolute error %.1f %% (95 %% bootstrap "
            "interval %.1f-%.1f %%, %d resamples, seed %d).\n\n",
            p->n, 100 * m->mape, 1 + m->bias,
            m->bias < 0 ? "the simulator is fast" : "the simulator is slow", wr,
            worst, 100 * m->mdape, 100 * m->mdape_lo, 100 * m->mdape_hi,
            WS_SB_BOOTSTRAP, WS_SB_SEED);
    ws_hw_table(out, sb);
    *summary = json_pack("{s:s,s:I,s:f,s:f,s:f,s:s,s:f}", "study", "hardware",
                         "cases", (json_int_t)p->n, "mean_abs_err_pct",
                         100 * m->mape, "geomean_ratio", 1 + m->bias,
                         "median_abs_err_pct", 100 * m->mdape, "worst_case",
                         worst, "worst_ratio", wr);
    return *summary ? 0 : -1;
}

int ws_study_hardware(const struct ws_csv *const *t, size_t n,
                      struct ws_study_out *o, struct ws_err *err)
{
    struct ws_sb *sb = calloc(1, sizeof *sb);
    struct ws_csv measured;
    struct ws_hw_pairs p = {NULL, NULL, 0, NULL};
    struct ws_sb_metrics m;
    size_t len = 0;
    FILE *out = NULL;
    int rc;

    memset(o, 0, sizeof *o);
    memset(&measured, 0, sizeof measured);
    if (!sb)
        return ws_err_oom(err);
    rc = ws_csv_load(&measured, WS_SB_MEASURED, 0, 0, err);
    if (rc == 0)
        rc = ws_sb_collect(sb, t, n, &measured, err);
    if (rc == 0 && ws_hw_pairs(sb, &p) < 0)
        rc = ws_err_oom(err);
    if (rc == 0 && !p.worst) { /* no measured case */
        ws_err_msg(err,
                   "no run matches a case of %s (expected the hw_* sweeps' "
                   "runs at measured parameters)",
                   WS_SB_MEASURED);
        rc = -1;
    }
    if (rc == 0 && ws_sb_metrics(p.sim, p.hw, p.n, &m) < 0)
        rc = ws_err_oom(err);
    if (rc == 0 && !(out = open_memstream(&o->report, &len)))
        rc = ws_err_oom(err);
    if (rc == 0 && ws_hw_write(out, sb, &p, &m, &o->summary) < 0)
        rc = ws_err_oom(err);
    if (out && fclose(out) != 0 && rc == 0)
        rc = ws_err_oom(err);
    free(p.sim);
    free(p.hw);
    ws_sb_free(sb);
    free(sb);
    ws_csv_free(&measured);
    if (rc < 0)
        ws_study_out_free(o);
    return rc;
}
