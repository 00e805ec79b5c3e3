/*
 * ws_simdiff_json: two runs compared, as JSON (see ws_simdiff_json.h).
 *
 * A run's provenance is written back as read, so that a reader of this
 * document need not open the two runs to see what produced them.
 *
 * Leaves out: the verdict's words (ws_simdiff_text.c makes them).
 */
#include "ws_simdiff_json.h"

#include <stdlib.h>

#include "util/ws_json.h"
#include "ws_simdiff_text.h"

static json_t *ws_sdj_strings(char *const *v, size_t n)
{
    json_t *a = json_array();

    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, json_string(v[i]));
    return a;
}

static json_t *ws_sdj_input(const struct ws_simrun_input *in)
{
    json_t *o = json_object();

    json_object_set_new(o, "path", json_string(in->path));
    json_object_set_new(o, "bytes",
                        in->bytes >= 0 ? json_integer(in->bytes) : json_null());
    json_object_set_new(o, "xxh3_128", json_string(in->hash));
    return o;
}

static json_t *ws_sdj_prov(const struct ws_simrun_prov *p)
{
    json_t *o, *ins;

    if (!p->present)
        return json_null();
    o = json_object();
    ins = json_array();
    json_object_set_new(o, "version", json_string(p->version));
    json_object_set_new(o, "commit", json_string(p->commit));
    json_object_set_new(o, "config", json_string(p->config));
    json_object_set_new(o, "overrides",
                        ws_sdj_strings(p->overrides, p->noverrides));
    json_object_set_new(o, "config_hash", json_string(p->config_hash));
    json_object_set_new(o, "params", ws_sdj_strings(p->params, p->nparams));
    for (size_t i = 0; i < p->ninputs; i++)
        json_array_append_new(ins, ws_sdj_input(&p->inputs[i]));
    json_object_set_new(o, "inputs", ins);
    return o;
}

static json_t *ws_sdj_side(const struct ws_simrun *s)
{
    json_t *o = json_object();

    json_object_set_new(o, "path", json_string(s->name));
    json_object_set_new(o, "gpu", json_string(s->gpu));
    json_object_set_new(o, "input", json_string(s->input));
    json_object_set_new(o, "kernels", json_integer((json_int_t)s->nkernels));
    json_object_set_new(o, "total_cycles", ws_json_real(s->total_cycles));
    json_object_set_new(o, "provenance", ws_sdj_prov(&s->prov));
    return o;
}

/* true, false, or null when a run has no provenance. */
static json_t *ws_sdj_same_one(const struct ws_simdiff *d, int same)
{
    return d->provenance ? json_boolean(same) : json_null();
}

static json_t *ws_sdj_same(const struct ws_simdiff *d)
{
    json_t *o = json_object(), *ins = json_array();

    json_object_set_new(o, "inputs", ws_sdj_same_one(d, d->same_inputs));
    json_object_set_new(o, "params", ws_sdj_same_one(d, d->same_params));
    json_object_set_new(o, "config", ws_sdj_same_one(d, d->same_config));
    json_object_set_new(o, "build", ws_sdj_same_one(d, d->same_build));
    for (size_t i = 0; i < d->ninputs; i++) {
        json_t *in = json_object();
        json_object_set_new(in, "a",
                            d->inputs[i].a ? ws_sdj_input(d->inputs[i].a)
                                           : json_null());
        json_object_set_new(in, "b",
                            d->inputs[i].b ? ws_sdj_input(d->inputs[i].b)
                                           : json_null());
        json_array_append_new(ins, in);
    }
    json_object_set_new(o, "inputs_differ", ins);
    return o;
}

static json_t *ws_sdj_row(const struct ws_simdiff_row *r)
{
    json_t *o = json_object();

    json_object_set_new(o, "name", json_string(r->name));
    json_object_set_new(o, "unit", json_string(r->unit));
    json_object_set_new(o, "a", ws_json_real(r->a));
    json_object_set_new(o, "b", ws_json_real(r->b));
    json_object_set_new(o, "delta", ws_json_real(r->delta));
    json_object_set_new(o, "delta_pct", ws_json_real(r->delta_pct));
    return o;
}

/* The rows of one kind that differ, in order; -1 when out of memory. */
static int ws_sdj_kind(json_t *o, const struct ws_simdiff_pair *p, int derived,
                       enum ws_cmp_sort s, size_t *order)
{
    long n = ws_simdiff_order(p, derived, s, order);
    json_t *a = json_array();

    for (long i = 0; i < n; i++)
        json_array_append_new(a, ws_sdj_row(&p->rows[order[i]]));
    json_object_set_new(o, derived ? "derived" : "counters",
                        json_integer((json_int_t)(derived ? p->nderived
                                                          : p->ncounters)));
    json_object_set_new(o, derived ? "derived_equal" : "counters_equal",
                        json_integer((json_int_t)(derived
                                                      ? p->derived_equal
                                                      : p->counters_equal)));
    json_object_set_new(o, derived ? "derived_differ" : "counters_differ", a);
    return n < 0 ? -1 : 0;
}

static json_t *ws_sdj_kernel(const struct ws_simrun_kernel *k)
{
    json_t *o = json_object();

    json_object_set_new(o, "id", json_integer(k->id));
    json_object_set_new(o, "kernel", json_string(k->base));
    json_object_set_new(o, "name", json_string(k->name));
    return o;
}

static json_t *ws_sdj_lone(const struct ws_simrun *s, const size_t *idx,
                           size_t n)
{
    json_t *a = json_array();

    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, ws_sdj_kernel(&s->kernels[idx[i]]));
    return a;
}

static int ws_sdj_pairs(json_t *root, const struct ws_simdiff *d,
                        enum ws_cmp_sort s)
{
    size_t most = 0;
    size_t *order;
    json_t *ks = json_array();
    int rc = 0;

    for (size_t i = 0; i < d->npairs; i++)
        if (d->pairs[i].nrows > most)
            most = d->pairs[i].nrows;
    if (!(order = malloc((most + 1) * sizeof *order)))
        rc = -1;
    for (size_t i = 0; rc == 0 && i < d->npairs; i++) {
        json_t *o = ws_sdj_kernel(&d->a->kernels[d->pairs[i].a]);
        if (ws_sdj_kind(o, &d->pairs[i], 0, s, order) < 0
            || ws_sdj_kind(o, &d->pairs[i], 1, s, order) < 0)
            rc = -1;
        json_array_append_new(ks, o);
    }
    free(order);
    json_object_set_new(root, "kernels", ks);
    return rc;
}

json_t *ws_simdiff_json(const struct ws_simdiff *d, const char *kernel,
                        enum ws_cmp_sort s)
{
    json_t *root = json_object();
    char *verdict = ws_simdiff_verdict(d);

    if (!verdict) {
        json_decref(root);
        return NULL;
    }
    json_object_set_new(root, "schema_version", json_integer(1));
    json_object_set_new(root, "tool", json_string("warpsim " WS_VERSION));
    json_object_set_new(root, "comparison", json_string("runs"));
    json_object_set_new(root, "a", ws_sdj_side(d->a));
    json_object_set_new(root, "b", ws_sdj_side(d->b));
    json_object_set_new(root, "verdict", json_string(verdict));
    free(verdict);
    json_object_set_new(root, "same", ws_sdj_same(d));
    json_object_set_new(root, "kernel_filter",
                        kernel ? json_string(kernel) : json_null());
    json_object_set_new(root, "sort", json_string(ws_cmp_sort_word(s)));
    json_object_set_new(root, "kernel_lists",
                        json_string(d->na_only || d->nb_only ? "differ"
                                                             : "same"));
    json_object_set_new(root, "total_cycles", ws_sdj_row(&d->total));
    if (ws_sdj_pairs(root, d, s) < 0) {
        json_decref(root);
        return NULL;
    }
    json_object_set_new(root, "a_only_kernels",
                        ws_sdj_lone(d->a, d->a_only, d->na_only));
    json_object_set_new(root, "b_only_kernels",
                        ws_sdj_lone(d->b, d->b_only, d->nb_only));
    return root;
}
