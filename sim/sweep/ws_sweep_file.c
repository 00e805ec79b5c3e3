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
 * Leaves out: YAML itself (util/ws_yaml), an axis and its values
 * (ws_sweep_axis.c), the point numbering (ws_sweep_points.c).
 */
#include "ws_sweep.h"
#include "ws_sweep_file.h"

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

char *ws_sweep_printf(const char *fmt, const char *a, const char *b)
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
char *ws_sweep_resolve_gpu(const char *sweep_path, const char *gpu)
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

int ws_sweep_scalar(const struct ws_ynode *n, const char *what,
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
int ws_sweep_item(const struct ws_ynode *n, const char *list, const char *what,
                  struct ws_err *err)
{
    if (n->kind != WS_YNODE_SCALAR)
        return ws_err_at(err, n->file, n->line, n->col,
                         "an item of %s is "
                         "not a single value (expected %s)",
                         list, what);
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
