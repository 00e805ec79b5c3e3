/*
 * ws_sass_operand: operand grammar (see ws_sass_operand.h).
 *
 *   operand  := prefix* core suffix*
 *   prefix   := '-' | '!' | '~' | '|' (absolute value, closed by '|')
 *   core     := R<n> | RZ | UR<n> | URZ | P<n> | PT | UP<n> | UPT
 *             | c[<bank>][<offset or index>] | [<mem>] | desc[UR<n>][<mem>]
 *             | SR_<name> | <int> | <float> | +INF | -QNAN | `(<label>)
 *   suffix   := .reuse | .H0 | .H1 | .64 | .X | ...  (kept in the text)
 *   mem      := term ('+' term)*   with terms R<n>[.64|.U32], UR<n>, <int>
 */
#include "ws_sass_operand.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/ws_num.h"

static int ws_is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Register-like name with a number: prefix "R", "UR", "P", "UP".  Returns
 * the number, or -2 when the text does not start that way. */
static int ws_regnum(const char *s, size_t len, const char *prefix,
                     const char *zero_name, int zero_val, int max, size_t *used)
{
    size_t p = strlen(prefix), n = p;
    uint32_t v;

    if (len >= strlen(zero_name)
        && strncmp(s, zero_name, strlen(zero_name)) == 0
        && (len == strlen(zero_name) || s[strlen(zero_name)] == '.')) {
        *used = strlen(zero_name);
        return zero_val;
    }
    if (len <= p || strncmp(s, prefix, p) != 0 || !ws_is_digit(s[p]))
        return -2;
    while (n < len && ws_is_digit(s[n]))
        n++;
    if (n < len && s[n] != '.')
        return -2;
    if (ws_num_u32(s + p, n - p, &v) < 0 || v > (uint32_t)max)
        return -3;
    *used = n;
    return (int)v;
}

/* A decimal or 0x integer with an optional sign, as an int64_t.  An
 * unsigned hex literal is a bit pattern (0xffffffffffffffff is -1); any
 * other value must fit, since negating a magnitude above INT64_MAX would be
 * undefined. */
static int ws_parse_int(const char *s, size_t len, int64_t *v)
{
    int neg = 0, sign = 0, hex = 0;
    uint64_t u;

    if (len > 0 && (s[0] == '-' || s[0] == '+')) {
        neg = s[0] == '-';
        sign = 1;
        s++;
        len--;
    }
    if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        if (ws_num_hex(s, len, &u) < 0)
            return -1;
        hex = 1;
    } else if (ws_num_u64(s, len, &u) < 0) {
        return -1;
    }
    if (u > (uint64_t)INT64_MAX && !(hex && !sign)
        && !(neg && u == (uint64_t)INT64_MAX + 1))
        return -1;
    if (u > (uint64_t)INT64_MAX) /* two's complement, spelt out */
        *v = -(int64_t)(UINT64_MAX - u) - 1;
    else
        *v = neg ? -(int64_t)u : (int64_t)u;
    return 0;
}

static int ws_parse_float(const char *s, size_t len, double *v)
{
    char buf[64];
    char *end;

    if (len == 0 || len >= sizeof buf)
        return -1;
    memcpy(buf, s, len);
    buf[len] = '\0';
    if (strcmp(buf, "+INF") == 0 || strcmp(buf, "INF") == 0) {
        *v = INFINITY;
        return 0;
    }
    if (strcmp(buf, "-INF") == 0) {
        *v = -INFINITY;
        return 0;
    }
    if (strstr(buf, "QNAN") || strstr(buf, "NAN")) {
        *v = NAN;
        return 0;
    }
    *v = strtod(buf, &end);
    return *end == '\0' ? 0 : -1;
}

/* One '+'-separated term of a memory reference. */
static int ws_mem_term(const char *s, size_t len, struct ws_opnd *o)
{
    size_t used;
    int r;
    int64_t v;

    if ((r = ws_regnum(s, len, "UR", "URZ", 63, 63, &used)) >= 0) {
        o->ureg = (int16_t)r;
        return 0;
    }
    if ((r = ws_regnum(s, len, "R", "RZ", 255, 255, &used)) >= 0) {
        o->reg = (int16_t)r;
        if (len - used >= 3 && strncmp(s + used, ".64", 3) == 0)
            o->wide = 1;
        return 0;
    }
    /* Offsets add up; a sum outside int64_t is not an address. */
    if (ws_parse_int(s, len, &v) == 0
        && !__builtin_add_overflow(o->value, v, &o->value))
        return 0;
    return -1;
}

static int ws_mem_ref(const char *s, size_t len, struct ws_opnd *o,
                      const char **why)
{
    size_t i = 0;

    o->kind = WS_OPND_MEM;
    o->reg = -1;
    o->ureg = -1;
    o->value = 0;
    while (i < len) {
        size_t j = i + 1;
        /* A term ends at '+' unless the '+' starts a signed offset ("+-0x4"). */
        while (j < len && s[j] != '+')
            j++;
        while (i < j && s[i] == ' ')
            i++;
        {
            size_t e = j;
            while (e > i && s[e - 1] == ' ')
                e--;
            if (e > i && ws_mem_term(s + i, e - i, o) < 0) {
                *why = "a memory term that is not a register or an offset";
                return -1;
            }
        }
        i = j + 1;
    }
    return 0;
}

/* "[...]", "desc[URn][...]" or "c[bank][...]": bracket groups in order. */
static int ws_brackets(const char *s, size_t len, size_t *open, size_t *close,
                       int max, const char **why)
{
    int n = 0;
    size_t i = 0;

    while (i < len && n < max) {
        const char *o = memchr(s + i, '[', len - i);
        const char *c;
        if (!o)
            break;
        c = memchr(o, ']', len - (size_t)(o - s));
        if (!c) {
            *why = "an unclosed '['";
            return -1;
        }
        open[n] = (size_t)(o - s) + 1;
        close[n] = (size_t)(c - s);
        n++;
        i = (size_t)(c - s) + 1;
    }
    return n;
}

static int ws_operand_bracketed(const char *s, size_t len, struct ws_opnd *o,
                                const char **why)
{
    size_t open[3], close[3];
    int n = ws_brackets(s, len, open, close, 3, why);
    int64_t v;

    if (n < 0)
        return -1;
    if (s[0] == 'c' && n == 2) {
        o->kind = WS_OPND_CONST;
        o->value = -1;
        if (ws_parse_int(s + open[0], close[0] - open[0], &v) < 0 || v < 0) {
            *why = "a constant bank that is not a number";
            return -1;
        }
        o->bank = (uint32_t)v;
        if (ws_parse_int(s + open[1], close[1] - open[1], &v) == 0)
            o->value = v;
        return 0;
    }
    if (n == 0)
        return 1;
    if (n >= 2 && strncmp(s, "desc", 4) == 0) {
        if (ws_mem_ref(s + open[1], close[1] - open[1], o, why) < 0)
            return -1;
        return 0;
    }
    if (s[0] == '[')
        return ws_mem_ref(s + open[0], close[0] - open[0], o, why);
    return 1;
}

static int ws_operand_register(const char *s, size_t len, struct ws_opnd *o,
                               const char **why)
{
    static const struct {
        const char *prefix, *zero;
        int zero_val, max;
        enum ws_opnd_kind kind;
    } forms[] = {
        {"UR", "URZ", 63, 63, WS_OPND_UREG},
        {"UP", "UPT", 7, 7, WS_OPND_UPRED},
        {"R", "RZ", 255, 255, WS_OPND_REG},
        {"P", "PT", 7, 7, WS_OPND_PRED},
    };
    size_t used;

    for (size_t k = 0; k < sizeof forms / sizeof forms[0]; k++) {
        int r = ws_regnum(s, len, forms[k].prefix, forms[k].zero,
                          forms[k].zero_val, forms[k].max, &used);
        if (r == -3) {
            *why = "a register number out of range";
            return -1;
        }
        if (r >= 0) {
            o->kind = (uint8_t)forms[k].kind;
            o->reg = (int16_t)r;
            return 0;
        }
    }
    return 1;
}

int ws_sass_operand_parse(const char *s, size_t len, struct ws_opnd *o,
                          const char **label, size_t *label_len,
                          const char **why)
{
    int rc;

    memset(o, 0, sizeof *o);
    o->reg = -1;
    o->ureg = -1;
    *label = NULL;
    *label_len = 0;
    if (len >= 3 && s[0] == '`' && s[1] == '(' && s[len - 1] == ')') {
        o->kind = WS_OPND_TARGET;
        o->value = -1;
        *label = s + 2;
        *label_len = len - 3;
        return 0;
    }
    while (len > 0 && (s[0] == '-' || s[0] == '!' || s[0] == '~' || s[0] == '|')
           && !(len > 1 && (ws_is_digit(s[1]) || s[1] == 'I' || s[1] == 'Q'))) {
        if (s[0] == '-')
            o->negate = 1;
        else if (s[0] == '|') {
            o->absolute = 1;
            if (len > 1 && s[len - 1] == '|')
                len--;
        } else
            o->invert = 1;
        s++;
        len--;
    }
    if (len == 0) {
        *why = "an empty operand";
        return -1;
    }
    if ((rc = ws_operand_register(s, len, o, why)) <= 0)
        return rc;
    if ((rc = ws_operand_bracketed(s, len, o, why)) <= 0)
        return rc;
    if (len > 3 && strncmp(s, "SR_", 3) == 0) {
        o->kind = WS_OPND_SREG;
        return 0;
    }
    if (ws_parse_int(s, len, &o->value) == 0) {
        o->kind = WS_OPND_IMM;
        return 0;
    }
    if ((ws_is_digit(s[0]) || s[0] == '+' || s[0] == '-' || s[0] == '.'
         || s[0] == 'I' || s[0] == 'Q')
        && ws_parse_float(s, len, &o->fvalue) == 0) {
        o->kind = WS_OPND_FIMM;
        return 0;
    }
    o->kind = WS_OPND_OTHER;
    return 0;
}
