/*
 * ws_kname: kernel base names (see ws_kname.h).
 *
 * Grammar references are to the Itanium C++ ABI, section 5.1 ("External
 * Names"): <mangled-name> ::= _Z <encoding>, <encoding> ::= <name>
 * <bare-function-type>; the base name is all in <name>, so the reader
 * stops there and never reads the parameter types.  A reader that meets
 * a form it does not know fails softly: what it has emitted so far is the
 * answer (ws_kname.h says why that is good enough).
 */
#include "ws_kname.h"

#include <stdlib.h>
#include <string.h>

/* Nesting deeper than this is hostile input, not a kernel's name. */
#define WS_KN_MAX_DEPTH 64

/* GCC names an anonymous namespace "_GLOBAL__N_1" (the ABI leaves the
 * name to the compiler); demanglers print it as below. */
#define WS_KN_ANON "(anonymous namespace)"

struct ws_kn {
    const char *p, *end;
    char *out;
    size_t len, cap; /* what out holds, less the final NUL */
    int depth;
};

static int ws_kn_type(struct ws_kn *k);

static int ws_kn_digit(int c)
{
    return c >= '0' && c <= '9';
}

static int ws_kn_peek(const struct ws_kn *k)
{
    return k->p < k->end ? (unsigned char)*k->p : 0;
}

static int ws_kn_eat(struct ws_kn *k, int c)
{
    if (ws_kn_peek(k) != c)
        return 0;
    k->p++;
    return 1;
}

/* Appends "::" and s[0..n); a name that would outgrow out (only a
 * hostile one: every emitted byte stands for at least half a byte of
 * input) keeps what it has. */
static void ws_kn_emit(struct ws_kn *k, const char *s, size_t n)
{
    if (k->len + 2 + n > k->cap)
        return;
    if (k->len > 0) {
        memcpy(k->out + k->len, "::", 2);
        k->len += 2;
    }
    memcpy(k->out + k->len, s, n);
    k->len += n;
}

/* <source-name> ::= <positive length number> <identifier>; emitted when
 * emit is set. */
static int ws_kn_source(struct ws_kn *k, int emit)
{
    size_t n = 0;
    const char *s;

    if (!ws_kn_digit(ws_kn_peek(k)) || ws_kn_peek(k) == '0')
        return -1;
    while (ws_kn_digit(ws_kn_peek(k))) {
        n = n * 10 + (size_t)(*k->p++ - '0');
        if (n > (size_t)(k->end - k->p))
            return -1;
    }
    s = k->p;
    k->p += n;
    if (!emit)
        return 0;
    if (n >= 10 && strncmp(s, "_GLOBAL__N", 10) == 0)
        ws_kn_emit(k, WS_KN_ANON, strlen(WS_KN_ANON));
    else
        ws_kn_emit(k, s, n);
    return 0;
}

/* <seq-id> '_' or '_' after S or T: S_, S0_, SA_, T_, T3_. */
static int ws_kn_seq(struct ws_kn *k)
{
    while (ws_kn_digit(ws_kn_peek(k))
           || (ws_kn_peek(k) >= 'A' && ws_kn_peek(k) <= 'Z'))
        k->p++;
    return ws_kn_eat(k, '_') ? 0 : -1;
}

/* <number> '_' as in arrays and vector types. */
static int ws_kn_number_(struct ws_kn *k)
{
    ws_kn_eat(k, 'n');
    while (ws_kn_digit(ws_kn_peek(k)))
        k->p++;
    return ws_kn_eat(k, '_') ? 0 : -1;
}

/* <template-args> ::= I <template-arg>+ E, from the I. */
static int ws_kn_args(struct ws_kn *k);

/* <template-arg>: a type, L<type><value>E, or a pack J...E.
 * Expressions (X...E) and external names in literals (L_Z) fail. */
static int ws_kn_arg(struct ws_kn *k)
{
    int rc = 0;

    if (++k->depth > WS_KN_MAX_DEPTH)
        return -1;
    if (ws_kn_eat(k, 'J')) {
        while (rc == 0 && !ws_kn_eat(k, 'E'))
            rc = k->p >= k->end ? -1 : ws_kn_arg(k);
    } else if (ws_kn_eat(k, 'L')) {
        rc = ws_kn_peek(k) == '_' ? -1 : ws_kn_type(k);
        while (rc == 0 && k->p < k->end && *k->p != 'E')
            k->p++;
        if (rc == 0 && !ws_kn_eat(k, 'E'))
            rc = -1;
    } else {
        rc = ws_kn_type(k);
    }
    k->depth--;
    return rc;
}

static int ws_kn_args(struct ws_kn *k)
{
    if (!ws_kn_eat(k, 'I') || ws_kn_eat(k, 'E'))
        return -1;
    while (!ws_kn_eat(k, 'E'))
        if (k->p >= k->end || ws_kn_arg(k) < 0)
            return -1;
    return 0;
}

/* <substitution> after its S: S_, S<seq>_, St <unqualified-name>, and
 * the abbreviations Sa Sb Ss Si So Sd.  std:: is emitted when emit. */
static int ws_kn_subst(struct ws_kn *k, int emit)
{
    int c = ws_kn_peek(k);

    if (c == 't') {
        k->p++;
        if (emit)
            ws_kn_emit(k, "std", 3);
        return ws_kn_digit(ws_kn_peek(k)) ? ws_kn_source(k, emit) : 0;
    }
    if (c && strchr("abisod", c)) {
        k->p++;
        return emit ? -1 : 0; /* not a name a kernel base would hold */
    }
    return ws_kn_seq(k) < 0 || emit ? -1 : 0;
}

/* <nested-name> from after its N, emitting the components. */
static int ws_kn_nested(struct ws_kn *k, int emit)
{
    while (ws_kn_peek(k) && strchr("rVK", ws_kn_peek(k)))
        k->p++;
    if (ws_kn_peek(k) == 'R' || ws_kn_peek(k) == 'O')
        k->p++;
    while (!ws_kn_eat(k, 'E')) {
        int c = ws_kn_peek(k), rc;
        if (ws_kn_digit(c))
            rc = ws_kn_source(k, emit);
        else if (c == 'I')
            rc = ws_kn_args(k);
        else if (c == 'S' && (k->p++, 1))
            rc = ws_kn_subst(k, emit);
        else if (c == 'T' && (k->p++, 1))
            rc = ws_kn_seq(k);
        else if (c == 'L' && (k->p++, 1))
            rc = 0; /* GCC marks internal linkage here too */
        else
            rc = -1; /* ctor/dtor, operator, lambda, end */
        if (rc < 0)
            return -1;
    }
    return 0;
}

/* A name used as a type: a source name or nested name, with arguments. */
static int ws_kn_class(struct ws_kn *k)
{
    int rc;

    if (ws_kn_eat(k, 'N'))
        return ws_kn_nested(k, 0);
    if (ws_kn_eat(k, 'S'))
        rc = ws_kn_subst(k, 0);
    else if (ws_kn_eat(k, 'T'))
        rc = ws_kn_seq(k);
    else
        rc = ws_kn_source(k, 0);
    if (rc == 0 && ws_kn_peek(k) == 'I')
        rc = ws_kn_args(k);
    return rc;
}

/* D-prefixed builtins and vector types: Dd De Df Dh Di Ds Du Da Dc Dn,
 * DF<n>_ (extended floats), Dv<n>_<type>, Dp<type>. */
static int ws_kn_dtype(struct ws_kn *k)
{
    int c = ws_kn_peek(k);

    if (c && strchr("defhisuacn", c)) {
        k->p++;
        return 0;
    }
    if (ws_kn_eat(k, 'F'))
        return ws_kn_number_(k);
    if (ws_kn_eat(k, 'v'))
        return ws_kn_number_(k) < 0 ? -1 : ws_kn_type(k);
    if (ws_kn_eat(k, 'p'))
        return ws_kn_type(k);
    return -1;
}

/* <function-type> F [Y] <return> <params> [R|O] E, from after the F. */
static int ws_kn_function(struct ws_kn *k)
{
    ws_kn_eat(k, 'Y');
    while (!ws_kn_eat(k, 'E')) {
        if (ws_kn_peek(k) == 'R' || ws_kn_peek(k) == 'O') {
            k->p++;
            continue;
        }
        if (k->p >= k->end || ws_kn_type(k) < 0)
            return -1;
    }
    return 0;
}

/* <type>: the forms template arguments of kernels use. */
static int ws_kn_type(struct ws_kn *k)
{
    int c = ws_kn_peek(k), rc;

    if (++k->depth > WS_KN_MAX_DEPTH || !c)
        return -1;
    if (strchr("vwbcahstijlmxynofdegz", c) && (k->p++, 1))
        rc = 0;
    else if (strchr("rVKPROCG", c) && (k->p++, 1))
        rc = ws_kn_type(k);
    else if (c == 'D' && (k->p++, 1))
        rc = ws_kn_dtype(k);
    else if (c == 'u' && (k->p++, 1))
        rc = ws_kn_source(k, 0);
    else if (c == 'U' && (k->p++, 1))
        rc = ws_kn_source(k, 0) < 0 ? -1 : ws_kn_type(k);
    else if (c == 'F' && (k->p++, 1))
        rc = ws_kn_function(k);
    else if (c == 'A' && (k->p++, 1))
        rc = (ws_kn_peek(k) == '_' ? (k->p++, 0) : ws_kn_number_(k)) < 0
                 ? -1
                 : ws_kn_type(k);
    else if (c == 'M' && (k->p++, 1))
        rc = ws_kn_type(k) < 0 ? -1 : ws_kn_type(k);
    else
        rc = ws_kn_class(k);
    k->depth--;
    return rc;
}

/* <name> of the encoding: nested, std::, internal, or unscoped. */
static void ws_kn_name(struct ws_kn *k)
{
    if (ws_kn_eat(k, 'N')) {
        ws_kn_nested(k, 1);
        return;
    }
    if (ws_kn_eat(k, 'S')) {
        if (ws_kn_peek(k) == 't')
            ws_kn_subst(k, 1);
        return;
    }
    ws_kn_eat(k, 'L');
    ws_kn_source(k, 1);
}

static char *ws_kname_mangled(const char *name, size_t n)
{
    struct ws_kn k = {name + 2, name + n, malloc(3 * n + 64), 0, 3 * n + 63, 0};

    if (!k.out)
        return NULL;
    ws_kn_name(&k);
    if (k.len == 0) {
        memcpy(k.out, name, n + 1);
        return k.out;
    }
    k.out[k.len] = '\0';
    return k.out;
}

/* A demangled name: template arguments and the parameter list dropped
 * (by depth, so "f<(int)1>(x)" works), then a return type before it. */
static char *ws_kname_plain(const char *name, size_t n)
{
    char *out = malloc(n + 1), *base;
    size_t len = 0, anon = strlen(WS_KN_ANON);
    int angle = 0;

    if (!out)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        if (angle == 0 && strncmp(name + i, WS_KN_ANON, anon) == 0) {
            memcpy(out + len, WS_KN_ANON, anon);
            len += anon;
            i += anon - 1;
        } else if (c == '<') {
            angle++;
        } else if (c == '>' && angle > 0) {
            angle--;
        } else if (angle == 0 && c == '(') {
            break;
        } else if (angle == 0) {
            out[len++] = c;
        }
    }
    while (len > 0 && out[len - 1] == ' ')
        len--;
    out[len] = '\0';
    /* "void ns::f": the last word is the name; "(anonymous namespace)"
     * holds a blank of its own. */
    base = out;
    /* A match of all `anon` bytes ends before out's terminator, so s never
     * passes it; the analyser does not follow strncmp.
     * NOLINTNEXTLINE(clang-analyzer-core.uninitialized.Branch) */
    for (char *s = out; *s; s++) {
        if (strncmp(s, WS_KN_ANON, anon) == 0)
            s += anon - 1;
        else if (*s == ' ')
            base = s + 1;
    }
    if (!*base) {
        memcpy(out, name, n + 1);
        return out;
    }
    memmove(out, base, strlen(base) + 1);
    return out;
}

char *ws_kname_base(const char *name)
{
    size_t n = strlen(name);

    if (n > 2 && name[0] == '_' && name[1] == 'Z')
        return ws_kname_mangled(name, n);
    return ws_kname_plain(name, n);
}
