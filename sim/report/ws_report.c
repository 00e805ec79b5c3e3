/*
 * ws_report: run summaries (see ws_report.h).
 */
#include "ws_report.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/ws_demangle.h"
#include "util/ws_utf8.h"
#include "stats/ws_terms.h"
#include "trace/ws_opcode.h"
#include "ws_app_summary.h"
#include "ws_compare_fmt.h"
#include "ws_sol.h"

static double ws_pct(uint64_t num, uint64_t den)
{
    return den ? 100.0 * (double)num / (double)den : 0.0;
}

void ws_report_derive(const struct ws_gpu *g, const struct ws_counters *c,
                      struct ws_derived *d)
{
    const uint64_t *v = c->v;
    double cycles = (double)v[WS_CTR_CYCLES];
    uint64_t sm_cycles = v[WS_CTR_CYCLES] * g->sm.count;

    memset(d, 0, sizeof *d);
    d->time_us = cycles / g->core_mhz;
    d->ipc = cycles > 0 ? (double)v[WS_CTR_INST] / cycles : 0.0;
    d->ipc_per_sm = d->ipc / g->sm.count;
    d->issue_util_pct = ws_pct(v[WS_CTR_ISSUE_CYCLES],
                               sm_cycles * g->sm.sub_cores);
    d->sm_util_pct = ws_pct(v[WS_CTR_SM_CYCLES_ACTIVE], sm_cycles);
    d->achieved_occ_pct = ws_pct(v[WS_CTR_WARP_CYCLES_RESIDENT],
                                 v[WS_CTR_SM_CYCLES_ACTIVE] * g->sm.max_warps);
    d->l1_hit_pct = ws_pct(v[WS_CTR_L1_SECTOR_HITS],
                           v[WS_CTR_L1_SECTOR_HITS]
                               + v[WS_CTR_L1_SECTOR_MISSES]);
    d->l2_hit_pct = ws_pct(v[WS_CTR_L2_SECTOR_HITS],
                           v[WS_CTR_L2_SECTOR_HITS]
                               + v[WS_CTR_L2_SECTOR_MISSES]);
    /* Effective bandwidth, the "Timing and Bandwidth Calculation" notes: bytes read plus written over time. */
    if (d->time_us > 0)
        d->dram_gbps = (double)(v[WS_CTR_DRAM_BYTES_READ]
                                + v[WS_CTR_DRAM_BYTES_WRITE])
                       / (d->time_us * 1000.0);
    d->dram_pct_of_peak = 100.0 * d->dram_gbps / g->dram.bandwidth;
}

/* ---- text ------------------------------------------------------------- */

static const char *ws_carveout_why(const struct ws_occupancy *occ)
{
    if (strcmp(occ->carveout_by, "driver") == 0)
        return "carveout chosen as the driver does";
    if (strcmp(occ->carveout_by, "l1.carveout") == 0)
        return "carveout set by l1.carveout";
    return "fixed split";
}

/* A stall share; "function unit busy" names the unit busiest over the
 * kernel (busiest, from report/ws_sol.h; -1 when none), the one its warps
 * most likely waited for. */
static void ws_text_stall(FILE *out, enum ws_ctr which, int busiest, double pct,
                          int first)
{
    fprintf(out, "%s %s", first ? "" : ",", ws_ctr_info(which)->what);
    if (which == WS_CTR_STALL_UNIT_BUSY && busiest >= 0)
        fprintf(out, " (busiest: %s)",
                ws_unit_name((enum ws_unit_kind)busiest));
    fprintf(out, " %.1f%%", pct);
}

static void ws_text_stalls(FILE *out, const struct ws_counters *c, int busiest)
{
    enum ws_ctr best[3] = {WS_CTR_COUNT, WS_CTR_COUNT, WS_CTR_COUNT};
    uint64_t total = 0;

    for (int i = WS_CTR_STALL_MEM_DEP; i <= WS_CTR_STALL_NO_INST; i++) {
        total += c->v[i];
        for (int r = 0; r < 3; r++) {
            if (best[r] == WS_CTR_COUNT || c->v[i] > c->v[best[r]]) {
                for (int j = 2; j > r; j--)
                    best[j] = best[j - 1];
                best[r] = (enum ws_ctr)i;
                break;
            }
        }
    }
    fprintf(out, "  stalls (share of stalled warp cycles):");
    if (total == 0) {
        fprintf(out, " none\n");
        return;
    }
    for (int i = 0; i < 3; i++)
        if (best[i] != WS_CTR_COUNT && c->v[best[i]])
            ws_text_stall(out, best[i], busiest, ws_pct(c->v[best[i]], total),
                          i == 0);
    fprintf(out, "\n");
}

static void ws_text_models(FILE *out, const struct ws_gpu *g,
                           const struct ws_kernel_stats *k);

/* How issue decided, when the config issues by control bits: the share
 * of warp instructions whose listing gave them (a trace borrows them with
 * --listing), and the SM-core structures' toll. */
static void ws_text_core(FILE *out, const struct ws_gpu *g, const uint64_t *v)
{
    if (!g->sched.control_bits && !g->regfile.banks && !g->icache.l0_size)
        return;
    fprintf(out,
            "  issue: by control bits %.1f%% of warp instructions (the "
            "listing's encodings; the rest by the scoreboard), register-bank "
            "bubbles %llu cycles, reuse-cache hits %llu, L0 i-cache misses "
            "%llu (%llu from the stream buffer)\n",
            v[WS_CTR_INST] ? 100.0 * (double)v[WS_CTR_INST_CONTROL]
                                 / (double)v[WS_CTR_INST]
                           : 0.0,
            (unsigned long long)v[WS_CTR_RF_BANK_BUBBLES],
            (unsigned long long)v[WS_CTR_RFC_HITS],
            (unsigned long long)v[WS_CTR_ICACHE_MISSES],
            (unsigned long long)v[WS_CTR_ICACHE_PREFETCH_HITS]);
}

/* Hopper's asynchronous units, when the kernel used them: the tensor
 * pipe's share of the SMs' active cycles held by wgmma (its four quarters
 * each count a quarter), the copy engines' traffic, the mbarrier waits. */
static void ws_text_async(FILE *out, const uint64_t *v)
{
    double quarters = 4.0 * (double)v[WS_CTR_SM_CYCLES_ACTIVE];

    if (!v[WS_CTR_WGMMA_INST] && !v[WS_CTR_TMA_OPS] && !v[WS_CTR_MBAR_WAITS]
        && !v[WS_CTR_MBAR_REPLAYED])
        return;
    fprintf(out,
            "  async: wgmma %llu (tensor pipe busy %.1f%% of active SM "
            "cycles), TMA %llu copies of %llu B, mbarrier waits %llu held "
            "(%llu warp-cycles), %llu replayed as traced\n",
            (unsigned long long)v[WS_CTR_WGMMA_INST],
            quarters > 0
                ? 100.0 * (double)v[WS_CTR_WGMMA_PIPE_CYCLES] / quarters
                : 0.0,
            (unsigned long long)v[WS_CTR_TMA_OPS],
            (unsigned long long)v[WS_CTR_TMA_BYTES],
            (unsigned long long)v[WS_CTR_MBAR_WAITS],
            (unsigned long long)v[WS_CTR_MBAR_WAIT_CYCLES],
            (unsigned long long)v[WS_CTR_MBAR_REPLAYED]);
}

static void ws_text_kernel(FILE *out, const struct ws_gpu *g,
                           const struct ws_kernel_stats *k, int mangled)
{
    const struct ws_launch *l = &k->launch;
    const uint64_t *v = k->ctr.v;
    struct ws_derived d;
    struct ws_sol sol;
    char *shown = mangled ? NULL : ws_demangle(k->name);

    ws_report_derive(g, &k->ctr, &d);
    ws_sol_derive(g, k, &sol);
    /* The name is input text: control characters escaped, not sent to the
     * terminal. */
    fprintf(out, "\nkernel %u: ", l->id);
    ws_compare_fmt_put(out, shown ? shown : k->name);
    fprintf(out, "  grid (%u,%u,%u) block (%u,%u,%u)\n", l->grid[0], l->grid[1],
            l->grid[2], l->block[0], l->block[1], l->block[2]);
    free(shown);
    fprintf(out, "  cycles %llu (%.2f us at %.0f MHz)\n",
            (unsigned long long)v[WS_CTR_CYCLES], d.time_us, g->core_mhz);
    fprintf(out,
            "  warp instructions %llu  IPC %.3f (%.4f per SM)  issue "
            "utilization %.1f%%\n",
            (unsigned long long)v[WS_CTR_INST], d.ipc, d.ipc_per_sm,
            d.issue_util_pct);
    fprintf(out,
            "  occupancy %u CTAs/SM (limited by %s), achieved %.1f%% of "
            "%u warps; SM utilization %.1f%%\n",
            k->occ.ctas_per_sm, ws_occ_limit_name(k->occ.limit),
            d.achieved_occ_pct, g->sm.max_warps, d.sm_util_pct);
    fprintf(out, "  L1 %.4g KiB, shared memory %.4g KiB per SM (%s)\n",
            k->occ.l1_size / 1024.0, k->occ.carveout / 1024.0,
            ws_carveout_why(&k->occ));
    ws_text_stalls(out, &k->ctr, sol.busiest);
    ws_text_core(out, g, v);
    if (v[WS_CTR_INST_UNKNOWN])
        fprintf(out,
                "  warning: %llu warp instructions of unknown opcodes "
                "simulated as %s: %s\n",
                (unsigned long long)v[WS_CTR_INST_UNKNOWN],
                ws_opcode_class_name((enum ws_op_class)g->unknown_class),
                k->unknown_ops);
    fprintf(out,
            "  L1 hit rate %.1f%%  L2 hit rate %.1f%%  shared bank "
            "conflicts %llu\n",
            d.l1_hit_pct, d.l2_hit_pct,
            (unsigned long long)v[WS_CTR_SHARED_BANK_CONFLICTS]);
    fprintf(out,
            "  DRAM read %llu B, written %llu B: %.1f GB/s, %.1f%% of "
            "the %.0f GB/s peak\n",
            (unsigned long long)v[WS_CTR_DRAM_BYTES_READ],
            (unsigned long long)v[WS_CTR_DRAM_BYTES_WRITE], d.dram_gbps,
            d.dram_pct_of_peak, g->dram.bandwidth);
    ws_sol_text(out, g, k, &sol);
    ws_text_async(out, v);
    ws_text_models(out, g, k);
}

/* The simulation's cycles against a model's: positive when the model
 * predicts more. */
static double ws_model_diff_pct(const struct ws_model_result *m, uint64_t sim)
{
    return sim ? (m->cycles - (double)sim) / (double)sim * 100.0 : 0;
}

/* Whether the kernel lies in the domain the model's authors meant it
 * for: a number outside it is reported, but is not the model's claim. */
static void ws_text_domain(FILE *out, const struct ws_model_result *m)
{
    if (m->bound)
        fprintf(out, "      [a bound: %s]\n", m->domain);
    else if (m->in_domain)
        fprintf(out, "      [in its domain: %s]\n", m->domain);
    else
        fprintf(out, "      [outside its domain: %s]\n", m->domain);
}

static void ws_text_models(FILE *out, const struct ws_gpu *g,
                           const struct ws_kernel_stats *k)
{
    uint64_t sim = k->ctr.v[WS_CTR_CYCLES];

    if (k->nmodels == 0)
        return;
    fprintf(out, "  models (cycles; difference from the simulation):\n");
    for (int i = 0; i < k->nmodels; i++) {
        const struct ws_model_result *m = &k->models[i];
        if (!m->applies)
            fprintf(out, "    %-16s does not apply: %s\n", m->model, m->why);
        else if (m->bound && m->cycles >= 1)
            fprintf(out,
                    "    %-16s >= %.0f (a bound; simulation %.2fx it)  "
                    "%s\n",
                    m->model, m->cycles, (double)sim / m->cycles, m->regime);
        else if (m->bound)
            fprintf(out, "    %-16s >= %.3g (a bound below one cycle)  %s\n",
                    m->model, m->cycles, m->regime);
        else
            fprintf(out, "    %-16s %.0f (%+.1f%%)  %s\n", m->model, m->cycles,
                    ws_model_diff_pct(m, sim), m->regime);
        ws_text_domain(out, m);
    }
    ws_terms_text(out, g, k);
}

/* The config's overrides under the header: a run with --set is not the
 * named GPU, and the header must not let it pass for one. */
static void ws_text_overrides(FILE *out, const struct ws_provenance *p)
{
    if (!p || p->nsets == 0)
        return;
    fprintf(out, "  config %s with",
            p->gpu_arg ? p->gpu_arg : ws_cfg_default_name());
    for (int i = 0; i < p->nsets; i++)
        fprintf(out, "%s --set %s", i ? "," : "", p->sets[i]);
    fputc('\n', out);
}

void ws_report_text(FILE *out, const struct ws_run_report *r)
{
    struct ws_counters total;
    uint64_t inst = 0;

    memset(&total, 0, sizeof total);
    fprintf(out, "warpsim run %s on %s (%u SMs, %.0f MHz)\n", r->input,
            r->gpu->name, r->gpu->sm.count, r->gpu->core_mhz);
    ws_text_overrides(out, r->prov);
    for (size_t i = 0; i < r->nkernels; i++) {
        ws_text_kernel(out, r->gpu, &r->kernels[i], r->mangled);
        inst += r->kernels[i].ctr.v[WS_CTR_INST];
    }
    ws_app_summary_text(out, r);
    fprintf(out,
            "\ntotal: %zu kernel%s, %llu cycles (%.2f us, launch "
            "overheads included), %llu warp instructions\n",
            r->nkernels, r->nkernels == 1 ? "" : "s",
            (unsigned long long)r->total_cycles,
            (double)r->total_cycles / r->gpu->core_mhz,
            (unsigned long long)inst);
}

/* ---- JSON -------------------------------------------------------------- */

/* Strings from input text (kernel names, paths, the config's name) go
 * through ws_utf8: jansson drops a key whose string is not UTF-8. */

static json_t *ws_json_counters(const struct ws_counters *c)
{
    json_t *o = json_object();

    for (int i = 0; i < WS_CTR_COUNT; i++) {
        const struct ws_ctr_info *info = ws_ctr_info((enum ws_ctr)i);
        json_object_set_new(o, info->name,
                            json_pack("{s:I,s:s,s:s,s:s}", "value",
                                      (json_int_t)c->v[i], "unit", info->unit,
                                      "group", ws_group_name(info->group),
                                      "description", info->what));
    }
    return o;
}

static json_t *ws_json_derived(const struct ws_gpu *g,
                               const struct ws_counters *c)
{
    struct ws_derived d;

    ws_report_derive(g, c, &d);
    return json_pack("{s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:f}", "time_us",
                     d.time_us, "ipc", d.ipc, "ipc_per_sm", d.ipc_per_sm,
                     "issue_utilization_pct", d.issue_util_pct,
                     "sm_utilization_pct", d.sm_util_pct,
                     "sm__warps_active.avg.pct_of_peak_sustained_active",
                     d.achieved_occ_pct,
                     "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct",
                     d.l1_hit_pct, "lts__t_sector_hit_rate.pct", d.l2_hit_pct,
                     "dram_effective_gbps", d.dram_gbps, "dram_pct_of_peak",
                     d.dram_pct_of_peak);
}

/* Every model with every intermediate, by the papers' names. */
static json_t *ws_json_models(const struct ws_kernel_stats *k)
{
    json_t *a = json_array();

    for (int i = 0; i < k->nmodels; i++)
        json_array_append_new(
            a, ws_model_result_json(&k->models[i],
                                    (double)k->ctr.v[WS_CTR_CYCLES]));
    return a;
}

void ws_report_json_launch(struct json_t *o, struct json_t *id,
                           const char *name, const struct ws_launch *l)
{
    json_object_set_new(o, "id", id);
    json_object_set_new(o, "name", ws_utf8_json_string(name));
    json_object_set_new(o, "grid",
                        json_pack("[III]", (json_int_t)l->grid[0],
                                  (json_int_t)l->grid[1],
                                  (json_int_t)l->grid[2]));
    json_object_set_new(o, "block",
                        json_pack("[III]", (json_int_t)l->block[0],
                                  (json_int_t)l->block[1],
                                  (json_int_t)l->block[2]));
}

static json_t *ws_json_demangled(const char *name)
{
    char *shown = ws_demangle(name);
    json_t *j = shown ? ws_utf8_json_string(shown) : json_null();

    free(shown);
    return j;
}

static json_t *ws_json_kernel(const struct ws_gpu *g,
                              const struct ws_kernel_stats *k)
{
    const struct ws_launch *l = &k->launch;
    json_t *o = json_object();

    ws_report_json_launch(o, json_integer(l->id), k->name, l);
    json_object_set_new(o, "demangled", ws_json_demangled(k->name));
    json_object_set_new(o, "start_cycle", json_integer((json_int_t)k->start));
    json_object_set_new(
        o, "occupancy",
        json_pack("{s:I,s:s,s:I,s:I,s:I,s:I,"
                  "s:s}",
                  "ctas_per_sm", (json_int_t)k->occ.ctas_per_sm, "limit",
                  ws_occ_limit_name(k->occ.limit), "registers_per_cta",
                  (json_int_t)k->occ.regs_per_cta, "shared_bytes_per_cta",
                  (json_int_t)k->occ.shared_per_cta, "shared_carveout_bytes",
                  (json_int_t)k->occ.carveout, "l1_bytes",
                  (json_int_t)k->occ.l1_size, "carveout_chosen_by",
                  k->occ.carveout_by));
    if (k->unknown_ops[0])
        json_object_set_new(o, "unknown_opcodes",
                            ws_utf8_json_string(k->unknown_ops));
    json_object_set_new(o, "derived", ws_json_derived(g, &k->ctr));
    json_object_set_new(o, "speed_of_light", ws_sol_json(g, k));
    json_object_set_new(o, "counters", ws_json_counters(&k->ctr));
    if (k->nmodels) {
        json_object_set_new(o, "models", ws_json_models(k));
        json_object_set_new(o, "model_terms", ws_terms_json(g, k));
    }
    return o;
}

static json_t *ws_json_strings(const char *const *v, int n)
{
    json_t *a = json_array();

    for (int i = 0; i < n; i++)
        json_array_append_new(a, ws_utf8_json_string(v[i]));
    return a;
}

/* "provenance": what produced this file.  WS_COMMIT is the source
 * commit the build was configured from ("unknown" outside a git
 * checkout); tests drop that one line before comparing. */
static json_t *ws_json_provenance(const struct ws_provenance *p)
{
    json_t *o = json_object(), *files = json_array();

    json_object_set_new(o, "version", json_string(WS_VERSION));
    json_object_set_new(o, "commit", json_string(WS_COMMIT));
    json_object_set_new(o, "config",
                        ws_utf8_json_string(
                            p->gpu_arg ? p->gpu_arg : ws_cfg_default_name()));
    json_object_set_new(o, "overrides", ws_json_strings(p->sets, p->nsets));
    json_object_set_new(o, "config_hash", json_string(p->config_hash));
    json_object_set_new(o, "params", ws_json_strings(p->params, p->nparams));
    if (p->listing)
        json_object_set_new(o, "listing", ws_utf8_json_string(p->listing));
    for (size_t i = 0; i < p->nfiles; i++) {
        json_t *f = json_object();
        json_object_set_new(f, "path", ws_utf8_json_string(p->files[i].path));
        json_object_set_new(f, "bytes",
                            json_integer((json_int_t)p->files[i].bytes));
        json_object_set_new(f, "xxh3_128", json_string(p->files[i].hash));
        json_array_append_new(files, f);
    }
    json_object_set_new(o, "inputs", files);
    return o;
}

char *ws_report_json(const struct ws_run_report *r)
{
    json_t *root = json_object(), *ks = json_array();
    char *text;

    json_object_set_new(root, "schema_version",
                        json_integer(WS_REPORT_SCHEMA_VERSION));
    json_object_set_new(root, "tool", json_string("warpsim " WS_VERSION));
    json_object_set_new(root, "input", ws_utf8_json_string(r->input));
    json_object_set_new(root, "gpu", ws_utf8_json_string(r->gpu->name));
    if (r->prov)
        json_object_set_new(root, "provenance", ws_json_provenance(r->prov));
    json_object_set_new(root, "warnings",
                        ws_json_strings(r->warnings, (int)r->nwarnings));
    json_object_set_new(root, "total_cycles",
                        json_integer((json_int_t)r->total_cycles));
    for (size_t i = 0; i < r->nkernels; i++)
        json_array_append_new(ks, ws_json_kernel(r->gpu, &r->kernels[i]));
    json_object_set_new(root, "kernels", ks);
    json_object_set_new(root, "application", ws_app_summary_json(r));
    text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER
                                | JSON_REAL_PRECISION(10));
    json_decref(root);
    return text;
}

/* ---- CSV --------------------------------------------------------------- */

/* A CSV field in double quotes, inner quotes doubled (RFC 4180). */
static void ws_csv_quoted(FILE *out, const char *text)
{
    fputc('"', out);
    for (; *text; text++) {
        if (*text == '"')
            fputc('"', out);
        fputc(*text, out);
    }
    fputc('"', out);
}

/* One column per model; empty where the model does not apply. */
static void ws_csv_models(FILE *out, const struct ws_kernel_stats *k)
{
    for (int m = 0; m < k->nmodels; m++) {
        if (k->models[m].applies)
            fprintf(out, ",%.1f", k->models[m].cycles);
        else
            fputc(',', out);
    }
    fputc('\n', out);
}

char *ws_report_csv(const struct ws_run_report *r)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);

    if (!out)
        return NULL;
    fprintf(out,
            "kernel_id,kernel,gpu,cycles,time_us,warp_instructions,ipc,"
            "ctas_per_sm,occupancy_limit,achieved_occupancy_pct,l1_hit_pct,"
            "l2_hit_pct,dram_read_bytes,dram_write_bytes,dram_gbps,"
            "dram_pct_of_peak,config_hash");
    for (int m = 0; r->nkernels && m < r->kernels[0].nmodels; m++)
        fprintf(out, ",%s_cycles", r->kernels[0].models[m].model);
    fputc('\n', out);
    for (size_t i = 0; i < r->nkernels; i++) {
        const struct ws_kernel_stats *k = &r->kernels[i];
        struct ws_derived d;
        ws_report_derive(r->gpu, &k->ctr, &d);
        fprintf(out, "%u,", k->launch.id);
        ws_csv_quoted(out, k->name);
        fputc(',', out);
        ws_csv_quoted(out, r->gpu->name);
        fprintf(out,
                ",%llu,%.3f,%llu,%.4f,%u,%s,%.2f,%.2f,%.2f,%llu,%llu,"
                "%.2f,%.2f",
                (unsigned long long)k->ctr.v[WS_CTR_CYCLES], d.time_us,
                (unsigned long long)k->ctr.v[WS_CTR_INST], d.ipc,
                k->occ.ctas_per_sm, ws_occ_limit_name(k->occ.limit),
                d.achieved_occ_pct, d.l1_hit_pct, d.l2_hit_pct,
                (unsigned long long)k->ctr.v[WS_CTR_DRAM_BYTES_READ],
                (unsigned long long)k->ctr.v[WS_CTR_DRAM_BYTES_WRITE],
                d.dram_gbps, d.dram_pct_of_peak);
        fprintf(out, ",%s", r->prov ? r->prov->config_hash : "");
        ws_csv_models(out, k);
    }
    if (fclose(out) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}
