/*
 * ws_expr: integer expressions of workload descriptions ("4 * (ctaid.x *
 * ntid.x + tid.x) * stride", "i < n ? 1 : 0", "min(k, 8)").
 *
 * An expression is compiled once against a table of names (thread and CTA
 * coordinates, parameters, buffers, loop counters) into a small stack
 * program, then evaluated per lane with the names' current values.  Compile
 * errors (bad syntax, an unbound name, nesting deeper than 100 levels of
 * parentheses, unary operators and ?:, more than 1024 operations) and
 * run-time errors (division by zero, signed overflow of any operation,
 * a shift by a count outside 0 to 63, log2 of a value below 1) are
 * reported at the expression's place in its YAML file: the caller gives
 * the file, line and column of the expression's first character, the
 * message the column of the operator at fault.
 *
 * Arithmetic is 64-bit signed; comparisons and logic give 0 or 1.
 * Operators, by precedence: ?:  ||  &&  |  ^  &  == !=  < <= > >=
 * << >>  + -  * / %  unary - ! ~.  Functions: min, max, abs, log2 (floor),
 * select(c, a, b).
 *
 * For expansion, where one expression is evaluated for every lane of
 * millions of warp instructions, an expression is also built into a lane
 * program (ws_expr_lanes.c): specialised for one launch (the names that
 * are the same for every lane of every warp become literals and what
 * depends on them alone is folded) and evaluated for 32 lanes at once.  It
 * only says which lanes faulted; ws_expr_eval on such a lane gives the
 * message, so both report the same error.
 *
 * Leaves out: floating point, strings, user functions.
 */
#ifndef WS_EXPR_H
#define WS_EXPR_H

#include <stddef.h>
#include <stdint.h>

#include "util/ws_err.h"

#define WS_EXPR_MAX_NAMES 128

/* The names an expression may use, each bound to a slot of the value array
 * passed to ws_expr_eval. */
struct ws_expr_names {
    const char *name[WS_EXPR_MAX_NAMES];
    uint32_t n;
};

/* Returns the slot of name (added when new), or -1 when the table is full. */
int ws_expr_name(struct ws_expr_names *t, const char *name);
int ws_expr_find(const struct ws_expr_names *t, const char *name, size_t len);

struct ws_expr_op {
    uint8_t code;
    uint8_t depth; /* values on the stack before it runs */
    int64_t arg;   /* literal, slot, or jump target */
    uint32_t col;  /* for run-time errors */
};

struct ws_expr {
    struct ws_expr_op *ops;
    uint32_t nops, cap;
    const char *file; /* not owned: lives as long as the workload */
    long line, col;
    char *text;
};

int ws_expr_compile(struct ws_expr *e, const char *text,
                    const struct ws_expr_names *names, const char *file,
                    long line, long col, struct ws_err *err);
void ws_expr_free(struct ws_expr *e);

/* Evaluates with vals[slot] as the names' values. */
int ws_expr_eval(const struct ws_expr *e, const int64_t *vals, int64_t *out,
                 struct ws_err *err);

/* ---- lane programs ------------------------------------------------------ */

#define WS_EXPR_LANES 32

/* The slots whose value is the same for every lane of every warp of a
 * launch (parameters, buffers, launch sizes, lets of those alone). */
struct ws_expr_consts {
    uint8_t known[WS_EXPR_MAX_NAMES];
    int64_t value[WS_EXPR_MAX_NAMES];
};

struct ws_expr_lop {
    uint8_t code;
    uint8_t sp;   /* values on the stack before it runs */
    uint32_t row; /* a literal's (push or operand): its row in rows */
    int64_t arg;  /* literal, slot, jump target, or log2 of a divisor */
};

struct ws_expr_lanes {
    struct ws_expr_lop *ops;
    uint32_t nops;
    uint32_t depth; /* stack slots the operations use, at least 1 */
    /* Each literal as a row of lanes, made once: a push or an operand
     * then reads the row where it would fill one every evaluation. */
    int64_t (*rows)[WS_EXPR_LANES];
};

int ws_expr_lanes_build(struct ws_expr_lanes *p, const struct ws_expr *e,
                        const struct ws_expr_consts *c, struct ws_err *err);
void ws_expr_lanes_free(struct ws_expr_lanes *p);

/* 1, with the value in *v, when everything p reads is known (and nothing
 * faulted): the same value for every lane. */
int ws_expr_lanes_const(const struct ws_expr_lanes *p, int64_t *v);

/* Evaluates p for the lanes of mask (not 0) with vals[slot * 32 + lane] as
 * the names' values, writing out[lane] for those lanes only.  Returns the
 * lanes whose evaluation faulted (their out is meaningless): ws_expr_eval
 * on one of them gives the message. */
uint32_t ws_expr_lanes_eval(const struct ws_expr_lanes *p, const int64_t *vals,
                            uint32_t mask, int64_t *out);

#endif
