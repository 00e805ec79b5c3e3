/*
 * ws_compare_json: a comparison as JSON (see ws_compare_json.h).
 *
 * A metric's entries carry "mismatch" only where the two sides define it
 * differently, so that a reader can test for the key.
 *
 * Leaves out: the sort (measure/ws_compare.h), the text (ws_compare_text.c).
 */
#include "ws_compare_json.h"

#include <stdlib.h>

#include "util/ws_json.h"

/* One metric's entry of a pair or of the statistics: its name, unit and,
 * where the two sides define it differently, why. */
static json_t *ws_cmp_json_metric(const struct ws_compare_metric *mt)
{
    json_t *m = json_object();

    json_object_set_new(m, "metric", json_string(mt->name));
    json_object_set_new(m, "unit", json_string(mt->unit));
    if (mt->mismatch)
        json_object_set_new(m, "mismatch", json_string(mt->mismatch));
    return m;
}

static json_t *ws_cmp_json_pair(const struct ws_compare *c, size_t p,
                                const size_t *order)
{
    const struct ws_compare_pair *pr = &c->pairs[p];
    const struct ws_simrun_kernel *sk = &c->sim->kernels[pr->sim];
    const struct ws_meas_kernel *mk = &c->meas->kernels[pr->meas];
    json_t *o = json_object(), *ms = json_array();

    json_object_set_new(o, "kernel", json_string(sk->base));
    json_object_set_new(o, "launch", json_integer((json_int_t)pr->launch));
    json_object_set_new(o, "simulated_name", json_string(sk->name));
    json_object_set_new(o, "simulated_id", json_integer(sk->id));
    json_object_set_new(o, "measured_name", json_string(mk->name));
    json_object_set_new(o, "measured_id",
                        mk->id >= 0 ? json_integer(mk->id) : json_null());
    json_object_set_new(o, "measured_line", json_integer(mk->line));
    for (size_t i = 0; i < c->nmetrics; i++) {
        const struct ws_compare_cell *cell = ws_compare_cell(c, p, order[i]);
        json_t *m = ws_cmp_json_metric(&c->metrics[order[i]]);
        json_object_set_new(m, "simulated", ws_json_real(cell->sim));
        json_object_set_new(m, "measured", ws_json_real(cell->meas));
        json_object_set_new(m, "difference_pct", ws_json_real(cell->diff_pct));
        json_array_append_new(ms, m);
    }
    json_object_set_new(o, "metrics", ms);
    return o;
}

static json_t *ws_cmp_json_lone(const struct ws_compare *c, int sim)
{
    json_t *a = json_array();
    size_t n = sim ? c->nsim_only : c->nmeas_only;

    for (size_t i = 0; i < n; i++) {
        const struct ws_compare_lone *l = sim ? &c->sim_only[i]
                                              : &c->meas_only[i];
        json_t *o = json_object();
        json_object_set_new(o, "kernel",
                            json_string(sim ? c->sim->kernels[l->index].base
                                            : c->meas->kernels[l->index].base));
        json_object_set_new(o, "launch", json_integer((json_int_t)l->launch));
        json_object_set_new(o, "name",
                            json_string(sim ? c->sim->kernels[l->index].name
                                            : c->meas->kernels[l->index].name));
        if (!sim)
            json_object_set_new(o, "line",
                                json_integer(c->meas->kernels[l->index].line));
        json_array_append_new(a, o);
    }
    return a;
}

static json_t *ws_cmp_json_names(const char *const *names, size_t n)
{
    json_t *a = json_array();

    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, json_string(names[i]));
    return a;
}

static json_t *ws_cmp_json_side(const char *path, const char *format,
                                size_t nkernels)
{
    json_t *o = json_object();

    json_object_set_new(o, "path", json_string(path));
    json_object_set_new(o, "format", json_string(format));
    json_object_set_new(o, "kernels", json_integer((json_int_t)nkernels));
    return o;
}

/* The notes of measured metrics left out: kernel and launch null when
 * the note is of every kernel. */
static json_t *ws_cmp_json_notes(const struct ws_compare *c)
{
    json_t *a = json_array();

    for (size_t i = 0; i < c->nnotes; i++) {
        const struct ws_compare_note *n = &c->notes[i];
        const struct ws_compare_pair *pr = n->pair == WS_MEAS_ALL
                                               ? NULL
                                               : &c->pairs[n->pair];
        json_t *o = json_object();
        json_object_set_new(o, "metric", json_string(n->metric));
        json_object_set_new(o, "kernel",
                            pr ? json_string(c->sim->kernels[pr->sim].base)
                               : json_null());
        json_object_set_new(o, "launch",
                            pr ? json_integer((json_int_t)pr->launch)
                               : json_null());
        json_object_set_new(o, "measured_line",
                            n->line > 0 ? json_integer(n->line) : json_null());
        json_object_set_new(o, "why", json_string(n->why));
        json_array_append_new(a, o);
    }
    return a;
}

/* The mean of the metrics' MAPE and the metrics left out of it. */
static json_t *ws_cmp_json_summary(const struct ws_compare *c)
{
    json_t *o = json_object(), *out = json_array();

    for (size_t j = 0; j < c->nmetrics; j++)
        if (c->metrics[j].mismatch)
            json_array_append_new(out, json_string(c->metrics[j].name));
    json_object_set_new(o, "mean_mape_pct", ws_json_real(c->mean_mape));
    json_object_set_new(o, "median_mape_pct", ws_json_real(c->median_mape));
    json_object_set_new(o, "metrics", json_integer((json_int_t)c->n_mean));
    json_object_set_new(o, "left_out_mismatch", out);
    return o;
}

/* The SM clocks of both sides, and, for an Nsight export, why they may
 * differ (ncu's --clock-control base). */
static json_t *ws_cmp_json_clocks(const struct ws_compare *c)
{
    json_t *o = json_object();

    json_object_set_new(o, "simulated_mhz", ws_json_real(c->sim_mhz));
    json_object_set_new(o, "measured_mhz", ws_json_real(c->meas_mhz));
    json_object_set_new(o, "measured_from",
                        c->meas_clock ? json_string(c->meas_clock)
                                      : json_null());
    json_object_set_new(o, "note",
                        c->meas->format == WS_MEAS_NCU ? json_string(
                            "ncu locks the clocks to base by default "
                            "(--clock-control base): measured times are at "
                            "the base clock, not boost")
                                                       : json_null());
    return o;
}

static json_t *ws_cmp_json_metrics(const struct ws_compare *c,
                                   const size_t *order)
{
    json_t *ms = json_array();

    for (size_t i = 0; i < c->nmetrics; i++) {
        const struct ws_compare_metric *m = &c->metrics[order[i]];
        json_t *o = ws_cmp_json_metric(m);
        json_object_set_new(o, "kernels", json_integer((json_int_t)m->n));
        json_object_set_new(o, "mape_pct", ws_json_real(m->mape));
        json_object_set_new(o, "pearson_r", ws_json_real(m->r));
        json_array_append_new(ms, o);
    }
    return ms;
}

static void ws_cmp_json_head(json_t *root, const struct ws_compare *c,
                             const char *kernel, enum ws_cmp_sort s)
{
    json_object_set_new(root, "schema_version", json_integer(1));
    json_object_set_new(root, "tool", json_string("warpsim " WS_VERSION));
    json_object_set_new(root, "simulated",
                        ws_cmp_json_side(c->sim->name, "warpsim run JSON",
                                         c->sim->nkernels));
    json_object_set_new(root, "measured",
                        ws_cmp_json_side(c->meas->name,
                                         ws_measured_format_name(
                                             c->meas->format),
                                         c->meas->nkernels));
    json_object_set_new(root, "kernel_filter",
                        kernel ? json_string(kernel) : json_null());
    json_object_set_new(root, "sort", json_string(ws_cmp_sort_word(s)));
    json_object_set_new(root, "clocks", ws_cmp_json_clocks(c));
}

json_t *ws_compare_json(const struct ws_compare *c, const char *kernel,
                        enum ws_cmp_sort s)
{
    json_t *root = json_object(), *ks = json_array();
    size_t *order = malloc((c->nmetrics + 1) * sizeof *order);
    int rc = order ? 0 : -1;

    ws_cmp_json_head(root, c, kernel, s);
    for (size_t p = 0; rc == 0 && p < c->npairs; p++)
        if ((rc = ws_compare_order_pair(c, p, s, order)) == 0)
            json_array_append_new(ks, ws_cmp_json_pair(c, p, order));
    json_object_set_new(root, "kernels", ks);
    if (rc == 0 && (rc = ws_compare_order_metrics(c, s, order)) == 0)
        json_object_set_new(root, "metrics", ws_cmp_json_metrics(c, order));
    free(order);
    if (rc < 0) {
        json_decref(root);
        return NULL;
    }
    json_object_set_new(root, "summary", ws_cmp_json_summary(c));
    json_object_set_new(root, "simulated_only_kernels", ws_cmp_json_lone(c, 1));
    json_object_set_new(root, "measured_only_kernels", ws_cmp_json_lone(c, 0));
    json_object_set_new(root, "simulated_only_metrics",
                        ws_cmp_json_names(c->sim_metrics_only,
                                          c->nsim_metrics_only));
    json_object_set_new(root, "warpsim_own_metrics",
                        json_integer((json_int_t)c->nown));
    json_object_set_new(root, "measured_only_metrics",
                        ws_cmp_json_names(c->meas_metrics_only,
                                          c->nmeas_metrics_only));
    json_object_set_new(root, "notes", ws_cmp_json_notes(c));
    return root;
}
