/*
 * Unit tests of sim/run/ws_run.c: `warpsim run` as a library call.  A
 * bundled trace runs through ws_run_input with the probed default GPU
 * and gives the numbers `warpsim run` prints for it (tests/golden/
 * run_multi.out and run_kernel_id.out: cycles per kernel, warp
 * instructions, the total); a selection picks its kernel, one that picks
 * none is an error at the selection, and a listing alone is refused.
 */
#include <string.h>

#include "config/ws_config.h"
#include "run/ws_run.h"
#include "stats/ws_stats.h"
#include "timing/ws_probe.h"
#include "ws_test.h"

static struct ws_gpu ws_test_gpu;

static int setup_gpu(void **state)
{
    struct ws_err err;

    (void)state;
    ws_err_clear(&err);
    if (ws_cfg_load(&ws_test_gpu, NULL, NULL, 0, &err) < 0)
        fail_msg("%s", err.text);
    /* As the command: the models take the probe's departure delays. */
    ws_probe_model(&ws_test_gpu, &err);
    return 0;
}

static void request_init(struct ws_run_request *rq, const char *input)
{
    memset(rq, 0, sizeof *rq);
    rq->input = input;
    rq->gpu = &ws_test_gpu;
    ws_trace_opts_default(&rq->params.opts);
    rq->params.opts.unknown_class = ws_test_gpu.unknown_class;
}

static void test_run_multi(void **state)
{
    struct ws_run_request rq;
    struct ws_run_report rep;
    struct ws_err err;
    uint64_t insts = 0;

    (void)state;
    ws_err_clear(&err);
    request_init(&rq, "traces/accelsim/multi");
    if (ws_run_input(&rq, &rep, &err) < 0)
        fail_msg("%s", err.text);
    assert_int_equal(rep.nkernels, 3);
    assert_string_equal(rep.kernels[0].name, "_Z6vecAddPKfS0_Pfi");
    assert_int_equal(rep.kernels[0].ctr.v[WS_CTR_CYCLES], 810);
    assert_int_equal(rep.kernels[1].ctr.v[WS_CTR_CYCLES], 763);
    for (size_t i = 0; i < rep.nkernels; i++) {
        insts += rep.kernels[i].ctr.v[WS_CTR_INST];
        assert_true(rep.kernels[i].nmodels > 0);
    }
    assert_int_equal(rep.total_cycles, 7728);
    assert_int_equal(insts, 3530);
    assert_ptr_equal(rep.gpu, &ws_test_gpu);
    ws_run_free(&rep);
    assert_null(rep.kernels);
}

static void test_run_select(void **state)
{
    struct ws_run_request rq;
    struct ws_run_report rep;
    struct ws_run_select sel;
    struct ws_err err;

    (void)state;
    ws_err_clear(&err);
    memset(&sel, 0, sizeof sel);
    sel.by_id = 1;
    sel.id = 2;
    sel.given = "2";
    request_init(&rq, "traces/accelsim/multi");
    rq.sel = &sel;
    if (ws_run_input(&rq, &rep, &err) < 0)
        fail_msg("%s", err.text);
    assert_int_equal(rep.nkernels, 1);
    assert_int_equal(rep.kernels[0].launch.id, 2);
    assert_int_equal(rep.kernels[0].ctr.v[WS_CTR_CYCLES], 975);
    ws_run_free(&rep);

    sel.id = 99;
    sel.given = "99";
    assert_int_equal(ws_run_input(&rq, &rep, &err), -1);
    assert_null(rep.kernels);
    assert_non_null(strstr(err.text, "no kernel of traces/accelsim/multi "
                                     "has launch id '99'"));
}

static void test_run_listing_refused(void **state)
{
    struct ws_run_request rq;
    struct ws_run_report rep;
    struct ws_err err;

    (void)state;
    ws_err_clear(&err);
    request_init(&rq, "traces/kernels/reduce/reduce.sm_80.sass");
    assert_int_equal(ws_run_input(&rq, &rep, &err), -1);
    ws_test_err(&err, "traces/kernels/reduce/reduce.sm_80.sass", 1,
                "no dynamic instruction stream to simulate");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_run_multi),
        cmocka_unit_test(test_run_select),
        cmocka_unit_test(test_run_listing_refused),
    };
    return cmocka_run_group_tests(tests, setup_gpu, NULL);
}
