/*
 * ws_sweep_rows: the columns and rows of a sweep's results file, resuming
 * from one, sorting it, and merging shares (see ws_sweep_rows.c).
 */
#ifndef WS_SWEEP_ROWS_H
#define WS_SWEEP_ROWS_H

#include <stddef.h>

#include "stats/ws_report.h"
#include "util/ws_csv.h"
#include "ws_sweep.h"

size_t ws_sweep_ncols(const struct ws_sweep *s);

/* The header line, '\n' included (malloc'd; NULL when out of memory). */
char *ws_sweep_header(const struct ws_sweep *s);

/* The rows of one point, each ending in '\n': one per kernel of rep, or
 * one "failed" row carrying why when rep is NULL. */
char *ws_sweep_rows(const struct ws_sweep *s, const struct ws_sweep_point *p,
                    const char *key, const struct ws_run_report *rep,
                    const char *why);

/* The row's point number, or -1 when its cell is not a number below
 * npoints. */
long ws_sweep_row_point(const struct ws_csv *t, size_t row, size_t npoints);

/* -1 (placed at the table's first line) when t's columns are not header's. */
int ws_sweep_check_header(const struct ws_csv *t, const char *header,
                          struct ws_err *err);

/* Marks done[p] for every point p whose rows t holds under its current
 * key; *stale counts the rows that belong to no current point (a changed
 * config, input or axis). */
void ws_sweep_resume_scan(const struct ws_csv *t, const struct ws_sweep *s,
                          char (*keys)[33], unsigned char *done,
                          size_t *stale);

/* The header and t's current rows of the points keep[] marks, sorted by
 * point (malloc'd). */
char *ws_sweep_current_text(const struct ws_csv *t, const struct ws_sweep *s,
                            char (*keys)[33], const unsigned char *keep);

/* The shares tabs[0..n) joined and sorted by point, after checking that
 * they share columns and hold every point exactly once; NULL with err. */
char *ws_sweep_merge(const struct ws_csv *tabs, size_t n, struct ws_err *err);

#endif
