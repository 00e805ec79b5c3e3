/*
 * ws_model_table: the one list of built-in models (see ws_model_def.h).
 * Their order is the order of the models in every output: run's lines and
 * JSON, the sweeps' columns, profile's parameters, "model --help"; a new
 * model goes at the end, so that existing results files keep their
 * columns.  A new model is its file and one row here (its declaration and
 * its pointer).
 *
 * Leaves out: evaluation (ws_model_eval.c).
 */
#include "ws_model_def.h"

#include <stdio.h>
#include <string.h>

extern const struct ws_model_def ws_model_mwp_def, ws_model_mwp_l2_def,
    ws_model_mwp_l2_reuse_def, ws_model_tmm_def, ws_model_roofline_def,
    ws_model_qroofline_def, ws_model_aiq_def;

static const struct ws_model_def *const ws_model_table[] = {
    &ws_model_mwp_def, &ws_model_mwp_l2_def,   &ws_model_mwp_l2_reuse_def,
    &ws_model_tmm_def, &ws_model_roofline_def, &ws_model_qroofline_def,
    &ws_model_aiq_def,
};

int ws_model_count(void)
{
    return (int)(sizeof ws_model_table / sizeof ws_model_table[0]);
}

const struct ws_model_def *ws_model_nth(int i)
{
    return i >= 0 && i < ws_model_count() ? ws_model_table[i] : NULL;
}

const struct ws_model_def *ws_model_find(const char *name)
{
    for (int i = 0; i < ws_model_count(); i++)
        if (strcmp(name, ws_model_table[i]->name) == 0)
            return ws_model_table[i];
    return NULL;
}

const char *ws_model_names(void)
{
    static char names[512];

    if (!names[0])
        for (int i = 0; i < ws_model_count(); i++) {
            size_t n = strlen(names);
            snprintf(names + n, sizeof names - n, "%s%s", i ? ", " : "",
                     ws_model_table[i]->name);
        }
    return names;
}
