/*
 * test_mem_queue: the memory path's bounded buffers (mem/ws_mem_queue.h).
 * An MSHR file hands out entries until full, then the earliest
 * completion's; a FIFO admits until full, then only when its head leaves
 * (back-pressure), and keeps first-in-first-out leave order.
 */
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mshr_full_waits_for_earliest),
        cmocka_unit_test(test_fifo_back_pressure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
