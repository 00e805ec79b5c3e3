/*
 * ws_opcode: SASS mnemonic -> instruction class, per SM version.
 *
 * The class picks the function unit (and so the latency and issue interval,
 * which come from the GPU config, never from here) and, for memory
 * instructions, the kind of access.  The key is the base mnemonic, the text
 * before the first '.', because modifiers (.WIDE, .E.128, .FTZ) change widths
 * and rounding, not the unit.  Entries carry the range of SM versions in which
 * the mnemonic exists, so a Maxwell XMAD in a Hopper trace is reported as
 * unknown instead of being silently classed.
 *
 * Leaves out: per-modifier rates (a HMMA shape's cycles belong to the config).
 */
#ifndef WS_OPCODE_H
#define WS_OPCODE_H

#include <stddef.h>
#include <stdint.h>

enum ws_op_class {
    WS_OPC_FP32,
    WS_OPC_FP16, /* half2 math: twice the fp32 rate on most parts */
    WS_OPC_INT,
    WS_OPC_FP64,
    WS_OPC_SFU,
    WS_OPC_TENSOR,
    WS_OPC_UNIFORM, /* Turing-on uniform datapath, one result per warp */
    WS_OPC_MISC,    /* moves, special registers, conversions, shuffles */
    WS_OPC_BRANCH,
    WS_OPC_BARRIER,
    WS_OPC_EXIT,
    WS_OPC_GLOBAL, /* LDG/STG, generic LD/ST, atomics, LDGSTS */
    WS_OPC_SHARED,
    WS_OPC_LOCAL,
    WS_OPC_CONST,
    WS_OPC_TEX,
    WS_OPC_COUNT
};

enum ws_mem_op {
    WS_MEMOP_NONE,
    WS_MEMOP_LOAD,
    WS_MEMOP_STORE,
    WS_MEMOP_ATOMIC,    /* read-modify-write that returns a value */
    WS_MEMOP_REDUCTION, /* read-modify-write that returns nothing */
    WS_MEMOP_ASYNC_COPY /* LDGSTS: global -> shared without registers */
};

struct ws_opcode_info {
    uint8_t cls;   /* enum ws_op_class */
    uint8_t memop; /* enum ws_mem_op */
};

/* Looks up base[0..len) for SM version sm (e.g. 70).  Returns 1 and fills
 * *info when known, 0 when the mnemonic is unknown for that version. */
int ws_opcode_lookup(const char *base, size_t len, unsigned sm,
                     struct ws_opcode_info *info);

/* ws_opcode_lookup for a whole opcode text, which must also be well formed
 * where its modifiers carry what the timing model needs (a wgmma's shape:
 * HGMMA.64x999x16 is unknown, not an MMA of no work). */
int ws_opcode_known(const char *op, unsigned sm, struct ws_opcode_info *info);

/* Length of the base mnemonic: the text before the first '.'. */
size_t ws_opcode_base_len(const char *opcode);

/* Bytes per lane implied by the opcode's modifiers (.64 -> 8, .128 -> 16,
 * .U8/.S8 -> 1, .U16/.S16 -> 2), else 4.  NVBit's own width can be wrong,
 * so memory widths come from here. */
unsigned ws_opcode_width(const char *opcode);

/* The classes' names in enum order, as configs spell them. */
extern const char *const ws_opcode_class_names[WS_OPC_COUNT];
const char *ws_opcode_class_name(enum ws_op_class cls);
int ws_opcode_class_parse(const char *name); /* -1 when not a class name */

/* Semantic flags of an opcode (WS_INST_BAR_SYNC, WS_INST_FENCE,
 * WS_INST_ASYNC_COMMIT, WS_INST_ASYNC_WAIT of ws_trace.h) from its text:
 * what the timing model must do beyond occupying a unit. */
unsigned ws_opcode_semantics(const char *opcode);

/* Every class is a memory class when it passes through the LD/ST path. */
int ws_opcode_class_is_memory(enum ws_op_class cls);

/* 0 when the table is sorted by name with disjoint SM ranges, else -1. */
int ws_opcode_table_check(void);

#endif
