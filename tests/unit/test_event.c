/*
 * test_event: the event queue pops in (cycle, push order) whatever mix of
 * near events (the timing wheel) and far ones (the heap) it holds, as the
 * simulator uses it: pops interleaved with pushes at or after the clock,
 * bursts a wheel's turn and more ahead, many events on one cycle.
 */
#include <stdlib.h>
#include <string.h>

#include "timing/ws_event.h"
#include "ws_test.h"

struct test_ev {
    uint64_t cycle, seq;
};

static int test_ev_cmp(const void *a, const void *b)
{
    const struct test_ev *x = a, *y = b;

    if (x->cycle != y->cycle)
        return x->cycle < y->cycle ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Pushes n events at now + a random distance, pops half of what is
 * queued, repeatedly; every pop must be the smallest (cycle, seq) pending,
 * checked against a sorted reference. */
static void test_event_order(void **state)
{
    enum {
        N = 20000
    };
    static struct test_ev pending[N];
    struct ws_event_queue q;
    struct ws_event ev;
    uint64_t now = 0, seq = 0, rng = 7;
    size_t npending = 0, popped = 0;

    (void)state;
    ws_event_init(&q);
    while (seq < N) {
        int burst = (int)(rng >> 60) + 1;
        for (int i = 0; i < burst && seq < N; i++) {
            union ws_event_payload p = {.wake = {(uint32_t)seq, 0}};
            uint64_t d;
            rng = rng * 6364136223846793005u + 1442695040888963407u;
            d = (rng >> 33) % 8 == 0 ? (rng >> 40) % 5000 : (rng >> 40) % 4;
            assert_int_equal(ws_event_push(&q, now + d, WS_EV_SUBCORE_WAKE, p),
                             0);
            pending[npending].cycle = now + d;
            pending[npending].seq = seq++;
            npending++;
        }
        qsort(pending, npending, sizeof *pending, test_ev_cmp);
        for (size_t k = npending / 2 + 1; k > 0 && npending; k--) {
            assert_int_equal(ws_event_next_cycle(&q), pending[0].cycle);
            assert_int_equal(ws_event_pop(&q, &ev), 1);
            assert_int_equal(ev.cycle, pending[0].cycle);
            assert_int_equal(ev.seq, pending[0].seq);
            assert_int_equal(ev.u.wake.sm, (uint32_t)pending[0].seq);
            now = ev.cycle;
            memmove(pending, pending + 1, --npending * sizeof *pending);
            popped++;
        }
    }
    qsort(pending, npending, sizeof *pending, test_ev_cmp);
    for (size_t i = 0; i < npending; i++) {
        assert_int_equal(ws_event_next_cycle(&q), pending[i].cycle);
        assert_int_equal(ws_event_pop(&q, &ev), 1);
        assert_int_equal(ev.seq, pending[i].seq);
        popped++;
    }
    assert_int_equal(ws_event_next_cycle(&q), UINT64_MAX);
    assert_int_equal(ws_event_pop(&q, &ev), 0);
    assert_int_equal(popped, N);
    ws_event_free(&q);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_event_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
