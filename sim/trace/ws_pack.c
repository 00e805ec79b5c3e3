/*
 * ws_pack: the .wst writer (format in ws_pack.h).
 *
 * Bytes go out in file order, each once, through one XXH3 state, so the
 * checksum is ready when the last byte is written and only the file
 * header is written twice (a placeholder first, the real one at the end).
 * A kernel's CTA blocks are written as its CTAs are read, and their
 * addresses go to a temporary file that is copied in after them; the
 * writer keeps the CTA index (8 bytes a CTA) and the commands, nothing of
 * the trace.
 *
 * Leaves out: reading (ws_packr.c), and where the kernels come from (the
 * caller hands each one over as a struct ws_cta_source).
 */
#include "ws_pack.h"

#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "util/ws_grow.h"

_Static_assert(sizeof(struct ws_pack_header) == 64, "header layout");
_Static_assert(sizeof(struct ws_pack_cmd) == 24, "command layout");
_Static_assert(sizeof(struct ws_pack_op) == 16, "opcode layout");
_Static_assert(sizeof(struct ws_pack_cta) == 72, "CTA record layout");
_Static_assert(sizeof(struct ws_pack_warp) == 16, "warp record layout");
_Static_assert(sizeof(struct ws_pack_kernel_hdr) == 192, "kernel layout");
_Static_assert(sizeof(struct ws_inst) == 36, "instruction record layout");

struct ws_pack_writer {
    FILE *fp;
    const char *name;
    uint64_t pos;       /* bytes written so far */
    XXH3_state_t *hash; /* over everything after the header */
    struct ws_pack_cmd *cmds;
    size_t ncmds, cmds_cap;
    uint32_t nkernels;
    uint64_t *ctas; /* the kernel being written: CTA index */
    size_t nctas, ctas_cap;
    struct ws_pack_warp *warps; /* one CTA's warp records */
    size_t warps_cap;
    FILE *addrs; /* the kernel's address table, so far */
    uint64_t naddrs;
};

/* Not the input's fault: exit 1, as for any output that cannot be
 * written. */
static int ws_pack_write_fail(struct ws_pack_writer *w, struct ws_err *err)
{
    int was_set = err->set;

    ws_err_msg(err,
               "%s: write error (expected a writable file with room "
               "for the packed trace)",
               w->name);
    if (!was_set)
        err->internal = 1;
    return -1;
}

static int ws_pack_put(struct ws_pack_writer *w, const void *data, size_t n,
                       struct ws_err *err)
{
    if (n == 0)
        return 0;
    if (fwrite(data, 1, n, w->fp) != n)
        return ws_pack_write_fail(w, err);
    XXH3_64bits_update(w->hash, data, n);
    w->pos += n;
    return 0;
}

/* Zero bytes up to the next multiple of align (a power of two). */
static int ws_pack_pad(struct ws_pack_writer *w, uint64_t align,
                       struct ws_err *err)
{
    static const uint8_t zeros[64];
    size_t n = (size_t)((align - (w->pos & (align - 1))) & (align - 1));

    return ws_pack_put(w, zeros, n, err);
}

int ws_pack_writer_new(struct ws_pack_writer **out, FILE *fp, const char *name,
                       struct ws_err *err)
{
    struct ws_pack_writer *w = calloc(1, sizeof *w);
    struct ws_pack_header h;

    *out = NULL;
    if (!w || !(w->hash = XXH3_createState())) {
        free(w);
        return ws_err_oom(err);
    }
    w->fp = fp;
    w->name = name;
    XXH3_64bits_reset(w->hash);
    /* A placeholder: the real header is written by ws_pack_writer_finish,
     * and the checksum starts after it. */
    memset(&h, 0, sizeof h);
    if (fwrite(&h, sizeof h, 1, fp) != 1) {
        ws_pack_write_fail(w, err);
        ws_pack_writer_free(w);
        return -1;
    }
    w->pos = sizeof h;
    *out = w;
    return 0;
}

static int ws_pack_push_cmd(struct ws_pack_writer *w, uint32_t kind, uint64_t a,
                            uint64_t b, struct ws_err *err)
{
    struct ws_pack_cmd *c;

    if (ws_grow((void **)&w->cmds, &w->cmds_cap, w->ncmds + 1, sizeof *w->cmds,
                16)
        < 0)
        return ws_err_oom(err);
    c = &w->cmds[w->ncmds++];
    memset(c, 0, sizeof *c);
    c->kind = kind;
    c->a = a;
    c->b = b;
    return 0;
}

int ws_pack_write_memcpy(struct ws_pack_writer *w, uint64_t addr,
                         uint64_t bytes, struct ws_err *err)
{
    return ws_pack_push_cmd(w, WS_PACK_CMD_MEMCPY, addr, bytes, err);
}

/* ---- one CTA ------------------------------------------------------------ */

/* The warp's lane addresses: from its first memory instruction's, as many
 * as its memory instructions have active lanes (the readers keep each
 * warp's addresses together, in instruction order). */
static void ws_pack_warp_addrs(const struct ws_warp_stream *ws,
                               struct ws_pack_warp *pw)
{
    int any = 0;

    pw->first_addr = 0;
    pw->naddrs = 0;
    for (uint32_t i = 0; i < ws->ninst; i++) {
        const struct ws_inst *in = &ws->inst[i];
        if (in->width == 0)
            continue;
        if (!any || in->addr < pw->first_addr)
            pw->first_addr = in->addr;
        any = 1;
        pw->naddrs += (uint32_t)__builtin_popcount(in->mask);
    }
}

/* The CTA's warp records; *ninst their instructions in all. */
static int ws_pack_warps(struct ws_pack_writer *w,
                         const struct ws_cta_stream *cta, uint32_t *ninst,
                         struct ws_err *err)
{
    uint64_t total = 0;

    if (ws_grow((void **)&w->warps, &w->warps_cap, cta->nwarps,
                sizeof *w->warps, 32)
        < 0)
        return ws_err_oom(err);
    for (uint32_t k = 0; k < cta->nwarps; k++) {
        struct ws_pack_warp *pw = &w->warps[k];
        pw->ninst = cta->warps[k].ninst;
        pw->first_inst = (uint32_t)total;
        ws_pack_warp_addrs(&cta->warps[k], pw);
        total += pw->ninst;
    }
    if (total > UINT32_MAX)
        return ws_err_msg(err,
                          "%s: a CTA of %llu instructions is too large "
                          "to pack (expected fewer than 2^32)",
                          w->name, (unsigned long long)total);
    *ninst = (uint32_t)total;
    return 0;
}

/* Writes the CTA's block; *ninst its instructions. */
static int ws_pack_cta(struct ws_pack_writer *w,
                       const struct ws_cta_stream *cta, uint32_t *ninst_out,
                       struct ws_err *err)
{
    struct ws_pack_cta rec;
    uint32_t ninst = 0;

    if (ws_pack_pad(w, 8, err) < 0 || ws_pack_warps(w, cta, &ninst, err) < 0)
        return -1;
    if (ws_grow((void **)&w->ctas, &w->ctas_cap, w->nctas + 1, sizeof *w->ctas,
                1024)
        < 0)
        return ws_err_oom(err);
    w->ctas[w->nctas++] = w->pos;
    memset(&rec, 0, sizeof rec);
    memcpy(rec.ctaid, cta->ctaid, sizeof rec.ctaid);
    rec.has_cluster = cta->has_cluster ? 1 : 0;
    memcpy(rec.cluster_id, cta->cluster_id, sizeof rec.cluster_id);
    memcpy(rec.cluster_cta, cta->cluster_cta, sizeof rec.cluster_cta);
    rec.cluster_rank = cta->cluster_rank;
    rec.ninst = ninst;
    rec.naddrs = cta->naddrs;
    rec.inst_off = w->pos + sizeof rec
                   + (uint64_t)cta->nwarps * sizeof *w->warps;
    rec.first_addr = w->naddrs;
    if (cta->naddrs
        && fwrite(cta->addrs, sizeof *cta->addrs, cta->naddrs, w->addrs)
               != cta->naddrs)
        return ws_pack_write_fail(w, err);
    w->naddrs += cta->naddrs;
    if (ws_pack_put(w, &rec, sizeof rec, err) < 0
        || ws_pack_put(w, w->warps, cta->nwarps * sizeof *w->warps, err) < 0)
        return -1;
    for (uint32_t k = 0; k < cta->nwarps; k++)
        if (ws_pack_put(w, cta->warps[k].inst,
                        cta->warps[k].ninst * sizeof(struct ws_inst), err)
            < 0)
            return -1;
    *ninst_out = ninst;
    return 0;
}

/* The kernel's address table, from its temporary file. */
static int ws_pack_addrs(struct ws_pack_writer *w, struct ws_err *err)
{
    uint64_t buf[4096];
    size_t n;

    if (fflush(w->addrs) != 0 || fseek(w->addrs, 0, SEEK_SET) != 0)
        return ws_pack_write_fail(w, err);
    while ((n = fread(buf, sizeof *buf, 4096, w->addrs)) > 0)
        if (ws_pack_put(w, buf, n * sizeof *buf, err) < 0)
            return -1;
    if (ferror(w->addrs))
        return ws_pack_write_fail(w, err);
    fclose(w->addrs);
    w->addrs = NULL;
    return 0;
}

/* ---- one kernel -------------------------------------------------------- */

/* s and its NUL; *off where it went. */
static int ws_pack_string(struct ws_pack_writer *w, const char *s,
                          uint64_t *off, struct ws_err *err)
{
    *off = w->pos;
    return ws_pack_put(w, s, strlen(s) + 1, err);
}

/* The strings and the opcode table; fills the header's offsets. */
static int ws_pack_tables(struct ws_pack_writer *w,
                          const struct ws_cta_source *src,
                          struct ws_pack_kernel_hdr *h, struct ws_err *err)
{
    const struct ws_strtab *ops = src->ops;
    uint64_t first_op;

    h->strings_off = w->pos;
    if (ws_pack_string(w, src->launch->name ? src->launch->name : "?",
                       &h->name_off, err)
        < 0)
        return -1;
    if (src->launch->nvbit_version
        && ws_pack_string(w, src->launch->nvbit_version, &h->nvbit_off, err)
               < 0)
        return -1;
    first_op = w->pos;
    for (uint32_t i = 0; i < ops->count; i++)
        if (ws_pack_put(w, ops->strs[i], strlen(ops->strs[i]) + 1, err) < 0)
            return -1;
    if (ws_pack_pad(w, 8, err) < 0)
        return -1;
    h->ops_off = w->pos;
    h->nops = ops->count;
    for (uint32_t i = 0; i < ops->count; i++) {
        struct ws_pack_op op = {first_op, (uint32_t)strlen(ops->strs[i]), 0};
        first_op += op.len + 1;
        if (ws_pack_put(w, &op, sizeof op, err) < 0)
            return -1;
    }
    h->ctas_off = w->pos;
    return ws_pack_put(w, w->ctas, w->nctas * sizeof *w->ctas, err);
}

static void ws_pack_launch(struct ws_pack_kernel_hdr *h,
                           const struct ws_launch *l)
{
    h->id = l->id;
    memcpy(h->grid, l->grid, sizeof h->grid);
    memcpy(h->block, l->block, sizeof h->block);
    h->shmem = l->shmem;
    h->nregs = l->nregs;
    h->sm_version = l->sm_version;
    h->stream_id = l->stream_id;
    h->shmem_base = l->shmem_base;
    h->local_base = l->local_base;
    h->trace_version = l->trace_version;
    h->lineinfo = l->lineinfo ? 1 : 0;
    if (l->cluster[0]) {
        h->cluster[0] = l->cluster[0];
        h->cluster[1] = l->cluster[1] ? l->cluster[1] : 1;
        h->cluster[2] = l->cluster[2] ? l->cluster[2] : 1;
    }
    h->nwarps = ws_launch_warps_per_cta(l);
}

int ws_pack_write_kernel(struct ws_pack_writer *w,
                         const struct ws_cta_source *src, struct ws_err *err)
{
    struct ws_pack_kernel_hdr h;
    const struct ws_cta_stream *cta;
    uint32_t ninst = 0;
    int rc;

    memset(&h, 0, sizeof h);
    ws_pack_launch(&h, src->launch);
    w->nctas = 0;
    w->naddrs = 0;
    if (!(w->addrs = tmpfile()))
        return ws_err_msg(err,
                          "%s: cannot create a temporary file for the "
                          "addresses (expected a writable temporary folder)",
                          w->name);
    if (ws_pack_pad(w, 8, err) < 0)
        return -1;
    h.blocks_off = w->pos;
    while ((rc = src->next(src->ctx, &cta, err)) == 1) {
        if (cta->nwarps != h.nwarps)
            return ws_err_msg(err,
                              "%s: a CTA of %u warps in a launch of %u "
                              "(expected the block's warp count)",
                              src->origin, cta->nwarps, h.nwarps);
        if (ws_pack_cta(w, cta, &ninst, err) < 0)
            return -1;
        h.ninst += ninst;
    }
    if (rc < 0)
        return -1;
    h.naddrs = w->naddrs;
    if (ws_pack_pad(w, 8, err) < 0)
        return -1;
    h.addrs_off = w->pos;
    if (ws_pack_addrs(w, err) < 0)
        return -1;
    if (w->nctas > UINT32_MAX)
        return ws_err_msg(err,
                          "%s: too many CTAs to pack (expected fewer "
                          "than 2^32)",
                          src->origin);
    h.nctas = (uint32_t)w->nctas;
    if (ws_pack_tables(w, src, &h, err) < 0 || ws_pack_pad(w, 64, err) < 0)
        return -1;
    if (ws_pack_push_cmd(w, WS_PACK_CMD_KERNEL, w->pos, 0, err) < 0)
        return -1;
    w->nkernels++;
    return ws_pack_put(w, &h, sizeof h, err);
}

int ws_pack_writer_finish(struct ws_pack_writer *w, struct ws_err *err)
{
    struct ws_pack_header h;

    memset(&h, 0, sizeof h);
    if (ws_pack_pad(w, 64, err) < 0)
        return -1;
    h.cmd_off = w->pos;
    if (ws_pack_put(w, w->cmds, w->ncmds * sizeof *w->cmds, err) < 0)
        return -1;
    memcpy(h.magic, WS_PACK_MAGIC, sizeof h.magic);
    h.version = WS_PACK_VERSION;
    h.bom = WS_PACK_BOM;
    h.inst_size = sizeof(struct ws_inst);
    h.header_size = sizeof h;
    h.file_size = w->pos;
    h.checksum = XXH3_64bits_digest(w->hash);
    h.ncmds = (uint32_t)w->ncmds;
    h.nkernels = w->nkernels;
    if (fflush(w->fp) != 0 || fseek(w->fp, 0, SEEK_SET) != 0
        || fwrite(&h, sizeof h, 1, w->fp) != 1 || fflush(w->fp) != 0
        || fseek(w->fp, 0, SEEK_END) != 0)
        return ws_pack_write_fail(w, err);
    return 0;
}

void ws_pack_writer_free(struct ws_pack_writer *w)
{
    if (!w)
        return;
    XXH3_freeState(w->hash);
    free(w->cmds);
    free(w->ctas);
    free(w->warps);
    if (w->addrs)
        fclose(w->addrs);
    free(w);
}
