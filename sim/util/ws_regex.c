/*
 * ws_regex: bounds on a user's regular expression before regcomp (see
 * ws_regex.h).
 *
 * One pass over the pattern with a stack of open groups.  Each group sums
 * the items it has finished and holds its last item apart, the one a
 * following repetition applies to; it also tracks whether what it has read
 * can match the empty string (its current alternative, any finished one,
 * its last item), since that decides whether a loop around it is an
 * epsilon cycle.
 *
 * The count follows how glibc's regcomp (posix/regcomp.c, parse_dup_op)
 * builds its tree: every atom is a node; "|", "*" and "?" add one; "+" is
 * the item then a starred copy; {m,n} is max(m,1) copies of the item and,
 * for each optional one, a copy and an alternation node; {m,} is m copies
 * and a starred one.  A group costs two nodes more (its open and close,
 * kept when the caller wants submatches).  "{0}" is counted as one copy,
 * not none: glibc builds the subexpression before it drops it, and the
 * peak is what runs out of memory.  Sums and products saturate, so no
 * pattern overflows the count.
 *
 * Leaves out: checking the syntax (regcomp does, after this); a '{' that
 * does not open a well-formed interval, and a repetition with nothing
 * before it, are counted as a literal, at least what regcomp builds.
 */
#include "ws_regex.h"

#include <stdio.h>
#include <string.h>

#include "ws_clip.h"
#include "ws_utf8.h"

/* Repeat counts past this read as this: glibc refuses counts past
 * RE_DUP_MAX (32767), and the bound on states is far below either. */
#define WS_REGEX_COUNT_CAP 1000000u

_Static_assert(WS_REGEX_SHOWN >= WS_CLIP + sizeof "...",
               "ws_regex_shown's buffer holds a clipped pattern");

struct ws_regex_group {
    uint64_t done; /* nodes of the items finished */
    uint64_t last; /* nodes of the last item; 0 when none */
    uint64_t done_anchors, last_anchors; /* anchors among them */
    int seq_empty;  /* the current alternative's finished items can
                           all match "" (none yet: it can) */
    int alt_empty;  /* some finished alternative can match "" */
    int last_empty; /* the last item can match "" */
};

/* What one pass finds. */
struct ws_regex_scan {
    uint64_t states;
    size_t loop;    /* byte of the first loop around what can match
                           "", or SIZE_MAX */
    size_t backref; /* byte of the first back-reference, or SIZE_MAX */
};

static uint64_t ws_regex_add(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t ws_regex_mul(uint64_t a, uint64_t b)
{
    return b != 0 && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

/* The bytes of the bracket expression opening at p ('['): a ']' right
 * after "[" or "[^" is a member, and "[:alpha:]", "[=a=]", "[.a.]" run to
 * their own closing pair.  Unterminated: the rest of the pattern (regcomp
 * then refuses it). */
static size_t ws_regex_bracket(const char *p)
{
    size_t i = 1;

    if (p[i] == '^')
        i++;
    if (p[i] == ']')
        i++;
    while (p[i] && p[i] != ']') {
        if (p[i] == '['
            && (p[i + 1] == ':' || p[i + 1] == '=' || p[i + 1] == '.')) {
            char kind = p[i + 1];
            const char *end = p + i + 2;
            while (*end && !(end[0] == kind && end[1] == ']'))
                end++;
            if (!*end)
                return strlen(p);
            i = (size_t)(end - p) + 2;
            continue;
        }
        i++;
    }
    return p[i] ? i + 1 : i;
}

/* Decimal digits at p, saturating at WS_REGEX_COUNT_CAP; their count. */
static size_t ws_regex_count(const char *p, uint64_t *v)
{
    size_t i = 0;

    *v = 0;
    while (p[i] >= '0' && p[i] <= '9') {
        *v = *v * 10 + (uint64_t)(p[i] - '0');
        if (*v > WS_REGEX_COUNT_CAP)
            *v = WS_REGEX_COUNT_CAP;
        i++;
    }
    return i;
}

/* The interval "{m}", "{m,}", "{m,n}" or "{,n}" at p (a '{'): its bytes,
 * or 0 when the text is not one.  *n is UINT64_MAX for no upper bound. */
static size_t ws_regex_interval(const char *p, uint64_t *m, uint64_t *n)
{
    size_t i = 1, dm, dn;

    dm = ws_regex_count(p + i, m);
    i += dm;
    if (p[i] != ',') {
        *n = *m;
        return dm > 0 && p[i] == '}' ? i + 1 : 0;
    }
    i++;
    dn = ws_regex_count(p + i, n);
    i += dn;
    if (dn == 0)
        *n = UINT64_MAX;
    if (p[i] != '}' || (dm == 0 && dn == 0))
        return 0;
    return i + 1;
}

/* How many copies of an item repetition op ('*', '+', '?', or '{' with
 * counts m and n, n UINT64_MAX for none) makes. */
static uint64_t ws_regex_copies(char op, uint64_t m, uint64_t n)
{
    if (op == '*' || op == '?')
        return 1;
    if (op == '+')
        return 2;
    if (n == UINT64_MAX) /* {m,}: m copies and a starred one */
        return ws_regex_add(m, 1);
    if (m > n) /* regcomp refuses it; count the most */
        return m;
    return n ? n : 1;
}

/* Nodes of an item of s nodes under that repetition: its copies and the
 * nodes that join them (a star, or an alternation per optional copy). */
static uint64_t ws_regex_repeat(uint64_t s, char op, uint64_t m, uint64_t n)
{
    uint64_t joins = 1;

    if (op == '{' && n != UINT64_MAX)
        joins = n > m ? n - m : 0;
    return ws_regex_add(ws_regex_mul(s, ws_regex_copies(op, m, n)), joins);
}

/* Moves a group's last item into its finished ones. */
static void ws_regex_commit(struct ws_regex_group *g)
{
    if (!g->last)
        return;
    g->done = ws_regex_add(g->done, g->last);
    g->done_anchors = ws_regex_add(g->done_anchors, g->last_anchors);
    g->seq_empty = g->seq_empty && g->last_empty;
    g->last = 0;
    g->last_anchors = 0;
}

/* Closes group g into its parent: the group is the parent's last item. */
static void ws_regex_close(struct ws_regex_group *g,
                           struct ws_regex_group *parent)
{
    ws_regex_commit(g);
    parent->last = g->done;
    parent->last_anchors = g->done_anchors;
    parent->last_empty = g->alt_empty || g->seq_empty;
}

static void ws_regex_open(struct ws_regex_group *g)
{
    g->done = 2; /* its open and close nodes */
    g->last = 0;
    g->done_anchors = 0;
    g->last_anchors = 0;
    g->seq_empty = 1;
    g->alt_empty = 0;
    g->last_empty = 0;
}

/* An atom at p: its bytes, its nodes and its anchors (which also match
 * ""): \b and \B are an alternation of two anchors in glibc. */
static size_t ws_regex_atom(const char *p, uint64_t *nodes, uint64_t *anchors)
{
    *nodes = 1;
    *anchors = 0;
    if (*p == '[')
        return ws_regex_bracket(p);
    if (*p == '\\' && p[1]) {
        if (p[1] == 'b' || p[1] == 'B') {
            *nodes = 3;
            *anchors = 2;
        } else if (strchr("<>`'", p[1]))
            *anchors = 1;
        return 2;
    }
    *anchors = *p == '^' || *p == '$';
    return 1;
}

/* A repetition at p applied to g's last item: its bytes, 0 when p holds
 * none.  A loop ('*', '+', "{m,}") around what can match "" is noted in
 * s->loop. */
static size_t ws_regex_repetition(const char *p, struct ws_regex_group *g,
                                  struct ws_regex_scan *s, size_t at)
{
    uint64_t m = 0, n = 0;
    size_t k = 1;

    if (!g->last)
        return 0;
    if (*p == '{') {
        if (!(k = ws_regex_interval(p, &m, &n)))
            return 0;
    } else if (*p != '*' && *p != '+' && *p != '?')
        return 0;
    if ((*p == '*' || *p == '+' || n == UINT64_MAX) && g->last_empty
        && s->loop == SIZE_MAX)
        s->loop = at;
    g->last = ws_regex_repeat(g->last, *p, m, n);
    g->last_anchors = ws_regex_mul(g->last_anchors, ws_regex_copies(*p, m, n));
    if (*p == '*' || *p == '?' || (*p == '{' && m == 0))
        g->last_empty = 1;
    return k;
}

/* The pass.  pattern is at most WS_REGEX_MAX_LEN bytes, so the groups
 * open at once fit g. */
static struct ws_regex_scan ws_regex_scan(const char *pattern)
{
    struct ws_regex_group g[WS_REGEX_MAX_LEN + 1];
    struct ws_regex_scan s = {0, SIZE_MAX, SIZE_MAX};
    const char *p = pattern;
    size_t depth = 0;

    ws_regex_open(&g[0]);
    g[0].done = 1; /* the end-of-pattern node */
    while (*p) {
        struct ws_regex_group *top = &g[depth];
        uint64_t nodes, anchors;
        size_t k;

        if (*p == '(') {
            ws_regex_commit(top);
            ws_regex_open(&g[++depth]);
            p++;
        } else if (*p == ')' && depth > 0) {
            ws_regex_close(top, &g[depth - 1]);
            depth--;
            p++;
        } else if (*p == '|') {
            ws_regex_commit(top);
            top->done = ws_regex_add(top->done, 1);
            top->alt_empty = top->alt_empty || top->seq_empty;
            top->seq_empty = 1;
            p++;
        } else if ((k = ws_regex_repetition(p, top, &s,
                                            (size_t)(p - pattern)))) {
            p += k;
        } else {
            /* An atom ("." and an unmatched ')' included: glibc's ERE
             * takes the latter as a literal). */
            k = ws_regex_atom(p, &nodes, &anchors);
            if (p[0] == '\\' && p[1] >= '1' && p[1] <= '9'
                && s.backref == SIZE_MAX)
                s.backref = (size_t)(p - pattern);
            ws_regex_commit(top);
            top->last = nodes;
            top->last_anchors = anchors;
            top->last_empty = anchors > 0;
            p += k;
        }
    }
    for (; depth > 0; depth--) /* unclosed groups: regcomp refuses them */
        ws_regex_close(&g[depth], &g[depth - 1]);
    ws_regex_commit(&g[0]);
    /* Each anchor has glibc copy the nodes its epsilon closure reaches,
     * at most all of them. */
    s.states = ws_regex_mul(g[0].done, ws_regex_add(g[0].done_anchors, 1));
    return s;
}

uint64_t ws_regex_states(const char *pattern)
{
    if (strlen(pattern) > WS_REGEX_MAX_LEN)
        return UINT64_MAX;
    return ws_regex_scan(pattern).states;
}

int ws_regex_check(const char *pattern, char *why, size_t n)
{
    size_t len = strlen(pattern);
    struct ws_regex_scan s;

    if (len > WS_REGEX_MAX_LEN) {
        snprintf(why, n,
                 "the pattern is %zu bytes long (expected at most "
                 "%d)",
                 len, WS_REGEX_MAX_LEN);
        return -1;
    }
    s = ws_regex_scan(pattern);
    if (s.states > WS_REGEX_MAX_STATES) {
        snprintf(why, n,
                 "the pattern expands to more than %d states "
                 "(expected a simpler pattern, e.g. fewer nested {m,n})",
                 WS_REGEX_MAX_STATES);
        return -1;
    }
    if (s.loop != SIZE_MAX) {
        snprintf(why, n,
                 "the repetition at byte %zu repeats what can "
                 "match the empty string (expected a repeated part that "
                 "cannot, e.g. (a|b)* rather than (a|b?)*)",
                 s.loop + 1);
        return -1;
    }
    if (s.backref != SIZE_MAX) {
        snprintf(why, n,
                 "back-reference '\\%c' at byte %zu (expected a "
                 "POSIX extended regular expression, which has none)",
                 pattern[s.backref + 1], s.backref + 1);
        return -1;
    }
    return 0;
}

int ws_regex_compile(regex_t *re, const char *pattern, int flags, char *why,
                     size_t n)
{
    int rc;

    if (ws_regex_check(pattern, why, n) < 0)
        return WS_REGEX_BOUND;
    rc = regcomp(re, pattern, flags | REG_EXTENDED);
    if (rc != 0)
        regerror(rc, re, why, n);
    return rc;
}

const char *ws_regex_shown(char *buf, const char *pattern)
{
    ws_utf8_copy_shown(buf, WS_CLIP + 1, pattern, '?');
    if (strlen(buf) < strlen(pattern))
        strcat(buf, "...");
    return buf;
}
