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

#define WS_MODEL_MAX_VARS 48

struct ws_model_var {
    const char *name;           /* a string literal, as in the paper */
    double value;
};

struct ws_model_result {
    const char *model;          /* "mwp_cwp", "mwp_cwp_l2", "tmm", "roofline" */
    int applies;
    char why[240];              /* when !applies: the assumption that fails */
    double cycles;              /* the prediction (a bound for the roofline) */
    char regime[96];            /* e.g. "memory bound (CWP >= MWP)" */
    struct ws_model_var vars[WS_MODEL_MAX_VARS];
    int nvars;
};

#endif
