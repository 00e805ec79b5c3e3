/*
 * ws_opinfo: what an opcode's text implies about an instruction, and the
 * fields of struct ws_inst that follow from it: class, memory operation,
 * semantic flags and address space.
 *
 * Shared by the two trace readers so that they cannot disagree: the text
 * reader derives it once per distinct opcode while it parses, and the
 * packed-trace reader checks each packed record against what its opcode
 * implies for the running configuration (the class of unknown mnemonics
 * is a config key, so a record packed under another config is re-derived,
 * not trusted).
 *
 * Also the one rule for how many registers a result fills: a trace names
 * only the first register of a pair or quad, as NVBit's tracer records
 * operands, and every reader (and the workload expander) widens it here.
 *
 * Leaves out: the opcode table itself (ws_opcode).
 */
#ifndef WS_OPINFO_H
#define WS_OPINFO_H

#include <stdint.h>

#include "ws_trace.h"

struct ws_opinfo {
    uint8_t cls, memop;  /* enum ws_op_class, enum ws_mem_op */
    uint8_t known;       /* 0 not derived yet, 1 known, 2 unknown mnemonic */
    uint8_t flags;       /* WS_INST_BAR_SYNC ... from the text */
    uint8_t width;       /* bytes per lane from the modifiers */
    uint8_t generic;     /* LD, ST, ATOM or RED: space from the address */
    uint8_t result_regs; /* registers a named destination fills (1-4) */
    uint8_t bulk;        /* UTMA* / UBLK*: a box as addresses */
};

/* Derives info for opcode text op in a kernel for SM version sm, giving an
 * unknown mnemonic the class unknown_class. */
void ws_opinfo_derive(struct ws_opinfo *info, const char *op, unsigned sm,
                      int unknown_class);

/* Sets in->cls, memop, flags and space from info, in->width, in->mask and,
 * for a generic access, its first address addrs[in->addr] against the
 * launch's shared and local windows. */
void ws_opinfo_apply(const struct ws_opinfo *info, const struct ws_launch *l,
                     const uint64_t *addrs, struct ws_inst *in);

/* Registers written by an instruction whose first destination register is
 * named: wide loads and atomics 2 or 4 (by width), LDSM .x2/.x4 2 or 4,
 * fp64 arithmetic and .WIDE integer ops 2; otherwise 1.  Capped at
 * WS_INST_MAX_DST. */
unsigned ws_opinfo_result_regs(const char *op, unsigned cls, unsigned memop,
                               unsigned width);

/* Widens in->dst from its first register when the trace names just one:
 * in->dst[0], in->dst[0] + 1, ..., info->result_regs of them. */
void ws_opinfo_widen(const struct ws_opinfo *info, struct ws_inst *in);

#endif
