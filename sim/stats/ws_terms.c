/*
 * ws_terms: model terms measured by the simulation (see ws_terms.h).
 */
#include "ws_terms.h"

#include <math.h>
#include <string.h>

#include "util/ws_json.h"

static const struct ws_term_info ws_terms[WS_TERM_COUNT] = {
    [WS_TERM_MWP] = {"MWP", "mwp_cwp", "MWP",
                     "warps with a global/local load in flight, averaged "
                     "over the SM cycles with any in flight"},
    [WS_TERM_MEM_L] = {"Mem_L", "mwp_cwp", "Mem_L",
                       "cycles from a global/local load's issue to its "
                       "data, averaged over the loads (loaded latency)"},
    [WS_TERM_DEPARTURE] = {"Departure_delay", "mwp_cwp", "Departure_delay",
                           "SM cycles with a load in flight per load: the "
                           "spacing of an SM's loads while it waits on "
                           "memory"},
    [WS_TERM_COMP] = {"Comp_cycles", "mwp_cwp", "Comp_cycles",
                      "per warp: resident cycles without a load in flight"},
    [WS_TERM_MEM] = {"Mem_cycles", "mwp_cwp", "Mem_cycles",
                     "per warp: cycles with a load in flight"},
    [WS_TERM_WAVES] = {"waves", "tmm", "passes",
                       "CTAs / (SMs x resident CTAs per SM); TMM counts "
                       "whole passes"},
    [WS_TERM_TAIL_PCT] = {"tail_pct", NULL, NULL,
                          "share of the cycles after a CTA slot was first "
                          "left empty for want of CTAs"},
};

const struct ws_term_info *ws_term_info(enum ws_term t)
{
    return &ws_terms[t];
}

static double ws_terms_ratio(double num, double den)
{
    return den > 0 ? num / den : NAN;
}

void ws_terms_from_counters(const double *v, double slots,
                            double out[WS_TERM_COUNT])
{
    double loads = v[WS_CTR_MEM_LOADS];

    out[WS_TERM_MWP] = ws_terms_ratio(v[WS_CTR_WARP_MEM_CYCLES],
                                      v[WS_CTR_SM_MEM_CYCLES]);
    out[WS_TERM_MEM_L] = ws_terms_ratio(v[WS_CTR_MEM_LOAD_LATENCY], loads);
    out[WS_TERM_DEPARTURE] = ws_terms_ratio(v[WS_CTR_SM_MEM_CYCLES], loads);
    out[WS_TERM_COMP] = ws_terms_ratio(v[WS_CTR_WARP_CYCLES_RESIDENT]
                                           - v[WS_CTR_WARP_MEM_CYCLES],
                                       v[WS_CTR_WARPS]);
    out[WS_TERM_MEM] = ws_terms_ratio(v[WS_CTR_WARP_MEM_CYCLES],
                                      v[WS_CTR_WARPS]);
    out[WS_TERM_WAVES] = ws_terms_ratio(v[WS_CTR_CTAS], slots);
    out[WS_TERM_TAIL_PCT] = ws_terms_ratio(100.0 * v[WS_CTR_TAIL_CYCLES],
                                           v[WS_CTR_CYCLES]);
    if (!(loads > 0))
        for (int t = WS_TERM_MWP; t <= WS_TERM_DEPARTURE; t++)
            out[t] = NAN;
}

void ws_terms_measure(const struct ws_gpu *g, const struct ws_kernel_stats *k,
                      double out[WS_TERM_COUNT])
{
    double v[WS_CTR_COUNT];

    for (int c = 0; c < WS_CTR_COUNT; c++)
        v[c] = (double)k->ctr.v[c];
    ws_terms_from_counters(v, (double)g->sm.count * k->occ.ctas_per_sm, out);
}

double ws_terms_model(const struct ws_kernel_stats *k, enum ws_term t)
{
    const struct ws_term_info *i = &ws_terms[t];

    if (!i->model)
        return NAN;
    for (int m = 0; m < k->nmodels; m++) {
        const struct ws_model_result *r = &k->models[m];
        if (strcmp(r->model, i->model) != 0 || !r->applies)
            continue;
        for (int n = 0; n < r->nvars; n++)
            if (strcmp(r->vars[n].name, i->var) == 0)
                return r->vars[n].value;
    }
    return NAN;
}

static void ws_terms_num(FILE *out, double v)
{
    if (isnan(v))
        fputs("-", out);
    else
        fprintf(out, "%.4g", v);
}

void ws_terms_text(FILE *out, const struct ws_gpu *g,
                   const struct ws_kernel_stats *k)
{
    double meas[WS_TERM_COUNT];

    if (k->nmodels == 0)
        return;
    ws_terms_measure(g, k, meas);
    fputs("  model terms (model / simulation; the model is mwp_cwp, waves "
          "TMM's passes):\n   ",
          out);
    for (int t = 0; t < WS_TERM_COUNT; t++) {
        fprintf(out, " %s ", ws_terms[t].name);
        if (ws_terms[t].model) {
            ws_terms_num(out, ws_terms_model(k, (enum ws_term)t));
            fputs(" / ", out);
        }
        ws_terms_num(out, meas[t]);
        fputs(t == WS_TERM_DEPARTURE  ? "\n   "
              : t + 1 < WS_TERM_COUNT ? ";"
                                      : "\n",
              out);
    }
}

json_t *ws_terms_json(const struct ws_gpu *g, const struct ws_kernel_stats *k)
{
    double meas[WS_TERM_COUNT];
    json_t *o = json_object();

    ws_terms_measure(g, k, meas);
    for (int t = 0; t < WS_TERM_COUNT; t++) {
        json_t *e = json_object();
        json_object_set_new(e, "measured", ws_json_real(meas[t]));
        if (ws_terms[t].model) {
            json_object_set_new(e, "model",
                                ws_json_real(
                                    ws_terms_model(k, (enum ws_term)t)));
            json_object_set_new(e, "model_name",
                                json_string(ws_terms[t].model));
            json_object_set_new(e, "model_term", json_string(ws_terms[t].var));
        }
        json_object_set_new(e, "definition", json_string(ws_terms[t].what));
        json_object_set_new(o, ws_terms[t].name, e);
    }
    return o;
}
