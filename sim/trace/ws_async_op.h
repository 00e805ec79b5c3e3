/*
 * ws_async_op: what a Hopper asynchronous instruction is, from its opcode
 * text: a warpgroup MMA with its shape, a warpgroup fence or wait, an
 * mbarrier operation, a bulk (TMA) copy, a cluster barrier.
 *
 * These instructions carry WS_INST_ASYNC (ws_trace.h) so that the timing
 * model looks them up here, once per distinct opcode, instead of parsing
 * text per issue.  The shape is read from the mnemonic's modifiers
 * (HGMMA.64x256x16.F32 -> m 64, n 256, k 16) because a trace records no
 * operand text; the operand type follows from the mnemonic and K (HGMMA
 * k16 is fp16/bf16, k8 tf32; QGMMA fp8 and IGMMA int8 are k32; BGMMA k256).
 *
 * Leaves out: timing (timing/ws_async.h), the tensor-map or box of a TMA
 * copy, which travel as addresses (ws_async_op_box below).
 */
#ifndef WS_ASYNC_OP_H
#define WS_ASYNC_OP_H

#include <stdint.h>

enum ws_async_kind {
    WS_ASYNC_NONE,
    WS_ASYNC_WGMMA,          /* HGMMA / QGMMA / IGMMA / BGMMA .64xNxK */
    WS_ASYNC_WG_ARRIVE,      /* WARPGROUP.ARRIVE (wgmma.fence) */
    WS_ASYNC_WG_WAIT,        /* WARPGROUP.DEPBAR.LE gsb0, k */
    WS_ASYNC_MBAR_INIT,      /* SYNCS.EXCH: mbarrier.init, count in imm */
    WS_ASYNC_MBAR_ARRIVE,    /* SYNCS.ARRIVE.*: arrive, expect_tx in imm */
    WS_ASYNC_MBAR_WAIT,      /* SYNCS.PHASECHK.*: wait on a phase parity */
    WS_ASYNC_BULK_LOAD,      /* UTMALDG, UBLKCP: global -> shared */
    WS_ASYNC_BULK_STORE,     /* UTMASTG, UTMAREDG, UBLKRED: shared -> global */
    WS_ASYNC_BULK_PREFETCH,  /* UTMAPF, UBLKPF: into L2, nothing waits */
    WS_ASYNC_CLUSTER_ARRIVE, /* UCGABAR_ARV */
    WS_ASYNC_CLUSTER_WAIT,   /* UCGABAR_WAIT */
    WS_ASYNC_MBAR_ARRIVE_LDGSTS, /* ARRIVES.LDGSTSBAR: arrive once the
                                    warp's earlier LDGSTS are done */
    WS_ASYNC_KIND_COUNT
};

/* Operand types of a warpgroup MMA, by the tensor pipe's rate for them. */
enum ws_wgmma_type {
    WS_WGMMA_F16,  /* fp16 / bf16, k16 */
    WS_WGMMA_TF32, /* k8 */
    WS_WGMMA_F8,   /* fp8 (QGMMA) and int8 (IGMMA), k32 */
    WS_WGMMA_B1    /* BGMMA, k256 */
};

struct ws_async_op {
    uint8_t kind;   /* enum ws_async_kind */
    uint8_t type;   /* enum ws_wgmma_type, wgmma only */
    uint8_t remote; /* an mbarrier arrive that may target another CTA of
                       the cluster (.RED / shared::cluster) */
    uint16_t m, n, k;
};

/* Fills *out for opcode text op.  0 when op is one of the kinds above with
 * a well-formed shape, -1 when it names a wgmma whose shape cannot be
 * read (out->kind is then WS_ASYNC_NONE). */
int ws_async_op_decode(const char *op, struct ws_async_op *out);

/* Whether a kind is a bulk copy, which carries a box. */
static inline int ws_async_kind_is_bulk(unsigned kind)
{
    return kind >= WS_ASYNC_BULK_LOAD && kind <= WS_ASYNC_BULK_PREFETCH;
}

/* Whether op is a bulk copy that carries a box (UTMALDG, UBLKCP ...; not
 * UTMACCTL or UTMACMDFLUSH, which move no data). */
int ws_async_op_is_bulk(const char *op);

/* The name of a kind, for messages and counters. */
const char *ws_async_kind_name(enum ws_async_kind kind);

/* A bulk copy's box travels in the address pool as WS_BOX_WORDS words
 * (one per "lane" of a mask with that many low bits): the readers and the
 * trace writer carry addresses already, so the box needs no new field in
 * any format.  Rows are the innermost box dimension, contiguous in global
 * memory; planes are the third dimension (1 for a 2-D box). */
enum {
    WS_BOX_BASE,   /* global address of the box's first element */
    WS_BOX_ROW,    /* bytes per row | rows << 32 */
    WS_BOX_PITCH,  /* bytes from one row to the next */
    WS_BOX_MBAR,   /* shared address of the mbarrier completed, or 0 */
    WS_BOX_PLANES, /* planes | multicast CTA mask << 20 | fill << 36 */
    WS_BOX_PPITCH, /* bytes from one plane to the next */
    WS_BOX_WORDS
};
#define WS_BOX_MASK ((1u << WS_BOX_WORDS) - 1u)
/* The largest box: 256 elements of 16 bytes per dimension is more, but
 * no box fits shared memory beyond this (227 KiB per CTA). */
#define WS_BOX_MAX_BYTES (256u << 10)

struct ws_box {
    uint64_t base, pitch, plane_pitch, mbar;
    uint32_t row_bytes, rows, planes;
    uint16_t multicast; /* CTAs of the cluster, bit = rank; 0: own CTA */
    /* Bytes of the box outside the tensor, which TMA fills (with zeros or
     * NaN) instead of reading: they count towards the mbarrier's
     * transaction bytes like those read. */
    uint32_t fill;
};

/* A box's pieces in order: each row of each plane, cut where lines end,
 * as a copy engine requests them and as the models count them. */
struct ws_box_walk {
    const struct ws_box *b;
    uint64_t line;       /* line bytes */
    uint32_t plane, row; /* the next row to start */
    uint64_t at, end;    /* what is left of the current row */
};

void ws_box_walk_init(struct ws_box_walk *it, const struct ws_box *b,
                      uint64_t line_bytes);
/* The next piece, inside one line: 1 with *addr and *bytes, 0 after the
 * last. */
int ws_box_walk_next(struct ws_box_walk *it, uint64_t *addr, uint32_t *bytes);

void ws_box_pack(const struct ws_box *b, uint64_t words[WS_BOX_WORDS]);
/* 0 when the words describe a box of at most max_bytes, else -1. */
int ws_box_unpack(const uint64_t words[WS_BOX_WORDS], uint64_t max_bytes,
                  struct ws_box *b);
uint64_t ws_box_bytes(const struct ws_box *b);

#endif
