/*
 * ws_sweep_rows: the columns and rows of a sweep's results file (see
 * ws_sweep_rows.c).
 */
#ifndef WS_SWEEP_ROWS_H
#define WS_SWEEP_ROWS_H

#include <stddef.h>
#include <stdio.h>

#include "report/ws_report.h"
#include "util/ws_csv.h"
#include "ws_sweep.h"

/* The fixed columns every row starts with, by number. */
enum ws_sweep_col {
    WS_SWEEP_COL_POINT,
    WS_SWEEP_COL_POINTS,
    WS_SWEEP_COL_KEY,
    WS_SWEEP_COL_STATUS,
    WS_SWEEP_COL_ERROR,
    WS_SWEEP_COL_SWEEP,
    WS_SWEEP_COL_ROW,
    WS_SWEEP_COL_ROWS,
    WS_SWEEP_NFIXED
};

/* A point's key and its sweep's identity, as written in its rows: 32 and
 * 16 hexadecimal digits. */
struct ws_sweep_id {
    const char *key;
    const char *sweep;
};

size_t ws_sweep_ncols(const struct ws_sweep *s);

/* Closes the memory stream f (open_memstream) and returns its text, which
 * is only final after fclose; NULL (the buffer freed) when that fails. */
char *ws_sweep_text_close(FILE *f, char **buf);

/* The header line, '\n' included (malloc'd; NULL when out of memory). */
char *ws_sweep_header(const struct ws_sweep *s);

/* The rows of one point, each ending in '\n': one per kernel of rep, or
 * one "failed" row carrying why when rep is NULL. */
char *ws_sweep_rows(const struct ws_sweep *s, const struct ws_sweep_point *p,
                    const struct ws_sweep_id *id,
                    const struct ws_run_report *rep, const char *why);

#endif
