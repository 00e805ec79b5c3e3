/*
 * Unit tests of the listing reader (sim/listing/ws_sass*.c): operand forms,
 * guards, labels and branch targets, -res-usage and nvdisasm register
 * counts, pre-Volta 8-byte slots, the compiled listings of the bundled
 * kernels, malformed listings, and listings cut short.
 */
#include <stdlib.h>
#include <string.h>

#include "trace/ws_opcode.h"
#include "listing/ws_sass.h"
#include "listing/ws_sass_operand.h"
#include "ws_test.h"

static struct ws_opnd parse(const char *text)
{
    struct ws_opnd o;
    const char *label, *why = NULL;
    size_t llen;

    if (ws_sass_operand_parse(text, strlen(text), &o, &label, &llen, &why) < 0)
        fail_msg("operand '%s' rejected: %s", text, why);
    return o;
}

static void test_operands(void **state)
{
    struct ws_opnd o;
    const char *label, *why;
    size_t llen;

    (void)state;
    o = parse("R12");
    assert_int_equal(o.kind, WS_OPND_REG);
    assert_int_equal(o.reg, 12);
    o = parse("RZ");
    assert_int_equal(o.reg, 255);
    o = parse("-|R3.reuse|");
    assert_int_equal(o.kind, WS_OPND_REG);
    assert_true(o.negate && o.absolute);
    o = parse("!PT");
    assert_int_equal(o.kind, WS_OPND_PRED);
    assert_int_equal(o.reg, 7);
    assert_true(o.invert);
    o = parse("UR8");
    assert_int_equal(o.kind, WS_OPND_UREG);
    o = parse("UP0");
    assert_int_equal(o.kind, WS_OPND_UPRED);
    o = parse("c[0x0][0x160]");
    assert_int_equal(o.kind, WS_OPND_CONST);
    assert_int_equal(o.bank, 0);
    assert_int_equal(o.value, 0x160);
    o = parse("c[0x0] [0x8].H1");
    assert_int_equal(o.kind, WS_OPND_CONST);
    assert_int_equal(o.value, 8);
    o = parse("c[0x3][R2]");
    assert_int_equal(o.bank, 3);
    assert_int_equal(o.value, -1);
    o = parse("desc[UR8][R2.64+0x10]");
    assert_int_equal(o.kind, WS_OPND_MEM);
    assert_int_equal(o.reg, 2);
    assert_true(o.wide);
    assert_int_equal(o.value, 16);
    o = parse("[R5+UR4+-0x4]");
    assert_int_equal(o.reg, 5);
    assert_int_equal(o.ureg, 4);
    assert_int_equal(o.value, -4);
    o = parse("[UR4]");
    assert_int_equal(o.reg, -1);
    assert_int_equal(o.ureg, 4);
    o = parse("-0x4");
    assert_int_equal(o.kind, WS_OPND_IMM);
    assert_int_equal(o.value, -4);
    o = parse("2.384185791015625e-07");
    assert_int_equal(o.kind, WS_OPND_FIMM);
    o = parse("+INF");
    assert_int_equal(o.kind, WS_OPND_FIMM);
    o = parse("SR_CTAID.X");
    assert_int_equal(o.kind, WS_OPND_SREG);
    o = parse("0x1a0");
    assert_int_equal(o.kind, WS_OPND_IMM);
    o = parse("B0");
    assert_int_equal(o.kind, WS_OPND_OTHER);
    assert_int_equal(ws_sass_operand_parse("`(.L_x_3)", 9, &o, &label, &llen,
                                           &why),
                     0);
    assert_int_equal(o.kind, WS_OPND_TARGET);
    assert_int_equal(llen, 6);
    assert_memory_equal(label, ".L_x_3", 6);
    assert_int_equal(ws_sass_operand_parse("R256", 4, &o, &label, &llen, &why),
                     -1);
    assert_int_equal(ws_sass_operand_parse("[R2", 3, &o, &label, &llen, &why),
                     -1);
}

static struct ws_sass load(const char *path)
{
    struct ws_sass s;

    ws_test_sass(&s, path);
    return s;
}

static const struct ws_sass_inst *
at_pc(const struct ws_sass *s, const struct ws_sass_func *f, uint32_t pc)
{
    for (uint32_t i = 0; i < f->ninst; i++)
        if (s->insts[f->first + i].pc == pc)
            return &s->insts[f->first + i];
    fail_msg("no instruction at 0x%x", pc);
    return NULL;
}

static const char *op(const struct ws_sass *s, const struct ws_sass_inst *in)
{
    return ws_strtab_str(&s->strs, in->op);
}

static void test_cuobjdump_sm80(void **state)
{
    struct ws_sass s = load("traces/kernels/reduce/reduce.sm_80.sass");
    const struct ws_sass_func *f;
    uint32_t bars = 0, branches = 0;

    (void)state;
    assert_int_equal(s.nfuncs, 1);
    f = ws_sass_find(&s, "_Z6reducePKfPfi");
    assert_non_null(f);
    assert_int_equal(f->sm, 80);
    /* -res-usage: REG:n SHARED:1024 for a 256-float array. */
    assert_true(f->regs > 0);
    assert_int_equal(f->shared, 1024);
    for (uint32_t i = 0; i < f->ninst; i++) {
        const struct ws_sass_inst *in = &s.insts[f->first + i];
        bars += in->cls == WS_OPC_BARRIER;
        if (strncmp(op(&s, in), "BRA", 3) == 0) {
            const struct ws_opnd *t = &s.opnds[in->opnd];
            branches++;
            assert_int_equal(t->kind, WS_OPND_TARGET);
            assert_non_null(at_pc(&s, f, (uint32_t)t->value));
        }
        /* Volta on: 16-byte slots. */
        if (i > 0)
            assert_int_equal(in->pc - s.insts[f->first + i - 1].pc, 16);
    }
    assert_int_equal(bars, 2); /* __syncthreads before and inside the loop */
    assert_true(branches >= 2);
    ws_sass_free(&s);
}

static void test_nvdisasm_sm90(void **state)
{
    struct ws_sass s = load("traces/kernels/reduce/reduce.sm_90.nvdisasm");
    const struct ws_sass_func *f = &s.funcs[0];
    int guarded_exit = 0, labels = 0;

    (void)state;
    assert_string_equal(f->name, "_Z6reducePKfPfi");
    assert_int_equal(f->sm, 90);
    assert_true(f->regs > 0); /* from EIATTR_REGCOUNT */
    for (uint32_t i = 0; i < f->ninst; i++) {
        const struct ws_sass_inst *in = &s.insts[f->first + i];
        if (in->cls == WS_OPC_EXIT && in->guard == 0 && !in->guard_neg)
            guarded_exit = 1;
        for (uint32_t k = 0; k < in->nopnd; k++) {
            const struct ws_opnd *o = &s.opnds[in->opnd + k];
            if (o->kind == WS_OPND_TARGET) {
                labels++;
                assert_non_null(at_pc(&s, f, (uint32_t)o->value));
            }
        }
    }
    assert_true(guarded_exit);
    assert_true(labels >= 2);
    ws_sass_free(&s);
}

static void test_pre_volta(void **state)
{
    struct ws_sass s = load("tests/data/listings/vecadd.sm_52.sass");
    const struct ws_sass_func *f = &s.funcs[0];
    const struct ws_sass_inst *in;

    (void)state;
    assert_int_equal(f->sm, 52);
    /* Control words at 0x00, 0x20, 0x40... print no instruction. */
    for (uint32_t i = 0; i < f->ninst; i++)
        assert_int_not_equal(s.insts[f->first + i].pc % 32, 0);
    in = at_pc(&s, f, 0x28);
    assert_string_equal(op(&s, in), "XMAD.MRG");
    assert_int_equal(in->cls, WS_OPC_INT);
    assert_int_equal(s.opnds[in->opnd + 2].kind, WS_OPND_CONST);
    /* Dual-issue pair: the second statement ends at '}'. */
    in = at_pc(&s, f, 0x98);
    assert_string_equal(op(&s, in), "LDG.E");
    assert_int_equal(s.opnds[in->opnd + 1].kind, WS_OPND_MEM);
    in = at_pc(&s, f, 0xf0);
    assert_int_equal(s.opnds[in->opnd].kind, WS_OPND_TARGET);
    assert_int_equal(s.opnds[in->opnd].value, 0xf0);
    ws_sass_free(&s);

    s = load("tests/data/listings/vecadd.sm_35.sass");
    assert_int_equal(s.funcs[0].sm, 35);
    for (uint32_t i = 0; i < s.funcs[0].ninst; i++)
        assert_int_not_equal(s.insts[i].pc % 64, 0);
    ws_sass_free(&s);

    s = load("tests/data/listings/reduce.sm_61.sass");
    in = at_pc(&s, &s.funcs[0], 0xb8);
    assert_string_equal(op(&s, in), "SSY");
    assert_int_equal(in->cls, WS_OPC_BRANCH);
    assert_int_equal(s.opnds[in->opnd].kind, WS_OPND_TARGET);
    in = at_pc(&s, &s.funcs[0], 0x48);
    assert_int_equal(in->guard, 0);
    assert_true(in->guard_neg);
    ws_sass_free(&s);
}

static void test_bad_listings(void **state)
{
    static const struct {
        const char *text;
        long line;
        const char *want;
    } cases[] = {
        {"code for sm_80\n/*0000*/ MOV R1, R2 ;\n", 2,
         "instruction outside a function"},
        {"Function : k\n", 1, "function before any SM version"},
        {"code for sm_80\nFunction : k\n/*0000*/ MOV R1, R2\n", 3,
         "statement without ';'"},
        {"code for sm_80\nFunction : k\n/*0010*/ MOV R1, R2 ;\n"
         "/*0000*/ MOV R1, R2 ;\n",
         4, "does not follow"},
        {"code for sm_80\nFunction : k\n/*00zz*/ MOV R1, R2 ;\n", 3,
         "bad offset"},
        {"code for sm_80\nFunction : k\n/*0000*/ BRA `(.L_x_9) ;\n....\n", 3,
         "unknown label '.L_x_9'"},
        {"code for sm_80\nFunction : k\n/*0000*/ BRA 0x40 ;\n....\n", 3,
         "branch target 0x40 is not an instruction"},
        /* Used to be cut to 32 bits and land on offset 0. */
        {"code for sm_80\nFunction : k\n/*0000*/ BRA 0x100000000 ;\n....\n", 3,
         "branch target 0x100000000 is not an instruction"},
        {".target sm_90\n.text.k:\n.L_x_0:\n/*0000*/ EXIT ;\n.L_x_0:\n"
         "/*0010*/ BRA `(.L_x_0);\n",
         5,
         "label '.L_x_0' is defined twice in "
         "k (expected each label once; line 3 has it first)"},
        /* Cut short: the last line, or the line starting the next one. */
        {"code for sm_80\nFunction : k\n/*0000*/ MOV R1, R2 ;\n"
         "/*0010*/ EXIT ;\n",
         4,
         "function k is cut short after offset "
         "0x0010 (expected the rest of it: a function ends with a BRA to "
         "itself, then cuobjdump's '.....' line or nvdisasm's end label)"},
        {"code for sm_80\nFunction : k\n/*0000*/ EXIT ;\nFunction : j\n"
         "/*0000*/ EXIT ;\n/*0010*/ BRA 0x10 ;\n",
         4, "function k is cut short"},
        {"code for sm_80\nFunction : k\n/*0000*/ EXIT ;\n"
         "/*0010*/ @P0 BRA 0x10 ;\n",
         4, "function k is cut short"},
        {".target sm_90\n\t.size\t\tk,(.L_x_1 - k)\n.text.k:\n"
         "/*0000*/ EXIT ;\n.L_x_0:\n\n",
         6, "function k is cut short"},
        {".target sm_90\n.text.k:\n/*0000*/ EXIT ;\n"
         "\t.section\t.nv.constant0.k,\"a\",@progbits\n",
         4, "function k is cut short"},
        /* An offset comment whose closing star-slash overlaps its opening
         * one used to give the offset a length of SIZE_MAX. */
        {"code for sm_80\nFunction : k\n/*/*/ MOV R1 ;\n", 3, "bad offset"},
        {"code for sm_80\nFunction : k\n/*0000*/ LDG R1, "
         "[R2+0x7fffffffffffffff+0x1] ;\n",
         3, "bad operand"},
        {"code for sm_80\nFunction : k\n/*0000*/ MOV R300, R2 ;\n", 3,
         "bad operand 'R300'"},
        {"code for sm_80\nFunction : k\n/*0000*/ @Q0 MOV R1, R2 ;\n", 3,
         "bad guard predicate"},
        {"code for sm_80\nFunction : k\n/*0000*/ mov R1 ;\n", 3,
         "missing opcode"},
        {"code for sm_80\nFunction : k\n", 2, "has no instructions"},
        {"hello\n", 1, "no function in the listing"},
    };
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct ws_sass s;
        struct ws_err err;
        ws_err_clear(&err);
        if (ws_sass_parse_mem(&s, "l.sass", cases[i].text,
                              strlen(cases[i].text), NULL, &err)
            == 0)
            fail_msg("case %zu parsed", i);
        ws_test_err(&err, "l.sass", cases[i].line, cases[i].want);
    }
}

/* What marks a function's end: cuobjdump's dots, nvdisasm's end label named
 * by .size, or the closing BRA to itself (by offset or by label) with only
 * NOPs after it. */
static void test_function_ends(void **state)
{
    static const char *const good[] = {
        "code for sm_80\nFunction : k\n/*0000*/ EXIT ;\n\t\t..........\n",
        "code for sm_80\nFunction : k\n/*0000*/ EXIT ;\n/*0010*/ BRA 0x10;\n"
        "/*0020*/ NOP;\n",
        ".target sm_90\n\t.size\t\tk,(.L_x_1 - k)\n.text.k:\n/*0000*/ EXIT ;\n"
        ".L_x_1:\n",
        ".target sm_90\n.text.k:\n/*0000*/ EXIT ;\n.L_x_0:\n"
        "/*0010*/ BRA `(.L_x_0);\n/*0020*/ NOP;\n.L_x_1:\n"
        "\t.section\t.nv.constant0.k,\"a\",@progbits\n",
        "code for sm_80\nFunction : k\n/*0000*/ EXIT ;\n/*0010*/ BRA 0x10;\n"
        "Function : j\n/*0000*/ EXIT ;\n/*0010*/ @PT BRA 0x10;\n",
    };
    (void)state;
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        struct ws_sass s;
        struct ws_err err;
        ws_err_clear(&err);
        if (ws_sass_parse_mem(&s, "l.sass", good[i], strlen(good[i]), NULL,
                              &err)
            < 0)
            fail_msg("case %zu: %s", i, err.text);
        ws_sass_free(&s);
    }
}

/* Every bundled listing cut after each of its lines: accepted only where
 * every function read so far is complete, i.e. never before the last
 * function's closing BRA. */
static void test_cut_bundled(void **state)
{
    static const char *const paths[] = {
        "traces/kernels/reduce/reduce.sm_80.sass",
        "traces/kernels/reduce/reduce.sm_90.nvdisasm",
        "tests/data/listings/reduce.sm_61.sass",
    };
    (void)state;
    for (size_t k = 0; k < sizeof paths / sizeof paths[0]; k++) {
        size_t len, cut_ok = 0, bra = 0;
        char *text = ws_test_read(paths[k], &len);
        struct ws_sass full = load(paths[k]);
        const struct ws_sass_func *f = &full.funcs[full.nfuncs - 1];
        /* The byte after the line holding the last non-NOP instruction. */
        for (uint32_t i = f->ninst; i-- > 0;) {
            if (strncmp(op(&full, &full.insts[f->first + i]), "NOP", 3) != 0) {
                long want = full.insts[f->first + i].line;
                for (size_t b = 0, line = 1; b < len; b++)
                    if (text[b] == '\n' && (long)line++ == want) {
                        bra = b + 1;
                        break;
                    }
                break;
            }
        }
        for (size_t b = 0; b < len; b++) {
            struct ws_sass s;
            struct ws_err err;
            if (text[b] != '\n')
                continue;
            ws_err_clear(&err);
            if (ws_sass_parse_mem(&s, "cut", text, b + 1, NULL, &err) == 0) {
                if (b + 1 < bra)
                    fail_msg("%s cut at byte %zu accepted", paths[k], b + 1);
                cut_ok++;
                ws_sass_free(&s);
            }
        }
        assert_true(bra > 0 && cut_ok > 0);
        ws_sass_free(&full);
        free(text);
    }
}

static void test_sniff(void **state)
{
    (void)state;
    assert_true(ws_sass_sniff("\tcode for sm_80\n", 15));
    assert_true(ws_sass_sniff("//---- .text.k ---\n", 19));
    assert_false(ws_sass_sniff("-kernel name = k\n", 17));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_operands),
        cmocka_unit_test(test_cuobjdump_sm80),
        cmocka_unit_test(test_nvdisasm_sm90),
        cmocka_unit_test(test_pre_volta),
        cmocka_unit_test(test_bad_listings),
        cmocka_unit_test(test_function_ends),
        cmocka_unit_test(test_cut_bundled),
        cmocka_unit_test(test_sniff),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
