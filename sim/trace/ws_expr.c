/*
 * ws_expr: recursive-descent compiler to a stack program, and its
 * interpreter (see ws_expr.h).  ?: && || compile to jumps, so the branch
 * not taken is never evaluated (no division by zero in a guarded arm).
 */
#include "ws_expr.h"

#include <stdlib.h>
#include <string.h>

#include "../util/ws_grow.h"
#include "../util/ws_num.h"

enum {
    OP_LIT, OP_VAR, OP_NEG, OP_NOT, OP_BNOT,
    OP_MUL, OP_DIV, OP_MOD, OP_ADD, OP_SUB, OP_SHL, OP_SHR,
    OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE, OP_BAND, OP_BXOR, OP_BOR,
    OP_MIN, OP_MAX, OP_ABS, OP_LOG2,
    OP_JZ,      /* pop; jump if zero */
    OP_JNZ,     /* pop; jump if not zero */
    OP_JMP,
    OP_BOOL     /* top = (top != 0) */
};

#define WS_EXPR_STACK 64

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

static long ws_pcol(const struct ws_parser *ps, const char *at)
{
    return ps->e->col + (long)(at - ps->s);
}

static int ws_pfail(struct ws_parser *ps, const char *at, const char *what,
                    const char *expected)
{
    return ws_err_at(ps->err, ps->e->file, ps->e->line, ws_pcol(ps, at),
                     "%s in '%s' (expected %s)", what, ps->s, expected);
}

static int ws_emit(struct ws_parser *ps, uint8_t code, int64_t arg,
                   const char *at)
{
    struct ws_expr *e = ps->e;
    size_t cap = e->cap;

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
    if (n == 1 && (tok[0] == '<' || tok[0] == '>' || tok[0] == '&'
                   || tok[0] == '|' || tok[0] == '=' || tok[0] == '!')
        && (ps->p[1] == tok[0] || ps->p[1] == '='))
        return 0;
    ps->p += n;
    return 1;
}

static int ws_ternary(struct ws_parser *ps);

static int ws_is_name_char(char c, int first)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'
           || (!first && ((c >= '0' && c <= '9') || c == '.'));
}

static int ws_call(struct ws_parser *ps, const char *name, size_t len,
                   const char *at)
{
    static const struct {
        const char *name;
        int args;
        uint8_t code;
    } fns[] = {
        {"min", 2, OP_MIN}, {"max", 2, OP_MAX}, {"abs", 1, OP_ABS},
        {"log2", 1, OP_LOG2}, {"select", 3, 0}
    };
    for (size_t f = 0; f < sizeof fns / sizeof fns[0]; f++) {
        if (strlen(fns[f].name) != len || strncmp(fns[f].name, name, len))
            continue;
        if (fns[f].code == 0) {
            /* select(c, a, b) is c ? a : b. */
            uint32_t jz, jmp;
            if (ws_ternary(ps) < 0 || !ws_accept(ps, ","))
                return ws_err_at(ps->err, ps->e->file, ps->e->line,
                                 ws_pcol(ps, ps->p), "bad select() in '%s' "
                                 "(expected select(cond, a, b))", ps->s);
            jz = ps->e->nops;
            if (ws_emit(ps, OP_JZ, 0, at) < 0 || ws_ternary(ps) < 0)
                return -1;
            jmp = ps->e->nops;
            if (ws_emit(ps, OP_JMP, 0, at) < 0 || !ws_accept(ps, ","))
                return ws_pfail(ps, ps->p, "missing argument", "select(c, a, b)");
            ps->e->ops[jz].arg = ps->e->nops;
            if (ws_ternary(ps) < 0)
                return -1;
            ps->e->ops[jmp].arg = ps->e->nops;
        } else {
            for (int a = 0; a < fns[f].args; a++) {
                if (a > 0 && !ws_accept(ps, ","))
                    return ws_pfail(ps, ps->p, "missing argument",
                                    "as many arguments as the function takes");
                if (ws_ternary(ps) < 0)
                    return -1;
            }
            if (ws_emit(ps, fns[f].code, 0, at) < 0)
                return -1;
        }
        if (!ws_accept(ps, ")"))
            return ws_pfail(ps, ps->p, "missing ')'", "')' after the arguments");
        return 0;
    }
    return ws_pfail(ps, at, "unknown function", "min, max, abs, log2 or select");
}

static int ws_primary(struct ws_parser *ps)
{
    const char *at;

    ws_skip(ps);
    at = ps->p;
    if (++ps->depth > 200)
        return ws_pfail(ps, at, "expression nested too deeply", "fewer parentheses");
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
        while ((at[n] >= '0' && at[n] <= '9') || (hex && ((at[n] >= 'a'
               && at[n] <= 'f') || (at[n] >= 'A' && at[n] <= 'F'))))
            n++;
        if ((hex ? ws_num_hex(at, n, &v) : ws_num_u64(at, n, &v)) < 0
            || v > INT64_MAX)
            return ws_pfail(ps, at, "bad number", "a decimal or 0x number "
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
            return ws_call(ps, at, n, at);
        slot = ws_expr_find(ps->names, at, n);
        if (slot < 0)
            return ws_err_at(ps->err, ps->e->file, ps->e->line,
                             ws_pcol(ps, at), "unbound name '%.*s' in '%s' "
                             "(expected a parameter, buffer, loop counter or "
                             "tid.x, ctaid.x, ntid.x, nctaid.x, lane, warp)",
                             (int)n, at, ps->s);
        return ws_emit(ps, OP_VAR, slot, at);
    }
    return ws_pfail(ps, at, *at ? "unexpected character" : "expression ends "
                    "early", "a number, a name or '('");
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
        if (ws_unary(ps) < 0)
            return -1;
        return ws_emit(ps, code, 0, at);
    }
    if (*at == '+') {
        ps->p++;
        return ws_unary(ps);
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
        /* The test consumes the value; the result is rebuilt below. */
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

static int ws_ternary(struct ws_parser *ps)
{
    const char *at;
    uint32_t jz, jmp;

    if (ws_logic(ps, 1) < 0)
        return -1;
    ws_skip(ps);
    at = ps->p;
    if (!ws_accept(ps, "?"))
        return 0;
    jz = ps->e->nops;
    if (ws_emit(ps, OP_JZ, 0, at) < 0 || ws_ternary(ps) < 0)
        return -1;
    jmp = ps->e->nops;
    if (ws_emit(ps, OP_JMP, 0, at) < 0)
        return -1;
    if (!ws_accept(ps, ":"))
        return ws_pfail(ps, ps->p, "'?' without ':'", "cond ? a : b");
    ps->e->ops[jz].arg = ps->e->nops;
    if (ws_ternary(ps) < 0)
        return -1;
    ps->e->ops[jmp].arg = ps->e->nops;
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
        ws_pfail(&ps, ps.p, "unexpected text", "an operator or the end of "
                 "the expression");
        goto fail;
    }
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

static int ws_arith(uint8_t code, int64_t a, int64_t b, int64_t *r)
{
    switch (code) {
    case OP_MUL: return __builtin_mul_overflow(a, b, r) ? -2 : 0;
    case OP_ADD: return __builtin_add_overflow(a, b, r) ? -2 : 0;
    case OP_SUB: return __builtin_sub_overflow(a, b, r) ? -2 : 0;
    case OP_DIV:
    case OP_MOD:
        if (b == 0)
            return -1;
        if (a == INT64_MIN && b == -1)
            return -2;
        *r = code == OP_DIV ? a / b : a % b;
        return 0;
    case OP_SHL: *r = b < 0 || b > 62 ? 0 : (int64_t)((uint64_t)a << b); return 0;
    case OP_SHR: *r = b < 0 || b > 63 ? 0 : a >> b; return 0;
    case OP_LT: *r = a < b; return 0;
    case OP_LE: *r = a <= b; return 0;
    case OP_GT: *r = a > b; return 0;
    case OP_GE: *r = a >= b; return 0;
    case OP_EQ: *r = a == b; return 0;
    case OP_NE: *r = a != b; return 0;
    case OP_BAND: *r = a & b; return 0;
    case OP_BXOR: *r = a ^ b; return 0;
    case OP_BOR: *r = a | b; return 0;
    case OP_MIN: *r = a < b ? a : b; return 0;
    default: *r = a > b ? a : b; return 0;    /* OP_MAX */
    }
}

static int64_t ws_log2(int64_t v)
{
    int64_t r = -1;

    while (v > 0) {
        v >>= 1;
        r++;
    }
    return r;
}

int ws_expr_eval(const struct ws_expr *e, const int64_t *vals, int64_t *out,
                 struct ws_err *err)
{
    int64_t st[WS_EXPR_STACK];
    int sp = 0;

    for (uint32_t pc = 0; pc < e->nops;) {
        const struct ws_expr_op *op = &e->ops[pc++];
        int rc;
        if (sp >= WS_EXPR_STACK - 1)
            return ws_err_at(err, e->file, e->line, op->col, "expression too "
                             "deep to evaluate in '%s' (expected a simpler "
                             "expression)", e->text);
        switch (op->code) {
        case OP_LIT: st[sp++] = op->arg; break;
        case OP_VAR: st[sp++] = vals[op->arg]; break;
        case OP_NEG: st[sp - 1] = st[sp - 1] == INT64_MIN ? INT64_MIN
                                  : -st[sp - 1]; break;
        case OP_NOT: st[sp - 1] = !st[sp - 1]; break;
        case OP_BNOT: st[sp - 1] = ~st[sp - 1]; break;
        case OP_ABS: st[sp - 1] = st[sp - 1] < 0 ? -st[sp - 1] : st[sp - 1]; break;
        case OP_LOG2: st[sp - 1] = ws_log2(st[sp - 1]); break;
        case OP_BOOL: st[sp - 1] = st[sp - 1] != 0; break;
        case OP_JZ: if (st[--sp] == 0) pc = (uint32_t)op->arg; break;
        case OP_JNZ: if (st[--sp] != 0) pc = (uint32_t)op->arg; break;
        case OP_JMP: pc = (uint32_t)op->arg; break;
        default:
            sp--;
            rc = ws_arith(op->code, st[sp - 1], st[sp], &st[sp - 1]);
            if (rc < 0)
                return ws_err_at(err, e->file, e->line, op->col, "%s in '%s' "
                                 "(expected %s)", rc == -1 ? "division by "
                                 "zero" : "integer overflow", e->text,
                                 rc == -1 ? "a non-zero divisor" :
                                 "values within 64-bit signed range");
            break;
        }
    }
    *out = sp > 0 ? st[sp - 1] : 0;
    return 0;
}
