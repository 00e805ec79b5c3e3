/*
 * ws_sol: the Nsight-style utilisation and occupancy view (see ws_sol.h).
 */
#include "ws_sol.h"

#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include "ws_report.h"

/* Thresholds of the hints.  Nsight's own rules use 60 % of peak for
 * "high throughput" and 80 % for a unit that is the bottleneck; an
 * achieved occupancy under 80 % of the theoretical is its "achieved
 * occupancy" rule's trigger, a last wave under half full its tail rule's. */
#define WS_SOL_HIGH 60.0
#define WS_SOL_BOTTLENECK 80.0
#define WS_SOL_OCC_GAP 0.8
#define WS_SOL_THEO_LOW 50.0

static double ws_sol_pct(double num, double den)
{
    return den > 0 ? 100.0 * num / den : 0.0;
}

static void ws_sol_pipes(const struct ws_gpu *g, const uint64_t *v,
                         struct ws_sol *s)
{
    double sub_cycles = (double)v[WS_CTR_SM_CYCLES_ACTIVE] * g->sm.sub_cores;

    s->busiest = -1;
    for (int u = 0; u < WS_UNIT_COUNT; u++) {
        double busy = (double)v[WS_CTR_PIPE_FP32_CYCLES + u];
        /* wgmma holds the tensor pipe's quarters (one per sub-core) away
         * from its issue: that time is the tensor pipe's too, as Nsight's
         * sm__pipe_tensor_cycles_active counts it. */
        if (u == WS_UNIT_TENSOR)
            busy += (double)v[WS_CTR_WGMMA_PIPE_CYCLES];
        s->pipe_pct[u] = fmin(100.0, ws_sol_pct(busy, sub_cycles));
        if (s->pipe_pct[u] > 0
            && (s->busiest < 0 || s->pipe_pct[u] > s->pipe_pct[s->busiest]))
            s->busiest = u;
    }
}

/* L1/shared: a global sector takes its share of one bank row (a 128-byte
 * row carries four 32-byte sectors), a shared wavefront a whole row. */
static double ws_sol_l1_pct(const struct ws_gpu *g, const uint64_t *v)
{
    double row = (double)g->shared.banks * (double)g->shared.bank_width;
    double rows;

    if (row <= 0)
        return 0.0;
    rows = (double)v[WS_CTR_L1_SECTORS] * (double)g->l1.sector / row
           + (double)v[WS_CTR_SHARED_WAVEFRONTS];
    return fmin(100.0, ws_sol_pct(rows, (double)v[WS_CTR_SM_CYCLES_ACTIVE]));
}

double ws_sol_l2_bytes(const struct ws_gpu *g, const uint64_t *v)
{
    return (double)(v[WS_CTR_L2_SECTORS_READ] + v[WS_CTR_L2_SECTORS_WRITE]
                    + v[WS_CTR_L2_SECTORS_ATOM])
           * (double)g->l2.sector;
}

/* Every L2 sector crosses the interconnect to or from an SM; each SM has
 * icnt.bandwidth_per_sm each way, for the cycles it is active. */
static double ws_sol_icnt_pct(const struct ws_gpu *g, const uint64_t *v)
{
    double active_us = (double)v[WS_CTR_SM_CYCLES_ACTIVE] / g->core_mhz;

    return fmin(100.0, ws_sol_pct(ws_sol_l2_bytes(g, v),
                                  active_us * 1e3 * g->icnt.bandwidth_per_sm));
}

static double ws_sol_l2_pct(const struct ws_gpu *g, const uint64_t *v,
                            double time_us)
{
    return fmin(100.0, ws_sol_pct(ws_sol_l2_bytes(g, v),
                                  time_us * 1e3 * g->l2.bandwidth));
}

static void ws_sol_launch(const struct ws_gpu *g,
                          const struct ws_kernel_stats *k, struct ws_sol *s)
{
    double slots = (double)k->occ.ctas_per_sm * g->sm.count;
    double ctas = (double)k->ctas_total;
    double whole;

    s->theoretical_occ_pct = ws_sol_pct((double)k->occ.ctas_per_sm
                                            * k->occ.warps_per_cta,
                                        g->sm.max_warps);
    s->waves = slots > 0 ? ctas / slots : 0.0;
    whole = floor(s->waves);
    s->last_wave_pct = s->waves > whole ? 100.0 * (s->waves - whole) : 100.0;
    s->grid_sm_pct = ws_sol_pct(ctas < g->sm.count ? ctas : g->sm.count,
                                g->sm.count);
    s->tail_pct = ws_sol_pct((double)k->ctr.v[WS_CTR_TAIL_CYCLES],
                             (double)k->ctr.v[WS_CTR_CYCLES]);
}

static void ws_sol_hint(struct ws_sol *s, const char *fmt, ...)
{
    va_list ap;

    if (s->nhints >= WS_SOL_MAX_HINTS)
        return;
    va_start(ap, fmt);
    vsnprintf(s->hint[s->nhints++], WS_SOL_HINT_LEN, fmt, ap);
    va_end(ap);
}

static void ws_sol_hints_launch(const struct ws_gpu *g,
                                const struct ws_kernel_stats *k,
                                struct ws_sol *s)
{
    if (k->ctas_total < g->sm.count)
        ws_sol_hint(s,
                    "the grid of %llu CTAs fills %.0f%% of the %u SMs: the "
                    "rest idle for the whole kernel",
                    (unsigned long long)k->ctas_total, s->grid_sm_pct,
                    g->sm.count);
    else if (s->waves < 1)
        ws_sol_hint(s,
                    "the grid of %llu CTAs fills %.0f%% of one wave's %u CTA "
                    "slots: the grid, not the SM, bounds the occupancy",
                    (unsigned long long)k->ctas_total, 100 * s->waves,
                    k->occ.ctas_per_sm * g->sm.count);
    else if (s->waves > 1 && s->waves < 10 && s->last_wave_pct < 50)
        ws_sol_hint(s,
                    "%.2f waves: the last is %.0f%% full, and its tail "
                    "(%.1f%% of the cycles) runs with CTA slots empty",
                    s->waves, s->last_wave_pct, s->tail_pct);
    if (k->occ.ctas_per_sm && s->theoretical_occ_pct < WS_SOL_THEO_LOW)
        ws_sol_hint(s,
                    "theoretical occupancy %.1f%%, limited by %s (%u CTA%s "
                    "per SM)",
                    s->theoretical_occ_pct, ws_occ_limit_name(k->occ.limit),
                    k->occ.ctas_per_sm, k->occ.ctas_per_sm == 1 ? "" : "s");
    if (s->theoretical_occ_pct > 0 && k->ctr.v[WS_CTR_INST]
        && s->achieved_occ_pct < WS_SOL_OCC_GAP * s->theoretical_occ_pct)
        ws_sol_hint(s,
                    "achieved occupancy %.1f%% is under %.0f%% of the "
                    "theoretical %.1f%%: warps end unevenly or the grid "
                    "runs out of CTAs",
                    s->achieved_occ_pct, 100 * WS_SOL_OCC_GAP,
                    s->theoretical_occ_pct);
}

static void ws_sol_hints_units(const struct ws_kernel_stats *k,
                               struct ws_sol *s)
{
    const uint64_t *v = k->ctr.v;
    double top = s->busiest >= 0 ? s->pipe_pct[s->busiest] : 0.0;

    if (top >= WS_SOL_BOTTLENECK)
        ws_sol_hint(s,
                    "the %s pipe is busy %.1f%% of the active cycles: the "
                    "kernel is bound by it",
                    ws_unit_name((enum ws_unit_kind)s->busiest), top);
    if (s->dram_pct >= WS_SOL_HIGH)
        ws_sol_hint(s, "DRAM at %.1f%% of its peak: bandwidth-bound",
                    s->dram_pct);
    if (s->l2_pct >= WS_SOL_HIGH)
        ws_sol_hint(s, "L2 at %.1f%% of its peak: bound by L2 bandwidth",
                    s->l2_pct);
    if (s->icnt_pct >= WS_SOL_HIGH)
        ws_sol_hint(s,
                    "the interconnect at %.1f%% of its peak per active SM: "
                    "bound by the SMs' links to L2",
                    s->icnt_pct);
    if (s->l1_pct >= WS_SOL_HIGH)
        ws_sol_hint(s,
                    "L1/shared at %.1f%% of its data path: bound by the "
                    "SM's memory pipe",
                    s->l1_pct);
    if (top < WS_SOL_HIGH && s->l1_pct < WS_SOL_HIGH
        && s->icnt_pct < WS_SOL_HIGH && s->l2_pct < WS_SOL_HIGH
        && s->dram_pct < WS_SOL_HIGH && v[WS_CTR_INST])
        ws_sol_hint(s,
                    "no unit or memory level reaches %.0f%% of its peak: "
                    "latency-bound (see the stall reasons)",
                    WS_SOL_HIGH);
    if (v[WS_CTR_SHARED_BANK_CONFLICTS] * 10 > v[WS_CTR_SHARED_WAVEFRONTS]
        && v[WS_CTR_SHARED_BANK_CONFLICTS])
        ws_sol_hint(s,
                    "shared-memory bank conflicts are %.0f%% of its "
                    "wavefronts",
                    ws_sol_pct((double)v[WS_CTR_SHARED_BANK_CONFLICTS],
                               (double)v[WS_CTR_SHARED_WAVEFRONTS]));
}

void ws_sol_derive(const struct ws_gpu *g, const struct ws_kernel_stats *k,
                   struct ws_sol *s)
{
    struct ws_derived d;

    memset(s, 0, sizeof *s);
    ws_report_derive(g, &k->ctr, &d);
    ws_sol_pipes(g, k->ctr.v, s);
    s->l1_pct = ws_sol_l1_pct(g, k->ctr.v);
    s->icnt_pct = ws_sol_icnt_pct(g, k->ctr.v);
    s->l2_pct = ws_sol_l2_pct(g, k->ctr.v, d.time_us);
    s->dram_pct = fmin(100.0, d.dram_pct_of_peak);
    s->achieved_occ_pct = d.achieved_occ_pct;
    ws_sol_launch(g, k, s);
    ws_sol_hints_launch(g, k, s);
    ws_sol_hints_units(k, s);
}

/* ---- text ------------------------------------------------------------- */

static void ws_sol_text_limit(FILE *out, uint32_t n)
{
    if (n == UINT32_MAX)
        fprintf(out, "no limit");
    else
        fprintf(out, "%u", n);
}

static void ws_sol_text_occ(FILE *out, const struct ws_gpu *g,
                            const struct ws_kernel_stats *k,
                            const struct ws_sol *s)
{
    fprintf(out,
            "  occupancy: theoretical %.1f%% (%u CTA%s of %u warp%s in %u "
            "warp slots), achieved %.1f%%; CTAs per SM by",
            s->theoretical_occ_pct, k->occ.ctas_per_sm,
            k->occ.ctas_per_sm == 1 ? "" : "s", k->occ.warps_per_cta,
            k->occ.warps_per_cta == 1 ? "" : "s", g->sm.max_warps,
            s->achieved_occ_pct);
    for (int i = 0; i < WS_OCC_LIMIT_COUNT; i++) {
        fprintf(out, "%s %s ", i ? "," : "",
                ws_occ_limit_name((enum ws_occ_limit)i));
        ws_sol_text_limit(out, k->occ.by_limit[i]);
    }
    fputc('\n', out);
}

void ws_sol_text(FILE *out, const struct ws_gpu *g,
                 const struct ws_kernel_stats *k, const struct ws_sol *s)
{
    int shown = 0;

    fprintf(out,
            "  throughput (%% of peak): L1/shared %.1f%%, interconnect "
            "%.1f%%, L2 %.1f%%, DRAM %.1f%%\n",
            s->l1_pct, s->icnt_pct, s->l2_pct, s->dram_pct);
    fprintf(out, "  pipes (%% of active sub-core cycles):");
    for (int u = 0; u < WS_UNIT_COUNT; u++) {
        if (s->pipe_pct[u] <= 0)
            continue;
        fprintf(out, "%s %s %.1f%%", shown++ ? "," : "",
                ws_unit_name((enum ws_unit_kind)u), s->pipe_pct[u]);
    }
    if (s->busiest >= 0)
        fprintf(out, "; busiest %s\n",
                ws_unit_name((enum ws_unit_kind)s->busiest));
    else
        fprintf(out, " none\n");
    ws_sol_text_occ(out, g, k, s);
    fprintf(out,
            "  launch: %llu CTAs, %.2f waves of %u (last wave %.0f%% full), "
            "tail %.1f%% of the cycles\n",
            (unsigned long long)k->ctas_total, s->waves,
            k->occ.ctas_per_sm * g->sm.count, s->last_wave_pct, s->tail_pct);
    for (int i = 0; i < s->nhints; i++)
        fprintf(out, "  hint: %s\n", s->hint[i]);
}

/* ---- JSON ------------------------------------------------------------- */

/* Each pipe's share under its counter's name (ws_stats.c) as Nsight
 * writes the share: "smsp__pipe_fma_cycles_active.sum" becomes
 * "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active", and
 * "ws__pipe_lsu_cycles_active.sum" keeps its prefix.  Derived, not listed
 * again, so the two names cannot drift apart. */
static void ws_sol_json_pipes(json_t *o, const struct ws_sol *s)
{
    char name[128];

    for (int u = 0; u < WS_UNIT_COUNT; u++) {
        const char *c = ws_ctr_info(WS_CTR_PIPE_FP32_CYCLES + u)->name;
        const char *dot = strrchr(c, '.');
        int smsp = strncmp(c, "smsp__", 6) == 0;
        snprintf(name, sizeof name, "%s%.*s.avg.pct_of_peak_sustained_active",
                 smsp ? "sm__" : "", (int)(dot - c) - (smsp ? 6 : 0),
                 c + (smsp ? 6 : 0));
        json_object_set_new(o, name, json_real(s->pipe_pct[u]));
    }
}

static json_t *ws_sol_json_limits(const struct ws_kernel_stats *k)
{
    static const char *const names[WS_OCC_LIMIT_COUNT] = {
        "launch__occupancy_limit_blocks", "ws__occupancy_limit_threads",
        "launch__occupancy_limit_warps", "launch__occupancy_limit_registers",
        "launch__occupancy_limit_shared_mem"};
    json_t *o = json_object();

    for (int i = 0; i < WS_OCC_LIMIT_COUNT; i++)
        json_object_set_new(o, names[i],
                            k->occ.by_limit[i] == UINT32_MAX
                                ? json_null()
                                : json_integer(k->occ.by_limit[i]));
    return o;
}

json_t *ws_sol_json(const struct ws_gpu *g, const struct ws_kernel_stats *k)
{
    struct ws_sol s;
    json_t *o = json_object(), *hints = json_array();

    ws_sol_derive(g, k, &s);
    ws_sol_json_pipes(o, &s);
    json_object_set_new(o, "ws__busiest_pipe",
                        s.busiest >= 0 ? json_string(
                            ws_unit_name((enum ws_unit_kind)s.busiest))
                                       : json_null());
    json_object_set_new(o, "l1tex__throughput.avg.pct_of_peak_sustained_active",
                        json_real(s.l1_pct));
    json_object_set_new(o,
                        "ws__icnt_throughput.avg.pct_of_peak_sustained_active",
                        json_real(s.icnt_pct));
    json_object_set_new(o, "lts__throughput.avg.pct_of_peak_sustained_elapsed",
                        json_real(s.l2_pct));
    json_object_set_new(o, "dram__throughput.avg.pct_of_peak_sustained_elapsed",
                        json_real(s.dram_pct));
    json_object_set_new(o, "sm__maximum_warps_per_active_cycle_pct",
                        json_real(s.theoretical_occ_pct));
    json_object_set_new(o, "sm__warps_active.avg.pct_of_peak_sustained_active",
                        json_real(s.achieved_occ_pct));
    json_object_set_new(o, "occupancy_limits", ws_sol_json_limits(k));
    json_object_set_new(o, "launch__waves_per_multiprocessor",
                        json_real(s.waves));
    json_object_set_new(o, "ws__last_wave_pct", json_real(s.last_wave_pct));
    json_object_set_new(o, "ws__tail_pct", json_real(s.tail_pct));
    json_object_set_new(o, "ws__grid_sm_pct", json_real(s.grid_sm_pct));
    for (int i = 0; i < s.nhints; i++)
        json_array_append_new(hints, json_string(s.hint[i]));
    json_object_set_new(o, "hints", hints);
    return o;
}
