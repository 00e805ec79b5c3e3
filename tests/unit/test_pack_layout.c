/*
 * Unit tests of a .wst's structure checked on its own (sim/trace/
 * ws_packr_layout.c and the file level of ws_packr.c): a packed file is
 * changed in memory one field at a time, its checksum recomputed (anyone
 * can), and the change must be the one error that names the field, read
 * whole and streamed, never a different instruction stream.  One test per
 * invariant class: reserved fields and padding, offsets where the layout
 * puts them, ranges that tile, totals, and the instruction records'
 * address chain.  Packs of every bundled trace and the committed corpus
 * must pass them all.
 *
 * Leaves out: damage the checksum catches (test_pack.c) and files that
 * change while read (test_pack_changed.c).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "trace/ws_pack.h"
#include "ws_packfix.h"
#include "ws_test.h"

/* Sets the size-byte field at off to v, reseals, and expects want from a
 * whole read and a streamed one; puts the field back. */
static void expect_bad(struct packed *f, uint64_t off, size_t size, uint64_t v,
                       const char *want)
{
    uint64_t old = packfix_get(f, off, size);
    struct ws_err err;

    packfix_set(f, off, size, v);
    reseal(f);
    for (int streamed = 0; streamed < 2; streamed++) {
        err = packfix_read(f->buf, f->len, NULL, streamed);
        if (!err.set)
            fail_msg("byte %llu = %llu accepted (expected '%s')",
                     (unsigned long long)off, (unsigned long long)v, want);
        ws_test_err(&err, "t.wst", 1, want);
        assert_non_null(strstr(err.text, "repack it)"));
    }
    packfix_set(f, off, size, old);
    reseal(f);
}

static uint64_t cta_at(const struct packed *f, uint32_t i)
{
    return packfix_get(f, f->k.ctas_off + 8u * i, 8);
}

/* The offset of warp w's record in CTA i. */
static uint64_t warp_at(const struct packed *f, uint32_t i, uint32_t w)
{
    return cta_at(f, i) + sizeof(struct ws_pack_cta)
           + w * sizeof(struct ws_pack_warp);
}

#define KH(field) (f.k_off + offsetof(struct ws_pack_kernel_hdr, field))
#define CTA(i, field) (cta_at(&f, i) + offsetof(struct ws_pack_cta, field))
#define WARP(i, w, field) \
    (warp_at(&f, i, w) + offsetof(struct ws_pack_warp, field))

/* Every bundled trace packed, and the committed packs, read through. */
static void test_layout_intact(void **state)
{
    static const char *const traces[] = {"traces/accelsim/vecadd",
                                         "traces/accelsim/multi",
                                         "traces/accelsim/hopper",
                                         "traces/accelsim/legacy",
                                         "traces/accelsim/saxpy_stride8",
                                         "tests/data/bad/unknownop.traceg"};
    static const char *const corpus[] = {"good", "multi", "legacy", "hopper",
                                         "unknownop"};

    (void)state;
    for (size_t i = 0; i < sizeof traces / sizeof *traces; i++) {
        struct packed f;
        struct ws_err err;
        load_packed(&f, traces[i]);
        for (int s = 0; s < 2; s++) {
            err = packfix_read(f.buf, f.len, NULL, s);
            if (err.set)
                fail_msg("%s: %s", traces[i], err.text);
        }
        free(f.buf);
    }
    for (size_t i = 0; i < sizeof corpus / sizeof *corpus; i++) {
        char path[96];
        size_t len;
        char *buf;
        struct ws_err err;
        snprintf(path, sizeof path, "tests/fuzz/corpus/wst/%s.wst", corpus[i]);
        buf = ws_test_read(path, &len);
        for (int s = 0; s < 2; s++) {
            err = packfix_read(buf, len, NULL, s);
            if (err.set)
                fail_msg("%s: %s", path, err.text);
        }
        free(buf);
    }
}

static void test_layout_reserved(void **state)
{
    struct packed f;
    uint64_t index_end;

    (void)state;
    load_packed(&f, "traces/accelsim/legacy");
    expect_bad(&f, 56, 8, 1, "the header's zero is 1 at byte 56");
    expect_bad(&f, f.h.cmd_off + 4, 4, 1, "command 0's zero is 1");
    expect_bad(&f, f.h.cmd_off + 16, 8, 7, "second field is 7");
    expect_bad(&f, KH(zero), 4, 3, "kernel 1: zero is 3");
    expect_bad(&f, KH(reserved) + 8, 8, 9, "kernel 1: reserved[1] is 9");
    expect_bad(&f, KH(zero2), 4, 5, "kernel 1: zero2 is 5");
    /* Cluster dims: none, or 1 to 16 CTAs in all three dimensions. */
    expect_bad(&f, KH(cluster), 4, 2, "launch values out of range");
    expect_bad(&f, KH(cluster) + 4, 4, 17, "launch values out of range");
    expect_bad(&f, CTA(1, zero), 4, 2, "kernel 1, CTA 2: zero is 2");
    expect_bad(&f, CTA(0, has_cluster), 4, 2, "CTA 1: has_cluster is 2");
    expect_bad(&f,
               f.k.ops_off + sizeof(struct ws_pack_op)
                   + offsetof(struct ws_pack_op, zero),
               4, 1, "opcode 1's zero is 1");
    /* Padding: between the CTA index and the 64-aligned kernel header. */
    index_end = f.k.ctas_off + 8u * f.k.nctas;
    assert_true(index_end < f.k_off);
    expect_bad(&f, f.k_off - 8, 8, 1, "padding byte is 1 at byte");
    free(f.buf);
}

static void test_layout_offsets(void **state)
{
    struct packed f;
    uint64_t k2;

    (void)state;
    load_packed(&f, "traces/accelsim/legacy");
    /* A CTA record shifted: the index entry, or the records in it. */
    expect_bad(&f, f.k.ctas_off + 8, 8, cta_at(&f, 1) + 8,
               "CTA 2: CTA index entry is");
    expect_bad(&f, CTA(1, inst_off), 8,
               packfix_get(&f, CTA(1, inst_off), 8) + sizeof(struct ws_inst),
               "CTA 2: inst_off is");
    expect_bad(&f, KH(blocks_off), 8, 72, "blocks_off is 72");
    expect_bad(&f, KH(strings_off), 8, f.k.strings_off + 8, "strings_off is");
    expect_bad(&f, KH(name_off), 8, f.k.name_off + 1, "name_off is");
    if (f.k.nvbit_off)
        expect_bad(&f, KH(nvbit_off), 8, f.k.nvbit_off + 1, "nvbit_off is");
    expect_bad(&f, KH(ops_off), 8, f.k.ops_off + 8, "ctas_off is");
    expect_bad(&f, f.k.ops_off + sizeof(struct ws_pack_op), 8,
               packfix_get(&f, f.k.ops_off + sizeof(struct ws_pack_op), 8) + 1,
               "opcode 1's text offset is");
    free(f.buf);

    /* Kernels back to back, the command table filling the file. */
    load_packed(&f, "traces/accelsim/multi");
    k2 = packfix_kernel_at(&f, 1);
    expect_bad(&f, k2 + offsetof(struct ws_pack_kernel_hdr, blocks_off), 8,
               packfix_get(&f,
                           k2 + offsetof(struct ws_pack_kernel_hdr, blocks_off),
                           8)
                   + 8,
               "kernel 2: blocks_off is");
    expect_bad(&f, 48, 4, f.h.ncmds - 1, "ncmds is");
    free(f.buf);
}

static void test_layout_ranges(void **state)
{
    struct packed f;

    (void)state;
    load_packed(&f, "traces/accelsim/legacy");
    /* Warps' instructions and addresses overlapping, or leaving a gap. */
    expect_bad(&f, WARP(0, 1, first_inst), 4, 0,
               "CTA 1: warp 1's first_inst is 0");
    expect_bad(&f, WARP(0, 1, first_addr), 4, 0,
               "CTA 1: warp 1's first_addr is 0");
    expect_bad(&f, WARP(0, 2, first_addr), 4,
               packfix_get(&f, WARP(0, 2, first_addr), 4) + 1,
               "CTA 1: warp 2's first_addr is");
    /* A CTA's addresses not where the CTAs before it end. */
    expect_bad(&f, CTA(1, first_addr), 8,
               packfix_get(&f, CTA(1, first_addr), 8) - 1,
               "CTA 2: first_addr is");
    free(f.buf);
}

static void test_layout_totals(void **state)
{
    struct packed f;
    uint32_t ninst;

    (void)state;
    load_packed(&f, "traces/accelsim/legacy");
    expect_bad(&f, KH(ninst), 8, f.k.ninst + 1, "kernel 1: ninst is");
    expect_bad(&f, KH(naddrs), 8, f.k.naddrs + 1, "strings_off is");
    ninst = (uint32_t)packfix_get(&f, CTA(0, ninst), 4);
    expect_bad(&f, CTA(0, ninst), 4, ninst + 1, "CTA 1: ninst is");
    expect_bad(&f, CTA(0, ninst), 4, ninst - 1, "past the CTA's");
    expect_bad(&f, CTA(0, naddrs), 4, packfix_get(&f, CTA(0, naddrs), 4) + 1,
               "CTA 1: naddrs is");
    expect_bad(&f, CTA(0, naddrs), 4, packfix_get(&f, CTA(0, naddrs), 4) - 1,
               "addresses outside the CTA's");
    expect_bad(&f, KH(nctas), 4, f.k.nctas - 1, "nctas is");
    expect_bad(&f, KH(nops), 4, f.k.nops - 1, "ctas_off is");
    free(f.buf);
}

/* The first record of CTA 0's warp 0 that is (mem 1) or is not (mem 0) a
 * memory access, after skip others of its kind. */
static uint64_t find_inst(const struct packed *f, int mem, int skip)
{
    uint64_t at = packfix_get(
        f, cta_at(f, 0) + offsetof(struct ws_pack_cta, inst_off), 8);
    uint32_t n = (uint32_t)packfix_get(f, warp_at(f, 0, 0), 4);

    for (uint32_t i = 0; i < n; i++, at += sizeof(struct ws_inst)) {
        struct ws_inst in;
        memcpy(&in, f->buf + at, sizeof in);
        if ((in.width != 0) == mem && skip-- == 0)
            return at;
    }
    fail_msg("no such record");
    return 0;
}

static void test_layout_records(void **state)
{
    struct packed f;
    uint64_t at;

    (void)state;
    load_packed(&f, "traces/accelsim/legacy");
    /* A memory access's addresses not right after the one before it. */
    at = find_inst(&f, 1, 1) + offsetof(struct ws_inst, addr);
    expect_bad(&f, at, 4, packfix_get(&f, at, 4) + 1, "has addr");
    at = find_inst(&f, 1, 0) + offsetof(struct ws_inst, addr);
    expect_bad(&f, at, 4, 1, "has addr 1");
    /* Not a memory access: no addresses. */
    at = find_inst(&f, 0, 0) + offsetof(struct ws_inst, addr);
    expect_bad(&f, at, 4, 5, "has addr 5");
    /* An unused register slot not zero. */
    at = find_inst(&f, 0, 0);
    {
        struct ws_inst in;
        memcpy(&in, f.buf + at, sizeof in);
        assert_true(in.nsrc < WS_INST_MAX_SRC);
        at += offsetof(struct ws_inst, src) + WS_INST_MAX_SRC - 1;
        f.buf[at] = 7;
        reseal(&f);
        for (int s = 0; s < 2; s++) {
            struct ws_err err = packfix_read(f.buf, f.len, NULL, s);
            ws_test_err(&err, "t.wst", 1, "unsound");
        }
    }
    free(f.buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layout_intact),
        cmocka_unit_test(test_layout_reserved),
        cmocka_unit_test(test_layout_offsets),
        cmocka_unit_test(test_layout_ranges),
        cmocka_unit_test(test_layout_totals),
        cmocka_unit_test(test_layout_records),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
