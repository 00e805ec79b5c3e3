/*
 * test_mem_l2: the L2 slices (mem/ws_l2.h) with DRAM stubbed: hit and miss
 * latency, the merge of a read with a fill in flight, MSHR capacity,
 * write-back with allocate and no fetch (a dirty victim goes to DRAM only
 * when evicted), and the input queue's back-pressure.  One slice, so
 * every line maps to it and set = line % sets.
 */
#include <math.h>

#include "mem/ws_l2.h"
#include "ws_memtest.h"

#define DRAM 1000 /* the stub's answer: taken + DRAM */

struct l2_fixture {
    struct ws_gpu g;
    struct ws_memtest_stub stub;
    struct ws_l2 l2;
    struct ws_counters ctr;
    uint64_t hit; /* a hit's time in the slice */
};

static void l2_setup(struct l2_fixture *f, const char *const *extra, int n)
{
    const char *sets[8] = {"l2.slices=1", "l2.size=64KiB"};
    int k = 2;

    for (int i = 0; i < n && k < 8; i++)
        sets[k++] = extra[i];
    memset(&f->ctr, 0, sizeof f->ctr);
    f->g = ws_memtest_gpu(sets, k);
    assert_int_equal(ws_l2_init(&f->l2, &f->g, ws_memtest_port(&f->stub, DRAM)),
                     0);
    f->hit = f->g.l2.latency - 2 * f->g.icnt.latency;
}

static uint64_t access_l2(struct l2_fixture *f, uint64_t line, uint8_t mask,
                          int op, uint64_t t, uint64_t *admitted)
{
    struct ws_line_req r = ws_memtest_req(line, mask, op, t, &f->ctr);
    uint64_t adm;

    return ws_l2_access(&f->l2, &r, admitted ? admitted : &adm);
}

static void test_l2_hit_and_miss(void **state)
{
    struct l2_fixture f;

    (void)state;
    l2_setup(&f, NULL, 0);
    assert_int_equal(access_l2(&f, 3, 0x1, WS_LINE_READ, 100, NULL),
                     100 + DRAM);
    assert_int_equal(f.stub.n, 1);
    assert_int_equal(f.stub.req[0].op, WS_LINE_READ);
    assert_int_equal(f.stub.req[0].mask, 0x1);
    assert_int_equal(f.stub.req[0].t, 100);
    assert_int_equal(access_l2(&f, 3, 0x1, WS_LINE_READ, 5000, NULL),
                     5000 + f.hit);
    assert_int_equal(f.stub.n, 1);
    assert_int_equal(f.ctr.v[WS_CTR_L2_SECTOR_HITS], 1);
    assert_int_equal(f.ctr.v[WS_CTR_L2_SECTOR_MISSES], 1);
    ws_l2_free(&f.l2);
}

/* A read of a sector being filled waits for the fill, without DRAM. */
static void test_l2_merge_in_flight(void **state)
{
    struct l2_fixture f;

    (void)state;
    l2_setup(&f, NULL, 0);
    assert_int_equal(access_l2(&f, 4, 0x3, WS_LINE_READ, 0, NULL), DRAM);
    assert_int_equal(access_l2(&f, 4, 0x1, WS_LINE_READ, 10, NULL), DRAM);
    assert_int_equal(f.stub.n, 1);
    assert_int_equal(f.ctr.v[WS_CTR_L2_SECTOR_IN_FLIGHT], 1);
    ws_l2_free(&f.l2);
}

/* With one MSHR, a second miss goes to DRAM when the first is back. */
static void test_l2_mshr_full(void **state)
{
    static const char *const one[] = {"l2.mshrs=1"};
    struct l2_fixture f;

    (void)state;
    l2_setup(&f, one, 1);
    access_l2(&f, 1, 0x1, WS_LINE_READ, 0, NULL);
    assert_int_equal(access_l2(&f, 2, 0x1, WS_LINE_READ, 10, NULL), 2 * DRAM);
    assert_int_equal(f.stub.req[1].t, DRAM);
    ws_l2_free(&f.l2);
}

/* A write allocates its sectors dirty without reading DRAM; they hit; the
 * line goes to DRAM (its dirty sectors only) when evicted. */
static void test_l2_write_back(void **state)
{
    struct l2_fixture f;
    uint64_t sets, w = 5;

    (void)state;
    l2_setup(&f, NULL, 0);
    sets = f.l2.slice[0].tags.sets;
    assert_int_equal(access_l2(&f, w, 0x6, WS_LINE_WRITE, 0, NULL), f.hit);
    assert_int_equal(f.stub.n, 0);
    assert_int_equal(access_l2(&f, w, 0x2, WS_LINE_READ, 100, NULL),
                     100 + f.hit);
    assert_int_equal(f.stub.n, 0);
    /* assoc more lines of w's set: the last one evicts w (LRU). */
    for (uint64_t k = 1; k <= f.g.l2.assoc; k++)
        access_l2(&f, w + k * sets, 0x1, WS_LINE_READ, 1000 + k, NULL);
    assert_int_equal(f.stub.n, f.g.l2.assoc + 1);
    for (unsigned i = 0; i < f.stub.n; i++)
        if (f.stub.req[i].op == WS_LINE_WRITE) {
            assert_int_equal(f.stub.req[i].line, w);
            assert_int_equal(f.stub.req[i].mask, 0x6);
            assert_int_equal(f.stub.req[i].src, 0);
            assert_int_equal(i, f.g.l2.assoc - 1); /* before the fill */
        }
    assert_int_equal(f.stub.req[f.g.l2.assoc - 1].op, WS_LINE_WRITE);
    ws_l2_free(&f.l2);
}

/* A slow slice (1 GB/s) and an input queue of 2: the fourth of four
 * requests arriving together is admitted only when the second starts
 * service, one sector time after the first. */
static void test_l2_input_queue_back_pressure(void **state)
{
    static const char *const slow[] = {"l2.input_queue=2",
                                       "l2.bandwidth=1GB/s"};
    struct l2_fixture f;
    uint64_t adm[4];

    (void)state;
    l2_setup(&f, slow, 2);
    for (unsigned i = 0; i < 4; i++)
        access_l2(&f, 10 + i, 0x1, WS_LINE_WRITE, 0, &adm[i]);
    assert_int_equal(adm[0], 0);
    assert_int_equal(adm[1], 0);
    assert_int_equal(adm[2], 0);
    assert_int_equal(adm[3], (uint64_t)ceil(f.l2.slice_cps - 1e-9));
    assert_true(f.l2.slice_cps > 10.0);
    ws_l2_free(&f.l2);
}

/* l2.fetch_granularity 64B: a miss of one sector fetches its aligned
 * 64-byte block, so its neighbour then hits without DRAM; a miss in a
 * block whose other half is there fetches only the missing sector; with
 * no granularity, the sector alone. */
static void test_l2_fetch_granularity(void **state)
{
    const char *gran[] = {"l2.fetch_granularity=64B"};
    struct l2_fixture f;

    (void)state;
    l2_setup(&f, gran, 1);
    assert_int_equal(access_l2(&f, 3, 0x4, WS_LINE_READ, 100, NULL),
                     100 + DRAM);
    assert_int_equal(f.stub.n, 1);
    assert_int_equal(f.stub.req[0].mask, 0xc); /* sectors 2 and 3 */
    assert_int_equal(access_l2(&f, 3, 0x8, WS_LINE_READ, 5000, NULL),
                     5000 + f.hit);
    assert_int_equal(f.stub.n, 1);
    assert_int_equal(f.ctr.v[WS_CTR_L2_SECTOR_MISSES], 1);
    assert_int_equal(f.ctr.v[WS_CTR_L2_SECTOR_HITS], 1);
    /* sectors 0 and 1 together are one block: one request of both */
    assert_int_equal(access_l2(&f, 3, 0x1, WS_LINE_READ, 6000, NULL),
                     6000 + DRAM);
    assert_int_equal(f.stub.req[1].mask, 0x3);
    ws_l2_free(&f.l2);
    l2_setup(&f, NULL, 0);
    access_l2(&f, 3, 0x4, WS_LINE_READ, 100, NULL);
    assert_int_equal(f.stub.req[0].mask, 0x4);
    ws_l2_free(&f.l2);
}

/* l2.far_latency: a hit on a line of its set's older half (rank 8..15
 * of 16 ways, LRU) is a far-partition hit; the newer half, near. */
static void test_l2_far_half(void **state)
{
    const char *far[] = {"l2.far_latency=600"};
    struct l2_fixture f;
    uint32_t sets;
    uint64_t t = 0, far_hit;

    (void)state;
    l2_setup(&f, far, 1);
    far_hit = 600 - 2 * f.g.icnt.latency;
    sets = f.l2.slice[0].tags.sets;
    for (uint64_t i = 0; i < 16; i++, t += 5000)
        access_l2(&f, i * sets, 0x1, WS_LINE_READ, t, NULL);
    /* line 15 * sets is the newest (rank 0), line 0 the oldest (rank 15) */
    assert_int_equal(access_l2(&f, 15 * sets, 0x1, WS_LINE_READ, t, NULL),
                     t + f.hit);
    t += 5000;
    assert_int_equal(access_l2(&f, 0, 0x1, WS_LINE_READ, t, NULL), t + far_hit);
    t += 5000;
    /* now line 0 is the newest: near again; line 8 * sets has rank 8 */
    assert_int_equal(access_l2(&f, 0, 0x1, WS_LINE_READ, t, NULL), t + f.hit);
    t += 5000;
    assert_int_equal(access_l2(&f, 8 * sets, 0x1, WS_LINE_READ, t, NULL),
                     t + far_hit);
    t += 5000;
    /* newest first: 8, 0, 15, 14, 13, 12, 11, 10 (rank 7), 9 (rank 8) */
    assert_int_equal(access_l2(&f, 10 * sets, 0x1, WS_LINE_READ, t, NULL),
                     t + f.hit);
    t += 5000;
    assert_int_equal(access_l2(&f, 9 * sets, 0x1, WS_LINE_READ, t, NULL),
                     t + far_hit);
    ws_l2_free(&f.l2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_l2_hit_and_miss),
        cmocka_unit_test(test_l2_fetch_granularity),
        cmocka_unit_test(test_l2_far_half),
        cmocka_unit_test(test_l2_merge_in_flight),
        cmocka_unit_test(test_l2_mshr_full),
        cmocka_unit_test(test_l2_write_back),
        cmocka_unit_test(test_l2_input_queue_back_pressure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
