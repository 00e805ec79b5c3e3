/*
 * Unit tests of sim/run/ws_sweep_run and ws_study_run: a small sweep
 * (tests/data/sweeps/tiny.yaml, 2 strides x 2 L2 sizes of saxpy) run
 * through ws_sweep_run() into a temporary folder, its rows checked and
 * resumed; its shares merged into the same bytes; a dry run's listing; a
 * missing sweep file refused; the table of studies; and the quick
 * quadrant study (well under a second) run through ws_study_run() with no
 * command line at all.
 *
 * Leaves out: what the rows' numbers are (the command-line goldens and
 * digests), hostile output paths and signals (tests/cli/outputs.sh,
 * sweep_results.sh).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run/ws_study_run.h"
#include "run/ws_sweep_run.h"
#include "util/ws_csv.h"
#include "validate/ws_study.h"
#include "ws_test.h"

#define TINY "tests/data/sweeps/tiny.yaml"

/* A fresh folder under TMPDIR for one test; path has room for a name. */
static void tmp_folder(char *path, size_t cap)
{
    const char *tmp = getenv("TMPDIR");

    snprintf(path, cap, "%s/ws-sweep-run-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    assert_non_null(mkdtemp(path));
}

/* rm -r of a test's folder (two levels are all the tests make). */
static void rm_tree(const char *path)
{
    char cmd[4200];

    snprintf(cmd, sizeof cmd, "rm -rf '%s'", path);
    assert_int_equal(system(cmd), 0);
}

static int run_sweep(const char *out, long index, long size,
                     struct ws_sweep_outcome *oc)
{
    struct ws_sweep_request rq;
    struct ws_err err;
    int rc;

    ws_sweep_request_init(&rq);
    rq.file = TINY;
    rq.out = out;
    rq.jobs = 2;
    rq.array_index = index;
    rq.array_size = size;
    ws_err_clear(&err);
    rc = ws_sweep_run(&rq, oc, &err);
    if (rc != 0)
        fprintf(stderr, "ws_sweep_run: %s\n", err.text);
    return rc;
}

/* The four points, one row each, in point order: the strides and L2 sizes
 * of the file's axes, every one run, each with a positive cycle count. */
static void check_rows(const char *path)
{
    static const char *const stride[4] = {"1", "1", "8", "8"};
    static const char *const l2[4] = {"1572864", "3145728", "1572864",
                                      "3145728"};
    struct ws_csv t;
    struct ws_err err;
    long cpoint, cstride, cl2, cstatus;
    size_t len;
    char *text = ws_test_read(path, &len);

    /* Not ws_csv_load: a file this process read is an input, which the
     * rerun below would refuse to write. */
    assert_non_null(text);
    ws_err_clear(&err);
    assert_int_equal(ws_csv_parse(&t, path, text, len, 0, 0, &err), 0);
    free(text);
    assert_int_equal(t.nrows, 4);
    cpoint = ws_csv_col(&t, "point");
    cstride = ws_csv_col(&t, "param.stride");
    cl2 = ws_csv_col(&t, "set.l2.size");
    cstatus = ws_csv_col(&t, "status");
    assert_true(cpoint >= 0 && cstride >= 0 && cl2 >= 0 && cstatus >= 0);
    assert_true(ws_csv_col(&t, "cycles") >= 0);
    for (size_t i = 0; i < 4; i++) {
        char want[8];
        snprintf(want, sizeof want, "%zu", i);
        assert_string_equal(ws_csv_cell(&t, i, (size_t)cpoint), want);
        assert_string_equal(ws_csv_cell(&t, i, (size_t)cstride), stride[i]);
        assert_string_equal(ws_csv_cell(&t, i, (size_t)cl2), l2[i]);
        assert_string_equal(ws_csv_cell(&t, i, (size_t)cstatus), "ok");
        assert_true(ws_csv_value(&t, i, "cycles") > 0);
    }
    ws_csv_free(&t);
}

static char *slurp(const char *path)
{
    size_t len;
    char *text = ws_test_read(path, &len);

    assert_non_null(text);
    return text;
}

/* Run, then rerun: the second run keeps every point and runs none, and
 * the file is the same bytes. */
static void test_sweep_run_and_resume(void **state)
{
    struct ws_sweep_outcome oc;
    char dir[256], out[300];
    char *first, *second;

    (void)state;
    tmp_folder(dir, sizeof dir);
    snprintf(out, sizeof out, "%s/tiny.csv", dir);
    assert_int_equal(run_sweep(out, -1, -1, &oc), 0);
    assert_int_equal(oc.points, 4);
    assert_int_equal(oc.total, 4);
    assert_int_equal(oc.run, 4);
    assert_int_equal(oc.before, 0);
    assert_int_equal(oc.failed, 0);
    check_rows(out);
    first = slurp(out);
    assert_int_equal(run_sweep(out, -1, -1, &oc), 0);
    assert_int_equal(oc.run, 0);
    assert_int_equal(oc.before, 4);
    second = slurp(out);
    assert_string_equal(first, second);
    free(first);
    free(second);
    rm_tree(dir);
}

/* Two shares merged are the file one run writes. */
static void test_sweep_shares_merge(void **state)
{
    struct ws_sweep_outcome oc;
    char dir[256], whole[300], s0[300], s1[300], merged[300];
    const char *shares[2] = {s0, s1};
    struct ws_err err;
    char *a, *b;

    (void)state;
    tmp_folder(dir, sizeof dir);
    snprintf(whole, sizeof whole, "%s/whole.csv", dir);
    snprintf(s0, sizeof s0, "%s/s0.csv", dir);
    snprintf(s1, sizeof s1, "%s/s1.csv", dir);
    snprintf(merged, sizeof merged, "%s/merged.csv", dir);
    assert_int_equal(run_sweep(whole, -1, -1, &oc), 0);
    assert_int_equal(run_sweep(s0, 0, 2, &oc), 0);
    assert_int_equal(oc.total, 2);
    assert_int_equal(oc.points, 4);
    assert_int_equal(run_sweep(s1, 1, 2, &oc), 0);
    ws_err_clear(&err);
    /* One share alone misses points: refused. */
    assert_int_equal(ws_sweep_merge_files(merged, shares, 1, &err), -1);
    assert_true(err.set);
    assert_int_equal(access(merged, F_OK), -1);
    ws_err_clear(&err);
    assert_int_equal(ws_sweep_merge_files(merged, shares, 2, &err), 0);
    a = slurp(whole);
    b = slurp(merged);
    assert_string_equal(a, b);
    free(a);
    free(b);
    rm_tree(dir);
}

/* A dry run lists every point as to run and writes no results. */
static void test_sweep_dry_run(void **state)
{
    struct ws_sweep_request rq;
    struct ws_err err;
    char dir[256], out[300], line[512];
    FILE *say = tmpfile();
    int lines = 0, to_run = 0;

    (void)state;
    assert_non_null(say);
    tmp_folder(dir, sizeof dir);
    snprintf(out, sizeof out, "%s/dry.csv", dir);
    ws_sweep_request_init(&rq);
    rq.file = TINY;
    rq.out = out;
    rq.dry_run = 1;
    rq.say = say;
    ws_err_clear(&err);
    assert_int_equal(ws_sweep_run(&rq, NULL, &err), 0);
    rewind(say);
    while (fgets(line, sizeof line, say)) {
        lines++;
        to_run += strstr(line, ",to run,") != NULL;
    }
    fclose(say);
    assert_int_equal(lines, 5);
    assert_int_equal(to_run, 4);
    assert_int_equal(access(out, F_OK), -1);
    rm_tree(dir);
}

/* A missing sweep file is the input's error, and leaves nothing. */
static void test_sweep_missing_file(void **state)
{
    struct ws_sweep_request rq;
    struct ws_err err;
    char dir[256], out[300];

    (void)state;
    tmp_folder(dir, sizeof dir);
    snprintf(out, sizeof out, "%s/none.csv", dir);
    ws_sweep_request_init(&rq);
    rq.file = "tests/data/sweeps/no_such_sweep.yaml";
    rq.out = out;
    ws_err_clear(&err);
    assert_int_equal(ws_sweep_run(&rq, NULL, &err), -1);
    assert_true(err.set);
    assert_false(err.internal);
    assert_non_null(strstr(err.text, "no_such_sweep.yaml"));
    assert_int_equal(access(out, F_OK), -1);
    rm_tree(dir);
}

/* Every row of the table: a unique name, help, an analysis, sweeps whose
 * full study files exist (OWNER/S naming a study of the table). */
static void test_study_table(void **state)
{
    size_t n = ws_study_count();

    (void)state;
    assert_true(n >= 6);
    assert_null(ws_study_at(n));
    assert_null(ws_study_find("nosuch"));
    assert_ptr_equal(ws_study_find("quadrant"), ws_study_find("quadrant"));
    assert_string_equal(ws_study_find("saxpy")->sweeps[0], "saxpy_paper");
    for (size_t i = 0; i < n; i++) {
        const struct ws_study_def *d = ws_study_at(i);
        assert_non_null(d->name);
        assert_non_null(d->what);
        assert_non_null(d->analysis);
        assert_non_null(d->sweeps[0]);
        assert_ptr_equal(ws_study_find(d->name), d);
        for (size_t k = 0; k < WS_STUDY_MAX_SWEEPS && d->sweeps[k]; k++) {
            const char *slash = strchr(d->sweeps[k], '/');
            char path[200], owner[64];
            struct stat st;
            snprintf(path, sizeof path, "validate/studies/%s.yaml",
                     slash ? slash + 1 : d->sweeps[k]);
            assert_int_equal(stat(path, &st), 0);
            if (slash) {
                snprintf(owner, sizeof owner, "%.*s",
                         (int)(slash - d->sweeps[k]), d->sweeps[k]);
                assert_non_null(ws_study_find(owner));
            }
        }
    }
}

/* The quick quadrant study, from its table row, into a temporary folder:
 * its sweep's results, its report and its summary. */
static void test_study_quadrant_quick(void **state)
{
    struct ws_study_request rq;
    struct ws_err err;
    char dir[256], path[400];
    struct ws_csv t;
    char *report;

    (void)state;
    tmp_folder(dir, sizeof dir);
    memset(&rq, 0, sizeof rq);
    rq.dir = dir;
    rq.word = "validate";
    rq.quick = 1;
    rq.jobs = 2;
    ws_err_clear(&err);
    assert_int_equal(ws_study_check_root(&rq, &err), 0);
    if (ws_study_run(&rq, ws_study_find("quadrant"), &err) != 0)
        fail_msg("ws_study_run: %s", err.text);
    snprintf(path, sizeof path, "%s/quadrant/quadrant.csv", dir);
    assert_int_equal(ws_csv_load(&t, path, 0, 0, &err), 0);
    assert_true(t.nrows >= 2);
    for (size_t i = 0; i < t.nrows; i++)
        assert_true(ws_csv_row_ok(&t, i));
    ws_csv_free(&t);
    snprintf(path, sizeof path, "%s/quadrant/report.md", dir);
    report = slurp(path);
    assert_non_null(strstr(report, "#"));
    free(report);
    snprintf(path, sizeof path, "%s/quadrant/summary.json", dir);
    assert_int_equal(access(path, R_OK), 0);
    rm_tree(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sweep_run_and_resume),
        cmocka_unit_test(test_sweep_shares_merge),
        cmocka_unit_test(test_sweep_dry_run),
        cmocka_unit_test(test_sweep_missing_file),
        cmocka_unit_test(test_study_table),
        cmocka_unit_test(test_study_quadrant_quick),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
