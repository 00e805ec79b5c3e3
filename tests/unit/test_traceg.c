/*
 * Unit tests of the Accel-Sim trace reader (sim/trace/ws_traceg.c): every
 * version and address mode, register handling, address-space
 * classification, CTA streaming, the bundled traces against counts derived
 * from their kernels' logic, and one test per kind of corrupt input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/ws_async_op.h"
#include "trace/ws_opcode.h"
#include "trace/ws_traceg.h"
#include "ws_test.h"

#include "ws_tracefix.h"

static void test_v4_fields(void **state)
{
    static const char text[] = HDR(
        "-accelsim tracer version = 4\n",
        "-enable lineinfo = 0\n") "#BEGIN_TB\n\nthread block = 1,0,0\n\nwarp = 0\ninsts = 4\n"
                                  "0000 ffffffff 1 R1 MOV 0 0 \n"
                                  "0010 0000ffff 1 R4 IMAD.WIDE 3 R2 RZ R255 0 \n"
                                  "0020 ffffffff 1 R8 LDG.E.128.SYS 1 R4 16 1 0x0000000000001000 16 \n"
                                  "0030 00000000 0 STG.E 2 R4 R9 4 0 \n"
                                  "warp = 1\ninsts = 0\n#END_TB\n";
    struct trace_fixture f;
    const struct ws_cta_stream *cta;
    const struct ws_inst *in;

    (void)state;
    assert_int_equal(open_text(&f, text), 0);
    assert_string_equal(ws_traceg_launch(f.r)->name, "k");
    assert_int_equal(ws_traceg_launch(f.r)->trace_version, 4);
    assert_true(ws_traceg_launch(f.r)->shmem_base == 0x7f0000000000ull);
    cta = next_cta(&f);
    assert_int_equal(cta->ctaid[0], 1);
    assert_int_equal(cta->linear_id, 1);
    assert_int_equal(cta->nwarps, 2);
    assert_int_equal(cta->warps[0].ninst, 4);
    assert_int_equal(cta->warps[1].ninst, 0);
    in = cta->warps[0].inst;
    assert_int_equal(in[0].cls, WS_OPC_MISC);
    assert_int_equal(in[0].ndst, 1);
    assert_int_equal(in[0].dst[0], 1);
    /* RZ, written R255 or RZ, is never a dependency. */
    assert_int_equal(in[1].nsrc, 1);
    assert_int_equal(in[1].src[0], 2);
    assert_int_equal(in[1].mask, 0x0000ffff);
    /* A 128-bit load names R8 but writes R8..R11. */
    assert_int_equal(in[2].width, 16);
    assert_int_equal(in[2].ndst, 4);
    assert_int_equal(in[2].dst[3], 11);
    assert_int_equal(in[2].space, WS_SPACE_GLOBAL);
    assert_true(cta->addrs[in[2].addr] == 0x1000);
    assert_true(cta->addrs[in[2].addr + 31] == 0x1000 + 31 * 16);
    assert_string_equal(opname(&f, &in[2]), "LDG.E.128.SYS");
    /* Predicated off: issued, no addresses. */
    assert_int_equal(in[3].mask, 0);
    assert_int_equal(in[3].memop, WS_MEMOP_STORE);
    assert_int_equal(ws_traceg_next_cta(f.r, &cta, &f.err), 0);
    ws_traceg_close(f.r);
}

static void test_v5_modes(void **state)
{
    static const char text[] = HDR(
        "-accelsim tracer version = 5\n",
        "-enable lineinfo = 1\n") "#BEGIN_TB\nthread block = 0,0,0\nwarp = 1\ninsts = 4\n"
                                  /* Mode 2: popcount - 1 = 3 deltas, then the immediate 7. */
                                  "12 0000 0000000f 1 R2 LDG.E 1 R4 4 2 0x100 4 -8 100 7 \n"
                                  /* Mode 0: one address per active lane (lanes 1 and 3). */
                                  "13 0010 0000000a 0 STG.E 2 R4 R5 4 0 0x200 0x300 0 \n"
                                  /* Mode 2 with one active lane: no delta, immediate 9. */
                                  "14 0020 00000004 1 R6 LDG.E.64 1 R4 8 2 0x400 9 \n"
                                  "15 0030 ffffffff 0 DEPBAR.LE 0 0 3 \n"
                                  "#END_TB\n";
    struct trace_fixture f;
    const struct ws_cta_stream *cta;
    const struct ws_inst *in;

    (void)state;
    assert_int_equal(open_text(&f, text), 0);
    cta = next_cta(&f);
    assert_int_equal(cta->warps[0].ninst, 0);
    in = cta->warps[1].inst;
    assert_int_equal(in[0].imm, 7);
    assert_true(cta->addrs[in[0].addr + 0] == 0x100);
    assert_true(cta->addrs[in[0].addr + 1] == 0x104);
    assert_true(cta->addrs[in[0].addr + 2] == 0xfc);
    assert_true(cta->addrs[in[0].addr + 3] == 0x160);
    assert_true(cta->addrs[in[1].addr + 1] == 0x300);
    assert_int_equal(in[2].imm, 9);
    assert_int_equal(in[2].ndst, 2);
    assert_true(cta->addrs[in[2].addr] == 0x400);
    assert_int_equal(in[3].imm, 3);
    assert_int_equal(in[3].cls, WS_OPC_MISC);
    ws_traceg_close(f.r);
}

static void test_pre_v3(void **state)
{
    static const char text[] =
        HDR("", "") "#BEGIN_TB\nthread block = 1,0,0\nwarp = 0\ninsts = 2\n"
                    "1 0 0 0 0000 ffffffff 1 R1 MOV 0 0\n"
                    "1 0 0 0 0010 00000003 1 R2 LDG.E 1 R4 4 0 0x10 0x14\n"
                    "#END_TB\n";
    static const char wrong_warp[] =
        HDR("", "") "#BEGIN_TB\nthread block = 1,0,0\nwarp = 0\ninsts = 1\n"
                    "1 0 0 1 0000 ffffffff 1 R1 MOV 0 0\n#END_TB\n";
    struct trace_fixture f;
    const struct ws_cta_stream *cta;

    (void)state;
    assert_int_equal(open_text(&f, text), 0);
    assert_int_equal(ws_traceg_launch(f.r)->trace_version, 0);
    cta = next_cta(&f);
    assert_true(cta->addrs[cta->warps[0].inst[1].addr + 1] == 0x14);
    ws_traceg_close(f.r);
    assert_int_equal(open_text(&f, wrong_warp), 0);
    assert_int_equal(ws_traceg_next_cta(f.r, &cta, &f.err), -1);
    ws_test_err(&f.err, "t.traceg", 19, "warp id 1 disagrees");
    ws_traceg_close(f.r);
}

static void test_generic_spaces(void **state)
{
    static const char text[] =
        HDR("-accelsim tracer version = 5\n",
            "") "#BEGIN_TB\nthread block = 0,0,0\ncluster id = 0,0,0\n"
                "cluster cta = 0,0,0\ncluster rank = 0\nwarp = 0\ninsts = 4\n"
                "0000 00000001 1 R1 LD.E 1 R2 4 0 0x00007f0000000040 0 \n"
                "0010 00000001 1 R1 LD.E 1 R2 4 0 0x00007e0000000040 0 \n"
                "0020 00000001 0 ST.E 2 R2 R3 4 0 0x00000000deadbeef 0 \n"
                "0030 00000001 1 R5 LDS 1 R2 4 0 0x40 0 \n"
                "#END_TB\n";
    struct trace_fixture f;
    const struct ws_cta_stream *cta;
    const struct ws_inst *in;

    (void)state;
    assert_int_equal(open_text(&f, text), 0);
    cta = next_cta(&f);
    in = cta->warps[0].inst;
    assert_int_equal(cta->has_cluster, 1);
    assert_int_equal(in[0].space, WS_SPACE_SHARED);
    assert_true(in[0].flags & WS_INST_GENERIC);
    assert_int_equal(in[1].space, WS_SPACE_LOCAL);
    assert_int_equal(in[2].space, WS_SPACE_GLOBAL);
    assert_int_equal(in[3].space, WS_SPACE_SHARED);
    assert_false(in[3].flags & WS_INST_GENERIC);
    ws_traceg_close(f.r);
}

static void test_unknown_opcode(void **state)
{
    static const char text[] =
        HDR("-accelsim tracer version = 5\n",
            "") "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
                "0000 ffffffff 0 FROBNICATE.X 0 0 0 \n#END_TB\n";
    struct ws_trace_opts opts;
    struct ws_traceg *r;
    struct ws_err err;
    const struct ws_cta_stream *cta;

    (void)state;
    ws_trace_opts_default(&opts);
    opts.unknown_class = WS_OPC_SFU;
    ws_err_clear(&err);
    assert_int_equal(ws_traceg_open_mem(&r, "u", text, strlen(text), &opts,
                                        &err),
                     0);
    assert_int_equal(ws_traceg_next_cta(r, &cta, &err), 1);
    assert_int_equal(cta->warps[0].inst[0].cls, WS_OPC_SFU);
    assert_true(cta->warps[0].inst[0].flags & WS_INST_UNKNOWN);
    ws_traceg_close(r);
}

/* Streaming: the second CTA reuses the first one's memory, and nothing of
 * the first remains visible. */
static void test_streaming(void **state)
{
    static const char text[] = HDR(
        "-accelsim tracer version = 4\n",
        "-enable lineinfo = 0\n") "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 2\n"
                                  "0000 ffffffff 1 R1 MOV 0 0\n0010 ffffffff 0 EXIT 0 0\n"
                                  "warp = 1\ninsts = 1\n0010 ffffffff 0 EXIT 0 0\n#END_TB\n"
                                  "#BEGIN_TB\nthread block = 1,0,0\nwarp = 1\ninsts = 1\n"
                                  "0010 ffffffff 0 EXIT 0 0\n#END_TB\n";
    struct trace_fixture f;
    const struct ws_cta_stream *cta;

    (void)state;
    assert_int_equal(open_text(&f, text), 0);
    cta = next_cta(&f);
    assert_int_equal(cta->warps[0].ninst, 2);
    cta = next_cta(&f);
    assert_int_equal(cta->ctaid[0], 1);
    assert_int_equal(cta->warps[0].ninst, 0);
    assert_null(cta->warps[0].inst);
    assert_int_equal(cta->warps[1].ninst, 1);
    assert_int_equal(cta->warps[1].inst[0].cls, WS_OPC_EXIT);
    assert_int_equal(ws_traceg_next_cta(f.r, &cta, &f.err), 0);
    assert_int_equal(ws_traceg_next_cta(f.r, &cta, &f.err), 0);
    ws_traceg_close(f.r);
}

/* With V4 the header ends at line 16: "#BEGIN_TB" is line 17, "warp = 0"
 * line 19, "insts =" line 20, the first instruction line 21. */

static void test_corrupt(void **state)
{
    static const struct bad_case cases[] = {
        {V4 TB "insts = 2\n0000 ffffffff 1 R1 MOV 0 0\n", 22,
         "file ends inside a thread block"},
        {V4 TB "insts = 2\n0000 ffffffff 1 R1 MOV 0 0\n#END_TB\n", 22,
         "has 1 instruction lines (expected 2"},
        {V4 TB
         "insts = 1\n0000 ffffffff 1 R1 MOV 0 0\n0010 ffffffff 0 EXIT 0 0\n"
         "#END_TB\n",
         22, "more instruction lines"},
        {V4 TB "insts = 1\n00g0 ffffffff 1 R1 MOV 0 0\n#END_TB\n", 21,
         "bad PC '00g0'"},
        {V4 TB
         "insts = 1\n0000 ffffffff 1 R1 LDG.E 1 R2 4 0 0x10 0xZZ\n#END_TB\n",
         21, "bad lane address"},
        {V4 TB
         "insts = 1\n0000 00000007 1 R1 LDG.E 1 R2 4 0 0x10 0x14\n#END_TB\n",
         21, "ends early (expected lane address)"},
        {HDR("-accelsim tracer version = 3\n", "") TB
         "insts = 1\n0000 00000003 1 R1 LDG.E 1 R2 4 2 0x10 4 4\n#END_TB\n",
         20, "unexpected '4' after the instruction"},
        {V4 TB "insts = 1\n0000 ffffffff 1 R1 MOV 0 0\n", 0, "#END_TB"},
        {V4 TB "insts = 10000000000\n", 20, "bad instruction count"},
        {V4 TB "insts = 4000000000\n", 20,
         "insts = 4000000000 is over the "
         "limit of 16777216 instructions per warp (expected at most "
         "--max-warp-insts; raise it with --max-warp-insts N)"},
        {V4 TB "insts = 1\n0000 1ffffffff 1 R1 MOV 0 0\n#END_TB\n", 21,
         "active mask wider than a warp"},
        {V4 TB "insts = 1\n0000 ffffffff 1 R300 MOV 0 0\n#END_TB\n", 21,
         "bad register 'R300'"},
        {V4 TB "insts = 1\n0000 ffffffff 5 R1 R2 R3 R4 R5 MOV 0 0\n#END_TB\n",
         21, "5 destination registers (expected at most 4)"},
        {V4 TB "insts = 1\n0000 ffffffff 1 R1 LDG.E 1 R2 4 3 0x10\n#END_TB\n",
         21, "unknown address mode 3"},
        {HDR("", "") TB
         "insts = 1\n0 0 0 0 0000 00000001 1 R1 LDG.E 1 R2 4 2 0x10\n"
         "#END_TB\n",
         19, "unknown address mode 2"},
        {V4 "#BEGIN_TB\nthread block = 0,0,0\nwarp = 2\n", 19,
         "warp 2 does not exist"},
        {V4 "#BEGIN_TB\nthread block = 5,0,0\n", 18, "lies outside the grid"},
        {V4 "#BEGIN_TB\nthread block = 0,0,0\ninsts = 1\n", 19,
         "'insts =' without a 'warp =' line"},
        {V4 TB "insts = 0\nwarp = 0\n", 21, "appears twice"},
        {V4 TB "warp = 1\n", 20, "warp 0 has no 'insts =' line"},
        {V4 "thread block = 0,0,0\n", 17, "outside a thread block"},
        {V4 "#BEGIN_TB\n#BEGIN_TB\n", 18, "'#BEGIN_TB' inside"},
        {V4 TB
         "insts = 1\n0000 00000001 1 R1 UTMALDG.2D 0 16 0 0x10\n#END_TB\n",
         21, "without a box"},
        {V4 TB "insts = 1\n0000 ffffffff 1 R1 mov 0 0\n#END_TB\n", 21,
         "bad opcode 'mov'"},
        /* No thread block at all: a header and then only blank lines or
         * comments is not a kernel that ran. */
        {V4, 17,
         "the trace has no thread block (expected at least one "
         "'#BEGIN_TB' ... '#END_TB' block after the header)"},
        {V4 "\n\n# nothing\n\n", 21, "has no thread block"},
        {V4 "#END_TB\n", 17,
         "'#END_TB' outside a thread block (expected "
         "'#BEGIN_TB' first)"},
        {V4 TB "insts = 0\n#END_TB\n#END_TB\n", 22, "'#END_TB' outside"},
        {V4 "#BEGIN_TB\nthread block = 1,0,0\n#END_TB\n"
            "#BEGIN_TB\nthread block = 0,0,0\n#END_TB\n"
            "#BEGIN_TB\nthread block = 1,0,0\n#END_TB\n",
         24,
         "thread block (1,0,0) appears a second time (expected each CTA of "
         "the grid once)"},
        {V4 "#BEGIN_TB\nthread block = -1,0,0\n", 18, "bad thread block line"},
        {V4 "#BEGIN_TB\nthread block = 0,0,0,0\n", 18, "bad thread block line"},
        {V4 "#BEGIN_TB\nthread block = 4294967296,0,0\n", 18,
         "bad thread block line"},
        /* Address arithmetic that leaves the 64-bit space. */
        {V4 TB "insts = 1\n0000 00000003 1 R1 LDG.E 1 R2 4 1 "
               "0xfffffffffffffffc 4\n#END_TB\n",
         21,
         "address of active lane 1 wraps past 2^64 (expected addresses "
         "between 0 and 2^64 - 1)"},
        {V4 TB "insts = 1\n0000 00000003 1 R1 LDG.E 1 R2 4 1 0x4 -8\n"
               "#END_TB\n",
         21, "address of active lane 1 wraps below 0"},
        {V4 TB "insts = 1\n0000 ffffffff 1 R1 LDG.E 1 R2 4 1 0x0 "
               "9223372036854775807\n#END_TB\n",
         21, "address of active lane 3 wraps past 2^64"},
        {V4 TB "insts = 1\n0000 00000007 1 R1 LDG.E 1 R2 4 2 0x10 4 -24\n"
               "#END_TB\n",
         21, "address of active lane 2 wraps below 0"},
        {V4 TB "insts = 1\n0000 00000003 1 R1 LDG.E 1 R2 4 2 0x10 "
               "-9223372036854775808\n#END_TB\n",
         21, "wraps below 0"},
        {V4 TB "insts = 1\n0000 ffffffff 0 DEPBAR.LE 0 0 x\n#END_TB\n", 21,
         "bad immediate 'x'"},
    };
    (void)state;
    expect_bad_lines(cases, sizeof cases / sizeof cases[0]);
}

static void test_corrupt_header(void **state)
{
    static const struct bad_case cases[] = {
        {"-kernel name = k\n-frobs = 3\n#t\n", 2, "unknown header key 'frobs'"},
        {"-kernel name = k\n-grid dim = (1,0,1)\n#t\n", 2, "bad dimensions"},
        {"-kernel name = k\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n"
         "-shmem = 0\n-nregs = 8\n#t\n",
         6, "no '-binary version'"},
        {"-kernel name = k\n-accelsim tracer version = 7\n#t\n", 2,
         "unsupported tracer version"},
        {"-kernel name = k\n-nregs = 300\n#t\n", 2, "registers per thread"},
        {"-kernel name = k\n-grid dim = (1,1,1)\n-block dim = (2048,1,1)\n"
         "-shmem = 0\n-nregs = 8\n-binary version = 70\n#t\n",
         3, "more threads than CUDA allows"},
        {"-kernel name = k\n-block dim = (1024,2,1)\n#t\n", 2,
         "more threads than CUDA allows"},
        /* Each key once: a second grid line used to win silently. */
        {"-kernel name = k\n-grid dim = (1,1,1)\n-grid dim = (2,1,1)\n#t\n", 3,
         "second '-grid dim' line (expected each header key once; line 2 "
         "gives it already)"},
        {"-kernel name = k\n-kernel name = j\n#t\n", 2,
         "second '-kernel name' line"},
        /* Limits are checked at the grid line, before anything is read. */
        {"-kernel name = k\n-grid dim = (1,65535,65535)\n#t\n", 2,
         "grid of 4294836225 CTAs is over the limit of 16777216 (expected at "
         "most --max-ctas CTAs; raise it with --max-ctas N)"},
        {"-kernel name = k\n-grid dim = (1,65536,1)\n#t\n", 2,
         "larger than CUDA allows"},
        {"-kernel name = k\n-grid dim = (18446744073709551617,1,1)\n#t\n", 2,
         "bad dimensions"},
        {"-kernel name = k\n-grid dim = (-1,1,1)\n#t\n", 2, "bad dimensions"},
        {"-kernel name = k\n-grid dim = (1,1,1) x\n#t\n", 2, "bad dimensions"},
        {"-kernel name = k\n-kernel id = 4294967296\n#t\n", 2,
         "kernel id out of range"},
        {"-kernel name = k\nkernel id = 3\n#t\n", 2, "unexpected text"},
        {"-kernel name = k\n-kernel id\n#t\n", 2, "without '='"},
        {"-kernel name = k\n", 0, "file ends inside the kernel header"},
        {"\x7f"
         "ELF\x02\x01\x01garbage",
         1, "unexpected text"},
    };
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct trace_fixture f;
        if (open_text(&f, cases[i].body) != -1)
            fail_msg("header case %zu opened", i);
        ws_test_err(&f.err, "t.traceg", cases[i].line, cases[i].want);
    }
}

static void test_allow_unknown_keys(void **state)
{
    static const char text[] = "-future key = 1\n" HDR(
        "-accelsim tracer version = 5\n",
        "") "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 0\n#END_TB\n";
    struct ws_trace_opts opts;
    struct ws_traceg *r;
    struct ws_err err;

    (void)state;
    ws_trace_opts_default(&opts);
    opts.allow_unknown_keys = 1;
    ws_err_clear(&err);
    assert_int_equal(ws_traceg_open_mem(&r, "k", text, strlen(text), &opts,
                                        &err),
                     0);
    ws_traceg_close(r);
}

/* Every CTA once: --max-ctas, --max-warp-insts and --max-insts name their
 * flag, and raising the warp limit past the reader's own block cap still
 * meets that cap. */
static void test_limits(void **state)
{
    static const char grid8[] = "-kernel name = k\n-grid dim = (8,1,1)\n#t\n";
    static const char two_warps[] = V4 TB
        "insts = 3\n"
        "0000 ffffffff 0 NOP 0 0\n0010 ffffffff 0 NOP 0 0\n"
        "0020 ffffffff 0 EXIT 0 0\nwarp = 1\ninsts = 3\n#END_TB\n";
    static const char big[] = V4 TB "insts = 40000000\n";
    struct ws_trace_opts opts;
    struct ws_traceg *r;
    struct ws_err err;
    const struct ws_cta_stream *cta;

    (void)state;
    ws_trace_opts_default(&opts);
    opts.max_ctas = 4;
    ws_err_clear(&err);
    assert_int_equal(ws_traceg_open_mem(&r, "t.traceg", grid8, strlen(grid8),
                                        &opts, &err),
                     -1);
    ws_test_err(&err, "t.traceg", 2,
                "grid of 8 CTAs is over the limit of 4 "
                "(expected at most --max-ctas CTAs; raise it with --max-ctas "
                "N)");

    ws_trace_opts_default(&opts);
    opts.max_warp_insts = 2;
    ws_err_clear(&err);
    assert_int_equal(ws_traceg_open_mem(&r, "t.traceg", two_warps,
                                        strlen(two_warps), &opts, &err),
                     0);
    assert_int_equal(ws_traceg_next_cta(r, &cta, &err), -1);
    ws_test_err(&err, "t.traceg", 20,
                "insts = 3 is over the limit of 2 "
                "instructions per warp (expected at most --max-warp-insts; "
                "raise it with --max-warp-insts N)");
    ws_traceg_close(r);

    ws_trace_opts_default(&opts);
    opts.max_insts = 5;
    ws_err_clear(&err);
    assert_int_equal(ws_traceg_open_mem(&r, "t.traceg", two_warps,
                                        strlen(two_warps), &opts, &err),
                     0);
    assert_int_equal(ws_traceg_next_cta(r, &cta, &err), -1);
    ws_test_err(&err, "t.traceg", 25,
                "insts = 3 takes the kernel past the "
                "limit of 5 warp instructions (expected at most --max-insts "
                "in all; raise it with --max-insts N)");
    ws_traceg_close(r);

    ws_trace_opts_default(&opts);
    opts.max_warp_insts = UINT64_MAX;
    ws_err_clear(&err);
    assert_int_equal(ws_traceg_open_mem(&r, "t.traceg", big, strlen(big), &opts,
                                        &err),
                     0);
    assert_int_equal(ws_traceg_next_cta(r, &cta, &err), -1);
    ws_test_err(&err, "t.traceg", 20, "makes the block larger than");
    ws_traceg_close(r);
}

static char warned[8][WS_ERR_TEXT];
static int nwarned;

static void catch_warning(const char *line)
{
    if (nwarned < 8)
        snprintf(warned[nwarned++], sizeof warned[0], "%s", line);
}

/* Fewer CTAs than the grid is legal (the tracer skips CTAs that ran
 * nothing) but warned about once, at the end of the trace. */
static void test_short_grid_warning(void **state)
{
    static const char text[] = V4 TB "insts = 0\n#END_TB\n";
    static const char full[] = V4 TB
        "insts = 0\n#END_TB\n"
        "#BEGIN_TB\nthread block = 1,0,0\n#END_TB\n";
    struct trace_fixture f;
    const struct ws_cta_stream *cta;

    (void)state;
    nwarned = 0;
    ws_warn_set_sink(catch_warning);
    assert_int_equal(open_text(&f, text), 0);
    next_cta(&f);
    assert_int_equal(nwarned, 0);
    assert_int_equal(ws_traceg_next_cta(f.r, &cta, &f.err), 0);
    assert_int_equal(ws_traceg_next_cta(f.r, &cta, &f.err), 0);
    assert_int_equal(nwarned, 1);
    assert_string_equal(warned[0],
                        "t.traceg:22:1: warning: 1 of 2 CTAs in "
                        "the trace; the rest are taken to be empty (the "
                        "tracer skips CTAs with no instructions)");
    ws_traceg_close(f.r);
    nwarned = 0;
    assert_int_equal(open_text(&f, full), 0);
    next_cta(&f);
    next_cta(&f);
    assert_int_equal(ws_traceg_next_cta(f.r, &cta, &f.err), 0);
    assert_int_equal(nwarned, 0);
    ws_traceg_close(f.r);
    ws_warn_set_sink(NULL);
}

/* The "#traces format" line is not required: the header ends at its first
 * '#' line, and when that is "#BEGIN_TB" it opens the first block. */
static void test_no_format_line(void **state)
{
    static const char straight[] =
        "-kernel name = k\n-grid dim = (1,1,1)\n"
        "-block dim = (32,1,1)\n-shmem = 0\n-nregs = 8\n"
        "-binary version = 70\n-accelsim tracer version = 4\n"
        "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
        "0000 ffffffff 0 EXIT 0 0\n#END_TB\n";
    static const char comment[] =
        "-kernel name = k\n-grid dim = (1,1,1)\n"
        "-block dim = (32,1,1)\n-shmem = 0\n-nregs = 8\n"
        "-binary version = 70\n# written by hand\n"
        "#BEGIN_TB\nthread block = 0,0,0\n#END_TB\n";
    struct trace_fixture f;
    const struct ws_cta_stream *cta;

    (void)state;
    assert_int_equal(open_text(&f, straight), 0);
    cta = next_cta(&f);
    assert_int_equal(cta->warps[0].ninst, 1);
    assert_int_equal(ws_traceg_next_cta(f.r, &cta, &f.err), 0);
    ws_traceg_close(f.r);
    assert_int_equal(open_text(&f, comment), 0);
    next_cta(&f);
    assert_int_equal(ws_traceg_next_cta(f.r, &cta, &f.err), 0);
    ws_traceg_close(f.r);
}

/* Tracers print the immediate as "%d" or as the operand's uint64; both are
 * read, keeping the low 32 bits. */
static void test_immediates(void **state)
{
    static const char text[] = V4 TB
        "insts = 4\n"
        "0000 ffffffff 0 DEPBAR.LE 0 0 4294967295\n"
        "0010 ffffffff 0 DEPBAR.LE 0 0 18446744073709551615\n"
        "0020 ffffffff 0 DEPBAR.LE 0 0 -5\n"
        "0030 ffffffff 0 DEPBAR.LE 0 0 2147483648\n#END_TB\n";
    struct trace_fixture f;
    const struct ws_inst *in;

    (void)state;
    assert_int_equal(open_text(&f, text), 0);
    in = next_cta(&f)->warps[0].inst;
    assert_int_equal(in[0].imm, -1);
    assert_int_equal(in[1].imm, -1);
    assert_int_equal(in[2].imm, -5);
    assert_true(in[3].imm == INT32_MIN);
    ws_traceg_close(f.r);
}

/* The bundled vecadd trace against the kernel's own logic: n = 4010,
 * 128 threads per block, 15 instructions per warp with live lanes and 6
 * for warps whose lanes all exit at the bounds check. */
static void test_bundled_vecadd(void **state)
{
    const uint64_t n = 4010, a = 0x7f4a1e000000ull;
    struct ws_traceg *r;
    struct ws_err err;
    const struct ws_cta_stream *cta;
    uint64_t ctas = 0, insts = 0, want_insts = 0;
    size_t footprint = 0;
    int rc;

    (void)state;
    ws_err_clear(&err);
    assert_int_equal(ws_traceg_open(&r,
                                    "traces/accelsim/vecadd/kernel-1.traceg",
                                    NULL, &err),
                     0);
    for (uint64_t g = 0; g < 128; g++)
        want_insts += g * 32 < n ? 15 : 6;
    while ((rc = ws_traceg_next_cta(r, &cta, &err)) == 1) {
        /* Streaming: after the first CTA the reader holds no more memory,
         * however many CTAs follow (they are all the same size here). */
        if (ctas == 0)
            footprint = ws_traceg_footprint(r);
        assert_int_equal(ws_traceg_footprint(r), footprint);
        ctas++;
        for (uint32_t w = 0; w < cta->nwarps; w++) {
            uint64_t base = cta->ctaid[0] * 128 + w * 32;
            const struct ws_warp_stream *ws = &cta->warps[w];
            insts += ws->ninst;
            if (base + 32 <= n || base >= n)
                continue;
            /* The partial warp: lanes below n - base live. */
            assert_int_equal(ws->inst[5].mask, ~((1u << (n - base)) - 1));
            assert_int_equal(ws->inst[9].mask, (1u << (n - base)) - 1);
            assert_true(cta->addrs[ws->inst[9].addr + (n - base - 1)]
                        == a + 4 * (n - 1));
        }
    }
    assert_int_equal(rc, 0);
    assert_int_equal(ctas, 32);
    assert_int_equal(insts, want_insts);
    ws_traceg_close(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_v4_fields),
        cmocka_unit_test(test_v5_modes),
        cmocka_unit_test(test_pre_v3),
        cmocka_unit_test(test_generic_spaces),
        cmocka_unit_test(test_unknown_opcode),
        cmocka_unit_test(test_streaming),
        cmocka_unit_test(test_corrupt),
        cmocka_unit_test(test_corrupt_header),
        cmocka_unit_test(test_allow_unknown_keys),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_short_grid_warning),
        cmocka_unit_test(test_no_format_line),
        cmocka_unit_test(test_immediates),
        cmocka_unit_test(test_bundled_vecadd),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
