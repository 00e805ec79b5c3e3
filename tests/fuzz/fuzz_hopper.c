/*
 * libFuzzer target: Hopper workload descriptions (tensors, tma, mbarriers,
 * clusters) expanded over the bundled TMA + wgmma GEMM listing and then
 * simulated on the H100 config, so that fuzzed boxes, immediates and
 * cluster launches reach the timing model's mbarriers, copy engine and
 * cluster scheduling.  Launches are capped (8 CTAs, 200,000 warp
 * instructions) to keep each input fast; a deadlock is an error, not a
 * hang.
 */
#include <stdint.h>
#include <stdio.h>

#include "config/ws_config.h"
#include "timing/ws_sim.h"
#include "trace/ws_traceg.h"
#include "workload/ws_expand.h"
#include "fuzz_tmp.h"

#ifndef WS_SOURCE_DIR
#define WS_SOURCE_DIR "."
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_hopper_simulate(struct ws_workload *w)
{
    static struct ws_gpu gpu;
    static int have_gpu;
    struct ws_expander x;
    struct ws_cta_source src;
    struct ws_kernel_stats st;
    struct ws_sim sim;
    struct ws_err err;

    ws_err_clear(&err);
    if (!have_gpu) {
        if (ws_cfg_load(&gpu, "h100", NULL, 0, &err) < 0)
            return;
        have_gpu = 1;
    }
    if (ws_expand_init(&x, w, &err) < 0)
        return;
    src = ws_expand_source(&x);
    if (ws_sim_init(&sim, &gpu, NULL, &err) == 0) {
        if (ws_sim_kernel(&sim, &src, &st, &err) == 0 || st.name)
            ws_kernel_stats_free(&st);
        ws_sim_close_readers(&sim);
        ws_sim_free(&sim);
    }
    ws_expand_free(&x);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *listing = WS_SOURCE_DIR
        "/traces/kernels/hopper/gemm_tma_wgmma.sm_90a.sass";
    char path[64];
    struct ws_workload w;
    struct ws_trace_opts opts;
    struct ws_err err;

    if (fuzz_tmp_write("hopper", data, size, path, sizeof path) < 0)
        return 0;
    ws_trace_opts_default(&opts);
    opts.max_ctas = 8;
    opts.max_insts = 200000;
    ws_err_clear(&err);
    if (ws_workload_load(&w, path, NULL, 0, listing, &opts, &err) == 0) {
        fuzz_hopper_simulate(&w);
        ws_workload_free(&w);
    }
    remove(path);
    return 0;
}
