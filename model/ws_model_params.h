/*
 * ws_model_params: every model's parameters from a kernel profile and a GPU
 * config, never typed in by hand and never read from the simulator.  Each
 * derivation says in a comment which paper quantity it stands for and how
 * it maps onto a GPU with sub-cores, sectored caches and an L2 the papers'
 * GPUs did not all have (ws_model_params.c); and the table of the models
 * by name, their inputs by field, evaluation and elasticities
 * (ws_model_table.c).
 *
 * Leaves out: the models themselves (ws_model_*.c).
 */
#ifndef WS_MODEL_PARAMS_H
#define WS_MODEL_PARAMS_H

#include "config/ws_config.h"
#include "ws_model.h"
#include "ws_profile.h"

enum ws_model_kind {
    WS_MODEL_MWP,
    WS_MODEL_MWP_L2,
    WS_MODEL_MWP_L2_REUSE,
    WS_MODEL_TMM,
    WS_MODEL_ROOFLINE,
    WS_MODEL_QROOFLINE,
    WS_MODEL_AIQ,
    WS_MODEL_COUNT
};

/* A built-in model's name ("mwp_cwp", ...); -1 for another name. */
int ws_model_find(const char *name);
const char *ws_model_name(enum ws_model_kind kind);
/* One line on what it is, for help texts. */
const char *ws_model_what(enum ws_model_kind kind);
/* "mwp_cwp, mwp_cwp_l2, ..." for messages. */
const char *ws_model_names(void);

void ws_model_params_mwp(const struct ws_profile *p, const struct ws_gpu *g,
                         struct ws_mwp_params *out);
void ws_model_params_tmm(const struct ws_profile *p, const struct ws_gpu *g,
                         struct ws_tmm_params *out);
/* l2_may_be_warm: a host-to-device copy or an earlier kernel may have left
 * the kernel's data in L2, so only what cannot fit there must come from
 * DRAM. */
void ws_model_params_roofline(const struct ws_profile *p,
                              const struct ws_gpu *g, int l2_may_be_warm,
                              struct ws_roofline_params *out);
void ws_model_params_qroofline(const struct ws_profile *p,
                               const struct ws_gpu *g, int l2_may_be_warm,
                               struct ws_qroofline_params *out);
void ws_model_params_aiq(const struct ws_profile *p, const struct ws_gpu *g,
                         struct ws_aiq_params *out);

/* The bytes each access of the kernel moves, that DRAM must at least
 * serve (as the roofline counts them). */
double ws_model_dram_bytes(const struct ws_profile *p, const struct ws_gpu *g,
                           int l2_may_be_warm);

/* A model's parameters by name, for "warpsim model NAME --params FILE"
 * and for printing what a profile gave: each field is a double at an
 * offset in the model's params struct. */
struct ws_model_field {
    const char *name;
    unsigned long offset;
    const char *what;
};

/* The fields of kind's params struct; *n set to their count. */
const struct ws_model_field *ws_model_fields(enum ws_model_kind kind,
                                             int *n);

/* Every params struct, so that one buffer serves any model. */
union ws_model_params {
    struct ws_mwp_params mwp;
    struct ws_tmm_params tmm;
    struct ws_roofline_params roofline;
    struct ws_qroofline_params qroofline;
    struct ws_aiq_params aiq;
};

/* The input field f names in `in` (every field is a double): its value,
 * and where to write it. */
double ws_model_field_get(const union ws_model_params *in,
                          const struct ws_model_field *f);
double *ws_model_field_ptr(union ws_model_params *in,
                           const struct ws_model_field *f);

/* A profile's parameters for kind (l2_may_be_warm as above). */
void ws_model_params_for(enum ws_model_kind kind, const struct ws_profile *p,
                         const struct ws_gpu *g, int l2_may_be_warm,
                         union ws_model_params *out);

/* Evaluates kind on explicit parameters, with the elasticity of its
 * prediction to each input. */
void ws_model_eval(enum ws_model_kind kind, const union ws_model_params *in,
                   struct ws_model_result *r);

/* Every model on one kernel. */
void ws_model_run_all(const struct ws_profile *p, const struct ws_gpu *g,
                      int l2_may_be_warm,
                      struct ws_model_result out[WS_MODEL_COUNT]);

#endif
