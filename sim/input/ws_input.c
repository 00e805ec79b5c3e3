/*
 * ws_input: recognising an input, opening its kernels, and what the rest
 * of warpsim may ask of it (see ws_input.h).
 *
 * Leaves out: the formats themselves (trace/, listing/, workload/).
 */
#include "ws_input.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/ws_lines.h"
#include "workload/ws_expand.h"
#include "workload/ws_workload.h"

/* Only this file knows what an input holds: each format adds its members
 * and its answers to the queries here. */
struct ws_input {
    enum ws_input_kind kind;
    const char *path;       /* as given */
    char *list_path;        /* a folder's kernelslist.g */
    struct ws_cmdlist list; /* the commands; a workload is one kernel */
    struct ws_trace_opts opts;
    int has_workload, has_listing;
    struct ws_workload w;
    struct ws_expander x;
    struct ws_sass sass;      /* WS_INPUT_LISTING */
    struct ws_sass ctrl_sass; /* a trace's --listing: control bits */
    int has_ctrl_sass;
    struct ws_pack *pack; /* WS_INPUT_PACK */
};

static int ws_ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);

    return n >= m && strcmp(s + n - m, suffix) == 0;
}

int ws_input_detect(const char *input, char **list_path,
                    enum ws_input_kind *kind, struct ws_err *err)
{
    struct stat st;
    struct ws_lines in;
    char head[4096];
    size_t n = 0;
    char *line;
    size_t len;

    if (stat(input, &st) == 0 && S_ISDIR(st.st_mode)) {
        *list_path = malloc(strlen(input) + 16);
        if (!*list_path)
            return ws_err_oom(err);
        sprintf(*list_path, "%s/kernelslist.g", input);
        *kind = WS_INPUT_LIST;
        return 0;
    }
    /* Content before name: a packed trace is one whatever it is called. */
    if (ws_pack_sniff(input)) {
        *kind = WS_INPUT_PACK;
        return 0;
    }
    if (ws_ends_with(input, ".traceg") || ws_ends_with(input, ".traceg.xz")
        || ws_ends_with(input, ".traceg.zst")) {
        *kind = WS_INPUT_KERNEL;
        return 0;
    }
    if (ws_ends_with(input, ".yaml") || ws_ends_with(input, ".yml")) {
        *kind = WS_INPUT_WORKLOAD;
        return 0;
    }
    if (ws_ends_with(input, ".g")) {
        *kind = WS_INPUT_LIST;
        return 0;
    }
    if (ws_lines_open(&in, input, err) < 0)
        return -1;
    while (n < sizeof head - 1 && ws_lines_next(&in, &line, &len, err) == 1) {
        size_t k = len < sizeof head - 1 - n ? len : sizeof head - 1 - n;
        memcpy(head + n, line, k);
        n += k;
        if (n < sizeof head - 1)
            head[n++] = '\n';
    }
    ws_lines_close(&in);
    if (err->set)
        return -1;
    if (ws_sass_sniff(head, n)) {
        *kind = WS_INPUT_LISTING;
        return 0;
    }
    return ws_err_at(
        err, input, 1, 1,
        "cannot tell what this file is "
        "(expected a kernelslist.g, a kernel-N.traceg[.xz|.zst] or "
        "a cuobjdump/nvdisasm listing)");
}


/* --param and --listing shape a workload's expansion; given for a trace,
 * silently ignoring them would report numbers for parameters the user did
 * not get. */
static int ws_input_params_unused(const struct ws_input_params *p,
                                  struct ws_err *err)
{
    if (p->nsets > 0)
        return ws_err_arg(err, p->sets[0], 0, 0,
                          "--param applies to "
                          "workload descriptions only (expected a "
                          "workload.yaml input, not a trace or listing)");
    return 0;
}

static int ws_input_open_workload(struct ws_input *in,
                                  const struct ws_input_params *p,
                                  struct ws_err *err)
{
    if (ws_workload_load(&in->w, in->path, p->sets, p->nsets, p->listing,
                         &in->opts, err)
        < 0)
        return -1;
    if (ws_expand_init(&in->x, &in->w, err) < 0) {
        ws_workload_free(&in->w);
        return -1;
    }
    in->has_workload = 1;
    return ws_kernelslist_single(&in->list, in->path, err);
}

static int ws_input_open_kind(struct ws_input *in, const char *path,
                              const struct ws_input_params *p,
                              struct ws_err *err)
{
    in->path = path;
    in->opts = p->opts;
    if (ws_input_detect(path, &in->list_path, &in->kind, err) < 0)
        return -1;
    if (in->kind == WS_INPUT_WORKLOAD)
        return ws_input_open_workload(in, p, err);
    if (ws_input_params_unused(p, err) < 0)
        return -1;
    if (p->listing && (in->kind == WS_INPUT_LISTING || !p->listing_trace))
        return ws_err_arg(err, p->listing, 0, 0,
                          "--listing applies to workloads, and to traces "
                          "where their control bits time them (run) "
                          "(expected a workload.yaml input%s)",
                          p->listing_trace ? " or a trace, not a listing"
                                           : " here");
    if (p->listing) {
        if (ws_sass_load(&in->ctrl_sass, p->listing, &in->opts, err) < 0)
            return -1;
        in->has_ctrl_sass = 1;
    }
    if (in->kind == WS_INPUT_LISTING) {
        if (ws_sass_load(&in->sass, path, &in->opts, err) < 0)
            return -1;
        in->has_listing = 1;
        return 0;
    }
    if (in->kind == WS_INPUT_PACK)
        return ws_pack_open(&in->pack, path, err) < 0
                   ? -1
                   : ws_pack_commands(in->pack, &in->list, err);
    if (in->kind == WS_INPUT_LIST)
        return ws_kernelslist_load(&in->list,
                                   in->list_path ? in->list_path : path, err);
    return ws_kernelslist_single(&in->list, path, err);
}

/* A failure after ws_input_detect has set list_path (a folder whose list
 * names a missing kernel), or after a pack was opened, leaves things to
 * free: they are freed here, so that a caller that does not close a
 * failed input (a sweep checking its points) leaks nothing, and one that
 * does finds it zeroed. */
int ws_input_open(struct ws_input **out, const char *path,
                  const struct ws_input_params *p, struct ws_err *err)
{
    struct ws_input *in = calloc(1, sizeof *in);

    *out = NULL;
    if (!in)
        return ws_err_oom(err);
    if (ws_input_open_kind(in, path, p, err) == 0) {
        *out = in;
        return 0;
    }
    ws_input_close(in);
    return -1;
}

void ws_input_close(struct ws_input *in)
{
    if (!in)
        return;
    if (in->has_workload) {
        ws_expand_free(&in->x);
        ws_workload_free(&in->w);
    }
    if (in->has_listing)
        ws_sass_free(&in->sass);
    if (in->has_ctrl_sass)
        ws_sass_free(&in->ctrl_sass);
    ws_pack_close(in->pack);
    ws_kernelslist_free(&in->list);
    free(in->list_path);
    free(in);
}

int ws_input_is_static(const struct ws_input *in)
{
    return in->kind == WS_INPUT_LISTING;
}

int ws_input_has_workload(const struct ws_input *in)
{
    return in->kind == WS_INPUT_WORKLOAD;
}

int ws_input_can_pack(const struct ws_input *in)
{
    return in->kind == WS_INPUT_LIST || in->kind == WS_INPUT_KERNEL
           || in->kind == WS_INPUT_PACK;
}

int ws_input_is_packed(const struct ws_input *in)
{
    return in->kind == WS_INPUT_PACK;
}

const char *ws_input_what(const struct ws_input *in)
{
    return in->kind == WS_INPUT_LISTING    ? "listing"
           : in->kind == WS_INPUT_WORKLOAD ? "workload"
                                           : "trace";
}

const char *ws_input_path(const struct ws_input *in)
{
    return in->path;
}

size_t ws_input_ncmds(const struct ws_input *in)
{
    return in->list.n;
}

const struct ws_cmd *ws_input_cmd(const struct ws_input *in, size_t i)
{
    return &in->list.cmds[i];
}

size_t ws_input_nkernels(const struct ws_input *in)
{
    return in->list.nkernels;
}

size_t ws_input_nfiles(const struct ws_input *in)
{
    return in->kind == WS_INPUT_WORKLOAD ? 2 : 1 + in->list.n;
}

const char *ws_input_file(const struct ws_input *in, size_t i)
{
    if (in->kind == WS_INPUT_WORKLOAD)
        return i == 0 ? in->w.path : in->w.sass.path;
    if (i == 0)
        return in->list_path ? in->list_path : in->path;
    return in->list.cmds[i - 1].path;
}

const char *ws_input_param(const struct ws_input *in, size_t i,
                           long long *value)
{
    if (in->kind != WS_INPUT_WORKLOAD || i >= in->w.nparams)
        return NULL;
    *value = (long long)in->w.param_value[i];
    return in->w.names.name[i];
}

const struct ws_sass *ws_input_listing(const struct ws_input *in)
{
    return in->has_listing ? &in->sass : NULL;
}

static int ws_input_traceg_next(void *ctx, const struct ws_cta_stream **cta,
                                struct ws_err *err)
{
    return ws_traceg_next_cta(ctx, cta, err);
}

static int ws_input_pack_next(void *ctx, const struct ws_cta_stream **cta,
                              struct ws_err *err)
{
    return ws_pack_reader_next_cta(ctx, cta, err);
}

static int ws_input_pack_header(void *ctx, const struct ws_cta_stream **cta,
                                struct ws_err *err)
{
    return ws_pack_reader_next_header(ctx, cta, err);
}

static int ws_input_pack_warp(void *ctx, const struct ws_cta_stream *cta,
                              uint32_t warp, struct ws_warp_reader *r,
                              struct ws_err *err)
{
    return ws_pack_reader_warp_open(ctx, cta, warp, r, err);
}

/* Command i of a .wst: its kernel number is the kernels before it.  A
 * kernel of long warps can also be read a warp at a time. */
static int ws_input_pack_kernel(struct ws_input *in, size_t i,
                                struct ws_input_kernel *k, struct ws_err *err)
{
    size_t kernel = 0;

    for (size_t j = 0; j < i; j++)
        kernel += in->list.cmds[j].kind == WS_CMD_KERNEL;
    if (ws_pack_reader_open(&k->packed, in->pack, kernel, &in->opts, err) < 0)
        return -1;
    k->src.origin = in->path;
    k->src.ctx = k->packed;
    k->src.launch = ws_pack_reader_launch(k->packed);
    k->src.ops = ws_pack_reader_opcodes(k->packed);
    k->src.next = ws_input_pack_next;
    if (ws_pack_reader_streams(k->packed)) {
        k->src.next_header = ws_input_pack_header;
        k->src.warp_open = ws_input_pack_warp;
    }
    return 0;
}

/* The listing's copy of function `name` for SM version sm: a listing of
 * a multi-architecture binary has one per version.  The only copy when
 * there is one; NULL with *copies set when none or several other ones. */
static const struct ws_sass_func *ws_input_ctrl_func(const struct ws_sass *s,
                                                     const char *name,
                                                     uint32_t sm,
                                                     size_t *copies)
{
    const struct ws_sass_func *only = NULL;

    *copies = 0;
    for (size_t i = 0; i < s->nfuncs; i++) {
        if (strcmp(s->funcs[i].name, name) != 0)
            continue;
        if (s->funcs[i].sm == sm)
            return &s->funcs[i];
        only = &s->funcs[i];
        (*copies)++;
    }
    return *copies == 1 ? only : NULL;
}

/* A trace kernel borrows the control bits of the --listing function of
 * its name (the mangled name both print).  No such function: the kernel
 * runs on the scoreboard; a function without an encoding for every
 * instruction is an error, not a silent fallback. */
static int ws_input_kernel_ctrl(struct ws_input *in, struct ws_input_kernel *k,
                                struct ws_err *err)
{
    const struct ws_launch *l = k->src.launch;
    const struct ws_sass_func *f;
    size_t copies;

    if (!in->has_ctrl_sass || !l || !l->name)
        return 0;
    f = ws_input_ctrl_func(&in->ctrl_sass, l->name, l->sm_version, &copies);
    if (!f && copies > 1)
        return ws_err_at(err, k->src.origin, 1, 1,
                         "kernel %s is sm_%u code, and the listing %s has %zu "
                         "copies of it for other SM versions (expected the "
                         "copy for sm_%u)",
                         l->name, l->sm_version, in->ctrl_sass.path, copies,
                         l->sm_version);
    if (!f)
        return 0;
    if (ws_sass_ctrl_table(&in->ctrl_sass, f, &k->ctrl) < 0)
        return ws_err_oom(err);
    if (!k->ctrl.complete)
        return ws_err_at(err, in->ctrl_sass.path, f->line, 1,
                         "function %s has control bits for %u of its %u "
                         "instructions (expected a cuobjdump -sass listing of "
                         "sm_70 or later code, which prints each "
                         "instruction's encoding)",
                         l->name, k->ctrl.known, f->ninst);
    k->src.ctrl = &k->ctrl;
    return 0;
}

static int ws_input_kernel_src(struct ws_input *in, size_t i,
                               struct ws_input_kernel *k, struct ws_err *err)
{
    const struct ws_cmd *c = &in->list.cmds[i];

    if (in->pack)
        return ws_input_pack_kernel(in, i, k, err);
    if (ws_traceg_open(&k->reader, c->path, &in->opts, err) < 0) {
        if (c->line > 0)
            ws_err_place(err, in->list.name, c->line, 1);
        return -1;
    }
    k->src.origin = c->path;
    k->src.ctx = k->reader;
    k->src.launch = ws_traceg_launch(k->reader);
    k->src.ops = ws_traceg_opcodes(k->reader);
    k->src.next = ws_input_traceg_next;
    return 0;
}

int ws_input_kernel_open(struct ws_input *in, size_t i,
                         struct ws_input_kernel *k, struct ws_err *err)
{
    memset(k, 0, sizeof *k);
    if (in->has_workload) {
        k->src = ws_expand_source(&in->x);
        return 0;
    }
    if (ws_input_kernel_src(in, i, k, err) < 0
        || ws_input_kernel_ctrl(in, k, err) < 0) {
        ws_input_kernel_close(k);
        return -1;
    }
    return 0;
}

void ws_input_kernel_close(struct ws_input_kernel *k)
{
    ws_ctrl_table_free(&k->ctrl);
    if (k->reader)
        ws_traceg_close(k->reader);
    ws_pack_reader_close(k->packed);
    k->reader = NULL;
    k->packed = NULL;
}

/* Command i of the input, into the pack. */
static int ws_input_pack_cmd(struct ws_pack_writer *w, struct ws_input *in,
                             size_t i, struct ws_err *err)
{
    const struct ws_cmd *c = &in->list.cmds[i];
    struct ws_input_kernel k;
    int rc;

    if (c->kind == WS_CMD_MEMCPY_HTOD)
        return ws_pack_write_memcpy(w, c->addr, c->bytes, err);
    if (ws_input_kernel_open(in, i, &k, err) < 0)
        return -1;
    rc = ws_pack_write_kernel(w, &k.src, err);
    ws_input_kernel_close(&k);
    return rc;
}

int ws_input_pack(struct ws_input *in, FILE *fp, const char *name,
                  struct ws_err *err)
{
    struct ws_pack_writer *w = NULL;
    int rc = ws_pack_writer_new(&w, fp, name, err);

    for (size_t i = 0; rc == 0 && i < in->list.n; i++)
        rc = ws_input_pack_cmd(w, in, i, err);
    if (rc == 0)
        rc = ws_pack_writer_finish(w, err);
    ws_pack_writer_free(w);
    return rc;
}
