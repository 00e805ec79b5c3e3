/*
 * ws_lines_zstd: the Zstandard decoder behind ws_lines (libzstd's
 * streaming API): a .zst trace decodes at several times the rate of an .xz
 * one, so decoding is no longer what bounds a simulation of a compressed
 * trace.  ws_lines sniffs the magic bytes and hands the decoder the bytes
 * it read; the decoder fills ws_lines' chunk.
 *
 * The packed-trace reader decodes with the same bound, magic and errors.
 *
 * Leaves out: dictionaries (Accel-Sim traces are not written with one);
 * frames whose window passes 2^WS_LINES_ZSTD_WINDOWLOG bytes (128 MiB,
 * zstd's own default limit), refused rather than allocated.
 */
#ifndef WS_LINES_ZSTD_H
#define WS_LINES_ZSTD_H

#include <stddef.h>
#include <stdint.h>

#include "ws_err.h"

#define WS_LINES_ZSTD_WINDOWLOG 27

struct ws_lines;

/* 1 when the first n bytes of p open a Zstandard stream (a frame or a
 * skippable frame). */
int ws_lines_zstd_magic(const uint8_t *p, size_t n);

/* The error for libzstd's failure code ret at name:line:1, "(expected a
 * valid FILE_KIND file)" unless the frame's window is past the bound.
 * Also the packed-trace reader's (trace/ws_packr_zstd.c). */
int ws_lines_zstd_fail(struct ws_err *err, const char *name, long line,
                       size_t ret, const char *file_kind);

/* Starts decoding: the n bytes already read (at r->chunk) are the first
 * input.  Unplaced errors: out of memory only. */
int ws_lines_zstd_start(struct ws_lines *r, size_t n, struct ws_err *err);

/* Fills r->chunk (chunk_len, chunk_pos 0), setting r->at_eof at the end of
 * the last frame; a truncated or corrupt frame is an error at the line
 * being read. */
int ws_lines_zstd_fill(struct ws_lines *r, struct ws_err *err);

void ws_lines_zstd_end(struct ws_lines *r);

#endif
