/*
 * test_mem_l1: one SM's L1 (mem/ws_l1.h) with the level below stubbed (a
 * port that records requests and answers a fixed time after taking them):
 * hit and miss latency, the MSHR merge of a second request for a sector
 * in flight, write-through without allocate, the miss queue's
 * back-pressure stalling the tag pipe, and the question whether a load
 * would hit, which must change nothing.
 */
#include "mem/ws_l1.h"
#include "ws_memtest.h"

#define BELOW 300 /* the stub's answer: taken + BELOW */

struct l1_fixture {
    struct ws_gpu g;
    struct ws_memtest_stub stub;
    struct ws_l1 l1;
    struct ws_counters ctr;
};

static void l1_setup(struct l1_fixture *f, const char *const *sets, int n)
{
    memset(&f->ctr, 0, sizeof f->ctr);
    f->g = ws_memtest_gpu(sets, n);
    assert_int_equal(ws_l1_init(&f->l1, &f->g,
                                ws_memtest_port(&f->stub, BELOW)),
                     0);
}

static uint64_t load(struct l1_fixture *f, uint64_t line, uint8_t mask,
                     uint64_t t)
{
    struct ws_line_req r = ws_memtest_req(line, mask, WS_LINE_READ, t, &f->ctr);

    return ws_l1_load(&f->l1, &r, 1);
}

static uint64_t store(struct l1_fixture *f, uint64_t line, uint8_t mask,
                      uint64_t t)
{
    struct ws_line_req r = ws_memtest_req(line, mask, WS_LINE_WRITE, t,
                                          &f->ctr);

    return ws_l1_store(&f->l1, &r);
}

static void test_l1_hit_and_miss(void **state)
{
    static const char *const sets[] = {"l1.latency=30"};
    struct l1_fixture f;

    (void)state;
    l1_setup(&f, sets, 1);
    /* A miss goes below at once and is back when the stub answers. */
    assert_int_equal(load(&f, 5, 0x1, 100), 100 + BELOW);
    assert_int_equal(f.stub.n, 1);
    assert_int_equal(f.stub.req[0].line, 5);
    assert_int_equal(f.stub.req[0].mask, 0x1);
    assert_int_equal(f.stub.req[0].op, WS_LINE_READ);
    assert_int_equal(f.stub.req[0].t, 100);
    /* Afterwards the sector hits: l1.latency, nothing below. */
    assert_int_equal(load(&f, 5, 0x1, 1000), 1030);
    assert_int_equal(f.stub.n, 1);
    assert_int_equal(f.ctr.v[WS_CTR_L1_SECTOR_HITS], 1);
    assert_int_equal(f.ctr.v[WS_CTR_L1_SECTOR_MISSES], 1);
    /* A bypassing load (cached 0) misses and allocates nothing. */
    {
        struct ws_line_req r = ws_memtest_req(6, 0x1, WS_LINE_READ, 2000,
                                              &f.ctr);
        assert_int_equal(ws_l1_load(&f.l1, &r, 0), 2000 + BELOW);
        assert_int_equal(load(&f, 6, 0x1, 3000), 3000 + BELOW);
    }
    assert_int_equal(f.stub.n, 3);
    ws_l1_free(&f.l1);
}

/* ws_l1_hits: valid or filling sectors hit, a missing sector or line does
 * not, an L1 without sets hits nothing; and asking writes nothing (the
 * replacement clock, the counters and the level below are as they were):
 * SMs ask it beside each other's work. */
static void test_l1_hits_asks_only(void **state)
{
    struct l1_fixture f;
    uint64_t tick;
    struct ws_counters before;

    (void)state;
    l1_setup(&f, NULL, 0);
    assert_int_equal(load(&f, 5, 0x1, 100), 100 + BELOW);
    tick = f.l1.tags.tick;
    before = f.ctr;
    assert_true(ws_l1_hits(&f.l1, 5, 0x1)); /* filling until 400 */
    assert_false(ws_l1_hits(&f.l1, 5, 0x3));
    assert_false(ws_l1_hits(&f.l1, 7, 0x1));
    assert_int_equal(f.l1.tags.tick, tick);
    assert_memory_equal(&f.ctr, &before, sizeof before);
    assert_int_equal(f.stub.n, 1);
    ws_l1_new_kernel(&f.l1, 0, 1);
    assert_false(ws_l1_hits(&f.l1, 5, 0x1));
    ws_l1_free(&f.l1);
}

/* A second request for a sector whose fill is in flight waits for that
 * fill instead of going below again; another sector of the line does go
 * below (MSHRs merge per sector). */
static void test_l1_mshr_merge(void **state)
{
    struct l1_fixture f;

    (void)state;
    l1_setup(&f, NULL, 0);
    assert_int_equal(load(&f, 7, 0x1, 0), BELOW);
    assert_int_equal(load(&f, 7, 0x1, 10), BELOW);
    assert_int_equal(f.stub.n, 1);
    assert_int_equal(f.ctr.v[WS_CTR_L1_MSHR_MERGES], 1);
    assert_int_equal(load(&f, 7, 0x3, 20), 20 + BELOW);
    assert_int_equal(f.stub.n, 2);
    assert_int_equal(f.stub.req[1].mask, 0x2);
    ws_l1_free(&f.l1);
}

/* With one MSHR a second miss waits for the first to complete. */
static void test_l1_mshr_full(void **state)
{
    static const char *const sets[] = {"l1.mshrs=1"};
    struct l1_fixture f;

    (void)state;
    l1_setup(&f, sets, 1);
    assert_int_equal(load(&f, 1, 0x1, 0), BELOW);
    assert_int_equal(ws_l1_mshr_ready(&f.l1, 5), BELOW);
    assert_int_equal(load(&f, 2, 0x1, 5), 2 * BELOW);
    assert_int_equal(f.stub.req[1].t, BELOW);
    ws_l1_free(&f.l1);
}

/* Stores write through and do not allocate: a later load of the line
 * misses; a resident line stays resident and hits. */
static void test_l1_write_through_no_allocate(void **state)
{
    struct l1_fixture f;

    (void)state;
    l1_setup(&f, NULL, 0);
    assert_int_equal(store(&f, 9, 0x3, 0), BELOW);
    assert_int_equal(f.stub.n, 1);
    assert_int_equal(f.stub.req[0].op, WS_LINE_WRITE);
    assert_int_equal(f.stub.req[0].mask, 0x3);
    assert_int_equal(load(&f, 9, 0x1, 1000), 1000 + BELOW);
    assert_int_equal(f.stub.n, 2);
    assert_int_equal(f.stub.req[1].op, WS_LINE_READ);
    /* Line 9 is resident now: a store updates it and goes below too. */
    store(&f, 9, 0x1, 2000);
    assert_int_equal(f.stub.n, 3);
    assert_int_equal(load(&f, 9, 0x1, 3000), 3000 + f.g.l1.latency);
    assert_int_equal(f.stub.n, 3);
    assert_int_equal(f.ctr.v[WS_CTR_L2_SECTORS_WRITE], 3);
    ws_l1_free(&f.l1);
}

/* A full miss queue stalls the tag pipe, hits behind it included: with a
 * queue of 2 and a level below that takes one request per 100 cycles, the
 * fourth miss waits for the first in the queue to leave, and a hit asked
 * for right after waits behind it. */
static void test_l1_miss_queue_back_pressure(void **state)
{
    static const char *const sets[] = {"l1.miss_queue=2"};
    struct l1_fixture f;
    uint64_t hit;

    (void)state;
    l1_setup(&f, sets, 1);
    f.stub.latency = 10;
    assert_int_equal(load(&f, 100, 0x1, 0), 10); /* warm line 100 */
    f.stub.hold = 100;
    for (uint64_t i = 0; i < 4; i++)
        load(&f, 200 + i, 0x1, 20);
    /* Tag starts 20..23; the stub takes them at 20, 120, 220, 320; the
     * fourth enters the queue when the second leaves, at 120. */
    assert_int_equal(f.stub.req[3].t, 22);
    assert_int_equal(f.stub.req[4].t, 120);
    hit = load(&f, 100, 0x1, 24);
    assert_int_equal(hit, 120 + f.g.l1.latency);
    ws_l1_free(&f.l1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_l1_hit_and_miss),
        cmocka_unit_test(test_l1_hits_asks_only),
        cmocka_unit_test(test_l1_mshr_merge),
        cmocka_unit_test(test_l1_mshr_full),
        cmocka_unit_test(test_l1_write_through_no_allocate),
        cmocka_unit_test(test_l1_miss_queue_back_pressure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
