/*
 * Unit tests of the Accel-Sim 2.0 (tracer version 6) lines the trace
 * reader takes (sim/trace/ws_traceg_hopper.c): the GMMA commit field, TMA
 * address blocks turned into boxes, register values giving mbarrier
 * immediates, REPLAY_START/REPLAY_END spin regions, and malformed lines.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/ws_async_op.h"
#include "trace/ws_opcode.h"
#include "ws_tracefix.h"

/* ---- Accel-Sim 2.0 (tracer version 6) ---------------------------------- */

#define V6 HDR("-accelsim tracer version = 6\n", "-enable lineinfo = 0\n")

static void want_box(const struct ws_cta_stream *cta, const struct ws_inst *in,
                     const struct ws_box *want)
{
    struct ws_box b;

    assert_int_equal(in->mask, WS_BOX_MASK);
    assert_true(in->width != 0);
    assert_int_equal(ws_box_unpack(cta->addrs + in->addr, WS_BOX_MAX_BYTES, &b),
                     0);
    assert_true(b.base == want->base);
    assert_int_equal(b.row_bytes, want->row_bytes);
    assert_int_equal(b.rows, want->rows);
    assert_true(b.pitch == want->pitch);
    assert_int_equal(b.planes, want->planes);
    assert_true(b.plane_pitch == want->plane_pitch);
    assert_true(b.mbar == want->mbar);
    assert_int_equal(b.multicast, want->multicast);
}

/* The hand-written version-6 trace: every new field, the box built from
 * TMA transfers, immediates from register values, spin-loop markers. */
static void test_v6_bundled(void **state)
{
    const uint64_t mbar = 0x7f0000000400ull;
    struct ws_traceg *r;
    struct ws_err err;
    const struct ws_cta_stream *cta;
    const struct ws_inst *in;

    (void)state;
    ws_err_clear(&err);
    assert_int_equal(ws_traceg_open(&r, "tests/data/accelsim2/kernel-1.traceg",
                                    NULL, &err),
                     0);
    assert_int_equal(ws_traceg_launch(r)->trace_version, 6);
    assert_int_equal(ws_traceg_next_cta(r, &cta, &err), 1);
    assert_int_equal(cta->has_cluster, 1);
    /* Warp 0: 13 lines, two markers and two repeats of the loop gone. */
    assert_int_equal(cta->warps[0].ninst, 8);
    in = cta->warps[0].inst;
    assert_int_equal(in[0].imm, 1); /* (0x100000 - 1) << 1 */
    assert_true(cta->addrs[in[0].addr] == mbar);
    want_box(cta, &in[1],
             &(struct ws_box){.base = 0x10000,
                              .row_bytes = 64,
                              .rows = 4,
                              .pitch = 256,
                              .planes = 1,
                              .mbar = mbar});
    assert_int_equal(in[1].width, 4);
    assert_int_equal(in[2].imm, 256); /* expect_tx bytes */
    assert_int_equal(in[3].imm, 2);   /* known parity 0 */
    assert_int_equal(in[3].pc, 0x30);
    assert_int_equal(in[4].pc, 0x40);
    assert_int_equal(in[4].nsrc, 0); /* P0 is no general register */
    assert_int_equal(in[5].pc, 0x50);
    assert_int_equal(in[5].ndst, 1);
    assert_int_equal(in[6].imm, 1);
    assert_int_equal(in[7].pc, 0x70);
    /* Warp 1: no values, so the loop is kept as recorded. */
    assert_int_equal(cta->warps[1].ninst, 5);
    in = cta->warps[1].inst;
    assert_int_equal(in[0].imm, 0);
    assert_int_equal(in[2].pc, 0x30);
    assert_int_equal(in[4].pc, 0x70);
    /* Warp 2: a multicast 3-D box, a contiguous copy joined into one row,
     * a predicated-off store with no box. */
    assert_int_equal(cta->warps[2].ninst, 4);
    in = cta->warps[2].inst;
    want_box(cta, &in[0],
             &(struct ws_box){.base = 0x200000,
                              .row_bytes = 128,
                              .rows = 2,
                              .pitch = 1024,
                              .planes = 2,
                              .plane_pitch = 0x10000,
                              .mbar = 0x7f0000000408ull,
                              .multicast = 3});
    want_box(cta, &in[1],
             &(struct ws_box){.base = 0x300000,
                              .row_bytes = 128,
                              .rows = 1,
                              .pitch = 128,
                              .planes = 1,
                              .mbar = 0x7f0000000410ull});
    assert_int_equal(in[2].mask, 0);
    assert_int_equal(in[2].width, 0);
    assert_int_equal(ws_traceg_next_cta(r, &cta, &err), 0);
    ws_traceg_close(r);
}

/* Tails and registers of version-6 lines, and that the older versions'
 * rules stay as they were. */
static void test_v6_tails(void **state)
{
    static const char text[] = V6 TB
        "insts = 7\n"
        "0000 ffffffff 1 R1 MOV 0 0\n"     /* nothing after */
        "0010 ffffffff 1 R1 MOV 0 0 5\n"   /* imm only */
        "0020 ffffffff 1 R1 MOV 0 0 5 9\n" /* imm, imm2 */
        "0030 ffffffff 1 R1 MOV 0 0 5 9 NoVal\n"
        "0040 ffffffff 1 P1 ISETP.GE.AND 2 R2 UR4 0 0 0 Val 1 1 "
        "1 7 1 0\n"
        "0050 00000003 1 R1 IADD3 1 R2 0 7 0 Val 32 "
        "0 1 2 3 4 5 6 7 8 9 a b c d e f 10 11 12 13 14 15 16 17 18 19 1a "
        "1b 1c 1d 1e 1f 1 5\n"
        "0060 ffffffff 0 SYNCS.ARRIVE.TRANS64.A1T0 2 R3 R4 8 1 400 0 3 0 "
        "Val 1 400 1 40\n#END_TB\n";
    struct trace_fixture f;
    const struct ws_inst *in;

    (void)state;
    assert_int_equal(open_text(&f, text), 0);
    in = next_cta(&f)->warps[0].inst;
    assert_int_equal(in[0].imm, 0);
    assert_int_equal(in[1].imm, 5);
    assert_int_equal(in[2].imm, 5);
    assert_int_equal(in[4].ndst, 0);
    assert_int_equal(in[4].nsrc, 1);
    assert_int_equal(in[5].imm, 7);
    /* An arrive with no byte register keeps its immediate. */
    assert_int_equal(in[6].imm, 3);
    ws_traceg_close(f.r);
}

/* `trace gen`'s box form (mask 0x3f, the six words as lane addresses) is
 * read as before in its own version, and a version-6 copy without a
 * known form is not guessed at. */
static void test_v6_box_forms(void **state)
{
    static const char text[] = V4 TB
        "insts = 1\n"
        "0000 0000003f 0 UTMALDG.2D 1 R2 4 0 1000 400000040 100 0 1 0\n"
        "#END_TB\n";
    struct trace_fixture f;
    const struct ws_cta_stream *cta;

    (void)state;
    assert_int_equal(open_text(&f, text), 0);
    cta = next_cta(&f);
    want_box(cta, &cta->warps[0].inst[0],
             &(struct ws_box){.base = 0x1000,
                              .row_bytes = 64,
                              .rows = 4,
                              .pitch = 256,
                              .planes = 1});
    ws_traceg_close(f.r);
}

static void test_v6_corrupt(void **state)
{
    static const struct bad_case cases[] = {
        /* A TMA block cut short, in its head and in its addresses. */
        {V6 TB "insts = 1\n0000 00000001 0 UTMALDG.2D 0 16 400 0 256\n"
               "#END_TB\n",
         21, "ends early (expected TMA out-of-bounds byte count)"},
        {V6 TB "insts = 1\n0000 00000001 0 UTMALDG.2D 0 16 400 0 256 0 3 4 "
               "10000 10100 10200\n#END_TB\n",
         21, "ends early (expected TMA transfer address)"},
        {V6 TB "insts = 1\n0000 00000001 0 UTMALDG.2D 0 16 400 0 256 0 4 "
               "10000 4 256 256\n#END_TB\n",
         21, "ends early (expected TMA address delta)"},
        /* More addresses than the count: the rest is no tail. */
        {V6 TB "insts = 1\n0000 00000001 0 UTMALDG.2D 0 16 400 0 256 0 3 2 "
               "10000 10100 10200 10300 10400 NoVal\n#END_TB\n",
         21, "unexpected '10400' after the instruction"},
        {V6 TB "insts = 1\n0000 00000001 0 UTMALDG.2D 0 16 400 0 256 0 3 2 "
               "10000 10100 1a200 NoVal\n#END_TB\n",
         21, "bad immediate '1a200'"},
        {V6 TB "insts = 1\n0000 00000001 0 UTMALDG.2D 0 16 400 0 256 0 2 4 "
               "10000\n#END_TB\n",
         21, "unknown TMA address mode 2 (expected 3, a list, or 4"},
        {V6 TB "insts = 1\n0000 00000001 0 UTMALDG.2D 0 16 400 0 256 0 3 4 "
               "10000 10100 10300 10500 0 NoVal\n#END_TB\n",
         21,
         "TMA addresses that are not a box (expected rows at a constant "
         "pitch)"},
        {V6 TB "insts = 1\n0000 00000001 0 UTMALDG.2D 0 16 400 0 256 0 3 2 "
               "10000 10000 0 NoVal\n#END_TB\n",
         21, "not a box"},
        {V6 TB "insts = 1\n0000 00000001 0 UTMALDG.2D 0 16 400 0 256 0 3 3 "
               "10000 10100 20000 0 NoVal\n#END_TB\n",
         21, "not a box"},
        {V6 TB "insts = 1\n0000 00000001 0 UTMALDG.2D 0 16 400 2 256 0 3 1 "
               "10000 0 NoVal\n#END_TB\n",
         21, "bad TMA multicast flag '2' (expected 0 or 1)"},
        {V6 TB "insts = 1\n0000 00000001 0 UTMALDG.2D 0 16 400 1 1ffff 256 0 "
               "3 1 10000 0 NoVal\n#END_TB\n",
         21, "bad TMA multicast CTA mask '1ffff'"},
        {V6 TB "insts = 1\n0000 00000001 0 UTMALDG.2D 0 16 400 0 524288 0 3 1 "
               "10000 0 NoVal\n#END_TB\n",
         21, "over the limits"},
        /* GMMA's commit flag, values, tails. */
        {V6 TB "insts = 1\n0000 ffffffff 1 R24 HGMMA.64x64x16.F32 0 2 0 0 "
               "NoVal\n#END_TB\n",
         21, "bad GMMA commit-group flag '2' (expected 0 or 1)"},
        {V6 TB "insts = 1\n0000 ffffffff 1 R24 HGMMA.64x64x16.F32 0\n"
               "#END_TB\n",
         21, "ends early (expected GMMA commit-group flag)"},
        {V6 TB "insts = 1\n0000 ffffffff 1 R1 MOV 0 0 0 0 Val 2 1 2\n"
               "#END_TB\n",
         21, "bad register value count '2' (expected 1 (one value) or 32"},
        {V6 TB "insts = 1\n0000 ffffffff 1 R1 MOV 0 0 0 0 Val 1\n#END_TB\n", 21,
         "ends early (expected register value)"},
        {V6 TB "insts = 1\n0000 ffffffff 1 R1 MOV 0 0 0 0 Val 1 1 2\n"
               "#END_TB\n",
         21, "unexpected '2' after the instruction"},
        {V6 TB "insts = 1\n0000 ffffffff 1 R1 MOV 0 0 0 0 Maybe\n#END_TB\n", 21,
         "unexpected 'Maybe' after the instruction (expected the "
         "immediates, then 'Val'"},
        {V6 TB "insts = 1\n0000 00000001 1 UR6 SYNCS.EXCH.64 2 UR4 UR5 8 0 "
               "400 0 Val 1 0 1 400 1 200000\n#END_TB\n",
         21, "SYNCS.EXCH count register 0x200000 holds no arrival count"},
        {V4 TB "insts = 1\n0000 ffffffff 1 P0 ISETP.GE.AND 0 0\n#END_TB\n", 21,
         "bad register 'P0'"},
        /* Markers count as lines of the warp. */
        {V6 TB "insts = 2\nREPLAY_START\n0000 ffffffff 1 R1 MOV 0 0\n"
               "REPLAY_END\n#END_TB\n",
         23, "more instruction lines"},
        {V6 TB "insts = 1\nREPLAY_START now\n#END_TB\n", 21,
         "bad PC 'REPLAY_START'"},
    };
    (void)state;
    expect_bad_lines(cases, sizeof cases / sizeof cases[0]);
}

/* A spin loop left without REPLAY_END, and one that runs past its first
 * iteration's PCs: what lies outside the loop is kept. */
static void test_v6_replay_edges(void **state)
{
    static const char text[] = V6 TB
        "insts = 8\nREPLAY_START\n"
        "0030 ffffffff 1 P0 SYNCS.PHASECHK.TRANS64.TRYWAIT 2 R3 R5 8 1 400 0 "
        "0 0 Val 1 0 1 400 1 1\n"
        "0040 ffffffff 0 BRA 1 P0 0 0 0 NoVal\n"
        "0030 ffffffff 1 P0 SYNCS.PHASECHK.TRANS64.TRYWAIT 2 R3 R5 8 1 400 0 "
        "0 0 Val 1 0 1 400 1 1\n"
        "0040 ffffffff 0 BRA 1 P0 0 0 0 NoVal\n"
        "0050 ffffffff 1 R1 MOV 0 0 0 0 NoVal\n"
        "0030 ffffffff 1 R1 MOV 0 0 0 0 NoVal\n"
        "0070 ffffffff 0 EXIT 0 0 0 0 NoVal\n"
        "warp = 1\ninsts = 2\n"
        "0000 ffffffff 1 R1 MOV 0 0 0 0 NoVal\n"
        "0000 ffffffff 1 R1 MOV 0 0 0 0 NoVal\n#END_TB\n";
    struct trace_fixture f;
    const struct ws_cta_stream *cta;
    const struct ws_inst *in;

    (void)state;
    assert_int_equal(open_text(&f, text), 0);
    cta = next_cta(&f);
    assert_int_equal(cta->warps[0].ninst, 5);
    in = cta->warps[0].inst;
    assert_int_equal(in[0].imm, 3); /* parity 1, known */
    assert_int_equal(in[2].pc, 0x50);
    assert_int_equal(in[3].pc, 0x30);
    assert_int_equal(in[4].pc, 0x70);
    /* The open region ended with its warp. */
    assert_int_equal(cta->warps[1].ninst, 2);
    ws_traceg_close(f.r);
}

/* Every prefix of each version-6 line is read without going past it:
 * an error or a shorter instruction, never a crash (run under
 * AddressSanitizer by the sanitizer build). */
static void test_v6_prefixes(void **state)
{
    static const char *const lines[] = {
        "0010 00000001 0 UTMALDG.3D.MULTICAST 2 UR8 UR10 16 408 1 3 512 0 4 "
        "200000 4 1024 64512 1024 0 0 NoVal",
        "0010 00000001 0 UTMALDG.2D 2 UR8 UR10 16 400 0 256 0 3 4 10200 "
        "10000 10300 10100 0 0 NoVal",
        "0000 00000001 1 UR6 SYNCS.EXCH.64 2 UR4 UR5 8 0 400 0 Val 1 0 1 "
        "400 1 1ffe00",
        "0050 ffffffff 1 R24 HGMMA.64x128x16.F32 2 UR12 UR14 1 0 0 0 NoVal",
        "0050 00000003 1 R1 IADD3 1 R2 0 7 0 Val 32 0 1 2 3 4 5 6 7 8 9 a b "
        "c d e f 10 11 12 13 14 15 16 17 18 19 1a 1b 1c 1d 1e 1f 1 5",
    };
    static const char head[] = V6 TB "insts = 1\n";
    char buf[1024];

    (void)state;
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        size_t n = strlen(lines[i]);
        for (size_t k = 0; k <= n; k++) {
            struct trace_fixture f;
            const struct ws_cta_stream *cta;
            int len = snprintf(buf, sizeof buf, "%s%.*s\n#END_TB\n", head,
                               (int)k, lines[i]);
            assert_true(len > 0 && (size_t)len < sizeof buf);
            ws_err_clear(&f.err);
            assert_int_equal(ws_traceg_open_mem(&f.r, "t.traceg", buf,
                                                (size_t)len, NULL, &f.err),
                             0);
            while (ws_traceg_next_cta(f.r, &cta, &f.err) == 1)
                ;
            ws_traceg_close(f.r);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_v6_bundled),
        cmocka_unit_test(test_v6_tails),
        cmocka_unit_test(test_v6_box_forms),
        cmocka_unit_test(test_v6_corrupt),
        cmocka_unit_test(test_v6_replay_edges),
        cmocka_unit_test(test_v6_prefixes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
