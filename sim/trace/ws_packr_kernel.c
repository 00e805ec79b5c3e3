/*
 * ws_packr_kernel: one kernel of a .wst, served CTA by CTA as ws_traceg
 * serves a text trace (format and trust rules in ws_pack.h).
 *
 * Opening checks the kernel's header against the ranges of a text header
 * and the user's limits, its layout (ws_packr_layout.c: sections back to
 * back, reserved fields and padding zero, every CTA block where the one
 * before it ends, ranges that tile, totals that add up), its strings and
 * its opcode table (derived with ws_opinfo for the running
 * configuration).  Serving a CTA checks its block again from a copy of its
 * records, and each instruction record (sound, and its addresses where
 * its warp's chain says), then points the struct ws_cta_stream into the
 * mapping; only a CTA whose opcode-derived fields disagree with this
 * configuration is copied and corrected.  Nothing is allocated per CTA
 * but that copy, which grows to the largest CTA that needs one.
 *
 * Every entry point ends with ws_packr_unchanged: a file cut short or
 * rewritten while it is read is reported as that (and at the end of the
 * kernel, its size and modification time are compared too).
 *
 * Leaves out: a writer racing the simulator between the check of a
 * whole CTA's records and the simulator's copy of them (microseconds, an
 * in-place rewrite rather than a truncation, whose pages read as zeros):
 * the change is still reported at the end of the kernel, but the records
 * were used as they were.  Streamed warps copy each record before
 * checking it and have no such window.
 */
#include "ws_packr_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/ws_grow.h"
#include "ws_opinfo.h"

/* ---- a kernel's header -------------------------------------------------- */

static int ws_packr_kbad(const struct ws_pack_reader *r, struct ws_err *err,
                         size_t field, const char *expected, const char *fmt,
                         ...) __attribute__((format(printf, 5, 6)));

/* ws_packr_bad for kernel r, at its header's field (an offsetof). */
static int ws_packr_kbad(const struct ws_pack_reader *r, struct ws_err *err,
                         size_t field, const char *expected, const char *fmt,
                         ...)
{
    char prefix[48];
    va_list ap;

    snprintf(prefix, sizeof prefix, "kernel %zu: ", r->index + 1);
    va_start(ap, fmt);
    ws_packr_vbad(r->p->name, err, r->hdr_off + field, expected, prefix, fmt,
                  ap);
    va_end(ap);
    return -1;
}

/* The limits the user can raise, in the words the text reader uses. */
static int ws_packr_limits(struct ws_pack_reader *r, struct ws_err *err)
{
    const struct ws_pack_kernel_hdr *k = &r->k;
    const char *name = r->p->name;
    uint64_t ctas = (uint64_t)k->grid[0] * k->grid[1] * k->grid[2];

    if (ctas > r->opts.max_ctas)
        return ws_err_at(err, name, 1, 1,
                         "kernel %zu: grid of %llu CTAs is "
                         "over the limit of %llu (expected at most --max-ctas "
                         "CTAs; raise it with --max-ctas N)",
                         r->index + 1, (unsigned long long)ctas,
                         (unsigned long long)r->opts.max_ctas);
    if (k->ninst > r->opts.max_insts)
        return ws_err_at(err, name, 1, 1,
                         "kernel %zu: %llu warp "
                         "instructions are over the limit of %llu (expected "
                         "at most --max-insts in all; raise it with "
                         "--max-insts N)",
                         r->index + 1, (unsigned long long)k->ninst,
                         (unsigned long long)r->opts.max_insts);
    if (k->nctas == 0 || k->nctas > ctas)
        return ws_packr_kbad(r, err, offsetof(struct ws_pack_kernel_hdr, nctas),
                             "1 to the grid's CTAs; repack it",
                             "%u CTAs in a grid of %llu", k->nctas,
                             (unsigned long long)ctas);
    return 0;
}

/* The ranges the text header is held to. */
static int ws_packr_launch_ranges(struct ws_pack_reader *r, struct ws_err *err)
{
    const struct ws_pack_kernel_hdr *k = &r->k;
    const uint32_t *g = k->grid, *b = k->block;

    if (!g[0] || !g[1] || !g[2] || g[0] > 0x7fffffffu || g[1] > 65535
        || g[2] > 65535)
        return ws_packr_kbad(r, err, offsetof(struct ws_pack_kernel_hdr, grid),
                             "a grid CUDA allows; repack it", "grid (%u,%u,%u)",
                             g[0], g[1], g[2]);
    if (!b[0] || !b[1] || !b[2] || b[2] > WS_CUDA_MAX_BLOCK_Z
        || (uint64_t)b[0] * b[1] * b[2] > WS_CUDA_MAX_BLOCK_THREADS)
        return ws_packr_kbad(r, err, offsetof(struct ws_pack_kernel_hdr, block),
                             "a block CUDA allows; repack it",
                             "block (%u,%u,%u)", b[0], b[1], b[2]);
    if (k->shmem > (4u << 20) || k->nregs > 255 || k->sm_version < 10
        || k->sm_version > 199 || k->lineinfo > 1
        || (k->trace_version != 0
            && (k->trace_version < 3 || k->trace_version > 6))
        || ((k->cluster[0] | k->cluster[1] | k->cluster[2])
            && (!k->cluster[0] || !k->cluster[1] || !k->cluster[2]
                || (uint64_t)k->cluster[0] * k->cluster[1] * k->cluster[2]
                       > 16)))
        return ws_packr_kbad(r, err, offsetof(struct ws_pack_kernel_hdr, shmem),
                             "the ranges of an Accel-Sim header; repack it",
                             "launch values out of range");
    return 0;
}

static void ws_packr_fill_launch(struct ws_pack_reader *r)
{
    const struct ws_pack_kernel_hdr *k = &r->k;
    struct ws_launch *l = &r->launch;

    l->id = k->id;
    memcpy(l->grid, k->grid, sizeof l->grid);
    memcpy(l->block, k->block, sizeof l->block);
    l->shmem = k->shmem;
    l->nregs = k->nregs;
    l->sm_version = k->sm_version;
    l->stream_id = k->stream_id;
    l->shmem_base = k->shmem_base;
    l->local_base = k->local_base;
    l->trace_version = k->trace_version;
    l->lineinfo = (int)k->lineinfo;
    memcpy(l->cluster, k->cluster, sizeof l->cluster);
}

static int ws_packr_strings(struct ws_pack_reader *r, struct ws_err *err)
{
    const char *name, *nvbit;
    size_t name_len, nvbit_len;

    if (ws_packr_layout_strings(r, &name, &name_len, &nvbit, &nvbit_len, err)
        < 0)
        return -1;
    r->launch.name = strndup(name, name_len);
    r->launch.nvbit_version = nvbit ? strndup(nvbit, nvbit_len) : NULL;
    if (!r->launch.name || (nvbit && !r->launch.nvbit_version))
        return ws_err_oom(err);
    return 0;
}

static void ws_packr_expect_op(struct ws_pack_reader *r, uint32_t i)
{
    const struct ws_opinfo *info = &r->opinfo[i];
    struct ws_packr_expect *e = &r->expect[i];
    struct ws_inst d;

    /* No lanes, so that a generic access reads no address. */
    memset(&d, 0, sizeof d);
    ws_opinfo_apply(info, &r->launch, NULL, &d);
    e->cls = d.cls;
    e->memop = d.memop;
    e->flags = d.flags;
    e->space_none = d.space;
    d.width = info->width;
    ws_opinfo_apply(info, &r->launch, NULL, &d);
    e->space_mem = d.space;
    e->width = info->width;
    e->generic = (d.flags & WS_INST_GENERIC) != 0;
}

/* Opcode i of the table at byte at: interned in order, so that ids are
 * table indices, and derived for this configuration. */
static int ws_packr_op(struct ws_pack_reader *r, uint32_t i, uint64_t at,
                       struct ws_err *err)
{
    const struct ws_pack *p = r->p;
    struct ws_pack_op op;
    const char *s;
    uint32_t id;

    memcpy(&op, p->base + at, sizeof op);
    if (ws_packr_layout_op(r, i, &op, at, err) < 0)
        return -1;
    /* Where the layout puts it, so inside the strings: one NUL, at its
     * length. */
    s = (const char *)p->base + op.off;
    if (op.len == 0 || op.len >= r->k.ops_off - op.off || s[op.len] != '\0'
        || memchr(s, '\0', op.len))
        return ws_packr_bad(p->name, err, at, WS_PACKR_REPACK,
                            "kernel %zu: "
                            "opcode %u's text is not a string of its length",
                            r->index + 1, i);
    id = ws_strtab_intern(&r->ops, s, op.len);
    if (id == UINT32_MAX)
        return ws_err_oom(err);
    if (id != i)
        return ws_packr_bad(p->name, err, at, WS_PACKR_REPACK,
                            "kernel %zu: "
                            "opcode %u repeats opcode %u",
                            r->index + 1, i, id);
    /* From here on the interned copy: the mapping may change under us
     * (ws_packr_unchanged says so), a string it holds may lose its NUL. */
    s = r->ops.strs[i];
    ws_opinfo_derive(&r->opinfo[i], s, r->k.sm_version, r->opts.unknown_class);
    ws_packr_expect_op(r, i);
    return 0;
}

static int ws_packr_ops(struct ws_pack_reader *r, struct ws_err *err)
{
    uint64_t off = r->k.ops_off;

    /* The table's place was checked with the sections. */
    r->opinfo = calloc(r->k.nops ? r->k.nops : 1, sizeof *r->opinfo);
    r->expect = calloc(r->k.nops ? r->k.nops : 1, sizeof *r->expect);
    if (!r->opinfo || !r->expect)
        return ws_err_oom(err);
    for (uint32_t i = 0; i < r->k.nops; i++)
        if (ws_packr_op(r, i, off + (uint64_t)i * sizeof(struct ws_pack_op),
                        err)
            < 0)
            return -1;
    return ws_packr_layout_ops_end(r, err);
}

static int ws_packr_kernel(struct ws_pack_reader *r, struct ws_err *err)
{
    const struct ws_pack *p = r->p;

    memcpy(&r->k, p->base + r->hdr_off, sizeof r->k);
    if (ws_packr_launch_ranges(r, err) < 0 || ws_packr_limits(r, err) < 0)
        return -1;
    ws_packr_fill_launch(r);
    if (r->k.nwarps != ws_launch_warps_per_cta(&r->launch))
        return ws_packr_kbad(r, err,
                             offsetof(struct ws_pack_kernel_hdr, nwarps),
                             "the block's warp count; repack it",
                             "%u warps per CTA", r->k.nwarps);
    if (ws_packr_layout_sections(r, err) < 0 || ws_packr_strings(r, err) < 0
        || ws_packr_ops(r, err) < 0)
        return -1;
    r->warps = calloc(r->k.nwarps, sizeof *r->warps);
    r->wrec = calloc(r->k.nwarps, sizeof *r->wrec);
    r->cta_seen = calloc((size_t)((ws_launch_ctas(&r->launch) + 7) / 8), 1);
    if (!r->warps || !r->wrec || !r->cta_seen)
        return ws_err_oom(err);
    r->cta.nwarps = r->k.nwarps;
    r->cta.warps = r->warps;
    /* Every CTA block before any is served: a kernel whose totals do not
     * add up is refused before an instruction of it is simulated. */
    return ws_packr_layout_ctas(r, err);
}

/* ---- CTAs -------------------------------------------------------------- */

static int ws_packr_cbad(const struct ws_pack_reader *r, struct ws_err *err,
                         uint64_t at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* ws_packr_bad for the CTA being served. */
static int ws_packr_cbad(const struct ws_pack_reader *r, struct ws_err *err,
                         uint64_t at, const char *fmt, ...)
{
    char prefix[64];
    va_list ap;

    snprintf(prefix, sizeof prefix, "kernel %zu, CTA %u: ", r->index + 1,
             r->next + 1);
    va_start(ap, fmt);
    ws_packr_vbad(r->p->name, err, at, WS_PACKR_REPACK, prefix, fmt, ap);
    va_end(ap);
    return -1;
}

/* The checked record's identity and warps into r->cta: the warps point
 * at their records in the mapping. */
static void ws_packr_fill_cta(struct ws_pack_reader *r,
                              const struct ws_pack_cta *c,
                              const struct ws_inst *insts)
{
    const uint32_t *g = r->launch.grid, *id = c->ctaid;

    memcpy(r->cta.ctaid, id, sizeof r->cta.ctaid);
    r->cta.linear_id = ((uint64_t)id[2] * g[1] + id[1]) * g[0] + id[0];
    r->cta.has_cluster = c->has_cluster != 0;
    memcpy(r->cta.cluster_id, c->cluster_id, sizeof r->cta.cluster_id);
    memcpy(r->cta.cluster_cta, c->cluster_cta, sizeof r->cta.cluster_cta);
    r->cta.cluster_rank = c->cluster_rank;
    r->cta.ninst = c->ninst;
    for (uint32_t w = 0; w < r->k.nwarps; w++) {
        r->warps[w].ninst = r->wrec[w].ninst;
        r->warps[w].inst = r->wrec[w].ninst ? insts + r->wrec[w].first_inst
                                            : NULL;
    }
}

/* Row n: 0xff in the first n bytes, the used slots of a register list of
 * n (loaded with memcpy, so right in either byte order). */
static const uint8_t ws_packr_used[WS_INST_MAX_SRC + 1][8] = {
    {0},
    {0xff},
    {0xff, 0xff},
    {0xff, 0xff, 0xff},
    {0xff, 0xff, 0xff, 0xff},
    {0xff, 0xff, 0xff, 0xff, 0xff}};

/* Nonzero when one of the first n of a list's cap slots is RZ (readers
 * drop it) or one after them is not 0 (as the readers leave them): a word
 * at a time, as every record is checked.  A used slot holding RZ is a
 * zero byte of ~slots, the unused bytes there forced to 0xff. */
static inline uint64_t ws_packr_regs_bad(const uint8_t *regs, size_t cap,
                                         unsigned n)
{
    const uint64_t ones = 0x0101010101010101ull, highs = ones << 7;
    uint64_t v = 0, used, inv;

    memcpy(&v, regs, cap);
    memcpy(&used, ws_packr_used[n], sizeof used);
    inv = ~v | ~used;
    return (v & ~used) | ((inv - ones) & ~inv & highs);
}

/* 1 when the record's opcode, registers, width and addresses can be
 * used as they are. */
int ws_packr_sound(const struct ws_pack_reader *r, const struct ws_inst *in,
                   uint32_t naddrs)
{
    unsigned nd = in->ndst, ns = in->nsrc;

    if (nd > WS_INST_MAX_DST || ns > WS_INST_MAX_SRC || in->op >= r->k.nops
        || ws_packr_regs_bad(in->dst, WS_INST_MAX_DST, nd)
        || ws_packr_regs_bad(in->src, WS_INST_MAX_SRC, ns))
        return 0;
    if (in->width != 0)
        return in->width == r->expect[in->op].width
               && (uint64_t)in->addr + ws_popcount32(in->mask) <= naddrs;
    return 1;
}

/* Checks the records against the kernel, warp by warp: -1 (err) when one
 * is unsound or leaves its warp's address chain, 1 when all are sound
 * but a field the opcode implies differs from what it implies for this
 * configuration, else 0. */
static int ws_packr_insts(const struct ws_pack_reader *r,
                          const struct ws_inst *insts,
                          const struct ws_pack_cta *c, const uint64_t *addrs,
                          struct ws_err *err)
{
    int stale = 0;

    for (uint32_t w = 0; w < r->k.nwarps; w++) {
        const struct ws_pack_warp *pw = &r->wrec[w];
        const struct ws_inst *in = insts + pw->first_inst;
        uint64_t next = pw->first_addr, end = next + pw->naddrs;
        for (uint32_t i = 0; i < pw->ninst; i++) {
            uint64_t at = c->inst_off
                          + ((uint64_t)pw->first_inst + i) * sizeof *in;
            /* A copy: the checks index tables by its fields, which must
             * not change between one check and the next. */
            struct ws_inst x;
            memcpy(&x, in + i, sizeof x);
            if (!ws_packr_sound(r, &x, c->naddrs))
                return ws_packr_cbad(r, err, at,
                                     "instruction %u unsound "
                                     "(opcode, registers, width or "
                                     "addresses)",
                                     pw->first_inst + i);
            if (!ws_packr_chain(&x, &next, end))
                return ws_packr_cbad(r, err,
                                     at + offsetof(struct ws_inst, addr),
                                     "warp %u's instruction %u has addr %u "
                                     "where its warp's addresses are %llu "
                                     "to %llu, the next at %llu",
                                     w, i, x.addr,
                                     (unsigned long long)pw->first_addr,
                                     (unsigned long long)end,
                                     (unsigned long long)next);
            stale |= ws_packr_stale(r, &x, addrs);
        }
        if (next != end)
            return ws_packr_cbad(r, err,
                                 c->inst_off
                                     + ((uint64_t)pw->first_inst + pw->ninst)
                                           * sizeof *in,
                                 "warp %u's accesses take %llu of its %u "
                                 "addresses",
                                 w, (unsigned long long)(next - pw->first_addr),
                                 pw->naddrs);
    }
    return stale;
}

int ws_packr_stale(const struct ws_pack_reader *r, const struct ws_inst *in,
                   const uint64_t *addrs)
{
    const struct ws_packr_expect *e = &r->expect[in->op];
    uint8_t space = in->width ? e->space_mem : e->space_none;

    if (e->generic && in->width && in->mask) {
        struct ws_inst d = *in;
        ws_opinfo_apply(&r->opinfo[in->op], &r->launch, addrs, &d);
        space = d.space;
    }
    return in->cls != e->cls || in->memop != e->memop || in->flags != e->flags
           || in->space != space;
}

/* Serves the CTA from a copy whose derived fields are this
 * configuration's.  The copy is what is served, so it is what is checked
 * (again: the file may have changed since, which the end of the kernel
 * reports). */
static int ws_packr_correct(struct ws_pack_reader *r, const struct ws_inst *in,
                            const struct ws_pack_cta *c, const uint64_t *addrs,
                            struct ws_err *err)
{
    uint32_t n = c->ninst;

    if (ws_grow((void **)&r->copy, &r->copy_cap, n ? n : 1, sizeof *r->copy,
                256)
        < 0)
        return ws_err_oom(err);
    memcpy(r->copy, in, (size_t)n * sizeof *in);
    if (ws_packr_insts(r, r->copy, c, addrs, err) < 0)
        return -1;
    for (uint32_t i = 0; i < n; i++)
        ws_opinfo_apply(&r->opinfo[r->copy[i].op], &r->launch, addrs,
                        &r->copy[i]);
    for (uint32_t w = 0; w < r->k.nwarps; w++)
        if (r->warps[w].inst)
            r->warps[w].inst = r->copy + (r->warps[w].inst - in);
    return 0;
}

/* The pages before this CTA's records and addresses: the simulator copied
 * the CTAs that lay there when they were served. */
static void ws_packr_give_back(struct ws_pack_reader *r, uint64_t inst,
                               uint64_t addr)
{
    /* Whole pages up to the one the current CTA starts in; the marks stay
     * on page boundaries, so no page is left half given back. */
    uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);

    if (page == 0 || page == (uint64_t)-1)
        return;
    inst -= inst % page;
    addr -= addr % page;
    /* A megabyte at a time: one system call per CTA cost more than the
     * reading. */
    if (inst - r->given_inst < (1u << 20) && addr - r->given_addr < (1u << 20))
        return;
    if (inst > r->given_inst) {
        ws_pack_release(r->p, r->given_inst, inst - r->given_inst);
        r->given_inst = inst;
    }
    if (addr > r->given_addr) {
        ws_pack_release(r->p, r->given_addr, addr - r->given_addr);
        r->given_addr = addr;
    }
}

/* Serves the CTA whose checked record is c: whole (its instructions
 * checked and, where this configuration derives fields differently,
 * corrected), or, for a streamed kernel, its identity and warps only
 * (each warp's records are checked as its reader reads them,
 * ws_packr_stream.c). */
static int ws_packr_cta(struct ws_pack_reader *r, const struct ws_pack_cta *c,
                        int whole, struct ws_err *err)
{
    const struct ws_inst *insts = (const void *)(r->p->base + c->inst_off);
    uint64_t addr_off = r->k.addrs_off + c->first_addr * sizeof(uint64_t);
    const uint64_t *addrs = (const void *)(r->p->base + addr_off);
    int stale = 0;

    if (c->ninst > r->opts.max_insts - r->insts_total)
        return ws_err_at(err, r->p->name, 1, 1,
                         "kernel %zu: CTA %u takes "
                         "the kernel past the limit of %llu warp "
                         "instructions (expected at most --max-insts in all; "
                         "raise it with --max-insts N)",
                         r->index + 1, r->next + 1,
                         (unsigned long long)r->opts.max_insts);
    ws_packr_fill_cta(r, c, insts);
    r->insts_total += c->ninst;
    if (!whole) {
        r->cur_addr_off = addr_off;
        r->cur_naddrs = c->naddrs;
        r->cur_no = r->next;
        r->cta.addrs = NULL;
        r->cta.naddrs = 0;
        r->mapped++;
        return 0;
    }
    if ((stale = ws_packr_insts(r, insts, c, addrs, err)) < 0
        || (stale && ws_packr_correct(r, insts, c, addrs, err) < 0))
        return -1;
    r->copied += stale != 0;
    r->mapped += stale == 0;
    ws_packr_give_back(r, c->inst_off, addr_off);
    r->cta.addrs = addrs;
    r->cta.naddrs = c->naddrs;
    return 0;
}

/* The grid's CTAs not in the trace, once all that are were served. */
static void ws_packr_warn_missing(const struct ws_pack_reader *r)
{
    uint64_t grid = ws_launch_ctas(&r->launch);

    if (r->k.nctas < grid)
        ws_warn_at(r->p->name, 1, 1,
                   "kernel %zu: %u of %llu CTAs in the "
                   "trace; the rest are taken to be empty (the tracer skips "
                   "CTAs with no instructions)",
                   r->index + 1, r->k.nctas, (unsigned long long)grid);
}

static int ws_packr_serve_one(struct ws_pack_reader *r,
                              const struct ws_cta_stream **cta, int whole,
                              struct ws_err *err)
{
    struct ws_pack_cta c;
    uint64_t off;

    if (r->next == r->k.nctas)
        return 0;
    if (ws_packr_block(r, &r->walk, r->next, &c, &off, err) < 0
        || ws_packr_cta(r, &c, whole, err) < 0)
        return -1;
    r->next++;
    *cta = &r->cta;
    return 1;
}

int ws_packr_serve(struct ws_pack_reader *r, const struct ws_cta_stream **cta,
                   int whole, struct ws_err *err)
{
    int rc;

    if (r->finished)
        return 0;
    rc = ws_packr_serve_one(r, cta, whole, err);
    /* The end of the kernel (for a whole one, the last use of the
     * mapping) and an error (which may be the zeros of a file cut short
     * within a page, where nothing faults) compare the file's size and
     * time as well; a CTA costs a load of the guard's flag. */
    if (ws_packr_unchanged(r->p, rc <= 0, err) < 0)
        rc = -1;
    if (rc <= 0)
        r->finished = 1;
    if (rc == 0)
        ws_packr_warn_missing(r);
    return rc;
}

int ws_pack_reader_next_cta(struct ws_pack_reader *r,
                            const struct ws_cta_stream **cta,
                            struct ws_err *err)
{
    return ws_packr_serve(r, cta, 1, err);
}

int ws_pack_reader_open(struct ws_pack_reader **out, const struct ws_pack *p,
                        size_t k, const struct ws_trace_opts *opts,
                        struct ws_err *err)
{
    struct ws_pack_reader *r = calloc(1, sizeof *r);
    int rc;

    *out = NULL;
    if (!r)
        return ws_err_oom(err);
    r->p = p;
    r->index = k;
    if (opts)
        r->opts = *opts;
    else
        ws_trace_opts_default(&r->opts);
    ws_strtab_init(&r->ops);
    if (k >= p->h.nkernels) {
        ws_pack_reader_close(r);
        return ws_err_at(err, p->name, 1, 1,
                         "no kernel %zu (expected 1 to "
                         "%u)",
                         k + 1, p->h.nkernels);
    }
    r->hdr_off = p->kernels[k];
    rc = ws_packr_kernel(r, err);
    /* Whatever rc: a check that failed on the zeros of a file cut short is
     * reported as the change.  The file's size and time are compared too:
     * a kernel opened after the one before it ran is where a rewrite
     * between kernels shows. */
    if (ws_packr_unchanged(p, 1, err) < 0)
        rc = -1;
    if (rc < 0) {
        ws_pack_reader_close(r);
        return -1;
    }
    *out = r;
    return 0;
}

const struct ws_launch *ws_pack_reader_launch(const struct ws_pack_reader *r)
{
    return &r->launch;
}

const struct ws_strtab *ws_pack_reader_opcodes(const struct ws_pack_reader *r)
{
    return &r->ops;
}

void ws_pack_reader_counts(const struct ws_pack_reader *r, uint64_t *mapped,
                           uint64_t *copied)
{
    *mapped = r->mapped;
    *copied = r->copied;
}

void ws_pack_reader_close(struct ws_pack_reader *r)
{
    if (!r)
        return;
    ws_strtab_free(&r->ops);
    free(r->launch.name);
    free(r->launch.nvbit_version);
    free(r->opinfo);
    free(r->expect);
    free(r->cta_seen);
    free(r->warps);
    free(r->wrec);
    free(r->copy);
    ws_packr_stream_free(r);
    free(r);
}
