/*
 * ws_expr: recursive-descent compiler to a stack program, and its
 * interpreter (see ws_expr.h).  ?: && || compile to jumps, so the branch
 * not taken is never evaluated (no division by zero in a guarded arm).
 */
#include "ws_expr.h"
#include "ws_expr_internal.h"

#include <stdlib.h>
#include <string.h>

#include "util/ws_grow.h"
#include "util/ws_num.h"

/* Nesting: parentheses, function arguments, ?: arms and unary operators
 * each recurse in the parser, so each counts as a level. */
#define WS_EXPR_MAX_DEPTH 100

int ws_expr_find(const struct ws_expr_names *t, const char *name, size_t len)
{
    for (uint32_t i = 0; i < t->n; i++)
        if (strlen(t->name[i]) == len && strncmp(t->name[i], name, len) == 0)
            return (int)i;
    return -1;
}

int ws_expr_name(struct ws_expr_names *t, const char *name)
{
    int i = ws_expr_find(t, name, strlen(name));

    if (i >= 0)
        return i;
    if (t->n == WS_EXPR_MAX_NAMES)
        return -1;
    t->name[t->n] = name;
    return (int)t->n++;
}

struct ws_parser {
    const char *s, *p;
    struct ws_expr *e;
    const struct ws_expr_names *names;
    struct ws_err *err;
    int depth;
};

/* An expression quoted in a message is cut short: a YAML value may be a
 * megabyte, and the message must stay one line that ends in its
 * "(expected ...)". */
#define WS_EXPR_QUOTE 60

static const char *ws_quote(const char *text, char buf[WS_EXPR_QUOTE + 4])
{
    if (strlen(text) <= WS_EXPR_QUOTE)
        return text;
    memcpy(buf, text, WS_EXPR_QUOTE);
    strcpy(buf + WS_EXPR_QUOTE, "...");
    return buf;
}

static long ws_pcol(const struct ws_parser *ps, const char *at)
{
    return ps->e->col + (long)(at - ps->s);
}

static int ws_pfail(struct ws_parser *ps, const char *at, const char *what,
                    const char *expected)
{
    char q[WS_EXPR_QUOTE + 4];

    return ws_err_at(ps->err, ps->e->file, ps->e->line, ws_pcol(ps, at),
                     "%s in '%s' (expected %s)", what, ws_quote(ps->s, q),
                     expected);
}

static int ws_emit(struct ws_parser *ps, uint8_t code, int64_t arg,
                   const char *at)
{
    struct ws_expr *e = ps->e;
    size_t cap = e->cap;

    if (e->nops == WS_EXPR_MAX_OPS)
        return ws_pfail(ps, at, "expression too long",
                        "at most 1024 "
                        "operators and operands; move parts into let:");
    if (ws_grow((void **)&e->ops, &cap, e->nops + 1, sizeof *e->ops, 16) < 0)
        return ws_err_oom(ps->err);
    e->cap = (uint32_t)cap;
    e->ops[e->nops].code = code;
    e->ops[e->nops].arg = arg;
    e->ops[e->nops].col = (uint32_t)ws_pcol(ps, at);
    e->nops++;
    return 0;
}

static void ws_skip(struct ws_parser *ps)
{
    while (*ps->p == ' ' || *ps->p == '\t')
        ps->p++;
}

static int ws_accept(struct ws_parser *ps, const char *tok)
{
    size_t n = strlen(tok);

    ws_skip(ps);
    if (strncmp(ps->p, tok, n) != 0)
        return 0;
    /* "<" must not take the first half of "<<" or "<=". */
    if (n == 1
        && (tok[0] == '<' || tok[0] == '>' || tok[0] == '&' || tok[0] == '|'
            || tok[0] == '=' || tok[0] == '!')
        && (ps->p[1] == tok[0] || ps->p[1] == '='))
        return 0;
    ps->p += n;
    return 1;
}

static int ws_ternary(struct ws_parser *ps);

/* Each recursion of the parser enters a level; ws_leave undoes it. */
static int ws_enter(struct ws_parser *ps, const char *at)
{
    if (++ps->depth > WS_EXPR_MAX_DEPTH)
        return ws_pfail(ps, at, "expression nested too deeply",
                        "at most 100 "
                        "levels of parentheses, unary operators and ?:");
    return 0;
}

static int ws_leave(struct ws_parser *ps, int rc)
{
    ps->depth--;
    return rc;
}

static int ws_is_name_char(char c, int first)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'
           || (!first && ((c >= '0' && c <= '9') || c == '.'));
}

/* The two arms of c ? a : b (and of select), the condition already
 * compiled: a jump over the first arm when c is zero and one over the
 * second after it, so only the arm chosen is evaluated.  Each arm starts
 * at the depth the test left (ws_expr_lanes.c's evaluator relies on it). */
static int ws_arms(struct ws_parser *ps, const char *at, const char *sep,
                   const char *what, const char *expected)
{
    uint32_t jz, jmp;

    jz = ps->e->nops;
    if (ws_emit(ps, OP_JZ, 0, at) < 0 || ws_ternary(ps) < 0)
        return -1;
    jmp = ps->e->nops;
    if (ws_emit(ps, OP_JMP, 0, at) < 0)
        return -1;
    if (!ws_accept(ps, sep))
        return ws_pfail(ps, ps->p, what, expected);
    ps->e->ops[jz].arg = ps->e->nops;
    if (ws_ternary(ps) < 0)
        return -1;
    ps->e->ops[jmp].arg = ps->e->nops;
    return 0;
}

/* select(c, a, b) is c ? a : b. */
static int ws_select(struct ws_parser *ps, const char *at)
{
    if (ws_ternary(ps) < 0)
        return -1;
    if (!ws_accept(ps, ","))
        return ws_pfail(ps, ps->p, "bad select()", "select(cond, a, b)");
    return ws_arms(ps, at, ",", "missing argument", "select(c, a, b)");
}

/* A function call, its name at[0..len) and "(" read. */
static int ws_call(struct ws_parser *ps, const char *at, size_t len)
{
    static const struct {
        const char *name;
        int args;
        uint8_t code;
    } fns[] = {{"min", 2, OP_MIN},
               {"max", 2, OP_MAX},
               {"abs", 1, OP_ABS},
               {"log2", 1, OP_LOG2},
               {"select", 3, 0}};
    for (size_t f = 0; f < sizeof fns / sizeof fns[0]; f++) {
        if (strlen(fns[f].name) != len || strncmp(fns[f].name, at, len))
            continue;
        if (fns[f].code == 0 && ws_select(ps, at) < 0)
            return -1;
        for (int a = 0; fns[f].code && a < fns[f].args; a++) {
            if (a > 0 && !ws_accept(ps, ","))
                return ws_pfail(ps, ps->p, "missing argument",
                                "as many arguments as the function takes");
            if (ws_ternary(ps) < 0)
                return -1;
        }
        if (fns[f].code && ws_emit(ps, fns[f].code, 0, at) < 0)
            return -1;
        if (!ws_accept(ps, ")"))
            return ws_pfail(ps, ps->p, "missing ')'",
                            "')' after the arguments");
        return 0;
    }
    return ws_pfail(ps, at, "unknown function",
                    "min, max, abs, log2 or select");
}

static int ws_primary(struct ws_parser *ps)
{
    const char *at;

    ws_skip(ps);
    at = ps->p;
    if (*at == '(') {
        ps->p++;
        if (ws_ternary(ps) < 0)
            return -1;
        if (!ws_accept(ps, ")"))
            return ws_pfail(ps, ps->p, "missing ')'", "a closing parenthesis");
        return 0;
    }
    if (*at >= '0' && *at <= '9') {
        uint64_t v;
        size_t n = 0;
        int hex = at[0] == '0' && (at[1] == 'x' || at[1] == 'X');
        if (hex)
            n = 2;
        while ((at[n] >= '0' && at[n] <= '9')
               || (hex
                   && ((at[n] >= 'a' && at[n] <= 'f')
                       || (at[n] >= 'A' && at[n] <= 'F'))))
            n++;
        if ((hex ? ws_num_hex(at, n, &v) : ws_num_u64(at, n, &v)) < 0
            || v > INT64_MAX)
            return ws_pfail(ps, at, "bad number",
                            "a decimal or 0x number "
                            "below 2^63");
        ps->p += n;
        return ws_emit(ps, OP_LIT, (int64_t)v, at);
    }
    if (ws_is_name_char(*at, 1)) {
        size_t n = 0;
        int slot;
        while (ws_is_name_char(at[n], n == 0))
            n++;
        ps->p += n;
        if (ws_accept(ps, "("))
            return ws_call(ps, at, n);
        slot = ws_expr_find(ps->names, at, n);
        if (slot < 0) {
            char q[WS_EXPR_QUOTE + 4];
            return ws_err_at(ps->err, ps->e->file, ps->e->line, ws_pcol(ps, at),
                             "unbound name '%.*s' in '%s' "
                             "(expected a parameter, buffer, loop counter or "
                             "tid.x, ctaid.x, ntid.x, nctaid.x, lane, warp)",
                             (int)(n < WS_EXPR_QUOTE ? n : WS_EXPR_QUOTE), at,
                             ws_quote(ps->s, q));
        }
        return ws_emit(ps, OP_VAR, slot, at);
    }
    return ws_pfail(ps, at,
                    *at ? "unexpected character"
                        : "expression ends "
                          "early",
                    "a number, a name or '('");
}

static int ws_unary(struct ws_parser *ps)
{
    const char *at;
    uint8_t code;

    ws_skip(ps);
    at = ps->p;
    if (*at == '-' || *at == '!' || *at == '~') {
        code = *at == '-' ? OP_NEG : *at == '!' ? OP_NOT : OP_BNOT;
        ps->p++;
        if (ws_enter(ps, at) < 0 || ws_unary(ps) < 0)
            return ws_leave(ps, -1);
        return ws_leave(ps, ws_emit(ps, code, 0, at));
    }
    if (*at == '+') {
        ps->p++;
        return ws_leave(ps, ws_enter(ps, at) < 0 ? -1 : ws_unary(ps));
    }
    return ws_primary(ps);
}

/* Binary levels, loosest first (after ?:, ||, &&). */
static const struct {
    const char *tok[4];
    uint8_t code[4];
} ws_levels[] = {
    {{"|", NULL}, {OP_BOR}},
    {{"^", NULL}, {OP_BXOR}},
    {{"&", NULL}, {OP_BAND}},
    {{"==", "!=", NULL}, {OP_EQ, OP_NE}},
    {{"<=", ">=", "<", ">"}, {OP_LE, OP_GE, OP_LT, OP_GT}},
    {{"<<", ">>", NULL}, {OP_SHL, OP_SHR}},
    {{"+", "-", NULL}, {OP_ADD, OP_SUB}},
    {{"*", "/", "%", NULL}, {OP_MUL, OP_DIV, OP_MOD}},
};
#define WS_NLEVELS (sizeof ws_levels / sizeof ws_levels[0])

static int ws_binary(struct ws_parser *ps, size_t level)
{
    if (level == WS_NLEVELS)
        return ws_unary(ps);
    if (ws_binary(ps, level + 1) < 0)
        return -1;
    for (;;) {
        int matched = -1;
        const char *at;
        ws_skip(ps);
        at = ps->p;
        for (int k = 0; k < 4 && ws_levels[level].tok[k]; k++)
            if (ws_accept(ps, ws_levels[level].tok[k])) {
                matched = k;
                break;
            }
        if (matched < 0)
            return 0;
        if (ws_binary(ps, level + 1) < 0
            || ws_emit(ps, ws_levels[level].code[matched], 0, at) < 0)
            return -1;
    }
}

/* a && b: if a is 0 the result is 0 without evaluating b. */
static int ws_logic(struct ws_parser *ps, int is_or)
{
    if (is_or ? ws_logic(ps, 0) < 0 : ws_binary(ps, 0) < 0)
        return -1;
    for (;;) {
        const char *at;
        uint32_t jump;
        ws_skip(ps);
        at = ps->p;
        if (!ws_accept(ps, is_or ? "||" : "&&"))
            return 0;
        if (ws_emit(ps, OP_BOOL, 0, at) < 0)
            return -1;
        jump = ps->e->nops;
        /* The test consumes the value; the result is rebuilt below.
         * ws_expr_lanes.c's evaluator relies on this: a jump pops its
         * test, and an arm writes only slots it pushed itself. */
        if (ws_emit(ps, is_or ? OP_JNZ : OP_JZ, 0, at) < 0)
            return -1;
        if ((is_or ? ws_logic(ps, 0) : ws_binary(ps, 0)) < 0
            || ws_emit(ps, OP_BOOL, 0, at) < 0
            || ws_emit(ps, OP_JMP, ps->e->nops + 2, at) < 0)
            return -1;
        ps->e->ops[jump].arg = ps->e->nops;
        if (ws_emit(ps, OP_LIT, is_or ? 1 : 0, at) < 0)
            return -1;
    }
}

static int ws_ternary_in(struct ws_parser *ps)
{
    const char *at;

    if (ws_logic(ps, 1) < 0)
        return -1;
    ws_skip(ps);
    at = ps->p;
    if (!ws_accept(ps, "?"))
        return 0;
    return ws_arms(ps, at, ":", "'?' without ':'", "cond ? a : b");
}

/* A whole (sub)expression: the top, a parenthesis, an argument, an arm. */
static int ws_ternary(struct ws_parser *ps)
{
    ws_skip(ps);
    if (ws_enter(ps, ps->p) < 0)
        return ws_leave(ps, -1);
    return ws_leave(ps, ws_ternary_in(ps));
}

/* Stack effect of one operation. */
static int ws_op_effect(uint8_t code)
{
    switch (code) {
    case OP_LIT:
    case OP_VAR:
        return 1;
    case OP_NEG:
    case OP_NOT:
    case OP_BNOT:
    case OP_ABS:
    case OP_LOG2:
    case OP_BOOL:
    case OP_JMP:
        return 0;
    default: /* binary operators, min, max, and the tests of JZ, JNZ */
        return -1;
    }
}

/* The most values pending at once, following the jumps (all forward, so
 * one pass in order sees every way into an operation first).  Evaluation
 * then needs no check per operation.  Every way into an operation holds
 * as many values (the parser nests ?:, && and || whole), which is recorded
 * as its depth: the lane interpreter runs lanes that took different ways
 * and needs no stack pointer of its own. */
static int ws_check_stack(struct ws_parser *ps)
{
    struct ws_expr *e = ps->e;
    int *at = malloc((e->nops + 1) * sizeof *at);

    if (!at)
        return ws_err_oom(ps->err);
    for (uint32_t pc = 0; pc <= e->nops; pc++)
        at[pc] = -1;
    at[0] = 0;
    for (uint32_t pc = 0; pc < e->nops; pc++) {
        const struct ws_expr_op *op = &e->ops[pc];
        uint32_t to = (uint32_t)op->arg;
        int d;
        e->ops[pc].depth = at[pc] < 0 ? WS_EXPR_UNREACHED : (uint8_t)at[pc];
        if (at[pc] < 0)
            continue;
        d = at[pc] + ws_op_effect(op->code);
        if (d > WS_EXPR_STACK) {
            char q[WS_EXPR_QUOTE + 4];
            free(at);
            return ws_err_at(ps->err, e->file, e->line, op->col,
                             "expression "
                             "holds too many values at once in '%s' (expected "
                             "at most %d pending; move parts into let:)",
                             ws_quote(e->text, q), WS_EXPR_STACK);
        }
        if ((op->code == OP_JMP || op->code == OP_JZ || op->code == OP_JNZ)
            && to <= e->nops && at[to] < d)
            at[to] = d;
        if (op->code != OP_JMP && at[pc + 1] < d)
            at[pc + 1] = d;
    }
    free(at);
    return 0;
}

int ws_expr_compile(struct ws_expr *e, const char *text,
                    const struct ws_expr_names *names, const char *file,
                    long line, long col, struct ws_err *err)
{
    struct ws_parser ps;

    memset(e, 0, sizeof *e);
    e->file = file;
    e->line = line;
    e->col = col;
    e->text = strdup(text);
    if (!e->text)
        return ws_err_oom(err);
    ps.s = e->text;
    ps.p = e->text;
    ps.e = e;
    ps.names = names;
    ps.err = err;
    ps.depth = 0;
    if (ws_ternary(&ps) < 0)
        goto fail;
    ws_skip(&ps);
    if (*ps.p) {
        ws_pfail(&ps, ps.p, "unexpected text",
                 "an operator or the end of "
                 "the expression");
        goto fail;
    }
    if (ws_check_stack(&ps) < 0)
        goto fail;
    return 0;
fail:
    ws_expr_free(e);
    return -1;
}

void ws_expr_free(struct ws_expr *e)
{
    free(e->ops);
    free(e->text);
    e->ops = NULL;
    e->text = NULL;
    e->nops = e->cap = 0;
}

/* a << b, or a fault: C leaves shifts by 64 or more, by a negative count,
 * and of a value whose bits fall off the top undefined. */
static int ws_shift(uint8_t code, int64_t a, int64_t b, int64_t *r)
{
    if (b < 0 || b > 63)
        return WS_EV_SHIFT;
    if (code == OP_SHR) {
        *r = a >> b; /* arithmetic, as gcc and clang define it */
        return WS_EV_OK;
    }
    *r = (int64_t)((uint64_t)a << b);
    return *r >> b == a ? WS_EV_OK : WS_EV_OVERFLOW;
}

int ws_expr_binary(uint8_t code, int64_t a, int64_t b, int64_t *r)
{
    switch (code) {
    case OP_MUL:
        return __builtin_mul_overflow(a, b, r) ? WS_EV_OVERFLOW : 0;
    case OP_ADD:
        return __builtin_add_overflow(a, b, r) ? WS_EV_OVERFLOW : 0;
    case OP_SUB:
        return __builtin_sub_overflow(a, b, r) ? WS_EV_OVERFLOW : 0;
    case OP_DIV:
    case OP_MOD:
        if (b == 0)
            return WS_EV_DIV0;
        if (a == INT64_MIN && b == -1)
            return WS_EV_OVERFLOW;
        *r = code == OP_DIV ? a / b : a % b;
        return WS_EV_OK;
    case OP_SHL:
    case OP_SHR:
        return ws_shift(code, a, b, r);
    case OP_LT:
        *r = a < b;
        return 0;
    case OP_LE:
        *r = a <= b;
        return 0;
    case OP_GT:
        *r = a > b;
        return 0;
    case OP_GE:
        *r = a >= b;
        return 0;
    case OP_EQ:
        *r = a == b;
        return 0;
    case OP_NE:
        *r = a != b;
        return 0;
    case OP_BAND:
        *r = a & b;
        return 0;
    case OP_BXOR:
        *r = a ^ b;
        return 0;
    case OP_BOR:
        *r = a | b;
        return 0;
    case OP_MIN:
        *r = a < b ? a : b;
        return 0;
    default:
        *r = a > b ? a : b;
        return 0; /* OP_MAX */
    }
}

/* Unary operations in place: -INT64_MIN and abs(INT64_MIN) do not fit,
 * and log2 is defined for positive values only (floor). */
int ws_expr_unary(uint8_t code, int64_t *v)
{
    int64_t r = -1;

    switch (code) {
    case OP_NEG:
    case OP_ABS:
        if (*v == INT64_MIN)
            return WS_EV_OVERFLOW;
        if (code == OP_NEG || *v < 0)
            *v = -*v;
        return WS_EV_OK;
    case OP_NOT:
        *v = !*v;
        return WS_EV_OK;
    case OP_BNOT:
        *v = ~*v;
        return WS_EV_OK;
    case OP_BOOL:
        *v = *v != 0;
        return WS_EV_OK;
    default: /* OP_LOG2 */
        if (*v <= 0)
            return WS_EV_LOG2;
        for (int64_t x = *v; x > 0; x >>= 1)
            r++;
        *v = r;
        return WS_EV_OK;
    }
}

static int ws_eval_fail(const struct ws_expr *e, const struct ws_expr_op *op,
                        int fault, int64_t operand, struct ws_err *err)
{
    char q[WS_EXPR_QUOTE + 4];
    const char *text = ws_quote(e->text, q);

    switch (fault) {
    case WS_EV_DIV0:
        return ws_err_at(err, e->file, e->line, op->col,
                         "division by zero "
                         "in '%s' (expected a non-zero divisor)",
                         text);
    case WS_EV_SHIFT:
        return ws_err_at(err, e->file, e->line, op->col,
                         "shift by %lld in "
                         "'%s' (expected a shift count from 0 to 63)",
                         (long long)operand, text);
    case WS_EV_LOG2:
        return ws_err_at(err, e->file, e->line, op->col,
                         "log2 of %lld in "
                         "'%s' (expected a positive argument)",
                         (long long)operand, text);
    default:
        return ws_err_at(err, e->file, e->line, op->col,
                         "integer overflow "
                         "in '%s' (expected values within 64-bit signed "
                         "range)",
                         text);
    }
}

/* The stack never holds more than WS_EXPR_STACK values: ws_check_stack
 * proved it when the expression compiled. */
int ws_expr_eval(const struct ws_expr *e, const int64_t *vals, int64_t *out,
                 struct ws_err *err)
{
    int64_t st[WS_EXPR_STACK];
    int sp = 0;

    /* The analyser cannot see that proof: it reads garbage below st[0].
     * NOLINTBEGIN(clang-analyzer-core.*) */
    for (uint32_t pc = 0; pc < e->nops;) {
        const struct ws_expr_op *op = &e->ops[pc++];
        int64_t operand = 0;
        int fault = WS_EV_OK;
        switch (op->code) {
        case OP_LIT:
            st[sp++] = op->arg;
            break;
        case OP_VAR:
            st[sp++] = vals[op->arg];
            break;
        case OP_NEG:
        case OP_NOT:
        case OP_BNOT:
        case OP_ABS:
        case OP_LOG2:
        case OP_BOOL:
            operand = st[sp - 1];
            fault = ws_expr_unary(op->code, &st[sp - 1]);
            break;
        case OP_JZ:
            if (st[--sp] == 0)
                pc = (uint32_t)op->arg;
            break;
        case OP_JNZ:
            if (st[--sp] != 0)
                pc = (uint32_t)op->arg;
            break;
        case OP_JMP:
            pc = (uint32_t)op->arg;
            break;
        default:
            sp--;
            operand = st[sp];
            fault = ws_expr_binary(op->code, st[sp - 1], st[sp], &st[sp - 1]);
            break;
        }
        if (fault != WS_EV_OK)
            return ws_eval_fail(e, op, fault, operand, err);
    }
    /* NOLINTEND(clang-analyzer-core.*) */
    *out = sp > 0 ? st[sp - 1] : 0;
    return 0;
}
