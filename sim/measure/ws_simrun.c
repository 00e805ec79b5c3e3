/*
 * ws_simrun: reading back `warpsim run --json` (see ws_simrun.h).  The
 * document's shape is sim/report/ws_report.c's; tests/golden/run_json.json
 * is one.
 *
 * jansson parses (rejecting duplicate keys, which would make a counter
 * mean two things); it keeps no positions of values, so an error about a
 * value walks the text again along the value's path (keys and indices) to
 * find its line and byte column.  The walk trusts the text: jansson has
 * already accepted it.  Launch ids and counters' units are looked up in
 * string tables as kernels are read, so a run of a million kernels is
 * checked in linear time.
 *
 * Leaves out: JSON written by other commands (refused with a message that
 * says which command writes what this reads); the "provenance" object
 * (ws_simrun_prov.c).
 */
#include "ws_simrun.h"
#include "ws_simrun_int.h"

#include "ws_kname.h"
#include "ws_measured.h"
#include "util/ws_clip.h"
#include "util/ws_file.h"
#include "util/ws_grow.h"
#include "util/ws_strtab.h"

#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A run's JSON is a few kB per kernel; this is a million kernels. */
#define WS_SIMRUN_MAX ((size_t)1024 << 20)

/* ---- positions ---------------------------------------------------------- */

struct ws_sr_walk {
    const char *p, *end, *line_start;
    long line;
};

static void ws_sr_ws(struct ws_sr_walk *w)
{
    while (w->p < w->end && strchr(" \t\r\n", *w->p)) {
        if (*w->p == '\n') {
            w->line++;
            w->line_start = w->p + 1;
        }
        w->p++;
    }
}

static void ws_sr_skip_string(struct ws_sr_walk *w)
{
    for (w->p++; w->p < w->end && *w->p != '"'; w->p++)
        if (*w->p == '\\')
            w->p++;
    w->p++;
}

/* Skips one value (iteratively: nesting only moves a depth counter). */
static void ws_sr_skip_value(struct ws_sr_walk *w)
{
    long depth = 0;

    do {
        ws_sr_ws(w);
        if (w->p >= w->end)
            return;
        if (*w->p == '"')
            ws_sr_skip_string(w);
        else if (*w->p == '{' || *w->p == '[')
            depth++, w->p++;
        else if (*w->p == '}' || *w->p == ']')
            depth--, w->p++;
        else if (*w->p == ',' || *w->p == ':')
            w->p++;
        else
            while (w->p < w->end && !strchr(",}] \t\r\n", *w->p))
                w->p++;
    } while (depth > 0);
}

/* From an object's '{' to the value of key; 0 when found. */
static int ws_sr_to_key(struct ws_sr_walk *w, const char *key)
{
    size_t n = strlen(key);

    w->p++;
    for (;;) {
        const char *k;
        ws_sr_ws(w);
        if (w->p >= w->end || *w->p != '"')
            return -1;
        k = w->p + 1;
        ws_sr_skip_string(w);
        ws_sr_ws(w);
        w->p++; /* ':' */
        ws_sr_ws(w);
        /* A key with escapes is never one looked for: raw bytes do. */
        if (strncmp(k, key, n) == 0 && k[n] == '"')
            return 0;
        ws_sr_skip_value(w);
        ws_sr_ws(w);
        if (w->p >= w->end || *w->p != ',')
            return -1;
        w->p++;
    }
}

/* From an array's '[' to element i. */
static int ws_sr_to_index(struct ws_sr_walk *w, size_t i)
{
    w->p++;
    for (size_t k = 0; k < i; k++) {
        ws_sr_skip_value(w);
        ws_sr_ws(w);
        if (w->p >= w->end || *w->p != ',')
            return -1;
        w->p++;
    }
    ws_sr_ws(w);
    return 0;
}

/* The line and byte column of the value at path (as far as it goes). */
static void ws_sr_locate(const struct ws_sr *r, const struct ws_sr_path *path,
                         long *line, long *col)
{
    struct ws_sr_walk w = {r->text, r->end, r->text, 1};

    ws_sr_ws(&w);
    for (int i = 0; i < path->n && w.p < w.end; i++) {
        struct ws_sr_walk back = w;
        int rc = path->key[i]
                     ? (*w.p == '{' ? ws_sr_to_key(&w, path->key[i]) : -1)
                     : (*w.p == '[' ? ws_sr_to_index(&w, path->index[i]) : -1);
        if (rc < 0) {
            w = back;
            break;
        }
    }
    *line = w.line;
    *col = (long)(w.p - w.line_start) + 1;
}

int ws_sr_fail(const struct ws_sr *r, const struct ws_sr_path *path,
               const char *fmt, ...)
{
    char msg[WS_ERR_TEXT];
    long line, col;
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ws_sr_locate(r, path, &line, &col);
    return ws_err_at(r->err, r->s->name, line, col, "%s", msg);
}

struct ws_sr_path ws_sr_at(const struct ws_sr_path *p, const char *key,
                           size_t index)
{
    struct ws_sr_path q = *p;

    if (q.n < WS_SIMRUN_DEPTH) {
        q.key[q.n] = key;
        q.index[q.n] = index;
        q.n++;
    }
    return q;
}

/* ---- the document ----------------------------------------------------------- */

char *ws_sr_dup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);

    return d ? memcpy(d, s, n) : NULL;
}

/* Appends a figure to list (room made by the caller). */
static int ws_sr_put(struct ws_sr *r, struct ws_simrun_metric *list, size_t *n,
                     const char *name, const char *unit, double v, int derived)
{
    struct ws_simrun_metric *m = &list[*n];

    m->name = ws_sr_dup(name);
    m->unit = ws_sr_dup(unit);
    m->value = v;
    m->derived = derived;
    if (!m->name || !m->unit) {
        free(m->name);
        free(m->unit);
        return ws_err_oom(r->err);
    }
    (*n)++;
    return 0;
}

static int ws_sr_add(struct ws_sr *r, struct ws_simrun_kernel *k,
                     const char *name, const char *unit, double v)
{
    return ws_sr_put(r, k->metrics, &k->nmetrics, name, unit, v, 0);
}

/* A counter's unit: of the dimension its Nsight name gives it (bytes
 * for dram__bytes_read.sum, cycles for gpc__cycles_elapsed.max), and the
 * same in every kernel, so that the comparison knows what it compares. */
static int ws_sr_unit(struct ws_sr *r, size_t k, const char *name,
                      const char *unit, const struct ws_sr_path *here)
{
    enum ws_meas_dim got = ws_meas_sim_unit_dim(unit);
    enum ws_meas_dim want = ws_meas_metric_dim(name);
    struct ws_sr_seen *z = &r->seen;
    struct ws_clip q1, q2, q3;
    uint32_t before = z->counters.count;
    uint32_t id;

    if (got != WS_DIM_PLAIN && !ws_meas_dim_fits(got, want))
        return ws_sr_fail(r, here,
                          "counter '%s' in unit '%s' is %s "
                          "(expected %s, as its Nsight name says)",
                          ws_clip(&q1, name), ws_clip(&q2, unit),
                          ws_meas_dim_name(got), ws_meas_dim_units(want));
    /* the comparison takes simulated values as they are: in base units */
    if (ws_meas_unit_scale(unit) != 1 && !isnan(ws_meas_unit_scale(unit)))
        return ws_sr_fail(r, here,
                          "counter '%s' is in the scaled unit '%s' "
                          "(expected a base unit, byte, cycle, inst, ..., as "
                          "warpsim run writes counters)",
                          ws_clip(&q1, name), ws_clip(&q2, unit));
    id = ws_strtab_intern(&z->counters, name, strlen(name));
    if (id == UINT32_MAX
        || ws_grow((void **)&z->units, &z->units_cap, (size_t)id + 1,
                   sizeof *z->units, 64)
               < 0)
        return ws_err_oom(r->err);
    if (id == before) {
        z->units[id] = (struct ws_sr_unit){unit, k};
        return 0;
    }
    if (strcmp(z->units[id].unit, unit) != 0)
        return ws_sr_fail(r, here,
                          "counter '%s' is in '%s' here but in "
                          "'%s' in kernel %zu (expected one unit per "
                          "counter, as warpsim run writes them)",
                          ws_clip(&q1, name), ws_clip(&q2, unit),
                          ws_clip(&q3, z->units[id].unit),
                          z->units[id].kernel + 1);
    return 0;
}

/* The counters, each {"value": number, "unit": string, ...}. */
static int ws_sr_counters(struct ws_sr *r, struct ws_simrun_kernel *k,
                          json_t *counters, const struct ws_sr_path *at)
{
    const char *name;
    json_t *c;

    json_object_foreach(counters, name, c)
    {
        struct ws_sr_path here = ws_sr_at(at, name, 0);
        json_t *v = json_object_get(c, "value"),
               *u = json_object_get(c, "unit");
        struct ws_clip q;
        if (!json_is_object(c) || !json_is_number(v)) {
            if (json_is_object(c) && v)
                here = ws_sr_at(&here, "value", 0);
            return ws_sr_fail(r, &here,
                              "counter '%s' has no number "
                              "\"value\" (expected {\"value\": N, "
                              "\"unit\": ...})",
                              ws_clip(&q, name));
        }
        if (json_number_value(v) < 0) {
            here = ws_sr_at(&here, "value", 0);
            return ws_sr_fail(r, &here,
                              "counter '%s' is negative, %g "
                              "(expected a count of at least 0)",
                              ws_clip(&q, name), json_number_value(v));
        }
        if (u && !json_is_string(u)) {
            here = ws_sr_at(&here, "unit", 0);
            return ws_sr_fail(r, &here,
                              "the unit of '%s' is not a string "
                              "(expected a unit such as \"cycle\")",
                              ws_clip(&q, name));
        }
        here = ws_sr_at(&here, u ? "unit" : "value", 0);
        if (ws_sr_add(r, k, name, u ? json_string_value(u) : "",
                      json_number_value(v))
                < 0
            || ws_sr_unit(r, (size_t)(k - r->s->kernels), name,
                          k->metrics[k->nmetrics - 1].unit, &here)
                   < 0)
            return -1;
    }
    return 0;
}

/* A derived figure kept among the metrics: time_us, and those with
 * Nsight names; NULL for the others (extra). */
static const char *ws_sr_derived_unit(const char *name)
{
    if (strcmp(name, "time_us") == 0)
        return "us";
    if (!strstr(name, "__"))
        return NULL;
    return strstr(name, "pct") ? "%" : "";
}

/* The unit of a figure no measurement has, from the run's naming
 * ("issue_utilization_pct", "dram_effective_gbps"). */
static const char *ws_sr_extra_unit(const char *name)
{
    size_t n = strlen(name);

    if (n >= 4 && strcmp(name + n - 4, "_pct") == 0)
        return "%";
    if (n >= 5 && strcmp(name + n - 5, "_gbps") == 0)
        return "GB/s";
    return "";
}

/* Moves time_us (the last metric) to just after the elapsed cycles. */
static void ws_sr_place_time(struct ws_simrun_kernel *k)
{
    struct ws_simrun_metric t = k->metrics[k->nmetrics - 1];
    size_t at = 0;

    for (size_t i = 0; i + 1 < k->nmetrics; i++)
        if (strcmp(k->metrics[i].name, "gpc__cycles_elapsed.max") == 0)
            at = i + 1;
    memmove(k->metrics + at + 1, k->metrics + at,
            (k->nmetrics - 1 - at) * sizeof *k->metrics);
    k->metrics[at] = t;
}

/* time_us, placed after the cycles. */
static int ws_sr_time(struct ws_sr *r, struct ws_simrun_kernel *k,
                      json_t *derived, const struct ws_sr_path *at)
{
    json_t *t = json_object_get(derived, "time_us");
    struct ws_sr_path here = ws_sr_at(at, "time_us", 0);

    if (!t || json_is_null(t))
        return 0;
    if (!json_is_number(t) || json_number_value(t) < 0)
        return ws_sr_fail(r, &here,
                          "derived 'time_us' is %s (expected the "
                          "kernel time in microseconds, at least 0)",
                          json_is_number(t) ? "negative" : "not a number");
    if (ws_sr_put(r, k->metrics, &k->nmetrics, "time_us", "us",
                  json_number_value(t), 1)
        < 0)
        return -1;
    ws_sr_place_time(k);
    return 0;
}

/* A derived figure: among the metrics where it has an Nsight name (and a
 * unit from it), else among the extras. */
static int ws_sr_put_derived(struct ws_sr *r, struct ws_simrun_kernel *k,
                             const char *name, double x)
{
    const char *unit = ws_sr_derived_unit(name);

    return unit ? ws_sr_put(r, k->metrics, &k->nmetrics, name, unit, x, 1)
                : ws_sr_put(r, k->extra, &k->nextra, name,
                            ws_sr_extra_unit(name), x, 1);
}

/* The derived figures with Nsight names, after the counters. */
static int ws_sr_derived(struct ws_sr *r, struct ws_simrun_kernel *k,
                         json_t *derived, const struct ws_sr_path *at)
{
    const char *name;
    json_t *v;

    if (ws_sr_time(r, k, derived, at) < 0)
        return -1;
    json_object_foreach(derived, name, v)
    {
        struct ws_sr_path here = ws_sr_at(at, name, 0);
        struct ws_clip q;
        double x = json_number_value(v);
        if (json_is_null(v) || strcmp(name, "time_us") == 0)
            continue;
        if (!json_is_number(v) || x < 0)
            return ws_sr_fail(r, &here,
                              "derived '%s' is %s (expected a "
                              "number of at least 0, or null)",
                              ws_clip(&q, name),
                              json_is_number(v) ? "negative" : "not a number");
        if (ws_sr_put_derived(r, k, name, x) < 0)
            return -1;
    }
    return 0;
}

/* Kernel i's launch id, against the kernels before: warpsim writes each
 * launch once, under its own id, so an id twice is two runs' kernels
 * joined, or a kernel copied, and pairing by launch order would take the
 * copy for another launch.  Refused at the second, naming both. */
static int ws_sr_id(struct ws_sr *r, size_t i, const struct ws_sr_path *at)
{
    struct ws_sr_path path = ws_sr_at(at, "id", 0), *here = &path;
    const struct ws_simrun_kernel *k = &r->s->kernels[i], *old;
    struct ws_clip q1, q2;
    long first = ws_meas_ids_seen(&r->seen.ids, k->id, i);

    if (first == -2)
        return ws_err_oom(r->err);
    if (first < 0)
        return 0;
    old = &r->s->kernels[first];
    if (strcmp(old->name, k->name) != 0)
        return ws_sr_fail(r, here,
                          "launch id %lld is %s in kernel %zu but "
                          "%s in kernel %zu (expected one kernel per launch "
                          "id)",
                          k->id, ws_clip(&q1, k->name), i + 1,
                          ws_clip(&q2, old->name), (size_t)first + 1);
    return ws_sr_fail(r, here,
                      "kernel %zu repeats launch id %lld of kernel "
                      "%zu, %s (expected each launch once, as warpsim run "
                      "writes it)",
                      i + 1, k->id, (size_t)first + 1, ws_clip(&q1, k->name));
}

static int ws_sr_has(const struct ws_simrun_metric *list, size_t n,
                     const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(list[i].name, name) == 0)
            return 1;
    return 0;
}

/* The numbers of "speed_of_light" (report/ws_sol.h) as derived figures:
 * the pipes' and levels' shares of peak, occupancies, waves.  Its
 * strings, lists and objects (the busiest pipe's name, hints, the
 * limiters) are not figures; a name the derived figures gave is kept
 * once. */
static int ws_sr_sol(struct ws_sr *r, struct ws_simrun_kernel *k, json_t *sol)
{
    const char *name;
    json_t *v;

    json_object_foreach(sol, name, v)
    {
        double x = json_number_value(v);
        if (!json_is_number(v) || !(x >= 0)
            || ws_sr_has(k->metrics, k->nmetrics, name)
            || ws_sr_has(k->extra, k->nextra, name))
            continue;
        if (ws_sr_put_derived(r, k, name, x) < 0)
            return -1;
    }
    return 0;
}

static int ws_sr_kernel(struct ws_sr *r, json_t *kj, size_t i,
                        const struct ws_sr_path *kernels)
{
    struct ws_sr_path at = ws_sr_at(kernels, NULL, i), here;
    struct ws_simrun_kernel *k = &r->s->kernels[i];
    json_t *id = json_object_get(kj, "id"), *name = json_object_get(kj, "name");
    json_t *counters = json_object_get(kj, "counters");
    json_t *derived = json_object_get(kj, "derived");
    json_t *sol = json_object_get(kj, "speed_of_light");
    size_t nsol = json_is_object(sol) ? json_object_size(sol) : 0;

    if (!json_is_object(kj))
        return ws_sr_fail(r, &at,
                          "kernel %zu is not an object (expected "
                          "{\"id\": ..., \"name\": ..., \"counters\": ...})",
                          i + 1);
    here = ws_sr_at(&at, id ? "id" : NULL, 0);
    if (!json_is_integer(id) || json_integer_value(id) < 1)
        return ws_sr_fail(r, id ? &here : &at,
                          "kernel %zu has no launch "
                          "\"id\" (expected a whole number from 1)",
                          i + 1);
    here = ws_sr_at(&at, "name", 0);
    if (!json_is_string(name) || !*json_string_value(name))
        return ws_sr_fail(r, name ? &here : &at,
                          "kernel %zu has no "
                          "\"name\" (expected the kernel's name)",
                          i + 1);
    here = ws_sr_at(&at, "counters", 0);
    if (!json_is_object(counters))
        return ws_sr_fail(r, counters ? &here : &at,
                          "kernel %zu has no "
                          "\"counters\" (expected a simulated kernel: the "
                          "JSON of 'warpsim run --json', not of 'trace "
                          "info' or 'profile')",
                          i + 1);
    k->id = json_integer_value(id);
    k->name = ws_sr_dup(json_string_value(name));
    k->base = k->name ? ws_kname_base(k->name) : NULL;
    if (k->name && ws_sr_id(r, i, &at) < 0)
        return -1;
    k->metrics = calloc(json_object_size(counters)
                            + (derived ? json_object_size(derived) : 0) + nsol
                            + 1,
                        sizeof *k->metrics);
    k->extra = calloc((derived ? json_object_size(derived) : 0) + nsol + 1,
                      sizeof *k->extra);
    if (!k->base || !k->metrics || !k->extra)
        return ws_err_oom(r->err);
    if (ws_sr_counters(r, k, counters, &here) < 0)
        return -1;
    here = ws_sr_at(&at, "derived", 0);
    if (derived && !json_is_object(derived))
        return ws_sr_fail(r, &here,
                          "kernel %zu's \"derived\" is not an "
                          "object (expected figures by name)",
                          i + 1);
    if (derived && ws_sr_derived(r, k, derived, &here) < 0)
        return -1;
    return nsol ? ws_sr_sol(r, k, sol) : 0;
}

/* total_cycles, when the run gives it: the sum over its kernels. */
static int ws_sr_total(struct ws_sr *r, json_t *root,
                       const struct ws_sr_path *top)
{
    json_t *t = json_object_get(root, "total_cycles");
    struct ws_sr_path at = ws_sr_at(top, "total_cycles", 0);

    r->s->total_cycles = NAN;
    if (!t)
        return 0;
    if (!json_is_number(t) || json_number_value(t) < 0)
        return ws_sr_fail(r, &at,
                          "total_cycles is %s (expected the run's "
                          "cycles, a number of at least 0)",
                          json_is_number(t) ? "negative" : "not a number");
    r->s->total_cycles = json_number_value(t);
    return 0;
}

static int ws_sr_root(struct ws_sr *r, json_t *root)
{
    struct ws_sr_path top = {{NULL}, {0}, 0}, at;
    json_t *ver = json_object_get(root, "schema_version");
    json_t *kernels = json_object_get(root, "kernels");
    json_t *gpu = json_object_get(root, "gpu");
    json_t *input = json_object_get(root, "input");
    const char *what = "(expected the JSON of 'warpsim run --json')";

    if (!json_is_object(root))
        return ws_sr_fail(r, &top, "not a JSON object %s", what);
    at = ws_sr_at(&top, "schema_version", 0);
    if (!ver)
        return ws_sr_fail(r, &top, "no \"schema_version\" %s", what);
    if (!json_is_integer(ver) || json_integer_value(ver) != 1)
        return ws_sr_fail(r, &at,
                          "schema_version is not 1 (expected 1, "
                          "the version this warpsim reads)");
    at = ws_sr_at(&top, "kernels", 0);
    if (!json_is_array(kernels))
        return ws_sr_fail(r, kernels ? &at : &top, "no \"kernels\" array %s",
                          what);
    r->s->gpu = ws_sr_dup(json_is_string(gpu) ? json_string_value(gpu) : "");
    r->s->input = ws_sr_dup(json_is_string(input) ? json_string_value(input)
                                                  : "");
    r->s->kernels = calloc(json_array_size(kernels) + 1, sizeof *r->s->kernels);
    if (!r->s->gpu || !r->s->input || !r->s->kernels)
        return ws_err_oom(r->err);
    if (ws_sr_total(r, root, &top) < 0
        || ws_sr_prov(r, json_object_get(root, "provenance"), &top) < 0)
        return -1;
    for (size_t i = 0; i < json_array_size(kernels); i++) {
        r->s->nkernels = i + 1;
        if (ws_sr_kernel(r, json_array_get(kernels, i), i, &at) < 0)
            return -1;
    }
    if (r->s->nkernels == 0)
        return ws_sr_fail(r, &at,
                          "no kernels (expected a run of at least "
                          "one kernel)");
    return 0;
}

/* jansson's error, at the line and byte column of its byte position. */
static int ws_sr_syntax(struct ws_sr *r, const json_error_t *je)
{
    struct ws_sr_walk w = {r->text, r->end, r->text, 1};
    const char *at = r->text
                     + (je->position > 0
                                && (size_t)je->position
                                       <= (size_t)(r->end - r->text)
                            ? (size_t)je->position
                            : 0);

    for (; w.p < at; w.p++)
        if (*w.p == '\n') {
            w.line++;
            w.line_start = w.p + 1;
        }
    return ws_err_at(r->err, r->s->name, w.line, (long)(at - w.line_start) + 1,
                     "JSON error: %s (expected the JSON of 'warpsim run "
                     "--json')",
                     je->text);
}

int ws_simrun_parse(struct ws_simrun *s, const char *name, const char *text,
                    size_t len, struct ws_err *err)
{
    struct ws_sr r;
    json_error_t je;
    json_t *root;
    int rc;

    memset(&r, 0, sizeof r);
    r.s = s;
    r.text = text;
    r.end = text + len;
    r.err = err;
    memset(s, 0, sizeof *s);
    if (!(s->name = ws_sr_dup(name)))
        return ws_err_oom(err);
    ws_meas_ids_init(&r.seen.ids);
    ws_strtab_init(&r.seen.counters);
    root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    rc = root ? ws_sr_root(&r, root) : ws_sr_syntax(&r, &je);
    json_decref(root);
    ws_meas_ids_free(&r.seen.ids);
    ws_strtab_free(&r.seen.counters);
    free(r.seen.units);
    if (rc < 0)
        ws_simrun_free(s);
    return rc;
}

int ws_simrun_load(struct ws_simrun *s, const char *path, struct ws_err *err)
{
    size_t len;
    char *text = ws_file_read(path, "warpsim run JSON", WS_SIMRUN_MAX, &len,
                              NULL, err);
    int rc;

    if (!text)
        return -1;
    rc = ws_simrun_parse(s, path, text, len, err);
    free(text);
    return rc;
}

static void ws_sr_free_list(struct ws_simrun_metric *list, size_t n)
{
    for (size_t j = 0; j < n; j++) {
        free(list[j].name);
        free(list[j].unit);
    }
    free(list);
}

void ws_simrun_free(struct ws_simrun *s)
{
    for (size_t i = 0; i < s->nkernels; i++) {
        struct ws_simrun_kernel *k = &s->kernels[i];
        ws_sr_free_list(k->metrics, k->nmetrics);
        ws_sr_free_list(k->extra, k->nextra);
        free(k->name);
        free(k->base);
    }
    free(s->kernels);
    ws_sr_prov_free(&s->prov);
    free(s->gpu);
    free(s->input);
    free(s->name);
    memset(s, 0, sizeof *s);
}

int ws_simrun_sniff(const char *path)
{
    unsigned char buf[256];
    struct stat st;
    size_t n, i = 0;
    FILE *f;

    /* a FIFO or a device would block the read: measurements refuse it */
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)
        || !(f = fopen(path, "rb")))
        return 0;
    n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    if (n >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0)
        i = 3;
    while (i < n && strchr(" \t\r\n", buf[i]))
        i++;
    return i < n && buf[i] == '{';
}

double ws_simrun_clock_mhz(const struct ws_simrun *s)
{
    for (size_t i = 0; i < s->nkernels; i++) {
        const struct ws_simrun_kernel *k = &s->kernels[i];
        double cycles = NAN, us = NAN;
        for (size_t j = 0; j < k->nmetrics; j++) {
            if (strcmp(k->metrics[j].name, "gpc__cycles_elapsed.max") == 0)
                cycles = k->metrics[j].value;
            else if (strcmp(k->metrics[j].name, "time_us") == 0)
                us = k->metrics[j].value;
        }
        if (cycles > 0 && us > 0)
            return cycles / us; /* cycles per microsecond: MHz */
    }
    return NAN;
}
