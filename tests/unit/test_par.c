/*
 * test_par: the worker pool (timing/ws_par.h) runs every item of every
 * job exactly once, jobs of any size one after another (the simulator
 * starts one per cycle), with the caller's writes before a job seen by
 * the items and the items' writes seen when it returns; one thread asks
 * for no pool, and 0 threads means one per core.
 */
#include <stdatomic.h>
#include <string.h>

#include "timing/ws_par.h"
#include "ws_test.h"

#define TEST_PAR_ITEMS 300

struct test_job {
    uint32_t runs[TEST_PAR_ITEMS]; /* each item's own slot */
    uint64_t input;                /* written by the caller before a job */
    uint64_t seen[TEST_PAR_ITEMS];
    atomic_uint total;
};

static void test_par_item(void *ctx, uint32_t i)
{
    struct test_job *j = ctx;

    j->runs[i]++;
    j->seen[i] = j->input + i;
    atomic_fetch_add(&j->total, 1);
}

static void test_par_jobs(unsigned threads)
{
    static struct test_job job;
    struct ws_par *p = ws_par_start(threads);
    const uint32_t sizes[] = {0, 1, 2, 3, 7, 64, TEST_PAR_ITEMS};

    assert_non_null(p);
    for (uint32_t round = 0; round < 2000; round++) {
        uint32_t n = sizes[round % (sizeof sizes / sizeof sizes[0])];
        memset(job.runs, 0, sizeof job.runs);
        atomic_store(&job.total, 0);
        job.input = (uint64_t)round << 20;
        ws_par_for(p, n, test_par_item, &job);
        assert_int_equal(atomic_load(&job.total), n);
        for (uint32_t i = 0; i < TEST_PAR_ITEMS; i++) {
            assert_int_equal(job.runs[i], i < n ? 1 : 0);
            if (i < n)
                assert_int_equal(job.seen[i], job.input + i);
        }
    }
    ws_par_stop(p);
}

static void test_par_two(void **state)
{
    (void)state;
    test_par_jobs(2);
}

/* More threads than this machine may have cores: still every item once,
 * and no job waits on a worker that took nothing. */
static void test_par_many(void **state)
{
    (void)state;
    test_par_jobs(8);
}

static void test_par_counts(void **state)
{
    (void)state;
    assert_null(ws_par_start(1));
    assert_null(ws_par_start(0));
    assert_true(ws_par_threads(0) >= 1);
    assert_int_equal(ws_par_threads(3), 3);
    ws_par_stop(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_par_two),
        cmocka_unit_test(test_par_many),
        cmocka_unit_test(test_par_counts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
