/*
 * ws_model_result: what a closed-form model leaves for the reports: its
 * prediction (or bound), the regime that produced it, every intermediate
 * by the paper's name, or why it does not apply.  It lives here, below the
 * models, because the reports print it and the folders may not include
 * each other in a cycle (model/ reads mem/ for coalescing, and mem/ counts
 * into stats/); the models fill it (model/ws_model.h).
 */
#ifndef WS_MODEL_RESULT_H
#define WS_MODEL_RESULT_H

#include <jansson.h>

#define WS_MODEL_MAX_VARS 48
#define WS_MODEL_MAX_ELAST 32

struct ws_model_var {
    const char *name; /* a string literal, as in the paper */
    double value;
};

struct ws_model_result {
    const char *model; /* a built-in model's name (its
                                   definition's, model/ws_model_def.h) or
                                   an external model's (owned by its
                                   table) */
    int applies;
    char why[240];   /* when !applies: the assumption that fails */
    double cycles;   /* the prediction (a bound for the roofline) */
    char regime[96]; /* e.g. "memory bound (CWP >= MWP)" */
    /* The kernels the model's authors meant it for: in_domain 1 inside,
     * 0 outside with `domain` saying which assumption fails; `domain`
     * names the domain either way. */
    int in_domain;
    char domain[160];
    int bound; /* a lower bound, not a prediction (a
                                   built-in model's definition says) */
    struct ws_model_var vars[WS_MODEL_MAX_VARS];
    int nvars;
    /* d ln(cycles) / d ln(input) for each input, by central differences
     * (ws_model_params.c); names are the inputs' field names. */
    struct ws_model_var elast[WS_MODEL_MAX_ELAST];
    int nelast;
    /* Names an external model gave its terms (at most 40 of 40 bytes),
     * which vars[] point into. */
    char pool[40 * 41];
};

/* name, applies, kind, domain, and why or cycles, difference from sim
 * (when sim > 0), regime, intermediates and elasticities. */
json_t *ws_model_result_json(const struct ws_model_result *r, double sim);

#endif
