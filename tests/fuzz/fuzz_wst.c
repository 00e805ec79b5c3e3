/*
 * libFuzzer target: the packed-trace (.wst) reader over arbitrary bytes.
 * The input's size and checksum fields are set to match it first, so that
 * mutations reach the structure checks behind the checksum instead of all
 * failing it.  Every kernel is read through and every instruction and
 * address it is served is touched: any input must end in CTA streams or
 * one error, never a crash, a read outside the input, or a hang.
 */
#include <stddef.h>
#include <stdint.h>
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *buf = malloc(size ? size : 1);   /* aligned, as a mapping is */
    struct ws_pack *p;
    struct ws_err err;

    if (!buf)
        return 0;
    memcpy(buf, data, size);
    if (size >= sizeof(struct ws_pack_header)) {
        uint64_t len = size;
        uint64_t sum = XXH3_64bits(buf + sizeof(struct ws_pack_header),
                                   size - sizeof(struct ws_pack_header));
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
    free(buf);
    return 0;
}
