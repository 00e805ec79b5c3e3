/*
 * libFuzzer target: the packed-trace (.wst) reader, two ways.
 *
 * An input that starts with the .wst magic is a pack: its size and
 * checksum fields are set to match it, so that mutations reach the checks
 * behind the checksum instead of all failing it.
 *
 * Any other input is a script of structure-aware edits to a valid pack
 * (tests/fuzz/corpus/wst/multi.wst, or legacy.wst when the first byte is
 * odd), after which the checksum (and, unless edited, the size) is
 * recomputed: a fuzzer changing bytes at random almost never lands on a
 * field and keeps the file consistent elsewhere, and this one does, field
 * by field, which is what a hand-edited or hostile file looks like.  After
 * the selector byte, each edit is 12 bytes:
 *
 *   u8 target  (mod 10) file header, command, kernel header, CTA record,
 *              warp record, CTA index entry, opcode entry, instruction
 *              record, any byte, or a truncation
 *   u8 how     low 6 bits: which field of the target (mod its fields);
 *              high 2: set to value, add value, xor value, or copy the
 *              same field of the next element (overlaps, duplicates)
 *   u16 index  which element (kernel, then CTA, warp, entry, record)
 *   u64 value
 *
 * Elements are found in the pack as it was, before any edit, so an edit
 * never depends on what an earlier one broke.  Either way every kernel is
 * read through, whole and streamed, and every instruction and address it
 * is served is touched: any input must end in CTA streams or one error,
 * never a crash, a read outside the input, or a hang.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "trace/ws_pack.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t fuzz_wst_touch(const struct ws_cta_stream *cta)
{
    uint64_t sum = 0;

    for (uint32_t w = 0; w < cta->nwarps; w++)
        for (uint32_t i = 0; i < cta->warps[w].ninst; i++) {
            const struct ws_inst *in = &cta->warps[w].inst[i];
            unsigned lanes = (unsigned)__builtin_popcount(in->mask);
            sum += in->pc + in->op + in->dst[0] + in->src[0];
            for (unsigned k = 0; in->width && k < lanes; k++)
                sum += cta->addrs[in->addr + k];
        }
    return sum;
}

/* Every warp of a CTA read through a streamed reader, a few records at a
 * time, as the simulator reads a kernel of long warps. */
static uint64_t fuzz_wst_stream(struct ws_pack_reader *r,
                                const struct ws_cta_stream *cta,
                                struct ws_err *err)
{
    struct ws_inst inst[3];
    uint64_t addrs[3 * 32], sum = 0;

    for (uint32_t w = 0; w < cta->nwarps; w++) {
        struct ws_warp_reader wr;
        long n;
        if (!cta->warps[w].ninst
            || ws_pack_reader_warp_open(r, cta, w, &wr, err) < 0)
            continue;
        while ((n = wr.read(wr.ctx, inst, 3, addrs, 3 * 32, err)) > 0)
            sum += inst[0].pc + addrs[0] * (inst[0].width != 0);
        wr.close(wr.ctx);
    }
    return sum;
}

static void fuzz_wst_kernels(const struct ws_pack *p)
{
    struct ws_pack_reader *r;
    const struct ws_cta_stream *cta;
    struct ws_err err;
    volatile uint64_t sink = 0;

    for (size_t k = 0; k < ws_pack_nkernels(p); k++) {
        ws_err_clear(&err);
        if (ws_pack_reader_open(&r, p, k, NULL, &err) < 0)
            continue;
        while (ws_pack_reader_next_cta(r, &cta, &err) == 1)
            sink += fuzz_wst_touch(cta);
        ws_pack_reader_close(r);
        /* The same kernel streamed, whatever its warps' length. */
        ws_err_clear(&err);
        if (ws_pack_reader_open(&r, p, k, NULL, &err) < 0)
            continue;
        while (ws_pack_reader_next_header(r, &cta, &err) == 1)
            sink += fuzz_wst_stream(r, cta, &err);
        ws_pack_reader_close(r);
    }
    (void)sink;
}

/* Opens buf (aligned, as a mapping is) as a pack and reads it through,
 * its size field set to size unless keep_size, its checksum recomputed. */
static void fuzz_wst_read(uint8_t *buf, size_t size, int keep_size)
{
    struct ws_pack *p;
    struct ws_err err;

    if (size >= sizeof(struct ws_pack_header)) {
        uint64_t len = size;
        uint64_t sum = XXH3_64bits(buf + sizeof(struct ws_pack_header),
                                   size - sizeof(struct ws_pack_header));
        if (!keep_size)
            memcpy(buf + offsetof(struct ws_pack_header, file_size), &len,
                   sizeof len);
        memcpy(buf + offsetof(struct ws_pack_header, checksum), &sum,
               sizeof sum);
    }
    ws_err_clear(&err);
    if (ws_pack_open_mem(&p, "fuzz.wst", buf, size, &err) == 0) {
        fuzz_wst_kernels(p);
        ws_pack_close(p);
    }
}

/* ---- structure-aware edits ---------------------------------------------- */

/* A field: its offset in its element and its size in bytes. */
struct fuzz_wst_field {
    uint8_t off, size;
};

#define F(type, m) \
    { \
        offsetof(type, m), sizeof(((type *)0)->m) \
    }
#define FA(type, m, i, n) \
    { \
        offsetof(type, m) + (i) * (n), (n) \
    }

static const struct fuzz_wst_field fuzz_wst_hdr_f[] = {
    FA(struct ws_pack_header, magic, 0, 8), F(struct ws_pack_header, version),
    F(struct ws_pack_header, bom),          F(struct ws_pack_header, inst_size),
    F(struct ws_pack_header, header_size),  F(struct ws_pack_header, file_size),
    F(struct ws_pack_header, cmd_off),      F(struct ws_pack_header, ncmds),
    F(struct ws_pack_header, nkernels),     F(struct ws_pack_header, zero)};
static const struct fuzz_wst_field fuzz_wst_cmd_f[] = {
    F(struct ws_pack_cmd, kind), F(struct ws_pack_cmd, zero),
    F(struct ws_pack_cmd, a), F(struct ws_pack_cmd, b)};
static const struct fuzz_wst_field fuzz_wst_kh_f[] = {
    F(struct ws_pack_kernel_hdr, id),
    FA(struct ws_pack_kernel_hdr, grid, 0, 4),
    FA(struct ws_pack_kernel_hdr, grid, 1, 4),
    FA(struct ws_pack_kernel_hdr, block, 0, 4),
    FA(struct ws_pack_kernel_hdr, block, 1, 4),
    F(struct ws_pack_kernel_hdr, shmem),
    F(struct ws_pack_kernel_hdr, nregs),
    F(struct ws_pack_kernel_hdr, sm_version),
    F(struct ws_pack_kernel_hdr, trace_version),
    F(struct ws_pack_kernel_hdr, lineinfo),
    F(struct ws_pack_kernel_hdr, nctas),
    F(struct ws_pack_kernel_hdr, nwarps),
    F(struct ws_pack_kernel_hdr, nops),
    F(struct ws_pack_kernel_hdr, zero),
    F(struct ws_pack_kernel_hdr, ninst),
    F(struct ws_pack_kernel_hdr, naddrs),
    F(struct ws_pack_kernel_hdr, name_off),
    F(struct ws_pack_kernel_hdr, nvbit_off),
    F(struct ws_pack_kernel_hdr, ops_off),
    F(struct ws_pack_kernel_hdr, ctas_off),
    F(struct ws_pack_kernel_hdr, blocks_off),
    F(struct ws_pack_kernel_hdr, strings_off),
    F(struct ws_pack_kernel_hdr, addrs_off),
    FA(struct ws_pack_kernel_hdr, reserved, 0, 8),
    FA(struct ws_pack_kernel_hdr, reserved, 3, 8)};
static const struct fuzz_wst_field fuzz_wst_cta_f[] = {
    FA(struct ws_pack_cta, ctaid, 0, 4),
    FA(struct ws_pack_cta, ctaid, 1, 4),
    F(struct ws_pack_cta, has_cluster),
    FA(struct ws_pack_cta, cluster_id, 0, 4),
    F(struct ws_pack_cta, cluster_rank),
    F(struct ws_pack_cta, ninst),
    F(struct ws_pack_cta, naddrs),
    F(struct ws_pack_cta, zero),
    F(struct ws_pack_cta, inst_off),
    F(struct ws_pack_cta, first_addr)};
static const struct fuzz_wst_field fuzz_wst_warp_f[] = {
    F(struct ws_pack_warp, ninst), F(struct ws_pack_warp, first_inst),
    F(struct ws_pack_warp, first_addr), F(struct ws_pack_warp, naddrs)};
static const struct fuzz_wst_field fuzz_wst_op_f[] = {F(struct ws_pack_op, off),
                                                      F(struct ws_pack_op, len),
                                                      F(struct ws_pack_op,
                                                        zero)};
static const struct fuzz_wst_field fuzz_wst_inst_f[] = {
    F(struct ws_inst, pc),         F(struct ws_inst, mask),
    F(struct ws_inst, op),         F(struct ws_inst, addr),
    F(struct ws_inst, imm),        F(struct ws_inst, cls),
    F(struct ws_inst, memop),      F(struct ws_inst, space),
    F(struct ws_inst, width),      F(struct ws_inst, flags),
    F(struct ws_inst, ndst),       F(struct ws_inst, nsrc),
    FA(struct ws_inst, dst, 0, 1), FA(struct ws_inst, dst, 3, 1),
    FA(struct ws_inst, src, 0, 1), FA(struct ws_inst, src, 4, 1)};

#define FUZZ_WST_N(a) (sizeof a / sizeof a[0])

/* A valid pack, read from the corpus once, and where its parts lie. */
struct fuzz_wst_base {
    uint8_t *buf;
    size_t len;
    struct ws_pack_header h;
    uint32_t nk;
    struct ws_pack_kernel_hdr k[4];
    uint64_t k_off[4];
};

static uint64_t fuzz_wst_u64(const struct fuzz_wst_base *b, uint64_t off)
{
    uint64_t v = 0;

    if (off <= b->len && b->len - off >= 8)
        memcpy(&v, b->buf + off, 8);
    return v;
}

static uint32_t fuzz_wst_u32(const struct fuzz_wst_base *b, uint64_t off)
{
    uint32_t v = 0;

    if (off <= b->len && b->len - off >= 4)
        memcpy(&v, b->buf + off, 4);
    return v;
}

static int fuzz_wst_load(struct fuzz_wst_base *b, const char *name)
{
    char path[512];
    FILE *fp;
    long n;

    snprintf(path, sizeof path, "%s/tests/fuzz/corpus/wst/%s", WS_SOURCE_DIR,
             name);
    if (!(fp = fopen(path, "rb")) || fseek(fp, 0, SEEK_END) != 0
        || (n = ftell(fp)) < (long)sizeof b->h || fseek(fp, 0, SEEK_SET) != 0
        || !(b->buf = malloc((size_t)n))
        || fread(b->buf, 1, (size_t)n, fp) != (size_t)n) {
        if (fp)
            fclose(fp);
        return -1;
    }
    fclose(fp);
    b->len = (size_t)n;
    memcpy(&b->h, b->buf, sizeof b->h);
    for (uint32_t i = 0; i < b->h.ncmds && b->nk < 4; i++) {
        uint64_t at = b->h.cmd_off + (uint64_t)i * sizeof(struct ws_pack_cmd);
        if (fuzz_wst_u32(b, at) != WS_PACK_CMD_KERNEL)
            continue;
        b->k_off[b->nk] = fuzz_wst_u64(b, at + 8);
        if (b->k_off[b->nk] + sizeof b->k[0] > b->len)
            return -1;
        memcpy(&b->k[b->nk], b->buf + b->k_off[b->nk], sizeof b->k[0]);
        b->nk++;
    }
    return b->nk ? 0 : -1;
}

/* The base pack, by the script's first byte. */
static const struct fuzz_wst_base *fuzz_wst_base(uint8_t which)
{
    static struct fuzz_wst_base bases[2];
    static int tried[2];
    static const char *const names[2] = {"multi.wst", "legacy.wst"};
    struct fuzz_wst_base *b = &bases[which & 1];

    if (!tried[which & 1]) {
        tried[which & 1] = 1;
        if (fuzz_wst_load(b, names[which & 1]) < 0) {
            free(b->buf);
            memset(b, 0, sizeof *b);
        }
    }
    return b->buf ? b : NULL;
}

/* Where the element an edit's target and index pick starts, plus one (0:
 * the base has no such element), the stride to the next element (0: no
 * next) and its fields. */
static uint64_t fuzz_wst_where(const struct fuzz_wst_base *b, unsigned target,
                               unsigned index, uint64_t *stride,
                               const struct fuzz_wst_field **f, size_t *nf)
{
    const struct ws_pack_kernel_hdr *k = &b->k[index % b->nk];
    unsigned rest = index / b->nk, cta = k->nctas ? rest % k->nctas : 0;
    uint64_t cta_off = fuzz_wst_u64(b, k->ctas_off + 8u * cta);

    rest = k->nctas ? rest / k->nctas : 0;
    switch (target) {
    case 0:
        *f = fuzz_wst_hdr_f, *nf = FUZZ_WST_N(fuzz_wst_hdr_f), *stride = 0;
        return 1; /* at 0 */
    case 1:
        *f = fuzz_wst_cmd_f, *nf = FUZZ_WST_N(fuzz_wst_cmd_f);
        *stride = sizeof(struct ws_pack_cmd);
        return b->h.ncmds ? b->h.cmd_off + *stride * (index % b->h.ncmds) + 1
                          : 0;
    case 2:
        *f = fuzz_wst_kh_f, *nf = FUZZ_WST_N(fuzz_wst_kh_f), *stride = 0;
        return b->k_off[index % b->nk] + 1;
    case 3:
        *f = fuzz_wst_cta_f, *nf = FUZZ_WST_N(fuzz_wst_cta_f);
        *stride = 0;
        return cta_off ? cta_off + 1 : 0;
    case 4:
        *f = fuzz_wst_warp_f, *nf = FUZZ_WST_N(fuzz_wst_warp_f);
        *stride = sizeof(struct ws_pack_warp);
        return cta_off && k->nwarps ? cta_off + sizeof(struct ws_pack_cta)
                                          + *stride * (rest % k->nwarps) + 1
                                    : 0;
    case 5: {
        static const struct fuzz_wst_field whole = {0, 8};
        *f = &whole, *nf = 1, *stride = 8;
        return k->nctas ? k->ctas_off + 8u * cta + 1 : 0;
    }
    case 6:
        *f = fuzz_wst_op_f, *nf = FUZZ_WST_N(fuzz_wst_op_f);
        *stride = sizeof(struct ws_pack_op);
        return k->nops ? k->ops_off + *stride * (rest % k->nops) + 1 : 0;
    default: {
        uint32_t n = fuzz_wst_u32(b, cta_off
                                         + offsetof(struct ws_pack_cta, ninst));
        *f = fuzz_wst_inst_f, *nf = FUZZ_WST_N(fuzz_wst_inst_f);
        *stride = sizeof(struct ws_inst);
        return cta_off && n ? fuzz_wst_u64(b, cta_off
                                                  + offsetof(struct ws_pack_cta,
                                                             inst_off))
                                  + *stride * (rest % n) + 1
                            : 0;
    }
    }
}

/* The size-byte field at off (1, 4 or 8 bytes, the file's order, which
 * is this machine's); 0 past the end. */
static uint64_t fuzz_wst_get(const uint8_t *buf, size_t len, uint64_t off,
                             unsigned size)
{
    uint64_t v = 0;
    uint32_t v32 = 0;

    if (off > len || len - off < size)
        return 0;
    if (size == 1)
        return buf[off];
    if (size == 4) {
        memcpy(&v32, buf + off, 4);
        return v32;
    }
    memcpy(&v, buf + off, 8);
    return v;
}

static void fuzz_wst_put(uint8_t *buf, size_t len, uint64_t off, unsigned size,
                         uint64_t v)
{
    uint32_t v32 = (uint32_t)v;

    if (off > len || len - off < size)
        return;
    if (size == 1)
        buf[off] = (uint8_t)v;
    else if (size == 4)
        memcpy(buf + off, &v32, 4);
    else
        memcpy(buf + off, &v, 8);
}

/* One 12-byte edit of buf (a copy of b, *len bytes); 1 when it edited
 * the size field. */
static int fuzz_wst_edit(const struct fuzz_wst_base *b, uint8_t *buf,
                         size_t *len, const uint8_t *e)
{
    unsigned target = e[0] % 10, how = e[1] >> 6, index = e[2] | e[3] << 8;
    const struct fuzz_wst_field *f;
    uint64_t v, at, stride, old;
    size_t nf;

    memcpy(&v, e + 4, 8);
    if (target == 8) {
        buf[(index * 257u + e[1]) % *len] = (uint8_t)v;
        return 0;
    }
    if (target == 9) {
        *len -= index % *len;
        return 0;
    }
    if (!(at = fuzz_wst_where(b, target, index, &stride, &f, &nf)))
        return 0;
    f += (e[1] & 63) % nf;
    at = at - 1 + f->off;
    old = fuzz_wst_get(buf, *len, at, f->size);
    if (how == 1)
        v += old;
    else if (how == 2)
        v ^= old;
    else if (how == 3)
        v = stride ? fuzz_wst_get(b->buf, b->len, at + stride, f->size) : old;
    fuzz_wst_put(buf, *len, at, f->size, v);
    return target == 0 && f->off == offsetof(struct ws_pack_header, file_size);
}

static void fuzz_wst_script(const uint8_t *data, size_t size)
{
    const struct fuzz_wst_base *b = fuzz_wst_base(data[0]);
    uint8_t *buf;
    size_t len;
    int keep_size = 0;

    if (!b || !(buf = malloc(b->len)))
        return;
    memcpy(buf, b->buf, b->len);
    len = b->len;
    for (size_t i = 1; i + 12 <= size && len > 0; i += 12)
        keep_size |= fuzz_wst_edit(b, buf, &len, data + i);
    fuzz_wst_read(buf, len, keep_size);
    free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *buf;

    if (size == 0)
        return 0;
    if (size < 8 || memcmp(data, WS_PACK_MAGIC, 8) != 0) {
        fuzz_wst_script(data, size);
        return 0;
    }
    if (!(buf = malloc(size))) /* aligned, as a mapping is */
        return 0;
    memcpy(buf, data, size);
    fuzz_wst_read(buf, size, 0);
    free(buf);
    return 0;
}
