/*
 * test_mem_dram: the DRAM channel (mem/ws_dram.h), the last level, alone:
 * a closed bank costs t_rcd over a row hit, a row conflict t_rp more; the
 * plain model is a latency and a bus; refresh (the model has it: all-bank
 * or per-bank windows of t_rfc every t_refi) holds an access that falls
 * in a window until its end and closes the row.  Lines are chosen from
 * the address map ws_dram.h describes: consecutive lines of a channel go
 * to different bank groups, then to the columns of one row, then to the
 * next bank, the group and bank permuted by the row's bits.
 */
#include <math.h>

#include "mem/ws_dram.h"
#include "ws_memtest.h"

struct dram_fixture {
    struct ws_gpu g;
    struct ws_dram d;
    struct ws_counters ctr;
};

static void dram_setup(struct dram_fixture *f, const char *const *sets, int n)
{
    memset(&f->ctr, 0, sizeof f->ctr);
    f->g = ws_memtest_gpu(sets, n);
    assert_int_equal(ws_dram_init(&f->d, &f->g, 128, 32, f->g.icnt.latency), 0);
}

static uint64_t dram_read(struct dram_fixture *f, uint64_t line, uint64_t t)
{
    struct ws_line_req r = ws_memtest_req(line, 0x1, WS_LINE_READ, t, &f->ctr);

    return ws_dram_access(&f->d, 0, &r);
}

static uint64_t ceil_cycles(double x)
{
    return (uint64_t)ceil(x - 1e-9);
}

/* Channel-local line index of (row, bank-in-group 0, group 0, column 0)
 * for a row below 256 (its folded bits are the row itself). */
static uint64_t line_at_row(const struct ws_dram *d, uint64_t row)
{
    uint64_t per_group = d->banks / d->groups;
    uint64_t shift = row / d->groups % per_group;
    uint64_t rest = row * per_group + (per_group - shift) % per_group;
    uint64_t local = rest * d->groups * d->lines_per_row;

    /* group = (local + row) % groups must be 0 */
    local += (d->groups - row % d->groups) % d->groups;
    return local * d->nchan;
}

static void test_dram_row_hit_closed_conflict(void **state)
{
    static const char *const sets[] = {"dram.t_refi=0ns"};
    struct dram_fixture f;
    uint64_t closed, hit, conflict, same_row, other_row;

    (void)state;
    dram_setup(&f, sets, 1);
    same_row = (uint64_t)f.d.groups * f.d.nchan; /* next column */
    other_row = line_at_row(&f.d, f.d.groups);
    closed = dram_read(&f, 0, 0);
    assert_int_equal(closed, ceil_cycles(f.d.t_rcd) + f.d.access);
    hit = dram_read(&f, same_row, 10000);
    assert_int_equal(hit, 10000 + f.d.access);
    assert_int_equal(f.ctr.v[WS_CTR_DRAM_ROW_HITS], 1);
    conflict = dram_read(&f, other_row, 20000);
    assert_int_equal(f.ctr.v[WS_CTR_DRAM_ROW_MISSES], 2);
    assert_int_equal(conflict,
                     ceil_cycles(20000 + f.d.t_rp + f.d.t_rcd) + f.d.access);
    assert_true(hit - 10000 < closed && closed < conflict - 20000);
    /* Back in the first row: another conflict, as t_ras is long past. */
    assert_int_equal(dram_read(&f, 0, 30000),
                     ceil_cycles(30000 + f.d.t_rp + f.d.t_rcd) + f.d.access);
    assert_int_equal(f.ctr.v[WS_CTR_DRAM_BYTES_READ], 4 * 32);
    ws_dram_free(&f.d);
}

/* The plain model: a fixed latency and a bus of dram.bandwidth. */
static void test_dram_plain(void **state)
{
    static const char *const sets[] = {"dram.banked=false"};
    struct dram_fixture f;
    struct ws_line_req w;

    (void)state;
    dram_setup(&f, sets, 1);
    assert_int_equal(dram_read(&f, 0, 100), 100 + f.d.access);
    assert_int_equal(dram_read(&f, 5, 100),
                     ceil_cycles(100 + f.d.cps) + f.d.access);
    w = ws_memtest_req(9, 0xf, WS_LINE_WRITE, 1000, &f.ctr);
    ws_dram_access(&f.d, 0, &w);
    assert_int_equal(f.ctr.v[WS_CTR_DRAM_BYTES_WRITE], 4 * 32);
    assert_true(ws_dram_drained(&f.d) >= 1000 + 4 * f.d.cps - 1e-9);
    ws_dram_free(&f.d);
}

/* All-bank refresh: channel 0's windows are [k t_refi, k t_refi + t_rfc);
 * an access inside one waits for its end, and finds its row closed. */
static void test_dram_refresh(void **state)
{
    static const char *const sets[] = {"dram.refresh_per_bank=false"};
    struct dram_fixture f;
    uint64_t t, end;

    (void)state;
    dram_setup(&f, sets, 1);
    assert_true(f.d.t_refi > 0 && f.d.t_rfc > 2);
    t = ceil_cycles(f.d.t_refi) + 1;
    dram_read(&f, 0, 1); /* opens row 0, after the first window */
    end = ceil_cycles(f.d.t_refi + f.d.t_rfc + f.d.t_rcd) + f.d.access;
    assert_int_equal(dram_read(&f, 0, t), end);
    assert_int_equal(f.ctr.v[WS_CTR_DRAM_ROW_HITS], 0);
    ws_dram_free(&f.d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dram_row_hit_closed_conflict),
        cmocka_unit_test(test_dram_plain),
        cmocka_unit_test(test_dram_refresh),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
