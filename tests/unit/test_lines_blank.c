/*
 * Unit tests of sim/util/ws_lines.c's bound on runs of blank lines: an .xz
 * stream of nothing but newlines (32 MiB of them in 5 KiB, made here with
 * liblzma) is refused at the line where the run passes WS_LINES_MAX_BLANK
 * bytes (4 MiB), in well under a second, instead of being read to its end;
 * blanks, tabs and CRs count as blank; a run broken by a text line starts
 * again; a run just within the bound is read through.
 */
#include <lzma.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/ws_lines.h"
#include "ws_test.h"

/* n bytes of the pattern pat (repeated) compressed as .xz (caller frees). */
static uint8_t *ws_test_xz(const char *pat, size_t n, size_t *len)
{
    size_t plen = strlen(pat), cap = n / 64 + 65536;
    char *plain = malloc(n);
    uint8_t *out = malloc(cap);

    assert_non_null(plain);
    assert_non_null(out);
    for (size_t i = 0; i < n; i++)
        plain[i] = pat[i % plen];
    *len = 0;
    assert_int_equal(lzma_easy_buffer_encode(0, LZMA_CHECK_CRC32, NULL,
                                             (const uint8_t *)plain, n, out,
                                             len, cap),
                     LZMA_OK);
    free(plain);
    return out;
}

/* Reads every line: the count, or -1 with err set. */
static long ws_test_read_all(const void *data, size_t len, struct ws_err *err)
{
    struct ws_lines in;
    char *line;
    size_t n;
    long lines = 0;
    int rc;

    ws_err_clear(err);
    assert_int_equal(ws_lines_open_mem(&in, "t.traceg.xz", data, len, err), 0);
    while ((rc = ws_lines_next(&in, &line, &n, err)) == 1)
        lines++;
    ws_lines_close(&in);
    return rc < 0 ? -1 : lines;
}

static void test_newlines_xz(void **state)
{
    size_t len;
    uint8_t *xz = ws_test_xz("\n", (size_t)32 << 20, &len);
    struct timespec t0, t1;
    struct ws_err err;
    double s;

    (void)state;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    assert_int_equal(ws_test_read_all(xz, len, &err), -1);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    s = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
    /* the run passes the bound on line 2^22 + 1 */
    ws_test_err(&err, "t.traceg.xz", (1L << 22) + 1,
                "more than 4 MiB of "
                "blank lines in a row");
    assert_true(s < 0.5);
    free(xz);
}

static void test_blank_kinds(void **state)
{
    size_t len;
    uint8_t *xz = ws_test_xz(" \t\r\n\r\n  \n", (size_t)16 << 20, &len);
    struct ws_err err;

    (void)state;
    assert_int_equal(ws_test_read_all(xz, len, &err), -1);
    assert_non_null(strstr(err.text, "blank lines in a row"));
    free(xz);
}

static void test_runs_reset(void **state)
{
    static char text[WS_LINES_MAX_BLANK + 16];
    size_t len;
    uint8_t *xz;
    struct ws_err err;

    (void)state;
    /* 40 blank lines, then one with text: 4 MiB read through */
    xz = ws_test_xz("\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n"
                    "\n\n\n\n\n\n\n\n\n\n\n\n\n\n\nx\n",
                    (size_t)4 << 20, &len);
    assert_true(ws_test_read_all(xz, len, &err) > 0);
    free(xz);
    /* exactly the bound of blank bytes, then text: read through */
    memset(text, '\n', WS_LINES_MAX_BLANK);
    strcpy(text + WS_LINES_MAX_BLANK, "-kernel\n");
    assert_int_equal(ws_test_read_all(text, strlen(text), &err),
                     (long)WS_LINES_MAX_BLANK + 1);
    /* one byte more: refused */
    text[WS_LINES_MAX_BLANK] = '\n';
    strcpy(text + WS_LINES_MAX_BLANK + 1, "-kernel\n");
    assert_int_equal(ws_test_read_all(text, strlen(text), &err), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_newlines_xz),
        cmocka_unit_test(test_blank_kinds),
        cmocka_unit_test(test_runs_reset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
