/*
 * ws_expr_internal: what the scalar interpreter (ws_expr.c) and the lane
 * interpreter (ws_expr_lanes.c) share: the operation codes and the checked
 * arithmetic that folds constants.  Not for use outside workload/.
 */
#ifndef WS_EXPR_INTERNAL_H
#define WS_EXPR_INTERNAL_H

#include <stdint.h>

enum {
    OP_LIT,
    OP_VAR,
    OP_NEG,
    OP_NOT,
    OP_BNOT,
    OP_MUL,
    OP_DIV,
    OP_MOD,
    OP_ADD,
    OP_SUB,
    OP_SHL,
    OP_SHR,
    OP_LT,
    OP_LE,
    OP_GT,
    OP_GE,
    OP_EQ,
    OP_NE,
    OP_BAND,
    OP_BXOR,
    OP_BOR,
    OP_MIN,
    OP_MAX,
    OP_ABS,
    OP_LOG2,
    OP_JZ,  /* pop; jump if zero */
    OP_JNZ, /* pop; jump if not zero */
    OP_JMP,
    OP_BOOL, /* top = (top != 0) */
    /* Lane programs only: division and remainder by 2^arg, arg >= 0, the
     * divisor folded away (no operand on the stack, no fault possible). */
    OP_DIV_P2,
    OP_MOD_P2
};

/* Lane programs only: a binary operation whose right operand is a literal
 * (arg) rather than the top of the stack. */
#define WS_OP_IMM 0x80

/* Values pending at once while evaluating (checked when compiling, so
 * evaluation needs no check per operation). */
#define WS_EXPR_STACK 128
/* Operations of one compiled expression: expansion evaluates rules for
 * every warp instruction they cover, so length is time. */
#define WS_EXPR_MAX_OPS 1024
/* ws_expr_op.depth of an operation no path reaches. */
#define WS_EXPR_UNREACHED 0xff

/* Why an evaluation failed. */
enum ws_eval_fault {
    WS_EV_OK,
    WS_EV_DIV0,
    WS_EV_OVERFLOW,
    WS_EV_SHIFT,
    WS_EV_LOG2
};

/* a op b into *r, or the fault (then *r is unchanged or meaningless). */
int ws_expr_binary(uint8_t code, int64_t a, int64_t b, int64_t *r);
/* op *v in place, or the fault. */
int ws_expr_unary(uint8_t code, int64_t *v);

#endif
