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
    int64_t arg;      /* literal, slot, or jump target */
    uint32_t col;     /* for run-time errors */
};

struct ws_expr {
    struct ws_expr_op *ops;
    uint32_t nops, cap;
    const char *file;     /* not owned: lives as long as the workload */
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

#endif
