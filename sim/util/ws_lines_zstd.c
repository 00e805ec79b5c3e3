/*
 * ws_lines_zstd: Zstandard input for ws_lines (see ws_lines_zstd.h).
 */
#include "ws_lines_zstd.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "ws_lines.h"

static const uint8_t ws_zstd_magic[4] = {0x28, 0xB5, 0x2F, 0xFD};

struct ws_zstd {
    ZSTD_DCtx *d;
    ZSTD_inBuffer in;
    size_t left;   /* the decoder's hint: 0 when a frame just ended */
    int truncated; /* the data ended inside a frame: said at the next fill,
                      once the lines before it were read */
};

/* A zstd frame, or a skippable frame (magic 0x184D2A50 to 5F, little
 * endian), which a zstd stream may begin with. */
int ws_lines_zstd_magic(const uint8_t *p, size_t n)
{
    return n >= sizeof ws_zstd_magic
           && (memcmp(p, ws_zstd_magic, sizeof ws_zstd_magic) == 0
               || ((p[0] & 0xf0) == 0x50 && p[1] == 0x2a && p[2] == 0x4d
                   && p[3] == 0x18));
}

int ws_lines_zstd_start(struct ws_lines *r, size_t n, struct ws_err *err)
{
    struct ws_zstd *z = calloc(1, sizeof *z);

    r->in = malloc(WS_LINES_CHUNK);
    if (!z || !r->in || !(z->d = ZSTD_createDCtx())) {
        free(z);
        return ws_err_oom(err);
    }
    ZSTD_DCtx_setParameter(z->d, ZSTD_d_windowLogMax, WS_LINES_ZSTD_WINDOWLOG);
    memcpy(r->in, r->chunk, n);
    z->in = (ZSTD_inBuffer){r->in, n, 0};
    z->left = 1;
    r->lz = z;
    r->codec = WS_LINES_ZSTD;
    return 0;
}

int ws_lines_zstd_fail(struct ws_err *err, const char *name, long line,
                       size_t ret, const char *file_kind)
{
    if (ZSTD_getErrorCode(ret) == ZSTD_error_frameParameter_windowTooLarge)
        return ws_err_at(err, name, line, 1,
                         "zstd frame needs a window over %u MiB (expected "
                         "one written with --long=%d or less)",
                         1u << (WS_LINES_ZSTD_WINDOWLOG - 20),
                         WS_LINES_ZSTD_WINDOWLOG);
    return ws_err_at(err, name, line, 1,
                     "corrupt zstd data: %s (expected a valid %s file)",
                     ZSTD_getErrorName(ret), file_kind);
}

/* More compressed input; 0 bytes at the end of the source. */
static int ws_lines_zstd_more(struct ws_lines *r, struct ws_zstd *z,
                              struct ws_err *err)
{
    size_t n = ws_lines_raw_read(r, r->in, WS_LINES_CHUNK);

    if (r->fp && ferror(r->fp))
        return ws_err_msg(err, "%s: read error: %s (expected a readable file)",
                          r->name, strerror(errno));
    z->in = (ZSTD_inBuffer){r->in, n, 0};
    return 0;
}

int ws_lines_zstd_fill(struct ws_lines *r, struct ws_err *err)
{
    struct ws_zstd *z = r->lz;
    ZSTD_outBuffer out = {r->chunk, WS_LINES_CHUNK, 0};
    size_t ret;

    if (z->truncated)
        return ws_err_at(err, r->name, r->lineno + 1, 1,
                         "truncated zstd stream (expected more compressed "
                         "data)");
    while (out.pos < out.size) {
        if (z->in.pos == z->in.size) {
            if (ws_lines_zstd_more(r, z, err) < 0)
                return -1;
            if (z->in.size == 0 && z->left != 0 && out.pos > 0) {
                z->truncated = 1;
                break;
            }
            if (z->in.size == 0) {
                if (z->left != 0)
                    return ws_err_at(err, r->name, r->lineno + 1, 1,
                                     "truncated zstd stream (expected more "
                                     "compressed data)");
                r->at_eof = 1;
                break;
            }
        }
        ret = ZSTD_decompressStream(z->d, &out, &z->in);
        if (ZSTD_isError(ret))
            return ws_lines_zstd_fail(err, r->name, r->lineno + 1, ret, ".zst");
        z->left = ret;
    }
    r->chunk_len = out.pos;
    r->chunk_pos = 0;
    return 0;
}

void ws_lines_zstd_end(struct ws_lines *r)
{
    struct ws_zstd *z = r->lz;

    ZSTD_freeDCtx(z->d);
    free(z);
    r->lz = NULL;
}
