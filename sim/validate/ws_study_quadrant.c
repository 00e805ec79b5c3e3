/*
 * ws_study_quadrant: study 6, the quadrant-split view of the blog seed
 * (after Konstantinidis & Cotronis, JPDC 2017): one kernel across GPUs,
 * application-centric where the roofline is device-centric.  Each GPU is
 * a point at its peak DRAM bandwidth and its peak rate of the kernel's
 * dominant operation; the kernel's operational intensity (its operations
 * over its compulsory DRAM bytes) is a line through the origin: a GPU
 * above the line runs it memory bound, one below compute bound.  Beside
 * each, where the simulation put the kernel.  The numbers are the
 * quantitative roofline's inputs in the sweep's rows (qroofline_terms:
 * W_comp, W_trans, T_op, B_mem), at each row's clock.
 *
 * Leaves out: GPUs' boost behaviour (each config's one clock).
 */
#include "ws_study.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/ws_plot.h"
#include "util/ws_demangle.h"
#include "ws_sb.h"
#include "ws_sb_stats.h"

#define WS_QUAD_MAX 32

struct ws_quad_gpu {
    const char *name;
    double bw, peak;    /* GB/s, Gop/s */
    double got_bw, got; /* achieved */
    double ai;          /* op/B */
};

static int ws_quad_row(const struct ws_csv *t, size_t r, long gc, long tc,
                       struct ws_quad_gpu *q)
{
    double cyc = ws_csv_value(t, r, "cycles");
    double us = ws_csv_value(t, r, "time_us");
    const char *terms = ws_csv_cell(t, r, (size_t)tc);
    double w = ws_sb_cell_var(terms, "W_comp");
    double bytes = ws_sb_cell_var(terms, "W_trans");
    double ghz = cyc / us / 1000.0;

    if (!ws_csv_row_ok(t, r) || !(cyc > 0) || !(us > 0) || !(w > 0)
        || !(bytes > 0))
        return 0;
    q->name = ws_csv_cell(t, r, (size_t)gc);
    q->bw = ws_sb_cell_var(terms, "B_mem") * ghz;
    q->peak = ws_sb_cell_var(terms, "T_op") * ghz;
    q->got_bw = bytes / us / 1000.0;
    q->got = w / us / 1000.0;
    q->ai = w / bytes;
    return isfinite(q->bw) && isfinite(q->peak);
}

/* Above the kernel's line (its intensity times the GPU's bandwidth falls
 * short of the compute peak): memory bound on that GPU. */
static int ws_quad_memory_bound(const struct ws_quad_gpu *q)
{
    return q->ai * q->bw < q->peak;
}

/* The roofline's attainable rate for the kernel on that GPU. */
static double ws_quad_bound(const struct ws_quad_gpu *q)
{
    return fmin(q->peak, q->ai * q->bw);
}

static void ws_quad_table(FILE *out, const struct ws_quad_gpu *q, size_t n)
{
    fprintf(out, "| GPU | peak DRAM GB/s | peak Gop/s | ridge op/B | "
                 "kernel op/B | side of the line | simulated Gop/s | of the "
                 "bound |\n|---|---|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < n; i++)
        fprintf(out,
                "| %s | %.0f | %.0f | %.2f | %.3f | %s | %.1f | "
                "%.1f %% |\n",
                q[i].name, q[i].bw, q[i].peak, q[i].peak / q[i].bw, q[i].ai,
                ws_quad_memory_bound(&q[i]) ? "memory bound" : "compute bound",
                q[i].got, 100 * q[i].got / ws_quad_bound(&q[i]));
}

int ws_study_quadrant(const struct ws_csv *const *tables, size_t nt,
                      struct ws_study_out *o, struct ws_err *err)
{
    const struct ws_csv *t = tables[0];
    struct ws_quad_gpu q[WS_QUAD_MAX];
    const char *names[WS_QUAD_MAX];
    double bw[WS_QUAD_MAX], peak[WS_QUAD_MAX], gb[WS_QUAD_MAX];
    double gf[WS_QUAD_MAX], ai[WS_QUAD_MAX];
    long gc = ws_csv_col(t, "gpu"), tc = ws_csv_col(t, "qroofline_terms");
    long kc = ws_csv_col(t, "kernel");
    size_t n = 0, len = 0, mem = 0;
    struct ws_plot_quadrant spec;
    char *title = NULL;
    json_t *arr;
    FILE *out;

    memset(o, 0, sizeof *o);
    (void)nt;
    if (gc < 0)
        return ws_csv_no_col(t, "gpu", err);
    if (tc < 0)
        return ws_csv_no_col(t, "qroofline_terms", err);
    for (size_t r = 0; r < t->nrows && n < WS_QUAD_MAX; r++)
        if (ws_quad_row(t, r, gc, tc, &q[n])) {
            names[n] = q[n].name;
            bw[n] = q[n].bw;
            peak[n] = q[n].peak;
            gb[n] = q[n].got_bw;
            gf[n] = q[n].got;
            ai[n] = q[n].ai;
            mem += ws_quad_memory_bound(&q[n]);
            n++;
        }
    if (n == 0)
        return ws_err_msg(err,
                          "%s has no ok row with operations and DRAM "
                          "traffic (expected the quadrant sweep)",
                          t->name);
    spec = (struct ws_plot_quadrant){kc >= 0 ? ws_csv_cell(t, 0, (size_t)kc)
                                             : t->name,
                                     names,
                                     bw,
                                     peak,
                                     gb,
                                     gf,
                                     n,
                                     0};
    spec.ai = ws_sb_median(ai, n);
    if (!(out = open_memstream(&o->report, &len)))
        return ws_err_oom(err);
    fprintf(out,
            "# Study 6: the quadrant-split view\n\nOne kernel on %zu "
            "GPUs (the blog seed's application-centric view): each GPU at "
            "its peak DRAM bandwidth and peak rate of the kernel's dominant "
            "operation, the kernel's operational intensity (operations over "
            "compulsory DRAM bytes) the line. Chart: `quadrant.svg`.\n\n",
            n);
    ws_quad_table(out, q, n);
    fprintf(out,
            "\n## Findings\n\nThe kernel is memory bound on %zu of "
            "the %zu GPUs and compute bound on the rest: its intensity "
            "(median %.3f op/B) lies %s.\n",
            mem, n, spec.ai,
            mem == 0   ? "above every GPU's ridge"
            : mem == n ? "below every GPU's ridge"
                       : "between the GPUs' ridges, so which resource "
                         "limits it depends on the GPU");
    if (fclose(out) != 0)
        return ws_err_oom(err);
    /* The chart's title is the kernel as people read its name. */
    if (kc >= 0 && (title = ws_demangle(spec.title)))
        spec.title = title;
    o->chart = ws_plot_quadrant_svg(&spec, err);
    free(title);
    o->chart_name = WS_STUDY_CHART_QUADRANT;
    arr = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(arr, json_pack("{s:s,s:b,s:f}", "gpu", q[i].name,
                                             "memory_bound",
                                             ws_quad_memory_bound(&q[i]),
                                             "fraction_of_bound",
                                             q[i].got / ws_quad_bound(&q[i])));
    o->summary = json_pack("{s:s,s:o,s:I}", "study", "quadrant", "gpus", arr,
                           "memory_bound", (json_int_t)mem);
    if (!o->chart || !o->summary) {
        int drawn = o->chart != NULL;
        ws_study_out_free(o);
        return drawn ? ws_err_oom(err) : -1;
    }
    return 0;
}
