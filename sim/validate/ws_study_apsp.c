/*
 * ws_study_apsp: study 2, APSP on GTX 480 (seed 004, Ma, Chamberlain &
 * Agrawal), see ws_study.h.
 *
 * Four sweeps: requested blocks B_r at fixed work per block (the zigzag
 * of eq 3: time per block is least where B_r fills whole waves of B_a x 15
 * blocks); sub-block size and threads per block (time against T, the
 * threads per core); one element per thread with B_a forced by padding
 * (T moved without changing a thread's work), whose runs join the T
 * sweep's in the fit of eq 15, time = a1 sqrt(B_r)/T + a0, over the runs
 * TMM calls memory bound, with GSL; and section V's anomaly (B_a left to
 * the occupancy rules against B_a forced to 1).  The paper measured at
 * n = 8192 on the GPU; the sweeps run n = 256 or 512, the same kernel and
 * per-block structure, so shapes (the waves, the linearity) compare,
 * seconds do not.
 *
 * Leaves out: the paper's measured points (only its fit is quoted).
 */
#include "ws_study.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_fit.h>
#include <gsl/gsl_statistics_double.h>

#include "config/ws_config.h"
#include "report/ws_plot.h"

#define WS_APSP_GPU "gtx480"
#define WS_APSP_CORES 32 /* FP32 lanes per SM: T = threads / 32 */

/* jansson refuses NaN and infinities: an undefined figure is 0 there
 * (the report says which are undefined). */
static double ws_ap_fin(double v)
{
    return isfinite(v) ? v : 0;
}

/* ---- the zigzag ------------------------------------------------------------ */

/* Per-block time at br, or NAN when the table has no such row. */
static double ws_ap_per_block(const struct ws_csv *t, double br)
{
    for (size_t r = 0; r < t->nrows; r++)
        if (ws_csv_row_ok(t, r) && ws_csv_value(t, r, "param.br") == br)
            return ws_csv_value(t, r, "time_us") / br;
    return NAN;
}

/* 1 when, at every whole wave the table brackets, the time per block is
 * below its neighbours'; *waves how many were checked. */
static int ws_ap_zigzag(FILE *out, const struct ws_csv *t, double wave,
                        double step, int *waves)
{
    int ok = 1;

    *waves = 0;
    fprintf(out, "## Time against requested blocks B_r (eq 3)\n\n"
                 "| B_r | B_a | cycles | time us | time per block us |\n"
                 "|---|---|---|---|---|\n");
    for (size_t r = 0; r < t->nrows; r++)
        if (ws_csv_row_ok(t, r))
            fprintf(out, "| %.0f | %.0f | %.0f | %.2f | %.3f |\n",
                    ws_csv_value(t, r, "param.br"),
                    ws_csv_value(t, r, "ctas_per_sm"),
                    ws_csv_value(t, r, "cycles"), ws_csv_value(t, r, "time_us"),
                    ws_csv_value(t, r, "time_us")
                        / ws_csv_value(t, r, "param.br"));
    /* wave is a whole number of blocks, so the sum is exact.
     * NOLINTNEXTLINE(clang-analyzer-security.FloatLoopCounter) */
    for (double w = wave; w <= 4096; w += wave) {
        double at = ws_ap_per_block(t, w);
        double below = ws_ap_per_block(t, w - step);
        double above = ws_ap_per_block(t, w + step);
        if (isnan(at) || isnan(below) || isnan(above))
            continue;
        (*waves)++;
        ok &= at < below && at < above;
    }
    return ok;
}

/* ---- eq 15 -------------------------------------------------------------------- */

/* One run of the T or the B_a sweep, as eq 15 sees it. */
struct ws_ap_pt {
    const char *sweep;
    double sd, threads, br, ba, tpc, x, time;
    double wait, mem_wait; /* shares of the stalled warp-cycles */
    int mem;
};

struct ws_ap_fit {
    double a1, a0, r2;
    size_t n;
};

/* The share of row r's stalled warp-cycles with this reason (the
 * smsp__warps_issue_stalled_* counters), NAN without them. */
static double ws_ap_stall_share(const struct ws_csv *t, size_t r,
                                const char *reason)
{
    static const char prefix[] = "smsp__warps_issue_stalled_";
    double sum = 0, mine = NAN;

    for (size_t c = 0; c < t->ncols; c++) {
        const char *name = t->header[c];
        double v;
        if (strncmp(name, prefix, sizeof prefix - 1) != 0)
            continue;
        v = ws_csv_value_at(t, r, (long)c);
        if (!isfinite(v))
            continue;
        sum += v;
        if (strncmp(name + sizeof prefix - 1, reason, strlen(reason)) == 0
            && name[sizeof prefix - 1 + strlen(reason)] == '.')
            mine = v;
    }
    return sum > 0 ? mine / sum : NAN;
}

/* The runs of one table.  B_r is the CTAs launched, T the threads per core
 * that work: B_a x the block's threads that own an element (at most S_D^2;
 * the others exit at once) / 32 cores.  Returns how many were added. */
static size_t ws_ap_collect(const struct ws_csv *t, const char *sweep,
                            struct ws_ap_pt *p)
{
    size_t n = 0;

    for (size_t r = 0; r < t->nrows; r++) {
        struct ws_ap_pt q;
        if (!ws_csv_row_ok(t, r))
            continue;
        q.sweep = sweep;
        q.sd = ws_csv_value(t, r, "param.sd");
        q.threads = ws_csv_value(t, r, "param.threads");
        q.br = ws_csv_value(t, r, "sm__ctas_launched.sum");
        q.ba = ws_csv_value(t, r, "ctas_per_sm");
        q.tpc = q.ba * (q.threads < q.sd * q.sd ? q.threads : q.sd * q.sd)
                / WS_APSP_CORES;
        q.time = ws_csv_value(t, r, "time_us");
        if (!(q.tpc > 0) || !isfinite(q.time))
            continue;
        q.x = sqrt(q.br) / q.tpc;
        q.wait = ws_ap_stall_share(t, r, "wait");
        q.mem_wait = ws_ap_stall_share(t, r, "long_scoreboard");
        q.mem = 0;
        p[n++] = q;
    }
    return n;
}

/* Eq 15 by least squares (GSL) over the memory-bound runs that pass keep
 * (sweep NULL: any; sd 0: any S_D; xmax: the largest sqrt(B_r)/T). */
static struct ws_ap_fit ws_ap_fit(const struct ws_ap_pt *p, size_t np,
                                  const char *sweep, double sd, double xmax)
{
    double *x = malloc((np + 1) * sizeof *x);
    double *y = malloc((np + 1) * sizeof *y);
    struct ws_ap_fit f = {NAN, NAN, NAN, 0};

    for (size_t i = 0; x && y && i < np; i++) {
        if (!p[i].mem || (sweep && strcmp(p[i].sweep, sweep) != 0)
            || (sd > 0 && p[i].sd != sd) || p[i].x > xmax)
            continue;
        x[f.n] = p[i].x;
        y[f.n++] = p[i].time;
    }
    if (f.n >= 3) {
        double c00, c01, c11, sumsq, tss;
        gsl_fit_linear(x, 1, y, 1, f.n, &f.a0, &f.a1, &c00, &c01, &c11, &sumsq);
        tss = gsl_stats_tss(y, 1, f.n);
        f.r2 = tss > 0 ? 1 - sumsq / tss : NAN;
    }
    free(x);
    free(y);
    return f;
}

/* The memory-bound range, as the paper reads it off Figure 2: the runs
 * above the horizontal line of the compute-bound time, here those more
 * than 25 % above the least time of all runs.  Returns the largest
 * sqrt(B_r)/T of the T sweep's runs (the range the fit is also taken
 * over, so that the B_a sweep's long x does not carry r^2 alone). */
static double ws_ap_classify(struct ws_ap_pt *p, size_t np)
{
    double floor = INFINITY, xt = 0;

    for (size_t i = 0; i < np; i++)
        if (p[i].time < floor)
            floor = p[i].time;
    for (size_t i = 0; i < np; i++) {
        p[i].mem = p[i].time > 1.25 * floor;
        if (strcmp(p[i].sweep, "T") == 0 && p[i].x > xt)
            xt = p[i].x;
    }
    return xt;
}

static void ws_ap_table(FILE *out, const struct ws_ap_pt *p, size_t np)
{
    fprintf(out,
            "\n## Time against threads per core T and sqrt(B_r)/T "
            "(eqs 13-15)\n\nTwo sweeps at the same n: T, where the threads "
            "per block vary (several elements per thread below S_D^2), and "
            "B_a, one element per thread with the active blocks forced by "
            "padding. Memory bound: more than 25 %% above the least time of "
            "all runs (the paper's horizontal compute-bound line). Chart: "
            "`time_vs_x.svg`.\n\n| sweep | S_D | threads | B_r | B_a | T | "
            "sqrt(B_r)/T | time us | memory bound |\n"
            "|---|---|---|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < np; i++)
        fprintf(out,
                "| %s | %.0f | %.0f | %.0f | %.0f | %.1f | %.3f | %.1f "
                "| %s |\n",
                p[i].sweep, p[i].sd, p[i].threads, p[i].br, p[i].ba, p[i].tpc,
                p[i].x, p[i].time, p[i].mem ? "yes" : "no");
}

/* The runs as points.csv, and the chart of time against sqrt(B_r)/T. */
static int ws_ap_points(const struct ws_ap_pt *p, size_t np,
                        struct ws_study_out *o, struct ws_err *err)
{
    size_t len = 0;
    FILE *f = open_memstream(&o->points, &len);
    struct ws_csv t;
    struct ws_plot_spec spec = {
        .x = "sqrt_br_over_t",
        .y = "time_us",
        .series = "sd",
        .logx = 1,
        .logy = 1,
        .title = "APSP time against sqrt(B_r)/T (eq 15), by S_D",
        .xlabel = "sqrt(B_r) / T (B_r blocks requested, T threads per "
                  "core)",
        .key = "S_D (tile side)"};

    if (!f)
        return ws_err_oom(err);
    fputs("sweep,sd,threads,br,ba,t,sqrt_br_over_t,time_us,memory_bound\n", f);
    for (size_t i = 0; i < np; i++)
        fprintf(f, "%s,%.0f,%.0f,%.0f,%.0f,%.6g,%.6g,%.6g,%d\n", p[i].sweep,
                p[i].sd, p[i].threads, p[i].br, p[i].ba, p[i].tpc, p[i].x,
                p[i].time, p[i].mem);
    if (fclose(f) != 0)
        return ws_err_oom(err);
    if (ws_csv_parse(&t, "points.csv", o->points, strlen(o->points), 0, 0, err)
        < 0)
        return -1;
    o->chart = ws_plot_svg(&t, &spec, err);
    o->chart_name = WS_STUDY_CHART_APSP;
    ws_csv_free(&t);
    return o->chart ? 0 : -1;
}

/* The slope of eq 15 within each S_D, in the report: eq 14 makes it one
 * constant (L / C); a per-element cost that T hides but sqrt(B_r) does
 * not scale makes it grow with S_D. */
static void ws_ap_slopes(FILE *out, const struct ws_ap_pt *p, size_t np)
{
    double seen[64];
    size_t ns = 0;

    fprintf(out, "- Slope a1 within each S_D (memory-bound runs, 3 or more):");
    for (size_t i = 0; i < np && ns < 64; i++) {
        size_t k = 0;
        struct ws_ap_fit f;
        while (k < ns && seen[k] != p[i].sd)
            k++;
        if (k < ns)
            continue;
        seen[ns++] = p[i].sd;
        f = ws_ap_fit(p, np, NULL, p[i].sd, INFINITY);
        if (f.n >= 3)
            fprintf(out, " S_D %.0f: %.4g us (%zu runs, r^2 %.3f);", p[i].sd,
                    f.a1, f.n, f.r2);
    }
    fprintf(out, " eq 14 says one slope for all.\n");
}

/* ---- the anomaly -------------------------------------------------------------- */

struct ws_ap_anomaly {
    double ba[2], time[2], waits[2];
    int found;
};

static struct ws_ap_anomaly ws_ap_anomaly(FILE *out, const struct ws_csv *t)
{
    static const char *const cols[] = {
        "smsp__warps_issue_stalled_long_scoreboard.sum",
        "smsp__warps_issue_stalled_barrier.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum",
        "lts__t_sectors_lookup_hit.sum", "dram__bytes_read.sum"};
    struct ws_ap_anomaly a = {{NAN, NAN}, {NAN, NAN}, {NAN, NAN}, 0};
    int i = 0;

    fprintf(out, "\n## Section V's anomaly\n\n| pad bytes | B_a | cycles | "
                 "time us | long-scoreboard stalls | barrier stalls | bank "
                 "conflicts | L2 hits | DRAM bytes read |\n"
                 "|---|---|---|---|---|---|---|---|---|\n");
    for (size_t r = 0; r < t->nrows && i < 2; r++) {
        if (!ws_csv_row_ok(t, r))
            continue;
        a.ba[i] = ws_csv_value(t, r, "ctas_per_sm");
        a.time[i] = ws_csv_value(t, r, "time_us");
        a.waits[i] = ws_csv_value(t, r, cols[0]);
        fprintf(out, "| %.0f | %.0f | %.0f | %.1f",
                ws_csv_value(t, r, "param.pad"), a.ba[i],
                ws_csv_value(t, r, "cycles"), a.time[i]);
        for (size_t c = 0; c < sizeof cols / sizeof cols[0]; c++)
            fprintf(out, " | %.0f", ws_csv_value(t, r, cols[c]));
        fputs(" |\n", out);
        i++;
    }
    a.found = a.ba[0] > a.ba[1] && a.time[0] > a.time[1];
    return a;
}

/* The memory-bound run furthest above the fitted line, and what its
 * warps waited on, with the reading the report offers for it. */
static void ws_ap_worst(FILE *out, const struct ws_ap_pt *p, size_t np,
                        const struct ws_ap_fit *f)
{
    const struct ws_ap_pt *w = NULL;
    double wr = 0;

    for (size_t i = 0; i < np; i++) {
        double r;
        if (!p[i].mem)
            continue;
        r = p[i].time / (f->a1 * p[i].x + f->a0) - 1;
        if (!w || r > wr) {
            w = &p[i];
            wr = r;
        }
    }
    if (!w || !isfinite(wr))
        return;
    fprintf(out,
            "- Furthest above the line: S_D %.0f, %.0f threads, B_a "
            "%.0f (T %.1f, %s sweep), %.1f us against the fit's %.1f "
            "(%+.0f %%). Its warps' stalled cycles: %.0f %% on fixed-latency "
            "results (`wait`), %.0f %% on global memory (long scoreboard). ",
            w->sd, w->threads, w->ba, w->tpc, w->sweep, w->time,
            f->a1 * w->x + f->a0, 100 * wr, 100 * w->wait, 100 * w->mem_wait);
    fprintf(out,
            "A reading these counters support but do not prove: "
            "eq 14 charges latency to memory transfers only, and every "
            "loop of this kernel is rolled, so an element's %.0f min-plus "
            "steps are a chain of dependent instructions, a latency T "
            "hides as it hides memory's but sqrt(B_r) = n / S_D does not "
            "scale. Runs on the line wait on fixed-latency results too "
            "(their address arithmetic, per transfer, scales as eq 14 "
            "assumes), so the share alone does not tell the two apart.\n",
            w->sd);
}

static void ws_ap_fit_findings(FILE *out, const struct ws_ap_pt *p, size_t np,
                               struct ws_ap_fit f[4], double xt)
{
    f[0] = ws_ap_fit(p, np, NULL, 0, INFINITY);
    f[1] = ws_ap_fit(p, np, "T", 0, INFINITY);
    f[2] = ws_ap_fit(p, np, "B_a", 0, INFINITY);
    f[3] = ws_ap_fit(p, np, NULL, 0, xt);
    fprintf(out,
            "- Eq 15 over the %zu memory-bound runs of both sweeps: "
            "time = %.4g sqrt(B_r)/T + %.4g us, r^2 = %.4f (the paper, "
            "n = 8192 on the GPU: a1 = 0.957, a0 = 53.9 s, r^2 = 0.9916). "
            "%s\n",
            f[0].n, f[0].a1, f[0].a0, f[0].r2,
            f[0].r2 > 0.95 ? "As linear as the GPU was."
                           : "Less linear than the GPU was.");
    fprintf(out,
            "- The same fit over parts of it: the runs within the T "
            "sweep's range (sqrt(B_r)/T <= %.3g, %zu runs) r^2 = %.4f; the "
            "T sweep alone (%zu) %.4f; the B_a sweep alone (%zu) %.4f. The "
            "B_a sweep's S_D = 4 runs reach far along x and weigh most in "
            "r^2; the narrower ranges show how straight the rest is.\n",
            xt, f[3].n, f[3].r2, f[1].n, f[1].r2, f[2].n, f[2].r2);
    ws_ap_slopes(out, p, np);
    ws_ap_worst(out, p, np, &f[0]);
}

int ws_study_apsp(const struct ws_csv *const *t, size_t n,
                  struct ws_study_out *o, struct ws_err *err)
{
    struct ws_gpu g;
    struct ws_ap_fit f[4];
    struct ws_ap_anomaly an;
    struct ws_ap_pt *p;
    double ba, wave, xt;
    size_t len = 0, np;
    int waves, zig;
    FILE *out;

    memset(o, 0, sizeof *o);
    if (n != 4 || t[0]->nrows == 0)
        return ws_err_msg(err,
                          "the apsp study takes 4 tables (expected the "
                          "B_r, T, B_a and anomaly sweeps, each with rows)");
    if (ws_cfg_load(&g, WS_APSP_GPU, NULL, 0, err) < 0)
        return -1;
    if (!(p = malloc((t[1]->nrows + t[2]->nrows + 1) * sizeof *p)))
        return ws_err_oom(err);
    np = ws_ap_collect(t[1], "T", p);
    np += ws_ap_collect(t[2], "B_a", p + np);
    xt = ws_ap_classify(p, np);
    if (ws_ap_points(p, np, o, err) < 0) {
        free(p);
        ws_study_out_free(o);
        return -1;
    }
    if (!(out = open_memstream(&o->report, &len))) {
        free(p);
        ws_study_out_free(o);
        return ws_err_oom(err);
    }
    ba = ws_csv_value(t[0], 0, "ctas_per_sm");
    wave = ba * g.sm.count;
    fprintf(out,
            "# Study 2: APSP on GTX 480 (seed 004, Ma, Chamberlain & "
            "Agrawal)\n\nThe paper ran n = 8192 on the GPU. Here the B_r and "
            "anomaly sweeps run n = 256 and the T and B_a sweeps n = 512, the "
            "smallest power of two whose matrix exceeds the 768 KB L2 (so "
            "loads reach DRAM, as at 8192): the same kernel and per-block "
            "structure, so shapes compare and seconds do not. Plots: "
            "`time_vs_br.svg`, `time_vs_threads.svg`, `time_vs_x.svg`.\n\n");
    zig = ws_ap_zigzag(out, t[0], wave,
                       ws_csv_value(t[0], 1, "param.br")
                           - ws_csv_value(t[0], 0, "param.br"),
                       &waves);
    ws_ap_table(out, p, np);
    an = ws_ap_anomaly(out, t[3]);
    fprintf(out,
            "\n## Findings\n\n- Zigzag: with B_a = %.0f on %u SMs a "
            "wave is %.0f blocks; the time per block is %s at each of the "
            "%d whole waves the sweep brackets, as eq 3's f_sched says.\n",
            ba, g.sm.count, wave, zig && waves ? "least" : "not least", waves);
    ws_ap_fit_findings(out, p, np, f, xt);
    free(p);
    fprintf(out,
            "- Section V: B_a %.0f takes %.1f us, B_a %.0f (padded) "
            "%.1f us. ",
            an.ba[0], an.time[0], an.ba[1], an.time[1]);
    if (an.found)
        fprintf(out,
                "The simulation shows the anomaly: fewer active blocks "
                "run faster; the counters above say where the time goes.\n");
    else
        fprintf(out,
                "The simulation does not show the anomaly: with B_a "
                "%.0f the SM holds more warps, which wait on memory for more "
                "warp-cycles in all (long-scoreboard stalls %.3g against "
                "%.3g) but overlap their waits, as TMM's T term says. The "
                "paper found no explanation for the GPU's behaviour; "
                "whatever it was is outside warpsim's model of the SM and "
                "memory, which has, for example, no instruction cache and "
                "no DRAM partition camping.\n",
                an.ba[0], an.waits[0], an.waits[1]);
    if (fclose(out) != 0) {
        ws_study_out_free(o);
        return ws_err_oom(err);
    }
    o->summary = json_pack(
        "{s:s,s:{s:f,s:i,s:b},s:{s:f,s:f,s:f,s:I,s:f,s:f,s:f},"
        "s:{s:f,s:f,s:f,s:f,s:b}}",
        "study", "apsp", "zigzag", "wave", ws_ap_fin(wave), "waves", waves,
        "minima_at_waves", zig && waves > 0, "fit", "a1", ws_ap_fin(f[0].a1),
        "a0", ws_ap_fin(f[0].a0), "r2", ws_ap_fin(f[0].r2), "points",
        (json_int_t)f[0].n, "r2_t_range", ws_ap_fin(f[3].r2), "r2_t_sweep",
        ws_ap_fin(f[1].r2), "r2_ba_sweep", ws_ap_fin(f[2].r2), "anomaly",
        "ba_auto", ws_ap_fin(an.ba[0]), "ba_forced", ws_ap_fin(an.ba[1]),
        "time_auto", ws_ap_fin(an.time[0]), "time_forced",
        ws_ap_fin(an.time[1]), "shown", an.found);
    if (!o->summary) {
        ws_study_out_free(o);
        return ws_err_oom(err);
    }
    return 0;
}
