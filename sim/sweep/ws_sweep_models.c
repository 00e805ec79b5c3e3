/*
 * ws_sweep_models: a sweep's external models (see ws_sweep.h), from its
 * file's models: mapping and from the command line's --model, each kept as
 * "NAME=COMMAND" with where it was written.  Which names are allowed and
 * how a model runs is the run layer's (run/ws_ext_model.h); this file
 * only reads them and checks their shape, so that an error points at the
 * sweep file.
 *
 * Leaves out: running the models.
 */
#include "ws_sweep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/ws_yaml.h"

/* The folder of the sweep file, where its models' commands run. */
static char *ws_sweep_models_dir(const struct ws_sweep *s)
{
    const char *slash = strrchr(s->path, '/');

    return slash ? strndup(s->path, (size_t)(slash - s->path + 1))
                 : strdup(".");
}

static int ws_sweep_models_put(struct ws_sweep *s, const char *name,
                               const char *cmd, long line, long col,
                               int from_file, struct ws_err *err)
{
    size_t n = strlen(name) + strlen(cmd) + 2;
    char *spec, *dir = NULL;

    if (s->nmodels == WS_SWEEP_MAX_MODELS && from_file)
        return ws_err_at(err, s->path, line, col,
                         "more than %d external "
                         "models (expected at most %d)",
                         WS_SWEEP_MAX_MODELS, WS_SWEEP_MAX_MODELS);
    if (s->nmodels == WS_SWEEP_MAX_MODELS)
        return ws_err_arg(err, cmd, 0, 1,
                          "more than %d external models, "
                          "the sweep file's and --model's (expected at most "
                          "%d)",
                          WS_SWEEP_MAX_MODELS, WS_SWEEP_MAX_MODELS);
    spec = malloc(n);
    if (from_file)
        dir = ws_sweep_models_dir(s);
    if (!spec || (from_file && !dir)) {
        free(spec);
        free(dir);
        return ws_err_oom(err);
    }
    snprintf(spec, n, "%s=%s", name, cmd);
    s->models[s->nmodels] = spec;
    s->models_dir[s->nmodels] = dir;
    s->models_at[s->nmodels][0] = line;
    s->models_at[s->nmodels][1] = col;
    s->nmodels++;
    return 0;
}

int ws_sweep_models_key(struct ws_sweep *s, const struct ws_ynode *e,
                        struct ws_err *err)
{
    if (e->kind != WS_YNODE_MAP || !e->child)
        return ws_err_at(err, e->file, e->line, e->col,
                         "models is not a "
                         "mapping (expected NAME: COMMAND, e.g. little: "
                         "python3 little.py)");
    for (const struct ws_ynode *m = e->child; m; m = m->next) {
        if (m->kind != WS_YNODE_SCALAR || !m->value[0])
            return ws_err_at(err, m->file, m->line, m->col,
                             "model '%s' has "
                             "no command (expected NAME: COMMAND)",
                             m->key);
        if (ws_sweep_models_put(s, m->key, m->value, m->key_line, m->key_col, 1,
                                err)
            < 0)
            return -1;
    }
    return 0;
}

int ws_sweep_models_add(struct ws_sweep *s, const char *spec,
                        struct ws_err *err)
{
    const char *eq = strchr(spec, '=');
    char name[64];

    if (!eq || (size_t)(eq - spec) >= sizeof name)
        return ws_err_arg(err, spec, 0, 1,
                          "bad --model '%.80s' (expected "
                          "NAME=COMMAND with a NAME of at most 40 bytes)",
                          spec);
    memcpy(name, spec, (size_t)(eq - spec));
    name[eq - spec] = '\0';
    /* From the command line, the command runs where warpsim was started. */
    return ws_sweep_models_put(s, name, eq + 1, 0, 0, 0, err);
}

const char *ws_sweep_model_name(const struct ws_sweep *s, size_t i, size_t *len)
{
    const char *eq = strchr(s->models[i], '=');

    *len = eq ? (size_t)(eq - s->models[i]) : strlen(s->models[i]);
    return s->models[i];
}
