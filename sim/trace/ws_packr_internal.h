/*
 * ws_packr_internal: what the parts of the .wst reader share (ws_packr.c:
 * the file, its header, checksum and commands, and whether it changed
 * while it was read; ws_packr_guard.c: the SIGBUS guard of its mapping;
 * ws_packr_layout.c: where every section and CTA block must lie, and the
 * totals; ws_packr_kernel.c: one kernel, CTA by CTA; ws_packr_stream.c: a
 * kernel's warps a window at a time).  Not for use outside sim/trace.
 */
#ifndef WS_PACKR_INTERNAL_H
#define WS_PACKR_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "util/ws_bits.h"
#include "ws_opinfo.h"
#include "ws_pack.h"

#define WS_PACKR_REPACK "an intact .wst; repack it"

struct ws_pack {
    char *name;
    const uint8_t *base;
    size_t size;
    void *map; /* munmap'd on close */
    void *own; /* an aligned copy (ws_pack_open_mem) */
    struct ws_pack_header h;
    uint64_t *kernels; /* kernel header offsets, launch order */
    /* A mapped file: its descriptor, kept for fstat, its size and
     * modification time when opened, and its slot in the SIGBUS guard
     * (-1 and 0 for a buffer). */
    int fd, guard;
    uint64_t size0;
    struct timespec mtime0;
};

/* The SIGBUS guard (ws_packr_guard.c): a slot for [base, base + len), -1
 * when none is free or the handler cannot be installed. */
int ws_packr_guard_add(const void *base, size_t len);
void ws_packr_guard_remove(int slot);
/* 1, and at the offset of the first access that found the file cut short,
 * once a fault in the slot's mapping was turned into zeros; else 0. */
int ws_packr_guard_tripped(int slot, uint64_t *at);

/* Compressed packs (ws_packr_zstd.c): whether fd starts with a zstd
 * frame; its first n decoded bytes into head (1 when there were n); the
 * whole file decoded into p->own (p->base, p->size). */
int ws_packr_zstd_is(int fd);
int ws_packr_zstd_head(int fd, void *head, size_t n);
int ws_packr_zstd_load(struct ws_pack *p, int fd, struct ws_err *err);

/* Whether p changed since it was opened: 0, or -1 and err replaced by
 * "the file changed while it was being read" (a check that failed on
 * zeros where the file was cut short would describe the zeros, not the
 * cause).  full also compares the file's size and modification time (a
 * system call: at the end of a kernel or warp, not per CTA). */
int ws_packr_unchanged(const struct ws_pack *p, int full, struct ws_err *err);

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

/* "NAME:1:1: PREFIX FIELD is GOT at byte AT (expected WANT, WHY; repack
 * it)": a field that disagrees with what the layout derives for it.  -1. */
int ws_packr_field(const char *name, struct ws_err *err, uint64_t at,
                   const char *prefix, const char *field, uint64_t got,
                   uint64_t want, const char *why);

/* The offset of the first non-zero byte in [from, to) of p, or to. */
uint64_t ws_packr_nonzero(const struct ws_pack *p, uint64_t from, uint64_t to);

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
    uint8_t space_none, space_mem; /* width 0, width > 0 */
    uint8_t width;
    uint8_t generic;
};

/* A walk through a kernel's CTA blocks: where the next block must start
 * (the one before it ends there, rounded up to 8) and the totals so far. */
struct ws_packr_walk {
    uint64_t end;   /* blocks_off before the first block */
    uint64_t addrs; /* addresses of the CTAs walked */
    uint64_t ninst; /* their instructions */
};

struct ws_pack_reader {
    const struct ws_pack *p;
    size_t index; /* kernel number, for messages */
    uint64_t hdr_off;
    struct ws_pack_kernel_hdr k;
    struct ws_trace_opts opts;
    struct ws_launch launch;
    struct ws_strtab ops;
    struct ws_opinfo *opinfo;       /* by op id, for this configuration */
    struct ws_packr_expect *expect; /* by op id */
    uint32_t next;                  /* the next CTA to serve */
    uint64_t insts_total;           /* served so far, against --max-insts */
    uint8_t *cta_seen;              /* one bit per CTA of the grid */
    struct ws_warp_stream *warps;
    struct ws_pack_warp *wrec; /* the served CTA's warp records, copied */
    struct ws_packr_walk walk; /* the CTAs served so far */
    uint64_t op_next;          /* where the next opcode text must lie */
    struct ws_inst *copy;      /* a corrected CTA, when one needs it */
    size_t copy_cap;
    struct ws_cta_stream cta;
    uint64_t mapped, copied;
    int finished;
    /* Where the records and addresses of the CTAs served so far end: what
     * lies before the current CTA's is given back (see ws_packr.c).  A
     * pack lays CTAs out in order, so this runs through the file once. */
    uint64_t given_inst, given_addr;
    /* Streaming (ws_packr_stream.c): the CTA a header was served for. */
    uint64_t cur_addr_off; /* its address pool */
    uint32_t cur_naddrs, cur_no;
    struct ws_packr_warp *spare; /* warp readers kept for reuse */
};

/* ---- the layout (ws_packr_layout.c) ---- */

/* The kernel header's reserved fields and its sections' offsets against
 * each other and the kernel before it; before anything else is read. */
int ws_packr_layout_sections(const struct ws_pack_reader *r,
                             struct ws_err *err);
/* The name and NVBit version (NULL: none), back to back from
 * strings_off, and their lengths; sets r->op_next where the opcode texts
 * must start. */
int ws_packr_layout_strings(struct ws_pack_reader *r, const char **name,
                            size_t *name_len, const char **nvbit,
                            size_t *nvbit_len, struct ws_err *err);
/* Opcode table entry i (at byte at): its text where the one before it
 * ended, its reserved field zero; then, after the last, the table where
 * the texts end, rounded up to 8. */
int ws_packr_layout_op(struct ws_pack_reader *r, uint32_t i,
                       const struct ws_pack_op *op, uint64_t at,
                       struct ws_err *err);
int ws_packr_layout_ops_end(const struct ws_pack_reader *r, struct ws_err *err);
/* CTA i's block where w says it must start: its index entry, record and
 * warp records (copied to *c and r->wrec, then checked, so that what is
 * served is what was checked), its place in the grid (r->cta_seen); w
 * moves past it and *off is its record's offset. */
int ws_packr_block(struct ws_pack_reader *r, struct ws_packr_walk *w,
                   uint32_t i, struct ws_pack_cta *c, uint64_t *off,
                   struct ws_err *err);
/* Every CTA block walked, then the address table right after the last
 * and the kernel's totals; before the first CTA is served. */
int ws_packr_layout_ctas(struct ws_pack_reader *r, struct ws_err *err);

/* ---- records ---- */

/* 1 when a record can be used as it lies (opcode, registers, width,
 * addresses inside the CTA's naddrs). */
int ws_packr_sound(const struct ws_pack_reader *r, const struct ws_inst *in,
                   uint32_t naddrs);

/* A warp's address chain: each memory access's addresses right after
 * the previous one's in the warp, from its first_addr, as the text gives
 * them; a record that is not a memory access has addr 0.  1 when in
 * continues the chain (*next moved past its lanes, not past end). */
static inline int ws_packr_chain(const struct ws_inst *in, uint64_t *next,
                                 uint64_t end)
{
    if (in->width == 0)
        return in->addr == 0;
    if (in->addr != *next)
        return 0;
    *next += ws_popcount32(in->mask);
    return *next <= end;
}

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
