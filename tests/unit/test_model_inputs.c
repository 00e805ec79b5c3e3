/*
 * Unit tests of the models' inputs as their papers define them
 * (model/ws_model_params.c, model/ws_flops.c), each against a count worked
 * by hand from the bundled kernels' listings and the configs' numbers in
 * the comment beside it: bytes moved, the transaction unit, Issue_cycles
 * of the SM and of one warp, FP64 at its own rate, TMM's threads per
 * core, eq 4 with allocation granules, the span in time steps, the
 * roofline's DRAM bytes, pipes and occupied SMs, the operations of tensor
 * instructions, and the elasticities.
 */
#include <math.h>
#include <string.h>

#include "config/ws_occupancy.h"
#include "ws_flops.h"
#include "ws_model_params.h"
#include "ws_profile.h"
#include "ws_test.h"

static void profile(const char *path, const char *gpu, const char *const *sets,
                    int nsets, struct ws_profile *p, struct ws_gpu *g)
{
    ws_test_profile(path, gpu, sets, nsets, p, g);
}

#define SAXPY "traces/kernels/saxpy/workload.yaml"

/* saxpy's listing (sm_80): 16 instructions a warp, three of them memory
 * (LDG, LDG, STG), none a barrier: #Total_insts = 13 + 3 = 16.  On V100
 * a sub-core issues one a cycle, and the busiest pipe is LD/ST, 3 x 4
 * (8 lanes: 32/8 cycles a warp) = 12 < 16: one warp's period is its 16
 * issue slots, Issue_cycles_warp = 16/16 = 1, and the SM's four
 * sub-cores share the work of many warps: Issue_cycles = 16/4/16 = 0.25.
 * Hong & Kim's GPU issued one warp instruction in 4 cycles on its one
 * scheduler: both numbers were 4 there. */
static void test_issue_cycles(void **state)
{
    static const char *const sets[] = {"n=4096"};
    struct ws_profile p;
    struct ws_gpu g;
    struct ws_mwp_params m;

    (void)state;
    profile(SAXPY, "v100", sets, 1, &p, &g);
    ws_model_params_mwp(&p, &g, &m);
    ws_test_near(m.comp_insts + m.coal_insts + m.uncoal_insts, 16, "total");
    ws_test_near(m.issue_cycles_warp, 1, "Issue_cycles_warp");
    ws_test_near(m.issue_cycles, 0.25, "Issue_cycles");
    ws_profile_free(&p);
}

/* FP64 at the FP64 rate: TITAN X has one FP64 lane a sub-core, so a DFMA
 * holds its pipe 32 cycles, and the naive matmul (one DFMA per k, a
 * handful of other instructions) is bound by it: one warp's period is 32
 * cycles per DFMA, Comp_cycles = Issue_cycles_warp x #Total_insts = 32 x
 * its DFMAs. */
static void test_fp64_rate(void **state)
{
    static const char *const sets[] = {"n=64"};
    struct ws_profile p;
    struct ws_gpu g;
    struct ws_mwp_params m;
    double total, dfma;

    (void)state;
    profile("traces/kernels/matmul/baseline.yaml", "titanx", sets, 1, &p, &g);
    ws_model_params_mwp(&p, &g, &m);
    total = m.comp_insts + m.coal_insts + m.uncoal_insts;
    dfma = (double)p.by_class[WS_OPC_FP64] / (double)p.warps;
    assert_true(dfma >= 64);
    ws_test_near(m.issue_cycles_warp * total, 32 * dfma, "Comp_cycles");
    ws_test_near(m.issue_cycles * total, 32 * dfma / 4, "Comp_cycles_SM");
    ws_profile_free(&p);
}

/* Strides 8 and 16 on TITAN X: each lane of a 32-lane load reads 4 bytes
 * 32 (stride 8) or 64 (stride 16) bytes from its neighbour, so each moves
 * one 32-byte sector: 32 sectors, 1024 bytes moved either way (the 128
 * requested are the old input, the same at every stride).  In the papers'
 * 128-byte blocks they span 32 x 32 / 128 = 8 and 32 x 64 / 128 = 16
 * blocks: #Uncoal_per_mw differs, and so do Mem_L_Uncoal (eq 11), the
 * departure delay (eq 15) and the prediction. */
static void test_saxpy_strides(void **state)
{
    static const char *const s8[] = {"n=4096", "stride=8"};
    static const char *const s16[] = {"n=4096", "stride=16"};
    struct ws_profile p8, p16;
    struct ws_gpu g;
    struct ws_mwp_params m8, m16;
    struct ws_model_result r8, r16;

    (void)state;
    profile(SAXPY, "titanx", s8, 2, &p8, &g);
    profile(SAXPY, "titanx", s16, 2, &p16, &g);
    ws_model_params_mwp(&p8, &g, &m8);
    ws_model_params_mwp(&p16, &g, &m16);
    ws_test_near(m8.transaction_bytes, 128, "transaction");
    ws_test_near(m8.uncoal_per_mw, 8, "#Uncoal_per_mw stride 8");
    ws_test_near(m16.uncoal_per_mw, 16, "#Uncoal_per_mw stride 16");
    ws_test_near(m8.load_bytes_per_warp, 1024, "bytes moved stride 8");
    ws_test_near(m16.load_bytes_per_warp, 1024, "bytes moved stride 16");
    assert_int_equal(ws_model_mwp(&m8, &r8), 1);
    assert_int_equal(ws_model_mwp(&m16, &r16), 1);
    assert_true(r16.cycles > r8.cycles * 1.05);
    ws_profile_free(&p8);
    ws_profile_free(&p16);
}

/* The FP32 throughput kernel stores and never loads: one coalesced STG
 * per warp, 32 x 4 bytes in 4 sectors (one block).  Stores move bytes
 * too, so Load_bytes_per_warp = 128 and MWP/CWP predicts it, where
 * counting loads alone left eq 6 dividing by zero. */
static void test_store_only(void **state)
{
    struct ws_profile p;
    struct ws_gpu g;
    struct ws_mwp_params m;
    struct ws_model_result r;

    (void)state;
    profile("traces/kernels/fma/workload.yaml", "v100", NULL, 0, &p, &g);
    ws_model_params_mwp(&p, &g, &m);
    ws_test_near(m.coal_insts, 1, "#Coal_Mem_insts");
    ws_test_near(m.coal_per_mw, 1, "#Coal_per_mw");
    ws_test_near(m.load_bytes_per_warp, 128, "Load_bytes_per_warp");
    assert_int_equal(ws_model_mwp(&m, &r), 1);
    assert_true(r.cycles > 0);
    ws_profile_free(&p);
}

/* One 32-thread CTA per SM (24 on TITAN X): eq 4 allows B_a = min(32
 * blocks, 2048/32 = 64 by threads, 65536 / 512 = 128 by registers: 10
 * registers x 32 rounded up to the 256-register granule) = 32, and T =
 * B_a x T_r / Q = 32 x 32 / 128 = 8 threads per core.  f_sched charges
 * the empty slots (32 x 24 / 24 = 32 once); T counted from the 24 CTAs
 * there are (1 x 32 / 128 = 0.25) would charge them a second time. */
static void test_tmm_threads(void **state)
{
    static const char *const sets[] = {"threads=32", "n=768"};
    struct ws_profile p;
    struct ws_gpu g;
    struct ws_tmm_params t;
    struct ws_model_result r;

    (void)state;
    profile(SAXPY, "titanx", sets, 2, &p, &g);
    ws_model_params_tmm(&p, &g, &t);
    ws_test_near(t.q, 128, "Q");
    ws_test_near(t.t, 8, "T");
    assert_int_equal(ws_model_tmm(&t, &r), 1);
    ws_test_model_var(&r, "B_a", 32, -1);
    ws_test_model_var(&r, "f_sched", 32, -1);
    ws_profile_free(&p);
}

/* matmul prefetch on V100: 46 registers a thread, 128 threads.  Eq 4 as
 * printed: 65536 / (46 x 128) = 11.1, 11 blocks; with the 256-register
 * granule a warp holds 1536 (46 x 32 = 1472 rounded up), a block 6144,
 * and 65536 / 6144 = 10.7: 10, what the simulation's occupancy allows. */
static void test_tmm_granules(void **state)
{
    static const char *const sets[] = {"n=128"};
    struct ws_profile p;
    struct ws_gpu g;
    struct ws_tmm_params t;
    struct ws_occupancy occ;
    int lim;

    (void)state;
    profile("traces/kernels/matmul/prefetch.yaml", "v100", sets, 1, &p, &g);
    ws_model_params_tmm(&p, &g, &t);
    ws_test_near(t.r_t, 46, "R_T");
    ws_test_near(ws_model_tmm_blocks(&t, &lim), 10, "B_a");
    assert_int_equal(lim, 1);
    ws_occupancy_compute(&g, &p.launch, &occ);
    assert_int_equal(occ.ctas_per_sm, 10);
    t.reg_unit = 0;
    ws_test_near(ws_model_tmm_blocks(&t, &lim), 11, "B_a without granules");
    ws_profile_free(&p);
}

/* The chase's span in TMM's time steps: before the loop, HFMA2.MMA and
 * MOV write R3 (2 steps); each hop is IMAD.WIDE (R2 from R3, 1 step) and
 * the LDG that reloads R3 (L = 408 steps on V100), 409 a hop; the STG
 * of R3 adds 1: 3 + 256 x 409 = 104707. */
static void test_span_steps(void **state)
{
    static const char *const sets[] = {"hops=256"};
    struct ws_profile p;
    struct ws_gpu g;
    struct ws_tmm_params t;

    (void)state;
    profile("traces/kernels/pchase/workload.yaml", "v100", sets, 1, &p, &g);
    ws_model_params_tmm(&p, &g, &t);
    ws_test_near(t.t_inf, 3 + 256.0 * (408 + 1), "T_inf");
    ws_profile_free(&p);
}

/* saxpy at n = 4096 on V100 (16 CTAs): x and y are read once each, 4096 x
 * 4 bytes apiece, and y is written after it is read, so both must come
 * from DRAM: 32768 bytes (y counted too, where "read and never written"
 * left it out).  The 16 KiB written stay in the 6 MiB L2.  The SM ports
 * carry the 1024 distinct sectors read one way and the 512 written the
 * other: 32768 bytes at 16 SMs x 64 bytes a cycle.  FP32 peak of the 16
 * occupied SMs: 16 x 4 sub-cores x 32 lanes x 2 / 2 cycles = 2048 a
 * cycle. */
static void test_roofline_inputs(void **state)
{
    static const char *const sets[] = {"n=4096"};
    struct ws_profile p;
    struct ws_gpu g;
    struct ws_roofline_params r;

    (void)state;
    profile(SAXPY, "v100", sets, 1, &p, &g);
    ws_model_params_roofline(&p, &g, 0, &r);
    ws_test_near(r.dram_bytes, 32768, "dram_bytes");
    ws_test_near(r.port_bytes, 32768, "port_bytes");
    ws_test_near(r.port_bw, 16 * 88.32 / 1.38, "port_bw");
    ws_test_near(r.peak_flops, 2048, "peak_flops");
    ws_test_near(r.flops, 2 * 4096, "flops");
    ws_profile_free(&p);
}

/* Operations per instruction: an FMA is two per lane, a packed half2 FMA
 * four, a half2 compare one per half; a tensor instruction its shape's
 * 2mnk (HMMA.16816: 2 x 16 x 8 x 16 = 4096; Volta's HMMA.884 step 512;
 * IMMA.8816 2048), a warpgroup's a quarter of it for each of its four
 * warps (HGMMA.64x256x16: 2 x 64 x 256 x 16 / 4 = 131072). */
static void test_flops(void **state)
{
    struct ws_flops f;

    (void)state;
    ws_flops_of("FFMA", WS_OPC_FP32, &f);
    assert_true(f.kind == WS_FLOP_FP32 && f.per_lane == 2 && f.fma);
    ws_flops_of("FADD.FTZ", WS_OPC_FP32, &f);
    assert_true(f.per_lane == 1 && !f.fma);
    ws_flops_of("HFMA2", WS_OPC_FP16, &f);
    assert_true(f.kind == WS_FLOP_FP16 && f.per_lane == 4);
    ws_flops_of("HSETP2.GT.AND", WS_OPC_FP16, &f);
    assert_true(f.per_lane == 1);
    ws_flops_of("DFMA.RM", WS_OPC_FP64, &f);
    assert_true(f.kind == WS_FLOP_FP64 && f.per_lane == 2);
    ws_flops_of("HMMA.16816.F32", WS_OPC_TENSOR, &f);
    assert_true(f.kind == WS_FLOP_TENSOR && f.per_warp == 4096);
    ws_flops_of("HMMA.884.F32.F32.STEP0", WS_OPC_TENSOR, &f);
    assert_true(f.per_warp == 512);
    ws_flops_of("IMMA.8816.S8.S8", WS_OPC_TENSOR, &f);
    assert_true(f.per_warp == 2048);
    ws_flops_of("HGMMA.64x256x16.F32.BF16", WS_OPC_TENSOR, &f);
    assert_true(f.per_warp == 131072);
    ws_flops_of("HMMA.STRANGE", WS_OPC_TENSOR, &f);
    assert_true(f.kind == WS_FLOP_TENSOR && f.per_warp == 0);
    ws_flops_of("IADD3", WS_OPC_INT, &f);
    assert_true(f.kind == WS_FLOP_NONE);
}

/* Hong & Kim's worked example: #Total = Exec + Synch_cost with MWP bound
 * by Mem_L / Departure_delay (Mem_L = Mem_LD + 310, Departure_delay 320):
 * Exec = 6 x Mem_L x 20 / MWP + 22 x (MWP - 1) = 38400 + 22 x (Mem_L/320
 * - 1), Synch_cost = 320 x (MWP - 1) x 30 = 30 x (Mem_L - 320).  So
 * dTotal/dMem_LD = 22/320 + 30 = 30.06875 and the elasticity is 30.06875 x
 * 420 / 50728.1875 = 0.24895; Freq and Mem_Bandwidth do not bind (0). */
static void test_elasticity(void **state)
{
    struct ws_mwp_params m;
    union ws_model_params in;
    struct ws_model_result r;
    double want = 30.06875 * 420 / 50728.1875;
    int found = 0;

    (void)state;
    memset(&m, 0, sizeof m);
    m.freq_ghz = 1;
    m.mem_bw_gbs = 80;
    m.mem_ld = 420;
    m.departure_del_uncoal = 10;
    m.uncoal_per_mw = 32;
    m.load_bytes_per_warp = 128;
    m.active_sms = 16;
    m.issue_cycles = 4;
    m.comp_insts = 27;
    m.uncoal_insts = 6;
    m.synch_insts = 6;
    m.threads_per_block = 128;
    m.blocks = 80;
    m.active_blocks_per_sm = 5;
    memset(&in, 0, sizeof in);
    memcpy(&in, &m, sizeof m);
    ws_model_eval(&ws_model_mwp_def, &in, &r);
    ws_test_near(r.cycles, 50728.1875, "Total");
    for (int i = 0; i < r.nelast; i++) {
        if (strcmp(r.elast[i].name, "mem_ld") == 0) {
            assert_true(fabs(r.elast[i].value - want) < 1e-3);
            found = 1;
        }
        if (strcmp(r.elast[i].name, "freq_ghz") == 0
            || strcmp(r.elast[i].name, "mem_bw_gbs") == 0)
            assert_true(fabs(r.elast[i].value) < 1e-9);
    }
    assert_true(found);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_issue_cycles),
        cmocka_unit_test(test_fp64_rate),
        cmocka_unit_test(test_saxpy_strides),
        cmocka_unit_test(test_store_only),
        cmocka_unit_test(test_tmm_threads),
        cmocka_unit_test(test_tmm_granules),
        cmocka_unit_test(test_span_steps),
        cmocka_unit_test(test_roofline_inputs),
        cmocka_unit_test(test_flops),
        cmocka_unit_test(test_elasticity),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
