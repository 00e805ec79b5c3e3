/*
 * ws_study_levels: study 4, latency and bandwidth per level on every
 * shipped config (see ws_study.h).
 *
 * Latency: per config and footprint, the cycles per hop are the slope
 * between the chase's two hop counts (both past the cold pass), beside the
 * latency the config cites for that level (l1.latency, l2.latency,
 * dram.latency).  A chase hop also runs the kernel's address arithmetic,
 * a few cycles, and a DRAM hop may meet a refresh or a row conflict, so
 * the simulated figure sits at or a little above the configured one.
 * Bandwidth: STREAM copy and triad as DRAM bytes over kernel time, as a
 * share of the config's peak, beside validate/studies/levels_published.csv.
 *
 * Leaves out: a chase per L1/shared carveout (the chase kernel has no
 * shared memory, so it always gets the most L1).
 */
#include "ws_study.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/ws_config.h"
#include "util/ws_json.h"

#define WS_LEVELS_MAX_GPUS 16
#define WS_LEVELS_PUBLISHED "validate/studies/levels_published.csv"

/* The chase footprints of levels_chase.yaml, in elements of 4 bytes. */
static const double ws_level_elems[3] = {4096, 131072, 134217728};
static const char *const ws_level_names[3] = {"L1", "L2", "DRAM"};

struct ws_levels_gpu {
    char name[32];
    double cfg[3];    /* configured latency per level */
    double peak;      /* GB/s */
    double hop[3][2]; /* cycles at the two hop counts */
    double hops[2];
    double chase[3]; /* cycles per hop */
    double bw[2];    /* copy, triad GB/s; NAN when not run */
    double pub[2];   /* published, NAN when none */
    const char *pub_src[2];
};

struct ws_levels {
    struct ws_levels_gpu g[WS_LEVELS_MAX_GPUS];
    size_t ng;
    struct ws_csv published;
    int have_published;
};

/* The entry for config name, made (with its configured figures) the first
 * time it is met. */
static struct ws_levels_gpu *ws_lv_gpu(struct ws_levels *L, const char *name,
                                       struct ws_err *err)
{
    struct ws_gpu cfg;
    struct ws_levels_gpu *g;

    for (size_t i = 0; i < L->ng; i++)
        if (strcmp(L->g[i].name, name) == 0)
            return &L->g[i];
    if (L->ng == WS_LEVELS_MAX_GPUS || strlen(name) >= sizeof g->name) {
        ws_err_msg(err,
                   "too many configs or too long a name '%.40s' "
                   "(expected at most %d configs)",
                   name, WS_LEVELS_MAX_GPUS);
        return NULL;
    }
    if (ws_cfg_load(&cfg, name, NULL, 0, err) < 0)
        return NULL;
    g = &L->g[L->ng++];
    memset(g, 0, sizeof *g);
    strcpy(g->name, name);
    g->cfg[0] = cfg.l1.enabled ? cfg.l1.latency : cfg.l2.latency;
    g->cfg[1] = cfg.l2.latency;
    g->cfg[2] = cfg.dram.latency;
    g->peak = cfg.dram.bandwidth;
    for (int k = 0; k < 3; k++)
        g->chase[k] = NAN;
    g->bw[0] = g->bw[1] = g->pub[0] = g->pub[1] = NAN;
    return g;
}

static const char *ws_lv_gpu_name(const struct ws_csv *t, size_t row)
{
    long c = ws_csv_col(t, "gpu");

    return c < 0 ? "v100" : ws_csv_cell(t, row, (size_t)c);
}

static int ws_lv_chase(struct ws_levels *L, const struct ws_csv *t,
                       struct ws_err *err)
{
    for (size_t r = 0; r < t->nrows; r++) {
        struct ws_levels_gpu *g;
        double elems, hops, cycles;
        int lv = -1, h;
        if (!ws_csv_row_ok(t, r))
            continue;
        if (ws_csv_number_named(t, r, "param.elems", &elems, err) < 0
            || ws_csv_number_named(t, r, "param.hops", &hops, err) < 0
            || ws_csv_number_named(t, r, "cycles", &cycles, err) < 0
            || !(g = ws_lv_gpu(L, ws_lv_gpu_name(t, r), err)))
            return -1;
        for (int k = 0; k < 3; k++)
            if (elems == ws_level_elems[k])
                lv = k;
        if (lv < 0)
            continue;
        h = g->hops[0] == 0 || g->hops[0] == hops ? 0 : 1;
        g->hops[h] = hops;
        g->hop[lv][h] = cycles;
    }
    for (size_t i = 0; i < L->ng; i++) {
        struct ws_levels_gpu *g = &L->g[i];
        for (int k = 0; k < 3 && g->hops[1] != g->hops[0]; k++)
            if (g->hop[k][0] > 0 && g->hop[k][1] > 0)
                g->chase[k] = (g->hop[k][1] - g->hop[k][0])
                              / (g->hops[1] - g->hops[0]);
    }
    return 0;
}

static int ws_lv_stream(struct ws_levels *L, const struct ws_csv *t, int k,
                        struct ws_err *err)
{
    for (size_t r = 0; r < t->nrows; r++) {
        struct ws_levels_gpu *g;
        double gbps;
        if (!ws_csv_row_ok(t, r))
            continue;
        if (ws_csv_number_named(t, r, "dram_gbps", &gbps, err) < 0
            || !(g = ws_lv_gpu(L, ws_lv_gpu_name(t, r), err)))
            return -1;
        g->bw[k] = gbps;
    }
    return 0;
}

static void ws_lv_published(struct ws_levels *L)
{
    const struct ws_csv *p = &L->published;
    long cg = ws_csv_col(p, "gpu"), ck = ws_csv_col(p, "kernel");
    long cv = ws_csv_col(p, "gbps"), cs = ws_csv_col(p, "source");

    if (cg < 0 || ck < 0 || cv < 0 || cs < 0)
        return;
    for (size_t r = 0; r < p->nrows; r++)
        for (size_t i = 0; i < L->ng; i++) {
            struct ws_levels_gpu *g = &L->g[i];
            const char *k = ws_csv_cell(p, r, (size_t)ck);
            int which = strcmp(k, "copy") == 0    ? 0
                        : strcmp(k, "triad") == 0 ? 1
                                                  : -1;
            if (which < 0 || strcmp(g->name, ws_csv_cell(p, r, (size_t)cg)))
                continue;
            g->pub[which] = strtod(ws_csv_cell(p, r, (size_t)cv), NULL);
            g->pub_src[which] = ws_csv_cell(p, r, (size_t)cs);
        }
}

/* ---- report ----------------------------------------------------------------- */

static void ws_lv_cell(FILE *out, double v, const char *fmt)
{
    if (isnan(v))
        fputs(" | -", out);
    else
        fprintf(out, fmt, v);
}

static void ws_lv_latency_table(FILE *out, const struct ws_levels *L)
{
    fprintf(
        out,
        "## Latency per level (cycles per dependent hop)\n\n"
        "| config | L1 chase | L1 configured | L2 chase | L2 configured "
        "| DRAM chase | DRAM configured |\n|---|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < L->ng; i++) {
        const struct ws_levels_gpu *g = &L->g[i];
        fprintf(out, "| %s", g->name);
        for (int k = 0; k < 3; k++) {
            ws_lv_cell(out, g->chase[k], " | %.1f");
            fprintf(out, " | %.0f", g->cfg[k]);
        }
        fputs(" |\n", out);
    }
}

static void ws_lv_bandwidth_table(FILE *out, const struct ws_levels *L)
{
    static const char *const kern[2] = {"copy", "triad"};

    fprintf(out,
            "\n## STREAM bandwidth (DRAM bytes over kernel time)\n\n"
            "| config | kernel | simulated GB/s | share of peak | published "
            "GB/s | simulated vs published |\n|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < L->ng; i++)
        for (int k = 0; k < 2; k++) {
            const struct ws_levels_gpu *g = &L->g[i];
            if (isnan(g->bw[k]))
                continue;
            fprintf(out, "| %s | %s | %.0f | %.1f %%", g->name, kern[k],
                    g->bw[k], 100 * g->bw[k] / g->peak);
            ws_lv_cell(out, g->pub[k], " | %.1f");
            ws_lv_cell(out, 100 * (g->bw[k] / g->pub[k] - 1), " | %+.1f %%");
            fputs(" |\n", out);
        }
    fprintf(out, "\nPublished figures (FP64; the simulated kernels are FP32 "
                 "one element per thread):\n\n");
    for (size_t i = 0; i < L->ng; i++)
        for (int k = 0; k < 2; k++)
            if (L->g[i].pub_src[k] && !isnan(L->g[i].bw[k]))
                fprintf(out, "- %s %s: %s\n", L->g[i].name, kern[k],
                        L->g[i].pub_src[k]);
}

/* How far the chases sit from the configured latencies, and the streams
 * from the published figures: the findings and the summary's flags. */
struct ws_lv_stats {
    double cache_lo, cache_hi; /* chase - configured, L1 and L2, cycles */
    double worst_dram, worst_pub;
    size_t npub;
};

static struct ws_lv_stats ws_lv_stats(const struct ws_levels *L)
{
    struct ws_lv_stats s = {INFINITY, -INFINITY, 0, 0, 0};

    for (size_t i = 0; i < L->ng; i++) {
        const struct ws_levels_gpu *g = &L->g[i];
        for (int k = 0; k < 2; k++) {
            double d = g->chase[k] - g->cfg[k];
            if (isnan(d))
                continue;
            s.cache_lo = d < s.cache_lo ? d : s.cache_lo;
            s.cache_hi = d > s.cache_hi ? d : s.cache_hi;
        }
        if (!isnan(g->chase[2])
            && fabs(g->chase[2] / g->cfg[2] - 1) > s.worst_dram)
            s.worst_dram = fabs(g->chase[2] / g->cfg[2] - 1);
        for (int k = 0; k < 2; k++) {
            double off = fabs(g->bw[k] / g->pub[k] - 1);
            if (isnan(off))
                continue;
            s.npub++;
            if (off > s.worst_pub)
                s.worst_pub = off;
        }
    }
    return s;
}

static void ws_lv_findings(FILE *out, const struct ws_lv_stats *s)
{
    fprintf(out,
            "\n## Findings\n\nChases pay the configured latency: the "
            "L1 and L2 hops sit %.1f to %.1f cycles above the latency each "
            "config cites (the chase kernel's own address arithmetic between "
            "loads: one dependent integer operation, units.int.latency), and "
            "DRAM hops within "
            "%.1f %% of it (a hop that lands in a bank's refresh, or on "
            "another row of a bank in use, pays more; dram.latency is a "
            "closed bank's).",
            s->cache_lo, s->cache_hi, 100 * s->worst_dram);
    if (s->npub)
        fprintf(out,
                " STREAM is within %.1f %% of every published figure "
                "the configs cite (%zu comparisons); the DRAM model is not "
                "fitted to them.\n",
                100 * s->worst_pub, s->npub);
    else
        fprintf(out, " No config here has a published STREAM figure.\n");
}

static json_t *ws_lv_summary(const struct ws_levels *L,
                             const struct ws_lv_stats *s)
{
    json_t *gpus = json_array();

    for (size_t i = 0; i < L->ng; i++) {
        const struct ws_levels_gpu *g = &L->g[i];
        json_t *o = json_pack("{s:s,s:f}", "gpu", g->name, "peak_gbps",
                              g->peak);
        for (int k = 0; k < 3; k++) {
            char key[32];
            snprintf(key, sizeof key, "chase_%s", ws_level_names[k]);
            json_object_set_new(o, key, ws_json_real(g->chase[k]));
            snprintf(key, sizeof key, "configured_%s", ws_level_names[k]);
            json_object_set_new(o, key, json_real(g->cfg[k]));
        }
        json_object_set_new(o, "copy_gbps", ws_json_real(g->bw[0]));
        json_object_set_new(o, "triad_gbps", ws_json_real(g->bw[1]));
        json_array_append_new(gpus, o);
    }
    return json_pack("{s:s,s:o,s:f,s:f,s:f,s:f,s:I}", "study", "levels",
                     "configs", gpus, "cache_chase_minus_configured_min",
                     isfinite(s->cache_lo) ? s->cache_lo : 0,
                     "cache_chase_minus_configured_max",
                     isfinite(s->cache_hi) ? s->cache_hi : 0,
                     "worst_dram_chase_off", s->worst_dram,
                     "worst_published_off", s->worst_pub, "published_compared",
                     (json_int_t)s->npub);
}

int ws_study_levels(const struct ws_csv *const *t, size_t n,
                    struct ws_study_out *o, struct ws_err *err)
{
    struct ws_levels *L = calloc(1, sizeof *L);
    struct ws_lv_stats st;
    size_t len = 0;
    FILE *out;
    int rc = 0;

    memset(o, 0, sizeof *o);
    if (!L)
        return ws_err_oom(err);
    if (n != 3)
        rc = ws_err_msg(err, "the levels study takes 3 tables (expected "
                             "chase, copy and triad)");
    if (rc == 0)
        rc = ws_lv_chase(L, t[0], err);
    if (rc == 0)
        rc = ws_lv_stream(L, t[1], 0, err);
    if (rc == 0)
        rc = ws_lv_stream(L, t[2], 1, err);
    if (rc == 0
        && ws_csv_load(&L->published, WS_LEVELS_PUBLISHED, 0, 0, err) == 0) {
        L->have_published = 1;
        ws_lv_published(L);
    } else if (rc == 0) {
        rc = -1;
    }
    if (rc == 0 && !(out = open_memstream(&o->report, &len)))
        rc = ws_err_oom(err);
    if (rc == 0) {
        st = ws_lv_stats(L);
        fprintf(out,
                "# Study 4: latency and bandwidth per level\n\n"
                "%zu configs. Chase footprints: 16 KiB (L1), 512 KiB (L2), "
                "512 MiB with hops 1 MiB + 128 B apart (DRAM). STREAM: "
                "FP32, see the sweeps for the array size.\n\n",
                L->ng);
        ws_lv_latency_table(out, L);
        ws_lv_bandwidth_table(out, L);
        ws_lv_findings(out, &st);
        if (fclose(out) != 0)
            rc = ws_err_oom(err);
        else if (!(o->summary = ws_lv_summary(L, &st)))
            rc = ws_err_oom(err);
    }
    if (L->have_published)
        ws_csv_free(&L->published);
    free(L);
    if (rc < 0)
        ws_study_out_free(o);
    return rc;
}
