/*
 * ws_ext_model: a researcher's model, in any language, run beside the
 * built-in ones (run, sweeps, the scoreboard) through a JSON contract.
 *
 * warpsim starts the model's command with /bin/sh -c once per kernel,
 * writes one JSON document to its standard input and reads one from its
 * standard output:
 *
 *   in:  {"contract": "warpsim-model/1",
 *         "gpu": NAME, "config": {KEY: value, ...},      every config key,
 *                                                        numbers in base
 *                                                        units
 *         "kernel": {"id", "name", "grid", "block", "registers",
 *                    "shared_bytes",
 *                    "profile": {...},                   as profile --json
 *                    "parameters": {MODEL: {...}, ...}}} the built-in
 *                                                        models' inputs
 *   out: {"cycles": N,                                   the prediction,
 *                                                        at most 1e18
 *         "regime": "...",                               optional
 *         "kind": "prediction" | "lower bound",          optional
 *         "domain": {"in": true|false, "what": "..."},   optional (none:
 *                                                        every kernel;
 *                                                        a bound has none)
 *         "terms": {NAME: number, ...}}                  optional, at most
 *                                                        40 of 40 bytes,
 *                                                        |x| <= 1e300
 *   or   {"applies": false, "why": "..."}
 *
 * A command that cannot start, exits with a status other than 0, runs
 * longer than the time limit, or writes anything but that is an error
 * naming the model (exit 2 for a run; the point's failure in a sweep).
 * Texts are cut to the result's fields (regime 95 bytes, domain 159, why
 * 239) at a character's end, control characters blanked.  The model's
 * standard error goes to warpsim's; what it leaves running when it exits
 * (its process group) is killed.  Its result has no elasticities (warpsim
 * would have to run it 2 x inputs times more).
 *
 * Leaves out: models that keep state between kernels (one process per
 * kernel), and any sandboxing (the command runs as the user who runs
 * warpsim, as any Makefile's would).
 */
#ifndef WS_EXT_MODEL_H
#define WS_EXT_MODEL_H

#include <jansson.h>

#include "config/ws_config.h"
#include "stats/ws_model_result.h"
#include "util/ws_err.h"
#include "ws_profile.h"

#define WS_EXT_MAX 8
#define WS_EXT_NAME 40
/* Seconds a model may take for one kernel, unless the environment's
 * WARPSIM_MODEL_TIMEOUT says otherwise. */
#define WS_EXT_TIMEOUT 120

struct ws_ext_model {
    char name[WS_EXT_NAME + 1];
    const char *cmd;  /* not owned */
    const char *dir;  /* where it runs (NULL: here); not owned */
    const char *file; /* where it was named (a sweep file), for
                                   errors; NULL: the command line */
    long line, col;
};


struct ws_ext_models {
    struct ws_ext_model m[WS_EXT_MAX];
    int n;
};

/* Adds "NAME=COMMAND" (a run's or a sweep's --model): NAME letters,
 * digits and '_' (no "__", which counters' names have, and not "total",
 * whose columns a sweep has), starting with a letter, neither a built-in
 * model's name nor given twice.  -1 with *why set to what was expected. */
int ws_ext_models_add(struct ws_ext_models *e, const char *spec,
                      const char **why);

/* The contract's input for one kernel. */
json_t *ws_ext_input(const struct ws_profile *p, const struct ws_gpu *g,
                     int l2_may_be_warm);

/* Runs model m on the input; fills r (r->model is m->name) or sets err. */
int ws_ext_run(const struct ws_ext_model *m, const json_t *input,
               struct ws_model_result *r, struct ws_err *err);

#endif
