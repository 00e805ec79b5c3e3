/*
 * ws_sweep_axis: one axis of a sweep file and its values: lists, and
 * arithmetic and geometric ranges, each value parsed with its key's own
 * parser (a config key's units, a parameter's integer) so that an error
 * sits at its place in the file.
 *
 * Leaves out: the rest of the file (ws_sweep_file.c), zip groups and the
 * point numbering (ws_sweep_points.c).
 */
#include "ws_sweep.h"
#include "ws_sweep_file.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/ws_cfg_schema.h"
#include "config/ws_units.h"
#include "util/ws_num.h"
#include "util/ws_yaml.h"

/* Steps a range may take, the ones rounding merges included: the loop's
 * bound whatever the numbers (a step of 1 from 1e18 moves nothing). */
#define WS_SWEEP_MAX_STEPS (1L << 20)
/* Whole numbers above this have no exact double, so a range over them
 * would run on other values than the ones it prints. */
#define WS_SWEEP_MAX_EXACT 9007199254740992.0

/* ---- values ---------------------------------------------------------- */

/* A workload parameter: decimal or 0x hex, as --param reads it. */
static int ws_sweep_param(const char *text, int64_t *i)
{
    uint64_t h;

    if (strncmp(text, "0x", 2) != 0)
        return ws_num_i64(text, strlen(text), i);
    if (ws_num_hex(text, strlen(text), &h) < 0 || h > INT64_MAX)
        return -1;
    *i = (int64_t)h;
    return 0;
}

/* The value as a number in the axis's base unit; -1 with *expected when it
 * is not of the axis's form. */
static int ws_sweep_number(const struct ws_axis *a, const char *text, double *v,
                           const char **expected)
{
    int64_t i;

    if (a->kind == WS_AXIS_PARAM) {
        *expected = "a whole number";
        if (ws_sweep_param(text, &i) < 0)
            return -1;
        *v = (double)i;
        return 0;
    }
    if (a->kind == WS_AXIS_GPU) {
        *expected = "a config";
        return -1;
    }
    {
        const struct ws_key *k = ws_cfg_key((size_t)ws_cfg_key_find(a->target));
        struct ws_gpu *scratch = calloc(1, sizeof *scratch);
        int rc;

        if (!scratch) {
            *expected = "memory";
            return -1;
        }
        rc = ws_cfg_key_parse(k, scratch, text, expected);
        if (rc == 0 && ws_cfg_key_number(k, scratch, v) < 0)
            *v = NAN;
        free(scratch);
        return rc;
    }
}

/* The text a config key or parameter reads back for a generated number. */
static void ws_sweep_format(const struct ws_axis *a, double v, char *buf,
                            size_t cap)
{
    const struct ws_key *k = a->kind == WS_AXIS_SET ? ws_cfg_key(
                                 (size_t)ws_cfg_key_find(a->target))
                                                    : NULL;

    if (!k || k->type == WS_KT_COUNT || k->type == WS_KT_CYCLES
        || k->type == WS_KT_SIZE || k->type == WS_KT_CARVEOUT)
        snprintf(buf, cap, "%.0f", v);
    else if (k->type == WS_KT_FREQ)
        snprintf(buf, cap, "%.15gMHz", v);
    else if (k->type == WS_KT_BW)
        snprintf(buf, cap, "%.15gGB/s", v);
    else if (k->type == WS_KT_TIME)
        snprintf(buf, cap, "%.15gns", v);
    else
        snprintf(buf, cap, "%.15g", v);
}

/* 1 when the axis's values are whole numbers (rounded when generated). */
static int ws_sweep_integral(const struct ws_axis *a)
{
    const struct ws_key *k;

    if (a->kind != WS_AXIS_SET)
        return 1;
    k = ws_cfg_key((size_t)ws_cfg_key_find(a->target));
    return k->type == WS_KT_COUNT || k->type == WS_KT_CYCLES
           || k->type == WS_KT_SIZE;
}

static int ws_sweep_add_value(struct ws_axis *a, const char *text,
                              const struct ws_ynode *at, struct ws_err *err)
{
    struct ws_axis_value *v;
    const char *expected = "";
    double num = NAN;
    char cell[64];
    int64_t i;

    if (a->nvalues == WS_SWEEP_MAX_VALUES)
        return ws_err_at(err, at->file, at->line, at->col,
                         "%s has more than "
                         "%d values (expected fewer)",
                         a->name, WS_SWEEP_MAX_VALUES);
    if (a->kind != WS_AXIS_GPU && ws_sweep_number(a, text, &num, &expected) < 0)
        return ws_err_at(err, at->file, at->line, at->col,
                         "bad value '%s' "
                         "for %s (expected %s)",
                         text, a->name, expected);
    v = &a->values[a->nvalues];
    memset(v, 0, sizeof *v);
    v->num = num;
    v->line = at->line;
    v->col = at->col;
    /* A parameter above 2^53 has no exact double: its cell is the integer
     * the point runs with, not the double's rounding of it. */
    if (a->kind == WS_AXIS_PARAM && ws_sweep_param(text, &i) == 0)
        snprintf(cell, sizeof cell, "%lld", (long long)i);
    else if (isnan(num))
        snprintf(cell, sizeof cell, "%.60s", text);
    else
        snprintf(cell, sizeof cell, "%.17g", num);
    v->cell = strdup(cell);
    v->assign = a->kind == WS_AXIS_GPU
                    ? strdup(text)
                    : ws_sweep_printf("%s=%s", a->target, text);
    if (!v->cell || !v->assign) {
        free(v->cell);
        free(v->assign);
        return ws_err_oom(err);
    }
    a->nvalues++;
    return 0;
}

/* The three numbers of {range: [first, last, step]} or {geom: [first,
 * last, factor]}, in the axis's base unit (the step of a range takes the
 * axis's unit too: 100GB/s steps of 50GB/s). */
static int ws_sweep_triple(struct ws_axis *a, const struct ws_ynode *seq,
                           const char *form, double out[3], struct ws_err *err)
{
    const struct ws_ynode *n = seq->kind == WS_YNODE_SEQ ? seq->child : NULL;
    const char *expected = "";
    int i = 0;

    for (; n && i < 3; n = n->next, i++) {
        int factor = i == 2 && strcmp(form, "geom") == 0;
        out[i] = 0; /* set by either parser; zeroed for the analyser */
        if (ws_sweep_item(n, form, "a number", err) < 0)
            return -1;
        /* A step is a signed amount of the axis's unit: the config
         * parser takes no negative size, so the sign is read here and a
         * range over a config key can run downwards. */
        int neg = i == 2 && !factor && n->value[0] == '-';
        if (factor
                ? ws_units_real(n->value, &out[i]) < 0
                : ws_sweep_number(a, n->value + neg, &out[i], &expected) < 0) {
            if (factor)
                expected = "a factor such as 2";
            return ws_err_at(err, n->file, n->line, n->col,
                             "bad %s value "
                             "'%s' for %s (expected %s)",
                             form, n->value, a->name, expected);
        }
        if (neg)
            out[i] = -out[i];
        if (!factor && ws_sweep_integral(a)
            && fabs(out[i]) > WS_SWEEP_MAX_EXACT)
            return ws_err_at(err, n->file, n->line, n->col,
                             "bad %s value "
                             "'%s' for %s (expected at most 2^53 in a %s; "
                             "list larger values one by one)",
                             form, n->value, a->name, form);
    }
    if (i != 3 || n)
        return ws_err_at(err, seq->file, seq->line, seq->col,
                         "%s of %s "
                         "takes three values (expected [first, last, %s])",
                         form, a->name,
                         strcmp(form, "geom") == 0 ? "factor" : "step");
    return 0;
}

static int ws_sweep_generate(struct ws_axis *a, const struct ws_ynode *spec,
                             struct ws_err *err)
{
    const struct ws_ynode *n = spec->child;
    int geom;
    double t[3] = {0, 0, 0}, v; /* zeroed for the analyser */
    char text[64];

    if (!n || n->next
        || (strcmp(n->key, "range") != 0 && strcmp(n->key, "geom") != 0))
        return ws_err_at(err, spec->file, spec->line, spec->col,
                         "values of "
                         "%s are not a list or a range (expected [v1, v2, "
                         "...], {range: [first, last, step]} or {geom: "
                         "[first, last, factor]})",
                         a->name);
    geom = strcmp(n->key, "geom") == 0;
    if (ws_sweep_triple(a, n, n->key, t, err) < 0)
        return -1;
    if (geom ? !(t[0] > 0 && t[2] > 0 && t[2] != 1)
             : !(t[2] != 0 && isfinite(t[2])))
        return ws_err_at(err, n->file, n->line, n->col,
                         "%s of %s cannot "
                         "reach its last value (expected %s)",
                         n->key, a->name,
                         geom ? "a first value above 0 and a "
                                "factor other than 1"
                              : "a step other than 0");
    for (long i = 0;; i++) {
        if (i == WS_SWEEP_MAX_STEPS)
            return ws_err_at(err, n->file, n->line, n->col,
                             "%s of %s takes "
                             "more than %ld steps (expected a coarser %s)",
                             n->key, a->name, WS_SWEEP_MAX_STEPS,
                             geom ? "factor" : "step");
        v = geom ? t[0] * pow(t[2], (double)i) : t[0] + t[2] * (double)i;
        /* The last value counts when it lands on the bound, give or take
         * the rounding of the arithmetic above. */
        double slack = 1e-9 * fabs(t[1]);
        if ((t[1] >= t[0] && v > t[1] + slack)
            || (t[1] < t[0] && v < t[1] - slack))
            break;
        if (i == 0 && ((t[1] > t[0]) != (geom ? t[2] > 1 : t[2] > 0))
            && t[1] != t[0])
            return ws_err_at(err, n->file, n->line, n->col,
                             "%s of %s runs "
                             "away from its last value (expected a %s that "
                             "goes from first to last)",
                             n->key, a->name, geom ? "factor" : "step");
        if (ws_sweep_integral(a))
            v = floor(v + 0.5);
        ws_sweep_format(a, v, text, sizeof text);
        if (a->nvalues
            && strcmp(strchr(a->values[a->nvalues - 1].assign, '=')
                          ? strchr(a->values[a->nvalues - 1].assign, '=') + 1
                          : "",
                      text)
                   == 0)
            continue; /* rounding made two steps one value */
        if (ws_sweep_add_value(a, text, n, err) < 0)
            return -1;
        /* first == last is one value, whichever way the step points. */
        if (t[1] == t[0])
            break;
    }
    return 0;
}

static int ws_sweep_axis_kind(struct ws_axis *a, const struct ws_ynode *n,
                              struct ws_err *err)
{
    const char *key = n->key;

    if (strcmp(key, "gpu") == 0) {
        a->kind = WS_AXIS_GPU;
        a->target = a->name;
        return 0;
    }
    if (strncmp(key, "param.", 6) == 0 && key[6]) {
        a->kind = WS_AXIS_PARAM;
        a->target = a->name + 6;
        return 0;
    }
    if (strncmp(key, "set.", 4) == 0 && key[4]) {
        const char *hint = ws_cfg_key_suggest(key + 4);
        a->kind = WS_AXIS_SET;
        a->target = a->name + 4;
        if (ws_cfg_key_find(a->target) >= 0)
            return 0;
        return ws_err_at(err, n->file, n->key_line, n->key_col,
                         "unknown "
                         "config key '%s' (expected %s%s)",
                         a->target,
                         hint ? "set."
                              : "a key that 'warpsim config show' "
                                "lists",
                         hint ? hint : "");
    }
    return ws_err_at(err, n->file, n->key_line, n->key_col,
                     "unknown axis "
                     "'%s' (expected param.NAME, set.CONFIG.KEY or gpu)",
                     key);
}

int ws_sweep_axis(struct ws_sweep *s, const struct ws_ynode *n,
                  struct ws_err *err)
{
    struct ws_axis *a = &s->axes[s->naxes];

    if (s->naxes == WS_SWEEP_MAX_AXES)
        return ws_err_at(err, n->file, n->key_line, n->key_col,
                         "more than "
                         "%d axes (expected fewer)",
                         WS_SWEEP_MAX_AXES);
    memset(a, 0, sizeof *a);
    a->name = strdup(n->key);
    a->values = calloc(WS_SWEEP_MAX_VALUES, sizeof *a->values);
    a->line = n->key_line;
    a->col = n->key_col;
    s->naxes++;
    if (!a->name || !a->values)
        return ws_err_oom(err);
    if (ws_sweep_axis_kind(a, n, err) < 0)
        return -1;
    for (size_t i = 0; i + 1 < s->naxes; i++)
        if (strcmp(s->axes[i].name, a->name) == 0)
            return ws_err_at(err, n->file, n->key_line, n->key_col,
                             "axis "
                             "'%s' given twice (expected it once)",
                             a->name);
    if (n->kind == WS_YNODE_MAP)
        return ws_sweep_generate(a, n, err);
    if (n->kind == WS_YNODE_SCALAR || !n->child)
        return ws_err_at(err, n->file, n->line, n->col,
                         "axis %s has no list "
                         "of values (expected [v1, v2, ...] or a range)",
                         a->name);
    for (const struct ws_ynode *v = n->child; v; v = v->next)
        if (ws_sweep_item(v, a->name, "one value per item", err) < 0
            || ws_sweep_add_value(a, v->value, v, err) < 0)
            return -1;
    /* A GPU named by a file is found beside the sweep file, as gpu: is. */
    for (size_t i = 0; a->kind == WS_AXIS_GPU && i < a->nvalues; i++) {
        char *r = ws_sweep_resolve_gpu(s->path, a->values[i].assign);
        if (!r)
            return ws_err_oom(err);
        free(a->values[i].assign);
        a->values[i].assign = r;
    }
    return 0;
}
