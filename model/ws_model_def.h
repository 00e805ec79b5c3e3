/*
 * ws_model_def: what a built-in model is to the rest of warpsim, and the
 * one table of them.  Each model's file defines one struct ws_model_def:
 * its name, one line on what it is (with its paper), whether it is a lower
 * bound rather than a prediction, its inputs by field, how a kernel's
 * profile and the GPU give them, and its evaluation.  The table
 * (ws_model_table.c) lists the definitions; everything that lists, loops
 * over or names the models (run, the sweeps' columns, profile, "model
 * --help", the external models' input, the studies) reads it, in its
 * order, which is the order of the models in every output.
 *
 * A new model is its file (params struct, evaluation, input fields,
 * derivation, definition) and its row in ws_model_table.c.
 *
 * Leaves out: the equations (ws_model_*.c), the derivations several models
 * share (ws_model_params.c), evaluation and elasticities
 * (ws_model_eval.c), external models (sim/run/ws_ext_model.h).
 */
#ifndef WS_MODEL_DEF_H
#define WS_MODEL_DEF_H

#include "config/ws_config.h"
#include "stats/ws_model_result.h"
#include "ws_profile.h"

/* One input: a double at an offset in the model's params struct, by the
 * name "warpsim model NAME --params FILE" reads and profile prints. */
struct ws_model_field {
    const char *name;
    unsigned long offset;
    const char *what;
};

/* Room for any model's inputs, so that one buffer serves every model.
 * Each params struct is all doubles (its fields say where each is); a
 * model copies its struct in and out with memcpy, never through a cast,
 * and checks in its file that the struct fits. */
#define WS_MODEL_MAX_INPUTS 48
union ws_model_params {
    double field[WS_MODEL_MAX_INPUTS];
};

struct ws_model_def {
    const char *name; /* "mwp_cwp": results, columns, --params */
    const char *what; /* one line, with its paper, for help */
    int bound;        /* 1: a lower bound, not a prediction */
    const struct ws_model_field *fields;
    int nfields;
    /* The model whose inputs these are, when a family shares one set
     * (printed once, under that model's name); NULL: its own. */
    const struct ws_model_def *inputs_of;
    /* Its inputs from a kernel's profile and the GPU (out is zeroed
     * first); l2_may_be_warm: a copy or an earlier kernel may have left
     * the kernel's data in L2. */
    void (*derive)(const struct ws_profile *p, const struct ws_gpu *g,
                   int l2_may_be_warm, union ws_model_params *out);
    /* Fills r from explicit inputs; 0 when the model does not apply (r
     * says why). */
    int (*evaluate)(const union ws_model_params *in, struct ws_model_result *r);
};

/* The table, in the order of every output. */
int ws_model_count(void);
const struct ws_model_def *ws_model_nth(int i);
/* A built-in model by name; NULL for another name. */
const struct ws_model_def *ws_model_find(const char *name);
/* "mwp_cwp, mwp_cwp_l2, ..." for messages. */
const char *ws_model_names(void);

/* The input field f names in `in`: its value, and where to write it. */
double ws_model_field_get(const union ws_model_params *in,
                          const struct ws_model_field *f);
double *ws_model_field_ptr(union ws_model_params *in,
                           const struct ws_model_field *f);

/* A profile's inputs for m (l2_may_be_warm as above). */
void ws_model_params_for(const struct ws_model_def *m,
                         const struct ws_profile *p, const struct ws_gpu *g,
                         int l2_may_be_warm, union ws_model_params *out);

/* Evaluates m on explicit inputs, with the elasticity of its prediction
 * to each input. */
void ws_model_eval(const struct ws_model_def *m,
                   const union ws_model_params *in, struct ws_model_result *r);

/* Every model on one kernel, into out[0 .. ws_model_count()). */
void ws_model_run_all(const struct ws_profile *p, const struct ws_gpu *g,
                      int l2_may_be_warm, struct ws_model_result *out);

#endif
