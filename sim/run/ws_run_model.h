/*
 * ws_run_model: a closed-form model's parameters given by hand, read
 * from a YAML mapping of the parameter names `warpsim profile` prints
 * onto their values (a parameter not given is 0): what `warpsim model
 * NAME --params FILE` evaluates, to check a paper's worked example.
 *
 * Leaves out: parameters derived from a kernel (ws_model_params_for on a
 * profile, ws_run_profile.h), evaluating and printing the model.
 */
#ifndef WS_RUN_MODEL_H
#define WS_RUN_MODEL_H

#include "util/ws_err.h"
#include "ws_model_def.h"

/* Reads path into *in (zeroed first).  An unknown name, or a value that
 * is not a plain finite number of at most 1e300, is an error at its place
 * in the file; an unplaced error (a file that cannot be read) is left for
 * the caller to place. */
int ws_run_model_params(const char *path, const struct ws_model_def *m,
                        union ws_model_params *in, struct ws_err *err);

#endif
