/*
 * ws_simrun_int: what the run JSON reader's two files share
 * (ws_simrun.c reads the document, ws_simrun_prov.c its "provenance"):
 * the reader's state, the path of a value from the root, and the error
 * placed at that value's line and column.  Not for use outside
 * sim/measure/ws_simrun*.c.
 *
 * Leaves out: the reader's interface (ws_simrun.h).
 */
#ifndef WS_SIMRUN_INT_H
#define WS_SIMRUN_INT_H

#include <stddef.h>

#include "ws_measured.h"
#include "ws_simrun.h"
#include "util/ws_err.h"
#include "util/ws_strtab.h"

#include <jansson.h>

#define WS_SIMRUN_DEPTH 6

/* Where a value is: keys (non-NULL) and array indices, from the root. */
struct ws_sr_path {
    const char *key[WS_SIMRUN_DEPTH];
    size_t index[WS_SIMRUN_DEPTH];
    int n;
};

/* What the kernels read so far hold: launch ids, and each counter's
 * unit (strtab id -> the kernel that first had it, and its unit). */
struct ws_sr_seen {
    struct ws_meas_ids ids;
    struct ws_strtab counters;
    struct ws_sr_unit {
        const char *unit;
        size_t kernel;
    } * units;
    size_t units_cap;
};

struct ws_sr {
    struct ws_simrun *s;
    const char *text, *end;
    struct ws_sr_seen seen;
    struct ws_err *err;
};

/* The path p one step further: key (non-NULL) or array index. */
struct ws_sr_path ws_sr_at(const struct ws_sr_path *p, const char *key,
                           size_t index);

/* The error at the line and byte column of the value at path. */
int ws_sr_fail(const struct ws_sr *r, const struct ws_sr_path *path,
               const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* A copy of s, NULL when out of memory. */
char *ws_sr_dup(const char *s);

/* Reads "provenance" (o, NULL when the run has none) into r->s->prov. */
int ws_sr_prov(struct ws_sr *r, json_t *o, const struct ws_sr_path *top);

void ws_sr_prov_free(struct ws_simrun_prov *p);

#endif
