/*
 * ws_csv: the RFC 4180 reader and the field writer (see ws_csv.h).
 *
 * The text is read twice: a first pass checks it and counts rows, so the
 * second fills arrays of the exact size and cannot fail.  All cells live in
 * one block beside the pointer arrays: one allocation, one free.
 *
 * Hostile input is bounded three ways: the file size (WS_CSV_MAX_BYTES),
 * the columns (WS_CSV_MAX_COLS) and the cells in all (WS_CSV_MAX_CELLS),
 * so a file of commas cannot turn into gigabytes of pointers.  NUL bytes
 * are refused, since cells are C strings and would end early.
 *
 * Leaves out: a bare CR as a line break (old Mac files); only LF and CRLF.
 */
#include "ws_csv.h"

#include "ws_clip.h"
#include "ws_file.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define WS_CSV_MAX_COLS 4096
#define WS_CSV_MAX_CELLS ((size_t)1 << 26)

/* A reading position: the line and the byte where it starts give the
 * column of any error; end_line and end_col say where the last field
 * ended, for a row that ends too early. */
struct ws_csv_rd {
    const char *name;
    const char *p, *end;
    const char *line_start;
    long line, end_line, end_col;
    struct ws_err *err;
};

static long ws_csv_colno(const struct ws_csv_rd *r, const char *at)
{
    return (long)(at - r->line_start) + 1;
}

/* The quoted part of a field, from its opening quote; r->p ends after
 * the closing one. */
static int ws_csv_quoted(struct ws_csv_rd *r, char *out, size_t *n)
{
    long qline = r->line, qcol = ws_csv_colno(r, r->p);

    for (r->p++; r->p < r->end; r->p++) {
        char c = *r->p;
        if (c == '"' && (r->p + 1 == r->end || r->p[1] != '"')) {
            r->p++;
            return 0;
        }
        if (c == '"')
            r->p++; /* a doubled quote stands for one */
        if (c == '\0')
            return ws_err_at(r->err, r->name, r->line, ws_csv_colno(r, r->p),
                             "NUL byte (expected text)");
        if (c == '\n') {
            r->line++;
            r->line_start = r->p + 1;
        }
        if (out)
            out[*n] = c;
        (*n)++;
    }
    return ws_err_at(r->err, r->name, qline, qcol,
                     "the text ends inside a "
                     "quoted field (expected a closing quote)");
}

/* The unquoted part of a field: up to a separator or a line break. */
static int ws_csv_plain(struct ws_csv_rd *r, char *out, size_t *n)
{
    for (; r->p < r->end; r->p++) {
        char c = *r->p;
        if (c == ',' || c == '\n' || c == '\r')
            return 0;
        if (c == '"')
            return ws_err_at(r->err, r->name, r->line, ws_csv_colno(r, r->p),
                             "quote inside an unquoted field (expected the "
                             "whole field in quotes, inner quotes doubled)");
        if (c == '\0')
            return ws_err_at(r->err, r->name, r->line, ws_csv_colno(r, r->p),
                             "NUL byte (expected text)");
        if (out)
            out[*n] = c;
        (*n)++;
    }
    return 0;
}

/* What ends a field, consumed: ',' for a separator, '\n' for a line
 * break (CRLF too), 0 at the end of the text, -1 for anything else. */
static int ws_csv_sep(struct ws_csv_rd *r)
{
    r->end_line = r->line;
    r->end_col = ws_csv_colno(r, r->p);
    if (r->p == r->end)
        return 0;
    if (*r->p == ',') {
        r->p++;
        return ',';
    }
    if (*r->p == '\r' && r->p + 1 < r->end && r->p[1] == '\n')
        r->p++;
    else if (*r->p == '\r' && r->p + 1 < r->end)
        return ws_err_at(r->err, r->name, r->line, r->end_col,
                         "carriage "
                         "return outside quotes (expected CRLF or LF line "
                         "breaks)");
    else if (*r->p != '\n' && *r->p != '\r')
        return ws_err_at(r->err, r->name, r->line, r->end_col,
                         "text after "
                         "the closing quote of a field (expected ',' or the "
                         "end of the line; inner quotes doubled)");
    r->p++;
    r->line++;
    r->line_start = r->p;
    return r->p == r->end && r->p[-1] == '\r' ? 0 : '\n';
}

/* One field from r->p, unquoted into out when out is not NULL (the
 * second pass).  Returns what ended it, as ws_csv_sep. */
static int ws_csv_field(struct ws_csv_rd *r, char *out, size_t *outlen)
{
    int rc;

    *outlen = 0;
    if (r->p < r->end && *r->p == '"')
        rc = ws_csv_quoted(r, out, outlen);
    else
        rc = ws_csv_plain(r, out, outlen);
    return rc < 0 ? -1 : ws_csv_sep(r);
}

/* The counts the first pass finds. */
struct ws_csv_shape {
    size_t ncols, nrows; /* nrows without the header */
};

static int ws_csv_row_error(struct ws_csv_rd *r, long line, long col,
                            size_t got, size_t want)
{
    return ws_err_at(r->err, r->name, line, col,
                     "row has %zu field%s "
                     "(expected %zu, as the header)",
                     got, got == 1 ? "" : "s", want);
}

/* Reads one row: into t (second pass) or only counted (t NULL).  The
 * header row sets the column count.  Returns 1 for a row, 0 at the end. */
static int ws_csv_row(struct ws_csv_rd *r, struct ws_csv_shape *sh,
                      struct ws_csv *t, char **arena)
{
    int header = sh->ncols == 0;
    long line = r->line, extra_line = 0, extra_col = 0;
    size_t nf = 0;
    int end;

    if (r->p == r->end)
        return 0;
    do {
        const char *at = r->p;
        size_t len = 0;
        char *out = NULL;
        if (header && nf == WS_CSV_MAX_COLS)
            return ws_err_at(r->err, r->name, r->line, ws_csv_colno(r, at),
                             "more than %d columns (expected a smaller "
                             "table)",
                             WS_CSV_MAX_COLS);
        if (!header && nf == sh->ncols) {
            extra_line = r->line;
            extra_col = ws_csv_colno(r, at);
        }
        if (t && (header || nf < sh->ncols))
            out = *arena;
        end = ws_csv_field(r, out, &len);
        if (end < 0)
            return -1;
        if (out) {
            out[len] = '\0';
            *arena += len + 1;
            if (header)
                t->header[nf] = out;
            else
                t->cells[sh->nrows * sh->ncols + nf] = out;
        }
        nf++;
    } while (end == ',');
    if (header) {
        sh->ncols = nf;
        return 1;
    }
    if (nf > sh->ncols)
        return ws_csv_row_error(r, extra_line, extra_col, nf, sh->ncols);
    if (nf < sh->ncols)
        return ws_csv_row_error(r, r->end_line, r->end_col, nf, sh->ncols);
    if (t)
        t->row_line[sh->nrows] = line;
    if (++sh->nrows * sh->ncols > WS_CSV_MAX_CELLS)
        return ws_err_at(r->err, r->name, line, 1,
                         "more than %zu cells "
                         "(expected a smaller table)",
                         WS_CSV_MAX_CELLS);
    return 1;
}

/* One pass over text[0..len); t NULL counts only. */
static int ws_csv_pass(const char *name, const char *text, size_t len,
                       struct ws_csv_shape *sh, struct ws_csv *t, char *arena,
                       struct ws_err *err)
{
    struct ws_csv_rd r = {name, text, text + len, text, 1, 0, 0, err};
    int rc;

    sh->ncols = sh->nrows = 0;
    while ((rc = ws_csv_row(&r, sh, t, &arena)) == 1)
        ;
    return rc;
}

/* The length of the whole rows: up to the last line break outside
 * quotes.  A torn row may be any garbage, so quotes are only counted. */
static size_t ws_csv_whole_rows(const char *text, size_t len)
{
    size_t last = 0;
    int quoted = 0;

    for (size_t i = 0; i < len; i++) {
        if (text[i] == '"')
            quoted = !quoted;
        else if (text[i] == '\n' && !quoted)
            last = i + 1;
    }
    return last;
}

/* Where a header name given twice is, or -1: a lookup by name would
 * silently see only the first. */
static long ws_csv_dup_header(const struct ws_csv *t)
{
    for (size_t i = 1; i < t->ncols; i++)
        for (size_t j = 0; j < i; j++)
            if (strcmp(t->header[i], t->header[j]) == 0)
                return (long)i;
    return -1;
}

/* The pointer arrays and the cells' text in one block. */
static int ws_csv_alloc(struct ws_csv *t, const struct ws_csv_shape *sh,
                        size_t len, char **arena, struct ws_err *err)
{
    size_t nptr = sh->ncols + sh->nrows * sh->ncols;
    char **block = malloc(nptr * sizeof *block + len + 1);

    t->row_line = malloc((sh->nrows + 1) * sizeof *t->row_line);
    if (!block || !t->row_line) {
        free(block);
        free(t->row_line);
        t->row_line = NULL;
        return ws_err_oom(err);
    }
    t->header = block;
    t->cells = block + sh->ncols;
    *arena = (char *)(block + nptr);
    t->ncols = sh->ncols;
    t->nrows = sh->nrows;
    return 0;
}

int ws_csv_parse(struct ws_csv *t, const char *name, const char *text,
                 size_t len, int allow_torn_tail, int allow_empty,
                 struct ws_err *err)
{
    struct ws_csv_shape sh;
    char *arena = NULL;
    long dup;

    memset(t, 0, sizeof *t);
    t->valid_len = allow_torn_tail ? ws_csv_whole_rows(text, len) : len;
    if (t->valid_len == 0 && !allow_empty)
        return ws_err_at(err, name, 1, 1,
                         "empty table (expected a header "
                         "row of column names)");
    if (ws_csv_pass(name, text, t->valid_len, &sh, NULL, NULL, err) < 0)
        return -1;
    t->name = strdup(name);
    if (!t->name || ws_csv_alloc(t, &sh, t->valid_len, &arena, err) < 0) {
        ws_csv_free(t);
        return err->set ? -1 : ws_err_oom(err);
    }
    ws_csv_pass(name, text, t->valid_len, &sh, t, arena, err);
    dup = ws_csv_dup_header(t);
    if (dup >= 0) {
        struct ws_clip q;
        ws_err_at(err, name, 1, 1,
                  "column '%s' named twice in the header "
                  "(expected unique names)",
                  ws_clip(&q, t->header[dup]));
        ws_csv_free(t);
        return -1;
    }
    return 0;
}

/* Parses text read by the caller (NULL: failed, err set), then frees it. */
static int ws_csv_parse_read(struct ws_csv *t, const char *path, char *text,
                             size_t len, int allow_torn_tail, int allow_empty,
                             struct ws_err *err)
{
    int rc;

    memset(t, 0, sizeof *t);
    if (!text)
        return -1;
    rc = ws_csv_parse(t, path, text, len, allow_torn_tail, allow_empty, err);
    free(text);
    return rc;
}

int ws_csv_load(struct ws_csv *t, const char *path, int allow_torn_tail,
                int allow_empty, struct ws_err *err)
{
    size_t len = 0;
    char *text = ws_file_read(path, "CSV", WS_CSV_MAX_BYTES, &len, NULL, err);

    return ws_csv_parse_read(t, path, text, len, allow_torn_tail, allow_empty,
                             err);
}

int ws_csv_load_own(struct ws_csv *t, const char *path, struct ws_err *err)
{
    size_t len = 0;
    char *text = ws_file_read_own(path, "CSV", WS_CSV_MAX_BYTES, &len, err);

    return ws_csv_parse_read(t, path, text, len, 0, 0, err);
}

void ws_csv_free(struct ws_csv *t)
{
    free(t->name);
    free(t->header);
    free(t->row_line);
    memset(t, 0, sizeof *t);
}

long ws_csv_col(const struct ws_csv *t, const char *name)
{
    for (size_t i = 0; i < t->ncols; i++)
        if (strcmp(t->header[i], name) == 0)
            return (long)i;
    return -1;
}

int ws_csv_no_col(const struct ws_csv *t, const char *name, struct ws_err *err)
{
    char list[160];
    size_t n = 0;
    struct ws_clip q;

    /* A wide table's list stops short, after its last whole name: the
     * message must stay one line that ends in its "(expected ...)". */
    list[0] = '\0';
    for (size_t i = 0; i < t->ncols; i++) {
        int w = snprintf(list + n, sizeof list - n, "%s%s", i ? ", " : "",
                         t->header[i]);
        if (w < 0 || n + (size_t)w >= sizeof list - 8) {
            strcpy(list + n, i ? ", ..." : "...");
            break;
        }
        n += (size_t)w;
    }
    return ws_err_msg(err, "no column '%s' in %s (expected one of: %s)",
                      ws_clip(&q, name), t->name, list);
}

int ws_csv_row_ok(const struct ws_csv *t, size_t row)
{
    long c = ws_csv_col(t, "status");

    return c < 0 || strcmp(ws_csv_cell(t, row, (size_t)c), "ok") == 0;
}

int ws_csv_num_text(const char *s, double *v)
{
    char *end;

    if (*s == '\0' || strchr(" \t\n\r\f\v", *s))
        return -1;
    *v = strtod(s, &end);
    return *end == '\0' && isfinite(*v) ? 0 : -1;
}

double ws_csv_value_at(const struct ws_csv *t, size_t row, long col)
{
    double v;

    if (col < 0 || (size_t)col >= t->ncols
        || ws_csv_num_text(ws_csv_cell(t, row, (size_t)col), &v) < 0)
        return NAN;
    return v;
}

double ws_csv_value(const struct ws_csv *t, size_t row, const char *name)
{
    return ws_csv_value_at(t, row, ws_csv_col(t, name));
}

int ws_csv_number(const struct ws_csv *t, size_t row, size_t col, double *v,
                  struct ws_err *err)
{
    *v = ws_csv_value_at(t, row, (long)col);
    if (!isnan(*v))
        return 0;
    return ws_err_at(err, t->name, t->row_line[row], 1,
                     "column '%s' holds "
                     "'%s' (expected a number)",
                     t->header[col], ws_csv_cell(t, row, col));
}

void ws_csv_put(FILE *out, const char *field)
{
    if (field[strcspn(field, ",\"\r\n")] == '\0') {
        fputs(field, out);
        return;
    }
    fputc('"', out);
    for (; *field; field++) {
        if (*field == '"')
            fputc('"', out);
        fputc(*field, out);
    }
    fputc('"', out);
}

int ws_csv_number_named(const struct ws_csv *t, size_t row, const char *name,
                        double *v, struct ws_err *err)
{
    long c = ws_csv_col(t, name);

    if (c < 0)
        return ws_csv_no_col(t, name, err);
    return ws_csv_number(t, row, (size_t)c, v, err);
}
