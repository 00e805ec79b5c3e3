/*
 * ws_workload: loading and checking workload descriptions (see
 * ws_workload.h).
 *
 * Name slots: parameters first (so launch and buffer expressions, which may
 * use only parameters, compile against a prefix of the table), then the
 * thread and CTA coordinates, buffers, loop counters and lets.
 */
#include "ws_workload_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/ws_clip.h"
#include "util/ws_file.h"
#include "util/ws_num.h"

#define WS_WL_MAX_FILE (1u << 20)

static const char *const ws_fixed_names[WS_SLOT_FIXED] = {
    "tid.x",    "tid.y",    "tid.z",  "ctaid.x", "ctaid.y",
    "ctaid.z",  "ntid.x",   "ntid.y", "ntid.z",  "nctaid.x",
    "nctaid.y", "nctaid.z", "lane",   "warp",    "off"};


int ws_wl_bad(struct ws_wl_ctx *c, const struct ws_ynode *n, const char *what,
              const char *expected)
{
    return ws_err_at(c->err, n->file, n->line, n->col, "%s (expected %s)", what,
                     expected);
}

static int ws_wl_add_name(struct ws_wl_ctx *c, const struct ws_ynode *at,
                          const char *name)
{
    struct ws_workload *w = c->w;
    char *copy;
    int slot;

    if (ws_expr_find(&w->names, name, strlen(name)) >= 0)
        return ws_err_at(c->err, at->file, at->key_line, at->key_col,
                         "name '%s' defined twice (expected each parameter, "
                         "buffer, counter and let once, none named like "
                         "tid.x)",
                         name);
    copy = strdup(name);
    if (!copy)
        return ws_err_oom(c->err);
    slot = ws_expr_name(&w->names, copy);
    if (slot < 0) {
        free(copy);
        return ws_wl_bad(c, at, "too many names",
                         "at most 128 parameters, "
                         "buffers, counters and lets");
    }
    w->name_store[slot] = copy;
    return slot;
}

int ws_wl_const(struct ws_wl_ctx *c, const struct ws_ynode *n, int64_t *out)
{
    struct ws_expr_names params = c->w->names;
    struct ws_expr e;
    int rc;

    if (n->kind != WS_YNODE_SCALAR)
        return ws_wl_bad(c, n, "not a value",
                         "a number or an expression of "
                         "the parameters");
    params.n = c->w->nparams;
    if (ws_expr_compile(&e, n->value, &params, n->file, n->line, n->col, c->err)
        < 0)
        return -1;
    rc = ws_expr_eval(&e, c->w->param_value, out, c->err);
    ws_expr_free(&e);
    return rc;
}

static int ws_wl_params(struct ws_wl_ctx *c, const char *const *sets, int nsets)
{
    struct ws_ynode *p = ws_yaml_get(c->root, "params");
    struct ws_workload *w = c->w;

    for (struct ws_ynode *n = p ? p->child : NULL; n; n = n->next) {
        int slot = ws_wl_add_name(c, n, n->key);
        if (slot < 0)
            return -1;
        w->nparams = (uint32_t)slot; /* earlier params only */
        if (ws_wl_const(c, n, &w->param_value[slot]) < 0)
            return -1;
        w->nparams = (uint32_t)slot + 1;
    }
    for (int i = 0; i < nsets; i++) {
        const char *eq = strchr(sets[i], '=');
        int slot = eq ? ws_expr_find(&w->names, sets[i], (size_t)(eq - sets[i]))
                      : -1;
        int64_t v;
        if (slot < 0 || (uint32_t)slot >= w->nparams) {
            struct ws_clip q, qp;
            return ws_err_arg(c->err, sets[i], 0, i + 1,
                              "--param '%s' "
                              "names no parameter of %s (expected name=value "
                              "for a key under params:)",
                              ws_clip(&q, sets[i]), ws_clip_path(&qp, w->path));
        }
        if (ws_num_i64(eq + 1, strlen(eq + 1), &v) < 0) {
            uint64_t h;
            struct ws_clip q;
            /* Hexadecimal needs its 0x: "ff" or "1e3" are typos, not
             * numbers. */
            if (strncmp(eq + 1, "0x", 2) != 0
                || ws_num_hex(eq + 1, strlen(eq + 1), &h) < 0 || h > INT64_MAX)
                return ws_err_arg(c->err, sets[i], (long)(eq - sets[i]) + 1,
                                  i + 1,
                                  "--param value "
                                  "'%s' is not an integer (expected a decimal "
                                  "or 0x number)",
                                  ws_clip(&q, eq + 1));
            v = (int64_t)h;
        }
        w->param_value[slot] = v;
    }
    return 0;
}

/* CUDA's limits per dimension: grid x below 2^31, y and z below 2^16;
 * block x and y up to 1024, z up to 64 (and 1024 threads in all). */
static const int64_t ws_grid_max[3] = {0x7fffffff, 65535, 65535};
static const int64_t ws_block_max[3] = {WS_CUDA_MAX_BLOCK_THREADS,
                                        WS_CUDA_MAX_BLOCK_THREADS,
                                        WS_CUDA_MAX_BLOCK_Z};

/* [x, y, z], or one value n meaning [n, 1, 1] as a CUDA launch's int
 * does; a list of one or two values is a mistake, not a shorthand. */
static int ws_wl_dim3(struct ws_wl_ctx *c, const struct ws_ynode *n,
                      const char *what, const int64_t max[3], uint32_t out[3])
{
    const struct ws_ynode *item[3] = {n, n, n};
    int64_t v[3] = {1, 1, 1};
    int k = 0;
    char msg[96];

    if (n->kind == WS_YNODE_SCALAR) {
        if (ws_wl_const(c, n, &v[0]) < 0)
            return -1;
    } else {
        const struct ws_ynode *i = n->kind == WS_YNODE_SEQ ? n->child : NULL;
        for (; i && k < 3; i = i->next, k++)
            if (ws_wl_const(c, item[k] = i, &v[k]) < 0)
                return -1;
        if (n->kind == WS_YNODE_MAP)
            snprintf(msg, sizeof msg, "%s is a mapping", what);
        else if (i)
            snprintf(msg, sizeof msg, "%s has more than 3 values", what);
        else if (k < 3)
            snprintf(msg, sizeof msg, "%s has %d value%s", what, k,
                     k == 1 ? "" : "s");
        if (n->kind == WS_YNODE_MAP || i || k < 3)
            return ws_wl_bad(c, i ? i : n, msg,
                             "[x, y, z], or one number "
                             "n for [n, 1, 1]");
    }
    for (k = 0; k < 3; k++) {
        if (v[k] < 1 || v[k] > max[k]) {
            snprintf(msg, sizeof msg, "%s %c of %lld is out of range", what,
                     "xyz"[k], (long long)v[k]);
            return ws_err_at(c->err, item[k]->file, item[k]->line, item[k]->col,
                             "%s (expected 1 to %lld)", msg, (long long)max[k]);
        }
        out[k] = (uint32_t)v[k];
    }
    return 0;
}

/* A launch larger than --max-ctas is almost always a parameter typo. */
static int ws_wl_grid(struct ws_wl_ctx *c, const struct ws_ynode *l)
{
    struct ws_workload *w = c->w;
    const struct ws_ynode *n = ws_yaml_get(l, "grid");
    uint64_t ctas;

    if (!n)
        return ws_wl_bad(c, l, "no grid", "launch: {grid: [x, y, z]}");
    if (ws_wl_dim3(c, n, "grid", ws_grid_max, w->launch.grid) < 0)
        return -1;
    ctas = ws_launch_ctas(&w->launch);
    if (ctas > w->opts.max_ctas)
        return ws_err_at(c->err, n->file, n->line, n->col,
                         "grid of %llu "
                         "CTAs is over the limit of %llu (expected at most "
                         "--max-ctas CTAs; raise it with --max-ctas N)",
                         (unsigned long long)ctas,
                         (unsigned long long)w->opts.max_ctas);
    return 0;
}

static int ws_wl_block(struct ws_wl_ctx *c, const struct ws_ynode *l)
{
    struct ws_workload *w = c->w;
    const struct ws_ynode *n = ws_yaml_get(l, "block");

    if (!n)
        return ws_wl_bad(c, l, "no block", "launch: {block: [x, y, z]}");
    if (ws_wl_dim3(c, n, "block", ws_block_max, w->launch.block) < 0)
        return -1;
    if (ws_launch_threads(&w->launch) > WS_CUDA_MAX_BLOCK_THREADS)
        return ws_err_at(c->err, n->file, n->line, n->col,
                         "block of %u "
                         "threads (expected at most %d, as CUDA launches)",
                         ws_launch_threads(&w->launch),
                         WS_CUDA_MAX_BLOCK_THREADS);
    return 0;
}

/* An optional launch number: shared bytes or registers per thread. */
static int ws_wl_launch_num(struct ws_wl_ctx *c, const struct ws_ynode *l,
                            const char *key, int64_t min, int64_t max,
                            uint32_t *out)
{
    const struct ws_ynode *n = ws_yaml_get(l, key);
    int64_t v = 0; /* for the analyser: ws_wl_const fails with -1 */

    if (!n)
        return 0;
    if (ws_wl_const(c, n, &v) < 0)
        return -1;
    if (v < min || v > max)
        return ws_err_at(c->err, n->file, n->line, n->col,
                         "%s of %lld is "
                         "out of range (expected %lld to %lld)",
                         key, (long long)v, (long long)min, (long long)max);
    *out = (uint32_t)v;
    return 0;
}


/* A typo in a key ("sizee", "tripz") would otherwise be read as the key
 * being absent, and the workload expanded with a default or not at all. */
int ws_wl_only_keys(struct ws_wl_ctx *c, const struct ws_ynode *map,
                    const char *const *keys, const char *what,
                    const char *expected)
{
    for (const struct ws_ynode *n = map->child; n; n = n->next) {
        int known = 0;
        for (int k = 0; keys[k] && !known; k++)
            known = strcmp(n->key, keys[k]) == 0;
        if (!known) {
            struct ws_clip q;
            return ws_err_at(c->err, n->file, n->key_line, n->key_col,
                             "unknown %s key '%s' (expected %s)", what,
                             ws_clip(&q, n->key), expected);
        }
    }
    return 0;
}

static const char *const ws_wl_launch_keys[] = {"grid",    "block",
                                                "shared",  "registers",
                                                "cluster", NULL};

/* PTX: a cluster of at most 8 CTAs portably, 16 where the kernel allows
 * non-portable sizes; the grid must tile into clusters. */
#define WS_WL_CLUSTER_MAX 16

static int ws_wl_cluster(struct ws_wl_ctx *c, const struct ws_ynode *l)
{
    static const int64_t max[3] = {WS_WL_CLUSTER_MAX, WS_WL_CLUSTER_MAX,
                                   WS_WL_CLUSTER_MAX};
    struct ws_workload *w = c->w;
    const struct ws_ynode *n = ws_yaml_get(l, "cluster");
    uint32_t *d = w->launch.cluster;

    if (!n)
        return 0;
    if (ws_wl_dim3(c, n, "cluster", max, d) < 0)
        return -1;
    if (d[0] * d[1] * d[2] > WS_WL_CLUSTER_MAX)
        return ws_err_at(c->err, n->file, n->line, n->col,
                         "cluster of %u CTAs (expected at most %d)",
                         d[0] * d[1] * d[2], WS_WL_CLUSTER_MAX);
    for (int k = 0; k < 3; k++)
        if (w->launch.grid[k] % d[k] != 0)
            return ws_err_at(c->err, n->file, n->line, n->col,
                             "grid %c of %u is not a multiple of the "
                             "cluster's %u (expected a grid of whole "
                             "clusters)",
                             "xyz"[k], w -> launch.grid[k], d[k]);
    return 0;
}

static int ws_wl_launch(struct ws_wl_ctx *c)
{
    struct ws_workload *w = c->w;
    struct ws_ynode *l = ws_yaml_get(c->root, "launch");

    if (!l || l->kind != WS_YNODE_MAP)
        return ws_err_at(c->err, l ? l->file : w->path, l ? l->line : w->line,
                         l ? l->col : w->col,
                         "no launch: mapping (expected "
                         "launch: {grid: ..., block: ...})");
    if (ws_wl_only_keys(c, l, ws_wl_launch_keys, "launch",
                        "grid, block, "
                        "shared, registers or cluster")
        < 0)
        return -1;
    return ws_wl_grid(c, l) < 0 || ws_wl_block(c, l) < 0
                   || ws_wl_launch_num(c, l, "shared", 0, 4 << 20,
                                       &w->launch.shmem)
                          < 0
                   || ws_wl_launch_num(c, l, "registers", 1, 255,
                                       &w->launch.nregs)
                          < 0
                   || ws_wl_cluster(c, l) < 0
               ? -1
               : 0;
}

static int ws_wl_buffers(struct ws_wl_ctx *c)
{
    static const char *const keys[] = {"base", "size", NULL};
    struct ws_workload *w = c->w;
    struct ws_ynode *b = ws_yaml_get(c->root, "buffers");

    for (struct ws_ynode *n = b ? b->child : NULL; n; n = n->next) {
        struct ws_wl_buffer *buf = &w->buffers[w->nbuffers];
        struct ws_ynode *base = ws_yaml_get(n, "base"),
                        *size = ws_yaml_get(n, "size");
        int64_t v = 0; /* for the analyser, as in ws_wl_launch_num */
        if (w->nbuffers == sizeof w->buffers / sizeof w->buffers[0])
            return ws_wl_bad(c, n, "too many buffers", "at most 32");
        if (n->kind != WS_YNODE_MAP || !base || !size)
            return ws_wl_bad(c, n, "bad buffer", "{base: 0x..., size: bytes}");
        if (ws_wl_only_keys(c, n, keys, "buffer", "base or size") < 0)
            return -1;
        if ((buf->slot = ws_wl_add_name(c, n, n->key)) < 0)
            return -1;
        if (ws_wl_const(c, base, &v) < 0)
            return -1;
        /* Addresses are signed 64-bit values, and negative ones are never
         * inside a buffer: base and base + size must both fit. */
        if (v < 0)
            return ws_wl_bad(c, base, "buffer base is negative",
                             "an "
                             "address from 0 to 2^63 - 1");
        buf->base = (uint64_t)v;
        if (ws_wl_const(c, size, &v) < 0)
            return -1;
        if (v <= 0)
            return ws_wl_bad(c, size, "buffer size not positive",
                             "a size in bytes");
        if ((uint64_t)v > (uint64_t)INT64_MAX - buf->base)
            return ws_wl_bad(c, size, "buffer ends past 2^63",
                             "base + size "
                             "below 2^63");
        buf->size = (uint64_t)v;
        w->nbuffers++;
    }
    return 0;
}

/* Loop counters are names too: collected before any expression compiles. */
static int ws_wl_counters(struct ws_wl_ctx *c)
{
    static const char *const keys[] = {"counter", "trips", NULL};
    struct ws_workload *w = c->w;
    struct ws_ynode *l = ws_yaml_get(c->root, "loops");

    for (struct ws_ynode *n = l ? l->child : NULL; n; n = n->next) {
        struct ws_ynode *cn = n->kind == WS_YNODE_MAP
                                  ? ws_yaml_get(n, "counter")
                                  : NULL;
        int slot;
        if (!cn || cn->kind != WS_YNODE_SCALAR || !ws_yaml_get(n, "trips"))
            return ws_wl_bad(c, n, "bad loop", "{counter: name, trips: expr}");
        if (ws_wl_only_keys(c, n, keys, "loop", "counter or trips") < 0)
            return -1;
        if (w->ncounters == sizeof w->counters / sizeof w->counters[0])
            return ws_wl_bad(c, n, "too many loops", "at most 16");
        if ((slot = ws_wl_add_name(c, cn, cn->value)) < 0)
            return -1;
        w->counters[w->ncounters++] = slot;
    }
    return 0;
}

static int ws_wl_lets(struct ws_wl_ctx *c)
{
    struct ws_workload *w = c->w;
    struct ws_ynode *l = ws_yaml_get(c->root, "let");

    for (struct ws_ynode *n = l ? l->child : NULL; n; n = n->next) {
        if (w->nlets == sizeof w->lets / sizeof w->lets[0])
            return ws_wl_bad(c, n, "too many lets", "at most 32");
        if (n->kind != WS_YNODE_SCALAR)
            return ws_wl_bad(c, n, "a let is not a value", "name: expression");
        /* A let sees earlier lets, not itself or later ones. */
        if (ws_expr_compile(&w->lets[w->nlets], n->value, &w->names, n->file,
                            n->line, n->col, c->err)
            < 0)
            return -1;
        if ((w->let_slot[w->nlets] = ws_wl_add_name(c, n, n->key)) < 0) {
            ws_expr_free(&w->lets[w->nlets]);
            return -1;
        }
        w->nlets++;
    }
    return 0;
}

/* ---- instructions named by rules --------------------------------------- */

/* An empty section ("loops:" with nothing under it) reads as a null. */
static int ws_is_null(const struct ws_ynode *n)
{
    return n->kind == WS_YNODE_SCALAR
           && (!*n->value || !strcmp(n->value, "~")
               || !strcmp(n->value, "null"));
}

/* Every top-level key known, and of its kind: a section written as a list
 * or a value would otherwise be read as an empty one. */
static int ws_wl_keys(struct ws_wl_ctx *c)
{
    static const char *const keys[] = {"listing",  "function", "params",
                                       "launch",   "buffers",  "let",
                                       "when",     "loops",    "memory",
                                       "listings", "tensors",  "tma",
                                       "mbarriers"};
    for (const struct ws_ynode *n = c->root->child; n; n = n->next) {
        size_t k;
        for (k = 0; k < sizeof keys / sizeof keys[0]; k++)
            if (strcmp(n->key, keys[k]) == 0)
                break;
        if (k == sizeof keys / sizeof keys[0])
            return ws_err_at(c->err, n->file, n->key_line, n->key_col,
                             "unknown workload key '%s' (expected listing, "
                             "function, params, launch, buffers, let, when, "
                             "loops, memory, listings, tensors, tma or "
                             "mbarriers)",
                             n->key);
        if (k < 2 && n->kind != WS_YNODE_SCALAR)
            return ws_err_at(c->err, n->file, n->line, n->col,
                             "%s: is not "
                             "a name (expected %s)",
                             n->key,
                             k == 0 ? "the "
                                      "listing's file name"
                                    : "a function's name");
        if (k >= 2 && n->kind != WS_YNODE_MAP && !ws_is_null(n))
            return ws_err_at(c->err, n->file, n->line, n->col,
                             "%s: is not "
                             "a mapping (expected %s: {name: value, ...})",
                             n->key, n->key);
    }
    return 0;
}

/* The listing's path: --listing as given, listing: relative to the
 * workload's folder. */
static int ws_wl_listing_path(struct ws_wl_ctx *c, const struct ws_ynode *l,
                              const char *override, char *path, size_t cap)
{
    struct ws_workload *w = c->w;
    size_t n;

    if (override)
        n = (size_t)snprintf(path, cap, "%s", override);
    else if (!l)
        return ws_err_at(c->err, w->path, w->line, w->col,
                         "no listing: "
                         "(expected the cuobjdump or nvdisasm listing to "
                         "expand)");
    else if (!*l->value)
        return ws_wl_bad(c, l, "listing: is empty",
                         "the file name of a "
                         "cuobjdump or nvdisasm listing");
    else if (l->value[0] == '/' || !*c->dir)
        n = (size_t)snprintf(path, cap, "%s", l->value);
    else
        n = (size_t)snprintf(path, cap, "%s/%s", c->dir, l->value);
    if (n >= cap)
        return override
                   ? ws_err_arg(c->err, override, 0, 1,
                                "listing path "
                                "longer than %zu bytes (expected a "
                                "shorter path)",
                                cap - 1)
                   : ws_wl_bad(c, l, "listing path too long", "a shorter path");
    return 0;
}

static int ws_wl_listing(struct ws_wl_ctx *c, const char *override,
                         const struct ws_trace_opts *opts)
{
    struct ws_workload *w = c->w;
    struct ws_ynode *l = ws_yaml_get(c->root, "listing");
    struct ws_ynode *f = ws_yaml_get(c->root, "function");
    char path[4096];

    if (ws_wl_listing_path(c, l, override, path, sizeof path) < 0)
        return -1;
    if (ws_sass_load(&w->sass, path, opts, c->err) < 0) {
        /* A listing that cannot be read is named where the path is. */
        if (override)
            ws_err_place_arg(c->err, override);
        else
            ws_err_place(c->err, l->file, l->line, l->col);
        return -1;
    }
    if (f) {
        if (!(w->func = ws_sass_find(&w->sass, f->value)))
            return ws_wl_bad(c, f, "no such function in the listing",
                             "a function name printed by the listing");
    } else if (w->sass.nfuncs == 1) {
        w->func = &w->sass.funcs[0];
    } else {
        return ws_err_at(c->err, w->path, w->line, w->col,
                         "the listing has "
                         "%zu functions (expected function: naming one)",
                         w->sass.nfuncs);
    }
    return 0;
}

/* Launch fields the listing supplies: name, SM version, registers and the
 * static shared memory. */
static int ws_wl_from_listing(struct ws_wl_ctx *c)
{
    struct ws_workload *w = c->w;
    const struct ws_sass_func *f = w->func;
    uint32_t shared = f->shared > 0 ? (uint32_t)f->shared : 0;
    struct ws_clip q;

    w->launch.name = f->name;
    w->launch.id = 1;
    w->launch.sm_version = f->sm;
    w->launch.trace_version = 5;
    /* The listing's static shared memory adds to launch: shared (dynamic);
     * the sum is bounded like launch: shared alone. */
    if (f->shared > 4 << 20 || w->launch.shmem + shared > 4 << 20)
        return ws_err_at(c->err, w->path, w->line, w->col,
                         "%s uses %d bytes "
                         "of static shared memory and launch: shared adds %u "
                         "(expected at most 4 MiB in all)",
                         ws_clip(&q, f->name), f->shared, w->launch.shmem);
    w->launch.shmem += shared;
    if (w->launch.nregs == 0) {
        if (f->regs <= 0 || f->regs > 255)
            return ws_err_at(c->err, w->path, w->line, w->col,
                             "the listing "
                             "gives %s %d registers per thread (expected 1 "
                             "to 255, or launch: {registers: n})",
                             ws_clip(&q, f->name), f->regs);
        w->launch.nregs = (uint32_t)f->regs;
    }
    return 0;
}

/* An unreadable workload is named on the command line; the caller that
 * knows the word places the message. */
static char *ws_wl_read(const char *path, size_t *len, struct ws_err *err)
{
    return ws_file_read(path, "workload", WS_WL_MAX_FILE, len, NULL, err);
}

/* listings: {KEY: {when: ..., loops: ..., memory: ..., mbarriers: ...,
 * tma: ...}} adapts the rules
 * to another SM version's listing of the same source: when KEY is the file
 * name of the listing in use, or its SM version ("sm_90"), its entries are
 * merged over the top-level ones (same names replaced, new ones added). */
static int ws_wl_listing_overrides(struct ws_wl_ctx *c, const char *listing)
{
    static const char *const sections[] = {"when", "loops", "memory",
                                           "mbarriers", "tma"};
    struct ws_ynode *all = ws_yaml_get(c->root, "listings"), *o;
    const char *slash = strrchr(listing, '/');
    const char *base = slash ? slash + 1 : listing;
    char sm[16];

    if (!all)
        return 0;
    for (o = all->child; o; o = o->next) {
        if (o->kind != WS_YNODE_MAP)
            return ws_wl_bad(c, o, "not a mapping",
                             "when:, loops:, memory:, mbarriers: or tma: "
                             "entries for that listing");
        for (const struct ws_ynode *k = o->child; k; k = k->next) {
            int s = 0;
            while (s < 5 && strcmp(k->key, sections[s]) != 0)
                s++;
            if (s == 5)
                return ws_err_at(c->err, k->file, k->key_line, k->key_col,
                                 "unknown key '%s' under listings: (expected "
                                 "when, loops, memory, mbarriers or tma)",
                                 k->key);
        }
    }
    snprintf(sm, sizeof sm, "sm_%u", c->w->func->sm);
    if (!(o = ws_yaml_get(all, base)) && !(o = ws_yaml_get(all, sm)))
        return 0;
    for (int s = 0; s < 5; s++) {
        struct ws_ynode *src = ws_yaml_get(o, sections[s]);
        struct ws_ynode *dst = ws_yaml_get(c->root, sections[s]);
        if (!src)
            continue;
        if (src->kind != WS_YNODE_MAP && !ws_is_null(src))
            return ws_wl_bad(c, src, "not a mapping",
                             "name: rule entries, "
                             "as at the top level");
        if (dst && ws_is_null(dst))
            dst->kind = WS_YNODE_MAP; /* "when:" left empty above */
        if (!dst) {
            if (ws_yaml_set(c->root, sections[s], "", src->file, src->line,
                            src->col)
                < 0)
                return ws_err_oom(c->err);
            dst = ws_yaml_get(c->root, sections[s]);
            dst->kind = WS_YNODE_MAP;
        }
        /* Detach src from the override and merge it (merge frees it). */
        {
            struct ws_ynode **pp = &o->child;
            while (*pp != src)
                pp = &(*pp)->next;
            *pp = src->next;
            src->next = NULL;
        }
        if (ws_yaml_merge(dst, src) < 0)
            return ws_err_oom(c->err);
    }
    return 0;
}

static int ws_wl_build(struct ws_wl_ctx *c, const char *const *sets, int nsets,
                       const char *listing, const struct ws_trace_opts *opts)
{
    struct ws_workload *w = c->w;

    if (ws_wl_keys(c) < 0 || ws_wl_params(c, sets, nsets) < 0)
        return -1;
    for (int k = 0; k < WS_SLOT_FIXED; k++)
        if (ws_expr_name(&w->names, ws_fixed_names[k]) < 0)
            return ws_err_oom(c->err);
    return ws_wl_launch(c) < 0 || ws_wl_buffers(c) < 0 || ws_wl_tensors(c) < 0
                   || ws_wl_listing(c, listing, opts) < 0
                   || ws_wl_listing_overrides(c, w->sass.path) < 0
                   || ws_wl_counters(c) < 0 || ws_wl_lets(c) < 0
                   || ws_wl_from_listing(c) < 0 || ws_wl_rules(c) < 0
                   || ws_wl_complete(c) < 0
               ? -1
               : 0;
}

int ws_workload_load(struct ws_workload *w, const char *path,
                     const char *const *sets, int nsets, const char *listing,
                     const struct ws_trace_opts *opts, struct ws_err *err)
{
    struct ws_wl_ctx c;
    const char *slash = strrchr(path, '/');
    size_t len;
    char *text;
    int rc;

    memset(w, 0, sizeof *w);
    if (opts)
        w->opts = *opts;
    else
        ws_trace_opts_default(&w->opts);
    w->line = w->col = 1;
    w->path = strdup(path);
    c.w = w;
    c.err = err;
    c.root = NULL;
    c.dir = strdup(path);
    if (!w->path || !c.dir) {
        free(c.dir);
        ws_workload_free(w);
        return ws_err_oom(err);
    }
    c.dir[slash ? slash - path : 0] = '\0';
    text = ws_wl_read(path, &len, err);
    rc = text ? ws_yaml_parse(&c.root, path, text, len, err) : -1;
    if (rc == 0) {
        w->line = c.root->line;
        w->col = c.root->col;
        rc = ws_wl_build(&c, sets, nsets, listing, &w->opts);
    }
    ws_yaml_free(c.root);
    free(text);
    free(c.dir);
    if (rc < 0)
        ws_workload_free(w);
    return rc;
}

/* The names in slots WS_SLOT_* follow the parameters. */
void ws_workload_free(struct ws_workload *w)
{
    for (uint32_t i = 0; i < w->nrules; i++)
        ws_expr_free(&w->rules[i].expr);
    for (uint32_t i = 0; i < w->nlets; i++)
        ws_expr_free(&w->lets[i]);
    for (uint32_t i = 0; i < WS_EXPR_MAX_NAMES; i++)
        free(w->name_store[i]);
    for (uint32_t i = 0; i < w->ntensors; i++)
        free(w->tensors[i].name);
    free(w->rules);
    free(w->rule_of);
    free(w->tmas);
    free(w->tma_of);
    if (w->sass.path)
        ws_sass_free(&w->sass);
    free(w->path);
    memset(w, 0, sizeof *w);
}
