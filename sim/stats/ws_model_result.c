/*
 * ws_model_result: a model's result as JSON, the one form "run --json" and
 * "model --json" both write (see ws_model_result.h).
 */
#include "ws_model_result.h"

#include "util/ws_json.h"
#include "util/ws_utf8.h"

static json_t *ws_model_vars_json(const struct ws_model_var *v, int n)
{
    json_t *o = json_object();

    for (int i = 0; i < n; i++)
        json_object_set_new(o, v[i].name, ws_json_real(v[i].value));
    return o;
}

json_t *ws_model_result_json(const struct ws_model_result *r, double sim)
{
    json_t *o = json_object();

    json_object_set_new(o, "name", ws_utf8_json_string(r->model));
    json_object_set_new(o, "applies", json_boolean(r->applies));
    json_object_set_new(o, "kind",
                        json_string(r->bound ? "lower bound" : "prediction"));
    json_object_set_new(o, "domain",
                        json_pack("{s:b,s:o}", "in", r->in_domain, "what",
                                  ws_utf8_json_string(r->domain)));
    if (!r->applies) {
        json_object_set_new(o, "why", ws_utf8_json_string(r->why));
        json_object_set_new(o, "elasticities", json_object());
        return o;
    }
    json_object_set_new(o, "cycles", json_real(r->cycles));
    if (sim > 0)
        json_object_set_new(o, "difference_pct",
                            json_real((r->cycles - sim) / sim * 100.0));
    json_object_set_new(o, "regime", ws_utf8_json_string(r->regime));
    json_object_set_new(o, "intermediates",
                        ws_model_vars_json(r->vars, r->nvars));
    json_object_set_new(o, "elasticities",
                        ws_model_vars_json(r->elast, r->nelast));
    return o;
}
