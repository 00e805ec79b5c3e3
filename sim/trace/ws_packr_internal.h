/*
 * ws_packr_internal: what the two parts of the .wst reader share
 * (ws_packr.c: the file, its header, checksum and commands;
 * ws_packr_kernel.c: one kernel, CTA by CTA; ws_packr_stream.c: a kernel's
 * warps a window at a time).  Not for use outside sim/trace.
 */
#ifndef WS_PACKR_INTERNAL_H
#define WS_PACKR_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "ws_opinfo.h"
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

struct ws_packr_warp;

/* The fields an opcode implies, as a record of it must hold them: all but
 * a generic access's space, which its address decides. */
struct ws_packr_expect {
    uint8_t cls, memop, flags;
    uint8_t space_none, space_mem;  /* width 0, width > 0 */
    uint8_t width;
    uint8_t generic;
};

struct ws_pack_reader {
    const struct ws_pack *p;
    size_t index;               /* kernel number, for messages */
    uint64_t hdr_off;
    struct ws_pack_kernel_hdr k;
    struct ws_trace_opts opts;
    struct ws_launch launch;
    struct ws_strtab ops;
    struct ws_opinfo *opinfo;   /* by op id, for this configuration */
    struct ws_packr_expect *expect;  /* by op id */
    uint32_t next;              /* the next CTA to serve */
    uint64_t insts_total;       /* served so far, against --max-insts */
    uint8_t *cta_seen;          /* one bit per CTA of the grid */
    struct ws_warp_stream *warps;
    struct ws_inst *copy;       /* a corrected CTA, when one needs it */
    size_t copy_cap;
    struct ws_cta_stream cta;
    uint64_t mapped, copied;
    int finished;
    /* Where the records and addresses of the CTAs served so far end: what
     * lies before the current CTA's is given back (see ws_packr.c).  A
     * pack lays CTAs out in order, so this runs through the file once. */
    uint64_t given_inst, given_addr;
    /* Streaming (ws_packr_stream.c): the CTA a header was served for. */
    uint64_t cur_addr_off;      /* its address pool */
    uint32_t cur_naddrs, cur_no;
    struct ws_packr_warp *spare;    /* warp readers kept for reuse */
};

/* 1 when a record can be used as it lies (opcode, registers, width,
 * addresses inside the CTA's naddrs). */
int ws_packr_sound(const struct ws_pack_reader *r, const struct ws_inst *in,
                   uint32_t naddrs);

/* The next CTA, whole (1) or as a streamed kernel's header (0: identity
 * and warps, the records left to the warps' readers); as next_cta. */
int ws_packr_serve(struct ws_pack_reader *r, const struct ws_cta_stream **cta,
                   int whole, struct ws_err *err);

/* Frees the warp readers a streamed kernel kept for reuse. */
void ws_packr_stream_free(struct ws_pack_reader *r);

/* 1 when a sound record's derived fields (class, memory op, flags, space)
 * are not this configuration's; addrs is its CTA's address pool. */
int ws_packr_stale(const struct ws_pack_reader *r, const struct ws_inst *in,
                   const uint64_t *addrs);

#endif
