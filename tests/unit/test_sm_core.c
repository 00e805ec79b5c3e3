/*
 * The SM core as the instruction encoding drives it: the control-bit
 * decoder on encodings from the bundled sm_90 listing, the listing's
 * table by PC, and property tests of the timing model on the H100 config:
 * a stall count holds the warp that many cycles, a register-bank conflict
 * costs one issue cycle and a reuse-cache hit removes it, and a loop larger
 * than the L0 instruction cache runs at the stream buffer's rate.
 */
#include <stdlib.h>
#include <string.h>

#include "config/ws_config.h"
#include "listing/ws_sass.h"
#include "trace/ws_ctrl.h"
#include "ws_synth.h"
#include "ws_test.h"

static struct ws_gpu h100(void)
{
    struct ws_gpu g;

    ws_test_config(&g, "h100");
    g.icache.l0_size = 0;
    g.regfile.banks = 0;
    g.sched.control_bits = 1;
    return g;
}

/* ---- the decoder -------------------------------------------------------- */

/* High words cuobjdump printed for matmul.sm_90.sass's tiling kernel. */
static void test_decode(void **state)
{
    struct ws_ctrl c;
    char text[64];

    (void)state;
    /* LDC R1, c[0x0][0x28]: stall 1, no yield, no counters */
    ws_ctrl_unpack(ws_ctrl_from_hi(0x000fe20000000800ull), &c);
    assert_int_equal(c.stall, 1);
    assert_int_equal(c.yield, 1);
    assert_int_equal(c.wbar, WS_CTRL_NO_BAR);
    assert_int_equal(c.rbar, WS_CTRL_NO_BAR);
    assert_int_equal(c.wait, 0);
    assert_int_equal(c.reuse, 0);
    /* S2R R13, SR_TID.X: raises SB0 until its result is written */
    ws_ctrl_unpack(ws_ctrl_from_hi(0x000e220000002100ull), &c);
    assert_int_equal(c.wbar, 0);
    assert_int_equal(c.rbar, WS_CTRL_NO_BAR);
    /* IMAD R0, R0, 0x10, R13: waits on SB0 */
    ws_ctrl_unpack(ws_ctrl_from_hi(0x001fe200078e020dull), &c);
    assert_int_equal(c.wait, 1);
    /* LEA R8, R8, R15, 0x4 before a branch: stall 10, yield, waits SB1 */
    ws_ctrl_unpack(ws_ctrl_from_hi(0x002fd400078e20ffull), &c);
    assert_int_equal(c.stall, 10);
    assert_int_equal(c.yield, 0);
    assert_int_equal(c.wait, 2);
    ws_ctrl_format(ws_ctrl_from_hi(0x002fd400078e20ffull), text, sizeof text);
    assert_string_equal(text, "S10 - W- R- B-1---- U----");
    /* IMAD R14, R0, R9.reuse, R15: operand B kept */
    ws_ctrl_unpack(ws_ctrl_from_hi(0x080fe400078e020full), &c);
    assert_int_equal(c.reuse, 2);
    /* IMAD.WIDE R30, R31, 0x8, R2.reuse: operand C kept, waits SB1 */
    ws_ctrl_unpack(ws_ctrl_from_hi(0x102fe400078e0202ull), &c);
    assert_int_equal(c.reuse, 4);
    assert_int_equal(c.wait, 2);
    assert_int_equal(c.stall, 2);
}

static struct ws_sass load(const char *path)
{
    struct ws_sass s;

    ws_test_sass(&s, path);
    return s;
}

/* The listing's table: every instruction's control, the reuse operands'
 * registers, nothing for nvdisasm's listing (it prints no encodings). */
static void test_listing_table(void **state)
{
    struct ws_sass s = load("traces/kernels/matmul/matmul.sm_90.sass");
    struct ws_sass n = load("traces/kernels/matmul/matmul.sm_90.nvdisasm");
    const struct ws_sass_func *f = ws_sass_find(&s, "_Z6tilingPKdS0_Pdi");
    const struct ws_ctrl_entry *e;
    struct ws_ctrl_table t;

    (void)state;
    assert_non_null(f);
    assert_int_equal(ws_sass_ctrl_table(&s, f, &t), 0);
    assert_int_equal(t.complete, 1);
    assert_int_equal(t.known, f->ninst);
    e = ws_ctrl_at(&t, 0x50); /* S2R R13, SR_TID.X */
    assert_non_null(e);
    assert_int_equal(ws_ctrl_wbar(e->word), 0);
    e = ws_ctrl_at(&t, 0x110); /* IMAD R14, R0, R9.reuse, R15 */
    assert_non_null(e);
    assert_int_equal(ws_ctrl_reuse(e->word), 2);
    assert_int_equal(e->nreuse, 1);
    assert_int_equal(e->reuse_reg[0], 9);
    assert_null(ws_ctrl_at(&t, 0x118)); /* not an instruction's PC */
    assert_null(ws_ctrl_at(&t, 0x100000));
    ws_ctrl_table_free(&t);
    f = ws_sass_find(&n, "_Z6tilingPKdS0_Pdi");
    assert_non_null(f);
    assert_int_equal(ws_sass_ctrl_table(&n, f, &t), 0);
    assert_int_equal(t.known, 0);
    assert_int_equal(t.complete, 0);
    ws_ctrl_table_free(&t);
    ws_sass_free(&s);
    ws_sass_free(&n);
}

/* A function whose offsets leave most 16-byte slots empty gets no table
 * (and no gigabytes of one): an instruction at 0xfffffff0. */
static void test_listing_sparse(void **state)
{
    static const char text[] =
        "\tcode for sm_90\n"
        "\t\tFunction : k\n"
        "        /*0000*/  EXIT ;  /* 0x000000000000794d */\n"
        "                          /* 0x000fea0003800000 */\n"
        "        /*fffffff0*/  BRA 0xfffffff0 ;  /* 0x000000000000794d */\n"
        "                          /* 0x000fea0003800000 */\n"
        "        ..........\n";
    struct ws_sass s;
    struct ws_err err;
    struct ws_ctrl_table t;
    const struct ws_sass_func *f;

    (void)state;
    ws_err_clear(&err);
    if (ws_sass_parse_mem(&s, "sparse.sass", text, sizeof text - 1, NULL, &err)
        < 0)
        fail_msg("%s", err.text);
    f = ws_sass_find(&s, "k");
    assert_non_null(f);
    assert_int_equal(f->ninst, 2);
    assert_int_not_equal(s.insts[f->first].ctrl, 0);
    assert_int_equal(ws_sass_ctrl_table(&s, f, &t), 0);
    assert_int_equal(t.complete, 0);
    assert_null(ws_ctrl_at(&t, 0));
    ws_ctrl_table_free(&t);
    ws_sass_free(&s);
}

/* ---- property tests ----------------------------------------------------- */

/* One warp: n instructions `op` writing R20.. from sources a, b (and c
 * when not -1), each with stall count `stall`, then EXIT. */
struct straight {
    const char *op;
    unsigned n;
    int a, b, c;
};

static void gen_straight(struct ws_synth *k, uint32_t cta)
{
    const struct straight *p = k->user;

    (void)cta;
    ws_synth_warp(k, 0);
    for (unsigned i = 0; i < p->n; i++) {
        struct ws_inst *in = ws_synth_op(k, p->op, 20 + (int)(i % 8) * 2, p->a,
                                         p->b);
        if (p->c >= 0 && in->nsrc < WS_INST_MAX_SRC)
            in->src[in->nsrc++] = (uint8_t)p->c;
    }
    ws_synth_op(k, "EXIT", -1, -1, -1);
}

/* A table for n instructions `op` and an EXIT: stall `stall`, no yield,
 * no counters, `reuse` (-1: none) kept by every one. */
static void ctrl_fill(struct ws_ctrl_table *t, const char *op, unsigned n,
                      unsigned stall, int reuse)
{
    assert_int_equal(ws_ctrl_table_init(t, 16 * n), 0);
    for (unsigned i = 0; i <= n; i++) {
        t->e[i].word = WS_CTRL_KNOWN | stall | 1u << 4 | WS_CTRL_NO_BAR << 5
                       | WS_CTRL_NO_BAR << 8;
        t->e[i].op_hash = ws_ctrl_op_hash(i < n ? op : "EXIT");
        if (reuse >= 0) {
            t->e[i].nreuse = 1;
            t->e[i].reuse_reg[0] = (uint8_t)reuse;
        }
    }
    t->known = t->n;
    t->complete = 1;
}

static uint64_t run_straight(const struct ws_gpu *g, const struct straight *p,
                             const struct ws_ctrl_table *t,
                             struct ws_kernel_stats *st)
{
    struct ws_synth k;
    uint64_t cycles;

    ws_synth_init(&k, 1, 32, gen_straight, p);
    k.g.launch.sm_version = 90;
    k.ctrl = t;
    cycles = ws_synth_run(&k, g, st);
    ws_synth_free(&k);
    return cycles;
}

/* Cycles that n more instructions of p add: what each one costs in
 * steady state, free of the kernel's start and end. */
static uint64_t run_more(const struct ws_gpu *g, struct straight p,
                         unsigned more, unsigned stall, int reuse,
                         struct ws_kernel_stats *st)
{
    struct ws_ctrl_table t;
    uint64_t a, b;

    ctrl_fill(&t, p.op, p.n, stall, reuse);
    a = run_straight(g, &p, &t, NULL);
    ws_ctrl_table_free(&t);
    p.n += more;
    ctrl_fill(&t, p.op, p.n, stall, reuse);
    b = run_straight(g, &p, &t, st);
    ws_ctrl_table_free(&t);
    return b - a;
}

/* Independent instructions with stall count s issue s cycles apart: the
 * hardware checks no register, so nothing else holds them. */
static void test_stall_count(void **state)
{
    struct ws_gpu g = h100();
    const struct straight p = {"FMUL", 100, 2, 3, -1};

    (void)state;
    assert_int_equal(run_more(&g, p, 100, 1, -1, NULL), 100);
    assert_int_equal(run_more(&g, p, 100, 4, -1, NULL), 400);
    assert_int_equal(run_more(&g, p, 100, 15, -1, NULL), 1500);
}

/* Two sources in one bank (R2, R4) cost each instruction one more issue
 * cycle than two in different banks (R2, R3); three in one bank two. */
static void test_bank_conflict(void **state)
{
    struct ws_gpu g = h100();
    const struct straight apart = {"FMUL", 100, 2, 3, -1};
    const struct straight same = {"FMUL", 100, 2, 4, -1};
    const struct straight three = {"FFMA", 100, 2, 4, 6};
    struct ws_kernel_stats st;

    (void)state;
    g.regfile.banks = 2;
    assert_int_equal(run_more(&g, apart, 100, 1, -1, NULL), 100);
    assert_int_equal(run_more(&g, same, 100, 1, -1, &st), 200);
    assert_int_equal(st.ctr.v[WS_CTR_RF_BANK_BUBBLES], 200);
    ws_kernel_stats_free(&st);
    assert_int_equal(run_more(&g, three, 100, 1, -1, NULL), 300);
    /* a stall count longer than the bubble hides it */
    assert_int_equal(run_more(&g, same, 100, 2, -1, NULL), 200);
    /* no bank model: no conflict */
    g.regfile.banks = 0;
    assert_int_equal(run_more(&g, same, 100, 1, -1, NULL), 100);
}

/* R2 kept by every instruction's reuse flag: after the first, R2 comes
 * from the cache, only R4 is read from its bank, and the conflict is gone. */
static void test_reuse_hit(void **state)
{
    struct ws_gpu g = h100();
    const struct straight same = {"FMUL", 100, 2, 4, -1};
    struct ws_kernel_stats st;

    (void)state;
    g.regfile.banks = 2;
    assert_int_equal(run_more(&g, same, 100, 1, 2, &st), 100);
    /* every instruction but the first hits */
    assert_int_equal(st.ctr.v[WS_CTR_RFC_HITS], 199);
    assert_int_equal(st.ctr.v[WS_CTR_RF_BANK_BUBBLES], 1);
    ws_kernel_stats_free(&st);
    /* keeping R3 instead keeps nothing these instructions read */
    assert_int_equal(run_more(&g, same, 100, 1, 3, NULL), 200);
}

/* S2R goes down the MIO path: with sm.s2r_latency its consumer waits
 * that latency, and each takes the LD/ST unit's issue slot (8 lanes per
 * sub-core on H100: one warp every 4 cycles) instead of the misc unit's. */
static void test_s2r_mio(void **state)
{
    struct ws_gpu g = h100();
    const struct straight p = {"S2R", 100, -1, -1, -1};

    (void)state;
    g.sm.s2r_latency = 22;
    assert_int_equal(run_more(&g, p, 100, 1, -1, NULL),
                     100 * g.unit[WS_UNIT_LDST].interval);
    g.sm.s2r_latency = 0;
    assert_int_equal(run_more(&g, p, 100, 1, -1, NULL),
                     100 * g.unit[WS_UNIT_MISC].interval);
}

/* Control borrowed from another instruction's listing is refused at the
 * first PC where the opcodes differ, not used to time the wrong code. */
static void test_ctrl_mismatch(void **state)
{
    struct ws_gpu g = h100();
    const struct straight p = {"FMUL", 10, 2, 3, -1};
    struct ws_ctrl_table t;
    struct ws_sim sim;
    struct ws_err err;
    struct ws_kernel_stats st;
    struct ws_synth k;
    struct ws_cta_source src;

    (void)state;
    ctrl_fill(&t, "FFMA", p.n, 1, -1);
    ws_synth_init(&k, 1, 32, gen_straight, &p);
    k.g.launch.sm_version = 90;
    src = ws_synth_source(&k);
    src.ctrl = &t;
    ws_err_clear(&err);
    assert_int_equal(ws_sim_init(&sim, &g, NULL, &err), 0);
    assert_int_equal(ws_sim_kernel(&sim, &src, &st, &err), -1);
    ws_test_err(&err, "generated", 1,
                "FMUL at PC 0x0000 is another instruction");
    ws_kernel_stats_free(&st);
    ws_sim_free(&sim);
    ws_synth_free(&k);
    ws_ctrl_table_free(&t);
}

/* ---- instruction fetch -------------------------------------------------- */

struct loop {
    unsigned lines, iters; /* a loop body of `lines` 128-byte lines */
};

static void gen_loop(struct ws_synth *k, uint32_t cta)
{
    const struct loop *p = k->user;
    unsigned body = p->lines * 8;

    (void)cta;
    ws_synth_warp(k, 0);
    for (unsigned it = 0; it < p->iters; it++)
        for (unsigned i = 0; i < body; i++)
            ws_synth_op(k, "FADD", 20 + (int)(i % 8) * 2, -1, -1)->pc = 16 * i;
    ws_synth_op(k, "EXIT", -1, -1, -1)->pc = 16 * body;
}

static uint64_t run_loop(const struct ws_gpu *g, const struct loop *p)
{
    struct ws_synth k;
    struct ws_ctrl_table t;
    uint64_t cycles;

    ctrl_fill(&t, "FADD", p->lines * 8, 1, -1);
    ws_synth_init(&k, 1, 32, gen_loop, p);
    k.g.launch.sm_version = 90;
    k.ctrl = &t;
    cycles = ws_synth_run(&k, g, NULL);
    ws_synth_free(&k);
    ws_ctrl_table_free(&t);
    return cycles;
}

/* A loop of 16 lines through an L0 of 8 misses every line.  The jump back
 * to its top misses the stream buffer too (the buffer runs ahead of the
 * bottom): `latency` to the first line, then the stream buffer's lines one
 * fill_interval apart.  The warp enters a line when the last instruction
 * of the one before issues, 7 cycles after that line came in.  So an
 * iteration takes latency + 7 + 15 x fill_interval, where a perfect cache
 * gives one instruction per cycle. */
static void test_icache_prefetch_rate(void **state)
{
    struct ws_gpu g = h100();
    const struct loop two = {16, 2}, three = {16, 3};
    uint64_t per_iter;

    (void)state;
    per_iter = run_loop(&g, &three) - run_loop(&g, &two);
    assert_int_equal(per_iter, 16 * 8);
    g.icache.l0_size = 1024;
    g.icache.line = 128;
    g.icache.latency = 30;
    g.icache.prefetch = 8;
    g.icache.fill_interval = 16;
    per_iter = run_loop(&g, &three) - run_loop(&g, &two);
    assert_int_equal(per_iter, 30 + 7 + 15 * 16);
    /* A loop the L0 holds costs its misses once. */
    {
        const struct loop small2 = {4, 2}, small3 = {4, 3};
        per_iter = run_loop(&g, &small3) - run_loop(&g, &small2);
        assert_int_equal(per_iter, 4 * 8);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decode),
        cmocka_unit_test(test_listing_table),
        cmocka_unit_test(test_listing_sparse),
        cmocka_unit_test(test_stall_count),
        cmocka_unit_test(test_bank_conflict),
        cmocka_unit_test(test_reuse_hit),
        cmocka_unit_test(test_ctrl_mismatch),
        cmocka_unit_test(test_s2r_mio),
        cmocka_unit_test(test_icache_prefetch_rate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
