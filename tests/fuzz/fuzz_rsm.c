/*
 * libFuzzer target: the RSM analysis of a results table.  Any text that
 * parses as CSV goes through ws_rsm_report for each target with a small
 * ensemble: it must return a report or a clean error, never crash, and
 * every RSM it prints lies in [0, 1] (checked on the report's table rows).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/ws_rsm_table.h"
#include "util/ws_csv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Each "| GROUP | x |" row's x is within [0, 1]. */
static void fuzz_rsm_check(const char *md)
{
    for (const char *p = strstr(md, "\n| "); p; p = strstr(p + 1, "\n| ")) {
        const char *bar = strchr(p + 3, '|');
        char *end;
        double v;
        if (!bar)
            break;
        v = strtod(bar + 1, &end);
        if (end != bar + 1 && (v < 0 || v > 1))
            abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct ws_csv t;
    struct ws_err err;

    ws_err_clear(&err);
    if (ws_csv_parse(&t, "fuzz.csv", (const char *)data, size, 0, 0, &err) < 0)
        return 0;
    for (int k = 0; k < 3; k++) {
        struct ws_rsm_args a = {(enum ws_rsm_target)k,
                                {0.1, 0.5, 0.8},
                                {5, 0.5, 4, 0.8, 1.386, 1}};
        char *md;
        ws_err_clear(&err);
        md = ws_rsm_report(&t, &a, NULL, NULL, &err);
        if (md)
            fuzz_rsm_check(md);
        free(md);
    }
    ws_csv_free(&t);
    return 0;
}
