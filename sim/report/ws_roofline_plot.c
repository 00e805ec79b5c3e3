/*
 * ws_roofline_plot: a run's hierarchical roofline (see
 * ws_roofline_plot.h): the ceilings from the config, the kernels' points
 * from their counters, and the gnuplot script that draws them.
 *
 * Each kernel has a colour, each level a point shape; the key lists the
 * ceilings with their values, the levels' shapes (what their bytes
 * count) and the kernels' colours.  Past WS_ROOF_KEYED kernels the rest
 * are grey and named together in the key.
 *
 * Leaves out: the gnuplot driver (ws_plot.c), axes (ws_plot_axes.c).
 */
#include "ws_roofline_plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/ws_config.h"
#include "measure/ws_kname.h"
#include "stats/ws_stats.h"
#include "ws_plot.h"
#include "ws_sol.h"

/* Kernels with a colour and a key entry of their own. */
#define WS_ROOF_KEYED 10

enum {
    WS_ROOF_L1,
    WS_ROOF_L2,
    WS_ROOF_DRAM,
    WS_ROOF_LEVELS
};
enum {
    WS_ROOF_FP32,
    WS_ROOF_FP16,
    WS_ROOF_FP64,
    WS_ROOF_TENSOR,
    WS_ROOF_PIPES
};

static const char *const ws_roof_level_name[WS_ROOF_LEVELS] = {"L1", "L2",
                                                               "DRAM"};
/* An open triangle, an open square, a dot, smaller each: a kernel whose
 * bytes are the same at two levels (a stream misses in L1 and L2 alike)
 * shows both, one inside the other. */
static const int ws_roof_level_pt[WS_ROOF_LEVELS] = {8, 4, 7};
static const double ws_roof_level_ps[WS_ROOF_LEVELS] = {2.2, 1.7, 1.0};
static const char *const ws_roof_pipe_name[WS_ROOF_PIPES] = {"FP32", "FP16",
                                                             "FP64", "tensor"};
static const enum ws_unit_kind ws_roof_pipe_unit[WS_ROOF_PIPES] = {
    WS_UNIT_FP32, WS_UNIT_FP16, WS_UNIT_FP64, WS_UNIT_TENSOR};
/* Okabe & Ito's colours, told apart with most kinds of colour blindness,
 * and two more. */
static const char *const ws_roof_colour[WS_ROOF_KEYED] = {"#0072b2", "#d55e00",
                                                          "#009e73", "#cc79a7",
                                                          "#e69f00", "#56b4e9",
                                                          "#000000", "#f0e442",
                                                          "#8c564b", "#7f7fff"};

/* One kernel's place: its rate and, per level, its intensity (0: no
 * bytes there, no point). */
struct ws_roof_kernel {
    const struct ws_kernel_stats *k;
    double rate;               /* arithmetic warp instructions per second */
    double ai[WS_ROOF_LEVELS]; /* per byte */
};

struct ws_roof {
    const struct ws_run_report *r;
    double pipe[WS_ROOF_PIPES]; /* warp instructions per second */
    double bw[WS_ROOF_LEVELS];  /* bytes per second */
    double top;                 /* the highest pipe */
    struct ws_roof_kernel *kern;
    size_t nkern;
    double range[2]; /* x, as set */
};

/* ---- the numbers ---------------------------------------------------------- */

/* Each pipe's peak: a sub-core issues to a unit once per interval. */
static void ws_roof_ceilings(struct ws_roof *f, const struct ws_gpu *g)
{
    double hz = g->core_mhz * 1e6, sub = (double)g->sm.count * g->sm.sub_cores;

    f->top = 0;
    for (int p = 0; p < WS_ROOF_PIPES; p++) {
        const struct ws_unit_cfg *u = &g->unit[ws_roof_pipe_unit[p]];
        uint32_t iv = u->interval ? u->interval
                                  : (32 + u->lanes - 1) / u->lanes;
        f->pipe[p] = sub * hz / iv;
        f->top = fmax(f->top, f->pipe[p]);
    }
    /* L1: the tag pipe takes one line request per cycle (mem/ws_l1.h), so
     * an SM moves at most a line a cycle through it. */
    f->bw[WS_ROOF_L1] = (double)g->sm.count * (double)g->l1.line * hz;
    f->bw[WS_ROOF_L2] = g->l2.bandwidth * 1e9;
    f->bw[WS_ROOF_DRAM] = g->dram.bandwidth * 1e9;
}

static void ws_roof_place(struct ws_roof_kernel *p, const struct ws_gpu *g)
{
    const uint64_t *v = p->k->ctr.v;
    double work = (double)(v[WS_CTR_INST_FP32] + v[WS_CTR_INST_FP16]
                           + v[WS_CTR_INST_FP64] + v[WS_CTR_INST_TENSOR]);
    double secs = (double)v[WS_CTR_CYCLES] / (g->core_mhz * 1e6);
    double bytes[WS_ROOF_LEVELS] = {
        (double)v[WS_CTR_L1_SECTORS] * (double)g->l1.sector,
        ws_sol_l2_bytes(g, v),
        (double)(v[WS_CTR_DRAM_BYTES_READ] + v[WS_CTR_DRAM_BYTES_WRITE])};

    p->rate = work > 0 && secs > 0 ? work / secs : 0;
    for (int l = 0; l < WS_ROOF_LEVELS; l++)
        p->ai[l] = p->rate > 0 && bytes[l] > 0 ? work / bytes[l] : 0;
}

/* The x range: every point and every ridge (where a bandwidth meets the
 * top pipe), with room on both sides for the roof's shape. */
static void ws_roof_xspan(const struct ws_roof *f, double *lo, double *hi)
{
    *lo = INFINITY;
    *hi = 0;
    for (int l = 0; l < WS_ROOF_LEVELS; l++)
        if (f->bw[l] > 0) {
            *lo = fmin(*lo, f->top / f->bw[l]);
            *hi = fmax(*hi, f->top / f->bw[l]);
        }
    for (size_t i = 0; i < f->nkern; i++)
        for (int l = 0; l < WS_ROOF_LEVELS; l++)
            if (f->kern[i].ai[l] > 0) {
                *lo = fmin(*lo, f->kern[i].ai[l]);
                *hi = fmax(*hi, f->kern[i].ai[l]);
            }
    *lo /= 8;
    *hi *= 8;
}

/* The y range: the points and the pipes, the top with room above. */
static void ws_roof_yspan(const struct ws_roof *f, double *lo, double *hi)
{
    *lo = f->top;
    for (int p = 0; p < WS_ROOF_PIPES; p++)
        *lo = fmin(*lo, f->pipe[p]);
    for (size_t i = 0; i < f->nkern; i++)
        if (f->kern[i].rate > 0)
            *lo = fmin(*lo, f->kern[i].rate);
    *lo /= 4;
    *hi = f->top * 2;
}

/* ---- the text ------------------------------------------------------------- */

/* v in SI steps: "29.6 TB/s", or with words, "1.05 T warp inst/s". */
static void ws_roof_si(char *buf, size_t size, double v, const char *unit,
                       int words)
{
    static const char *const si[] = {"", "k", "M", "G", "T", "P", "E"};
    int p = 0;

    while (v >= 1000 && p < 6) {
        v /= 1000;
        p++;
    }
    snprintf(buf, size, "%.3g %s%s%s", v, si[p], words && p ? " " : "", unit);
}

/* "vecAdd #1": the kernel's base name and launch id. */
static void ws_roof_kernel_name(FILE *fp, const struct ws_kernel_stats *k)
{
    const char *name = k->name ? k->name : "kernel";
    char *base = ws_kname_base(name);

    ws_plot_quote_body(fp, base && base[0] ? base : name);
    fprintf(fp, " #%u", k->launch.id);
    free(base);
}

static void ws_roof_title(FILE *fp, const struct ws_roof *f)
{
    fputs("set title 'Hierarchical roofline on ", fp);
    ws_plot_quote_body(fp, f->r->gpu->name);
    fputs("' . \"\\n\" . 'arithmetic warp instructions (FP32, FP16, FP64 "
          "and tensor pipes) against bytes at each level' noenhanced\n",
          fp);
    ws_plot_axis_label(fp, 'x',
                       "arithmetic intensity (arithmetic warp instructions "
                       "per byte at the level)",
                       NULL);
    ws_plot_axis_label(fp, 'y', "performance",
                       "arithmetic warp instructions per second");
    fputs("set key outside right top noenhanced Left reverse "
          "title 'ceilings; levels (shape); kernels (colour)' noenhanced\n"
          "set grid\n",
          fp);
}

/* Kernels with no point, in a note at the foot of the chart. */
static void ws_roof_note(FILE *fp, const struct ws_roof *f)
{
    int any = 0;

    for (size_t i = 0; i < f->nkern; i++) {
        if (f->kern[i].rate > 0)
            continue;
        fputs(any ? ", "
                  : "set label 'not placed (no arithmetic warp "
                    "instructions): ",
              fp);
        ws_roof_kernel_name(fp, f->kern[i].k);
        any = 1;
    }
    if (any)
        fputs("' at screen 0.01, screen 0.02 noenhanced font ',9'\n"
              "set bmargin 5\n",
              fp);
}

/* ---- the plot ------------------------------------------------------------- */

static const char *ws_roof_kcolour(size_t i)
{
    return i < WS_ROOF_KEYED ? ws_roof_colour[i] : "#a0a0a0";
}

/* The pipes' lines, equal peaks named together ("FP32, FP16"). */
static void ws_roof_plot_pipes(FILE *fp, const struct ws_plot_dir *d,
                               const struct ws_roof *f, size_t *block)
{
    char rate[48];
    int done[WS_ROOF_PIPES] = {0};

    for (int p = 0; p < WS_ROOF_PIPES; p++) {
        if (done[p])
            continue;
        fputs(*block ? ", \\\n     " : "plot ", fp);
        ws_plot_quote(fp, d->data);
        fprintf(fp,
                " index %zu using 1:2 with lines dt 2 lw 1.5 lc rgb "
                "'#404040' title '",
                (*block)++);
        for (int q = p; q < WS_ROOF_PIPES; q++)
            if (!done[q]
                && fabs(f->pipe[q] - f->pipe[p]) <= 1e-9 * f->pipe[p]) {
                fprintf(fp, "%s%s", q == p ? "" : ", ", ws_roof_pipe_name[q]);
                done[q] = 1;
            }
        ws_roof_si(rate, sizeof rate, f->pipe[p], "warp inst/s", 1);
        fprintf(fp, " pipe peak: %s'", rate);
    }
}

static void ws_roof_plot_mems(FILE *fp, const struct ws_plot_dir *d,
                              const struct ws_roof *f, size_t *block)
{
    static const char *const colour[WS_ROOF_LEVELS] = {"#7570b3", "#1b9e77",
                                                       "#d95f02"};
    char bw[48];

    for (int l = 0; l < WS_ROOF_LEVELS; l++) {
        if (!(f->bw[l] > 0))
            continue;
        fputs(", \\\n     ", fp);
        ws_plot_quote(fp, d->data);
        ws_roof_si(bw, sizeof bw, f->bw[l], "B/s", 0);
        fprintf(fp,
                " index %zu using 1:2 with lines lw 2 lc rgb '%s' "
                "title '%s bandwidth: %s'",
                (*block)++, colour[l], ws_roof_level_name[l], bw);
    }
}

/* " (no DRAM bytes)": the levels a kernel has no point at. */
static void ws_roof_missing(FILE *fp, const struct ws_roof_kernel *k)
{
    const char *sep = " (no ";

    for (int l = 0; l < WS_ROOF_LEVELS; l++)
        if (!(k->ai[l] > 0)) {
            fprintf(fp, "%s%s", sep, ws_roof_level_name[l]);
            sep = ", ";
        }
    if (sep[0] == ',')
        fputs(" bytes)", fp);
}

/* The levels' shapes and the kernels' colours, as key entries of their
 * own (NaN draws nothing); then each point, untitled. */
static void ws_roof_plot_kernels(FILE *fp, const struct ws_plot_dir *d,
                                 const struct ws_roof *f, size_t *block)
{
    const struct ws_gpu *g = f->r->gpu;
    size_t placed = 0;

    fprintf(fp,
            ", \\\n     NaN with points pt %d ps %g lc rgb 'black' title "
            "'L1: sectors x %llu B'",
            ws_roof_level_pt[0], ws_roof_level_ps[0],
            (unsigned long long)g->l1.sector);
    fprintf(fp,
            ", \\\n     NaN with points pt %d ps %g lc rgb 'black' title "
            "'L2: sectors (read, write, atomic) x %llu B'",
            ws_roof_level_pt[1], ws_roof_level_ps[1],
            (unsigned long long)g->l2.sector);
    fprintf(fp,
            ", \\\n     NaN with points pt %d ps %g lc rgb 'black' title "
            "'DRAM: bytes read and written'",
            ws_roof_level_pt[2], ws_roof_level_ps[2]);
    for (size_t i = 0; i < f->nkern; i++) {
        if (!(f->kern[i].rate > 0))
            continue;
        if (placed < WS_ROOF_KEYED) {
            fprintf(fp, ", \\\n     NaN with lines lw 6 lc rgb '%s' title '",
                    ws_roof_kcolour(placed));
            ws_roof_kernel_name(fp, f->kern[i].k);
            ws_roof_missing(fp, &f->kern[i]);
            fputc('\'', fp);
        } else if (placed == WS_ROOF_KEYED) {
            fprintf(fp,
                    ", \\\n     NaN with lines lw 6 lc rgb '%s' title "
                    "'other kernels'",
                    ws_roof_kcolour(placed));
        }
        for (int l = 0; l < WS_ROOF_LEVELS; l++) {
            if (!(f->kern[i].ai[l] > 0))
                continue;
            fputs(", \\\n     ", fp);
            ws_plot_quote(fp, d->data);
            fprintf(fp,
                    " index %zu using 1:2 with points pt %d ps %g lw 1.5 "
                    "lc rgb '%s' notitle",
                    (*block)++, ws_roof_level_pt[l], ws_roof_level_ps[l],
                    ws_roof_kcolour(placed));
        }
        placed++;
    }
    fputc('\n', fp);
}

/* The blocks in the order the plot reads them: pipes (equal ones once),
 * bandwidths up to the top pipe, then each kernel's points. */
static int ws_roof_data(const struct ws_plot_dir *d, const struct ws_roof *f,
                        struct ws_err *err)
{
    FILE *fp = ws_plot_fopen(d->data, err);
    const char *sep = "";

    if (!fp)
        return -1;
    for (int p = 0; p < WS_ROOF_PIPES; p++) {
        int again = 0;
        for (int q = 0; q < p; q++)
            again |= fabs(f->pipe[q] - f->pipe[p]) <= 1e-9 * f->pipe[p];
        if (again)
            continue;
        fprintf(fp, "%s%.17g %.17g\n%.17g %.17g\n", sep, f->range[0],
                f->pipe[p], f->range[1], f->pipe[p]);
        sep = "\n\n";
    }
    for (int l = 0; l < WS_ROOF_LEVELS; l++)
        if (f->bw[l] > 0)
            fprintf(fp, "\n\n%.17g %.17g\n%.17g %.17g\n", f->range[0],
                    f->bw[l] * f->range[0], f->top / f->bw[l], f->top);
    for (size_t i = 0; i < f->nkern; i++)
        for (int l = 0; l < WS_ROOF_LEVELS; l++)
            if (f->kern[i].rate > 0 && f->kern[i].ai[l] > 0)
                fprintf(fp, "\n\n%.17g %.17g\n", f->kern[i].ai[l],
                        f->kern[i].rate);
    return ws_plot_close(fp, d->data, err);
}

static int ws_roof_write(const struct ws_plot_dir *d, const void *chart,
                         struct ws_err *err)
{
    struct ws_roof f = *(const struct ws_roof *)chart;
    FILE *fp = ws_plot_fopen(d->script, err);
    double lo, hi;
    size_t block = 0;

    if (!fp)
        return -1;
    ws_plot_terminal(fp, d, 1100, 620);
    ws_roof_title(fp, &f);
    ws_roof_note(fp, &f);
    ws_roof_xspan(&f, &lo, &hi);
    ws_plot_axis(fp, 'x', lo, hi, 1, 0, NULL, f.range);
    ws_roof_yspan(&f, &lo, &hi);
    ws_plot_axis(fp, 'y', lo, hi, 1, 0, NULL, NULL);
    ws_roof_plot_pipes(fp, d, &f, &block);
    ws_roof_plot_mems(fp, d, &f, &block);
    ws_roof_plot_kernels(fp, d, &f, &block);
    if (ws_plot_close(fp, d->script, err) < 0)
        return -1;
    return ws_roof_data(d, &f, err);
}

char *ws_roofline_svg(const struct ws_run_report *r, struct ws_err *err)
{
    struct ws_roof f;
    char *svg;

    memset(&f, 0, sizeof f);
    f.r = r;
    f.nkern = r->nkernels;
    f.kern = calloc(r->nkernels + 1, sizeof *f.kern);
    if (!f.kern) {
        ws_err_oom(err);
        return NULL;
    }
    ws_roof_ceilings(&f, r->gpu);
    for (size_t i = 0; i < r->nkernels; i++) {
        f.kern[i].k = &r->kernels[i];
        ws_roof_place(&f.kern[i], r->gpu);
    }
    svg = ws_plot_gnuplot(ws_roof_write, &f, err);
    free(f.kern);
    return svg;
}
