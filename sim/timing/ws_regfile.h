/*
 * ws_regfile: operand reads of a sub-core's register file: banks with one
 * read port each, and the register file cache the compiler's reuse flags
 * fill.
 *
 * Huerta et al. (MICRO 2025, sec. 5.3) measure, on Turing and Ampere, two
 * banks per sub-core, each with one 1024-bit read port (one warp register
 * per cycle): an FMUL whose two sources share a bank leaves a one-cycle
 * bubble, an FFMA whose three do leaves two, and the bubble stalls the
 * sub-core's issue behind it.  Registers alternate banks (register number
 * modulo the banks; Jia et al., arXiv 1804.06826, sec. 3.1).  An operand
 * whose register the same warp's previous instruction flagged ".reuse" is
 * read from the cache instead of its bank; a different warp's issue
 * invalidates the cache (each entry belongs to the warp that filled it,
 * and the next warp's reads evict it).  Only fixed-latency instructions
 * reserve ports this way; memory instructions read theirs from a queue.
 *
 * Leaves out: the cache's per-slot matching (a hit here is the register,
 * in whatever operand slot: compilers set the flag when the slot repeats),
 * 64-bit operand pairs (one read), write-port conflicts.
 */
#ifndef WS_REGFILE_H
#define WS_REGFILE_H

#include <stdint.h>

#include "trace/ws_ctrl.h"
#include "trace/ws_trace.h"

/* What a sub-core's register file remembers between issues. */
struct ws_rfc {
    uint32_t warp; /* whose values the cache holds */
    uint8_t n;
    uint8_t reg[WS_CTRL_MAX_REUSE];
};

/* Bubble cycles instruction in of warp `warp` leaves behind it in a
 * register file of `banks` banks, then the cache refilled with what e
 * (NULL: the instruction's control is not known) keeps.  hits, when not
 * NULL, gets the operands the cache served. */
uint32_t ws_regfile_read(struct ws_rfc *rfc, uint32_t banks, uint32_t warp,
                         const struct ws_inst *in,
                         const struct ws_ctrl_entry *e, uint32_t *hits);

#endif
