/*
 * Unit tests of the kernelslist.g parser (sim/trace/ws_kernelslist.c).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace/ws_kernelslist.h"
#include "ws_test.h"

static void test_commands(void **state)
{
    static const char text[] = "MemcpyHtoD,0x00007f4a1e000000,16384\n"
                               "kernel-1.traceg\n"
                               "MemcpyDtoH,0x00007f4a1e000000,16384\n"
                               "\n"
                               "kernel-2-ctx_0x55d1.traceg.xz \n";
    struct ws_cmdlist l;
    struct ws_err err;

    (void)state;
    ws_err_clear(&err);
    assert_int_equal(ws_kernelslist_parse_mem(&l, "kl", "dir", text,
                                              strlen(text), &err),
                     0);
    assert_int_equal(l.n, 3);
    assert_int_equal(l.nkernels, 2);
    assert_int_equal(l.cmds[0].kind, WS_CMD_MEMCPY_HTOD);
    assert_true(l.cmds[0].addr == 0x7f4a1e000000ull);
    assert_true(l.cmds[0].bytes == 16384);
    assert_string_equal(l.cmds[1].path, "dir/kernel-1.traceg");
    assert_string_equal(l.cmds[2].path, "dir/kernel-2-ctx_0x55d1.traceg.xz");
    assert_int_equal(l.cmds[2].line, 5);
    ws_kernelslist_free(&l);
}

static void test_bundled(void **state)
{
    struct ws_cmdlist l;
    struct ws_err err;

    (void)state;
    ws_err_clear(&err);
    assert_int_equal(ws_kernelslist_load(&l,
                                         "traces/accelsim/multi/kernelslist.g",
                                         &err),
                     0);
    assert_int_equal(l.nkernels, 3);
    assert_string_equal(l.cmds[1].path,
                        "traces/accelsim/multi/kernel-1.traceg.xz");
    ws_kernelslist_free(&l);
}

static void test_bad(void **state)
{
    static const struct {
        const char *text;
        long line;
        const char *want;
    } cases[] = {
        {"MemcpyHtoD,0xzz,4\nkernel-1.traceg\n", 1, "bad copy address"},
        {"MemcpyHtoD,0x10\n", 1, "bad MemcpyHtoD line"},
        {"MemcpyHtoD,0x10,-4\n", 1, "bad copy size"},
        {"kernel 1.traceg\n", 1, "bad kernel line"},
        {"# nothing\n", 1, "no kernel in the list"},
        {"# see kernel-1.traceg\n", 1, "no kernel in the list"},
        {"MemcpyHtoD,0xffffffffffffff00,512\n", 1,
         "copy of 512 bytes at "
         "0xffffffffffffff00 runs past the end of the address space "
         "(expected a copy below 2^64)"},
        {"kernel-1.traceg\n/data/my run/kernel-2.traceg\n", 2,
         "bad kernel line"},
    };
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct ws_cmdlist l;
        struct ws_err err;
        ws_err_clear(&err);
        assert_int_equal(ws_kernelslist_parse_mem(&l, "kl", "", cases[i].text,
                                                  strlen(cases[i].text), &err),
                         -1);
        ws_test_err(&err, "kl", cases[i].line, cases[i].want);
    }
}

/* Absolute paths and paths with folders name kernels too (they were
 * skipped, leaving "no kernel in the list"); relative ones stay relative to
 * the list's folder, and each entry keeps the line that named it. */
static void test_paths(void **state)
{
    static const char text[] = "/abs/run/kernel-1.traceg\n"
                               "../other/kernel-2.traceg.xz\n"
                               "# kernel-9.traceg is not run\n"
                               "sub/k3.traceg\n"
                               "MemcpyHtoD,0xfffffffffffffff0,16\n";
    struct ws_cmdlist l;
    struct ws_err err;

    (void)state;
    ws_err_clear(&err);
    assert_int_equal(ws_kernelslist_parse_mem(&l, "kl", "dir", text,
                                              strlen(text), &err),
                     0);
    assert_int_equal(l.nkernels, 3);
    assert_string_equal(l.cmds[0].path, "/abs/run/kernel-1.traceg");
    assert_int_equal(l.cmds[0].line, 1);
    assert_string_equal(l.cmds[1].path, "dir/../other/kernel-2.traceg.xz");
    assert_int_equal(l.cmds[1].line, 2);
    assert_string_equal(l.cmds[2].path, "dir/sub/k3.traceg");
    assert_int_equal(l.cmds[2].line, 4);
    assert_int_equal(l.cmds[3].kind, WS_CMD_MEMCPY_HTOD);
    ws_kernelslist_free(&l);
}

/* Loading checks every kernel file up front and places a failure at the
 * line naming it: a missing file, and a FIFO, which must not be opened for
 * reading (that would wait for a writer forever). */
static void test_load_checks(void **state)
{
    char tmpl[] = "/tmp/ws-kl-XXXXXX", list[64], fifo[64], sub[64];
    char abs[PATH_MAX], text[PATH_MAX + 128], want[256], cwd[PATH_MAX - 64];
    struct ws_cmdlist l;
    struct ws_err err;
    FILE *fp;

    (void)state;
    assert_non_null(mkdtemp(tmpl));
    assert_non_null(getcwd(cwd, sizeof cwd));
    snprintf(abs, sizeof abs, "%s/traces/accelsim/vecadd/kernel-1.traceg", cwd);
    snprintf(list, sizeof list, "%s/sub/kernelslist.g", tmpl);
    snprintf(sub, sizeof sub, "%s/sub", tmpl);
    snprintf(fifo, sizeof fifo, "%s/kernel-fifo.traceg", tmpl);
    assert_int_equal(mkdir(sub, 0700), 0);
    assert_int_equal(mkfifo(fifo, 0600), 0);

    /* An absolute path and a ../ path, both to real files. */
    snprintf(text, sizeof text, "%s\n../kernel-2.traceg\n", abs);
    snprintf(sub, sizeof sub, "%s/kernel-2.traceg", tmpl);
    assert_non_null(fp = fopen(sub, "w"));
    fclose(fp);
    assert_non_null(fp = fopen(list, "w"));
    fputs(text, fp);
    fclose(fp);
    ws_err_clear(&err);
    assert_int_equal(ws_kernelslist_load(&l, list, &err), 0);
    assert_int_equal(l.nkernels, 2);
    assert_string_equal(l.cmds[0].path, abs);
    ws_kernelslist_free(&l);

    /* The FIFO, named on line 2. */
    assert_non_null(fp = fopen(list, "w"));
    fprintf(fp, "%s\n../kernel-fifo.traceg\n", abs);
    fclose(fp);
    ws_err_clear(&err);
    assert_int_equal(ws_kernelslist_load(&l, list, &err), -1);
    ws_test_err(&err, list, 2,
                "kernel-fifo.traceg: not a regular file "
                "(expected a trace or listing file)");

    /* A missing kernel, named on line 1. */
    assert_non_null(fp = fopen(list, "w"));
    fputs("kernel-9.traceg\n", fp);
    fclose(fp);
    ws_err_clear(&err);
    assert_int_equal(ws_kernelslist_load(&l, list, &err), -1);
    snprintf(want, sizeof want,
             "%s/sub/kernel-9.traceg: cannot open: No such "
             "file or directory (expected a readable file)",
             tmpl);
    ws_test_err(&err, list, 1, want);

    unlink(list);
    unlink(fifo);
    unlink(sub);
    snprintf(sub, sizeof sub, "%s/sub", tmpl);
    rmdir(sub);
    rmdir(tmpl);
}

/* A kernel given on its own comes from the command line: its path is
 * taken as it is, spaces and all. */
static void test_single(void **state)
{
    struct ws_cmdlist l;
    struct ws_err err;

    (void)state;
    ws_err_clear(&err);
    assert_int_equal(ws_kernelslist_single(&l, "my run/kernel-1.traceg", &err),
                     0);
    assert_int_equal(l.nkernels, 1);
    assert_string_equal(l.cmds[0].path, "my run/kernel-1.traceg");
    assert_int_equal(l.cmds[0].line, 0);
    ws_kernelslist_free(&l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_commands),    cmocka_unit_test(test_bundled),
        cmocka_unit_test(test_bad),         cmocka_unit_test(test_paths),
        cmocka_unit_test(test_load_checks), cmocka_unit_test(test_single),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
