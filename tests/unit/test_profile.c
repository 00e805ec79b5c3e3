/*
 * Unit tests of the kernel profile (model/ws_profile.c) on bundled traces,
 * against counts derived by hand from the kernels' source logic (see
 * traces/accelsim/generate.py), not from the reader.
 */
#include <string.h>

#include "trace/ws_traceg.h"
#include "ws_model_params.h"
#include "ws_profile.h"
#include "ws_test.h"

static void profile_of(const char *path, struct ws_profile *p)
{
    struct ws_gpu gpu;
    struct ws_err err;
    struct ws_traceg *r;
    const struct ws_cta_stream *cta;
    int rc;

    ws_err_clear(&err);
    assert_int_equal(ws_cfg_load(&gpu, NULL, NULL, 0, &err), 0);
    if (ws_traceg_open(&r, path, NULL, &err) < 0)
        fail_msg("%s", err.text);
    assert_int_equal(ws_profile_init(p, ws_traceg_launch(r), &gpu), 0);
    while ((rc = ws_traceg_next_cta(r, &cta, &err)) == 1)
        ws_profile_add_cta(p, cta, ws_traceg_opcodes(r));
    assert_int_equal(rc, 0);
    ws_traceg_close(r);
}

/* reduce, n = 1000, 256 threads: 4 CTAs of 8 warps.  Per warp: 12
 * prologue instructions, 8 loop trips (k = 128..1) of 10, then 2; thread 0's
 * warp adds 5 (LDS, 2 MOV, RED, EXIT). */
static void test_reduce(void **state)
{
    struct ws_profile p;
    const struct ws_space_stats *sh, *gl;
    uint64_t off_per_cta = 0;

    (void)state;
    profile_of("traces/accelsim/multi/kernel-2.traceg.xz", &p);
    assert_int_equal(p.ctas, 4);
    assert_int_equal(p.warps, 32);
    assert_int_equal(p.warp_insts, 4 * (8 * (12 + 8 * 10 + 2) + 5));
    assert_int_equal(p.by_class[WS_OPC_BARRIER], 4 * 8 * (1 + 8));
    sh = &p.space[WS_SPACE_SHARED];
    /* STS + 3 shared accesses per trip per warp, + thread 0's LDS. */
    assert_int_equal(sh->insts, 4 * (8 * (1 + 8 * 3) + 1));
    /* Trip k is predicated off for warps with no thread t < k. */
    for (unsigned k = 128; k >= 1; k /= 2)
        off_per_cta += 3 * (8 - (k + 31) / 32);
    assert_int_equal(sh->predicated_off, 4 * off_per_cta);
    /* s[t] and s[t + k] are unit-stride: never a bank conflict. */
    assert_int_equal(sh->wavefronts, sh->insts - sh->predicated_off);
    gl = &p.space[WS_SPACE_GLOBAL];
    assert_int_equal(gl->atomics, 4);
    assert_int_equal(gl->loads, 32);
    /* 31 full loads of 4 sectors, one of 8 lanes in one sector, 4 REDs. */
    assert_int_equal(gl->sectors, 31 * 4 + 1 + 4);
    assert_int_equal(gl->bytes, 4 * 1000 + 4 * 4);
    ws_profile_free(&p);
}

/* vecadd, n = 4010: 125 full warps, one of 10 lanes, two that exit. */
static void test_vecadd(void **state)
{
    struct ws_profile p;
    const struct ws_space_stats *gl;

    (void)state;
    profile_of("traces/accelsim/vecadd/kernel-1.traceg", &p);
    gl = &p.space[WS_SPACE_GLOBAL];
    assert_int_equal(gl->insts, 3 * 126);
    assert_int_equal(gl->loads, 2 * 126);
    assert_int_equal(gl->stores, 126);
    assert_int_equal(gl->sectors, 3 * (125 * 4 + 2));
    assert_int_equal(gl->lines, 3 * 126);
    assert_int_equal(gl->lanes, 3 * 4010);
    assert_int_equal(p.unknown_insts, 0);
    /* Five full-mask instructions before the bounds check everywhere; the
     * EXIT carries the lanes that leave (22 in the partial warp, all 32 in
     * the two idle warps); nine more for the lanes that stay. */
    assert_int_equal(p.thread_insts,
                     128 * 5 * 32 + (32 - 10) + 2 * 32 + 125 * 9 * 32 + 9 * 10);
    ws_profile_free(&p);
}

/* The bundled saxpy workload, expanded at the given parameters, profiled
 * on the default GPU. */
static void profile_workload(const char *const *sets, int nsets,
                             struct ws_profile *p, struct ws_gpu *gpu)
{
    ws_test_profile("traces/kernels/saxpy/workload.yaml", NULL, sets, nsets, p,
                    gpu);
}

/* Wang & Lou's worked example (their section 3.3): saxpy has "3 memory
 * instructions out of a total of 15 instructions" and
 * First_comp_period_insts = 10, on Maxwell.  The bundled sm_80 listing has
 * one more instruction before the first load, ULDC.64 (the uniform
 * datapath's load of the global-memory descriptor, sm_75 on; Maxwell has
 * no uniform datapath), so 16 instructions, 3 of them memory, 11 before
 * the first: the same kernel, one compiler generation later. */
static void test_saxpy_worked_example(void **state)
{
    static const char *const sets[] = {"n=4096"};
    struct ws_profile p;
    struct ws_gpu gpu;
    struct ws_mwp_params mwp;

    (void)state;
    profile_workload(sets, 1, &p, &gpu);
    assert_int_equal(p.warps, 128);
    assert_int_equal(p.warp_insts, 128 * 16);
    assert_int_equal(p.model.mem_insts, 128 * 3);
    assert_int_equal(p.model.coal_insts, 128 * 3);
    assert_int_equal(p.model.first_comp_insts, 128 * 11);
    assert_int_equal(p.model.warp_insts_min, 16);
    assert_int_equal(p.model.warp_insts_max, 16);
    ws_model_params_mwp(&p, &gpu, &mwp);
    assert_true(mwp.comp_insts == 13 && mwp.coal_insts == 3);
    assert_true(mwp.first_comp_period_insts == 11);
    /* A coalesced warp moves 32 x 4 bytes in 4 sectors: one 128-byte
     * block, the papers' transaction; saxpy loads its two arrays once
     * each: no reuse. */
    assert_true(mwp.transaction_bytes == 128);
    assert_true(mwp.coal_per_mw == 1 && mwp.load_bytes_per_warp == 128);
    assert_true(mwp.l2_hit_rate == 0);
    ws_profile_free(&p);
}

/* The seed's uncoalesced case: a stride of 4 floats spreads a warp's 32
 * accesses over 4 128-byte blocks (Wang & Lou's count, section 3.2: "the
 * x[i*4] will span ... 4 memory blocks"), 16 sectors of them, so x and y's
 * loads and y's store are uncoalesced, and each moves 16 x 32 = 512
 * bytes. */
static void test_saxpy_stride4(void **state)
{
    static const char *const sets[] = {"n=4096", "stride=4"};
    struct ws_profile p;
    struct ws_gpu gpu;
    struct ws_mwp_params mwp;

    (void)state;
    profile_workload(sets, 2, &p, &gpu);
    ws_model_params_mwp(&p, &gpu, &mwp);
    assert_true(mwp.uncoal_insts == 3 && mwp.coal_insts == 0);
    assert_true(mwp.uncoal_per_mw == 4);
    assert_true(mwp.load_bytes_per_warp == 512);
    ws_profile_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reduce),
        cmocka_unit_test(test_vecadd),
        cmocka_unit_test(test_saxpy_worked_example),
        cmocka_unit_test(test_saxpy_stride4),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
