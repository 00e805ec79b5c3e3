/*
 * ws_sweep_file: reads a sweep file into struct ws_sweep (see ws_sweep.h):
 * the kernel, the GPU, fixed parameters and overrides, the axes with
 * their values (lists, arithmetic and geometric ranges), zip groups,
 * plots and the report's target.
 *
 * Each config-key value is parsed here with the key's own parser, so a
 * "12MiX" is reported at its place in the sweep file, not later at a
 * --set the user never typed.  Whether values work together (a config
 * whose L2 slices do not divide its size, a block too big for the
 * workload) is ws_sweep_validate's.
 *
 * Leaves out: YAML itself (util/ws_yaml), the point numbering
 * (ws_sweep_points.c).
 */
#include "ws_sweep.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config/ws_cfg_schema.h"
#include "config/ws_units.h"
#include "util/ws_file.h"
#include "util/ws_num.h"
#include "util/ws_yaml.h"

#define WS_SWEEP_MAX_FILE (1u << 20)
/* Steps a range may take, the ones rounding merges included: the loop's
 * bound whatever the numbers (a step of 1 from 1e18 moves nothing). */
#define WS_SWEEP_MAX_STEPS (1L << 20)
/* Whole numbers above this have no exact double, so a range over them
 * would run on other values than the ones it prints. */
#define WS_SWEEP_MAX_EXACT 9007199254740992.0

static char *ws_sweep_printf(const char *fmt, const char *a, const char *b)
{
    size_t n = strlen(fmt) + strlen(a) + strlen(b) + 1;
    char *d = malloc(n);

    if (d)
        snprintf(d, n, fmt, a, b);
    return d;
}

/* path as written in the sweep file: relative to the file's folder. */
static char *ws_sweep_resolve(const char *sweep_path, const char *path)
{
    const char *slash = strrchr(sweep_path, '/');
    char *dir, *out;

    if (path[0] == '/' || !slash)
        return strdup(path);
    dir = malloc((size_t)(slash - sweep_path) + 1);
    if (!dir)
        return NULL;
    memcpy(dir, sweep_path, (size_t)(slash - sweep_path));
    dir[slash - sweep_path] = '\0';
    out = ws_sweep_printf("%s/%s", dir, path);
    free(dir);
    return out;
}

/* A GPU is a file beside the sweep file when one exists there, else a
 * built-in name (or a path the config loader resolves itself). */
static char *ws_sweep_resolve_gpu(const char *sweep_path, const char *gpu)
{
    struct stat st;
    char *p = ws_sweep_resolve(sweep_path, gpu);

    if (p && stat(p, &st) == 0 && S_ISREG(st.st_mode))
        return p;
    free(p);
    /* gpu is a scalar's value, never NULL (ws_yaml gives "" for empty);
     * the analyser cannot see into ws_sweep_resolve.
     * NOLINTNEXTLINE(clang-analyzer-core.NonNullParamChecker) */
    return strdup(gpu);
}

static int ws_sweep_scalar(const struct ws_ynode *n, const char *what,
                           struct ws_err *err)
{
    if (n->kind != WS_YNODE_SCALAR)
        return ws_err_at(err, n->file, n->line, n->col,
                         "%s is not a single "
                         "value (expected %s)",
                         n->key ? n->key : "value", what);
    return 0;
}

/* An item of a list (the YAML key of an item is its index, which the
 * user never wrote: the message names the list instead). */
static int ws_sweep_item(const struct ws_ynode *n, const char *list,
                         const char *what, struct ws_err *err)
{
    if (n->kind != WS_YNODE_SCALAR)
        return ws_err_at(err, n->file, n->line, n->col,
                         "an item of %s is "
                         "not a single value (expected %s)",
                         list, what);
    return 0;
}

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
    double t[3], v;
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

static int ws_sweep_axis(struct ws_sweep *s, const struct ws_ynode *n,
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

/* ---- zips, plots, fixed settings ---------------------------------------- */

static struct ws_axis *ws_sweep_find_axis(struct ws_sweep *s, const char *name)
{
    for (size_t i = 0; i < s->naxes; i++)
        if (strcmp(s->axes[i].name, name) == 0)
            return &s->axes[i];
    return NULL;
}

static int ws_sweep_zip_group(struct ws_sweep *s, const struct ws_ynode *g,
                              int *zipped, size_t dim, struct ws_err *err)
{
    size_t len = 0;

    if (g->kind != WS_YNODE_SEQ || !g->child || !g->child->next)
        return ws_err_at(err, g->file, g->line, g->col,
                         "a zip group names "
                         "fewer than two axes (expected [axis, axis, ...])");
    for (const struct ws_ynode *n = g->child; n; n = n->next) {
        struct ws_axis *a;
        if (ws_sweep_item(n, "a zip group", "an axis name", err) < 0)
            return -1;
        a = ws_sweep_find_axis(s, n->value);
        if (!a)
            return ws_err_at(err, n->file, n->line, n->col,
                             "zip names '%s', "
                             "which is not an axis (expected a key of axes:)",
                             n->value);
        if (zipped[a - s->axes] && a->dim == dim)
            return ws_err_at(err, n->file, n->line, n->col,
                             "axis '%s' is "
                             "named twice in one zip group (expected each "
                             "axis once)",
                             a->name);
        if (zipped[a - s->axes])
            return ws_err_at(err, n->file, n->line, n->col,
                             "axis '%s' is in "
                             "two zip groups (expected one at most)",
                             a->name);
        if (len && a->nvalues != len)
            return ws_err_at(err, n->file, n->line, n->col,
                             "axis '%s' has %zu "
                             "values, the group's first %zu (expected zipped "
                             "axes of one length)",
                             a->name, a->nvalues, len);
        len = a->nvalues;
        zipped[a - s->axes] = 1;
        a->dim = dim;
    }
    return 0;
}

/* Numbers the digits: each axis is one unless a zip group joins it to the
 * group's first axis.  Then the point count, which must stay bounded. */
static int ws_sweep_dims(struct ws_sweep *s, const struct ws_ynode *zip,
                         struct ws_err *err)
{
    int zipped[WS_SWEEP_MAX_AXES] = {0};
    size_t first_dim[WS_SWEEP_MAX_AXES];
    const struct ws_ynode *g = zip ? zip->child : NULL;
    size_t ngroups = 0;
    double total = 1;

    if (zip && zip->kind != WS_YNODE_SEQ)
        return ws_err_at(err, zip->file, zip->line, zip->col,
                         "zip is not a "
                         "list (expected [[axis, axis], ...])");
    for (; g; g = g->next, ngroups++)
        if (ws_sweep_zip_group(s, g, zipped, WS_SWEEP_MAX_AXES + ngroups, err)
            < 0)
            return -1;
    /* Digits in the order of each group's (or lone axis's) first axis. */
    for (size_t i = 0; i < WS_SWEEP_MAX_AXES; i++)
        first_dim[i] = (size_t)-1;
    s->ndims = 0;
    for (size_t i = 0; i < s->naxes; i++) {
        struct ws_axis *a = &s->axes[i];
        size_t key = zipped[i] ? a->dim - WS_SWEEP_MAX_AXES : (size_t)-1;
        if (zipped[i] && first_dim[key] != (size_t)-1) {
            a->dim = first_dim[key];
            continue;
        }
        a->dim = s->ndims++;
        if (zipped[i])
            first_dim[key] = a->dim;
        s->dim_size[a->dim] = a->nvalues;
        total *= (double)a->nvalues;
    }
    if (total > WS_SWEEP_MAX_POINTS)
        return ws_err_at(err, s->path, 1, 1,
                         "the axes make %.0f points "
                         "(expected at most %d; split the sweep)",
                         total, WS_SWEEP_MAX_POINTS);
    s->npoints = (size_t)total;
    return ws_sweep_repeats(s, zipped, err);
}

static int ws_sweep_fixed(const struct ws_ynode *map, const char *prefix,
                          char **out, long (*at)[2], size_t *n,
                          struct ws_err *err)
{
    if (map->kind != WS_YNODE_MAP)
        return ws_err_at(err, map->file, map->line, map->col,
                         "%s is not a "
                         "mapping (expected {name: value, ...})",
                         map->key);
    for (const struct ws_ynode *e = map->child; e; e = e->next) {
        if (ws_sweep_scalar(e, "one value", err) < 0)
            return -1;
        if (*n == WS_SWEEP_MAX_FIXED)
            return ws_err_at(err, e->file, e->key_line, e->key_col,
                             "more "
                             "than %d entries in %s (expected fewer)",
                             WS_SWEEP_MAX_FIXED, map->key);
        if (strcmp(prefix, "set") == 0 && ws_cfg_key_find(e->key) < 0)
            return ws_err_at(err, e->file, e->key_line, e->key_col,
                             "unknown "
                             "config key '%s' (expected a key that 'warpsim "
                             "config show' lists)",
                             e->key);
        at[*n][0] = e->line;
        at[*n][1] = e->col;
        out[*n] = ws_sweep_printf("%s=%s", e->key, e->value);
        if (!out[*n])
            return ws_err_oom(err);
        (*n)++;
    }
    return 0;
}

static int ws_sweep_plot_entry(struct ws_sweep_plot *p,
                               const struct ws_ynode *m, struct ws_err *err)
{
    char **slot;

    p->line = m->line;
    p->col = m->col;
    if (m->kind != WS_YNODE_MAP)
        return ws_err_at(err, m->file, m->line, m->col,
                         "a plot is not a "
                         "mapping (expected {x: AXIS, y: COLUMN, file: "
                         "NAME.svg})");
    for (const struct ws_ynode *e = m->child; e; e = e->next) {
        if (strcmp(e->key, "log") == 0) {
            const char *v = e->kind == WS_YNODE_SCALAR ? e->value : "";
            for (const struct ws_ynode *i = e->child; i; i = i->next) {
                if (i->kind == WS_YNODE_SCALAR && strcmp(i->value, "x") == 0)
                    p->logx = 1;
                else if (i->kind == WS_YNODE_SCALAR
                         && strcmp(i->value, "y") == 0)
                    p->logy = 1;
                else
                    return ws_err_at(err, i->file, i->line, i->col,
                                     "bad log "
                                     "axis (expected x or y)");
            }
            if (e->kind == WS_YNODE_SCALAR) {
                p->logx = strchr(v, 'x') != NULL;
                p->logy = strchr(v, 'y') != NULL;
                if (strspn(v, "xy") != strlen(v) || !*v)
                    return ws_err_at(err, e->file, e->line, e->col,
                                     "bad log "
                                     "'%s' (expected x, y, xy or [x, y])",
                                     v);
            }
            continue;
        }
        slot = strcmp(e->key, "x") == 0        ? &p->x
               : strcmp(e->key, "y") == 0      ? &p->y
               : strcmp(e->key, "series") == 0 ? &p->series
               : strcmp(e->key, "file") == 0   ? &p->file
               : strcmp(e->key, "title") == 0  ? &p->title
                                               : NULL;
        if (!slot)
            return ws_err_at(err, e->file, e->key_line, e->key_col,
                             "unknown "
                             "plot key '%s' (expected x, y, series, log, "
                             "file or title)",
                             e->key);
        if (ws_sweep_scalar(e, "one name", err) < 0)
            return -1;
        if (!(*slot = strdup(e->value)))
            return ws_err_oom(err);
    }
    if (!p->x || !p->y || !p->file)
        return ws_err_at(err, m->file, m->line, m->col,
                         "plot without %s "
                         "(expected x, y and file)",
                         !p->x   ? "x"
                         : !p->y ? "y"
                                 : "file");
    if (strchr(p->file, '/') || strcmp(p->file, "..") == 0)
        return ws_err_at(err, m->file, m->line, m->col,
                         "plot file '%s' is "
                         "a path (expected a file name: plots are drawn "
                         "beside the results)",
                         p->file);
    if (!*p->file || strcmp(p->file, ".") == 0)
        return ws_err_at(err, m->file, m->line, m->col,
                         "plot file '%s' is "
                         "not a file name (expected NAME.svg)",
                         p->file);
    return 0;
}

static int ws_sweep_plots(struct ws_sweep *s, const struct ws_ynode *n,
                          struct ws_err *err)
{
    size_t count = 0;

    if (n->kind != WS_YNODE_SEQ)
        return ws_err_at(err, n->file, n->line, n->col,
                         "plots is not a list "
                         "(expected - {x: ..., y: ..., file: ...})");
    for (const struct ws_ynode *e = n->child; e; e = e->next)
        if (++count > WS_SWEEP_MAX_PLOTS)
            return ws_err_at(err, e->file, e->line, e->col,
                             "more than %d "
                             "plots (expected fewer: each is a gnuplot run "
                             "at the end of the sweep)",
                             WS_SWEEP_MAX_PLOTS);
    s->plots = calloc(count ? count : 1, sizeof *s->plots);
    if (!s->plots)
        return ws_err_oom(err);
    for (const struct ws_ynode *e = n->child; e; e = e->next)
        if (ws_sweep_plot_entry(&s->plots[s->nplots++], e, err) < 0)
            return -1;
    return 0;
}

static int ws_sweep_report_key(struct ws_sweep *s, const struct ws_ynode *n,
                               struct ws_err *err)
{
    const struct ws_ynode *t;

    if (n->kind != WS_YNODE_MAP)
        return ws_err_at(err, n->file, n->line, n->col,
                         "report is not a "
                         "mapping (expected {target: COLUMN})");
    for (t = n->child; t; t = t->next)
        if (strcmp(t->key, "target") != 0)
            return ws_err_at(err, t->file, t->key_line, t->key_col,
                             "unknown "
                             "report key '%s' (expected target)",
                             t->key);
    t = ws_yaml_get(n, "target");
    if (!t)
        return 0;
    if (ws_sweep_scalar(t, "a column name", err) < 0)
        return -1;
    s->target_line = t->line;
    s->target_col = t->col;
    free(s->target);
    s->target = strdup(t->value);
    return s->target ? 0 : ws_err_oom(err);
}

/* ---- the file --------------------------------------------------------- */

static int ws_sweep_path_key(struct ws_sweep *s, const struct ws_ynode *n,
                             char **out, struct ws_err *err)
{
    if (ws_sweep_scalar(n, "a path", err) < 0)
        return -1;
    *out = strcmp(n->key, "gpu") == 0 ? ws_sweep_resolve_gpu(s->path, n->value)
                                      : ws_sweep_resolve(s->path, n->value);
    return *out ? 0 : ws_err_oom(err);
}

static int ws_sweep_top_entry(struct ws_sweep *s, const struct ws_ynode *e,
                              const struct ws_ynode **zip, struct ws_err *err)
{
    if (strcmp(e->key, "kernel") == 0) {
        s->input_line = e->line;
        s->input_col = e->col;
        return ws_sweep_path_key(s, e, &s->input, err);
    }
    if (strcmp(e->key, "gpu") == 0) {
        s->gpu_line = e->line;
        s->gpu_col = e->col;
        return ws_sweep_path_key(s, e, &s->gpu, err);
    }
    if (strcmp(e->key, "listing") == 0)
        return ws_sweep_path_key(s, e, &s->listing, err);
    if (strcmp(e->key, "params") == 0)
        return ws_sweep_fixed(e, "param", s->fixed_params, s->fixed_params_at,
                              &s->nfixed_params, err);
    if (strcmp(e->key, "set") == 0)
        return ws_sweep_fixed(e, "set", s->fixed_sets, s->fixed_sets_at,
                              &s->nfixed_sets, err);
    if (strcmp(e->key, "axes") == 0) {
        if (e->kind != WS_YNODE_MAP || !e->child)
            return ws_err_at(err, e->file, e->line, e->col,
                             "axes is not a "
                             "mapping of axes (expected param.NAME: [...], "
                             "set.KEY: [...] or gpu: [...])");
        for (const struct ws_ynode *a = e->child; a; a = a->next)
            if (ws_sweep_axis(s, a, err) < 0)
                return -1;
        return 0;
    }
    if (strcmp(e->key, "zip") == 0) {
        *zip = e;
        return 0;
    }
    if (strcmp(e->key, "plots") == 0)
        return ws_sweep_plots(s, e, err);
    if (strcmp(e->key, "report") == 0)
        return ws_sweep_report_key(s, e, err);
    if (strcmp(e->key, "models") == 0)
        return ws_sweep_models_key(s, e, err);
    return ws_err_at(err, e->file, e->key_line, e->key_col,
                     "unknown key '%s' "
                     "(expected kernel, gpu, params, set, listing, axes, zip, "
                     "plots, report or models)",
                     e->key);
}

/* An axis over a fixed setting would silently override it: which one the
 * user meant is theirs to say. */
static int ws_sweep_fixed_clash(const struct ws_sweep *s, struct ws_err *err)
{
    for (size_t i = 0; i < s->naxes; i++) {
        const struct ws_axis *a = &s->axes[i];
        char *const *fixed = a->kind == WS_AXIS_PARAM ? s->fixed_params
                                                      : s->fixed_sets;
        size_t n = a->kind == WS_AXIS_PARAM ? s->nfixed_params
                   : a->kind == WS_AXIS_SET ? s->nfixed_sets
                                            : 0;
        size_t len = strlen(a->target);
        for (size_t k = 0; k < n; k++)
            if (strncmp(fixed[k], a->target, len) == 0 && fixed[k][len] == '=')
                return ws_err_at(err, s->path, a->line, a->col,
                                 "axis '%s' "
                                 "is also fixed under %s: (expected either "
                                 "a fixed value or an axis)",
                                 a->name,
                                 a->kind == WS_AXIS_PARAM ? "params" : "set");
    }
    return 0;
}

static int ws_sweep_parse(struct ws_sweep *s, const struct ws_ynode *root,
                          struct ws_err *err)
{
    const struct ws_ynode *zip = NULL;

    for (const struct ws_ynode *e = root->child; e; e = e->next)
        if (ws_sweep_top_entry(s, e, &zip, err) < 0)
            return -1;
    if (!s->input)
        return ws_err_at(err, s->path, 1, 1,
                         "no kernel: (expected the trace "
                         "or workload.yaml the sweep runs)");
    if (!s->naxes)
        return ws_err_at(err, s->path, 1, 1,
                         "no axes: (expected at least "
                         "one axis to sweep)");
    if (!s->target && !(s->target = strdup("cycles")))
        return ws_err_oom(err);
    if (ws_sweep_fixed_clash(s, err) < 0)
        return -1;
    return ws_sweep_dims(s, zip, err);
}

int ws_sweep_load(struct ws_sweep *s, const char *path, struct ws_err *err)
{
    struct ws_ynode *root = NULL;
    size_t len;
    char *text;
    int rc;

    memset(s, 0, sizeof *s);
    s->path = strdup(path);
    if (!s->path)
        return ws_err_oom(err);
    text = ws_file_read(path, "sweep", WS_SWEEP_MAX_FILE, &len, NULL, err);
    if (!text)
        return -1;
    rc = ws_yaml_parse(&root, path, text, len, err);
    free(text);
    if (rc == 0)
        rc = ws_sweep_parse(s, root, err);
    ws_yaml_free(root);
    return rc;
}

void ws_sweep_free(struct ws_sweep *s)
{
    for (size_t i = 0; i < s->naxes; i++) {
        for (size_t j = 0; j < s->axes[i].nvalues; j++) {
            free(s->axes[i].values[j].assign);
            free(s->axes[i].values[j].cell);
        }
        free(s->axes[i].values);
        free(s->axes[i].name);
    }
    for (size_t i = 0; i < s->nfixed_params; i++)
        free(s->fixed_params[i]);
    for (size_t i = 0; i < s->nfixed_sets; i++)
        free(s->fixed_sets[i]);
    for (size_t i = 0; i < s->nplots; i++) {
        free(s->plots[i].x);
        free(s->plots[i].y);
        free(s->plots[i].series);
        free(s->plots[i].file);
        free(s->plots[i].title);
    }
    free(s->plots);
    for (size_t i = 0; i < s->nmodels; i++) {
        free(s->models[i]);
        free(s->models_dir[i]);
    }
    free(s->path);
    free(s->input);
    free(s->gpu);
    free(s->listing);
    free(s->target);
    memset(s, 0, sizeof *s);
}
