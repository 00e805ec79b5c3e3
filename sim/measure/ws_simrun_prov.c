/*
 * ws_simrun_prov: the "provenance" object of a run's JSON, read for
 * comparing two runs (see ws_simrun.h): warpsim's version and commit, the
 * config as named, its overrides and hash, the params, and every input
 * file with its size and XXH3-128.  Each field is optional (a run of
 * another version may lack one), but one present must have its type, and
 * an input its path and hash: a comparison must not take a damaged file
 * for "same inputs".
 *
 * Leaves out: the rest of the document (ws_simrun.c); what the comparison
 * makes of the provenance (ws_simdiff.c).
 */
#include "ws_simrun_int.h"

#include "util/ws_clip.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

void ws_sr_prov_free(struct ws_simrun_prov *p)
{
    for (size_t i = 0; i < p->noverrides; i++)
        free(p->overrides[i]);
    for (size_t i = 0; i < p->nparams; i++)
        free(p->params[i]);
    for (size_t i = 0; i < p->ninputs; i++) {
        free(p->inputs[i].path);
        free(p->inputs[i].hash);
    }
    free(p->overrides);
    free(p->params);
    free(p->inputs);
    free(p->version);
    free(p->commit);
    free(p->config);
    free(p->config_hash);
    memset(p, 0, sizeof *p);
}

/* The string under key of o, "" when absent; *out NULL only when out of
 * memory (the error set). */
static int ws_sr_str(struct ws_sr *r, json_t *o, const char *key,
                     const struct ws_sr_path *at, char **out)
{
    json_t *v = json_object_get(o, key);
    struct ws_sr_path here = ws_sr_at(at, key, 0);

    *out = NULL;
    if (v && !json_is_string(v))
        return ws_sr_fail(r, &here,
                          "provenance \"%s\" is not a string "
                          "(expected text, as warpsim run writes it)",
                          key);
    *out = ws_sr_dup(v ? json_string_value(v) : "");
    return *out ? 0 : ws_err_oom(r->err);
}

/* A list of strings under key (the overrides, the params). */
static int ws_sr_strs(struct ws_sr *r, json_t *o, const char *key,
                      const struct ws_sr_path *at, char ***out, size_t *n)
{
    json_t *a = json_object_get(o, key);
    struct ws_sr_path here = ws_sr_at(at, key, 0);

    if (!a)
        return 0;
    if (!json_is_array(a))
        return ws_sr_fail(r, &here,
                          "provenance \"%s\" is not a list "
                          "(expected [\"KEY=VALUE\", ...])",
                          key);
    if (!(*out = calloc(json_array_size(a) + 1, sizeof **out)))
        return ws_err_oom(r->err);
    for (size_t i = 0; i < json_array_size(a); i++) {
        json_t *v = json_array_get(a, i);
        struct ws_sr_path item = ws_sr_at(&here, NULL, i);
        if (!json_is_string(v))
            return ws_sr_fail(r, &item,
                              "provenance \"%s\" holds a value "
                              "that is not a string (expected "
                              "\"KEY=VALUE\")",
                              key);
        if (!((*out)[i] = ws_sr_dup(json_string_value(v))))
            return ws_err_oom(r->err);
        *n = i + 1;
    }
    return 0;
}

/* One input file: {"path": ..., "bytes": N, "xxh3_128": HEX}. */
static int ws_sr_input(struct ws_sr *r, json_t *f, struct ws_simrun_input *in,
                       const struct ws_sr_path *at)
{
    json_t *path = json_object_get(f, "path");
    json_t *hash = json_object_get(f, "xxh3_128");
    json_t *bytes = json_object_get(f, "bytes");

    if (!json_is_object(f) || !json_is_string(path) || !json_is_string(hash))
        return ws_sr_fail(r, at,
                          "a provenance input has no \"path\" or "
                          "\"xxh3_128\" string (expected {\"path\": ..., "
                          "\"bytes\": N, \"xxh3_128\": HEX})");
    in->bytes = json_is_integer(bytes) ? json_integer_value(bytes) : -1;
    in->path = ws_sr_dup(json_string_value(path));
    in->hash = ws_sr_dup(json_string_value(hash));
    return in->path && in->hash ? 0 : ws_err_oom(r->err);
}

static int ws_sr_inputs(struct ws_sr *r, json_t *o, const struct ws_sr_path *at)
{
    struct ws_simrun_prov *p = &r->s->prov;
    json_t *a = json_object_get(o, "inputs");
    struct ws_sr_path here = ws_sr_at(at, "inputs", 0);

    if (!a)
        return 0;
    if (!json_is_array(a))
        return ws_sr_fail(r, &here,
                          "provenance \"inputs\" is not a list "
                          "(expected the run's input files)");
    if (!(p->inputs = calloc(json_array_size(a) + 1, sizeof *p->inputs)))
        return ws_err_oom(r->err);
    for (size_t i = 0; i < json_array_size(a); i++) {
        struct ws_sr_path item = ws_sr_at(&here, NULL, i);
        p->ninputs = i + 1;
        if (ws_sr_input(r, json_array_get(a, i), &p->inputs[i], &item) < 0)
            return -1;
    }
    return 0;
}

/* "provenance", when the run has one (0.6.0 on). */
int ws_sr_prov(struct ws_sr *r, json_t *o, const struct ws_sr_path *top)
{
    struct ws_simrun_prov *p = &r->s->prov;
    struct ws_sr_path at = ws_sr_at(top, "provenance", 0);

    if (!o)
        return 0;
    if (!json_is_object(o))
        return ws_sr_fail(r, &at,
                          "\"provenance\" is not an object (expected "
                          "what produced the run: version, config, inputs)");
    p->present = 1;
    if (ws_sr_str(r, o, "version", &at, &p->version) < 0
        || ws_sr_str(r, o, "commit", &at, &p->commit) < 0
        || ws_sr_str(r, o, "config", &at, &p->config) < 0
        || ws_sr_str(r, o, "config_hash", &at, &p->config_hash) < 0
        || ws_sr_strs(r, o, "overrides", &at, &p->overrides, &p->noverrides) < 0
        || ws_sr_strs(r, o, "params", &at, &p->params, &p->nparams) < 0)
        return -1;
    return ws_sr_inputs(r, o, &at);
}
