/*
 * test_mem_icnt: the interconnect (mem/ws_icnt.h) with L2 stubbed: a read
 * crosses it twice (icnt.latency each way) and its data takes the SM's
 * response port; store data takes the request port, one sector per port
 * time, and a write returns when L2 has it; the time a request left the
 * SM is the stub's taking time less the one-way latency (back-pressure
 * from L2 reaches the L1's miss queue through it).
 */
#include <math.h>

#include "mem/ws_icnt.h"
#include "ws_memtest.h"

#define L2 50 /* the stub's answer: taken + L2 */

struct icnt_fixture {
    struct ws_gpu g;
    struct ws_memtest_stub stub;
    struct ws_icnt n;
    struct ws_counters ctr;
    uint64_t lat;
};

static void icnt_setup(struct icnt_fixture *f)
{
    static const char *const sets[] = {"icnt.latency=40"};

    memset(&f->ctr, 0, sizeof f->ctr);
    f->g = ws_memtest_gpu(sets, 1);
    assert_int_equal(ws_icnt_init(&f->n, &f->g, ws_memtest_port(&f->stub, L2)),
                     0);
    f->lat = 40;
}

static uint64_t send(struct icnt_fixture *f, int op, uint8_t mask, uint64_t t,
                     uint64_t *left)
{
    struct ws_line_req r = ws_memtest_req(1, mask, op, t, &f->ctr);

    r.src = 3;
    return ws_icnt_access(&f->n, &r, left);
}

static uint64_t ceil_cycles(double x)
{
    return (uint64_t)ceil(x - 1e-9);
}

static void test_icnt_read_round_trip(void **state)
{
    struct icnt_fixture f;
    uint64_t left, a, b;

    (void)state;
    icnt_setup(&f);
    assert_int_equal(send(&f, WS_LINE_READ, 0x1, 100, &left),
                     100 + f.lat + L2 + f.lat);
    assert_int_equal(f.stub.req[0].t, 100 + f.lat);
    assert_int_equal(left, 100);
    /* Two 4-sector reads together: the second's data follows the first's
     * over the response port. */
    a = send(&f, WS_LINE_READ, 0xf, 1000, &left);
    b = send(&f, WS_LINE_READ, 0xf, 1000, &left);
    assert_int_equal(a, 1000 + 2 * f.lat + L2);
    assert_int_equal(b, a + ceil_cycles(4 * f.n.port_cps));
    ws_icnt_free(&f.n);
}

static void test_icnt_write_request_port(void **state)
{
    struct icnt_fixture f;
    uint64_t left;

    (void)state;
    icnt_setup(&f);
    assert_int_equal(send(&f, WS_LINE_WRITE, 0xf, 0, &left), f.lat + L2);
    assert_int_equal(send(&f, WS_LINE_WRITE, 0x1, 0, &left),
                     ceil_cycles(4 * f.n.port_cps) + f.lat + L2);
    assert_int_equal(f.stub.req[1].t, ceil_cycles(4 * f.n.port_cps) + f.lat);
    assert_int_equal(f.stub.req[1].src, 3);
    ws_icnt_free(&f.n);
}

/* An atomic goes out as data and comes back as data. */
static void test_icnt_atomic(void **state)
{
    struct icnt_fixture f;
    uint64_t left;

    (void)state;
    icnt_setup(&f);
    assert_int_equal(send(&f, WS_LINE_ATOMIC, 0x1, 10, &left),
                     10 + 2 * f.lat + L2);
    assert_int_equal(f.stub.req[0].op, WS_LINE_ATOMIC);
    ws_icnt_free(&f.n);
}

/* L2 taking requests late (one per 200 cycles): a request leaves the SM
 * one latency before L2 takes it. */
static void test_icnt_left_follows_l2(void **state)
{
    struct icnt_fixture f;
    uint64_t left;

    (void)state;
    icnt_setup(&f);
    f.stub.hold = 200;
    send(&f, WS_LINE_READ, 0x1, 0, &left);
    assert_int_equal(left, 0);
    send(&f, WS_LINE_READ, 0x1, 1, &left);
    assert_int_equal(left, f.lat + 200 - f.lat);
    ws_icnt_free(&f.n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_icnt_read_round_trip),
        cmocka_unit_test(test_icnt_write_request_port),
        cmocka_unit_test(test_icnt_atomic),
        cmocka_unit_test(test_icnt_left_follows_l2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
