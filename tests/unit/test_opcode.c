/*
 * Unit tests of the opcode table and of coalescing / bank-conflict counting
 * (sim/trace/ws_opcode.c, sim/mem/ws_coalesce.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem/ws_coalesce.h"
#include "trace/ws_async_op.h"
#include "trace/ws_opcode.h"
#include "trace/ws_trace.h"
#include "ws_test.h"

static int cls_of(const char *op, unsigned sm)
{
    struct ws_opcode_info info;

    if (!ws_opcode_lookup(op, ws_opcode_base_len(op), sm, &info))
        return -1;
    return info.cls;
}

static void test_table_sorted(void **state)
{
    (void)state;
    assert_int_equal(ws_opcode_table_check(), 0);
}

static void test_lookup(void **state)
{
    struct ws_opcode_info info;

    (void)state;
    assert_int_equal(cls_of("FFMA", 70), WS_OPC_FP32);
    assert_int_equal(cls_of("FFMA.FTZ.RZ", 90), WS_OPC_FP32);
    assert_int_equal(cls_of("HFMA2.MMA", 80), WS_OPC_FP16);
    assert_int_equal(cls_of("IMAD.WIDE.U32", 80), WS_OPC_INT);
    assert_int_equal(cls_of("DFMA", 60), WS_OPC_FP64);
    assert_int_equal(cls_of("MUFU.RCP", 75), WS_OPC_SFU);
    assert_int_equal(cls_of("BAR.SYNC.DEFER_BLOCKING", 90), WS_OPC_BARRIER);
    assert_int_equal(cls_of("EXIT", 35), WS_OPC_EXIT);
    assert_int_equal(cls_of("LDS.U.32", 70), WS_OPC_SHARED);
    assert_int_equal(cls_of("LDL", 70), WS_OPC_LOCAL);
    assert_int_equal(cls_of("LDC.64", 90), WS_OPC_CONST);
    assert_int_equal(cls_of("TEX", 52), WS_OPC_TEX);
    assert_int_equal(cls_of("ULDC.64", 80), WS_OPC_UNIFORM);
    /* SM ranges: Maxwell-only and Hopper-only mnemonics. */
    assert_int_equal(cls_of("XMAD", 52), WS_OPC_INT);
    assert_int_equal(cls_of("XMAD", 70), -1);
    assert_int_equal(cls_of("HMMA.884.F32", 70), WS_OPC_TENSOR);
    assert_int_equal(cls_of("HMMA.884.F32", 61), -1);
    assert_int_equal(cls_of("HGMMA.64x128x16.F32", 90), WS_OPC_TENSOR);
    assert_int_equal(cls_of("HGMMA", 80), -1);
    assert_int_equal(cls_of("SSY", 61), WS_OPC_BRANCH);
    assert_int_equal(cls_of("SSY", 70), -1);
    assert_int_equal(cls_of("NOTANOP", 70), -1);
    assert_int_equal(cls_of("", 70), -1);
    assert_int_equal(ws_opcode_lookup("LDGSTS.E.BYPASS.128", 6, 80, &info), 1);
    assert_int_equal(info.cls, WS_OPC_GLOBAL);
    assert_int_equal(info.memop, WS_MEMOP_ASYNC_COPY);
    assert_int_equal(ws_opcode_lookup("RED.E.ADD", 3, 70, &info), 1);
    assert_int_equal(info.memop, WS_MEMOP_REDUCTION);
    assert_int_equal(ws_opcode_lookup("ATOMS.ADD", 5, 70, &info), 1);
    assert_int_equal(info.memop, WS_MEMOP_ATOMIC);
}

static void test_width(void **state)
{
    (void)state;
    assert_int_equal(ws_opcode_width("LDG.E"), 4);
    assert_int_equal(ws_opcode_width("LDG.E.64.SYS"), 8);
    assert_int_equal(ws_opcode_width("LDG.E.128.CONSTANT.SYS"), 16);
    assert_int_equal(ws_opcode_width("LDG.E.U8"), 1);
    assert_int_equal(ws_opcode_width("STS.S16"), 2);
    assert_int_equal(ws_opcode_width("LDS.U.32"), 4);
    assert_int_equal(ws_opcode_width("IMAD.WIDE"), 4);
}

static void test_class_names(void **state)
{
    (void)state;
    for (int c = 0; c < WS_OPC_COUNT; c++)
        assert_int_equal(ws_opcode_class_parse(
                             ws_opcode_class_name((enum ws_op_class)c)),
                         c);
    assert_int_equal(ws_opcode_class_parse("fp128"), -1);
}

static void fill(uint64_t *a, unsigned n, uint64_t base, uint64_t stride)
{
    for (unsigned i = 0; i < n; i++)
        a[i] = base + i * stride;
}

static void test_coalesce(void **state)
{
    uint64_t a[32];
    struct ws_coalesce_result r;

    (void)state;
    /* the "black-box and white-box" GPU performance notes: 32 aligned floats = 4 sectors in 1 line; misaligned = 5. */
    fill(a, 32, 0x1000, 4);
    ws_coalesce(a, 32, 4, 32, 128, &r);
    assert_int_equal(r.nsectors, 4);
    assert_int_equal(r.nlines, 1);
    fill(a, 32, 0x1004, 4);
    ws_coalesce(a, 32, 4, 32, 128, &r);
    assert_int_equal(r.nsectors, 5);
    assert_int_equal(r.nlines, 2);
    /* Stride of 8 floats: every lane its own sector, 4 per line. */
    fill(a, 32, 0, 32);
    ws_coalesce(a, 32, 4, 32, 128, &r);
    assert_int_equal(r.nsectors, 32);
    assert_int_equal(r.nlines, 8);
    /* 16-byte lanes at 64-byte stride, misaligned by 24: each lane
     * straddles two sectors of its own. */
    fill(a, 32, 24, 64);
    ws_coalesce(a, 32, 16, 32, 128, &r);
    assert_int_equal(r.nsectors, 64);
    /* Same address everywhere (atomics): one sector. */
    fill(a, 32, 0x40, 0);
    ws_coalesce(a, 32, 4, 32, 128, &r);
    assert_int_equal(r.nsectors, 1);
    ws_coalesce(a, 0, 4, 32, 128, &r);
    assert_int_equal(r.nsectors, 0);
}

static void test_bank_conflicts(void **state)
{
    uint64_t a[32];

    (void)state;
    /* Strides of 1, 2 and 32 words: 1, 2 and 32 wavefronts. */
    fill(a, 32, 0, 4);
    assert_int_equal(ws_shared_wavefronts(a, 32, 4, 32, 4), 1);
    fill(a, 32, 0, 8);
    assert_int_equal(ws_shared_wavefronts(a, 32, 4, 32, 4), 2);
    fill(a, 32, 0, 128);
    assert_int_equal(ws_shared_wavefronts(a, 32, 4, 32, 4), 32);
    /* Broadcast of one word is free. */
    fill(a, 32, 64, 0);
    assert_int_equal(ws_shared_wavefronts(a, 32, 4, 32, 4), 1);
    /* 128-bit loads of consecutive lanes need 4 wavefronts. */
    fill(a, 32, 0, 16);
    assert_int_equal(ws_shared_wavefronts(a, 32, 16, 32, 4), 4);
    assert_int_equal(ws_shared_wavefronts(a, 0, 4, 32, 4), 0);
}

/* The coalescer's and the bank counter's shortcuts (runs of lanes,
 * broadcasts, rows) against the plain definitions, on random accesses
 * drawn to hit them and to just miss them: unaligned, strided, repeated,
 * narrow and wide. */
static int ref_cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

    return a < b ? -1 : a > b;
}

/* The first `cap` distinct sectors in lane order (each lane's in address
 * order): with WS_COALESCE_MAX_SECTORS, what a result holds when an
 * access touches more (sectors smaller than a lane's bytes). */
static unsigned ref_sectors(const uint64_t *a, unsigned n, unsigned width,
                            unsigned sector, unsigned cap, uint64_t *out)
{
    unsigned k = 0;

    for (unsigned i = 0; i < n; i++)
        for (uint64_t s = a[i] / sector;
             s <= (a[i] + width - 1) / sector && k < cap; s++) {
            unsigned j = 0;
            while (j < k && out[j] != s * sector)
                j++;
            if (j == k)
                out[k++] = s * sector;
        }
    return k;
}

/* Distinct lines among sorted sectors. */
static unsigned ref_lines(const uint64_t *sectors, unsigned k, unsigned line)
{
    unsigned n = 0;

    for (unsigned i = 0; i < k; i++)
        n += i == 0 || sectors[i] / line != sectors[i - 1] / line;
    return n;
}

static unsigned ref_tally(const uint64_t *a, unsigned n, unsigned width,
                          unsigned banks, unsigned bw)
{
    uint64_t words[32 * 16];
    unsigned nw = 0, per[64] = {0}, worst = 0;
    unsigned pieces = width > bw ? width / bw : 1;

    for (unsigned i = 0; i < n; i++)
        for (unsigned p = 0; p < pieces; p++) {
            uint64_t w = a[i] / bw + p;
            unsigned j = 0;
            while (j < nw && words[j] != w)
                j++;
            if (j == nw)
                words[nw++] = w;
        }
    for (unsigned j = 0; j < nw; j++)
        if (++per[words[j] % banks] > worst)
            worst = per[words[j] % banks];
    return worst;
}

/* Wider lanes than a wavefront carries for a whole warp are served in
 * groups of banks x bw / width lanes, each group on its own, unless the
 * whole warp fits in one wavefront. */
static unsigned ref_wavefronts(const uint64_t *a, unsigned n, unsigned width,
                               unsigned banks, unsigned bw)
{
    unsigned whole = ref_tally(a, n, width, banks, bw);
    unsigned pieces = width > bw ? width / bw : 1, group = banks / pieces;
    unsigned sum = 0;

    if (whole <= 1 || group == 0 || group >= n)
        return whole;
    for (unsigned i = 0; i < n; i += group)
        sum += ref_tally(a + i, n - i < group ? n - i : group, width, banks,
                         bw);
    return sum;
}

static void test_coalesce_random(void **state)
{
    static const unsigned widths[] = {1, 2, 4, 8, 16};
    uint64_t a[32], ref[32 * 16], all[32 * 16], rng = 99;
    struct ws_coalesce_result r;
    unsigned capped = 0, capped_full = 0;

    (void)state;
    for (int t = 0; t < 20000; t++) {
        unsigned n, width, kind, bw, banks, sector, line, k;
        uint64_t base, stride;
        rng = rng * 6364136223846793005u + 1442695040888963407u;
        n = 1 + (unsigned)(rng >> 59);
        width = widths[(rng >> 50) % 5];
        kind = (unsigned)(rng >> 40) % 7;
        base = (rng >> 20) % 4096;
        if ((rng >> 2) % 64 == 0) /* at the top of the address space */
            base = UINT64_MAX - (rng >> 20) % 600;
        if (kind >= 4 && (rng >> 1) % 2)
            n = 32; /* a full warp: the vector run test */
        stride = kind == 0 ? width : kind == 1 ? 0 : (rng >> 10) % 70;
        bw = (rng >> 8) % 2 ? 4 : 8;
        /* 24 banks: no GPU has them, but the general tally (a division
         * per lane) is checked against the power-of-two ones. */
        banks = (rng >> 6) % 3 == 0 ? 24 : (rng >> 7) % 2 ? 32 : 16;
        for (unsigned i = 0; i < n; i++)
            a[i] = kind == 3 ? base + ((rng >> (i % 32)) % 300)
                   : kind == 4
                       ? base + (i % 16) * width /* halves: a row twice */
                   : kind == 5 ? base + (i / (1 + (rng >> 30) % 4)) * width
                   : kind == 6 ? base + (i / 8) * 1024 + (i % 8) * width
                               : base + i * stride;
        if ((kind == 0 || kind >= 4) && (rng >> 3) % 4 == 0 && n > 1)
            a[n / 2] += 1; /* a run broken by one lane */
        /* Sectors of 8 and 4 bytes (no GPU has them) let 32 lanes touch
         * more sectors than a result holds; 24 takes the division path. */
        sector = (rng >> 12) % 8 == 0   ? 8
                 : (rng >> 12) % 8 == 1 ? 4
                 : (rng >> 12) % 8 == 2 ? 24
                                        : 32;
        line = sector == 24 ? 96 : 128;
        k = ref_sectors(a, n, width, sector, WS_COALESCE_MAX_SECTORS, ref);
        qsort(ref, k, sizeof *ref, ref_cmp_u64);
        if (ref_sectors(a, n, width, sector, 32 * 16, all) > k) {
            capped++; /* the cap cut the access */
            capped_full += n == 32;
        }
        /* the vector scans, then their scalar twins, against the same
         * references: the same sectors, not just as many (sorted) */
        for (int vec = 1; vec >= 0; vec--) {
            ws_coalesce_set_vector(vec);
            ws_coalesce(a, n, width, sector, line, &r);
            assert_int_equal(r.nsectors, k);
            for (unsigned i = 0; i < k; i++)
                assert_true(r.sectors[i] == ref[i]);
            assert_int_equal(r.nlines, ref_lines(ref, k, line));
            assert_int_equal(ws_shared_wavefronts(a, n, width, banks, bw),
                             ref_wavefronts(a, n, width, banks, bw));
        }
    }
    /* the cap cut accesses, full warps' among others */
    assert_true(capped > 100);
    assert_true(capped_full > 50);
}

/* The vector scans back on after test_coalesce_random, which leaves them
 * off (its last pass is the scalar one), failed or not. */
static int coalesce_vector_on(void **state)
{
    (void)state;
    ws_coalesce_set_vector(1);
    return 0;
}

/* Every mnemonic of the bundled sm_90a listings is known for SM 90, and
 * the Hopper ones decode to their kinds (trace/ws_async_op.h). */
static void test_hopper_listings_known(void **state)
{
    const char *files[] = {"traces/kernels/hopper/gemm_tma_wgmma.sm_90a.sass",
                           "traces/kernels/hopper/gemm_cluster.sm_90a.sass"};
    unsigned checked = 0, hopper = 0;

    (void)state;
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        FILE *fp = fopen(files[f], "r");
        char line[512];
        assert_non_null(fp);
        while (fgets(line, sizeof line, fp)) {
            char op[128];
            struct ws_opcode_info info;
            struct ws_async_op a;
            const char *p = strstr(line, "*/");
            if (!strstr(line, "/*") || !p || !strchr(line, ';'))
                continue;
            p += 2;
            while (*p == ' ')
                p++;
            if (*p == '@')
                p = strchr(p, ' ');
            if (!p || sscanf(p, " %127[A-Z0-9_.x]", op) != 1)
                continue;
            if (!ws_opcode_lookup(op, ws_opcode_base_len(op), 90, &info))
                fail_msg("%s: %s is not in the opcode table", files[f], op);
            assert_int_equal(ws_async_op_decode(op, &a), 0);
            hopper += a.kind != WS_ASYNC_NONE;
            checked++;
        }
        fclose(fp);
    }
    assert_true(checked > 400);
    assert_true(hopper > 20);
}

static void test_async_decode(void **state)
{
    struct ws_async_op a;

    (void)state;
    assert_int_equal(ws_async_op_decode("HGMMA.64x256x16.F32", &a), 0);
    assert_int_equal(a.kind, WS_ASYNC_WGMMA);
    assert_int_equal(a.n, 256);
    assert_int_equal(a.k, 16);
    assert_int_equal(a.type, WS_WGMMA_F16);
    assert_int_equal(ws_async_op_decode("HGMMA.64x64x8.F32.TF32", &a), 0);
    assert_int_equal(a.type, WS_WGMMA_TF32);
    assert_int_equal(ws_async_op_decode("QGMMA.64x128x32.F32.E4M3.E4M3", &a),
                     0);
    assert_int_equal(a.type, WS_WGMMA_F8);
    /* Shapes PTX does not allow are refused, not guessed. */
    assert_int_equal(ws_async_op_decode("HGMMA.64x250x16.F32", &a), -1);
    assert_int_equal(ws_async_op_decode("HGMMA.128x256x16.F32", &a), -1);
    assert_int_equal(ws_async_op_decode("HGMMA.64x256x16x3", &a), -1);
    assert_int_equal(ws_async_op_decode("HGMMA.F32", &a), -1);
    assert_int_equal(ws_async_op_decode("SYNCS.ARRIVE.TRANS64.RED.A1T0", &a),
                     0);
    assert_int_equal(a.kind, WS_ASYNC_MBAR_ARRIVE);
    assert_int_equal(a.remote, 1);
    assert_int_equal(ws_async_op_decode("SYNCS.PHASECHK.TRANS64.TRYWAIT", &a),
                     0);
    assert_int_equal(a.kind, WS_ASYNC_MBAR_WAIT);
    assert_int_equal(ws_async_op_decode("UTMALDG.2D.MULTICAST", &a), 0);
    assert_int_equal(a.kind, WS_ASYNC_BULK_LOAD);
    assert_int_equal(ws_async_op_decode("WARPGROUP.DEPBAR.LE", &a), 0);
    assert_int_equal(a.kind, WS_ASYNC_WG_WAIT);
    assert_int_equal(ws_opcode_semantics("WARPGROUP.DEPBAR.LE"),
                     WS_INST_ASYNC | WS_INST_WG_WAIT);
    assert_int_equal(ws_async_op_decode("FFMA", &a), 0);
    assert_int_equal(a.kind, WS_ASYNC_NONE);
}

static void test_box_words(void **state)
{
    struct ws_box b = {
        0x7f0000000000ull, 4096, 8192, 0x100, 128, 64, 2, 3, 512};
    struct ws_box c;
    uint64_t w[WS_BOX_WORDS];

    (void)state;
    ws_box_pack(&b, w);
    assert_int_equal(ws_box_unpack(w, WS_BOX_MAX_BYTES, &c), 0);
    assert_true(c.base == b.base && c.pitch == b.pitch
                && c.plane_pitch == b.plane_pitch && c.mbar == b.mbar
                && c.row_bytes == b.row_bytes && c.rows == b.rows
                && c.planes == b.planes && c.multicast == b.multicast
                && c.fill == b.fill);
    assert_int_equal(ws_box_bytes(&c), 128 * 64 * 2);
    assert_int_equal(ws_box_unpack(w, 1000, &c), -1);
    w[WS_BOX_ROW] = 0; /* no rows: all fill, as a box outside its tensor */
    assert_int_equal(ws_box_unpack(w, WS_BOX_MAX_BYTES, &c), 0);
    assert_int_equal(ws_box_bytes(&c), 0);
    b.fill = 0;
    ws_box_pack(&b, w);
    w[WS_BOX_ROW] = 0; /* no rows and no fill: not a box */
    assert_int_equal(ws_box_unpack(w, WS_BOX_MAX_BYTES, &c), -1);
}

/* A box walks row by row, cut where 128-byte lines end; a box that is
 * all fill has no pieces. */
static void test_box_walk(void **state)
{
    static const uint64_t want[][2] = {{100, 28},  {128, 128},  {256, 44},
                                       {1100, 52}, {1152, 128}, {1280, 20}};
    struct ws_box b = {100, 1000, 0, 0, 200, 2, 1, 0, 0};
    struct ws_box_walk it;
    uint64_t a;
    uint32_t n;
    size_t i = 0;

    (void)state;
    ws_box_walk_init(&it, &b, 128);
    while (ws_box_walk_next(&it, &a, &n)) {
        assert_true(i < sizeof want / sizeof want[0]);
        assert_int_equal(a, want[i][0]);
        assert_int_equal(n, want[i][1]);
        i++;
    }
    assert_int_equal(i, sizeof want / sizeof want[0]);
    b.rows = b.planes = b.row_bytes = 0;
    b.fill = 4096;
    ws_box_walk_init(&it, &b, 128);
    assert_int_equal(ws_box_walk_next(&it, &a, &n), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_sorted),
        cmocka_unit_test(test_lookup),
        cmocka_unit_test(test_width),
        cmocka_unit_test(test_class_names),
        cmocka_unit_test(test_coalesce),
        cmocka_unit_test(test_bank_conflicts),
        cmocka_unit_test_teardown(test_coalesce_random, coalesce_vector_on),
        cmocka_unit_test(test_hopper_listings_known),
        cmocka_unit_test(test_async_decode),
        cmocka_unit_test(test_box_words),
        cmocka_unit_test(test_box_walk),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
