/*
 * ws_sweep_pool: runs a sweep's points in worker processes, one child per
 * point, at most `jobs` at once.
 *
 * A point runs in a child of its own so that one that crashes, runs out of
 * memory or hits a simulator limit costs that point only: the parent
 * records it as failed and goes on.  Children are forked from the parent,
 * which has read nothing a point changes, so every point is a pure
 * function of its inputs whatever the order or the number of workers.
 * The child sends its rows (or its error line) back through a pipe; the
 * parent alone writes the results file, a whole point at a time.
 *
 * SIGINT, SIGTERM and SIGHUP stop the pool: no new point starts, the
 * children are stopped, and what finished is already written.
 *
 * Leaves out: what a point is (the caller's run function), the file.
 */
#ifndef WS_SWEEP_POOL_H
#define WS_SWEEP_POOL_H

#include <stddef.h>

#include "util/ws_err.h"

/* In the child: the rows of point index (malloc'd), or NULL with err. */
typedef char *(*ws_sweep_run_fn)(void *ctx, size_t index, struct ws_err *err);

/* In the parent, once per point as it ends: rows, or NULL and why. */
typedef int (*ws_sweep_done_fn)(void *ctx, size_t index, const char *rows,
                                const char *why, struct ws_err *err);

struct ws_sweep_progress {
    int on; /* print a progress line on stderr */
    size_t total, done, failed;
    size_t before; /* points finished by an earlier run */
    double start, last;
};

/* Runs todo[0..n).  0 when every point ended, 1 when a signal stopped the
 * pool (the caller exits 130), -1 with err when done() failed (a write to
 * the results file) or no worker could be started. */
int ws_sweep_pool_run(const size_t *todo, size_t n, int jobs,
                      ws_sweep_run_fn run, ws_sweep_done_fn done, void *ctx,
                      struct ws_sweep_progress *prog, struct ws_err *err);

/* Seconds on a monotonic clock. */
double ws_sweep_now(void);

#endif
