/*
 * Unit tests of sim/util: strict number parsing, string interning, error
 * formatting, the line reader (plain, CRLF, xz, truncated xz, binary,
 * files that are not regular files), files' content hashes and
 * allocation in whole cache lines.
 */
#include <fcntl.h>
#include <lzma.h>
#include <zstd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/ws_cacheline.h"
#include "util/ws_demangle.h"
#include "util/ws_hash.h"
#include "util/ws_lines.h"
#include "util/ws_num.h"
#include "util/ws_readset.h"
#include "util/ws_strtab.h"
#include "util/ws_u64set.h"
#include "ws_test.h"

static void test_num(void **state)
{
    uint64_t u;
    int64_t i;
    uint32_t w;

    (void)state;
    assert_int_equal(ws_num_u64("18446744073709551615", 20, &u), 0);
    assert_true(u == UINT64_MAX);
    assert_int_equal(ws_num_u64("18446744073709551616", 20, &u), -1);
    assert_int_equal(ws_num_u64("", 0, &u), -1);
    assert_int_equal(ws_num_u64("12a", 3, &u), -1);
    assert_int_equal(ws_num_u64("-1", 2, &u), -1);
    assert_int_equal(ws_num_i64("-9223372036854775808", 20, &i), 0);
    assert_true(i == INT64_MIN);
    assert_int_equal(ws_num_i64("9223372036854775808", 19, &i), -1);
    assert_int_equal(ws_num_i64("+7", 2, &i), 0);
    assert_int_equal(i, 7);
    assert_int_equal(ws_num_hex("0x00007f4a1e000000", 18, &u), 0);
    assert_true(u == 0x7f4a1e000000ull);
    assert_int_equal(ws_num_hex("ffffffff", 8, &u), 0);
    assert_true(u == 0xffffffffull);
    assert_int_equal(ws_num_hex("0000000000000000001", 19, &u), 0);
    assert_true(u == 1);
    assert_int_equal(ws_num_hex("10000000000000000", 17, &u), -1);
    assert_int_equal(ws_num_hex("0x", 2, &u), -1);
    assert_int_equal(ws_num_hex("0xg", 3, &u), -1);
    assert_int_equal(ws_num_u32("4294967296", 10, &w), -1);
    assert_int_equal(ws_num_u32("4294967295", 10, &w), 0);
}

static void test_strtab(void **state)
{
    struct ws_strtab t;
    char buf[32];

    (void)state;
    ws_strtab_init(&t);
    assert_int_equal(ws_strtab_find(&t, "FFMA", 4), UINT32_MAX);
    assert_int_equal(ws_strtab_intern(&t, "FFMA", 4), 0);
    assert_int_equal(ws_strtab_intern(&t, "FFMAX", 4), 0);
    assert_int_equal(ws_strtab_intern(&t, "FADD", 4), 1);
    for (int k = 0; k < 1000; k++) {
        snprintf(buf, sizeof buf, "OP%d", k);
        assert_int_equal(ws_strtab_intern(&t, buf, strlen(buf)), k + 2);
    }
    assert_int_equal(ws_strtab_find(&t, "OP500", 5), 502);
    assert_string_equal(ws_strtab_str(&t, 1), "FADD");
    assert_string_equal(ws_strtab_str(&t, 99999), "?");
    ws_strtab_free(&t);
}

static void test_err_format(void **state)
{
    struct ws_err err;

    (void)state;
    ws_err_clear(&err);
    ws_err_at(&err, "f.traceg", 12, 7, "bad %s (expected %s)", "x\ny", "z");
    assert_string_equal(err.text, "f.traceg:12:7: bad x y (expected z)");
    /* The first error wins. */
    ws_err_at(&err, "g", 1, 1, "later");
    assert_string_equal(err.text, "f.traceg:12:7: bad x y (expected z)");
}

/* A message quoting a long line is cut in the middle, never at the end:
 * the position and the "(expected ...)" part both survive. */
static void test_err_long(void **state)
{
    static char quoted[2000];
    struct ws_err err;
    size_t n;

    (void)state;
    memset(quoted, 'q', sizeof quoted - 1);
    ws_err_clear(&err);
    ws_err_at(&err, "f", 3, 4, "bad '%s' (expected a short word)", quoted);
    n = strlen(err.text);
    assert_true(n < sizeof err.text);
    assert_true(strncmp(err.text, "f:3:4: bad 'qqq", 15) == 0);
    assert_string_equal(err.text + n - 23, "(expected a short word)");
    assert_non_null(strstr(err.text, " ... "));
}

static int read_all(struct ws_lines *r, char out[][64], int max)
{
    struct ws_err err;
    char *line;
    size_t len;
    int n = 0, rc;

    ws_err_clear(&err);
    while ((rc = ws_lines_next(r, &line, &len, &err)) == 1 && n < max)
        snprintf(out[n++], 64, "%s", line);
    return rc < 0 ? -1 : n;
}

static void test_lines_plain(void **state)
{
    static const char text[] = "a\r\nbb\n\nlast";
    struct ws_lines r;
    struct ws_err err;
    char got[8][64];

    (void)state;
    ws_err_clear(&err);
    assert_int_equal(ws_lines_open_mem(&r, "m", text, sizeof text - 1, &err),
                     0);
    assert_int_equal(read_all(&r, got, 8), 4);
    assert_string_equal(got[0], "a");
    assert_string_equal(got[1], "bb");
    assert_string_equal(got[2], "");
    assert_string_equal(got[3], "last");
    assert_int_equal(r.lineno, 4);
    ws_lines_close(&r);
}

static void test_lines_binary(void **state)
{
    static const char text[] = "ok\nbad\0line\n";
    struct ws_lines r;
    struct ws_err err;
    char *line;
    size_t len;

    (void)state;
    ws_err_clear(&err);
    assert_int_equal(ws_lines_open_mem(&r, "bin", text, sizeof text - 1, &err),
                     0);
    assert_int_equal(ws_lines_next(&r, &line, &len, &err), 1);
    assert_int_equal(ws_lines_next(&r, &line, &len, &err), -1);
    ws_test_err(&err, "bin", 2, "NUL byte");
    ws_lines_close(&r);
}

static void test_lines_long(void **state)
{
    size_t n = WS_LINES_MAX + 10;
    char *text = malloc(n);
    struct ws_lines r;
    struct ws_err err;
    char *line;
    size_t len;

    (void)state;
    memset(text, 'x', n);
    ws_err_clear(&err);
    assert_int_equal(ws_lines_open_mem(&r, "long", text, n, &err), 0);
    assert_int_equal(ws_lines_next(&r, &line, &len, &err), -1);
    ws_test_err(&err, "long", 1, "longer than");
    ws_lines_close(&r);
    free(text);
}

static uint8_t *xz_compress(const char *text, size_t len, size_t *out_len)
{
    size_t cap = len + 1024, pos = 0;
    uint8_t *out = malloc(cap);

    assert_int_equal(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, NULL,
                                             (const uint8_t *)text, len, out,
                                             &pos, cap),
                     LZMA_OK);
    *out_len = pos;
    return out;
}

/* More than one 64 KiB decode chunk of "line N" lines, so that lines
 * straddle refills; its length in *n. */
static void lines_text(char *text, size_t cap, size_t *n)
{
    *n = 0;
    for (int i = 0; *n < cap - 64; i++)
        *n += (size_t)snprintf(text + *n, cap - *n, "line %d\n", i);
}

/* Reads the compressed form of lines_text's text to its end, each line
 * checked. */
static void lines_read_all(const char *name, const uint8_t *data, size_t len)
{
    struct ws_lines r;
    struct ws_err err;
    char *line;
    size_t n;
    long count = 0;
    int rc;

    ws_err_clear(&err);
    assert_int_equal(ws_lines_open_mem(&r, name, data, len, &err), 0);
    while ((rc = ws_lines_next(&r, &line, &n, &err)) == 1) {
        char want[32];
        snprintf(want, sizeof want, "line %ld", count);
        assert_string_equal(line, want);
        count++;
    }
    assert_int_equal(rc, 0);
    assert_true(count > 10000);
    ws_lines_close(&r);
}

static void test_lines_xz(void **state)
{
    char text[200000];
    size_t n, xz_len;
    uint8_t *xz;
    struct ws_lines r;
    struct ws_err err;
    char *line;
    size_t len;
    int rc;

    (void)state;
    lines_text(text, sizeof text, &n);
    xz = xz_compress(text, n, &xz_len);
    lines_read_all("t.xz", xz, xz_len);

    /* Cut the stream: the reader must say so instead of ending early. */
    ws_err_clear(&err);
    assert_int_equal(ws_lines_open_mem(&r, "cut.xz", xz, xz_len / 2, &err), 0);
    while ((rc = ws_lines_next(&r, &line, &len, &err)) == 1)
        ;
    assert_int_equal(rc, -1);
    assert_non_null(strstr(err.text, "truncated xz"));
    ws_lines_close(&r);
    free(xz);
}

/* Two zstd frames of text, the second starting mid-line: the reader takes
 * the concatenation, as zstd -d does. */
static uint8_t *zstd_frames(const char *text, size_t len, size_t *out_len)
{
    size_t half = len / 2 + 3, cap = ZSTD_compressBound(len) + 64, a, b;
    uint8_t *out = malloc(cap);

    a = ZSTD_compress(out, cap, text, half, 19);
    assert_false(ZSTD_isError(a));
    b = ZSTD_compress(out + a, cap - a, text + half, len - half, 3);
    assert_false(ZSTD_isError(b));
    *out_len = a + b;
    return out;
}

static void test_lines_zstd(void **state)
{
    char text[200000];
    size_t n, z_len;
    uint8_t *z;
    struct ws_lines r;
    struct ws_err err;
    char *line;
    size_t len;
    int rc;

    (void)state;
    lines_text(text, sizeof text, &n);
    z = zstd_frames(text, n, &z_len);
    lines_read_all("t.zst", z, z_len);

    /* A skippable frame first (magic 0x184D2A5x, a length, its bytes) is
     * part of a zstd stream: skipped, not taken for text. */
    {
        uint8_t *sk = malloc(z_len + 13);
        const uint8_t head[13] = {0x53, 0x2a, 0x4d, 0x18, 5,   0,  0,
                                  0,    'h',  'e',  'l',  'l', 'o'};
        memcpy(sk, head, sizeof head);
        memcpy(sk + sizeof head, z, z_len);
        ws_err_clear(&err);
        assert_int_equal(ws_lines_open_mem(&r, "skip.zst", sk,
                                           z_len + sizeof head, &err),
                         0);
        assert_int_equal(ws_lines_next(&r, &line, &len, &err), 1);
        assert_string_equal(line, "line 0");
        ws_lines_close(&r);
        free(sk);
    }

    /* Cut inside the last frame: said, not taken for a short file. */
    ws_err_clear(&err);
    assert_int_equal(ws_lines_open_mem(&r, "cut.zst", z, z_len - 7, &err), 0);
    while ((rc = ws_lines_next(&r, &line, &len, &err)) == 1)
        ;
    assert_int_equal(rc, -1);
    assert_non_null(strstr(err.text, "truncated zstd"));
    ws_lines_close(&r);

    /* Garbage after the magic: one error, placed. */
    memset(z + 8, 0xa5, 32);
    ws_err_clear(&err);
    rc = ws_lines_open_mem(&r, "bad.zst", z, z_len, &err);
    while (rc == 0 && (rc = ws_lines_next(&r, &line, &len, &err)) == 1)
        ;
    assert_int_equal(rc, -1);
    assert_non_null(strstr(err.text, "zstd"));
    assert_non_null(strstr(err.text, "(expected"));
    if (r.chunk)
        ws_lines_close(&r);
    free(z);
}

static void test_lines_missing_file(void **state)
{
    struct ws_lines r;
    struct ws_err err;

    (void)state;
    ws_err_clear(&err);
    assert_int_equal(ws_lines_open(&r, "no/such/file", &err), -1);
    /* Unplaced, so that the caller who knows where the name was written can
     * place it; it still says what was expected. */
    assert_string_equal(err.text, "no/such/file: cannot open: No such file or "
                                  "directory (expected a readable file)");
    assert_false(err.placed);
    ws_err_place(&err, "kernelslist.g", 3, 1);
    assert_string_equal(err.text,
                        "kernelslist.g:3:1: no/such/file: cannot "
                        "open: No such file or directory (expected a readable "
                        "file)");
}

/* Only regular files are read.  A FIFO used to block forever in open(); a
 * folder would fail on read.  Both are refused before anything blocks, by
 * ws_lines_open and by the read-nothing ws_lines_check. */
static void test_lines_not_regular(void **state)
{
    char dir[] = "/tmp/ws-lines-XXXXXX", fifo[64], want[128], file[64];
    struct ws_lines r;
    struct ws_err err;
    FILE *fp;

    (void)state;
    assert_non_null(mkdtemp(dir));
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    snprintf(file, sizeof file, "%s/file", dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    ws_err_clear(&err);
    assert_int_equal(ws_lines_open(&r, fifo, &err), -1);
    snprintf(want, sizeof want,
             "%s: not a regular file (expected a trace or "
             "listing file)",
             fifo);
    assert_string_equal(err.text, want);
    ws_err_clear(&err);
    assert_int_equal(ws_lines_check(fifo, &err), -1);
    assert_string_equal(err.text, want);
    ws_err_clear(&err);
    assert_int_equal(ws_lines_open(&r, dir, &err), -1);
    snprintf(want, sizeof want,
             "%s: not a regular file (expected a trace or "
             "listing file)",
             dir);
    assert_string_equal(err.text, want);
    /* A regular file passes, and reads normally after O_NONBLOCK is gone. */
    assert_non_null(fp = fopen(file, "w"));
    fputs("one\n", fp);
    fclose(fp);
    ws_err_clear(&err);
    assert_int_equal(ws_lines_check(file, &err), 0);
    assert_int_equal(ws_lines_open(&r, file, &err), 0);
    {
        char *line;
        size_t len;
        assert_int_equal(ws_lines_next(&r, &line, &len, &err), 1);
        assert_string_equal(line, "one");
    }
    ws_lines_close(&r);
    /* Unreadable: root reads anything, so only checked for other users. */
    if (geteuid() != 0) {
        assert_int_equal(chmod(file, 0), 0);
        ws_err_clear(&err);
        assert_int_equal(ws_lines_open(&r, file, &err), -1);
        snprintf(want, sizeof want,
                 "%s: cannot open: Permission denied "
                 "(expected a readable file)",
                 file);
        assert_string_equal(err.text, want);
    }
    unlink(file);
    unlink(fifo);
    rmdir(dir);
}

/* The paged set against a plain sorted list: runs of neighbours, values
 * far apart (many pages, table growth), repeats, page boundaries, and the
 * difference count the profile's compulsory misses come from. */
static int test_cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void test_u64set(void **state)
{
    static uint64_t va[6000], vb[3000];
    struct ws_u64set a, b;
    uint64_t seed = 12345, expect = 0;
    size_t na = 0, nb = 0, distinct = 0;

    (void)state;
    ws_u64set_init(&a);
    ws_u64set_init(&b);
    for (size_t i = 0; i < 6000; i++) {
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        /* Half in one dense run across a page boundary, half scattered. */
        va[na++] = i % 2 ? 32760 + i : (seed >> 20) % (UINT64_C(1) << 40);
        if (i % 3 == 0)
            vb[nb++] = va[na - 1];
    }
    vb[nb++] = UINT64_MAX; /* the largest value is a value too */
    for (size_t i = 0; i < na; i++)
        ws_u64set_add(&a, va[i]);
    for (size_t i = 0; i < nb; i++)
        ws_u64set_add(&b, vb[i]);
    qsort(va, na, sizeof *va, test_cmp_u64);
    for (size_t i = 0; i < na; i++)
        if (i == 0 || va[i] != va[i - 1]) {
            distinct++;
            assert_true(ws_u64set_has(&a, va[i]));
        }
    qsort(vb, nb, sizeof *vb, test_cmp_u64);
    for (size_t i = 0; i < na; i++)
        if ((i == 0 || va[i] != va[i - 1])
            && !bsearch(&va[i], vb, nb, sizeof *vb, test_cmp_u64))
            expect++;
    assert_int_equal(a.n, distinct);
    assert_int_equal(ws_u64set_add(&a, va[0]), 0);
    assert_false(ws_u64set_has(&a, UINT64_MAX));
    assert_true(ws_u64set_has(&b, UINT64_MAX));
    assert_int_equal(ws_u64set_count_not_in(&a, &b), expect);
    assert_int_equal(ws_u64set_count_not_in(&b, &b), 0);
    ws_u64set_free(&a);
    ws_u64set_free(&b);
}

/* An input replaced by a rename (results rewritten through a temporary
 * file) gives its inode back; a new file that gets the same number must
 * not pass for the input. */
static void test_readset_stale(void **state)
{
    char dir[] = "/tmp/ws-readset-XXXXXX", a[64], b[64];
    struct stat old, now;
    FILE *fp;

    (void)state;
    assert_non_null(mkdtemp(dir));
    snprintf(a, sizeof a, "%s/a", dir);
    snprintf(b, sizeof b, "%s/b", dir);
    assert_non_null(fp = fopen(a, "w"));
    fclose(fp);
    assert_non_null(fp = fopen(b, "w"));
    fclose(fp);
    assert_int_equal(stat(a, &old), 0);
    ws_readset_note(a, &old);
    assert_int_equal(ws_readset_has(&old), 1);
    assert_int_equal(rename(b, a), 0);
    assert_int_equal(stat(a, &now), 0);
    assert_int_equal(ws_readset_has(&old), 0);
    assert_int_equal(ws_readset_has(&now), 0);
    ws_readset_note(a, &now);
    assert_int_equal(ws_readset_has(&now), 1);
    unlink(a);
    assert_int_equal(ws_readset_has(&now), 0);
    rmdir(dir);
}

/* ws_hash: a file's hash is its content's (not its name's), an edit
 * changes it, its size comes back, and a missing file is an error. */
static void test_hash_file(void **state)
{
    char a[] = "/tmp/ws_hash_aXXXXXX", b[] = "/tmp/ws_hash_bXXXXXX";
    char ha[33], hb[33], hbuf[33];
    int fa = mkstemp(a), fb = mkstemp(b);
    uint64_t bytes = 0;
    struct ws_err err;

    (void)state;
    assert_true(fa >= 0 && fb >= 0);
    assert_int_equal(write(fa, "warp\n", 5), 5);
    assert_int_equal(write(fb, "warp\n", 5), 5);
    close(fa);
    close(fb);
    ws_err_clear(&err);
    assert_int_equal(ws_hash_file_hex(a, ha, &bytes, &err), 0);
    assert_int_equal(bytes, 5);
    assert_int_equal(ws_hash_file_hex(b, hb, NULL, &err), 0);
    assert_string_equal(ha, hb);
    assert_int_equal((int)strlen(ha), 32);
    /* the bytes' own XXH3-128, as xxhsum -H2 prints it (the value from
     * Python's xxhash 3.x: xxh3_128(b"warp\n").hexdigest()) */
    ws_hash_hex("warp\n", 5, hbuf);
    assert_string_equal(ha, hbuf);
    assert_string_equal(ha, "a47ad564af285ffb10bafd369654d1de");
    fb = open(b, O_WRONLY | O_APPEND);
    assert_int_equal(write(fb, "!", 1), 1);
    close(fb);
    assert_int_equal(ws_hash_file_hex(b, hb, &bytes, &err), 0);
    assert_int_equal(bytes, 6);
    assert_string_not_equal(ha, hb);
    unlink(a);
    unlink(b);
    assert_int_equal(ws_hash_file_hex(a, ha, NULL, &err), -1);
    assert_non_null(strstr(err.text, "cannot open to hash it"));
}

/* C++ names demangle; C names and non-names stay; and a short name whose
 * substitutions double with each level (25 levels: gigabytes demangled)
 * comes back as traced, in bounded time, and so does every later one of
 * the same run. */
static void test_demangle(void **state)
{
    char name[1024], *d;
    size_t n;

    (void)state;
    d = ws_demangle("_Z6vecAddPKfS0_Pfi");
    assert_string_equal(d, "vecAdd(float const*, float const*, float*, int)");
    free(d);
    d = ws_demangle("vecadd");
    assert_string_equal(d, "vecadd");
    free(d);
    d = ws_demangle("_Zgarbage");
    assert_string_equal(d, "_Zgarbage");
    free(d);
    n = (size_t)snprintf(name, sizeof name, "_Z1f1A");
    for (int i = 0; i < 25; i++) {
        char ref[8];
        if (i == 0)
            snprintf(ref, sizeof ref, "S_");
        else
            snprintf(ref, sizeof ref, "S%c_",
                     "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[i - 1]);
        n += (size_t)snprintf(name + n, sizeof name - n, "S_I%s%sE", ref, ref);
    }
    d = ws_demangle(name);
    assert_string_equal(d, name);
    free(d);
    /* cached: the same answer again at once */
    d = ws_demangle(name);
    assert_string_equal(d, name);
    free(d);
}

/* Line-aligned, zeroed, whole lines (so a neighbour's data never shares
 * one), and an overflowing request refused rather than wrapped. */
static void test_calloc_lines(void **state)
{
    (void)state;
    for (size_t n = 0; n < 5; n++)
        for (size_t size = 1; size < 200; size += 37) {
            unsigned char *p = ws_calloc_lines(n, size);
            size_t whole = (n * size + WS_CACHELINE - 1) / WS_CACHELINE
                           * WS_CACHELINE;
            assert_non_null(p);
            assert_int_equal((uintptr_t)p % WS_CACHELINE, 0);
            for (size_t i = 0; i < whole; i++)
                assert_int_equal(p[i], 0);
            memset(p, 0xa5, whole); /* the whole lines are the caller's */
            ws_free_lines(p);
        }
    /* a block past ws_calloc_lines' mapping threshold (calloc's under
     * AddressSanitizer): zero without a memset, still aligned, freed
     * through the same call */
    unsigned char *big = ws_calloc_lines(3, 1u << 20);
    assert_non_null(big);
    assert_int_equal((uintptr_t)big % WS_CACHELINE, 0);
    for (size_t i = 0; i < (size_t)3 << 20; i += 4093)
        assert_int_equal(big[i], 0);
    big[((size_t)3 << 20) - 1] = 1;
    ws_free_lines(big);
    ws_free_lines(NULL);
    assert_null(ws_calloc_lines(SIZE_MAX / 2, 3));
    assert_null(ws_calloc_lines(1, SIZE_MAX - 10));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_num),
        cmocka_unit_test(test_readset_stale),
        cmocka_unit_test(test_strtab),
        cmocka_unit_test(test_u64set),
        cmocka_unit_test(test_err_format),
        cmocka_unit_test(test_err_long),
        cmocka_unit_test(test_lines_plain),
        cmocka_unit_test(test_lines_binary),
        cmocka_unit_test(test_lines_long),
        cmocka_unit_test(test_lines_xz),
        cmocka_unit_test(test_lines_zstd),
        cmocka_unit_test(test_lines_missing_file),
        cmocka_unit_test(test_lines_not_regular),
        cmocka_unit_test(test_hash_file),
        cmocka_unit_test(test_demangle),
        cmocka_unit_test(test_calloc_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
