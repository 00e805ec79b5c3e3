/*
 * Unit tests of the opcode table and of coalescing / bank-conflict counting
 * (sim/trace/ws_opcode.c, sim/mem/ws_coalesce.c).
 */
#include <string.h>

#include "mem/ws_coalesce.h"
#include "trace/ws_opcode.h"
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
            ws_opcode_class_name((enum ws_op_class)c)), c);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_sorted),
        cmocka_unit_test(test_lookup),
        cmocka_unit_test(test_width),
        cmocka_unit_test(test_class_names),
        cmocka_unit_test(test_coalesce),
        cmocka_unit_test(test_bank_conflicts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
