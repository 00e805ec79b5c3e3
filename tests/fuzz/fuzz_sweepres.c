/*
 * libFuzzer target: a sweep's results file read back (resume and merge,
 * sweep/ws_sweep_table), structure-aware.
 *
 * A raw CSV rarely gets past the header check, so the input is mostly a
 * script of edits to a valid results file of four points (one of them
 * two rows): rows doubled, dropped, swapped, moved between two shares;
 * cells of the fixed columns (point, points, key, status, sweep, row,
 * rows) set to neighbouring and hostile values.  An input starting with
 * 'T' is taken as CSV text as it is.  Properties checked:
 *   - resuming is a fixed point: the text a resume writes, read again,
 *     holds the same points and is written back byte for byte;
 *   - every held point has all of its rows, once;
 *   - a merge that succeeds holds every point whole, and merging its
 *     result alone gives it back.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep/ws_sweep_table.h"
#include "util/ws_csv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FZ_POINTS 4
#define FZ_MAX_ROWS 24
#define FZ_COLS 9
#define FZ_CELL 48

static char fz_keys[FZ_POINTS][33];
static char fz_cells[FZ_MAX_ROWS][FZ_COLS][FZ_CELL];
static size_t fz_nrows, fz_split;

static const char *const fz_values[] = {
    "0",   "1",   "2",
    "3",   "4",   "-1",
    "",    "1e3", "99999999999999999999",
    "nan", "ok",  "failed",
    "s",   "t",   "1000001",
    "0x1", " 1",  "1,2",
    "\"",
};

static void fz_reset(void)
{
    static const char *const base[5][4] = {
        /* point, key index, row, rows */
        {"0", "0", "0", "1"}, {"1", "1", "0", "2"}, {"1", "1", "1", "2"},
        {"2", "2", "0", "1"}, {"3", "3", "0", "1"},
    };

    char id[17];

    for (int i = 0; i < FZ_POINTS; i++) {
        memset(fz_keys[i], 'a' + i, 32);
        fz_keys[i][32] = '\0';
    }
    ws_sweep_id_of(fz_keys, FZ_POINTS, id);
    fz_nrows = 5;
    fz_split = 5;
    for (size_t r = 0; r < fz_nrows; r++) {
        snprintf(fz_cells[r][0], FZ_CELL, "%s", base[r][0]);
        snprintf(fz_cells[r][1], FZ_CELL, "%d", FZ_POINTS);
        snprintf(fz_cells[r][2], FZ_CELL, "%s", fz_keys[base[r][1][0] - '0']);
        snprintf(fz_cells[r][3], FZ_CELL, "ok");
        snprintf(fz_cells[r][4], FZ_CELL, "%s", "");
        snprintf(fz_cells[r][5], FZ_CELL, "%s", id);
        snprintf(fz_cells[r][6], FZ_CELL, "%s", base[r][2]);
        snprintf(fz_cells[r][7], FZ_CELL, "%s", base[r][3]);
        snprintf(fz_cells[r][8], FZ_CELL, "v%zu", r);
    }
}

/* One edit; returns the bytes it used. */
static size_t fz_edit(const uint8_t *d, size_t n)
{
    size_t a, b;

    if (n < 3 || fz_nrows == 0)
        return n;
    a = d[1] % fz_nrows;
    b = d[2] % FZ_MAX_ROWS;
    switch (d[0] % 6) {
    case 0: /* double a row */
        if (fz_nrows < FZ_MAX_ROWS)
            memcpy(fz_cells[fz_nrows++], fz_cells[a], sizeof fz_cells[a]);
        break;
    case 1: /* drop a row */
        memmove(fz_cells[a], fz_cells[a + 1],
                (fz_nrows - a - 1) * sizeof fz_cells[0]);
        fz_nrows--;
        break;
    case 2: { /* swap two rows */
        char tmp[FZ_COLS][FZ_CELL];
        b %= fz_nrows;
        memcpy(tmp, fz_cells[a], sizeof tmp);
        memcpy(fz_cells[a], fz_cells[b], sizeof tmp);
        memcpy(fz_cells[b], tmp, sizeof tmp);
        break;
    }
    case 3: /* a fixed cell to a listed value */
        snprintf(fz_cells[a][b % 8], FZ_CELL, "%s",
                 fz_values[d[2] / 8 % (sizeof fz_values / sizeof *fz_values)]);
        break;
    case 4: /* a key to another point's */
        snprintf(fz_cells[a][2], FZ_CELL, "%s", fz_keys[b % FZ_POINTS]);
        break;
    default: /* where the second share starts */
        fz_split = b % (fz_nrows + 1);
        break;
    }
    return 3;
}

static char *fz_text(size_t from, size_t to)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);

    if (!f)
        return NULL;
    fputs("point,points,key,status,error,sweep,row,rows,v\n", f);
    for (size_t r = from; r < to; r++)
        for (size_t c = 0; c < FZ_COLS; c++) {
            ws_csv_put(f, fz_cells[r][c]);
            fputc(c + 1 < FZ_COLS ? ',' : '\n', f);
        }
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

static int fz_parse(struct ws_csv *t, const char *name, const char *text,
                    size_t len)
{
    struct ws_err err;

    ws_err_clear(&err);
    return ws_csv_parse(t, name, text, len, 1, 1, &err);
}

/* Resume twice: the second read of what the first wrote changes nothing. */
static void fz_resume(const char *text, size_t len, int retry)
{
    unsigned char done[FZ_POINTS], again[FZ_POINTS];
    struct ws_sweep_held h, h2;
    struct ws_csv t, u;
    struct ws_err err;
    char *out, *out2;

    if (fz_parse(&t, "r.csv", text, len) < 0)
        return;
    memset(done, 0, sizeof done);
    ws_err_clear(&err);
    if (t.ncols < 8
        || ws_sweep_held_scan(&h, &t, FZ_POINTS, fz_keys, retry, done, &err)
               < 0) {
        ws_csv_free(&t);
        return;
    }
    out = ws_sweep_held_text(&h, &t, FZ_POINTS, "s");
    if (out && fz_parse(&u, "r2.csv", out, strlen(out)) == 0) {
        size_t held = 0;
        memset(again, 0, sizeof again);
        if (ws_sweep_held_scan(&h2, &u, FZ_POINTS, fz_keys, 0, again, &err)
            == 0) {
            if (memcmp(done, again, sizeof done) != 0 || h2.stale || h2.torn
                || h2.doubled)
                abort();
            for (size_t r = 0; r < u.nrows; r++)
                held += h2.point[r] >= 0;
            if (held != u.nrows)
                abort();
            out2 = ws_sweep_held_text(&h2, &u, FZ_POINTS, "s");
            if (out2 && strcmp(out, out2) != 0)
                abort();
            free(out2);
            ws_sweep_held_free(&h2);
        }
        ws_csv_free(&u);
    }
    free(out);
    ws_sweep_held_free(&h);
    ws_csv_free(&t);
}

/* Merge the two shares; a merged file merges alone to itself. */
static void fz_merge(const char *a, const char *b)
{
    struct ws_csv t[2], m;
    struct ws_err err;
    char *out, *again;

    if (fz_parse(&t[0], "s0.csv", a, strlen(a)) < 0)
        return;
    if (fz_parse(&t[1], "s1.csv", b, strlen(b)) < 0) {
        ws_csv_free(&t[0]);
        return;
    }
    ws_err_clear(&err);
    out = ws_sweep_merge(t, 2, &err);
    if (!out && !err.set)
        abort();
    if (out && fz_parse(&m, "m.csv", out, strlen(out)) == 0) {
        ws_err_clear(&err);
        again = ws_sweep_merge(&m, 1, &err);
        if (!again || strcmp(again, out) != 0)
            abort();
        free(again);
        ws_csv_free(&m);
    }
    free(out);
    ws_csv_free(&t[0]);
    ws_csv_free(&t[1]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *whole, *a, *b;

    fz_reset();
    if (size > 0 && data[0] == 'T') {
        fz_resume((const char *)data + 1, size - 1, 0);
        return 0;
    }
    for (size_t i = 0; i < size && i < 300;)
        i += fz_edit(data + i, size - i);
    if (fz_split > fz_nrows)
        fz_split = fz_nrows;
    whole = fz_text(0, fz_nrows);
    a = fz_text(0, fz_split);
    b = fz_text(fz_split, fz_nrows);
    if (whole) {
        fz_resume(whole, strlen(whole), 0);
        fz_resume(whole, strlen(whole), 1);
    }
    if (a && b)
        fz_merge(a, b);
    free(whole);
    free(a);
    free(b);
    return 0;
}
