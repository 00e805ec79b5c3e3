/*
 * ws_csv: comma-separated tables as warpsim writes them (RFC 4180: a
 * header row, fields quoted with '"' when they hold a comma, a quote or a
 * line break, quotes doubled inside), read back whole into memory for the
 * sweep's resume and merge, `warpsim plot` and the sweep report.
 *
 * A sweep appends one row at a time and may be killed between two writes,
 * so the reader can be told to accept a torn last row (no line break at the
 * end of the file): it is dropped and its offset returned, for the caller
 * to cut it off before appending.
 *
 * Leaves out: other dialects (separators, comment lines, BOMs), typed
 * columns: every cell is the text between the separators.
 */
#ifndef WS_CSV_H
#define WS_CSV_H

#include <stddef.h>
#include <stdio.h>

#include "ws_err.h"

/* The largest file ws_csv_load reads. */
#define WS_CSV_MAX_BYTES ((size_t)256 << 20)

struct ws_csv {
    char *name; /* for messages */
    size_t ncols, nrows;
    char **header;    /* ncols names */
    char **cells;     /* nrows * ncols, row-major; never NULL */
    long *row_line;   /* the line each row starts on, for messages */
    size_t valid_len; /* bytes up to the end of the last whole row */
};

/* Parses text.  Every row must have as many fields as the header (error
 * "name:line:col: row has N fields (expected M, as the header)").  With
 * allow_torn_tail, text that does not end in a line break loses its last
 * row silently (valid_len says where the whole rows end); without, such a
 * row is read like any other.  An empty text is an error unless
 * allow_empty (then ncols = nrows = 0). */
int ws_csv_parse(struct ws_csv *t, const char *name, const char *text,
                 size_t len, int allow_torn_tail, int allow_empty,
                 struct ws_err *err);

/* ws_csv_parse of a whole file (read with ws_file, so it joins the set of
 * files read and outputs cannot replace it). */
int ws_csv_load(struct ws_csv *t, const char *path, int allow_torn_tail,
                int allow_empty, struct ws_err *err);

/* ws_csv_load (whole rows, not empty) of a table this command wrote
 * itself, read through ws_file_read_own. */
int ws_csv_load_own(struct ws_csv *t, const char *path, struct ws_err *err);

void ws_csv_free(struct ws_csv *t);

/* The column called name, or -1. */
long ws_csv_col(const struct ws_csv *t, const char *name);

/* The error for a column name that is not in the table, unplaced
 * (ws_err_msg), naming the columns there are: "no column 'X' in NAME
 * (expected one of: a, b, ...)".  Returns -1. */
int ws_csv_no_col(const struct ws_csv *t, const char *name, struct ws_err *err);

static inline const char *ws_csv_cell(const struct ws_csv *t, size_t row,
                                      size_t col)
{
    return t->cells[row * t->ncols + col];
}

/* 1 when row counts as a result: the table has no "status" column (any
 * CSV), or the row's reads "ok" (a sweep's, whose failed points have
 * empty cells). */
int ws_csv_row_ok(const struct ws_csv *t, size_t row);

/* Reads s as a whole, finite decimal number (no blanks around it): 0, or
 * -1 when it is not one. */
int ws_csv_num_text(const char *s, double *v);

/* The cell at column col (an index; -1 for none) as a finite number, or
 * NAN when there is no such column or the text is not one. */
double ws_csv_value_at(const struct ws_csv *t, size_t row, long col);

/* ws_csv_value_at of the column called name. */
double ws_csv_value(const struct ws_csv *t, size_t row, const char *name);

/* The cell at column col as a finite number: 0, or -1 with the error at
 * the row's line, "column 'X' holds 'Y' (expected a number)". */
int ws_csv_number(const struct ws_csv *t, size_t row, size_t col, double *v,
                  struct ws_err *err);

/* ws_csv_number of the column called name, or an error naming the missing
 * column. */
int ws_csv_number_named(const struct ws_csv *t, size_t row, const char *name,
                        double *v, struct ws_err *err);

/* Writes one field, quoted only when it must be. */
void ws_csv_put(FILE *out, const char *field);

#endif
