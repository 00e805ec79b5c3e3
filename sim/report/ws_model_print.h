/*
 * ws_model_print: how "warpsim profile" and "warpsim model" show a
 * kernel's model inputs and a model's result, as text and as JSON.  ("run"
 * prints its one line per model itself, in stats/ws_report.c.)
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

void ws_model_print_params(FILE *out, enum ws_model_kind kind,
                           const union ws_model_params *in);
json_t *ws_model_json_params(enum ws_model_kind kind,
                             const union ws_model_params *in);

void ws_model_print_result(FILE *out, const struct ws_model_result *r);
json_t *ws_model_json_result(const struct ws_model_result *r);

#endif
