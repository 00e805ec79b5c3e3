/*
 * ws_sweep_table: a sweep's results read back (see ws_sweep_table.c):
 * which points a results file holds whole, the file rewritten for the
 * sweep as it is now, and shares merged.
 */
#ifndef WS_SWEEP_TABLE_H
#define WS_SWEEP_TABLE_H

#include <stddef.h>

#include "util/ws_csv.h"
#include "util/ws_err.h"

/* A point has at most this many rows (kernels of one trace). */
#define WS_SWEEP_MAX_ROWS 1000000

/* The sweep's identity, its rows' sweep cell: a hash of every point's
 * key in point order (16 hexadecimal digits and a NUL into out). */
void ws_sweep_id_of(char (*keys)[33], size_t n, char out[17]);

/* 1 with *a < *b two points whose keys are alike (the first such pair
 * by key), 0 when every key is its own, -1 when out of memory. */
int ws_sweep_keys_alike(char (*keys)[33], size_t n, size_t *a, size_t *b);

/* What a results file holds for the sweep as it is now. */
struct ws_sweep_held {
    long *point;    /* per row of the table: the current point it
                               is kept for, or -1 when it is dropped */
    size_t stale;   /* rows whose key is no current point's */
    size_t torn;    /* points dropped to be rerun: rows missing,
                               two different rows under one number */
    size_t doubled; /* rows read twice, identical: one kept */
    size_t retried; /* failed points dropped, with retry_failed */
};

/* Reads t against the sweep's points now: a point is held when t has all
 * of its rows under its current key, whatever point number, sweep or
 * share they were written under (an axis value added, shares run into
 * one file, a file written by another sweep of the same points).  Sets
 * done[p] for every held point.  keys: every point's key, no two alike.
 * -1 only when out of memory. */
int ws_sweep_held_scan(struct ws_sweep_held *h, const struct ws_csv *t,
                       size_t npoints, char (*keys)[33], int retry_failed,
                       unsigned char *done, struct ws_err *err);

/* t's header and the held rows, sorted by point and row, their point,
 * points and sweep cells rewritten for this sweep (malloc'd; NULL when out
 * of memory). */
char *ws_sweep_held_text(const struct ws_sweep_held *h, const struct ws_csv *t,
                         size_t npoints, const char *sweep);

void ws_sweep_held_free(struct ws_sweep_held *h);

/* -1 (placed at the table's first line) when t's columns are not header's. */
int ws_sweep_check_header(const struct ws_csv *t, const char *header,
                          struct ws_err *err);

/* The shares tabs[0..n) joined and sorted by point, after checking that
 * they are shares of one sweep (one sweep cell, which the points' keys
 * make) and hold every point whole (every row once, ok rows or one
 * failed row) in one share; NULL with err. */
char *ws_sweep_merge(const struct ws_csv *tabs, size_t n, struct ws_err *err);

#endif
