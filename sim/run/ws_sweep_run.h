/*
 * ws_sweep_run: a sweep as one library call: the sweep file loaded and
 * checked, its outputs planned (util/ws_output.h's rules), its points run
 * in worker processes or resumed from the results file, the results
 * sorted, then its plots and report written; and the merge of a job
 * array's shares.  `warpsim sweep` parses its options into a request and
 * calls these; `warpsim validate`'s studies call them with no argv at all.
 *
 * The results file is the sweep's memory: a rerun reads it back, keeps
 * the rows whose key is still a point's key, and runs the rest.  Rows are
 * appended a point at a time while the sweep goes, and the file is sorted
 * by point when the last point ends, so a finished file is the same bytes
 * whatever the number of workers was.
 *
 * What a sweep says goes to the request's two streams: `say` gets the
 * summary line, the files written and the dry run's listing; `log` the
 * notes (rows a resume drops, failed points, a chart not drawn, an
 * interruption).  NULL streams keep it quiet (tests).
 *
 * Leaves out: parsing options and printing errors (cli/cmd_sweep.c), what
 * a point computes (ws_run_engine), the sweep file (sweep/ws_sweep.h).
 */
#ifndef WS_SWEEP_RUN_H
#define WS_SWEEP_RUN_H

#include <stddef.h>
#include <stdio.h>

#include "sweep/ws_sweep.h"
#include "trace/ws_traceg.h"
#include "util/ws_err.h"

struct ws_sweep_request {
    const char *file;             /* the sweep file */
    const char *out;              /* results CSV; NULL: the file's name with
                                   .csv in the current folder (a share's
                                   numbered) */
    long jobs;                    /* worker processes; 0: one per core */
    int dry_run;                  /* list the points and their state only */
    int report;                   /* also OUT with .md: the markdown summary */
    int retry_failed;             /* rerun points recorded as failed */
    long array_index, array_size; /* a share of a job array; -1: all */
    struct ws_trace_opts topts;   /* limits for every point */
    const char *models[WS_SWEEP_MAX_MODELS]; /* NAME=COMMAND, beside the
                                                   file's models: */
    int nmodels;
    FILE *say, *log; /* see above; NULL: nothing */
    int progress;    /* a progress line on stderr */
};

/* What a sweep did with this share's points. */
struct ws_sweep_outcome {
    size_t points; /* the sweep's points, every share's */
    size_t total;  /* this share's */
    size_t before; /* in the results already (or failed early) */
    size_t run;    /* run by this call */
    size_t failed; /* failed, of those run or recorded now */
};

/* A request with no file, no share, default limits, quiet streams. */
void ws_sweep_request_init(struct ws_sweep_request *rq);

/* Runs the sweep rq describes.  0 when every point ended (failed points
 * included: the file records them); 1 when a signal stopped it (the
 * finished points are kept; a rerun goes on; the command exits 130); -1
 * with err, an error placed where it can be (the sweep file's line, the
 * command-line word of rq->file or rq->out when they are argv words).
 * out (may be NULL) gets the counts. */
int ws_sweep_run(const struct ws_sweep_request *rq,
                 struct ws_sweep_outcome *out, struct ws_err *err);

/* Joins the shares shares[0..n) of one sweep into out, as one run on one
 * machine would have written it: every point exactly once, sorted.  A
 * share named twice, one a sweep still writes, a missing or doubled point
 * are errors; out is planned as an output against the shares.  Errors
 * about a share are placed at its word. */
int ws_sweep_merge_files(const char *out, const char *const *shares, int n,
                         struct ws_err *err);

#endif
