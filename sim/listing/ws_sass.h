/*
 * ws_sass: reader of static SASS listings printed by "cuobjdump -sass"
 * (optionally with -res-usage) and by "nvdisasm", sm_35 to sm_90.
 *
 * The result is every function's instructions with guard predicate, opcode
 * class and typed operands (registers, predicates, uniform registers,
 * constant-bank references, immediates, memory references, branch targets
 * resolved from offsets or nvdisasm labels).  This static form is what the
 * workload expander turns into dynamic warp streams, and what "trace info"
 * summarises for a listing.
 *
 * Pre-Volta listings use 8-byte slots with scheduling-control words in every
 * 4th (Maxwell, Pascal) or 8th (Kepler) slot; those print only an encoding
 * comment, so offsets simply skip them.  Listings are small (kilobytes), so
 * the reader keeps the whole file.  A function must show its end (see
 * ws_sass.c), so a listing cut short is an error, not a shorter kernel.
 *
 * Of the encodings (the hex comments), only the control bits of sm_70+
 * instructions are read: the high word cuobjdump prints on the line after
 * each instruction (trace/ws_ctrl.h).  nvdisasm prints no encodings by
 * default, so its listings carry no control.
 *
 * Leaves out: the rest of the encodings, ELF data sections.
 */
#ifndef WS_SASS_H
#define WS_SASS_H

#include <stddef.h>
#include <stdint.h>

#include "util/ws_err.h"
#include "util/ws_strtab.h"
#include "trace/ws_traceg.h"

enum ws_opnd_kind {
    WS_OPND_REG,    /* R0..R254, RZ = 255 */
    WS_OPND_UREG,   /* UR0..UR62, URZ = 63 */
    WS_OPND_PRED,   /* P0..P6, PT = 7 */
    WS_OPND_UPRED,  /* UP0..UP6, UPT = 7 */
    WS_OPND_CONST,  /* c[bank][offset] */
    WS_OPND_IMM,    /* integer immediate */
    WS_OPND_FIMM,   /* floating-point immediate */
    WS_OPND_MEM,    /* [Rn(.64)? + URn? + offset], optionally desc[URn] */
    WS_OPND_SREG,   /* SR_TID.X, SR_CTAID.X, ... */
    WS_OPND_TARGET, /* branch target, resolved to a byte offset */
    WS_OPND_OTHER   /* anything else, kept as text (barrier names, modes) */
};

struct ws_opnd {
    uint8_t kind;
    uint8_t negate, absolute, invert, wide;
    int16_t reg;   /* register or predicate number; MEM base; -1 none */
    int16_t ureg;  /* MEM uniform part; -1 none */
    uint32_t bank; /* CONST */
    int64_t value; /* IMM, CONST offset (-1 if indexed), MEM offset, TARGET */
    double fvalue; /* FIMM */
    uint32_t text; /* interned operand text */
};

struct ws_sass_inst {
    uint32_t pc;
    long line;
    int8_t guard; /* predicate number, -1 when unguarded */
    uint8_t guard_neg, guard_uniform;
    uint32_t op; /* interned opcode with modifiers */
    uint8_t cls, memop, known;
    uint32_t opnd, nopnd; /* operands in the listing's pool */
    uint32_t ctrl;        /* sm_70+ control bits (trace/ws_ctrl.h), 0 when
                             the listing printed no encoding */
};

struct ws_sass_func {
    char *name;
    uint32_t sm;
    long line;
    int regs, shared, local, stack; /* -res-usage values, -1 if absent */
    uint32_t first, ninst;          /* instructions in the pool */
};

struct ws_sass {
    char *path;
    struct ws_sass_func *funcs;
    size_t nfuncs, funcs_cap;
    struct ws_sass_inst *insts;
    size_t ninsts, insts_cap;
    struct ws_opnd *opnds;
    size_t nopnds, opnds_cap;
    struct ws_strtab strs;
};

int ws_sass_load(struct ws_sass *s, const char *path,
                 const struct ws_trace_opts *opts, struct ws_err *err);
int ws_sass_parse_mem(struct ws_sass *s, const char *name, const void *data,
                      size_t len, const struct ws_trace_opts *opts,
                      struct ws_err *err);
void ws_sass_free(struct ws_sass *s);

const struct ws_sass_func *ws_sass_find(const struct ws_sass *s,
                                        const char *name);

/* True when the first bytes look like a cuobjdump or nvdisasm listing. */
int ws_sass_sniff(const char *text, size_t len);

/* The control-bit table of function f (trace/ws_ctrl.h): entries for the
 * instructions whose encoding the listing printed, each with the
 * registers its ".reuse" operands keep.  -1 when out of memory. */
struct ws_ctrl_table;
int ws_sass_ctrl_table(const struct ws_sass *s, const struct ws_sass_func *f,
                       struct ws_ctrl_table *t);

#endif
