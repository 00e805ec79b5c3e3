/*
 * ws_lines: line input over plain files, .xz streams (liblzma), .zst
 * streams (libzstd, ws_lines_zstd.c) and memory.
 * See ws_lines.h for the contract.
 */
#include "ws_lines.h"

#include <errno.h>
#include <fcntl.h>
#include <lzma.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ws_lines_zstd.h"
#include "ws_readset.h"

/* xz -9 needs 65 MiB to decode; a header asking for far more is hostile or
 * broken, and liblzma would otherwise allocate whatever it claims. */
#define WS_LINES_XZ_MEMLIMIT (512ull << 20)

static const uint8_t ws_xz_magic[6] = {0xFD, '7', 'z', 'X', 'Z', 0x00};

static int ws_lines_alloc(struct ws_lines *r, struct ws_err *err)
{
    r->chunk = malloc(WS_LINES_CHUNK);
    r->line_cap = 256;
    r->line = malloc(r->line_cap);
    if (!r->chunk || !r->line)
        return ws_err_oom(err);
    return 0;
}

static int ws_lines_read_error(struct ws_lines *r, struct ws_err *err)
{
    return ws_err_msg(err, "%s: read error: %s (expected a readable file)",
                      r->name, strerror(errno));
}

/* Raw bytes from the underlying source, before any decompression. */
size_t ws_lines_raw_read(struct ws_lines *r, uint8_t *dst, size_t cap)
{
    size_t n;

    if (r->fp)
        return fread(dst, 1, cap, r->fp);
    n = r->mem_len - r->mem_pos;
    if (n > cap)
        n = cap;
    memcpy(dst, r->mem + r->mem_pos, n);
    r->mem_pos += n;
    return n;
}

static int ws_lines_start_xz(struct ws_lines *r, struct ws_err *err)
{
    lzma_stream init = LZMA_STREAM_INIT;
    lzma_stream *lz = malloc(sizeof *lz);

    r->in = malloc(WS_LINES_CHUNK);
    if (!lz || !r->in) {
        free(lz);
        return ws_err_oom(err);
    }
    *lz = init;
    if (lzma_stream_decoder(lz, WS_LINES_XZ_MEMLIMIT, LZMA_CONCATENATED)
        != LZMA_OK) {
        free(lz);
        return ws_err_oom(err); /* its only failure with valid flags */
    }
    r->lz = lz;
    r->codec = WS_LINES_XZ;
    return 0;
}

/* Looks at the first bytes to choose between plain text, xz and zstd.  The bytes
 * read stay in chunk (plain) or in (xz) so nothing is read twice. */
static int ws_lines_sniff(struct ws_lines *r, struct ws_err *err)
{
    size_t n = ws_lines_raw_read(r, (uint8_t *)r->chunk, WS_LINES_CHUNK);

    if (r->fp && ferror(r->fp))
        return ws_lines_read_error(r, err);
    if (n >= sizeof ws_xz_magic
        && memcmp(r->chunk, ws_xz_magic, sizeof ws_xz_magic) == 0) {
        if (ws_lines_start_xz(r, err) < 0)
            return -1;
        memcpy(r->in, r->chunk, n);
        r->in_len = n;
        ((lzma_stream *)r->lz)->next_in = r->in;
        ((lzma_stream *)r->lz)->avail_in = n;
        return 0;
    }
    if (ws_lines_zstd_magic((const uint8_t *)r->chunk, n))
        return ws_lines_zstd_start(r, n, err);
    r->chunk_len = n;
    r->chunk_nul = memchr(r->chunk, '\0', n) != NULL;
    if (n < WS_LINES_CHUNK)
        r->at_eof = 1;
    return 0;
}

/* errno is read before close() can change it. */
static int ws_lines_cannot_open(const char *path, int fd, struct ws_err *err)
{
    int e = errno;

    if (fd >= 0)
        close(fd);
    return ws_err_msg(err, "%s: cannot open: %s (expected a readable file)",
                      path, strerror(e));
}

/* Opens path for reading if it is a regular file.  O_NONBLOCK keeps open()
 * from waiting forever for a writer when path is a FIFO; fstat then turns
 * away FIFOs, directories and devices before a byte is read, since reading
 * them would block, fail or never end.  Returns the descriptor, blocking
 * again, or -1 with an unplaced error. */
static int ws_lines_open_fd(const char *path, struct ws_err *err)
{
    struct stat st;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
    int flags;

    if (fd < 0 || fstat(fd, &st) != 0)
        return ws_lines_cannot_open(path, fd, err);
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return ws_err_msg(err,
                          "%s: not a regular file (expected a trace or "
                          "listing file)",
                          path);
    }
    ws_readset_note(path, &st);
    flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0)
        return ws_lines_cannot_open(path, fd, err);
    return fd;
}

int ws_lines_check(const char *path, struct ws_err *err)
{
    int fd = ws_lines_open_fd(path, err);

    if (fd < 0)
        return -1;
    close(fd);
    return 0;
}

int ws_lines_open(struct ws_lines *r, const char *path, struct ws_err *err)
{
    int fd;

    memset(r, 0, sizeof *r);
    r->name = path;
    if ((fd = ws_lines_open_fd(path, err)) < 0)
        return -1;
    r->fp = fdopen(fd, "rb");
    if (!r->fp)
        return ws_lines_cannot_open(path, fd, err);
    if (ws_lines_alloc(r, err) < 0 || ws_lines_sniff(r, err) < 0) {
        ws_lines_close(r);
        return -1;
    }
    return 0;
}

int ws_lines_open_mem(struct ws_lines *r, const char *name, const void *data,
                      size_t len, struct ws_err *err)
{
    memset(r, 0, sizeof *r);
    r->name = name;
    r->mem = data;
    r->mem_len = len;
    if (ws_lines_alloc(r, err) < 0 || ws_lines_sniff(r, err) < 0) {
        ws_lines_close(r);
        return -1;
    }
    return 0;
}

/* The message for a liblzma failure other than running out of input. */
static int ws_lines_xz_error(struct ws_lines *r, lzma_ret ret,
                             struct ws_err *err)
{
    const char *what;

    switch (ret) {
    case LZMA_MEM_ERROR:
        return ws_err_oom(err);
    case LZMA_MEMLIMIT_ERROR:
        return ws_err_at(err, r->name, r->lineno + 1, 1,
                         "xz stream needs "
                         "more than %llu MiB to decompress (expected a file "
                         "compressed with xz -9 or less)",
                         WS_LINES_XZ_MEMLIMIT >> 20);
    case LZMA_FORMAT_ERROR:
        what = "not an xz stream";
        break;
    case LZMA_OPTIONS_ERROR:
        what = "unsupported xz options";
        break;
    case LZMA_DATA_ERROR:
        what = "corrupt xz data";
        break;
    default:
        what = "corrupt xz stream";
        break;
    }
    return ws_err_at(err, r->name, r->lineno + 1, 1,
                     "%s, liblzma error %d "
                     "(expected a valid .xz file)",
                     what, (int)ret);
}

static int ws_lines_fill_xz(struct ws_lines *r, struct ws_err *err)
{
    lzma_stream *lz = r->lz;
    lzma_ret ret;

    lz->next_out = (uint8_t *)r->chunk;
    lz->avail_out = WS_LINES_CHUNK;
    while (lz->avail_out == WS_LINES_CHUNK) {
        lzma_action action = LZMA_RUN;
        if (lz->avail_in == 0) {
            r->in_len = ws_lines_raw_read(r, r->in, WS_LINES_CHUNK);
            if (r->fp && ferror(r->fp))
                return ws_lines_read_error(r, err);
            lz->next_in = r->in;
            lz->avail_in = r->in_len;
            if (r->in_len == 0)
                action = LZMA_FINISH;
        }
        ret = lzma_code(lz, action);
        if (ret == LZMA_STREAM_END) {
            r->at_eof = 1;
            break;
        }
        if (ret == LZMA_BUF_ERROR
            || (ret == LZMA_OK && action == LZMA_FINISH
                && lz->avail_out == WS_LINES_CHUNK))
            return ws_err_at(err, r->name, r->lineno + 1, 1,
                             "truncated xz "
                             "stream (expected more compressed data)");
        if (ret != LZMA_OK)
            return ws_lines_xz_error(r, ret, err);
    }
    r->chunk_len = WS_LINES_CHUNK - lz->avail_out;
    r->chunk_pos = 0;
    return 0;
}

static int ws_lines_fill_plain(struct ws_lines *r, struct ws_err *err)
{
    r->chunk_len = ws_lines_raw_read(r, (uint8_t *)r->chunk, WS_LINES_CHUNK);
    if (r->fp && ferror(r->fp))
        return ws_lines_read_error(r, err);
    if (r->chunk_len < WS_LINES_CHUNK)
        r->at_eof = 1;
    return 0;
}

/* Refills chunk; leaves chunk_len 0 at the end of input.  One search for
 * a NUL per chunk spares every line in it a search of its own. */
static int ws_lines_fill(struct ws_lines *r, struct ws_err *err)
{
    int rc = 0;

    r->chunk_pos = 0;
    r->chunk_len = 0;
    if (!r->at_eof)
        rc = r->codec == WS_LINES_XZ     ? ws_lines_fill_xz(r, err)
             : r->codec == WS_LINES_ZSTD ? ws_lines_zstd_fill(r, err)
                                         : ws_lines_fill_plain(r, err);
    r->chunk_nul = rc == 0 && memchr(r->chunk, '\0', r->chunk_len) != NULL;
    return rc;
}

static int ws_lines_append(struct ws_lines *r, size_t *len, const char *src,
                           size_t n, struct ws_err *err)
{
    const char *nul = memchr(src, '\0', n);

    if (nul)
        return ws_err_at(err, r->name, r->lineno + 1,
                         (long)(*len + (size_t)(nul - src)) + 1,
                         "binary data "
                         "(NUL byte) in a text file (expected text lines)");
    if (*len + n + 1 > WS_LINES_MAX)
        return ws_err_at(err, r->name, r->lineno + 1, 1,
                         "line longer than "
                         "%u bytes (expected a text line)",
                         WS_LINES_MAX);
    if (*len + n + 1 > r->line_cap) {
        size_t cap = r->line_cap;
        char *p;
        while (cap < *len + n + 1)
            cap *= 2;
        p = realloc(r->line, cap);
        if (!p)
            return ws_err_oom(err);
        r->line = p;
        r->line_cap = cap;
    }
    memcpy(r->line + *len, src, n);
    *len += n;
    return 0;
}

/* Hands out p[0..n) as the next line: CR-LF's CR dropped, NUL-terminated
 * in place (p[n] is the newline, or spare room in r->line). */
static int ws_lines_give(struct ws_lines *r, char *p, size_t n, char **line,
                         size_t *len)
{
    if (n > 0 && p[n - 1] == '\r')
        n--;
    p[n] = '\0';
    r->lineno++;
    *line = p;
    *len = n;
    return 1;
}

/* The common case: the whole line, newline included, is in the decoded
 * chunk, and is handed out where it lies instead of being copied.  0 when
 * it is not, or holds what the slow path must report. */
static int ws_lines_in_chunk(struct ws_lines *r, char **line, size_t *len)
{
    char *start = r->chunk + r->chunk_pos;
    char *nl;
    size_t n;

    if (*start == '\n') { /* blank: no search at all */
        r->chunk_pos++;
        return ws_lines_give(r, start, 0, line, len);
    }
    if (!(nl = memchr(start, '\n', r->chunk_len - r->chunk_pos)))
        return 0;
    n = (size_t)(nl - start);
    if ((r->chunk_nul && memchr(start, '\0', n)) || n + 1 > WS_LINES_MAX)
        return 0; /* the slow path reports it */
    r->chunk_pos += n + 1;
    return ws_lines_give(r, start, n, line, len);
}

#define WS_LINES_BLANKS " \t\r\f\v"

/* Counts line, just handed out, into the run of blank lines: 1, or -1
 * when the run has grown past WS_LINES_MAX_BLANK bytes. */
static int ws_lines_blank_run(struct ws_lines *r, const char *line, size_t len,
                              struct ws_err *err)
{
    if (len > 0
        && !memchr(WS_LINES_BLANKS, line[0], sizeof WS_LINES_BLANKS - 1))
        r->blank_run = 0; /* the common case: no scan */
    else if (strspn(line, WS_LINES_BLANKS) < len)
        r->blank_run = 0;
    else if ((r->blank_run += len + 1) > WS_LINES_MAX_BLANK)
        return ws_err_at(err, r->name, r->lineno, 1,
                         "more than %u MiB of "
                         "blank lines in a row (expected text lines; a "
                         "stream of blank ones holds nothing)",
                         WS_LINES_MAX_BLANK >> 20);
    return 1;
}

int ws_lines_next(struct ws_lines *r, char **line, size_t *len,
                  struct ws_err *err)
{
    size_t n = 0;
    int any = 0;

    if (r->chunk_pos < r->chunk_len && ws_lines_in_chunk(r, line, len))
        return ws_lines_blank_run(r, *line, *len, err);
    /* A line that runs past the chunk is assembled in r->line. */
    for (;;) {
        const char *start, *nl;
        size_t avail;

        if (r->chunk_pos == r->chunk_len) {
            if (ws_lines_fill(r, err) < 0)
                return -1;
            if (r->chunk_len == 0)
                break;
        }
        start = r->chunk + r->chunk_pos;
        avail = r->chunk_len - r->chunk_pos;
        nl = memchr(start, '\n', avail);
        any = 1;
        if (nl) {
            if (ws_lines_append(r, &n, start, (size_t)(nl - start), err) < 0)
                return -1;
            r->chunk_pos += (size_t)(nl - start) + 1;
            break;
        }
        if (ws_lines_append(r, &n, start, avail, err) < 0)
            return -1;
        r->chunk_pos = r->chunk_len;
    }
    if (!any)
        return 0;
    ws_lines_give(r, r->line, n, line, len);
    return ws_lines_blank_run(r, *line, *len, err);
}

void ws_lines_close(struct ws_lines *r)
{
    if (r->fp)
        fclose(r->fp);
    if (r->lz && r->codec == WS_LINES_ZSTD)
        ws_lines_zstd_end(r);
    else if (r->lz) {
        lzma_end(r->lz);
        free(r->lz);
    }
    free(r->in);
    free(r->chunk);
    free(r->line);
    memset(r, 0, sizeof *r);
}
