/*
 * ws_wltest: what the workload expander's unit tests share: loading a
 * description that must load, and writing one to a scratch file that must
 * fail with a given error.
 */
#ifndef WS_WLTEST_H
#define WS_WLTEST_H

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "workload/ws_expand.h"
#include "ws_test.h"

static inline void load(struct ws_workload *w, const char *path,
                        const char **sets, int nsets, const char *listing)
{
    struct ws_err err;

    ws_err_clear(&err);
    if (ws_workload_load(w, path, sets, nsets, listing, NULL, &err) < 0)
        fail_msg("%s", err.text);
}

/* Per process: other builds of the tree may run these tests meanwhile.
 * In tests/, so that the workloads' "../traces/..." listings resolve. */
static inline const char *tmp_workload(void)
{
    static char path[64];

    snprintf(path, sizeof path, "tests/ws-test-wl-%ld.yaml", (long)getpid());
    return path;
}

/* Writes text to the scratch workload; returns its path. */
static inline const char *write_workload(const char *text)
{
    const char *path = tmp_workload();
    FILE *fp = fopen(path, "w");

    assert_non_null(fp);
    fputs(text, fp);
    fclose(fp);
    return path;
}

/* Loads and expands text (with opts, NULL for the defaults), expecting an
 * error at line containing want. */
static inline void expect_error_in(const char *text, long line,
                                   const char *want,
                                   const struct ws_trace_opts *opts)
{
    const char *path = write_workload(text);
    struct ws_workload w;
    struct ws_expander x;
    struct ws_err err;
    const struct ws_cta_stream *cta;
    int rc;

    ws_err_clear(&err);
    rc = ws_workload_load(&w, path, NULL, 0, NULL, opts, &err);
    if (rc == 0) {
        assert_int_equal(ws_expand_init(&x, &w, &err), 0);
        while ((rc = ws_expand_next(&x, &cta, &err)) == 1)
            ;
        ws_expand_free(&x);
        ws_workload_free(&w);
    }
    remove(path);
    if (rc != -1)
        fail_msg("no error, expected '%s'", want);
    ws_test_err(&err, path, line, want);
}

#endif
