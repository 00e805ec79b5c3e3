/*
 * libFuzzer target: the CSV reader and writer.  Each input is parsed
 * four ways (torn tail allowed or not, empty text allowed or not); a
 * table that parses is written back cell by cell with ws_csv_put and
 * parsed again, and must come back the same: what a sweep writes, its
 * resume and merge read back unchanged.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

#include "util/ws_csv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_csv_row(FILE *f, char *const *cells, size_t n)
{
    for (size_t c = 0; c < n; c++) {
        if (c)
            fputc(',', f);
        ws_csv_put(f, cells[c]);
    }
    fputc('\n', f);
}

static int fuzz_csv_same(const struct ws_csv *a, const struct ws_csv *b)
{
    if (a->ncols != b->ncols || a->nrows != b->nrows)
        return 0;
    for (size_t c = 0; c < a->ncols; c++)
        if (strcmp(a->header[c], b->header[c]) != 0)
            return 0;
    for (size_t i = 0; i < a->nrows * a->ncols; i++)
        if (strcmp(a->cells[i], b->cells[i]) != 0)
            return 0;
    return 1;
}

/* Writes t back and parses the text again: the same table. */
static void fuzz_csv_roundtrip(const struct ws_csv *t)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    struct ws_csv u;
    struct ws_err err;

    if (!f)
        return;
    if (t->ncols)
        fuzz_csv_row(f, t->header, t->ncols);
    for (size_t r = 0; r < t->nrows; r++)
        fuzz_csv_row(f, t->cells + r * t->ncols, t->ncols);
    if (fclose(f) != 0) {
        free(buf);
        return;
    }
    /* Every row the writer ends with a line break: no torn tail. */
    for (int torn = 0; torn < 2; torn++) {
        ws_err_clear(&err);
        if (ws_csv_parse(&u, "again", buf, len, torn, 1, &err) < 0
            || !fuzz_csv_same(t, &u) || u.valid_len != len)
            __builtin_trap();
        ws_csv_free(&u);
    }
    free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    for (int mode = 0; mode < 4; mode++) {
        struct ws_csv t;
        struct ws_err err;
        ws_err_clear(&err);
        if (ws_csv_parse(&t, "fuzz", (const char *)data, size, mode & 1,
                         mode >> 1, &err)
            < 0) {
            if (!err.set || strchr(err.text, '\n'))
                __builtin_trap();
            continue;
        }
        if (t.valid_len > size)
            __builtin_trap();
        fuzz_csv_roundtrip(&t);
        ws_csv_free(&t);
    }
    return 0;
}
