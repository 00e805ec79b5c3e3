/*
 * ws_sweep_prep: what happens to a sweep's points before any of them
 * runs: every value checked where the sweep file writes it, and every
 * point keyed by a hash of its whole input, so a rerun recognises the
 * points it already has (see ws_sweep.h).
 *
 * The key hashes the effective config as `warpsim config show` prints it
 * rather than the overrides' text, so "12MiB" and "12582912" are one
 * point, and an edit to a config file or a built-in config moves every
 * point that uses it.  Input files are hashed by content once per sweep
 * (XXH3, ~30 GB/s: a 1 GB trace costs a fraction of a second).
 *
 * Leaves out: running points (ws_sweep_pool.c).
 */
#include "ws_sweep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <xxhash.h>

#include "config/ws_config.h"
#include "input/ws_input.h"
#include "util/ws_hash.h"

#define WS_SWEEP_CMDLINE "command line:"

/* Errors from --set and --param text come out at "command line:K:C"; a
 * sweep's overrides were written in the sweep file, so the error moves
 * there, naming the value, and keeps what went wrong. */
static int ws_sweep_move_error(struct ws_err *err, const char *file, long line,
                               long col, const char *what)
{
    char text[WS_ERR_TEXT];
    const char *rest = err->text;
    int internal = err->internal;
    size_t flen = strlen(file);

    /* Already at its place in the sweep file (kernel: not found). */
    if (strncmp(rest, file, flen) == 0 && rest[flen] == ':')
        return -1;

    /* "command line:K:C: what", or "command line: what" unplaced. */
    if (strncmp(rest, WS_SWEEP_CMDLINE, strlen(WS_SWEEP_CMDLINE)) == 0) {
        const char *p = rest + strlen(WS_SWEEP_CMDLINE);
        p = *p == ' ' ? p - 1 : strstr(p, ": ");
        if (p)
            rest = p + 2;
    }
    snprintf(text, sizeof text, "%s", rest);
    ws_err_clear(err);
    ws_err_at(err, file, line, col, "%s: %s", what, text);
    err->internal = internal;
    return -1;
}

int ws_sweep_open_point(const struct ws_sweep_ctx *c,
                        const struct ws_sweep_point *p, struct ws_gpu *gpu,
                        struct ws_input **in, struct ws_err *err)
{
    struct ws_input_params ip;

    if (ws_cfg_load(gpu, p->gpu, p->sets, p->nsets, err) < 0)
        return -1;
    ip.sets = p->params;
    ip.nsets = p->nparams;
    ip.listing = c->s->listing;
    ip.listing_trace = 0; /* the points run without it */
    ip.opts = c->topts;
    ip.opts.unknown_class = gpu->unknown_class;
    if (ws_input_open(in, c->run_input ? c->run_input : c->s->input, &ip, err)
        < 0) {
        ws_err_place(err, c->s->path, c->s->input_line, c->s->input_col);
        return -1;
    }
    if (ws_input_is_static(*in)) {
        ws_input_close(*in);
        *in = NULL;
        return ws_err_at(err, c->s->path, c->s->input_line, c->s->input_col,
                         "kernel: is a SASS listing, which has no dynamic "
                         "instruction stream (expected a trace or a "
                         "workload.yaml)");
    }
    return 0;
}

/* Opens (and closes) a point made of the fixed settings plus the given
 * overrides; moves an error to the sweep file's (line, col). */
static int ws_sweep_try(struct ws_sweep_ctx *c, const char *gpu_name,
                        const char *set, const char *param, size_t nfixed,
                        long line, long col, const char *what,
                        struct ws_err *err)
{
    const struct ws_sweep *s = c->s;
    struct ws_sweep_point *p = calloc(1, sizeof *p);
    struct ws_gpu *gpu = calloc(1, sizeof *gpu);
    struct ws_input *in = NULL;
    int rc = -1;

    if (!p || !gpu) {
        free(p);
        free(gpu);
        return ws_err_oom(err);
    }
    p->gpu = gpu_name ? gpu_name : s->gpu;
    for (size_t i = 0; i < s->nfixed_sets; i++)
        p->sets[p->nsets++] = s->fixed_sets[i];
    for (size_t i = 0; i < nfixed; i++)
        p->params[p->nparams++] = s->fixed_params[i];
    if (set)
        p->sets[p->nsets++] = set;
    if (param)
        p->params[p->nparams++] = param;
    if (ws_sweep_open_point(c, p, gpu, &in, err) == 0) {
        ws_input_close(in);
        rc = 0;
    } else if (!err->internal) {
        ws_sweep_move_error(err, s->path, line, col, what);
    }
    free(p);
    free(gpu);
    return rc;
}

/* The fixed settings, each placed at its own entry: the config with the
 * overrides up to the one at fault, then the input with its parameters. */
static int ws_sweep_validate_fixed(struct ws_sweep_ctx *c, struct ws_err *err)
{
    const struct ws_sweep *s = c->s;
    struct ws_gpu *gpu = calloc(1, sizeof *gpu);
    int rc = 0;

    if (!gpu)
        return ws_err_oom(err);
    for (size_t k = 0; rc == 0 && k <= s->nfixed_sets; k++) {
        if (ws_cfg_load(gpu, s->gpu, (const char *const *)s->fixed_sets, (int)k,
                        err)
            == 0)
            continue;
        rc = -1;
        if (!err->internal && k == 0)
            ws_sweep_move_error(err, s->path, s->gpu_line ? s->gpu_line : 1,
                                s->gpu_col ? s->gpu_col : 1, "gpu");
        else if (!err->internal)
            ws_sweep_move_error(err, s->path, s->fixed_sets_at[k - 1][0],
                                s->fixed_sets_at[k - 1][1],
                                s->fixed_sets[k - 1]);
    }
    free(gpu);
    for (size_t k = 0; rc == 0 && k < s->nfixed_params; k++)
        rc = ws_sweep_try(c, NULL, NULL, NULL, k + 1, s->fixed_params_at[k][0],
                          s->fixed_params_at[k][1], s->fixed_params[k], err);
    if (rc == 0)
        rc = ws_sweep_try(c, NULL, NULL, NULL, s->nfixed_params, s->input_line,
                          s->input_col, "kernel", err);
    return rc;
}

/* 1 when the config loads with the fixed overrides, set, and some value
 * of another set. axis: a value valid only beside another axis's value
 * (dram.t_rfc beside a longer dram.t_refi, zipped banks and bank groups)
 * is a sweep's to make, and a combination that fails becomes that point's
 * failed row. */
static int ws_sweep_loads_beside(const struct ws_sweep *s, size_t ai,
                                 const char *set)
{
    const char **sets = malloc((s->nfixed_sets + 2) * sizeof *sets);
    struct ws_gpu *gpu = calloc(1, sizeof *gpu);
    struct ws_err err;
    int ok = 0;

    if (!sets || !gpu) {
        free(sets);
        free(gpu);
        return 0;
    }
    for (size_t k = 0; k < s->nfixed_sets; k++)
        sets[k] = s->fixed_sets[k];
    sets[s->nfixed_sets] = set;
    for (size_t b = 0; !ok && b < s->naxes; b++) {
        if (b == ai || s->axes[b].kind != WS_AXIS_SET)
            continue;
        for (size_t j = 0; !ok && j < s->axes[b].nvalues; j++) {
            sets[s->nfixed_sets + 1] = s->axes[b].values[j].assign;
            ws_err_clear(&err);
            ok = ws_cfg_load(gpu, s->gpu, sets, (int)s->nfixed_sets + 2, &err)
                 == 0;
        }
    }
    free(sets);
    free(gpu);
    return ok;
}

int ws_sweep_validate(struct ws_sweep_ctx *c, struct ws_err *err)
{
    const struct ws_sweep *s = c->s;
    char what[160];

    if (ws_sweep_validate_fixed(c, err) < 0)
        return -1;
    for (size_t i = 0; i < s->naxes; i++) {
        const struct ws_axis *a = &s->axes[i];
        for (size_t j = 0; j < a->nvalues; j++) {
            const struct ws_axis_value *v = &a->values[j];
            snprintf(what, sizeof what, "%s value %.100s", a->name,
                     a->kind == WS_AXIS_GPU ? v->assign
                                            : strchr(v->assign, '=') + 1);
            if (ws_sweep_try(c, a->kind == WS_AXIS_GPU ? v->assign : NULL,
                             a->kind == WS_AXIS_SET ? v->assign : NULL,
                             a->kind == WS_AXIS_PARAM ? v->assign : NULL,
                             s->nfixed_params, v->line, v->col, what, err)
                == 0)
                continue;
            if (a->kind != WS_AXIS_SET || err->internal
                || !ws_sweep_loads_beside(s, i, v->assign))
                return -1;
            ws_err_clear(err);
        }
    }
    return 0;
}

/* ---- keys ------------------------------------------------------------- */

static void ws_sweep_hash_str(XXH3_state_t *h, const char *s)
{
    XXH3_128bits_update(h, s, strlen(s) + 1);
}

/* Content only: the same files reached from another folder (a job
 * array's nodes, a moved checkout) are the same points. */
static int ws_sweep_hash_file(XXH3_state_t *h, const char *path,
                              struct ws_err *err)
{
    return ws_hash_file(h, path, NULL, err);
}

/* The external models: each one's name and command, and the content of
 * every word of the command that names a regular file (its script), so
 * that editing a model's script reruns the points it predicted. */
static void ws_sweep_hash_models(XXH3_state_t *h, const struct ws_sweep *s)
{
    for (size_t i = 0; i < s->nmodels; i++) {
        char *words = strdup(s->models[i]), *save = NULL, path[4096];
        const char *eq = strchr(s->models[i], '=');
        struct ws_err scratch;
        struct stat st;
        ws_sweep_hash_str(h, s->models[i]);
        if (!words || !eq)
            goto next;
        for (char *w =
                 strtok_r(words + (eq - s->models[i]) + 1, " \t;|&<>", &save);
             w; w = strtok_r(NULL, " \t;|&<>", &save)) {
            /* The shell's quotes are not part of the file's name. */
            char *o = w;
            for (char *c = w; *c; c++)
                if (*c != '"' && *c != '\'')
                    *o++ = *c;
            *o = '\0';
            snprintf(path, sizeof path, "%s%s",
                     w[0] == '/' || !s->models_dir[i] ? "" : s->models_dir[i],
                     w);
            if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
                ws_sweep_hash_file(h, path, &scratch);
        }
next:
        free(words);
    }
}

/* Every file the opened input reads, by content. */
static int ws_sweep_hash_input(struct ws_sweep_ctx *c,
                               const struct ws_input *in, struct ws_err *err)
{
    XXH3_state_t *h = XXH3_createState();
    XXH128_hash_t v;
    int rc = 0;

    if (!h)
        return ws_err_oom(err);
    XXH3_128bits_reset(h);
    for (size_t i = 0; rc == 0 && i < ws_input_nfiles(in); i++)
        if (ws_input_file(in, i))
            rc = ws_sweep_hash_file(h, ws_input_file(in, i), err);
    v = XXH3_128bits_digest(h);
    XXH3_freeState(h);
    c->input_hash[0] = v.high64;
    c->input_hash[1] = v.low64;
    c->hashed = rc == 0;
    return rc;
}

static void ws_sweep_hash_point_text(XXH3_state_t *h,
                                     const struct ws_sweep_point *p)
{
    ws_sweep_hash_str(h, p->gpu ? p->gpu : "");
    for (int i = 0; i < p->nsets; i++)
        ws_sweep_hash_str(h, p->sets[i]);
    for (int i = 0; i < p->nparams; i++)
        ws_sweep_hash_str(h, p->params[i]);
}

static int ws_sweep_hash_config(XXH3_state_t *h, const struct ws_gpu *gpu)
{
    size_t len = 0;
    char *text = ws_cfg_text(gpu, &len);

    if (!text)
        return -1;
    XXH3_128bits_update(h, text, len);
    free(text);
    return 0;
}

static void ws_sweep_hash_params(XXH3_state_t *h, const struct ws_input *in)
{
    char buf[160];
    const char *name;
    long long value;

    for (size_t i = 0; (name = ws_input_param(in, i, &value)); i++) {
        snprintf(buf, sizeof buf, "%.100s=%lld", name, value);
        ws_sweep_hash_str(h, buf);
    }
}

int ws_sweep_prepare(struct ws_sweep_ctx *c, size_t index, char key[33],
                     char **why, struct ws_err *err)
{
    struct ws_sweep_point *p = calloc(1, sizeof *p);
    struct ws_gpu *gpu = calloc(1, sizeof *gpu);
    XXH3_state_t *h = XXH3_createState();
    struct ws_input *in = NULL;
    struct ws_err perr;
    XXH128_hash_t v;
    int rc = 0;

    *why = NULL;
    if (!p || !gpu || !h) {
        rc = ws_err_oom(err);
        goto out;
    }
    ws_sweep_point_get(c->s, index, p);
    XXH3_128bits_reset(h);
    ws_sweep_hash_str(h, "warpsim sweep point 1 " WS_VERSION);
    ws_err_clear(&perr);
    if (ws_sweep_open_point(c, p, gpu, &in, &perr) < 0) {
        if (perr.internal) {
            *err = perr;
            rc = -1;
            goto out;
        }
        ws_sweep_hash_point_text(h, p);
        if (!(*why = strdup(perr.set ? perr.text : "unknown error")))
            rc = ws_err_oom(err);
    } else {
        if (!c->hashed && ws_sweep_hash_input(c, in, err) < 0)
            rc = -1;
        else if (ws_sweep_hash_config(h, gpu) < 0)
            rc = ws_err_oom(err);
        XXH3_128bits_update(h, c->input_hash, sizeof c->input_hash);
        ws_sweep_hash_params(h, in);
        ws_sweep_hash_models(h, c->s);
        ws_input_close(in);
    }
    v = XXH3_128bits_digest(h);
    snprintf(key, 33, "%016llx%016llx", (unsigned long long)v.high64,
             (unsigned long long)v.low64);
out:
    if (h)
        XXH3_freeState(h);
    free(p);
    free(gpu);
    return rc;
}
