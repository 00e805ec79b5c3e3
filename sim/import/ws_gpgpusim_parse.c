/*
 * ws_gpgpusim_parse: GPGPU-Sim's option syntax, lookups, and the plain
 * values (numbers, lists) the translation reads (see ws_gpgpusim.h).
 *
 * The syntax follows option_parser.cc: each line loses everything from its
 * first '#', the rest is split into blank-separated words, a word opening
 * with '"' runs to the next word ending with '"' (over lines, joined by one
 * blank), and the words pair up as "-name value".  GPGPU-Sim reads any word
 * after a name as its value; here a value that looks like the next option
 * name (a dash and a letter) is reported as a missing value, since that is
 * what it always is in a GPU description.  Numbers are strict: GPGPU-Sim's
 * stream extraction would take "32abc" as 32 and "010" as octal 8.
 *
 * Leaves out: flags given without a value (GPGPU-Sim's booleans may omit
 * it on the command line; GPU descriptions never do), and the packed
 * values (ws_gpgpusim_packed.c).
 */
#include "ws_gpgpusim.h"
#include "ws_gpgpusim_int.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/ws_clip.h"
#include "util/ws_file.h"
#include "util/ws_grow.h"
#include "util/ws_num.h"

void ws_gpgpusim_init(struct ws_gpgpusim *g)
{
    memset(g, 0, sizeof *g);
}

void ws_gpgpusim_free(struct ws_gpgpusim *g)
{
    for (size_t i = 0; i < g->n; i++) {
        free(g->opt[i].name);
        free(g->opt[i].value);
        free(g->opt[i].piece);
    }
    free(g->opt);
    free(g->order);
    for (int i = 0; i < g->nfiles; i++)
        free(g->files[i]);
    memset(g, 0, sizeof *g);
}

/* ---- words ------------------------------------------------------------ */

struct ws_gs_word {
    const char *s;
    size_t n;
    long line, col;
};

struct ws_gs_lex {
    const char *file, *text;
    size_t len, pos, line_start;
    long line;
};

int ws_gs_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* The next word, 1; 0 at the end. */
static int ws_gs_next_word(struct ws_gs_lex *x, struct ws_gs_word *w)
{
    while (x->pos < x->len) {
        char c = x->text[x->pos];
        if (c == '\n') {
            x->line++;
            x->line_start = ++x->pos;
        } else if (c == '#') {
            while (x->pos < x->len && x->text[x->pos] != '\n')
                x->pos++;
        } else if (ws_gs_blank(c)) {
            x->pos++;
        } else {
            break;
        }
    }
    if (x->pos >= x->len)
        return 0;
    w->s = x->text + x->pos;
    w->line = x->line;
    w->col = (long)(x->pos - x->line_start) + 1;
    while (x->pos < x->len && !ws_gs_blank(x->text[x->pos])
           && x->text[x->pos] != '\n' && x->text[x->pos] != '#')
        x->pos++;
    w->n = (size_t)(x->text + x->pos - w->s);
    return 1;
}

static int ws_gs_oom(struct ws_err *err)
{
    return ws_err_oom(err);
}

/* Appends n bytes of a word to o's value as a new piece at (line, col),
 * after a blank when the value has text already. */
static int ws_gs_add_piece(struct ws_gpgpusim_opt *o, size_t *cap,
                           const char *s, size_t n, long line, long col)
{
    size_t have = o->value ? strlen(o->value) : 0;
    size_t sep = o->npiece ? 1 : 0;
    /* n is a word's length within a line, so the size cannot wrap to 0.
     * NOLINTNEXTLINE(clang-analyzer-optin.portability.UnixAPI) */
    char *v = realloc(o->value, have + sep + n + 1);
    struct ws_gpgpusim_piece *p;

    if (!v)
        return -1;
    o->value = v;
    if (sep)
        v[have] = ' ';
    memcpy(v + have + sep, s, n);
    v[have + sep + n] = '\0';
    if (ws_grow((void **)&o->piece, cap, o->npiece + 1, sizeof *o->piece, 2)
        < 0)
        return -1;
    p = &o->piece[o->npiece++];
    p->off = have + sep;
    p->line = line;
    p->col = col;
    return 0;
}

/* A word that can only be the next option's name: a dash, then a letter
 * or '_' ("-1" is a value). */
static int ws_gs_is_name(const struct ws_gs_word *w)
{
    return w->n >= 2 && w->s[0] == '-'
           && (isalpha((unsigned char)w->s[1]) || w->s[1] == '_');
}

/* Reads the value of o starting with word w, which may open a quote. */
static int ws_gs_read_value(struct ws_gs_lex *x, struct ws_gpgpusim_opt *o,
                            struct ws_gs_word w, struct ws_err *err)
{
    size_t cap = 0;
    long qline = w.line, qcol = w.col;

    if (w.s[0] != '"')
        return ws_gs_add_piece(o, &cap, w.s, w.n, w.line, w.col) < 0
                   ? ws_gs_oom(err)
                   : 0;
    w.s++, w.n--, w.col++;
    for (;;) {
        int closes = w.n > 0 && w.s[w.n - 1] == '"';
        size_t n = closes ? w.n - 1 : w.n;
        if ((n > 0 || closes || o->npiece == 0)
            && ws_gs_add_piece(o, &cap, w.s, n, w.line, w.col) < 0)
            return ws_gs_oom(err);
        if (closes)
            return 0;
        if (!ws_gs_next_word(x, &w))
            return ws_err_at(err, x->file, qline, qcol,
                             "%s: unterminated "
                             "quoted value (expected a closing '\"' before "
                             "the end of the file)",
                             o->name);
    }
}

static int ws_gs_new_opt(struct ws_gpgpusim *g, const char *file,
                         const struct ws_gs_word *w, struct ws_err *err)
{
    struct ws_gpgpusim_opt *o;

    if (ws_grow((void **)&g->opt, &g->cap, g->n + 1, sizeof *g->opt, 64) < 0)
        return ws_gs_oom(err);
    o = &g->opt[g->n];
    memset(o, 0, sizeof *o);
    o->name = malloc(w->n + 1);
    if (!o->name)
        return ws_gs_oom(err);
    memcpy(o->name, w->s, w->n);
    o->name[w->n] = '\0';
    o->file = file;
    o->line = w->line;
    o->col = w->col;
    o->seq = g->n;
    g->n++;
    return 0;
}

static int ws_gs_binary(const char *file, const char *text, size_t len,
                        struct ws_err *err)
{
    const char *nul = memchr(text, '\0', len);
    long line = 1;
    const char *start = text;

    if (!nul)
        return 0;
    for (const char *p = text; p < nul; p++)
        if (*p == '\n')
            line++, start = p + 1;
    return ws_err_at(err, file, line, (long)(nul - start) + 1,
                     "NUL byte: "
                     "binary data (expected a text file of -name value "
                     "options)");
}

/* Keeps a copy of the file name for the options' lifetime. */
static const char *ws_gs_keep_name(struct ws_gpgpusim *g, const char *file,
                                   struct ws_err *err)
{
    if (g->nfiles == WS_GPGPUSIM_MAX_FILES) {
        ws_err_msg(err,
                   "%s: more than %d option files (expected a GPGPU-Sim "
                   "config and a trace config)",
                   file, WS_GPGPUSIM_MAX_FILES);
        return NULL;
    }
    g->files[g->nfiles] = strdup(file);
    if (!g->files[g->nfiles]) {
        ws_gs_oom(err);
        return NULL;
    }
    return g->files[g->nfiles++];
}

int ws_gpgpusim_parse(struct ws_gpgpusim *g, const char *file, const char *text,
                      size_t len, struct ws_err *err)
{
    struct ws_gs_lex x = {NULL, text, len, 0, 0, 1};
    struct ws_gs_word w;
    struct ws_clip q;

    free(g->order);
    g->order = NULL;
    x.file = ws_gs_keep_name(g, file, err);
    if (!x.file || ws_gs_binary(file, text, len, err) < 0)
        return -1;
    while (ws_gs_next_word(&x, &w)) {
        struct ws_gpgpusim_opt *o;
        char word[WS_CLIP + 4];
        snprintf(word, sizeof word, "%.*s",
                 (int)(w.n < WS_CLIP ? w.n : WS_CLIP), w.s);
        if (!ws_gs_is_name(&w))
            return ws_err_at(err, x.file, w.line, w.col,
                             "'%s' is not an "
                             "option name (expected -name VALUE; a value of "
                             "several words goes in double quotes)",
                             ws_clip(&q, word));
        if (ws_gs_new_opt(g, x.file, &w, err) < 0)
            return -1;
        o = &g->opt[g->n - 1];
        if (!ws_gs_next_word(&x, &w))
            return ws_err_at(err, x.file, o->line, o->col,
                             "%s has no value "
                             "(expected a value after it; the file ends "
                             "here)",
                             ws_clip(&q, o->name));
        if (ws_gs_is_name(&w)) {
            snprintf(word, sizeof word, "%.*s",
                     (int)(w.n < WS_CLIP ? w.n : WS_CLIP), w.s);
            return ws_err_at(err, x.file, o->line, o->col,
                             "%s has no value "
                             "(expected a value before the next option %s)",
                             o->name, word);
        }
        if (ws_gs_read_value(&x, o, w, err) < 0)
            return -1;
    }
    return 0;
}

int ws_gpgpusim_read(struct ws_gpgpusim *g, const char *path,
                     struct ws_err *err)
{
    size_t len;
    char *text = ws_file_read(path, "GPGPU-Sim config", WS_GPGPUSIM_MAX_FILE,
                              &len, NULL, err);
    int rc;

    if (!text)
        return -1;
    rc = ws_gpgpusim_parse(g, path, text, len, err);
    free(text);
    return rc;
}

/* ---- lookups ---------------------------------------------------------- */

static int ws_gs_order_cmp(const void *a, const void *b)
{
    const struct ws_gpgpusim_opt *x = *(const struct ws_gpgpusim_opt *const *)a;
    const struct ws_gpgpusim_opt *y = *(const struct ws_gpgpusim_opt *const *)b;
    int c = strcmp(x->name, y->name);

    if (c)
        return c;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Sorts the options by name so that a lookup is a binary search, and marks
 * the occurrence of each name that counts.  Sorting, not a scan per
 * option: a file of a megabyte may hold a hundred thousand options. */
static int ws_gs_index(struct ws_gpgpusim *g)
{
    if (g->order || g->n == 0)
        return 0;
    /* An array of pointers: sizeof *g->order is a pointer's size.
     * NOLINTNEXTLINE(bugprone-sizeof-expression) */
    g->order = malloc(g->n * sizeof *g->order);
    if (!g->order)
        return -1;
    for (size_t i = 0; i < g->n; i++)
        g->order[i] = &g->opt[i];
    /* NOLINTNEXTLINE(bugprone-sizeof-expression): as above */
    qsort(g->order, g->n, sizeof *g->order, ws_gs_order_cmp);
    for (size_t i = 0; i < g->n; i++)
        g->order[i]->last = i + 1 == g->n
                            || strcmp(g->order[i]->name, g->order[i + 1]->name)
                                   != 0;
    return 0;
}

struct ws_gpgpusim_opt *ws_gpgpusim_peek(struct ws_gpgpusim *g,
                                         const char *name)
{
    size_t lo = 0, hi;

    if (ws_gs_index(g) < 0 || g->n == 0)
        return NULL;
    hi = g->n;
    /* The first entry after every occurrence of name. */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(g->order[mid]->name, name) <= 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0 || strcmp(g->order[lo - 1]->name, name) != 0)
        return NULL;
    return g->order[lo - 1];
}

struct ws_gpgpusim_opt *ws_gpgpusim_get(struct ws_gpgpusim *g, const char *name)
{
    struct ws_gpgpusim_opt *o = ws_gpgpusim_peek(g, name);

    if (o)
        o->used = 1;
    return o;
}

/* ---- positions and errors --------------------------------------------- */

void ws_gpgpusim_pos(const struct ws_gpgpusim_opt *o, size_t off, long *line,
                     long *col)
{
    const struct ws_gpgpusim_piece *p = o->npiece ? &o->piece[0] : NULL;

    for (size_t i = 1; i < o->npiece && o->piece[i].off <= off; i++)
        p = &o->piece[i];
    if (!p) {
        *line = o->line;
        *col = o->col;
        return;
    }
    *line = p->line;
    *col = p->col + (long)(off > p->off ? off - p->off : 0);
}

int ws_gpgpusim_err(struct ws_err *err, const struct ws_gpgpusim_opt *o,
                    size_t off, const char *fmt, ...)
{
    char msg[WS_ERR_TEXT];
    long line, col;
    va_list ap;
    struct ws_clip q;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ws_gpgpusim_pos(o, off, &line, &col);
    return ws_err_at(err, o->file, line, col, "%s: %s", ws_clip(&q, o->name),
                     msg);
}

/* ---- numbers ---------------------------------------------------------- */

int ws_gs_decimal(const char *s, size_t n, uint64_t *v, const char **why)
{
    *why = "not a whole number";
    if (n > 1 && s[0] == '0' && s[1] >= '0' && s[1] <= '9') {
        *why = "a leading zero (GPGPU-Sim would read it as octal)";
        return -1;
    }
    if (ws_num_u64(s, n, v) < 0) {
        size_t i = 0;
        while (i < n && s[i] >= '0' && s[i] <= '9')
            i++;
        if (i == n && n > 0)
            *why = "too large";
        return -1;
    }
    return 0;
}

int ws_gpgpusim_uint(const struct ws_gpgpusim_opt *o, uint64_t lo, uint64_t hi,
                     uint64_t *v, struct ws_err *err)
{
    const char *s = o->value, *why = "not a whole number";
    size_t n = strlen(s);
    struct ws_clip q;
    int rc;

    if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        rc = ws_num_hex(s, n, v);
    else
        rc = ws_gs_decimal(s, n, v, &why);
    if (rc < 0)
        return ws_gpgpusim_err(err, o, 0,
                               "'%s' is %s (expected a whole "
                               "number from %llu to %llu)",
                               ws_clip(&q, s), why, (unsigned long long)lo,
                               (unsigned long long)hi);
    if (*v < lo || *v > hi)
        return ws_gpgpusim_err(err, o, 0,
                               "%llu is out of range (expected "
                               "a whole number from %llu to %llu)",
                               (unsigned long long)*v, (unsigned long long)lo,
                               (unsigned long long)hi);
    return 0;
}

int ws_gpgpusim_bool(const struct ws_gpgpusim_opt *o, int *v,
                     struct ws_err *err)
{
    struct ws_clip q;

    if (strcmp(o->value, "0") != 0 && strcmp(o->value, "1") != 0)
        return ws_gpgpusim_err(err, o, 0,
                               "'%s' is not a switch (expected "
                               "0 or 1)",
                               ws_clip(&q, o->value));
    *v = o->value[0] == '1';
    return 0;
}

/* A field between separators, blanks around it dropped (sscanf's %u skips
 * leading ones; strtok leaves trailing ones before a separator). */
static void ws_gs_field(const char *s, size_t *start, size_t *end)
{
    while (*start < *end && ws_gs_blank(s[*start]))
        (*start)++;
    while (*end > *start && ws_gs_blank(s[*end - 1]))
        (*end)--;
}

int ws_gpgpusim_uints(const struct ws_gpgpusim_opt *o, char sep, size_t min_n,
                      size_t max_n, uint64_t lo, uint64_t hi, uint64_t *v,
                      size_t *n, struct ws_err *err)
{
    const char *s = o->value;
    size_t pos = 0, len = strlen(s);
    struct ws_clip q;

    *n = 0;
    for (;;) {
        const char *e = memchr(s + pos, sep, len - pos);
        size_t start = pos, end = e ? (size_t)(e - s) : len;
        const char *why;
        char field[WS_CLIP + 4];
        ws_gs_field(s, &start, &end);
        snprintf(field, sizeof field, "%.*s",
                 (int)(end - start < WS_CLIP ? end - start : WS_CLIP),
                 s + start);
        if (*n == max_n)
            return ws_gpgpusim_err(err, o, pos,
                                   "more than %zu fields "
                                   "(expected at most %zu separated by "
                                   "'%c')",
                                   max_n, max_n, sep);
        if (ws_gs_decimal(s + start, end - start, &v[*n], &why) < 0)
            return ws_gpgpusim_err(err, o, start,
                                   "field %zu '%s' is %s "
                                   "(expected whole numbers separated by "
                                   "'%c')",
                                   *n + 1, ws_clip(&q, field), why, sep);
        if (v[*n] < lo || v[*n] > hi)
            return ws_gpgpusim_err(err, o, start,
                                   "field %zu is %llu "
                                   "(expected a whole number from %llu to "
                                   "%llu)",
                                   *n + 1, (unsigned long long)v[*n],
                                   (unsigned long long)lo,
                                   (unsigned long long)hi);
        (*n)++;
        if (!e)
            break;
        pos = (size_t)(e - s) + 1;
    }
    if (*n < min_n)
        return ws_gpgpusim_err(err, o, len,
                               "%zu field%s (expected at least "
                               "%zu separated by '%c')",
                               *n, *n == 1 ? "" : "s", min_n, sep);
    return 0;
}

/* A plain decimal real: digits, one point, an exponent; no "inf", "nan"
 * or hex float, which strtod would take. */
static int ws_gs_real(const char *s, size_t n, double *v)
{
    char buf[64];
    char *end;

    if (n == 0 || n >= sizeof buf
        || !(isdigit((unsigned char)s[0]) || s[0] == '.'))
        return -1;
    for (size_t i = 0; i < n; i++)
        if (!isdigit((unsigned char)s[i]) && !strchr(".eE+-", s[i]))
            return -1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    *v = strtod(buf, &end);
    return *end == '\0' && isfinite(*v) ? 0 : -1;
}

int ws_gpgpusim_reals(const struct ws_gpgpusim_opt *o, char sep, size_t n,
                      double hi, double *v, struct ws_err *err)
{
    const char *s = o->value;
    size_t pos = 0, len = strlen(s);
    struct ws_clip q;

    for (size_t i = 0; i < n; i++) {
        const char *e = memchr(s + pos, sep, len - pos);
        size_t start = pos, end = e ? (size_t)(e - s) : len;
        ws_gs_field(s, &start, &end);
        if (ws_gs_real(s + start, end - start, &v[i]) < 0)
            return ws_gpgpusim_err(err, o, start,
                                   "field %zu of '%s' is not "
                                   "a number (expected %zu numbers such as "
                                   "1132.0 separated by '%c')",
                                   i + 1, ws_clip(&q, s), n, sep);
        if (!(v[i] > 0) || v[i] > hi)
            return ws_gpgpusim_err(err, o, start,
                                   "field %zu is %g (expected "
                                   "a number above 0 and at most %g)",
                                   i + 1, v[i], hi);
        if (!e && i + 1 < n)
            return ws_gpgpusim_err(err, o, len,
                                   "%zu field%s (expected %zu "
                                   "separated by '%c')",
                                   i + 1, i ? "s" : "", n, sep);
        if (e && i + 1 == n)
            return ws_gpgpusim_err(err, o, (size_t)(e - s),
                                   "more than %zu "
                                   "fields (expected %zu separated by '%c')",
                                   n, n, sep);
        pos = e ? (size_t)(e - s) + 1 : len;
    }
    return 0;
}
