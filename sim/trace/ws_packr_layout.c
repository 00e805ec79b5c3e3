/*
 * ws_packr_layout: a .wst kernel's structure checked on its own, so that
 * a file whose checksum was recomputed over edited fields is still an
 * error, not a different instruction stream (format in ws_pack.h).
 *
 * The writer (ws_pack.c) writes every byte once, in order, and pads with
 * zeros, so where each section and record lies is not free but follows
 * from what came before it.  What is checked here, field by field, each
 * violation its own error at the field's byte:
 *
 *   - reserved fields zero: the kernel header's zero and reserved[4], each
 *     CTA record's zero; padding bytes zero (before a CTA block, the
 *     address table, the opcode table and the kernel header);
 *   - the sections back to back: blocks_off where the kernel before ends
 *     (or at 64), the first CTA block at blocks_off and each next one where
 *     the one before ends, rounded up to 8; the address table right after
 *     the last block; the strings right after the addresses; the name,
 *     the NVBit version and the opcode texts back to back from there; the
 *     opcode table after the texts, rounded up to 8; the CTA index right
 *     after it, and the kernel header 64-aligned right after that;
 *   - each CTA record's instructions right after its warp records, its
 *     first address where the CTAs before it end; the warps' instruction
 *     ranges tiling the CTA's in warp order, their address ranges tiling
 *     the CTA's without overlap or gap (in any order: the text keeps each
 *     warp's addresses together, in the order its warps came);
 *   - totals: a CTA's ninst and naddrs the sums of its warps', the
 *     kernel's ninst and naddrs the sums of its CTAs'.
 *
 * The CTA blocks are walked at kernel open, before anything is served,
 * and each is walked again when it is served (ws_packr_kernel.c), from a
 * copy of its record, so that a file changed in between cannot hand the
 * simulator a record that was never checked.  The instruction records'
 * own address chain (each memory access's addresses right after the
 * previous one's in its warp) is checked as they are read.
 *
 * Leaves out: the file header and command table (ws_packr.c), and fields
 * that are data rather than structure (pcs, masks, immediates, addresses,
 * the launch's ids and bases).
 */
#define _DEFAULT_SOURCE
#include "ws_packr_internal.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define WS_PACKR_MAX_WARPS (WS_CUDA_MAX_BLOCK_THREADS / WS_WARP_SIZE)

static uint64_t ws_packr_pad(uint64_t off, uint64_t align)
{
    return (off + align - 1) / align * align;
}

int ws_packr_field(const char *name, struct ws_err *err, uint64_t at,
                   const char *prefix, const char *field, uint64_t got,
                   uint64_t want, const char *why)
{
    return ws_err_at(err, name, 1, 1,
                     "%s%s is %llu at byte %llu (expected "
                     "%llu, %s; repack it)",
                     prefix, field, (unsigned long long)got,
                     (unsigned long long)at, (unsigned long long)want, why);
}

uint64_t ws_packr_nonzero(const struct ws_pack *p, uint64_t from, uint64_t to)
{
    for (; from < to && from < p->size; from++)
        if (p->base[from] != 0)
            return from;
    return to;
}

/* "kernel K: " or "kernel K, CTA C: ". */
static const char *ws_packr_prefix(const struct ws_pack_reader *r, uint64_t cta,
                                   char *buf, size_t cap)
{
    if (cta == UINT64_MAX)
        snprintf(buf, cap, "kernel %zu: ", r->index + 1);
    else
        snprintf(buf, cap, "kernel %zu, CTA %llu: ", r->index + 1,
                 (unsigned long long)cta + 1);
    return buf;
}

static int ws_packr_lfield(const struct ws_pack_reader *r, struct ws_err *err,
                           uint64_t cta, uint64_t at, uint64_t got,
                           uint64_t want, const char *why, const char *fmt, ...)
    __attribute__((format(printf, 8, 9)));
static int ws_packr_lbad(const struct ws_pack_reader *r, struct ws_err *err,
                         uint64_t cta, uint64_t at, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* ws_packr_field for kernel r (cta UINT64_MAX) or its CTA cta, the
 * field's name from fmt: formatted on error only, as the checks run per
 * CTA and warp. */
static int ws_packr_lfield(const struct ws_pack_reader *r, struct ws_err *err,
                           uint64_t cta, uint64_t at, uint64_t got,
                           uint64_t want, const char *why, const char *fmt, ...)
{
    char pre[64], field[64];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(field, sizeof field, fmt, ap);
    va_end(ap);
    return ws_packr_field(r->p->name, err, at,
                          ws_packr_prefix(r, cta, pre, sizeof pre), field, got,
                          want, why);
}

/* ws_packr_bad (WHAT at byte AT, expected an intact .wst) for kernel r
 * or its CTA cta. */
static int ws_packr_lbad(const struct ws_pack_reader *r, struct ws_err *err,
                         uint64_t cta, uint64_t at, const char *fmt, ...)
{
    char pre[64];
    va_list ap;

    va_start(ap, fmt);
    ws_packr_vbad(r->p->name, err, at, WS_PACKR_REPACK,
                  ws_packr_prefix(r, cta, pre, sizeof pre), fmt, ap);
    va_end(ap);
    return -1;
}

/* A kernel-header field (an offsetof) against what the layout gives. */
static int ws_packr_kfield(const struct ws_pack_reader *r, struct ws_err *err,
                           size_t field, const char *what, uint64_t got,
                           uint64_t want, const char *why)
{
    return ws_packr_lfield(r, err, UINT64_MAX, r->hdr_off + field, got, want,
                           why, "%s", what);
}

/* "... padding byte not zero at byte AT": -1 when [from, to) is not all
 * zeros. */
static int ws_packr_padding(const struct ws_pack_reader *r, uint64_t cta,
                            uint64_t from, uint64_t to, struct ws_err *err)
{
    uint64_t z = ws_packr_nonzero(r->p, from, to);
    char pre[64];

    if (z == to)
        return 0;
    return ws_err_at(err, r->p->name, 1, 1,
                     "%spadding byte is %u at byte "
                     "%llu (expected 0, as the writer pads; repack it)",
                     ws_packr_prefix(r, cta, pre, sizeof pre),
                     (unsigned)r->p->base[z], (unsigned long long)z);
}

/* ---- the kernel header's sections ------------------------------------- */

static int ws_packr_reserved(const struct ws_pack_reader *r, struct ws_err *err)
{
    const struct ws_pack_kernel_hdr *k = &r->k;

    if (k->zero != 0)
        return ws_packr_kfield(r, err,
                               offsetof(struct ws_pack_kernel_hdr, zero),
                               "zero", k->zero, 0, "a reserved field");
    if (k->zero2 != 0)
        return ws_packr_kfield(r, err,
                               offsetof(struct ws_pack_kernel_hdr, zero2),
                               "zero2", k->zero2, 0, "a reserved field");
    for (int i = 0; i < 2; i++)
        if (k->reserved[i] != 0)
            return ws_packr_lfield(
                r, err, UINT64_MAX,
                r->hdr_off + offsetof(struct ws_pack_kernel_hdr, reserved)
                    + 8u * (unsigned)i,
                k->reserved[i], 0, "a reserved field", "reserved[%d]", i);
    return 0;
}

/* The CTA blocks, then the address table, up to the strings. */
static int ws_packr_lower_sections(const struct ws_pack_reader *r,
                                   struct ws_err *err)
{
    const struct ws_pack_kernel_hdr *k = &r->k;
    uint64_t start = r->index ? r->p->kernels[r->index - 1]
                                    + sizeof(struct ws_pack_kernel_hdr)
                              : sizeof(struct ws_pack_header);

    if (k->blocks_off != start)
        return ws_packr_kfield(r, err,
                               offsetof(struct ws_pack_kernel_hdr, blocks_off),
                               "blocks_off", k->blocks_off, start,
                               r->index ? "where the kernel before it ends"
                                        : "right after the file header");
    if (k->addrs_off % 8 != 0 || k->addrs_off < start
        || k->addrs_off > r->hdr_off
        || k->naddrs > (r->hdr_off - k->addrs_off) / 8)
        return ws_packr_bad(r->p->name, err,
                            r->hdr_off
                                + offsetof(struct ws_pack_kernel_hdr,
                                           addrs_off),
                            WS_PACKR_REPACK,
                            "kernel %zu: address table of "
                            "%llu entries at %llu outside the kernel's "
                            "sections",
                            r->index + 1, (unsigned long long)k->naddrs,
                            (unsigned long long)k->addrs_off);
    if (k->strings_off != k->addrs_off + k->naddrs * 8)
        return ws_packr_kfield(r, err,
                               offsetof(struct ws_pack_kernel_hdr, strings_off),
                               "strings_off", k->strings_off,
                               k->addrs_off + k->naddrs * 8,
                               "right after the address table");
    if (k->name_off != k->strings_off)
        return ws_packr_kfield(r, err,
                               offsetof(struct ws_pack_kernel_hdr, name_off),
                               "name_off", k->name_off, k->strings_off,
                               "the first string");
    return 0;
}

/* The opcode table, the CTA index and the kernel header itself. */
static int ws_packr_upper_sections(const struct ws_pack_reader *r,
                                   struct ws_err *err)
{
    const struct ws_pack_kernel_hdr *k = &r->k;
    uint64_t index_end;

    if (k->ops_off % 8 != 0 || k->ops_off <= k->strings_off
        || k->ops_off > r->hdr_off
        || k->nops > (r->hdr_off - k->ops_off) / sizeof(struct ws_pack_op))
        return ws_packr_bad(r->p->name, err,
                            r->hdr_off
                                + offsetof(struct ws_pack_kernel_hdr, ops_off),
                            WS_PACKR_REPACK,
                            "kernel %zu: opcode table of "
                            "%u entries at %llu outside the kernel's "
                            "sections",
                            r->index + 1, k->nops,
                            (unsigned long long)k->ops_off);
    if (k->ctas_off
        != k->ops_off + (uint64_t)k->nops * sizeof(struct ws_pack_op))
        return ws_packr_kfield(
            r, err, offsetof(struct ws_pack_kernel_hdr, ctas_off), "ctas_off",
            k->ctas_off,
            k->ops_off + (uint64_t)k->nops * sizeof(struct ws_pack_op),
            "right after the opcode table");
    if (k->nctas > (r->hdr_off - k->ctas_off) / 8
        || ws_packr_pad(k->ctas_off + (uint64_t)k->nctas * 8, 64) != r->hdr_off)
        return ws_packr_kfield(r, err,
                               offsetof(struct ws_pack_kernel_hdr, nctas),
                               "nctas", k->nctas,
                               (r->hdr_off - k->ctas_off) / 8,
                               "or up to 7 fewer: the CTA index fills the "
                               "space up to the 64-aligned kernel header");
    index_end = k->ctas_off + (uint64_t)k->nctas * 8;
    return ws_packr_padding(r, UINT64_MAX, index_end, r->hdr_off, err);
}

int ws_packr_layout_sections(const struct ws_pack_reader *r, struct ws_err *err)
{
    return ws_packr_reserved(r, err) < 0 || ws_packr_lower_sections(r, err) < 0
                   || ws_packr_upper_sections(r, err) < 0
               ? -1
               : 0;
}

/* ---- strings and opcode texts ------------------------------------------ */

/* The NUL-terminated string at off, ending before the opcode table, and
 * its length (from where its NUL was found: a strlen of the mapping could
 * run past it if the file changed meanwhile); NULL when there is none. */
static const char *ws_packr_string_at(const struct ws_pack_reader *r,
                                      uint64_t off, size_t *len)
{
    const struct ws_pack *p = r->p;
    const char *nul;

    if (off < r->k.strings_off || off >= r->k.ops_off
        || !(nul = memchr(p->base + off, '\0', r->k.ops_off - off)))
        return NULL;
    *len = (size_t)(nul - (const char *)p->base - off);
    return (const char *)p->base + off;
}

int ws_packr_layout_strings(struct ws_pack_reader *r, const char **name,
                            size_t *name_len, const char **nvbit,
                            size_t *nvbit_len, struct ws_err *err)
{
    const struct ws_pack_kernel_hdr *k = &r->k;
    uint64_t after;

    *name = ws_packr_string_at(r, k->name_off, name_len);
    if (!*name)
        return ws_packr_bad(r->p->name, err,
                            r->hdr_off
                                + offsetof(struct ws_pack_kernel_hdr, name_off),
                            WS_PACKR_REPACK,
                            "kernel %zu: name not a string "
                            "before the opcode table",
                            r->index + 1);
    after = k->name_off + *name_len + 1;
    *nvbit = NULL;
    *nvbit_len = 0;
    if (k->nvbit_off != 0) {
        if (k->nvbit_off != after)
            return ws_packr_kfield(r, err,
                                   offsetof(struct ws_pack_kernel_hdr,
                                            nvbit_off),
                                   "nvbit_off", k->nvbit_off, after,
                                   "right after the name, or 0 for none");
        if (!(*nvbit = ws_packr_string_at(r, k->nvbit_off, nvbit_len)))
            return ws_packr_bad(r->p->name, err,
                                r->hdr_off
                                    + offsetof(struct ws_pack_kernel_hdr,
                                               nvbit_off),
                                WS_PACKR_REPACK,
                                "kernel %zu: NVBit version "
                                "not a string before the opcode table",
                                r->index + 1);
        after += *nvbit_len + 1;
    }
    r->op_next = after;
    return 0;
}

int ws_packr_layout_op(struct ws_pack_reader *r, uint32_t i,
                       const struct ws_pack_op *op, uint64_t at,
                       struct ws_err *err)
{
    if (op->zero != 0)
        return ws_packr_lfield(r, err, UINT64_MAX,
                               at + offsetof(struct ws_pack_op, zero), op->zero,
                               0, "a reserved field", "opcode %u's zero", i);
    if (op->off != r->op_next)
        return ws_packr_lfield(r, err, UINT64_MAX, at, op->off, r->op_next,
                               i ? "right after the opcode text before it"
                                 : "right after the kernel's strings",
                               "opcode %u's text offset", i);
    /* The text itself (its length, its NUL) is checked by the caller. */
    r->op_next += (uint64_t)op->len + 1;
    return 0;
}

int ws_packr_layout_ops_end(const struct ws_pack_reader *r, struct ws_err *err)
{
    uint64_t want = ws_packr_pad(r->op_next, 8);

    if (r->op_next > r->k.ops_off || want != r->k.ops_off)
        return ws_packr_kfield(r, err,
                               offsetof(struct ws_pack_kernel_hdr, ops_off),
                               "ops_off", r->k.ops_off, want,
                               "where the opcode texts end, rounded up to "
                               "8");
    return ws_packr_padding(r, UINT64_MAX, r->op_next, want, err);
}

/* ---- CTA blocks --------------------------------------------------------- */

/* The CTA's place in the grid: inside it, and not given before. */
static int ws_packr_block_place(struct ws_pack_reader *r, uint32_t i,
                                const struct ws_pack_cta *c, uint64_t off,
                                struct ws_err *err)
{
    const uint32_t *g = r->k.grid, *id = c->ctaid;
    uint64_t lin;

    if (id[0] >= g[0] || id[1] >= g[1] || id[2] >= g[2])
        return ws_packr_lbad(r, err, i, off,
                             "thread block (%u,%u,%u) "
                             "outside the grid",
                             id[0], id[1], id[2]);
    lin = ((uint64_t)id[2] * g[1] + id[1]) * g[0] + id[0];
    if (r->cta_seen[lin / 8] & (1u << (lin % 8)))
        return ws_packr_lbad(r, err, i, off,
                             "thread block (%u,%u,%u) given "
                             "a second time",
                             id[0], id[1], id[2]);
    r->cta_seen[lin / 8] |= (uint8_t)(1u << (lin % 8));
    return 0;
}

struct ws_packr_span {
    uint32_t first, n, warp;
};

/* The warps' address ranges, sorted by their start, tile [0, naddrs). */
static int ws_packr_block_addrs(const struct ws_pack_reader *r, uint32_t i,
                                const struct ws_pack_cta *c, uint64_t off,
                                struct ws_err *err)
{
    struct ws_packr_span s[WS_PACKR_MAX_WARPS];
    uint32_t ns = 0;
    uint64_t next = 0;

    for (uint32_t w = 0; w < r->k.nwarps; w++) {
        struct ws_packr_span x = {r->wrec[w].first_addr, r->wrec[w].naddrs, w};
        uint32_t j = ns++;
        if (x.n == 0) {
            ns--;
            continue;
        }
        for (; j > 0 && s[j - 1].first > x.first; j--)
            s[j] = s[j - 1];
        s[j] = x;
    }
    for (uint32_t j = 0; j < ns; j++) {
        if (s[j].first != next)
            return ws_packr_lfield(r, err, i,
                                   off + sizeof *c
                                       + s[j].warp * sizeof(struct ws_pack_warp)
                                       + offsetof(struct ws_pack_warp,
                                                  first_addr),
                                   s[j].first, next,
                                   "where the addresses "
                                   "below it end: warps' addresses neither "
                                   "overlap nor leave gaps",
                                   "warp %u's first_addr", s[j].warp);
        next += s[j].n;
    }
    if (next != c->naddrs)
        return ws_packr_lfield(r, err, i,
                               off + offsetof(struct ws_pack_cta, naddrs),
                               c->naddrs, next,
                               "the sum of its warps' addresses", "naddrs");
    return 0;
}

/* The warp records (in r->wrec): within --max-warp-insts, instruction
 * ranges back to back in warp order adding up to the CTA's, addresses
 * inside the CTA's, an absent warp's all zero. */
static int ws_packr_block_warps(const struct ws_pack_reader *r, uint32_t i,
                                const struct ws_pack_cta *c, uint64_t off,
                                struct ws_err *err)
{
    uint64_t next = 0;

    for (uint32_t w = 0; w < r->k.nwarps; w++) {
        const struct ws_pack_warp *pw = &r->wrec[w];
        uint64_t at = off + sizeof *c + w * sizeof *pw;
        if (pw->ninst > r->opts.max_warp_insts)
            return ws_err_at(err, r->p->name, 1, 1,
                             "kernel %zu: warp %u "
                             "of thread block (%u,%u,%u) has %u instructions, "
                             "over the limit of %llu per warp (expected at "
                             "most --max-warp-insts; raise it with "
                             "--max-warp-insts N)",
                             r->index + 1, w, c->ctaid[0], c->ctaid[1],
                             c->ctaid[2], pw->ninst,
                             (unsigned long long)r->opts.max_warp_insts);
        if (pw->first_inst != next)
            return ws_packr_lfield(
                r, err, i, at + offsetof(struct ws_pack_warp, first_inst),
                pw->first_inst, next,
                w ? "where the warp before it ends"
                  : "the CTA's first instruction",
                "warp %u's first_inst", w);
        next += pw->ninst;
        if (next > c->ninst)
            return ws_packr_lbad(r, err, i, at,
                                 "warp %u's instructions past "
                                 "the CTA's %u",
                                 w, c->ninst);
        if (pw->ninst == 0 && (pw->first_addr != 0 || pw->naddrs != 0))
            return ws_packr_lfield(
                r, err, i, at + offsetof(struct ws_pack_warp, first_addr),
                pw->naddrs, 0,
                "with first_addr 0: an "
                "absent warp has no addresses",
                "warp %u's naddrs", w);
        if ((uint64_t)pw->first_addr + pw->naddrs > c->naddrs)
            return ws_packr_lbad(r, err, i, at,
                                 "warp %u's addresses outside "
                                 "the CTA's",
                                 w);
    }
    if (next != c->ninst)
        return ws_packr_lfield(r, err, i,
                               off + offsetof(struct ws_pack_cta, ninst),
                               c->ninst, next,
                               "the sum of its warps' instructions", "ninst");
    return ws_packr_block_addrs(r, i, c, off, err);
}

/* The record's own fields, once copied: reserved zero, instructions right
 * after the warp records and inside the CTA blocks, addresses where the
 * CTAs before it left off. */
static int ws_packr_block_record(const struct ws_pack_reader *r, uint32_t i,
                                 const struct ws_packr_walk *w,
                                 const struct ws_pack_cta *c, uint64_t off,
                                 uint64_t recs, struct ws_err *err)
{
    if (c->zero != 0)
        return ws_packr_lfield(r, err, i,
                               off + offsetof(struct ws_pack_cta, zero),
                               c->zero, 0, "a reserved field", "zero");
    if (c->has_cluster > 1)
        return ws_packr_lfield(r, err, i,
                               off + offsetof(struct ws_pack_cta, has_cluster),
                               c->has_cluster, 1, "or 0", "has_cluster");
    if (c->inst_off != off + recs)
        return ws_packr_lfield(r, err, i,
                               off + offsetof(struct ws_pack_cta, inst_off),
                               c->inst_off, off + recs,
                               "right after its warp records", "inst_off");
    if (c->ninst > (r->k.addrs_off - c->inst_off) / sizeof(struct ws_inst))
        return ws_packr_lbad(r, err, i,
                             off + offsetof(struct ws_pack_cta, ninst),
                             "%u instructions past the CTA blocks", c->ninst);
    if (c->first_addr != w->addrs)
        return ws_packr_lfield(r, err, i,
                               off + offsetof(struct ws_pack_cta, first_addr),
                               c->first_addr, w->addrs,
                               "where the CTAs "
                               "before it end in the address table",
                               "first_addr");
    if (c->naddrs > r->k.naddrs - c->first_addr)
        return ws_packr_lbad(r, err, i,
                             off + offsetof(struct ws_pack_cta, naddrs),
                             "%u addresses past the address table", c->naddrs);
    return 0;
}

int ws_packr_block(struct ws_pack_reader *r, struct ws_packr_walk *w,
                   uint32_t i, struct ws_pack_cta *c, uint64_t *off_out,
                   struct ws_err *err)
{
    const struct ws_pack *p = r->p;
    uint64_t at = r->k.ctas_off + (uint64_t)i * 8, off;
    uint64_t want = ws_packr_pad(w->end, 8);
    uint64_t recs = sizeof *c
                    + (uint64_t)r->k.nwarps * sizeof(struct ws_pack_warp);

    memcpy(&off, p->base + at, sizeof off);
    if (ws_packr_padding(r, i, w->end, want, err) < 0)
        return -1;
    if (off != want)
        return ws_packr_lfield(r, err, i, at, off, want,
                               i ? "where the CTA block before it ends, "
                                   "rounded up to 8"
                                 : "blocks_off, the first CTA block",
                               "CTA index entry");
    if (off > r->k.addrs_off || recs > r->k.addrs_off - off)
        return ws_packr_lbad(r, err, i, at, "record past the CTA blocks");
    memcpy(c, p->base + off, sizeof *c);
    memcpy(r->wrec, p->base + off + sizeof *c, recs - sizeof *c);
    if (ws_packr_block_record(r, i, w, c, off, recs, err) < 0
        || ws_packr_block_place(r, i, c, off, err) < 0
        || ws_packr_block_warps(r, i, c, off, err) < 0)
        return -1;
    w->end = c->inst_off + (uint64_t)c->ninst * sizeof(struct ws_inst);
    w->addrs += c->naddrs;
    w->ninst += c->ninst;
    *off_out = off;
    return 0;
}

/* ---- the whole kernel, before it is served ----------------------------- */

/* After the last block: the address table right after it, and the
 * kernel's totals the sums of its CTAs'. */
static int ws_packr_layout_totals(const struct ws_pack_reader *r,
                                  const struct ws_packr_walk *w,
                                  struct ws_err *err)
{
    uint64_t want = ws_packr_pad(w->end, 8);

    if (ws_packr_padding(r, UINT64_MAX, w->end, want, err) < 0)
        return -1;
    if (r->k.addrs_off != want)
        return ws_packr_kfield(r, err,
                               offsetof(struct ws_pack_kernel_hdr, addrs_off),
                               "addrs_off", r->k.addrs_off, want,
                               "where the last CTA block ends, rounded up "
                               "to 8");
    if (r->k.ninst != w->ninst)
        return ws_packr_kfield(r, err,
                               offsetof(struct ws_pack_kernel_hdr, ninst),
                               "ninst", r->k.ninst, w->ninst,
                               "the sum of its CTAs' instructions");
    if (r->k.naddrs != w->addrs)
        return ws_packr_kfield(r, err,
                               offsetof(struct ws_pack_kernel_hdr, naddrs),
                               "naddrs", r->k.naddrs, w->addrs,
                               "the sum of its CTAs' addresses");
    return 0;
}

int ws_packr_layout_ctas(struct ws_pack_reader *r, struct ws_err *err)
{
    struct ws_packr_walk w = {r->k.blocks_off, 0, 0};
    long pagesz = sysconf(_SC_PAGESIZE);
    uint64_t page = pagesz > 0 ? (uint64_t)pagesz : 4096;
    uint64_t mark = r->k.blocks_off - r->k.blocks_off % page, off = 0;
    struct ws_pack_cta c;

    for (uint32_t i = 0; i < r->k.nctas; i++) {
        if (ws_packr_block(r, &w, i, &c, &off, err) < 0)
            return -1;
        /* The walk reads a record per CTA: the pages it brought in are
         * given back a megabyte at a time, so that checking a kernel does
         * not make its blocks resident. */
        if (off - off % page - mark >= (1u << 20)) {
            ws_pack_release(r->p, mark, off - off % page - mark);
            mark = off - off % page;
        }
    }
    if (ws_packr_layout_totals(r, &w, err) < 0)
        return -1;
    ws_pack_release(r->p, mark, r->k.addrs_off - mark);
    memset(r->cta_seen, 0, (size_t)((ws_launch_ctas(&r->launch) + 7) / 8));
    r->walk.end = r->k.blocks_off;
    r->walk.addrs = r->walk.ninst = 0;
    return 0;
}
