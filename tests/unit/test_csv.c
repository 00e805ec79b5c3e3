/*
 * Unit tests of sim/util/ws_csv: RFC 4180 quoting, CRLF, line numbers
 * across quoted line breaks, the torn last row of an interrupted sweep,
 * field-count errors at their line and column, empty input, and the
 * writer read back by the reader.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/ws_csv.h"
#include "ws_test.h"

static int parse(struct ws_csv *t, const char *text, int torn, int empty,
                 struct ws_err *err)
{
    ws_err_clear(err);
    return ws_csv_parse(t, "t.csv", text, strlen(text), torn, empty, err);
}

static void test_csv_quoted(void **state)
{
    static const char text[] = "name,value,note\r\n"
                               "\"a,b\",1,\"say \"\"hi\"\"\"\r\n"
                               "plain,,\"two\nlines\"\n"
                               "x,\"\",\"\"\"\"\n";
    struct ws_csv t;
    struct ws_err err;

    (void)state;
    assert_int_equal(parse(&t, text, 0, 0, &err), 0);
    assert_int_equal(t.ncols, 3);
    assert_int_equal(t.nrows, 3);
    assert_string_equal(t.header[2], "note");
    assert_string_equal(ws_csv_cell(&t, 0, 0), "a,b");
    assert_string_equal(ws_csv_cell(&t, 0, 2), "say \"hi\"");
    assert_string_equal(ws_csv_cell(&t, 1, 1), "");
    assert_string_equal(ws_csv_cell(&t, 1, 2), "two\nlines");
    assert_string_equal(ws_csv_cell(&t, 2, 1), "");
    assert_string_equal(ws_csv_cell(&t, 2, 2), "\"");
    assert_int_equal(t.row_line[0], 2);
    assert_int_equal(t.row_line[1], 3);
    assert_int_equal(t.row_line[2], 5); /* after the quoted break */
    assert_int_equal(ws_csv_col(&t, "value"), 1);
    assert_int_equal(ws_csv_col(&t, "nope"), -1);
    assert_int_equal(t.valid_len, strlen(text));
    ws_csv_free(&t);
}

/* A row without its line break is what a killed sweep leaves. */
static void test_csv_torn(void **state)
{
    static const char text[] = "a,b\n1,2\n3,\"x\ny";
    struct ws_csv t;
    struct ws_err err;

    (void)state;
    assert_int_equal(parse(&t, text, 1, 0, &err), 0);
    assert_int_equal(t.nrows, 1);
    assert_int_equal(t.valid_len, 8);
    assert_string_equal(ws_csv_cell(&t, 0, 1), "2");
    ws_csv_free(&t);
    /* The same text read strictly: the open quote is an error at it. */
    assert_int_equal(parse(&t, text, 0, 0, &err), -1);
    ws_test_err(&err, "t.csv", 3, "ends inside a quoted field");
    assert_non_null(strstr(err.text, "t.csv:3:3:"));
    /* A whole last row without a break is kept when tears are not
     * expected. */
    assert_int_equal(parse(&t, "a,b\n1,2\n3,4", 0, 0, &err), 0);
    assert_int_equal(t.nrows, 2);
    assert_int_equal(t.valid_len, 11);
    ws_csv_free(&t);
    assert_int_equal(parse(&t, "a,b\n1,2\r\n", 1, 0, &err), 0);
    assert_int_equal(t.nrows, 1);
    assert_int_equal(t.valid_len, 9);
    ws_csv_free(&t);
}

static void test_csv_field_count(void **state)
{
    struct ws_csv t;
    struct ws_err err;

    (void)state;
    assert_int_equal(parse(&t, "a,b\n1,2\n1,2,3\n", 0, 0, &err), -1);
    ws_test_err(&err, "t.csv", 3,
                "row has 3 fields (expected 2, as the "
                "header)");
    assert_non_null(strstr(err.text, "t.csv:3:5:"));
    assert_int_equal(parse(&t, "a,b,c\n\"x\ny\",2\n", 0, 0, &err), -1);
    ws_test_err(&err, "t.csv", 3,
                "row has 2 fields (expected 3, as the "
                "header)");
    assert_non_null(strstr(err.text, "t.csv:3:5:"));
    assert_int_equal(parse(&t, "a,b\n1\n", 0, 0, &err), -1);
    ws_test_err(&err, "t.csv", 2, "row has 1 field (expected 2");
    assert_int_equal(parse(&t, "a,b\n1,x\"y\n", 0, 0, &err), -1);
    ws_test_err(&err, "t.csv", 2, "quote inside an unquoted field");
    assert_non_null(strstr(err.text, "t.csv:2:4:"));
    assert_int_equal(parse(&t, "a,b\n1,\"x\"y\n", 0, 0, &err), -1);
    ws_test_err(&err, "t.csv", 2, "text after the closing quote");
    assert_int_equal(parse(&t, "a,a\n", 0, 0, &err), -1);
    ws_test_err(&err, "t.csv", 1, "column 'a' named twice");
    assert_int_equal(parse(&t, "a,b\n1\r2,3\n", 0, 0, &err), -1);
    ws_test_err(&err, "t.csv", 2, "carriage return");
}

static void test_csv_nul_and_wide(void **state)
{
    static const char nul[] = "a,b\n1,\0\n";
    struct ws_csv t;
    struct ws_err err;
    size_t n = 5000 * 2;
    char *wide = malloc(n + 1);

    (void)state;
    ws_err_clear(&err);
    assert_int_equal(ws_csv_parse(&t, "t.csv", nul, sizeof nul - 1, 0, 0, &err),
                     -1);
    ws_test_err(&err, "t.csv", 2, "NUL byte");
    assert_non_null(wide);
    for (size_t i = 0; i < n; i += 2) {
        wide[i] = 'c';
        wide[i + 1] = ',';
    }
    wide[n - 1] = '\n';
    wide[n] = '\0';
    assert_int_equal(parse(&t, wide, 0, 0, &err), -1);
    ws_test_err(&err, "t.csv", 1, "more than 4096 columns");
    free(wide);
}

static void test_csv_empty(void **state)
{
    struct ws_csv t;
    struct ws_err err;

    (void)state;
    assert_int_equal(parse(&t, "", 0, 0, &err), -1);
    ws_test_err(&err, "t.csv", 1, "empty table");
    assert_int_equal(parse(&t, "", 0, 1, &err), 0);
    assert_int_equal(t.ncols, 0);
    assert_int_equal(t.nrows, 0);
    assert_non_null(t.cells);
    ws_csv_free(&t);
    /* A header torn before its line break leaves nothing. */
    assert_int_equal(parse(&t, "a,b", 1, 1, &err), 0);
    assert_int_equal(t.ncols, 0);
    assert_int_equal(t.valid_len, 0);
    ws_csv_free(&t);
    assert_int_equal(parse(&t, "a,b\n", 0, 0, &err), 0);
    assert_int_equal(t.ncols, 2);
    assert_int_equal(t.nrows, 0);
    assert_non_null(t.cells);
    ws_csv_free(&t);
}

static void test_csv_put_round_trip(void **state)
{
    static const char *const fields[] = {"plain",      "",           "a,b",
                                         "say \"hi\"", "two\nlines", "cr\r\nlf",
                                         " pad ",      "\"",         "x"};
    enum {
        N = sizeof fields / sizeof *fields
    };
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    struct ws_csv t;
    struct ws_err err;

    (void)state;
    assert_non_null(out);
    for (int row = 0; row < 2; row++) {
        for (int i = 0; i < N; i++) {
            if (i)
                fputc(',', out);
            ws_csv_put(out, fields[i]);
        }
        fputc('\n', out);
    }
    assert_int_equal(fclose(out), 0);
    assert_non_null(strstr(buf, "\nplain,,\"a,b\""));
    assert_int_equal(parse(&t, buf, 1, 0, &err), 0);
    assert_int_equal(t.nrows, 1);
    assert_int_equal(t.valid_len, len);
    for (int i = 0; i < N; i++)
        assert_string_equal(ws_csv_cell(&t, 0, (size_t)i), fields[i]);
    ws_csv_free(&t);
    free(buf);
}

static void test_csv_load(void **state)
{
    char path[] = "/tmp/ws-test-csv-XXXXXX";
    int fd = mkstemp(path);
    FILE *fp;
    struct ws_csv t;
    struct ws_err err;

    (void)state;
    assert_true(fd >= 0);
    fp = fdopen(fd, "w");
    assert_non_null(fp);
    fputs("x,y\n1,2\n3,", fp);
    fclose(fp);
    ws_err_clear(&err);
    assert_int_equal(ws_csv_load(&t, path, 1, 0, &err), 0);
    assert_string_equal(t.name, path);
    assert_int_equal(t.nrows, 1);
    assert_int_equal(t.valid_len, 8);
    ws_csv_free(&t);
    unlink(path);
    assert_int_equal(ws_csv_load(&t, path, 1, 0, &err), -1);
    assert_non_null(strstr(err.text, "cannot open"));
    ws_csv_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_csv_quoted),
        cmocka_unit_test(test_csv_torn),
        cmocka_unit_test(test_csv_field_count),
        cmocka_unit_test(test_csv_nul_and_wide),
        cmocka_unit_test(test_csv_empty),
        cmocka_unit_test(test_csv_put_round_trip),
        cmocka_unit_test(test_csv_load),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
