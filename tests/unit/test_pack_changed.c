/*
 * Unit tests of a .wst that changes while it is read (sim/trace/
 * ws_packr_guard.c and ws_packr_unchanged in ws_packr.c), made
 * deterministic by changing the file between two calls of the reader:
 * truncated while a kernel is open (the next read past the new end would
 * be SIGBUS; it must be the one error "the file changed while it was being
 * read"), whole and streamed; rewritten in place without a fault (its
 * modification time tells); replaced by a rename (not a change: the
 * mapping keeps the file that was opened).  And the guard's own edges: a
 * SIGBUS outside a .wst still kills, and its table has a size.
 *
 * Leaves out: a change that races a read (timing-dependent); the command
 * line's version of the same, deterministic through an external model
 * run between two kernels, is tests/cli/wst_changed.sh.
 */
#define _DEFAULT_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "trace/ws_pack.h"
#include "ws_packfix.h"
#include "ws_test.h"


#define CHANGED \
    "the file changed while it was being read (truncated or " \
    "rewritten)"

static const char *tmp_path(const char *what)
{
    static char path[2][80];
    static int n;

    n ^= 1;
    snprintf(path[n], sizeof path[n], "/tmp/ws-test-changed-%s-%ld.wst", what,
             (long)getpid());
    return path[n];
}

/* Packs hopper (22 KB: several pages, so that a truncation leaves pages
 * that fault) into path with an old modification time, so that any write
 * changes it whatever the clock's grain. */
static void pack_old(const char *path)
{
    struct timespec old[2] = {{946684800, 0}, {946684800, 0}};

    packfix_pack("traces/accelsim/hopper", path, NULL);
    assert_int_equal(utimensat(AT_FDCWD, path, old, 0), 0);
}

static struct ws_pack *open_pack(const char *path)
{
    struct ws_pack *p;
    struct ws_err err;

    ws_err_clear(&err);
    if (ws_pack_open(&p, path, &err) < 0)
        fail_msg("%s", err.text);
    return p;
}

static void expect_changed(const struct ws_err *err, const char *path,
                           const char *how)
{
    if (!err->set)
        fail_msg("a changed file read without an error");
    ws_test_err(err, path, 1, CHANGED);
    assert_non_null(strstr(err->text, "(expected a trace left alone while "
                                      "warpsim runs)"));
    assert_false(err->internal);
    if (how)
        assert_non_null(strstr(err->text, how));
}

/* The old pack at path, open, and its first kernel's first CTA read. */
static struct ws_pack *pack_and_read(const char *path,
                                     struct ws_pack_reader **r,
                                     const struct ws_cta_stream **cta,
                                     struct ws_err *err)
{
    struct ws_pack *p;

    pack_old(path);
    p = open_pack(path);
    ws_err_clear(err);
    assert_int_equal(ws_pack_reader_open(r, p, 0, NULL, err), 0);
    assert_int_equal(ws_pack_reader_next_cta(*r, cta, err), 1);
    return p;
}

/* Opening the first kernel again is refused as a changed file (how: what
 * the message says happened). */
static void expect_reopen_changed(struct ws_pack *p, const char *path,
                                  const char *how)
{
    struct ws_pack_reader *r;
    struct ws_err err;

    ws_err_clear(&err);
    assert_int_equal(ws_pack_reader_open(&r, p, 0, NULL, &err), -1);
    expect_changed(&err, path, how);
}

/* Truncated between two CTAs of an open kernel, then before the next
 * kernel is opened: past the first page, a read would have been SIGBUS. */
static void test_truncate_whole(void **state)
{
    const char *path = tmp_path("whole");
    struct ws_pack_reader *r;
    const struct ws_cta_stream *cta;
    struct ws_pack *p;
    struct ws_err err;

    (void)state;
    p = pack_and_read(path, &r, &cta, &err);
    assert_int_equal(truncate(path, 64), 0);
    while (ws_pack_reader_next_cta(r, &cta, &err) == 1)
        ;
    expect_changed(&err, path, NULL);
    ws_pack_reader_close(r);
    /* The kernel header lies pages past the new end: a fault, reported
     * with where it was. */
    expect_reopen_changed(p, path, "was gone when read");
    ws_pack_close(p);
    unlink(path);
}

/* Streamed: truncated between two windows of a warp. */
static void test_truncate_streamed(void **state)
{
    const char *path = tmp_path("stream");
    struct ws_pack_reader *r;
    const struct ws_cta_stream *cta;
    struct ws_warp_reader wr;
    struct ws_inst inst[2];
    uint64_t addrs[2 * 32];
    struct ws_pack *p;
    struct ws_err err;
    long n;

    (void)state;
    pack_old(path);
    p = open_pack(path);
    ws_err_clear(&err);
    assert_int_equal(ws_pack_reader_open(&r, p, 0, NULL, &err), 0);
    assert_int_equal(ws_pack_reader_next_header(r, &cta, &err), 1);
    assert_int_equal(ws_pack_reader_warp_open(r, cta, 0, &wr, &err), 0);
    assert_int_equal(wr.read(wr.ctx, inst, 2, addrs, 2 * 32, &err), 2);
    assert_int_equal(truncate(path, 64), 0);
    while ((n = wr.read(wr.ctx, inst, 2, addrs, 2 * 32, &err)) > 0)
        ;
    assert_int_equal(n, -1);
    expect_changed(&err, path, NULL);
    wr.close(wr.ctx);
    ws_pack_reader_close(r);
    ws_pack_close(p);
    unlink(path);
}

/* Rewritten in place with the same bytes: no fault, but the file's time
 * moved; found at the end of the kernel and at the next kernel's open. */
static void test_rewrite_in_place(void **state)
{
    const char *path = tmp_path("rewrite");
    struct ws_pack_reader *r;
    const struct ws_cta_stream *cta;
    struct ws_pack *p;
    struct ws_err err;
    char head[64];
    int fd;

    (void)state;
    p = pack_and_read(path, &r, &cta, &err);
    fd = open(path, O_RDWR);
    assert_true(fd >= 0);
    assert_int_equal(pread(fd, head, sizeof head, 0), (ssize_t)sizeof head);
    assert_int_equal(pwrite(fd, head, sizeof head, 0), (ssize_t)sizeof head);
    close(fd);
    while (ws_pack_reader_next_cta(r, &cta, &err) == 1)
        ;
    expect_changed(&err, path, "modified since it was opened");
    ws_pack_reader_close(r);
    expect_reopen_changed(p, path, "modified since it was opened");
    ws_pack_close(p);
    unlink(path);
}

/* Replaced by a rename (how a careful tool replaces a file): the mapping
 * keeps the file that was opened, and reads on to its end unharmed. */
static void test_replace_by_rename(void **state)
{
    const char *path = tmp_path("rename"), *other = tmp_path("other");
    struct ws_pack_reader *r;
    const struct ws_cta_stream *cta;
    struct ws_pack *p;
    struct ws_err err;
    int ctas = 1;

    (void)state;
    p = pack_and_read(path, &r, &cta, &err);
    packfix_pack("traces/accelsim/legacy", other, NULL);
    assert_int_equal(rename(other, path), 0);
    while (ws_pack_reader_next_cta(r, &cta, &err) == 1)
        ctas++;
    if (err.set)
        fail_msg("%s", err.text);
    assert_int_equal(ctas, 4); /* hopper's, not legacy's 3 */
    ws_pack_reader_close(r);
    ws_pack_close(p);
    unlink(path);
}

/* The child (this program run again, outside cmocka, whose own SIGBUS
 * handler would be what the guard passes faults on to): a pack open, so
 * the guard is installed over the default, then a SIGBUS that is no
 * .wst's, from a mapping of another file cut short or sent.  It must end
 * the process.  Exit 3: the child could not set up. */
static int child_faults(const char *pack, int sent)
{
    const char *path = tmp_path("foreign");
    long page = sysconf(_SC_PAGESIZE);
    volatile const char *m;
    struct ws_pack *p;
    struct ws_err err;
    int fd;

    ws_err_clear(&err);
    if (!freopen("/dev/null", "w", stderr) || ws_pack_open(&p, pack, &err))
        return 3;
    if (sent) {
        raise(SIGBUS);
        return 0;
    }
    fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    if (fd < 0 || ftruncate(fd, 2 * page) != 0)
        return 3;
    m = mmap(NULL, (size_t)(2 * page), PROT_READ, MAP_SHARED, fd, 0);
    unlink(path);
    if (m == MAP_FAILED || ftruncate(fd, 0) != 0)
        return 3;
    (void)m[page]; /* SIGBUS */
    return 0;
}

static void test_foreign_sigbus(void **state)
{
    const char *path = tmp_path("guarded");

    (void)state;
    pack_old(path);
    for (int sent = 0; sent < 2; sent++) {
        int status = 0;
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            char *argv[] = {"test_pack_changed", "--sigbus-child",
                            sent ? "1" : "0", (char *)path, NULL};
            execv("/proc/self/exe", argv);
            _exit(3);
        }
        assert_int_equal(waitpid(pid, &status, 0), pid);
        /* Killed by the signal (or, under a sanitizer whose handler the
         * guard passes it on to, its report's exit): not swallowed. */
        assert_false(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        assert_false(WIFEXITED(status) && WEXITSTATUS(status) == 3);
/* A sanitizer's own SIGBUS handler reports and exits instead of dying
 * of the signal. */
#if !WS_TEST_ASAN
        assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGBUS);
#endif
    }
    unlink(path);
}

/* The guard's table is bounded: past it an open fails (not the input's
 * fault, exit 1) instead of mapping unguarded; a closed pack frees its
 * slot. */
static void test_guard_slots(void **state)
{
    const char *path = tmp_path("slots");
    struct ws_pack *p[40];
    struct ws_err err;
    int n = 0;

    (void)state;
    pack_old(path);
    ws_err_clear(&err);
    while (n < 40 && ws_pack_open(&p[n], path, &err) == 0)
        n++;
    assert_true(n >= 8 && n < 40);
    assert_true(err.set && err.internal);
    assert_non_null(strstr(err.text, "packed traces open at once"));
    ws_pack_close(p[--n]);
    ws_err_clear(&err);
    assert_int_equal(ws_pack_open(&p[n], path, &err), 0);
    n++;
    while (n > 0)
        ws_pack_close(p[--n]);
    unlink(path);
}

/* Run as "--sigbus-child 0|1 PACK", the child of test_foreign_sigbus. */
int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_truncate_whole),
        cmocka_unit_test(test_truncate_streamed),
        cmocka_unit_test(test_rewrite_in_place),
        cmocka_unit_test(test_replace_by_rename),
        cmocka_unit_test(test_foreign_sigbus),
        cmocka_unit_test(test_guard_slots),
    };

    if (argc == 4 && strcmp(argv[1], "--sigbus-child") == 0)
        return child_faults(argv[3], argv[2][0] == '1');
    return cmocka_run_group_tests(tests, NULL, NULL);
}
