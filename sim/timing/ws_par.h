/*
 * ws_par: worker threads that run the SMs' own work of one cycle side by
 * side (ws_sim.c says which work that is and why the result cannot depend
 * on it).  The simulator hands it many small jobs, one per simulated cycle
 * with work in it, so a job starts and ends in a fraction of a
 * microsecond: idle workers spin on a generation counter for a while
 * before they sleep on a condition variable, and the caller works on the
 * job too instead of waiting.
 *
 * The number of threads never changes what a job computes: items are
 * independent.  Which thread runs which item is a matter of speed only:
 * item i goes to thread i mod threads first (the same one job after job,
 * so what it touches stays in that core's cache), and whatever a thread
 * has not started when another runs out is taken by that one.
 *
 * Leaves out: nested jobs, and a job's failure (each item records its own
 * outcome where the caller will look for it).
 */
#ifndef WS_PAR_H
#define WS_PAR_H

#include <stdint.h>

struct ws_par;

typedef void (*ws_par_fn)(void *ctx, uint32_t item);

/* A pool of threads - 1 workers beside the caller (threads >= 2).  NULL
 * when a thread cannot be started; the caller then works alone. */
struct ws_par *ws_par_start(unsigned threads);
void ws_par_stop(struct ws_par *p);

/* fn(ctx, i) for every i in [0, n), spread over the workers and the
 * caller; returns when every item is done. */
void ws_par_for(struct ws_par *p, uint32_t n, ws_par_fn fn, void *ctx);

/* The threads a request for `want` gets: 0 means as many as this process
 * may run on.  More than that is allowed, but slow: a job is short only
 * while each worker spins on a core of its own. */
unsigned ws_par_threads(unsigned want);

#endif
