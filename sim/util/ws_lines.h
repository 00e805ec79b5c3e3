/*
 * ws_lines: numbered text lines from a file, an .xz file, or memory.
 *
 * Every reader of warpsim's text inputs (traces, kernel lists, listings)
 * pulls lines from here so that they share one definition of a line and one
 * set of guards: line numbers for messages, a length limit, NUL bytes
 * rejected as binary garbage, CR-LF accepted, a run of blank lines bounded
 * (an .xz stream of nothing but newlines, a few KiB, decodes to gigabytes:
 * it is refused after its first MiBs instead of being read to its end, and
 * readers that skip blank lines need no bound of their own), and a
 * truncated .xz or .zst stream reported rather than taken as a short file.
 * Compressed input is detected by its magic bytes, not its name.  Only
 * regular files are read: a FIFO, a directory or a device is refused
 * before anything blocks on it.  Reading allocates nothing per line: a
 * line is handed out where it lies in the decoded chunk or, when it runs
 * past the chunk, in a buffer that grows only for a line longer than any
 * before it.
 *
 * Zstandard decoding is ws_lines_zstd.c's.
 *
 * Leaves out: seeking, other compressors (gzip, lz4).
 */
#ifndef WS_LINES_H
#define WS_LINES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ws_err.h"

/* Longer lines are an error: no trace or listing line comes near this. */
#define WS_LINES_MAX (1u << 20)
/* More bytes than this of blank lines (nothing but blanks, tabs, CRs) in a
 * row are an error too: such a run carries as little as one blank line.
 * Far above what any writer puts in a row (a test's empty trace holds a
 * header and 1 MiB of newlines), and read in some 40 ms. */
#define WS_LINES_MAX_BLANK (4u << 20)

/* Bytes decoded (or read) at a time. */
#define WS_LINES_CHUNK (64u * 1024u)

/* What the source is, from its first bytes. */
enum {
    WS_LINES_PLAIN,
    WS_LINES_XZ,
    WS_LINES_ZSTD
};

struct ws_lines {
    const char *name; /* the path as the user wrote it, for messages */
    FILE *fp;
    const uint8_t *mem; /* memory source when fp is NULL */
    size_t mem_len, mem_pos;
    int codec;   /* WS_LINES_PLAIN, _XZ or _ZSTD */
    void *lz;    /* the decoder's state, opaque to callers */
    uint8_t *in; /* compressed input chunk */
    size_t in_len;
    char *chunk; /* decoded bytes not yet split into lines */
    size_t chunk_len, chunk_pos;
    int chunk_nul; /* chunk held a NUL byte when it was filled */
    char *line;
    size_t line_cap;
    long lineno;
    size_t blank_run; /* bytes of blank lines just read in a row */
    int at_eof;
};

/* Failures to open or read are unplaced errors, "PATH: cannot open: why
 * (expected a readable file)" or "PATH: not a regular file (expected a trace
 * or listing file)": the caller that knows where PATH was written places
 * them (ws_err_place). */
int ws_lines_open(struct ws_lines *r, const char *path, struct ws_err *err);

/* The checks of ws_lines_open without reading: 0 when path is a regular
 * file that can be opened, else -1 with the same unplaced error. */
int ws_lines_check(const char *path, struct ws_err *err);

int ws_lines_open_mem(struct ws_lines *r, const char *name, const void *data,
                      size_t len, struct ws_err *err);

/* 1 and *line (NUL-terminated, no newline) on a line; 0 at the end; -1 on
 * error.  The line stays valid until the next call and may be modified. */
int ws_lines_next(struct ws_lines *r, char **line, size_t *len,
                  struct ws_err *err);

void ws_lines_close(struct ws_lines *r);

/* For the decoders: up to cap raw bytes of the source, 0 at its end. */
size_t ws_lines_raw_read(struct ws_lines *r, uint8_t *dst, size_t cap);

#endif
