/*
 * ws_packr_zstd: a packed trace compressed with zstd (OUT.wst.zst), read
 * directly.  A packed trace is read in place, by records at fixed offsets,
 * so the compressed file is decoded whole into memory first (the mapping
 * of a plain .wst pages in on demand; a compressed one costs its
 * decompressed size in memory, which is bounded below).  Recognised by
 * content: a zstd frame whose first decoded bytes are the pack's magic.
 *
 * Leaves out: seeking inside the frame (decoding on demand), which would
 * need zstd's seekable format and a writer for it.
 */
#include "ws_packr_internal.h"
#include "util/ws_lines_zstd.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

/* The most a compressed pack may decode to: half the machine's memory,
 * and never above 16 GiB, so that a small hostile frame of zeros is
 * refused before it takes the machine down. */
#define WS_PACKR_ZSTD_CAP (16ull << 30)

static uint64_t ws_packr_zstd_cap(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    uint64_t half = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page / 2
                                          : WS_PACKR_ZSTD_CAP;

    return half < WS_PACKR_ZSTD_CAP ? half : WS_PACKR_ZSTD_CAP;
}

int ws_packr_zstd_is(int fd)
{
    uint8_t head[4];

    return pread(fd, head, sizeof head, 0) == (ssize_t)sizeof head
           && ws_lines_zstd_magic(head, sizeof head);
}

/* The whole compressed file, malloc'd. */
static uint8_t *ws_packr_zstd_slurp(int fd, const char *path, size_t *len,
                                    struct ws_err *err)
{
    struct stat st;
    uint8_t *src;
    size_t got = 0;

    if (fstat(fd, &st) != 0 || st.st_size <= 0) {
        ws_err_msg(err, "%s: cannot read: %s (expected a readable file)", path,
                   strerror(errno));
        return NULL;
    }
    if (!(src = malloc((size_t)st.st_size))) {
        ws_err_oom(err);
        return NULL;
    }
    while (got < (size_t)st.st_size) {
        ssize_t n = pread(fd, src + got, (size_t)st.st_size - got, (off_t)got);
        if (n <= 0) {
            ws_err_msg(err, "%s: read error: %s (expected a readable file)",
                       path, n < 0 ? strerror(errno) : "cut short");
            free(src);
            return NULL;
        }
        got += (size_t)n;
    }
    *len = got;
    return src;
}

/* Grows the output to at least want bytes (doubling), within cap. */
static int ws_packr_zstd_grow(ZSTD_outBuffer *out, size_t want, uint64_t cap)
{
    size_t size = out->size ? out->size : 1u << 20;
    void *dst;

    while (size < want)
        size *= 2;
    if (size > cap)
        size = (size_t)cap;
    if (size < want || !(dst = realloc(out->dst, size)))
        return -1;
    out->dst = dst;
    out->size = size;
    return 0;
}

/* The pack's own size, once its header is decoded: what the decoding may
 * not pass (a few KiB of zstd can stand for gigabytes of zeros after a
 * valid header).  0 while the header is not all there. */
static uint64_t ws_packr_zstd_declared(const ZSTD_outBuffer *out)
{
    uint64_t size;

    if (out->pos < sizeof(struct ws_pack_header))
        return 0;
    memcpy(&size,
           (const uint8_t *)out->dst
               + offsetof(struct ws_pack_header, file_size),
           sizeof size);
    return size;
}

static int ws_packr_zstd_big(const char *path, uint64_t cap, int declared,
                             struct ws_err *err)
{
    if (declared)
        return ws_err_at(err, path, 1, 1,
                         "decodes to more than the %llu bytes its pack "
                         "header gives (expected the packed trace alone)",
                         (unsigned long long)cap);
    return ws_err_at(err, path, 1, 1,
                     "decodes to more than %llu MiB (expected a packed "
                     "trace this machine can hold: half its memory, at "
                     "most 16 GiB)",
                     (unsigned long long)(cap >> 20));
}

/* Decodes src into out (malloc'd, 8-byte aligned as malloc's are), never
 * holding more than a byte past the cap: the machine's, then the size
 * the pack's header declares. */
static int ws_packr_zstd_decode(const char *path, const uint8_t *src,
                                size_t len, ZSTD_outBuffer *out,
                                struct ws_err *err)
{
    ZSTD_DCtx *d = ZSTD_createDCtx();
    ZSTD_inBuffer in = {src, len, 0};
    uint64_t cap = ws_packr_zstd_cap(), said;
    size_t ret = 1;
    int rc = 0, declared = 0;

    if (!d)
        return ws_err_oom(err);
    ZSTD_DCtx_setParameter(d, ZSTD_d_windowLogMax, WS_LINES_ZSTD_WINDOWLOG);
    while (rc == 0 && in.pos < in.size) {
        if (!declared && (said = ws_packr_zstd_declared(out)) > 0) {
            declared = 1;
            cap = said < cap ? said : cap;
        }
        if (out->pos > cap)
            rc = ws_packr_zstd_big(path, cap, declared, err);
        else if (out->pos == out->size
                 && ws_packr_zstd_grow(out, out->size + 1, cap + 1) < 0)
            rc = ws_packr_zstd_big(path, cap, declared, err);
        else if (ZSTD_isError(ret = ZSTD_decompressStream(d, out, &in)))
            rc = ws_lines_zstd_fail(err, path, 1, ret, ".wst.zst");
    }
    if (rc == 0 && out->pos > cap)
        rc = ws_packr_zstd_big(path, cap, declared, err);
    if (rc == 0 && ret != 0)
        rc = ws_err_at(err, path, 1, 1,
                       "truncated zstd stream (expected more compressed "
                       "data)");
    ZSTD_freeDCtx(d);
    return rc;
}

int ws_packr_zstd_load(struct ws_pack *p, int fd, struct ws_err *err)
{
    size_t len = 0;
    uint8_t *src = ws_packr_zstd_slurp(fd, p->name, &len, err);
    ZSTD_outBuffer out = {NULL, 0, 0};
    unsigned long long known;

    if (!src)
        return -1;
    known = ZSTD_getFrameContentSize(src, len);
    /* A size the frame declares is a first guess, never trusted beyond
     * the cap: the decoder still stops at the data's end. */
    if (known != ZSTD_CONTENTSIZE_UNKNOWN && known != ZSTD_CONTENTSIZE_ERROR
        && known > 0 && known < ws_packr_zstd_cap() && known < (1ull << 30))
        ws_packr_zstd_grow(&out, (size_t)known, ws_packr_zstd_cap());
    if (ws_packr_zstd_decode(p->name, src, len, &out, err) < 0) {
        free(src);
        free(out.dst);
        return -1;
    }
    free(src);
    p->own = out.dst;
    p->base = out.dst;
    p->size = out.pos;
    return 0;
}

/* A zstd block is decoded whole: this much of the file holds the first. */
#define WS_PACKR_ZSTD_HEAD (256u << 10)

int ws_packr_zstd_head(int fd, void *head, size_t n)
{
    uint8_t *src = malloc(WS_PACKR_ZSTD_HEAD);
    ZSTD_DCtx *d = ZSTD_createDCtx();
    ZSTD_outBuffer out = {head, n, 0};
    ssize_t got = src ? pread(fd, src, WS_PACKR_ZSTD_HEAD, 0) : -1;
    ZSTD_inBuffer in = {src, got > 0 ? (size_t)got : 0, 0};

    if (d && got >= 4 && ws_lines_zstd_magic(src, 4)) {
        ZSTD_DCtx_setParameter(d, ZSTD_d_windowLogMax, WS_LINES_ZSTD_WINDOWLOG);
        while (out.pos < n && in.pos < in.size
               && !ZSTD_isError(ZSTD_decompressStream(d, &out, &in)))
            ;
    }
    ZSTD_freeDCtx(d);
    free(src);
    return out.pos == n;
}
