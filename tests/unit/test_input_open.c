/*
 * Unit tests of sim/input/ws_input.c's ws_input_open on failure: nothing
 * is left allocated (a folder input's list path was kept when its list
 * named a missing kernel, and callers that do not close a failed input,
 * a sweep checking its points, leaked it), no input is handed back so
 * that closing it anyway is harmless, and the error still names the list
 * line.
 * Under the sanitizer build LeakSanitizer checks the first at exit too.
 */
#include <string.h>

#include "input/ws_input.h"
#include "trace/ws_traceg.h"
#include "ws_test.h"

static void ws_test_open_fails(const char *path, const char *name, long line,
                               const char *want)
{
    struct ws_input_params ip;
    struct ws_input *in = (struct ws_input *)&ip; /* not NULL before */
    struct ws_err err;

    memset(&ip, 0, sizeof ip);
    ws_trace_opts_default(&ip.opts);
    ws_err_clear(&err);
    assert_int_equal(ws_input_open(&in, path, &ip, &err), -1);
    assert_null(in);
    if (name)
        ws_test_err(&err, name, line, want);
    else
        assert_non_null(strstr(err.text, want));
    ws_input_close(in); /* harmless after a failure */
}

/* Deliberately not closed: only ws_input_open may free what it took. */
static void test_folder_missing_kernel(void **state)
{
    struct ws_input_params ip;
    struct ws_input *in;
    struct ws_err err;

    (void)state;
    memset(&ip, 0, sizeof ip);
    ws_trace_opts_default(&ip.opts);
    ws_err_clear(&err);
    assert_int_equal(ws_input_open(&in, "tests/data/hard3/missing", &ip, &err),
                     -1);
    assert_null(in);
    assert_non_null(strstr(err.text, "kernel-9.traceg: cannot open"));
}

static void test_failures_closed(void **state)
{
    (void)state;
    ws_test_open_fails("tests/data/hard3/missing",
                       "tests/data/hard3/missing/kernelslist.g", 2,
                       "kernel-9.traceg");
    ws_test_open_fails("tests/data/bad/kernelslist-missing.g",
                       "tests/data/bad/kernelslist-missing.g", 1, "cannot");
    ws_test_open_fails("tests/data/hard3/no-such-input", NULL, 0,
                       "no-such-input");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_folder_missing_kernel),
        cmocka_unit_test(test_failures_closed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
