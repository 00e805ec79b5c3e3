/*
 * ws_sweep_internal: what the files of ws_sweep_run share and nothing
 * outside sim/run/ sees: the state of one sweep run, the results file
 * (ws_sweep_results.c) and what is written beside it (ws_sweep_extras.c).
 *
 * Leaves out: the request and the calls (ws_sweep_run.h).
 */
#ifndef WS_SWEEP_INTERNAL_H
#define WS_SWEEP_INTERNAL_H

#include <stdio.h>

#include "sweep/ws_sweep.h"
#include "util/ws_csv.h"
#include "util/ws_err.h"
#include "util/ws_output.h"
#include "ws_ext_model.h"
#include "ws_sweep_run.h"

/* Everything a run of the sweep holds, shared by parent and children. */
struct ws_sweep_state {
    const struct ws_sweep_request *rq;
    struct ws_sweep s;
    struct ws_sweep_ctx ctx;
    char (*keys)[33];
    char **why;          /* per point: fails before it runs */
    unsigned char *done; /* per point: in the file already */
    unsigned char *mine; /* per point: in this share */
    char *header;
    char *out;                    /* the results file (symlinks followed) */
    const char *out_named;        /* the word that named it: -o's or FILE */
    int fd;                       /* the results, locked, open for appending */
    int created;                  /* made by this run, and no point in it yet */
    char sweep_id[17];            /* the sweep cell: a hash of every key */
    struct ws_output *extra_outs; /* [0] the results, then the extras:
                                       the plots in order, the report */
    char **extra_paths;           /* the extras' paths (s.nplots + 1 slots) */
    size_t nextras;
    size_t failed_shown;
    int pack_fd;              /* a text trace packed for the points, or -1 */
    char pack_path[64];       /* /proc/self/fd/N of it */
    struct ws_ext_models ext; /* s.models, ready to run */
};

/* fprintf to one of the request's streams; NULL: nothing. */
void ws_sweep_say(FILE *fp, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* ws_sweep_results.c: the results file.  _lock opens and locks it (made
 * when missing), refusing a file another sweep holds; _resume reads what
 * it holds (marking done[]) and rewrites it with this sweep's numbers;
 * _append adds one point's rows; _finish sorts it and leaves the sorted
 * table in t for the plots and the report; _abandon removes a file this
 * run made and put no point in. */
int ws_sweep_results_lock(struct ws_sweep_state *r, struct ws_err *err);
int ws_sweep_results_resume(struct ws_sweep_state *r, int retry_failed,
                            struct ws_err *err);
int ws_sweep_results_append(struct ws_sweep_state *r, const char *rows,
                            struct ws_err *err);
int ws_sweep_results_finish(struct ws_sweep_state *r, struct ws_csv *t,
                            struct ws_err *err);
void ws_sweep_results_abandon(struct ws_sweep_state *r);

/* The dry run: what an existing results file already holds (read, not
 * locked or changed), then the points with their keys and state. */
int ws_sweep_peek(struct ws_sweep_state *r, struct ws_err *err);
void ws_sweep_list(const struct ws_sweep_state *r, FILE *fp);

/* ws_sweep_extras.c: before any point runs, the plots' and the report's
 * files planned as outputs (ws_output's rules) and checked against the
 * results and the inputs; at the end, drawn and written.  A chart gnuplot
 * cannot draw is a warning (the results are safe by then); a file that
 * cannot be written is the sweep's error (-1, the first in err), once
 * every other extra has been written. */
int ws_sweep_check_extras(struct ws_sweep_state *r, struct ws_err *err);
int ws_sweep_extras(struct ws_sweep_state *r, const struct ws_csv *t,
                    struct ws_err *err);
void ws_sweep_extras_free(struct ws_sweep_state *r);

/* path's folder joined with name (malloc'd; NULL when out of memory):
 * where a sweep's plots go beside its results. */
char *ws_sweep_beside(const char *path, const char *name);

#endif
