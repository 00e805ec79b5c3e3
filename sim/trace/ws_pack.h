/*
 * ws_pack: the packed trace (.wst), a binary form of an Accel-Sim trace
 * that the simulator reads without parsing: `warpsim trace pack` writes it
 * from a kernelslist.g, a folder or one kernel trace, and every command
 * that reads a trace accepts it (recognised by its magic, not its name).
 *
 * The file is read through mmap and its instruction records are handed to
 * the simulator where they lie: a struct ws_cta_stream points into the
 * mapping, so reading a CTA costs a check of its records, not a parse.
 * Every number in the file is in the writer's byte order, which the header
 * records (a reader of the other order refuses the file), and every
 * offset is from the start of the file.  Sections start on 8-byte
 * boundaries, kernel sections and the command table on 64-byte ones.
 *
 * Layout (offsets in bytes; u32/u64 unsigned, native order):
 *
 *   file header, at 0, 64 bytes (struct ws_pack_header)
 *     0   u8[8] magic "WSTPACK\0"
 *     8   u32 format version, WS_PACK_VERSION
 *     12  u32 byte-order mark 0x01020304
 *     16  u32 bytes per instruction record, sizeof(struct ws_inst) = 36
 *     20  u32 header size, 64
 *     24  u64 file size
 *     32  u64 XXH3-64 of every byte from 64 to the end of the file
 *     40  u64 offset of the command table
 *     48  u32 commands
 *     52  u32 kernels
 *     56  u64 zero
 *   kernel sections, one per kernel in launch order:
 *     CTA blocks, one per CTA in trace order, each 8-aligned:
 *       CTA record, 72 bytes (struct ws_pack_cta):
 *         0 u32[3] ctaid, 12 u32 has_cluster, 16 u32[3] cluster id,
 *         28 u32[3] cluster cta, 40 u32 cluster rank, 44 u32 ninst,
 *         48 u32 naddrs, 52 u32 zero, 56 u64 offset of its instruction
 *         records, 64 u64 index of its first address in the kernel's
 *         address table
 *       warp records, nwarps x 16 bytes (struct ws_pack_warp), absent
 *       warps with ninst 0:
 *         0 u32 ninst, 4 u32 first instruction, 8 u32 first address
 *         (both counted from the CTA's first), 12 u32 addresses
 *       ninst instruction records (struct ws_inst, 36 bytes, as the text
 *       reader fills them: ws_inst.addr counts from the CTA's first
 *       address), warp after warp
 *     address table, 8-aligned: every CTA's lane addresses (u64), CTA
 *       after CTA; kept apart from the instruction records so that a
 *       reader streaming through the CTAs' records skips nothing
 *     strings: the kernel name, the NVBit version, the opcode texts,
 *       each NUL-terminated
 *     opcode table, 8-aligned, nops x 16 bytes (struct ws_pack_op):
 *       0 u64 offset of the text, 8 u32 its length, 12 u32 zero;
 *       ws_inst.op indexes it, and no text appears twice
 *     CTA index, 8-aligned, nctas x u64: the offset of each CTA record,
 *       so that any CTA, and through its warp records any warp, is found
 *       without reading the others
 *     kernel header, 64-aligned, 192 bytes (struct ws_pack_kernel_hdr):
 *       0 u32 kernel id, 4 u32[3] grid, 16 u32[3] block, 28 u32 shmem,
 *       32 u32 nregs, 36 u32 SM version, 40 u64 stream id,
 *       48 u64 shared base, 56 u64 local base, 64 u32 tracer version,
 *       68 u32 lineinfo, 72 u32 nctas, 76 u32 nwarps (warps per CTA),
 *       80 u32 nops, 84 u32 zero, 88 u64 warp instructions,
 *       96 u64 lane addresses, 104 u64 offset of the name, 112 u64 offset
 *       of the NVBit version (0: none), 120 u64 offset of the opcode
 *       table, 128 u64 offset of the CTA index, 136 u64 offset of the
 *       first CTA block, 144 u64 offset of the strings, 152 u64 offset of
 *       the address table, 160 u32[3] cluster dims (0,0,0: none; files
       before clusters had zero here), 172..191 zero
 *   command table, 64-aligned, commands x 24 bytes (struct ws_pack_cmd):
 *     0 u32 kind (0 kernel, 1 host-to-device copy), 4 u32 zero,
 *     8 u64 kernel: offset of its kernel header; copy: destination,
 *     16 u64 copy: bytes; kernel: zero
 *
 * A kernel header comes after its CTA blocks because the writer learns the
 * counts only at the end of the trace; it writes every byte once, in order,
 * and goes back only to the file header, which the checksum leaves out.
 * It holds 8 bytes per CTA (the index) and one CTA at a time; a kernel's
 * addresses wait in a temporary file until its CTA blocks are written.
 *
 * Trust: the checksum is checked when the file is opened, but it guards
 * against accidents only (anyone can recompute it), so the structure is
 * checked on its own too: every offset, count and record against the
 * file's size, the launch and the layout above as the writer produces it
 * (sections back to back, each CTA block where the one before it ends,
 * reserved fields and padding zero, warp ranges that tile their CTA's,
 * totals that are the sums of their parts, each memory access's addresses
 * right after the one before it in its warp; ws_packr_layout.c), before
 * it is used.  A corrupt or hand-made file is an error naming the field
 * and its byte, never a crash or a different instruction stream.  A file
 * truncated or rewritten while it is read is an error too, not SIGBUS
 * (ws_packr_guard.c, ws_packr.c).  The fields an instruction's opcode
 * implies (class, memory operation, flags, space) are not trusted but
 * re-derived (ws_opinfo) for the running configuration; a CTA whose
 * records disagree, such as one packed with another unknown_opcode_class,
 * is served from a corrected copy instead of the mapping.
 *
 * Leaves out: compression (a packed trace is about twice its text), and
 * sharing one opcode table between kernels.
 */
#ifndef WS_PACK_H
#define WS_PACK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ws_kernelslist.h"
#include "util/ws_err.h"
#include "util/ws_strtab.h"
#include "ws_trace.h"
#include "ws_traceg.h"

#define WS_PACK_MAGIC "WSTPACK" /* 8 bytes with its NUL */
#define WS_PACK_VERSION 1u
#define WS_PACK_BOM 0x01020304u

struct ws_pack_header {
    char magic[8];
    uint32_t version, bom, inst_size, header_size;
    uint64_t file_size, checksum, cmd_off;
    uint32_t ncmds, nkernels;
    uint64_t zero;
};

struct ws_pack_cmd {
    uint32_t kind, zero;
    uint64_t a, b;
};

enum {
    WS_PACK_CMD_KERNEL = 0,
    WS_PACK_CMD_MEMCPY = 1
};

struct ws_pack_op {
    uint64_t off;
    uint32_t len, zero;
};

struct ws_pack_cta {
    uint32_t ctaid[3];
    uint32_t has_cluster;
    uint32_t cluster_id[3], cluster_cta[3], cluster_rank;
    uint32_t ninst, naddrs, zero;
    uint64_t inst_off, first_addr;
};

struct ws_pack_warp {
    uint32_t ninst, first_inst, first_addr, naddrs;
};

struct ws_pack_kernel_hdr {
    uint32_t id, grid[3], block[3], shmem, nregs, sm_version;
    uint64_t stream_id, shmem_base, local_base;
    uint32_t trace_version, lineinfo, nctas, nwarps, nops, zero;
    uint64_t ninst, naddrs;
    uint64_t name_off, nvbit_off, ops_off, ctas_off;
    uint64_t blocks_off, strings_off, addrs_off;
    uint32_t cluster[3], zero2; /* cluster dims, 0,0,0: none */
    uint64_t reserved[2];
};

/* ---- writing ----------------------------------------------------------- */

struct ws_pack_writer;

/* Starts a .wst on fp (seekable, empty); name is for messages. */
int ws_pack_writer_new(struct ws_pack_writer **out, FILE *fp, const char *name,
                       struct ws_err *err);

/* A host-to-device copy, in launch order with the kernels. */
int ws_pack_write_memcpy(struct ws_pack_writer *w, uint64_t addr,
                         uint64_t bytes, struct ws_err *err);

/* Reads every CTA of src and writes the kernel. */
int ws_pack_write_kernel(struct ws_pack_writer *w,
                         const struct ws_cta_source *src, struct ws_err *err);

/* Writes the command table and the header; fp is then complete (the
 * caller closes it). */
int ws_pack_writer_finish(struct ws_pack_writer *w, struct ws_err *err);

void ws_pack_writer_free(struct ws_pack_writer *w);

/* ---- reading ----------------------------------------------------------- */

struct ws_pack;
struct ws_pack_reader;

/* 1 when path is a regular file that starts with the .wst magic. */
int ws_pack_sniff(const char *path);

/* Maps path and checks its header, checksum and command table. */
int ws_pack_open(struct ws_pack **out, const char *path, struct ws_err *err);

/* The same over a buffer that outlives the pack (fuzz targets, tests). */
int ws_pack_open_mem(struct ws_pack **out, const char *name, const void *data,
                     size_t len, struct ws_err *err);

/* The commands, as a kernelslist.g would give them; kernel entries have
 * no path of their own (the pack is the file). */
int ws_pack_commands(const struct ws_pack *p, struct ws_cmdlist *list,
                     struct ws_err *err);

size_t ws_pack_nkernels(const struct ws_pack *p);

void ws_pack_close(struct ws_pack *p);

/* Kernel k (0-based, launch order), CTA by CTA as ws_traceg serves a text
 * trace, with the same limits (opts; NULL for the defaults). */
int ws_pack_reader_open(struct ws_pack_reader **out, const struct ws_pack *p,
                        size_t k, const struct ws_trace_opts *opts,
                        struct ws_err *err);

const struct ws_launch *ws_pack_reader_launch(const struct ws_pack_reader *r);
const struct ws_strtab *ws_pack_reader_opcodes(const struct ws_pack_reader *r);

/* 1 and *cta on a CTA, 0 after the last one, -1 on error.  *cta stays
 * valid until the next call. */
int ws_pack_reader_next_cta(struct ws_pack_reader *r,
                            const struct ws_cta_stream **cta,
                            struct ws_err *err);

/* CTAs served from the mapping and from a corrected copy, for tests. */
/* Kernels of long warps (4096 instructions each on average) are also
 * read a warp at a time, as ws_cta_source.next_header / warp_open
 * (ws_packr_stream.c): 1 when this one is. */
int ws_pack_reader_streams(const struct ws_pack_reader *r);
int ws_pack_reader_next_header(struct ws_pack_reader *r,
                               const struct ws_cta_stream **cta,
                               struct ws_err *err);
int ws_pack_reader_warp_open(struct ws_pack_reader *r,
                             const struct ws_cta_stream *cta, uint32_t warp,
                             struct ws_warp_reader *out, struct ws_err *err);

void ws_pack_reader_counts(const struct ws_pack_reader *r, uint64_t *mapped,
                           uint64_t *copied);

void ws_pack_reader_close(struct ws_pack_reader *r);

#endif
