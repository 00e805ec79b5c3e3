/*
 * ws_model_ext: an external model's result read from the JSON contract
 * (see ws_model_ext.c).
 */
#ifndef WS_MODEL_EXT_H
#define WS_MODEL_EXT_H

#include "stats/ws_model_result.h"
#include "util/ws_err.h"

/* The largest prediction, and term, a model may give; how many terms. */
#define WS_EXT_MAX_CYCLES 1e18
#define WS_EXT_MAX_TERM 1e300
#define WS_EXT_MAX_TERMS 40

/* Reads text, model `name`'s output (name must outlive r), into r; -1
 * with an unplaced error naming the model when it breaks the contract. */
int ws_model_ext_parse(const char *name, const char *text,
                       struct ws_model_result *r, struct ws_err *err);

#endif
