/*
 * ws_cfg_load: from a --gpu argument and --set overrides to a validated
 * struct ws_gpu (see ws_config.h).
 *
 * Steps: find the YAML (a file, else a compiled-in config by name), follow
 * its "base:" chain with the child's keys winning, apply the overrides in
 * order, then convert every value through the schema and check the whole.
 * Every message points at the text responsible: the file and line of a bad
 * value, or "command line:K:col" for the --set in word K of the command.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "trace/ws_opcode.h"
#include "util/ws_clip.h"
#include "util/ws_file.h"
#include "ws_cfg_embedded.h"
#include "ws_cfg_schema.h"
#include "ws_cfg_check.h"
#include "ws_config.h"
#include "util/ws_yaml.h"

#define WS_CFG_MAX_DEPTH 8

const char *ws_cfg_default_name(void)
{
    return "v100";
}

const char *ws_cfg_builtin_name(int i)
{
    for (int k = 0; ws_cfg_embedded_files[k].name; k++)
        if (k == i)
            return ws_cfg_embedded_files[k].name;
    return NULL;
}

static const struct ws_cfg_embedded *ws_cfg_find_builtin(const char *name)
{
    size_t n = strlen(name);

    for (int k = 0; ws_cfg_embedded_files[k].name; k++) {
        const char *e = ws_cfg_embedded_files[k].name;
        if (strcmp(e, name) == 0
            || (strncmp(e, name, n) == 0 && strcmp(e + n, ".yaml") == 0))
            return &ws_cfg_embedded_files[k];
    }
    return NULL;
}

/* A config's text, read whole: a config file is small. */
struct ws_cfg_text {
    char *path; /* as shown in messages */
    char *dir;  /* folder for a relative "base:" */
    char *text;
    size_t len;
    int builtin; /* compiled in: text not owned, its base: built in */
};

static void ws_cfg_text_free(struct ws_cfg_text *t)
{
    free(t->path);
    free(t->dir);
    if (!t->builtin)
        free(t->text);
}

/* 1 when path names no file (the caller then tries the built-in names),
 * 0 when read, -1 on error. */
static int ws_cfg_read_file(struct ws_cfg_text *t, const char *name,
                            const char *dir, struct ws_err *err)
{
    const char *slash;
    struct stat st;
    int missing;

    t->path = malloc((dir ? strlen(dir) : 0) + strlen(name) + 2);
    if (!t->path)
        return ws_err_oom(err);
    if (dir && *dir && name[0] != '/')
        sprintf(t->path, "%s/%s", dir, name);
    else
        strcpy(t->path, name);
    /* A folder named like a built-in config ("--gpu v100" beside a v100/
     * folder of results) is not what the name means. */
    if (ws_cfg_find_builtin(name) && stat(t->path, &st) == 0
        && S_ISDIR(st.st_mode))
        return 1;
    /* t->path is the caller's to free; passing &t->len makes the analyser
     * forget it.  NOLINTNEXTLINE(clang-analyzer-unix.Malloc) */
    t->text = ws_file_read(t->path, "config", WS_CFG_MAX_FILE, &t->len,
                           &missing, err);
    if (!t->text)
        return missing ? 1 : -1;
    slash = strrchr(t->path, '/');
    t->dir = strdup(t->path);
    if (!t->dir)
        return ws_err_oom(err);
    t->dir[slash ? slash - t->path : 0] = '\0';
    return 0;
}

/* A config named by --gpu or by base:, a file first, else a built-in name.
 * A built-in config's base: names a built-in config only, so that a file
 * in the working folder cannot stand in for it.  Returns -1 without
 * setting err when name is found nowhere. */
static int ws_cfg_open_text(struct ws_cfg_text *t, const char *name,
                            const char *dir, int builtin_only,
                            struct ws_err *err)
{
    const struct ws_cfg_embedded *e;
    int rc;

    memset(t, 0, sizeof *t);
    if (!builtin_only) {
        rc = ws_cfg_read_file(t, name, dir, err);
        if (rc <= 0)
            return rc;
        free(t->path);
        t->path = NULL;
    }
    e = ws_cfg_find_builtin(name);
    if (!e)
        return -1;
    t->builtin = 1;
    t->path = malloc(strlen(e->name) + 9);
    if (!t->path)
        return ws_err_oom(err);
    sprintf(t->path, "configs/%s", e->name);
    t->text = (char *)e->text;
    t->len = e->len;
    return 0;
}

static int ws_cfg_load_tree(struct ws_ynode **out, const char *name,
                            const char *dir, int builtin_only, int depth,
                            struct ws_err *err);

/* Replaces *tree with its base merged under it. */
static int ws_cfg_apply_base(struct ws_ynode **tree,
                             const struct ws_cfg_text *t, int depth,
                             struct ws_err *err)
{
    struct ws_ynode *b = ws_yaml_get(*tree, "base");
    struct ws_ynode *base = NULL;
    int rc;

    if (!b)
        return 0;
    if (b->kind != WS_YNODE_SCALAR)
        return ws_err_at(err, b->file, b->line, b->col,
                         "base is not a name "
                         "(expected the name of another config)");
    if (depth >= WS_CFG_MAX_DEPTH)
        return ws_err_at(err, b->file, b->line, b->col,
                         "base chain deeper "
                         "than %d (expected no cycle of base: configs)",
                         WS_CFG_MAX_DEPTH);
    if (ws_cfg_load_tree(&base, b->value, t->dir, t->builtin, depth + 1, err)
        < 0) {
        struct ws_clip q;
        if (!err->set)
            ws_err_at(err, b->file, b->line, b->col,
                      "base config '%s' not "
                      "found (expected a file beside this one or a built-in "
                      "name)",
                      ws_clip(&q, b->value));
        /* An unreadable file: the message names it, this line places it. */
        ws_err_place(err, b->file, b->line, b->col);
        return -1;
    }
    ws_yaml_remove(*tree, "base");
    base->file = (*tree)->file;
    rc = ws_yaml_merge(base, *tree);
    *tree = base;
    return rc < 0 ? ws_err_oom(err) : 0;
}

/* Returns -1 without setting err when name is found nowhere. */
static int ws_cfg_load_tree(struct ws_ynode **out, const char *name,
                            const char *dir, int builtin_only, int depth,
                            struct ws_err *err)
{
    struct ws_cfg_text t;
    int rc;

    *out = NULL;
    if (ws_cfg_open_text(&t, name, dir, builtin_only, err) < 0) {
        ws_cfg_text_free(&t);
        return -1;
    }
    rc = ws_yaml_parse(out, t.path, t.text, t.len, err);
    if (rc == 0)
        rc = ws_cfg_apply_base(out, &t, depth, err);
    ws_cfg_text_free(&t);
    if (rc < 0) {
        ws_yaml_free(*out);
        *out = NULL;
    }
    return rc;
}

static int ws_cfg_unknown_key(const struct ws_ynode *n, const char *path,
                              struct ws_err *err)
{
    const char *hint = ws_cfg_key_suggest(path);
    struct ws_clip q;

    if (hint)
        return ws_err_at(err, n->file, n->key_line, n->key_col,
                         "unknown "
                         "key '%s' (expected a config key; did you mean "
                         "'%s'?)",
                         ws_clip(&q, path), hint);
    return ws_err_at(err, n->file, n->key_line, n->key_col,
                     "unknown key "
                     "'%s' (expected a config key, as listed by 'warpsim "
                     "config show')",
                     ws_clip(&q, path));
}

struct ws_cfg_build {
    struct ws_gpu *gpu;
    struct ws_cfg_loc *locs;
    struct ws_err *err;
};

static int ws_cfg_walk(struct ws_cfg_build *b, const struct ws_ynode *map,
                       const char *prefix)
{
    for (const struct ws_ynode *n = map->child; n; n = n->next) {
        char path[160];
        long k;
        const char *expected;
        if ((size_t)snprintf(path, sizeof path, "%s%s%s", prefix,
                             *prefix ? "." : "", n->key)
            >= sizeof path)
            return ws_cfg_unknown_key(n, n->key, b->err);
        if (n->kind == WS_YNODE_SEQ)
            return ws_err_at(b->err, n->file, n->line, n->col,
                             "a list is not "
                             "a config value (expected a scalar or a "
                             "mapping)");
        if (n->kind == WS_YNODE_MAP) {
            if (ws_cfg_key_find(path) >= 0)
                return ws_err_at(b->err, n->file, n->line, n->col,
                                 "'%s' "
                                 "takes a value, not a mapping (expected "
                                 "'%s: VALUE')",
                                 path, n->key);
            if (!ws_cfg_key_is_group(path))
                return ws_cfg_unknown_key(n, path, b->err);
            if (ws_cfg_walk(b, n, path) < 0)
                return -1;
            continue;
        }
        k = ws_cfg_key_find(path);
        if (k < 0) {
            if (ws_cfg_key_is_group(path))
                return ws_err_at(b->err, n->file, n->line, n->col,
                                 "'%s' is "
                                 "a group of keys (expected a mapping under "
                                 "it)",
                                 path);
            return ws_cfg_unknown_key(n, path, b->err);
        }
        if (ws_cfg_key_parse(ws_cfg_key((size_t)k), b->gpu, n->value, &expected)
            < 0) {
            struct ws_clip q;
            return ws_err_at(b->err, n->file, n->line, n->col,
                             "%s: bad "
                             "value '%s' (expected %s)",
                             path, ws_clip(&q, n->value), expected);
        }
        b->locs[k].file = n->file;
        b->locs[k].line = n->line;
        b->locs[k].col = n->col;
    }
    return 0;
}

/* The scalar at a dotted path of the config tree, or NULL. */
static const struct ws_ynode *ws_cfg_tree_get(const struct ws_ynode *root,
                                              const char *path)
{
    char part[160];
    const struct ws_ynode *n = root;

    while (n && *path) {
        size_t len = strcspn(path, ".");
        if (len >= sizeof part)
            return NULL;
        memcpy(part, path, len);
        part[len] = '\0';
        n = n->kind == WS_YNODE_MAP ? ws_yaml_get(n, part) : NULL;
        path += len + (path[len] == '.');
    }
    return n && n->kind == WS_YNODE_SCALAR ? n : NULL;
}

/* A plain decimal number at s ("3.9", "1e-3", no sign, hex, nan or inf):
 * its value and where it ends, or NULL. */
static const char *ws_cfg_decimal(const char *s, double *v)
{
    const char *p = s;
    char *end;

    while (*p >= '0' && *p <= '9')
        p++;
    if (*p == '.')
        for (p++; *p >= '0' && *p <= '9'; p++)
            ;
    if (p == s || (p == s + 1 && *s == '.'))
        return NULL;
    if (*p == 'e' || *p == 'E') {
        const char *q = p + 1 + (p[1] == '+' || p[1] == '-');
        if (*q >= '0' && *q <= '9') {
            for (p = q; *p >= '0' && *p <= '9'; p++)
                ;
        }
    }
    *v = strtod(s, &end);
    return end == p ? p : NULL;
}

/* A unit after a number: letters and '/' only ("GB/s", "MiB", "us"). */
static int ws_cfg_unit_word(const char *u)
{
    for (; *u; u++)
        if (!((*u >= 'a' && *u <= 'z') || (*u >= 'A' && *u <= 'Z')
              || *u == '/'))
            return 0;
    return 1;
}

/* A relative override, "x1.5" (or "*1.5"): the config's value at key times
 * the factor, in the value's own unit ("3352GB/s" x 1.5 = "5028GB/s"), so
 * that a sweep or a what-if can say "half the L2, twice the bandwidth"
 * without copying the config's figures.  0 with *out written; -1 with
 * err set (no value there to scale, or one that is not a number). */
static int ws_cfg_relative(const struct ws_ynode *root, const char *key,
                           const char *rel, char *out, size_t cap,
                           const char *set, int idx, struct ws_err *err)
{
    const struct ws_ynode *n = ws_cfg_tree_get(root, key);
    const char *end;
    double f = 0, v = 0;
    struct ws_clip q;

    end = ws_cfg_decimal(rel + 1, &f);
    if (!end || *end || f > 1e9)
        return ws_err_arg(err, set, 0, idx,
                          "--set %s: bad factor '%s' (expected x and a "
                          "decimal number up to 1e9, e.g. x1.5)",
                          key, ws_clip(&q, rel));
    if (!n || !n->value)
        return ws_err_arg(err, set, 0, idx,
                          "--set %s: the config gives this key no value "
                          "to scale (expected an absolute value)",
                          key);
    /* one decimal number and its unit: a list (sm.carveouts), a word
     * (l2.hash) or a number the config file writes wrongly (0x42) has
     * nothing to scale, and the last must still fail where it is */
    end = ws_cfg_decimal(n->value, &v);
    if (!end || !ws_cfg_unit_word(end))
        return ws_err_arg(err, set, 0, idx,
                          "--set %s: the config's value '%s' is not one "
                          "number to scale (expected an absolute value)",
                          key, ws_clip(&q, n->value));
    if ((size_t)snprintf(out, cap, "%.10g%s", v * f, end) >= cap)
        return ws_err_arg(err, set, 0, idx, "--set %s: value too long", key);
    return 0;
}

static int ws_cfg_apply_sets(struct ws_ynode *root, const char *const *sets,
                             int nsets, struct ws_err *err)
{
    for (int i = 0; i < nsets; i++) {
        const char *eq = strchr(sets[i], '='), *value;
        char key[160], scaled[96];
        size_t n;
        long word, col;
        ws_err_arg_locate(sets[i], i + 1, &word, &col);
        if (!eq || eq == sets[i]) {
            struct ws_clip q;
            return ws_err_arg(err, sets[i], 0, i + 1,
                              "--set '%s' has no %s (expected --set "
                              "key=value, e.g. l2.size=12MiB)",
                              ws_clip(&q, sets[i]), eq ? "key" : "'='");
        }
        n = (size_t)(eq - sets[i]);
        if (n >= sizeof key)
            n = sizeof key - 1;
        memcpy(key, sets[i], n);
        key[n] = '\0';
        if (ws_cfg_key_find(key) < 0) {
            const char *hint = ws_cfg_key_suggest(key);
            struct ws_clip q;
            return ws_err_arg(err, sets[i], 0, i + 1,
                              "--set: unknown "
                              "key '%s' (expected a config key%s%s%s)",
                              ws_clip(&q, key), hint ? "; did you mean '" : "",
                              hint ? hint : "", hint ? "'?" : "");
        }
        value = eq + 1;
        if ((value[0] == 'x' || value[0] == '*')
            && (value[1] == '.' || value[1] == '+' || value[1] == '-'
                || (value[1] >= '0' && value[1] <= '9'))) {
            if (ws_cfg_relative(root, key, value, scaled, sizeof scaled,
                                sets[i], i + 1, err)
                < 0)
                return -1;
            value = scaled;
        }
        if (ws_yaml_set(root, key, value, WS_CFG_CMDLINE, word,
                        col + (long)n + 1)
            < 0)
            return ws_err_arg(
                err, sets[i], 0, i + 1,
                "--set %s: a "
                "config file gives a plain value where this key's "
                "group belongs (expected a mapping)",
                key);
    }
    return 0;
}

static int ws_cfg_required(const struct ws_cfg_build *b, const char *file,
                           struct ws_err *err)
{
    for (size_t i = 0; i < ws_cfg_key_count(); i++) {
        const struct ws_key *k = ws_cfg_key(i);
        if (!b->locs[i].file && !(k->flags & WS_KF_OPTIONAL))
            return ws_err_at(err, file, 1, 1,
                             "missing key '%s' (expected it "
                             "in this config or its base)",
                             k->path);
    }
    return 0;
}

static void ws_cfg_defaults(struct ws_gpu *gpu)
{
    memset(gpu, 0, sizeof *gpu);
    gpu->unknown_class = WS_OPC_MISC;
    gpu->sched.active_warps = 8;
    gpu->model.tmm_scale = 1.0;
    gpu->l1.carveout = WS_CARVEOUT_AUTO;
    /* Keys added with the fidelity work: a config written before them
     * still loads, with the simple DRAM model and Accel-Sim's QV100 queue
     * sizes (miss queue 16, partition queues 64). */
    gpu->l1.miss_queue = 16;
    gpu->l2.input_queue = 64;
    gpu->dram.bank_groups = 1;
    gpu->dram.burst = 32;
    gpu->dram.write_batch = 1;
}

/* "--gpu NAME" found nowhere: placed at NAME's command-line word, with
 * the built-in names (from the table, so a new config is listed). */
static int ws_cfg_not_found(const char *name, struct ws_err *err)
{
    char names[200] = "";
    size_t n = 0;
    struct ws_clip q;

    for (int k = 0; ws_cfg_embedded_files[k].name && n < sizeof names; k++) {
        const char *e = ws_cfg_embedded_files[k].name;
        int len = (int)(strcspn(e, "."));
        n += (size_t)snprintf(names + n, sizeof names - n, "%s%.*s",
                              k ? ", " : "", len, e);
    }
    return ws_err_arg(err, name, 0, 1,
                      "'%s': no such file or built-in GPU "
                      "config (expected a YAML path or one of %s)",
                      ws_clip_path(&q, name), names);
}

int ws_cfg_load(struct ws_gpu *gpu, const char *gpu_arg,
                const char *const *sets, int nsets, struct ws_err *err)
{
    struct ws_cfg_build b = {gpu, gpu->loc, err};
    struct ws_ynode *root = NULL;
    const char *name = gpu_arg ? gpu_arg : ws_cfg_default_name();
    const char *top;
    int rc;

    ws_cfg_defaults(gpu);
    if (ws_cfg_load_tree(&root, name, NULL, 0, 0, err) < 0) {
        if (!err->set)
            return ws_cfg_not_found(name, err);
        /* An unreadable file: its name is the --gpu word. */
        ws_err_place_arg(err, name);
        return -1;
    }
    /* File names live as long as the process (ws_yaml.c keeps them). */
    top = root->file;
    gpu->top = top;
    rc = ws_cfg_apply_sets(root, sets, nsets, err);
    if (rc == 0)
        rc = ws_cfg_walk(&b, root, "");
    if (rc == 0)
        rc = ws_cfg_required(&b, top, err);
    if (rc == 0)
        rc = ws_cfg_check(gpu, err);
    ws_yaml_free(root);
    return rc;
}
