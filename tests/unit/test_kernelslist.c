/*
 * Unit tests of the kernelslist.g parser (sim/trace/ws_kernelslist.c).
 */
#include <string.h>

#include "trace/ws_kernelslist.h"
#include "ws_test.h"

static void test_commands(void **state)
{
    static const char text[] =
        "MemcpyHtoD,0x00007f4a1e000000,16384\n"
        "kernel-1.traceg\n"
        "MemcpyDtoH,0x00007f4a1e000000,16384\n"
        "\n"
        "kernel-2-ctx_0x55d1.traceg.xz \n";
    struct ws_cmdlist l;
    struct ws_err err;

    (void)state;
    ws_err_clear(&err);
    assert_int_equal(ws_kernelslist_parse_mem(&l, "kl", "dir", text,
                                              strlen(text), &err), 0);
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
    assert_int_equal(ws_kernelslist_load(&l, "traces/accelsim/multi/kernelslist.g",
                                         &err), 0);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_commands),
        cmocka_unit_test(test_bundled),
        cmocka_unit_test(test_bad),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
