/*
 * ws_model_params: the built-in models' parameters from a kernel profile
 * and a GPU config, never typed in by hand and never read from the
 * simulator.  Each derivation says in a comment which paper quantity it
 * stands for and how it maps onto a GPU with sub-cores, sectored caches
 * and an L2 the papers' GPUs did not all have (ws_model_params.c).  Each
 * model's definition (ws_model_def.h) calls its derivation here.
 *
 * Leaves out: the models themselves (ws_model_*.c) and the table of them
 * (ws_model_def.h, included here for the callers of both).
 */
#ifndef WS_MODEL_PARAMS_H
#define WS_MODEL_PARAMS_H

#include "config/ws_config.h"
#include "ws_model.h"
#include "ws_model_def.h"
#include "ws_profile.h"

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

#endif
