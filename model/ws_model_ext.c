/*
 * ws_model_ext: an external model's result, as the JSON contract has it
 * (the README's "External models"; sim/run/ws_ext_model.h runs the
 * model), read into a ws_model_result: the prediction, its kind, regime,
 * domain and terms, each checked against the contract's limits.
 *
 * Leaves out: running the model and what it is given.
 */
#include "ws_model_ext.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util/ws_utf8.h"
#include "ws_model.h"

static int ws_mext_bad(const char *name, struct ws_err *err, const char *what)
{
    return ws_err_msg(err,
                      "external model %s: %s (expected the contract's "
                      "{\"cycles\": N, ...} or {\"applies\": false, \"why\": "
                      "...}, see README \"External models\")",
                      name, what);
}

/* A name into the result's pool, or NULL when the pool is full. */
static const char *ws_mext_keep(struct ws_model_result *r, size_t *used,
                                const char *s)
{
    size_t n = strlen(s) + 1;
    char *at;

    if (*used + n > sizeof r->pool)
        return NULL;
    at = r->pool + *used;
    memcpy(at, s, n);
    *used += n;
    return at;
}

static int ws_mext_terms(const char *name, json_t *terms,
                         struct ws_model_result *r, struct ws_err *err)
{
    const char *key;
    json_t *v;
    size_t used = 0;

    if (!terms)
        return 0;
    if (!json_is_object(terms))
        return ws_mext_bad(name, err, "\"terms\" is not an object");
    json_object_foreach(terms, key, v)
    {
        const char *term;
        if (!json_is_number(v) || !isfinite(json_number_value(v))
            || fabs(json_number_value(v)) > WS_EXT_MAX_TERM)
            return ws_mext_bad(name, err,
                               "a term that is not a number of at "
                               "most 1e300");
        if (strlen(key) > 40 || r->nvars == WS_EXT_MAX_TERMS
            || !(term = ws_mext_keep(r, &used, key)))
            return ws_mext_bad(name, err,
                               "more than 40 terms, or a term "
                               "name longer than 40 bytes");
        ws_model_var(r, term, json_number_value(v));
    }
    return 0;
}

static int ws_mext_text(const char *name, json_t *o, const char *key, char *dst,
                        size_t cap, struct ws_err *err)
{
    json_t *v = json_object_get(o, key);

    if (!v)
        return 0;
    if (!json_is_string(v))
        return ws_mext_bad(name, err,
                           "a \"regime\", \"why\" or \"what\" "
                           "that is not a string");
    /* Blanked control characters: a regime or domain is printed inside
     * one line of the run report. */
    ws_utf8_copy_shown(dst, cap, json_string_value(v), ' ');
    return 0;
}

static int ws_mext_domain(const char *name, json_t *d,
                          struct ws_model_result *r, struct ws_err *err)
{
    json_t *in;

    if (!d)
        return 0;
    in = json_object_get(d, "in");
    if (!json_is_object(d) || !json_is_boolean(in))
        return ws_mext_bad(name, err,
                           "\"domain\" is not {\"in\": "
                           "true|false, \"what\": ...}");
    r->in_domain = json_is_true(in);
    return ws_mext_text(name, d, "what", r->domain, sizeof r->domain, err);
}

int ws_model_ext_parse(const char *name, const char *text,
                       struct ws_model_result *r, struct ws_err *err)
{
    json_error_t je;
    json_t *o = json_loads(text,
                           JSON_REJECT_DUPLICATES | JSON_DECODE_INT_AS_REAL,
                           &je);
    json_t *cycles, *kind, *applies;
    char what[200];
    int rc = 0;

    ws_model_begin(r, name);
    snprintf(r->domain, sizeof r->domain, "the model states none");
    if (!o || !json_is_object(o)) {
        snprintf(what, sizeof what, "its output is not a JSON object%s%.120s",
                 o ? "" : ": ", o ? "" : je.text);
        json_decref(o);
        return ws_mext_bad(name, err, what);
    }
    cycles = json_object_get(o, "cycles");
    kind = json_object_get(o, "kind");
    applies = json_object_get(o, "applies");
    if (applies && !json_is_boolean(applies)) {
        rc = ws_mext_bad(name, err, "an \"applies\" that is not true or false");
    } else if (applies && json_is_false(applies)) {
        rc = ws_mext_text(name, o, "why", r->why, sizeof r->why, err);
        r->applies = 0;
    } else if (!json_is_number(cycles) || !isfinite(json_number_value(cycles))
               || json_number_value(cycles) < 0
               || json_number_value(cycles) > WS_EXT_MAX_CYCLES) {
        rc = ws_mext_bad(name, err, "no \"cycles\" from 0 to 1e18");
    } else if (kind
               && (!json_is_string(kind)
                   || (strcmp(json_string_value(kind), "prediction")
                       && strcmp(json_string_value(kind), "lower bound")))) {
        rc = ws_mext_bad(name, err,
                         "a \"kind\" other than \"prediction\" or "
                         "\"lower bound\"");
    } else {
        r->cycles = json_number_value(cycles) + 0.0; /* -0 is 0 */
        r->bound = kind && strcmp(json_string_value(kind), "lower bound") == 0;
        if (r->bound)
            snprintf(r->domain, sizeof r->domain, "a lower bound");
        rc = ws_mext_text(name, o, "regime", r->regime, sizeof r->regime, err);
        if (rc == 0 && !r->bound)
            rc = ws_mext_domain(name, json_object_get(o, "domain"), r, err);
        if (rc == 0)
            rc = ws_mext_terms(name, json_object_get(o, "terms"), r, err);
    }
    json_decref(o);
    return rc;
}
