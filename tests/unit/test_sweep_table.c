/*
 * Unit tests of sim/sweep/ws_sweep_table: which points a results file
 * holds whole (by key, whatever number or sweep they were written under),
 * the file rewritten for the sweep as it is now, and the merge of shares
 * (one sweep, every point whole in one share, nothing doubled).
 */
#include <stdlib.h>
#include <string.h>

#include "sweep/ws_sweep_table.h"
#include "util/ws_csv.h"
#include "ws_test.h"

#define HDR "point,points,key,status,error,sweep,row,rows,v\n"

/* Three points; key i is 32 copies of the letter 'a' + i. */
static char keys[3][33];

static void make_keys(void)
{
    for (int i = 0; i < 3; i++) {
        memset(keys[i], 'a' + i, 32);
        keys[i][32] = '\0';
    }
}

/* A row of point p (key k) of sweep s: row r of rows, value v. */
static void add_row(char *buf, int p, int k, const char *s, int r, int rows,
                    const char *v)
{
    char line[200];

    snprintf(line, sizeof line, "%d,3,%s,ok,,%s,%d,%d,%s\n", p, keys[k], s, r,
             rows, v);
    strcat(buf, line);
}

static void parse(struct ws_csv *t, const char *name, const char *text)
{
    struct ws_err err;

    ws_err_clear(&err);
    assert_int_equal(ws_csv_parse(t, name, text, strlen(text), 0, 1, &err), 0);
}

static void scan(const char *text, int retry, struct ws_sweep_held *h,
                 unsigned char done[3], struct ws_csv *t)
{
    struct ws_err err;

    make_keys();
    parse(t, "r.csv", text);
    memset(done, 0, 3);
    ws_err_clear(&err);
    assert_int_equal(ws_sweep_held_scan(h, t, 3, keys, retry, done, &err), 0);
}

/* Rows found by key under other numbers and another sweep are held, and
 * rewritten with this sweep's numbers. */
static void test_held_by_key(void **state)
{
    char text[2000] = HDR;
    unsigned char done[3];
    struct ws_sweep_held h;
    struct ws_csv t;
    char *out;

    (void)state;
    make_keys();
    add_row(text, 7, 2, "1111111111111111", 0, 1, "x"); /* was point 7 */
    add_row(text, 0, 0, "1111111111111111", 0, 2, "a0");
    add_row(text, 0, 0, "1111111111111111", 1, 2, "a1");
    scan(text, 0, &h, done, &t);
    assert_true(done[0] && !done[1] && done[2]);
    assert_int_equal(h.stale + h.torn + h.doubled, 0);
    out = ws_sweep_held_text(&h, &t, 3, "2222222222222222");
    assert_non_null(out);
    assert_non_null(strstr(out, "\n0,3,aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa,ok,,"
                                "2222222222222222,0,2,a0\n"));
    assert_non_null(strstr(out, "\n2,3,cccccccccccccccccccccccccccccccc,ok,,"
                                "2222222222222222,0,1,x\n"));
    assert_null(strstr(out, "1111111111111111"));
    free(out);
    ws_sweep_held_free(&h);
    ws_csv_free(&t);
}

/* A point with a row missing, or two different rows under one number,
 * is dropped to be rerun; an identical row read twice is kept once. */
static void test_held_torn_and_doubled(void **state)
{
    char text[2000] = HDR;
    unsigned char done[3];
    struct ws_sweep_held h;
    struct ws_csv t;

    (void)state;
    make_keys();
    add_row(text, 0, 0, "s", 0, 2, "a0"); /* row 1 missing */
    add_row(text, 1, 1, "s", 0, 1, "b");
    add_row(text, 1, 1, "t", 0, 1, "b"); /* same row, again */
    add_row(text, 2, 2, "s", 0, 1, "c");
    add_row(text, 2, 2, "s", 0, 1, "C"); /* conflicting */
    scan(text, 0, &h, done, &t);
    assert_true(!done[0] && done[1] && !done[2]);
    assert_int_equal(h.torn, 2);
    assert_int_equal(h.doubled, 1);
    assert_int_equal(h.point[0], -1);
    assert_int_equal(h.point[1], 1);
    assert_int_equal(h.point[2], -1);
    ws_sweep_held_free(&h);
    ws_csv_free(&t);
}

/* Unknown keys are stale; bad row numbers make the point torn; failed
 * points are dropped on request. */
static void test_held_stale_bad_retry(void **state)
{
    char text[2000] = HDR;
    unsigned char done[3];
    struct ws_sweep_held h;
    struct ws_csv t;

    (void)state;
    make_keys();
    strcat(text, "0,3,zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz,ok,,s,0,1,q\n");
    add_row(text, 1, 1, "s", 3, 2, "b"); /* row past rows */
    strcat(text, "2,3,cccccccccccccccccccccccccccccccc,failed,why,s,0,1,\n");
    strcat(text, "0,3,aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa,garbage,,s,0,1,\n");
    scan(text, 1, &h, done, &t);
    assert_int_equal(h.stale, 1);
    assert_int_equal(h.torn, 2);
    assert_int_equal(h.retried, 1);
    assert_true(!done[0] && !done[1] && !done[2]);
    ws_sweep_held_free(&h);
    ws_csv_free(&t);
}

static char *merge2(const char *a, const char *b, struct ws_err *err)
{
    struct ws_csv t[2];
    char *out;

    parse(&t[0], "s0.csv", a);
    parse(&t[1], "s1.csv", b);
    ws_err_clear(err);
    out = ws_sweep_merge(t, 2, err);
    ws_csv_free(&t[0]);
    ws_csv_free(&t[1]);
    return out;
}

static void test_merge(void **state)
{
    char a[2000] = HDR, b[2000] = HDR, c[2000], d[2000], s[17];
    struct ws_err err;
    char *out;

    (void)state;
    make_keys();
    ws_sweep_id_of(keys, 3, s);
    add_row(a, 0, 0, s, 0, 2, "a0");
    add_row(a, 0, 0, s, 1, 2, "a1");
    add_row(a, 2, 2, s, 0, 1, "c");
    add_row(b, 1, 1, s, 0, 1, "b");
    out = merge2(a, b, &err);
    assert_non_null(out);
    assert_non_null(strstr(out, ",a1\n1,3,")); /* sorted by point */
    free(out);

    strcpy(c, a);
    add_row(c, 0, 0, s, 1, 2, "a1"); /* doubled */
    assert_null(merge2(c, b, &err));
    ws_test_err(&err, "s0.csv", 5, "point 0 row 1 appears twice");

    strcpy(c, HDR);
    add_row(c, 0, 0, s, 0, 2, "a0"); /* row 1 missing */
    add_row(c, 2, 2, s, 0, 1, "c");
    assert_null(merge2(c, b, &err));
    ws_test_err(&err, "s0.csv", 2, "point 0 has 1 of its 2 rows");

    strcpy(d, HDR);
    add_row(d, 1, 1, "t", 0, 1, "b"); /* another sweep */
    assert_null(merge2(a, d, &err));
    ws_test_err(&err, "s1.csv", 2, "this row is of sweep 't'");

    strcpy(d, HDR);
    add_row(d, 0, 0, s, 0, 2, "a0"); /* point in two shares */
    assert_null(merge2(a, d, &err));
    ws_test_err(&err, "s1.csv", 2, "point 0 is also in s0.csv");

    strcpy(d, HDR); /* point 1 nowhere */
    assert_null(merge2(a, d, &err));
    ws_test_err(&err, "s0.csv", 1, "point 1 of 3 is in no share");

    strcpy(d, HDR); /* a key edited */
    strcat(d, "1,3,dddddddddddddddddddddddddddddddd,ok,,");
    strcat(d, s);
    strcat(d, ",0,1,b\n");
    assert_null(merge2(a, d, &err));
    ws_test_err(&err, "s0.csv", 2, "the points' keys make sweep");

    strcpy(d, HDR); /* not a sweep's status */
    strcat(d, "1,3,bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb,maybe,,");
    strcat(d, s);
    strcat(d, ",0,1,b\n");
    assert_null(merge2(a, d, &err));
    ws_test_err(&err, "s1.csv", 2, "point 1 has status 'maybe'");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_held_by_key),
        cmocka_unit_test(test_held_torn_and_doubled),
        cmocka_unit_test(test_held_stale_bad_retry),
        cmocka_unit_test(test_merge),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
