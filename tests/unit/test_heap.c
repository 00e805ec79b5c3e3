/*
 * test_heap: the generic min-heap (util/ws_heap.h) pops in (cycle, seq)
 * order whatever the push order, keeps each element's payload with its
 * key, grows when it may and refuses a push when fixed and full.
 */
#include <stdlib.h>

#include "util/ws_heap.h"
#include "ws_test.h"

struct test_item {
    uint64_t cycle, seq;
    uint32_t payload, pad;
};

static int test_item_cmp(const void *a, const void *b)
{
    const struct test_item *x = a, *y = b;

    if (x->cycle != y->cycle)
        return x->cycle < y->cycle ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Random pushes with many equal cycles, pops interleaved; every pop is
 * the least pending (cycle, seq) with its own payload. */
static void test_heap_order(void **state)
{
    enum {
        N = 5000
    };
    static struct test_item ref[N];
    struct ws_heap h;
    struct test_item it;
    uint64_t rng = 11;
    size_t nref = 0;

    (void)state;
    assert_int_equal(ws_heap_init(&h, sizeof it, 0, 0), 0);
    for (uint64_t seq = 0; seq < N; seq++) {
        rng = rng * 6364136223846793005u + 1442695040888963407u;
        it.cycle = (rng >> 33) % 64;
        it.seq = seq;
        it.payload = (uint32_t)(seq * 7 + 1);
        it.pad = 0;
        assert_int_equal(ws_heap_push(&h, &it), 0);
        ref[nref++] = it;
        if (seq % 3 == 2) {
            qsort(ref, nref, sizeof *ref, test_item_cmp);
            assert_int_equal(ws_heap_top(&h).cycle, ref[0].cycle);
            ws_heap_pop(&h, &it);
            assert_int_equal(it.cycle, ref[0].cycle);
            assert_int_equal(it.seq, ref[0].seq);
            assert_int_equal(it.payload, ref[0].payload);
            memmove(ref, ref + 1, --nref * sizeof *ref);
        }
    }
    qsort(ref, nref, sizeof *ref, test_item_cmp);
    for (size_t i = 0; i < nref; i++) {
        ws_heap_pop(&h, &it);
        assert_int_equal(it.seq, ref[i].seq);
    }
    assert_int_equal(h.n, 0);
    ws_heap_free(&h);
}

static void test_heap_fixed(void **state)
{
    struct ws_heap h;
    struct ws_heap_key k = {5, 0};

    (void)state;
    assert_int_equal(ws_heap_init(&h, sizeof k, 2, 1), 0);
    assert_int_equal(ws_heap_push(&h, &k), 0);
    k.cycle = 3;
    assert_int_equal(ws_heap_push(&h, &k), 0);
    k.cycle = 1;
    assert_int_equal(ws_heap_push(&h, &k), -1);
    assert_int_equal(h.n, 2);
    assert_int_equal(ws_heap_top(&h).cycle, 3);
    ws_heap_pop(&h, NULL);
    assert_int_equal(ws_heap_top(&h).cycle, 5);
    ws_heap_clear(&h);
    assert_int_equal(h.n, 0);
    ws_heap_free(&h);
    /* An element must hold its key and fit the copy buffer. */
    assert_int_equal(ws_heap_init(&h, 8, 4, 1), -1);
    assert_int_equal(ws_heap_init(&h, WS_HEAP_MAX_ELEM + 8, 4, 1), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_heap_order),
        cmocka_unit_test(test_heap_fixed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
