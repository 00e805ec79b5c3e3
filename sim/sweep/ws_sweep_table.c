/*
 * ws_sweep_table: a sweep's results file read back: resuming from it, the
 * final sort, and the merge of shares.
 *
 * A row belongs to a point by its key (a hash of everything the point
 * computes from), not by its point number: numbers shift when an axis
 * gains a value, and a file may hold rows another run of the same points
 * wrote.  A point is whole when every one of its rows (row 0 to rows - 1)
 * is there; a point with a row missing, or two different rows under one
 * number, is run again rather than trusted, and a row read twice over
 * (two runs appending one point) is kept once.  The merge is stricter:
 * its shares were each written by one finished run, so anything doubled,
 * missing or of another sweep is an error, not a repair.
 *
 * Leaves out: the files themselves, locking and writing them
 * (run/ws_sweep_results.c).
 */
#include "ws_sweep_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "util/ws_num.h"
#include "ws_sweep.h"
#include "ws_sweep_rows.h"

/* One row of one table, with the point and row number it holds. */
struct ws_sweep_rowref {
    size_t point, row, rows;
    size_t table, line;
};

static int ws_sweep_rowref_cmp(const void *a, const void *b)
{
    const struct ws_sweep_rowref *x = a, *y = b;

    if (x->point != y->point)
        return x->point < y->point ? -1 : 1;
    if (x->row != y->row)
        return x->row < y->row ? -1 : 1;
    if (x->table != y->table)
        return x->table < y->table ? -1 : 1;
    return x->line < y->line ? -1 : x->line > y->line;
}

static int ws_sweep_cell_u64(const struct ws_csv *t, size_t row, size_t col,
                             uint64_t *v)
{
    const char *c = ws_csv_cell(t, row, col);

    return ws_num_u64(c, strlen(c), v);
}

/* The row and rows cells of a row: -1 unless 0 <= row < rows <= max. */
static int ws_sweep_row_numbers(const struct ws_csv *t, size_t r, size_t *row,
                                size_t *rows)
{
    uint64_t a, b;

    if (ws_sweep_cell_u64(t, r, WS_SWEEP_COL_ROW, &a) < 0
        || ws_sweep_cell_u64(t, r, WS_SWEEP_COL_ROWS, &b) < 0 || b == 0
        || b > WS_SWEEP_MAX_ROWS || a >= b)
        return -1;
    *row = (size_t)a;
    *rows = (size_t)b;
    return 0;
}

/* Two rows with the same results: every cell but the ones that say
 * where in which sweep they were written. */
static int ws_sweep_same_row(const struct ws_csv *t, size_t a, size_t b)
{
    for (size_t c = 0; c < t->ncols; c++) {
        if (c == WS_SWEEP_COL_POINT || c == WS_SWEEP_COL_POINTS
            || c == WS_SWEEP_COL_SWEEP)
            continue;
        if (strcmp(ws_csv_cell(t, a, c), ws_csv_cell(t, b, c)) != 0)
            return 0;
    }
    return 1;
}

/* A point's rows are "ok" rows, or one "failed" row: anything else was
 * not written by a sweep. */
static int ws_sweep_status_ok(const struct ws_csv *t,
                              const struct ws_sweep_rowref *refs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const char *st = ws_csv_cell(t, refs[i].line, WS_SWEEP_COL_STATUS);
        if (strcmp(st, "ok") != 0
            && (strcmp(st, "failed") != 0 || refs[i].rows != 1))
            return 0;
    }
    return 1;
}

void ws_sweep_id_of(char (*keys)[33], size_t n, char out[17])
{
    XXH3_state_t *h = XXH3_createState();
    unsigned long long v = 0;

    if (h) {
        XXH3_64bits_reset(h);
        for (size_t i = 0; i < n; i++)
            XXH3_64bits_update(h, keys[i], 32);
        v = XXH3_64bits_digest(h);
        XXH3_freeState(h);
    }
    snprintf(out, 17, "%016llx", v);
}

/* ---- which point a key is ---------------------------------------------- */

struct ws_sweep_keyidx {
    char (*keys)[33];
    size_t *order; /* point numbers sorted by key */
    size_t n;
};

static char (*ws_sweep_sort_keys)[33];

/* By key, then by point number: equal keys sit together, in order. */
static int ws_sweep_key_cmp(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    int c = strcmp(ws_sweep_sort_keys[x], ws_sweep_sort_keys[y]);

    return c ? c : x < y ? -1 : x > y;
}

static int ws_sweep_keyidx_make(struct ws_sweep_keyidx *k, char (*keys)[33],
                                size_t n)
{
    k->keys = keys;
    k->n = n;
    k->order = malloc((n ? n : 1) * sizeof *k->order);
    if (!k->order)
        return -1;
    for (size_t i = 0; i < n; i++)
        k->order[i] = i;
    ws_sweep_sort_keys = keys;
    qsort(k->order, n, sizeof *k->order, ws_sweep_key_cmp);
    return 0;
}

int ws_sweep_keys_alike(char (*keys)[33], size_t n, size_t *a, size_t *b)
{
    struct ws_sweep_keyidx k;
    int found = 0;

    if (ws_sweep_keyidx_make(&k, keys, n) < 0)
        return -1;
    for (size_t i = 1; i < n && !found; i++)
        if (strcmp(keys[k.order[i - 1]], keys[k.order[i]]) == 0) {
            *a = k.order[i - 1];
            *b = k.order[i];
            found = 1;
        }
    free(k.order);
    return found;
}

static long ws_sweep_keyidx_find(const struct ws_sweep_keyidx *k,
                                 const char *key)
{
    size_t lo = 0, hi = k->n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(k->keys[k->order[mid]], key);
        if (c == 0)
            return (long)k->order[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

/* ---- resuming ----------------------------------------------------------- */

/* Decides one point's rows refs[0..n): all kept (the point is held), or
 * all dropped.  Rows read twice over keep their first copy. */
static void ws_sweep_held_point(struct ws_sweep_held *h, const struct ws_csv *t,
                                const struct ws_sweep_rowref *refs, size_t n,
                                int bad, int retry_failed, unsigned char *done)
{
    size_t rows = refs[0].rows, next = 0;

    for (size_t i = 0; i < n && !bad; i++) {
        if (refs[i].rows != rows)
            bad = 1;
        else if (refs[i].row == next)
            next++;
        else if (refs[i].row + 1 != next
                 || !ws_sweep_same_row(t, refs[i - 1].line, refs[i].line))
            bad = 1;
    }
    if (bad || next != rows || !ws_sweep_status_ok(t, refs, n)) {
        h->torn++;
        return;
    }
    if (retry_failed
        && strcmp(ws_csv_cell(t, refs[0].line, WS_SWEEP_COL_STATUS), "failed")
               == 0) {
        h->retried++;
        return;
    }
    next = 0;
    for (size_t i = 0; i < n; i++) {
        if (refs[i].row != next) {
            h->doubled++;
            continue;
        }
        h->point[refs[i].line] = (long)refs[i].point;
        next++;
    }
    done[refs[0].point] = 1;
}

int ws_sweep_held_scan(struct ws_sweep_held *h, const struct ws_csv *t,
                       size_t npoints, char (*keys)[33], int retry_failed,
                       unsigned char *done, struct ws_err *err)
{
    struct ws_sweep_keyidx k;
    struct ws_sweep_rowref *refs;
    unsigned char *bad;
    size_t n = 0;

    memset(h, 0, sizeof *h);
    h->point = malloc((t->nrows ? t->nrows : 1) * sizeof *h->point);
    refs = malloc((t->nrows ? t->nrows : 1) * sizeof *refs);
    bad = calloc(npoints ? npoints : 1, 1);
    if (!h->point || !refs || !bad
        || ws_sweep_keyidx_make(&k, keys, npoints) < 0) {
        free(refs);
        free(bad);
        ws_sweep_held_free(h);
        return ws_err_oom(err);
    }
    for (size_t r = 0; r < t->nrows; r++) {
        long p = ws_sweep_keyidx_find(&k, ws_csv_cell(t, r, WS_SWEEP_COL_KEY));
        size_t row, rows;
        h->point[r] = -1;
        if (p < 0)
            h->stale++;
        else if (ws_sweep_row_numbers(t, r, &row, &rows) < 0)
            bad[p] = 1;
        else
            refs[n++] = (struct ws_sweep_rowref){(size_t)p, row, rows, 0, r};
    }
    qsort(refs, n, sizeof *refs, ws_sweep_rowref_cmp);
    for (size_t i = 0, j; i < n; i = j) {
        for (j = i + 1; j < n && refs[j].point == refs[i].point; j++)
            ;
        ws_sweep_held_point(h, t, refs + i, j - i, bad[refs[i].point],
                            retry_failed, done);
        bad[refs[i].point] = 0;
    }
    /* A point whose rows all had unreadable numbers had no refs. */
    for (size_t p = 0; p < npoints; p++)
        h->torn += bad[p];
    free(k.order);
    free(refs);
    free(bad);
    return 0;
}

void ws_sweep_held_free(struct ws_sweep_held *h)
{
    free(h->point);
    h->point = NULL;
}

static void ws_sweep_put_header(FILE *f, const struct ws_csv *t)
{
    for (size_t c = 0; c < t->ncols; c++) {
        if (c)
            fputc(',', f);
        ws_csv_put(f, t->header[c]);
    }
    fputc('\n', f);
}

/* Row r of t; with sweep non-NULL, as a row of that sweep's point p. */
static void ws_sweep_put_row(FILE *f, const struct ws_csv *t, size_t r,
                             size_t p, size_t npoints, const char *sweep)
{
    for (size_t c = 0; c < t->ncols; c++) {
        if (c)
            fputc(',', f);
        if (sweep && c == WS_SWEEP_COL_POINT)
            fprintf(f, "%zu", p);
        else if (sweep && c == WS_SWEEP_COL_POINTS)
            fprintf(f, "%zu", npoints);
        else if (sweep && c == WS_SWEEP_COL_SWEEP)
            fputs(sweep, f);
        else
            ws_csv_put(f, ws_csv_cell(t, r, c));
    }
    fputc('\n', f);
}

char *ws_sweep_held_text(const struct ws_sweep_held *h, const struct ws_csv *t,
                         size_t npoints, const char *sweep)
{
    struct ws_sweep_rowref *refs = malloc((t->nrows ? t->nrows : 1)
                                          * sizeof *refs);
    char *buf = NULL;
    size_t len = 0, n = 0;
    FILE *f;

    if (!refs)
        return NULL;
    for (size_t r = 0; r < t->nrows; r++) {
        size_t row = 0, rows = 0;
        if (h->point[r] < 0)
            continue;
        ws_sweep_row_numbers(t, r, &row, &rows);
        refs[n++] = (struct ws_sweep_rowref){(size_t)h->point[r], row, rows, 0,
                                             r};
    }
    qsort(refs, n, sizeof *refs, ws_sweep_rowref_cmp);
    f = open_memstream(&buf, &len);
    if (f) {
        ws_sweep_put_header(f, t);
        for (size_t i = 0; i < n; i++)
            ws_sweep_put_row(f, t, refs[i].line, refs[i].point, npoints, sweep);
        buf = ws_sweep_text_close(f, &buf);
    }
    free(refs);
    return buf;
}

int ws_sweep_check_header(const struct ws_csv *t, const char *header,
                          struct ws_err *err)
{
    struct ws_csv h;
    int same;

    if (ws_csv_parse(&h, "header", header, strlen(header), 0, 0, err) < 0)
        return -1;
    same = h.ncols == t->ncols;
    for (size_t i = 0; same && i < h.ncols; i++)
        same = strcmp(h.header[i], t->header[i]) == 0;
    ws_csv_free(&h);
    if (!same)
        return ws_err_at(err, t->name, 1, 1,
                         "the columns are not this "
                         "sweep's (expected the results of the same sweep "
                         "file and warpsim version; write to a new file with "
                         "-o)");
    return 0;
}

/* ---- merge -------------------------------------------------------------- */

/* Every row of every share: its point, of one point count and one sweep,
 * and its row number. */
static int ws_sweep_merge_row(const struct ws_csv *tabs, size_t i, size_t r,
                              const struct ws_csv *ref_tab, size_t *npoints,
                              struct ws_sweep_rowref *ref, struct ws_err *err)
{
    const struct ws_csv *t = &tabs[i];
    const char *sweep = ws_csv_cell(t, r, WS_SWEEP_COL_SWEEP);
    const char *first = ws_csv_cell(ref_tab, 0, WS_SWEEP_COL_SWEEP);
    uint64_t v, p;

    if (ws_sweep_cell_u64(t, r, WS_SWEEP_COL_POINTS, &v) < 0 || v == 0
        || v > WS_SWEEP_MAX_POINTS)
        return ws_err_at(err, t->name, t->row_line[r], 1,
                         "bad points cell "
                         "'%s' (expected the sweep's point count)",
                         ws_csv_cell(t, r, WS_SWEEP_COL_POINTS));
    if (*npoints && v != *npoints)
        return ws_err_at(err, t->name, t->row_line[r], 1,
                         "this row's sweep "
                         "has %llu points, an earlier one %zu (expected "
                         "shares of one sweep)",
                         (unsigned long long)v, *npoints);
    *npoints = (size_t)v;
    if (strcmp(sweep, first) != 0)
        return ws_err_at(err, t->name, t->row_line[r], 1,
                         "this row is of "
                         "sweep '%s', %s's first row of sweep '%s' (expected "
                         "shares of one sweep, run from one sweep file)",
                         sweep, tabs[0].name, first);
    if (ws_sweep_cell_u64(t, r, WS_SWEEP_COL_POINT, &p) < 0 || p >= v)
        return ws_err_at(err, t->name, t->row_line[r], 1,
                         "bad point cell "
                         "'%s' (expected a number below %llu)",
                         ws_csv_cell(t, r, WS_SWEEP_COL_POINT),
                         (unsigned long long)v);
    ref->point = (size_t)p;
    ref->table = i;
    ref->line = r;
    if (ws_sweep_row_numbers(t, r, &ref->row, &ref->rows) < 0)
        return ws_err_at(err, t->name, t->row_line[r], 1,
                         "bad row/rows "
                         "cells '%s'/'%s' (expected a row number below the "
                         "point's row count)",
                         ws_csv_cell(t, r, WS_SWEEP_COL_ROW),
                         ws_csv_cell(t, r, WS_SWEEP_COL_ROWS));
    return 0;
}

/* One point's rows refs[0..n) (sorted): from one share, under one key,
 * each row number once, none missing. */
static int ws_sweep_merge_point(const struct ws_csv *tabs,
                                const struct ws_sweep_rowref *refs, size_t n,
                                struct ws_err *err)
{
    const struct ws_sweep_rowref *a = &refs[0];

    for (size_t i = 0; i < n; i++) {
        const struct ws_sweep_rowref *b = &refs[i];
        const struct ws_csv *t = &tabs[b->table];
        long line = t->row_line[b->line];
        if (b->table != a->table)
            return ws_err_at(err, t->name, line, 1,
                             "point %zu is also in %s "
                             "(expected each point in one share)",
                             b->point, tabs[a->table].name);
        if (strcmp(ws_csv_cell(t, b->line, WS_SWEEP_COL_KEY),
                   ws_csv_cell(&tabs[a->table], a->line, WS_SWEEP_COL_KEY))
            != 0)
            return ws_err_at(err, t->name, line, 1,
                             "point %zu appears with "
                             "two keys (expected each point once)",
                             b->point);
        if (b->rows != a->rows)
            return ws_err_at(err, t->name, line, 1,
                             "point %zu's rows say it "
                             "has %zu and %zu rows (expected one count)",
                             b->point, a->rows, b->rows);
        if (!ws_sweep_status_ok(t, b, 1))
            return ws_err_at(err, t->name, line, 1,
                             "point %zu has status "
                             "'%s' (expected ok, or failed on a point's one "
                             "row)",
                             b->point,
                             ws_csv_cell(t, b->line, WS_SWEEP_COL_STATUS));
        if (b->row != i)
            return ws_err_at(err, t->name, line, 1,
                             "point %zu row %zu %s "
                             "(expected each of its %zu rows once: rerun the "
                             "share to repair it)",
                             b->point, b->row < i ? b->row : i,
                             b->row < i ? "appears twice" : "is missing",
                             a->rows);
    }
    if (n != a->rows)
        return ws_err_at(err, tabs[a->table].name,
                         tabs[a->table].row_line[refs[n - 1].line], 1,
                         "point %zu has %zu of its %zu rows (expected whole "
                         "points: rerun the share to finish it)",
                         a->point, n, a->rows);
    return 0;
}

/* The sweep cell is a hash of every point's key: keys edited by hand, or
 * points of another sweep numbered as this one's, do not make it. */
static int ws_sweep_merge_keys(const struct ws_csv *tabs,
                               const struct ws_sweep_rowref *refs, size_t nrefs,
                               size_t npoints, struct ws_err *err)
{
    char(*keys)[33] = calloc(npoints + 1, sizeof *keys), id[17];
    const struct ws_csv *t = &tabs[refs[0].table];
    const char *sweep = ws_csv_cell(t, refs[0].line, WS_SWEEP_COL_SWEEP);
    int rc = 0;

    if (!keys)
        return ws_err_oom(err);
    for (size_t i = 0; i < nrefs; i++)
        snprintf(keys[refs[i].point], 33, "%s",
                 ws_csv_cell(&tabs[refs[i].table], refs[i].line,
                             WS_SWEEP_COL_KEY));
    ws_sweep_id_of(keys, npoints, id);
    if (strcmp(id, sweep) != 0)
        rc = ws_err_at(err, t->name, t->row_line[refs[0].line], 1,
                       "the "
                       "points' keys make sweep '%s', the rows say '%s' "
                       "(expected the shares as the sweep wrote them: a key "
                       "was edited, or points of another sweep joined)",
                       id, sweep);
    free(keys);
    return rc;
}

static int ws_sweep_merge_check(const struct ws_csv *tabs,
                                struct ws_sweep_rowref *refs, size_t nrefs,
                                size_t npoints, struct ws_err *err)
{
    size_t p = 0;

    qsort(refs, nrefs, sizeof *refs, ws_sweep_rowref_cmp);
    for (size_t i = 0, j; i < nrefs; i = j, p++) {
        for (j = i + 1; j < nrefs && refs[j].point == refs[i].point; j++)
            ;
        if (refs[i].point != p)
            break;
        if (ws_sweep_merge_point(tabs, refs + i, j - i, err) < 0)
            return -1;
    }
    if (p != npoints)
        return ws_err_at(err, tabs[0].name, 1, 1,
                         "point %zu of %zu is in no "
                         "share (expected every share of the sweep, each run "
                         "to the end)",
                         p, npoints);
    return ws_sweep_merge_keys(tabs, refs, nrefs, npoints, err);
}

static int ws_sweep_merge_columns(const struct ws_csv *tabs, size_t n,
                                  struct ws_err *err)
{
    for (size_t i = 1; i < n; i++) {
        int same = tabs[i].ncols == tabs[0].ncols;
        for (size_t c = 0; same && c < tabs[0].ncols; c++)
            same = strcmp(tabs[i].header[c], tabs[0].header[c]) == 0;
        if (!same)
            return ws_err_at(err, tabs[i].name, 1, 1,
                             "columns differ from "
                             "%s's (expected shares of one sweep)",
                             tabs[0].name);
    }
    if (tabs[0].ncols < WS_SWEEP_NFIXED
        || strcmp(tabs[0].header[WS_SWEEP_COL_SWEEP], "sweep") != 0
        || strcmp(tabs[0].header[WS_SWEEP_COL_ROWS], "rows") != 0
        || strcmp(tabs[0].header[WS_SWEEP_COL_POINT], "point") != 0)
        return ws_err_at(err, tabs[0].name, 1, 1,
                         "not a sweep's results "
                         "(expected columns point, points, key, status, "
                         "error, sweep, row, rows, ...)");
    return 0;
}

char *ws_sweep_merge(const struct ws_csv *tabs, size_t n, struct ws_err *err)
{
    struct ws_sweep_rowref *refs;
    size_t total = 0, nrefs = 0, npoints = 0, first = n;
    char *buf = NULL, *text = NULL;
    size_t len = 0;
    FILE *f;

    if (ws_sweep_merge_columns(tabs, n, err) < 0)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        total += tabs[i].nrows;
        if (tabs[i].nrows && first == n)
            first = i;
    }
    if (first == n) {
        ws_err_at(err, tabs[0].name, 1, 1,
                  "no rows in any share (expected "
                  "the results of a sweep)");
        return NULL;
    }
    if (!(refs = calloc(total, sizeof *refs))) {
        ws_err_oom(err);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        for (size_t r = 0; r < tabs[i].nrows; r++)
            if (ws_sweep_merge_row(tabs, i, r, &tabs[first], &npoints,
                                   &refs[nrefs++], err)
                < 0)
                goto out;
    if (ws_sweep_merge_check(tabs, refs, nrefs, npoints, err) < 0)
        goto out;
    if ((f = open_memstream(&buf, &len)) != NULL) {
        ws_sweep_put_header(f, &tabs[0]);
        /* point and points as numbers: "00" reads as 0 and is written 0,
         * as one run would have written it */
        for (size_t i = 0; i < nrefs; i++)
            ws_sweep_put_row(f, &tabs[refs[i].table], refs[i].line,
                             refs[i].point, npoints,
                             ws_csv_cell(&tabs[refs[i].table], refs[i].line,
                                         WS_SWEEP_COL_SWEEP));
        text = ws_sweep_text_close(f, &buf);
    }
    if (!text)
        ws_err_oom(err);
out:
    free(refs);
    return text;
}
