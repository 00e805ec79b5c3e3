/*
 * test_mem_queue: the memory path's bounded buffers (mem/ws_mem_queue.h).
 * An MSHR file hands out entries until full, then the earliest
 * completion's; a FIFO admits until full, then only when its head leaves
 * (back-pressure), and keeps first-in-first-out leave order.  A calendar
 * port (mem/ws_cal.h) is a FIFO when booked in arrival order, lets an
 * early arrival booked late use the cycles still free, and never moves
 * more than its capacity in a cycle.
 */
#include "mem/ws_cal.h"
#include "mem/ws_mem_queue.h"
#include "ws_test.h"

static void test_mshr_full_waits_for_earliest(void **state)
{
    struct ws_mshr m;

    (void)state;
    assert_int_equal(ws_mshr_init(&m, 2), 0);
    assert_int_equal(ws_mshr_acquire(&m, 0), 0);
    ws_mshr_push(&m, 100);
    assert_int_equal(ws_mshr_acquire(&m, 10), 10);
    ws_mshr_push(&m, 50);
    /* Both taken: the next miss waits for the earlier completion. */
    assert_int_equal(ws_mshr_ready(&m, 20), 50);
    assert_int_equal(ws_mshr_acquire(&m, 20), 50);
    ws_mshr_push(&m, 300);
    assert_int_equal(ws_mshr_ready(&m, 60), 100);
    /* Entries done by t are retired: room again. */
    assert_int_equal(ws_mshr_ready(&m, 100), 100);
    assert_int_equal(ws_mshr_acquire(&m, 150), 150);
    ws_mshr_push(&m, 160);
    assert_int_equal(ws_mshr_ready(&m, 151), 160);
    ws_mshr_clear(&m);
    assert_int_equal(ws_mshr_ready(&m, 151), 151);
    ws_mshr_free(&m);
}

static void test_fifo_back_pressure(void **state)
{
    struct ws_fifo f;

    (void)state;
    assert_int_equal(ws_fifo_init(&f, 2), 0);
    assert_int_equal(ws_fifo_admit(&f, 0), 0);
    ws_fifo_push(&f, 40);
    assert_int_equal(ws_fifo_admit(&f, 1), 1);
    /* Leaves at 30 asked, but not before the entry ahead of it. */
    ws_fifo_push(&f, 30);
    /* Full: a sender waits until the head has left. */
    assert_int_equal(ws_fifo_admit(&f, 2), 40);
    ws_fifo_push(&f, 90);
    /* The next head is the second entry, which left at 40 as well. */
    assert_int_equal(ws_fifo_admit(&f, 41), 41);
    assert_int_equal(ws_fifo_admit(&f, 3), 40);
    ws_fifo_push(&f, 95);
    assert_int_equal(ws_fifo_admit(&f, 50), 90);
    assert_int_equal(ws_fifo_admit(&f, 91), 91);
    ws_fifo_clear(&f);
    assert_int_equal(ws_fifo_admit(&f, 5), 5);
    ws_fifo_free(&f);
}

static void test_cal_in_order_is_fifo(void **state)
{
    struct ws_cal c;

    (void)state;
    assert_int_equal(ws_cal_init(&c, 1.0), 0); /* one sector per cycle */
    assert_int_equal(ws_cal_reserve(&c, 10, 4), 10);
    assert_int_equal(ws_cal_reserve(&c, 11, 4), 14);
    assert_int_equal(ws_cal_reserve(&c, 12, 1), 18);
    assert_int_equal(ws_cal_reserve(&c, 40, 2), 40);
    assert_int_equal(ws_cal_reserve(&c, 7, 0), 7);
    ws_cal_free(&c);
}

static void test_cal_out_of_order(void **state)
{
    struct ws_cal c;

    (void)state;
    assert_int_equal(ws_cal_init(&c, 2.0), 0); /* a sector per 2 cycles */
    /* a late arrival booked first does not hold up an earlier one */
    assert_int_equal(ws_cal_reserve(&c, 1000, 4), 1000);
    assert_int_equal(ws_cal_reserve(&c, 100, 4), 100);
    /* but one arriving inside the late transfer waits for its end */
    assert_int_equal(ws_cal_reserve(&c, 1002, 1), 1008);
    /* 1008 and 1009 are taken now */
    assert_int_equal(ws_cal_reserve(&c, 1008, 1), 1010);
    /* beyond the ring's span behind the newest cycle booked: booked as
     * arriving at the oldest cycle the ring still holds */
    assert_int_equal(ws_cal_reserve(&c, 1000 + 3 * WS_CAL_SLOTS, 1),
                     1000 + 3 * WS_CAL_SLOTS);
    assert_int_equal(ws_cal_reserve(&c, 5, 1), 1000 + 2 * WS_CAL_SLOTS + 2);
    ws_cal_clear(&c);
    assert_int_equal(ws_cal_reserve(&c, 1000, 1), 1000);
    ws_cal_free(&c);
}

/* Any order of bookings: no cycle carries more than the capacity, and a
 * saturated port moves exactly its capacity (the run of full cycles the
 * booking jumps is the same as walking them). */
static void test_cal_capacity(void **state)
{
    struct ws_cal c;
    uint64_t last = 0;
    unsigned total = 0;

    (void)state;
    assert_int_equal(ws_cal_init(&c, 0.8), 0); /* 1.25 sectors per cycle */
    for (unsigned i = 0; i < 1000; i++) {
        uint64_t t = (i * 7919u) % 400; /* arrivals in scrambled order */
        uint64_t first = ws_cal_reserve(&c, t, 4);
        assert_true(first >= t);
        if (first > last)
            last = first;
        total += 4;
    }
    /* 4000 sectors at 1.25 per cycle need 3200 cycles from cycle 0,
     * more than the ring holds: never fewer */
    assert_true(last >= 3200 - 4);
    for (uint32_t s = 0; s < WS_CAL_SLOTS; s++)
        assert_true(c.used[s] <= 1.25f + 1e-4f);
    assert_int_equal(total, 4000);
    ws_cal_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mshr_full_waits_for_earliest),
        cmocka_unit_test(test_fifo_back_pressure),
        cmocka_unit_test(test_cal_in_order_is_fifo),
        cmocka_unit_test(test_cal_out_of_order),
        cmocka_unit_test(test_cal_capacity),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
