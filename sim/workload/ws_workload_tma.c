/*
 * ws_workload_tma: the Hopper bulk-copy half of a workload description:
 * TMA tensor maps (tensors:) and the rule of each bulk-copy instruction
 * (tma:), which the expander turns into the box words of
 * trace/ws_async_op.h.
 *
 *   tensors:                 # as cuTensorMapEncodeTiled takes them
 *     A: {buffer: A, elem: 2, dims: ["K", "M"], box: [64, 128]}
 *     # innermost dimension first; optional strides: ["2 * K"] in bytes
 *     # for dimensions 1..n-1 (dense by default); 1 to 3 dimensions
 *   tma:                     # one rule per UTMALDG, UTMASTG, UBLKCP ...
 *     "UTMALDG#1": {tensor: A, coords: ["kt * 64", "ctaid.y * 128"],
 *                   mbar: "0x30400 + 8 * (kt % 4)"}
 *     # optional multicast: "3" (CTA ranks of the cluster, 16 bits)
 *
 * Tensor fields are expressions of the parameters; coordinates (elements,
 * one per dimension), mbar (the shared address of the mbarrier a load
 * completes; loads only) and multicast (loads only) are evaluated like
 * addresses, for the first active lane: one elected thread issues a copy.
 *
 * Leaves out: the tensor map's swizzle, interleave, element strides and
 * out-of-bounds fill (a box is clipped to the tensor, ws_expand.c), im2col
 * mode, and tensors of 4 or 5 dimensions (a box carries 3).
 */
#include "ws_workload_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/ws_async_op.h"
#include "util/ws_clip.h"

/* PTX: a box is 1 to 256 elements per dimension; cuTensorMapEncodeTiled
 * takes elements of 1 to 16 bytes and global strides below 2^40. */
#define WS_WL_BOX_MAX 256
#define WS_WL_STRIDE_MAX (INT64_C(1) << 40)

static int ws_wl_buffer_named(const struct ws_workload *w, const char *name,
                              uint32_t *out)
{
    for (uint32_t b = 0; b < w->nbuffers; b++)
        if (strcmp(w->names.name[w->buffers[b].slot], name) == 0) {
            *out = b;
            return 0;
        }
    return -1;
}

/* A list of 1 to WS_WL_TENSOR_DIMS parameter expressions, each in
 * [min, max]; *n how many. */
static int ws_wl_list(struct ws_wl_ctx *c, const struct ws_ynode *n,
                      const char *what, int64_t min, int64_t max,
                      int64_t out[WS_WL_TENSOR_DIMS], uint32_t *count)
{
    const struct ws_ynode *i = n && n->kind == WS_YNODE_SEQ ? n->child : NULL;

    *count = 0;
    for (; i; i = i->next) {
        int64_t v = 0; /* for the analyser: ws_wl_const fails with -1 */
        if (*count == WS_WL_TENSOR_DIMS)
            return ws_wl_bad(c, i, "too many dimensions",
                             "at most 3 (a box carries 3)");
        if (ws_wl_const(c, i, &v) < 0)
            return -1;
        if (v < min || v > max)
            return ws_err_at(c->err, i->file, i->line, i->col,
                             "%s of %lld is out of range (expected %lld to "
                             "%lld)",
                             what, (long long)v, (long long)min,
                             (long long)max);
        out[(*count)++] = v;
    }
    if (*count == 0)
        return ws_wl_bad(c, n, "not a list of values",
                         "[innermost, ...]: 1 to 3 expressions");
    return 0;
}

static int ws_wl_tensor_shape(struct ws_wl_ctx *c, const struct ws_ynode *n,
                              struct ws_wl_tensor *t)
{
    const struct ws_ynode *dims = ws_yaml_get(n, "dims");
    const struct ws_ynode *box = ws_yaml_get(n, "box");
    const struct ws_ynode *strides = ws_yaml_get(n, "strides");
    int64_t v[WS_WL_TENSOR_DIMS];
    uint32_t k, nbox, nstr = 0;

    if (ws_wl_list(c, dims, "dimension", 1, INT64_C(1) << 32, t->dim, &t->ndims)
            < 0
        || ws_wl_list(c, box, "box dimension", 1, WS_WL_BOX_MAX, v, &nbox) < 0)
        return -1;
    if (nbox != t->ndims)
        return ws_wl_bad(c, box, "box and dims differ in length",
                         "one box size per dimension");
    for (k = 0; k < WS_WL_TENSOR_DIMS; k++)
        t->box[k] = k < nbox ? (uint32_t)v[k] : 1;
    t->stride[0] = t->elem;
    for (k = 1; k < t->ndims; k++)
        t->stride[k] = t->stride[k - 1] * (uint64_t)t->dim[k - 1];
    if (strides) {
        if (t->ndims == 1)
            return ws_wl_bad(c, strides, "strides for a 1-D tensor",
                             "no strides: (dimension 0 is dense)");
        if (ws_wl_list(c, strides, "stride", 1, WS_WL_STRIDE_MAX, v, &nstr) < 0)
            return -1;
        if (nstr != t->ndims - 1)
            return ws_wl_bad(c, strides, "wrong number of strides",
                             "one stride in bytes per dimension after the "
                             "first");
        for (k = 1; k < t->ndims; k++)
            t->stride[k] = (uint64_t)v[k - 1];
    }
    if (ws_wl_box_bytes(t) > WS_BOX_MAX_BYTES)
        return ws_err_at(c->err, box->file, box->line, box->col,
                         "box of %llu bytes (expected at most %u, what "
                         "shared memory can take)",
                         (unsigned long long)ws_wl_box_bytes(t),
                         WS_BOX_MAX_BYTES);
    return 0;
}

/* The tensor's last byte lies inside its buffer (strides below 2^40 and
 * dimensions up to 2^32: each term is checked against the size before it
 * is added, so nothing overflows). */
static int ws_wl_tensor_fits(struct ws_wl_ctx *c, const struct ws_ynode *n,
                             const struct ws_wl_tensor *t)
{
    uint64_t size = c->w->buffers[t->buffer].size, end = t->elem;

    for (uint32_t k = 0; k < t->ndims && end <= size; k++) {
        uint64_t span = (uint64_t)(t->dim[k] - 1);
        if (span && t->stride[k] > (size - end) / span)
            end = size + 1;
        else
            end += span * t->stride[k];
    }
    if (end > size)
        return ws_wl_bad(c, n, "tensor extends past the end of its buffer",
                         "dims and strides that fit the buffer's size");
    return 0;
}

static int ws_wl_tensor(struct ws_wl_ctx *c, const struct ws_ynode *n,
                        struct ws_wl_tensor *t)
{
    static const char *const keys[] = {"buffer", "elem",    "dims",
                                       "box",    "strides", NULL};
    const struct ws_ynode *buf = ws_yaml_get(n, "buffer");
    const struct ws_ynode *elem = ws_yaml_get(n, "elem");
    int64_t e = 0;
    struct ws_clip q;

    if (n->kind != WS_YNODE_MAP || !buf || !elem || !ws_yaml_get(n, "dims")
        || !ws_yaml_get(n, "box"))
        return ws_wl_bad(c, n, "bad tensor",
                         "{buffer: name, elem: bytes, dims: [...], box: "
                         "[...]}");
    if (ws_wl_only_keys(c, n, keys, "tensor",
                        "buffer, elem, dims, box or strides")
        < 0)
        return -1;
    if (buf->kind != WS_YNODE_SCALAR
        || ws_wl_buffer_named(c->w, buf->value, &t->buffer) < 0)
        return ws_err_at(c->err, buf->file, buf->line, buf->col,
                         "no buffer '%s' (expected the name of a buffer "
                         "under buffers:)",
                         buf->kind == WS_YNODE_SCALAR ? ws_clip(&q, buf->value)
                                                      : "");
    if (ws_wl_const(c, elem, &e) < 0)
        return -1;
    if (e != 1 && e != 2 && e != 4 && e != 8 && e != 16)
        return ws_wl_bad(c, elem, "bad element size", "1, 2, 4, 8 or 16 bytes");
    t->elem = (uint32_t)e;
    if (ws_wl_tensor_shape(c, n, t) < 0 || ws_wl_tensor_fits(c, n, t) < 0)
        return -1;
    if (!(t->name = strdup(n->key)))
        return ws_err_oom(c->err);
    return 0;
}

int ws_wl_tensors(struct ws_wl_ctx *c)
{
    struct ws_workload *w = c->w;
    const struct ws_ynode *sec = ws_yaml_get(c->root, "tensors");

    for (const struct ws_ynode *n = sec ? sec->child : NULL; n; n = n->next) {
        for (uint32_t i = 0; i < w->ntensors; i++)
            if (strcmp(w->tensors[i].name, n->key) == 0)
                return ws_err_at(c->err, n->file, n->key_line, n->key_col,
                                 "tensor '%s' defined twice (expected each "
                                 "tensor once)",
                                 n->key);
        if (w->ntensors == WS_WL_MAX_TENSORS)
            return ws_wl_bad(c, n, "too many tensors", "at most 16");
        if (ws_wl_tensor(c, n, &w->tensors[w->ntensors]) < 0)
            return -1;
        w->ntensors++;
    }
    return 0;
}

/* ---- tma: rules ---------------------------------------------------------- */

static int ws_wl_tma_tensor(struct ws_wl_ctx *c, const struct ws_ynode *n,
                            uint32_t *out)
{
    const struct ws_ynode *t = ws_yaml_get(n, "tensor");
    struct ws_clip q;

    for (uint32_t i = 0; t && t->kind == WS_YNODE_SCALAR && i < c->w->ntensors;
         i++)
        if (strcmp(c->w->tensors[i].name, t->value) == 0) {
            *out = i;
            return 0;
        }
    if (!t)
        return ws_wl_bad(c, n, "no tensor", "tensor: a name under tensors:");
    return ws_err_at(c->err, t->file, t->line, t->col,
                     "no tensor '%s' (expected a name under tensors:)",
                     t->kind == WS_YNODE_SCALAR ? ws_clip(&q, t->value) : "");
}

/* coords:, then mbar: and multicast:, which only a load has. */
static int ws_wl_tma_parts(struct ws_wl_ctx *c, const struct ws_ynode *n,
                           struct ws_wl_tma *t)
{
    const struct ws_wl_tensor *ten = &c->w->tensors[t->tensor];
    const struct ws_ynode *co = ws_yaml_get(n, "coords");
    const struct ws_ynode *mbar = ws_yaml_get(n, "mbar");
    const struct ws_ynode *mc = ws_yaml_get(n, "multicast");
    const struct ws_ynode *i = co && co->kind == WS_YNODE_SEQ ? co->child
                                                              : NULL;
    uint32_t k = 0;
    char msg[64];

    for (; i && k < ten->ndims; i = i->next, k++)
        if ((t->coord[k] = ws_wl_add_part(c, i, t->inst)) < 0)
            return -1;
    if (i || k != ten->ndims) {
        snprintf(msg, sizeof msg, "%u coordinate%s for a %u-D tensor",
                 (unsigned)(i ? k + 1 : k), (i ? k + 1 : k) == 1 ? "" : "s",
                 ten->ndims);
        return ws_wl_bad(c, co ? co : n, msg,
                         "coords: one expression per tensor dimension, "
                         "innermost first");
    }
    if (t->kind != WS_ASYNC_BULK_LOAD && (mbar || mc))
        return ws_wl_bad(c, mbar ? mbar : mc,
                         "mbar: or multicast: on a copy that is not a load",
                         "them on loads only (a store or prefetch completes "
                         "no mbarrier)");
    if (t->kind == WS_ASYNC_BULK_LOAD && !mbar)
        return ws_wl_bad(c, n, "a bulk load without mbar:",
                         "mbar: the shared address of the mbarrier it "
                         "completes");
    if (mbar && (t->mbar = ws_wl_add_part(c, mbar, t->inst)) < 0)
        return -1;
    if (mc && (t->multicast = ws_wl_add_part(c, mc, t->inst)) < 0)
        return -1;
    return 0;
}

static int ws_wl_tma_rule(struct ws_wl_ctx *c, const struct ws_ynode *n)
{
    static const char *const keys[] = {"tensor", "coords", "mbar", "multicast",
                                       NULL};
    struct ws_workload *w = c->w;
    struct ws_wl_tma *t = &w->tmas[w->ntmas];
    const struct ws_sass_inst *in;
    struct ws_async_op a;

    memset(t, 0, sizeof *t);
    t->mbar = t->multicast = -1;
    if (ws_wl_find_inst(c, n, &t->inst) < 0)
        return -1;
    in = &w->sass.insts[w->func->first + t->inst];
    if (!ws_wl_is_bulk(w, in))
        return ws_err_at(c->err, n->file, n->key_line, n->key_col,
                         "%s is not a bulk copy (expected tma: entries for "
                         "UTMALDG, UTMASTG, UTMAPF, UBLKCP and the like)",
                         n->key);
    if (w->tma_of[t->inst] >= 0)
        return ws_err_at(c->err, n->file, n->key_line, n->key_col,
                         "a second rule for %s (expected one per "
                         "instruction)",
                         n->key);
    if (n->kind != WS_YNODE_MAP)
        return ws_wl_bad(c, n, "bad tma rule",
                         "{tensor: name, coords: [...], mbar: expr}");
    if (ws_wl_only_keys(c, n, keys, "tma", "tensor, coords, mbar or multicast")
            < 0
        || ws_wl_tma_tensor(c, n, &t->tensor) < 0)
        return -1;
    ws_async_op_decode(ws_strtab_str(&w->sass.strs, in->op), &a);
    t->kind = a.kind;
    t->line = n->key_line;
    if (ws_wl_tma_parts(c, n, t) < 0)
        return -1;
    w->tma_of[t->inst] = (int)w->ntmas++;
    return 0;
}

int ws_wl_tma_rules(struct ws_wl_ctx *c)
{
    struct ws_workload *w = c->w;
    const struct ws_ynode *sec = ws_yaml_get(c->root, "tma");
    uint32_t n = 0;

    for (const struct ws_ynode *r = sec ? sec->child : NULL; r; r = r->next)
        n++;
    w->tmas = calloc(n ? n : 1, sizeof *w->tmas);
    if (!w->tmas)
        return ws_err_oom(c->err);
    for (const struct ws_ynode *r = sec ? sec->child : NULL; r; r = r->next) {
        if (r->key[0] && r->key[strlen(r->key) - 1] == '*')
            return ws_err_at(c->err, r->file, r->key_line, r->key_col,
                             "an opcode pattern under tma (expected patterns "
                             "under memory: and mbarriers: only)");
        if (ws_wl_tma_rule(c, r) < 0)
            return -1;
    }
    return 0;
}
