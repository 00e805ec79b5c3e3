/*
 * ws_model_print: how "warpsim profile" and "warpsim model" show a
 * kernel's model inputs and a model's result, as text and as JSON; what
 * to print for a model comes from its definition (ws_model_def.h).
 *
 * Leaves out: run's one line per model (ws_report.c).
 */
#ifndef WS_MODEL_PRINT_H
#define WS_MODEL_PRINT_H

#include <jansson.h>
#include <stdio.h>

#include "ws_model_params.h"
#include "ws_profile.h"

/* A profile's model inputs beyond trace info's counts. */
void ws_model_print_profile(FILE *out, const struct ws_profile *p);
json_t *ws_model_json_profile(const struct ws_profile *p);

/* m's inputs by field, as --params reads them. */
void ws_model_print_params(FILE *out, const struct ws_model_def *m,
                           const union ws_model_params *in);
json_t *ws_model_json_params(const struct ws_model_def *m,
                             const union ws_model_params *in);

/* Intermediates, then the cycles ("a lower bound" where the model's
 * definition says it is one) and the regime. */
void ws_model_print_result(FILE *out, const struct ws_model_result *r);
json_t *ws_model_json_result(const struct ws_model_result *r);

#endif
