/*
 * ws_packr_internal: what the two parts of the .wst reader share
 * (ws_packr.c: the file, its header, checksum and commands;
 * ws_packr_kernel.c: one kernel, CTA by CTA).  Not for use outside
 * sim/trace.
 */
#ifndef WS_PACKR_INTERNAL_H
#define WS_PACKR_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "ws_pack.h"

#define WS_PACKR_REPACK "an intact .wst; repack it"

struct ws_pack {
    char *name;
    const uint8_t *base;
    size_t size;
    void *map;                  /* munmap'd on close */
    void *own;                  /* an aligned copy (ws_pack_open_mem) */
    struct ws_pack_header h;
    uint64_t *kernels;          /* kernel header offsets, launch order */
};

/* Gives back the resident pages of [off, off + len) of a mapped pack (the
 * data stays in the file and comes back when read again). */
void ws_pack_release(const struct ws_pack *p, uint64_t off, uint64_t len);

/* "NAME:1:1: PREFIX WHAT at byte AT (expected EXPECTED)": a binary file
 * has no lines, so the byte offset says where the damage is.  -1. */
int ws_packr_vbad(const char *name, struct ws_err *err, uint64_t at,
                  const char *expected, const char *prefix, const char *fmt,
                  va_list ap) __attribute__((format(printf, 6, 0)));
int ws_packr_bad(const char *name, struct ws_err *err, uint64_t at,
                 const char *expected, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* 1 when count items of size bytes from off lie inside the file. */
static inline int ws_packr_fits(const struct ws_pack *p, uint64_t off,
                                uint64_t count, uint64_t size)
{
    return off <= p->size && (size == 0 || count <= (p->size - off) / size);
}

#endif
