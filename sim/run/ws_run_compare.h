/*
 * ws_run_compare: `warpsim compare` as a library call.  The simulated
 * side (the JSON of `warpsim run --json`) and the measured side (an
 * Nsight Compute CSV or an Accel-Sim log) are read, paired and compared
 * (measure/ws_compare.h); or, when the second file is a run's JSON too
 * (its first byte a '{'), the two runs are (measure/ws_simdiff.h).  The
 * report, the JSON and the chart are all made before anything is written,
 * so the caller writes everything or nothing.  Two runs have no chart
 * (it draws simulated against measured): --plot is refused for them.
 *
 * Leaves out: option parsing and writing the outputs (cli/cmd_compare.c),
 * the layouts (report/ws_compare_text.h, ws_compare_json.h,
 * ws_compare_plot.h).
 */
#ifndef WS_RUN_COMPARE_H
#define WS_RUN_COMPARE_H

#include <regex.h>

#include "measure/ws_cmp_sort.h"
#include "util/ws_err.h"

struct ws_run_compare_request {
    const char *sim, *meas; /* the two files */
    const char *kernel;     /* the filter as typed; NULL: every kernel */
    const regex_t *re;      /* kernel compiled; NULL: every kernel */
    const char *json;       /* not NULL: make the JSON */
    const char *plot;       /* not NULL: make the chart; its errors are
                                   placed at this path */
    enum ws_cmp_sort sort;  /* the rows' order */
};

/* What the comparison made (malloc'd; NULL where not asked for). */
struct ws_run_compared {
    char *text; /* the report for standard output */
    char *json; /* indented, key order kept */
    char *svg;
};

/* Errors are placed at the word at fault: a file that cannot be read at
 * its path, nothing in common at the filter (else the second file), a
 * chart that cannot be drawn, or asked of two runs, at rq->plot.  On
 * failure out holds nothing. */
int ws_run_compare(const struct ws_run_compare_request *rq,
                   struct ws_run_compared *out, struct ws_err *err);
void ws_run_compared_free(struct ws_run_compared *out);

#endif
