/*
 * ws_ctrl: the scheduling control an sm_70+ instruction carries in its
 * encoding, and a kernel's table of it by PC.
 *
 * From Volta on, every 128-bit SASS instruction holds 21 bits of control
 * that the compiler writes and the hardware obeys instead of checking
 * dependences itself (Jia et al., "Dissecting the NVIDIA Volta GPU
 * Architecture via Microbenchmarking", arXiv 1804.06826, ch. 2; Huerta et
 * al., "Dissecting and Modeling the Architecture of Modern GPU Cores",
 * MICRO 2025, sec. 4).  They are bits 105..125 of the instruction, i.e.
 * bits 41..61 of the high 64-bit word cuobjdump prints on the line after
 * the instruction, from least to most significant:
 *
 *   stall  4  cycles before the warp may issue again (fixed-latency
 *             producers: the compiler counts the latency here)
 *   yield  1  (as encoded; Huerta et al.: when set, the warp may issue in
 *             the next cycle; cleared, the scheduler must switch)
 *   wbar   3  dependence counter SB0..SB5 raised at issue and lowered at
 *             write-back (7: none)
 *   rbar   3  counter lowered once the sources are read (7: none)
 *   wait   6  counters that must be zero before this instruction issues
 *   reuse  4  operand slots A, B, C (and a fourth) to keep in the register
 *             file cache for the warp's next instruction
 *
 * A table covers one function: entry pc / 16.  An entry also names the
 * registers its reuse flags keep, read from the listing's ".reuse"
 * operands, because a trace's source list does not say which register
 * sat in which operand slot.
 *
 * Leaves out: the pre-Volta control words (one per 3 or 7 instructions),
 * DEPBAR's counter thresholds (a DEPBAR waits as its wait mask says).
 */
#ifndef WS_CTRL_H
#define WS_CTRL_H

#include <stddef.h>
#include <stdint.h>

#define WS_CTRL_KNOWN (1u << 31)
#define WS_CTRL_NO_BAR 7u
#define WS_CTRL_MAX_REUSE 4

struct ws_ctrl {
    uint8_t stall, yield, wbar, rbar, wait, reuse;
};

/* The packed control of an instruction whose high encoding word is hi. */
static inline uint32_t ws_ctrl_from_hi(uint64_t hi)
{
    return (uint32_t)((hi >> 41) & 0x1fffffu) | WS_CTRL_KNOWN;
}

void ws_ctrl_unpack(uint32_t word, struct ws_ctrl *out);

static inline unsigned ws_ctrl_stall(uint32_t w)
{
    return w & 0xfu;
}
static inline unsigned ws_ctrl_yield(uint32_t w)
{
    return (w >> 4) & 1u;
}
static inline unsigned ws_ctrl_wbar(uint32_t w)
{
    return (w >> 5) & 7u;
}
static inline unsigned ws_ctrl_rbar(uint32_t w)
{
    return (w >> 8) & 7u;
}
static inline unsigned ws_ctrl_wait(uint32_t w)
{
    return (w >> 11) & 0x3fu;
}
static inline unsigned ws_ctrl_reuse(uint32_t w)
{
    return (w >> 17) & 0xfu;
}

struct ws_ctrl_entry {
    uint32_t word;    /* 0: unknown */
    uint32_t op_hash; /* ws_ctrl_op_hash of the listing's mnemonic */
    uint8_t nreuse;
    uint8_t reuse_reg[WS_CTRL_MAX_REUSE]; /* registers kept for the next */
};

struct ws_ctrl_table {
    struct ws_ctrl_entry *e; /* [n], entry pc / 16 */
    uint32_t n;
    uint32_t known;     /* entries with control */
    uint32_t complete;  /* every instruction of the function has it */
    const char *source; /* where the control came from, for the report */
};

/* The entry of pc; NULL when the table has none there. */
static inline const struct ws_ctrl_entry *
ws_ctrl_at(const struct ws_ctrl_table *t, uint32_t pc)
{
    uint32_t i = pc >> 4;

    if (!t || (pc & 15u) || i >= t->n || !t->e[i].word)
        return NULL;
    return &t->e[i];
}

/* An empty table for a function whose last instruction is at last_pc;
 * -1 when out of memory. */
int ws_ctrl_table_init(struct ws_ctrl_table *t, uint32_t last_pc);
void ws_ctrl_table_free(struct ws_ctrl_table *t);

/* A hash of op's base mnemonic (up to the first '.'): a trace and the
 * listing it borrows control from must agree on it at every PC. */
uint32_t ws_ctrl_op_hash(const char *op);

/* "S02 Y W0 R- B1 U--C-": the control as CuAssembler-like text, for
 * messages and tests. */
void ws_ctrl_format(uint32_t word, char *buf, size_t len);

#endif
