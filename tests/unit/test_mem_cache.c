/*
 * test_mem_cache: the cache's replacement policies (mem/ws_cache.h) choose
 * their victims as documented: LRU the way used longest ago, FIFO the way
 * filled longest ago however recently it hit; both take an empty way
 * first.  And the tag array's sectors, dirty bits and reshaping.
 */
#include "mem/ws_cache.h"
#include "ws_test.h"

/* A 4-way, 1-set cache holding lines 10..13 filled in that order, then
 * line 10 used again. */
static void fill_four_then_hit_first(struct ws_cache *c, enum ws_repl_policy p)
{
    struct ws_cache_victim v;

    assert_int_equal(ws_cache_init(c, 1, 4, 4, p), 0);
    for (uint64_t line = 10; line < 14; line++) {
        assert_non_null(ws_cache_fetch(c, 0, line, &v));
        assert_int_equal(v.line, 0); /* an empty way, nothing evicted */
        assert_int_equal(v.dirty, 0);
    }
    assert_non_null(ws_cache_find(c, 0, 10));
}

static void test_lru_victim(void **state)
{
    struct ws_cache c;
    struct ws_cache_victim v;

    (void)state;
    fill_four_then_hit_first(&c, WS_REPL_LRU);
    ws_cache_fetch(&c, 0, 20, &v);
    assert_int_equal(v.line, 11); /* 10 was used since */
    assert_non_null(ws_cache_find(&c, 0, 10));
    assert_null(ws_cache_find(&c, 0, 11));
    ws_cache_fetch(&c, 0, 12, &v); /* a hit via fetch refreshes too */
    ws_cache_fetch(&c, 0, 21, &v);
    assert_int_equal(v.line, 13);
    assert_string_equal(c.repl->name, "lru");
    ws_cache_free(&c);
}

static void test_fifo_victim(void **state)
{
    struct ws_cache c;
    struct ws_cache_victim v;

    (void)state;
    fill_four_then_hit_first(&c, WS_REPL_FIFO);
    ws_cache_fetch(&c, 0, 20, &v);
    assert_int_equal(v.line, 10); /* first in, its hit does not count */
    ws_cache_find(&c, 0, 11);
    ws_cache_fetch(&c, 0, 21, &v);
    assert_int_equal(v.line, 11);
    ws_cache_fetch(&c, 0, 22, &v);
    assert_int_equal(v.line, 12);
    assert_string_equal(c.repl->name, "fifo");
    ws_cache_free(&c);
}

/* Dirty sectors (valid ones) are reported with the victim; a clear or a
 * reshape empties the cache. */
static void test_dirty_victim_and_reshape(void **state)
{
    struct ws_cache c;
    struct ws_cache_victim v;
    struct ws_cache_line *cl;

    (void)state;
    assert_int_equal(ws_cache_init(&c, 2, 1, 4, WS_REPL_LRU), 0);
    cl = ws_cache_fetch(&c, 1, 7, &v);
    cl->valid = 0x5;
    cl->dirty = 0x7; /* sector 1 dirty but not valid */
    cl = ws_cache_fetch(&c, 1, 9, &v);
    assert_int_equal(v.line, 7);
    assert_int_equal(v.dirty, 0x5);
    assert_int_equal(cl->valid, 0);
    ws_cache_reshape(&c, 1);
    assert_int_equal(c.sets, 1);
    assert_null(ws_cache_find(&c, 0, 9));
    ws_cache_free(&c);
    assert_null(ws_repl_ops_of((enum ws_repl_policy)99));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lru_victim),
        cmocka_unit_test(test_fifo_victim),
        cmocka_unit_test(test_dirty_victim_and_reshape),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
