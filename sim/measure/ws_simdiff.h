/*
 * ws_simdiff: two simulations (two `warpsim run --json` files, A and B)
 * held against each other, for `warpsim compare A.json B.json`: what
 * changed between two configs, two inputs or two builds of warpsim.
 *
 * Pairing: by launch id and name: a kernel of A goes with the kernel of B
 * that has its id, when their names agree.  A kernel whose id B lacks, or
 * whose id names another kernel there, is on one side only, and the report
 * says the kernel lists differ.  A regular expression, when given, keeps
 * the pairs (and lone kernels) where it matches a name, as written or
 * base.
 *
 * Figures: every counter and every derived figure of either kernel (those
 * a run gives as null are absent), counters first, each kind in A's order
 * then B's own; per figure both values, the delta B - A and the delta in
 * percent of |A|, undefined when a side lacks the figure or A is 0 and B
 * is not.  A figure differs unless both runs have it with the same value.
 * Also total_cycles, the runs' sum.
 *
 * Provenance: whether the two runs read the same inputs (each input by
 * its XXH3-128: the same content under another path is the same input;
 * one under the same path with another content, or on one side only,
 * differs), the same --params, the same config (the effective config's
 * hash, however it was named), the same build of warpsim (version and
 * commit).  Unknown when either run has no provenance (before 0.6.0).
 *
 * Leaves out: reading the files (ws_simrun.h), the words and layout of the
 * report (report/ws_simdiff_text.h, ws_simdiff_json.h).
 */
#ifndef WS_SIMDIFF_H
#define WS_SIMDIFF_H

#include <regex.h>
#include <stddef.h>

#include "ws_cmp_sort.h"
#include "ws_simrun.h"

struct ws_simdiff_row {
    const char *name, *unit; /* A's strings, else B's */
    int derived;             /* a derived figure, not a counter */
    double a, b;             /* NAN where that run lacks it */
    double delta;            /* b - a; NAN when either lacks it */
    double delta_pct;        /* 100 (b - a) / |a|; NAN when either lacks
                                it, a is 0 and b is not, or it passes a
                                double */
};

struct ws_simdiff_pair {
    size_t a, b;  /* kernel indices */
    size_t nrows; /* counters, then derived figures */
    struct ws_simdiff_row *rows;
    size_t ncounters, nderived; /* rows of each kind */
    size_t counters_equal, derived_equal;
};

/* An input that differs: under one path with another content in each (a
 * and b), or in one run only (the other NULL). */
struct ws_simdiff_input {
    const struct ws_simrun_input *a, *b;
};

struct ws_simdiff {
    const struct ws_simrun *a, *b;
    size_t npairs;
    struct ws_simdiff_pair *pairs; /* in A's launch order */
    size_t na_only, nb_only;
    size_t *a_only, *b_only;     /* kernel indices, in launch order */
    struct ws_simdiff_row total; /* total_cycles */
    int provenance;              /* both runs have one: the rest is known */
    int same_inputs, same_params, same_config, same_build;
    size_t ninputs;
    struct ws_simdiff_input *inputs; /* those that differ */
};

/* Pairs and compares; re may be NULL.  Errors (unplaced: the caller puts
 * them at the command line): no kernel in both runs, or none the filter
 * keeps. */
int ws_simdiff_run(struct ws_simdiff *d, const struct ws_simrun *a,
                   const struct ws_simrun *b, const regex_t *re,
                   struct ws_err *err);

void ws_simdiff_free(struct ws_simdiff *d);

/* Whether a row differs: a side lacks it, or the values are not equal. */
int ws_simdiff_differs(const struct ws_simdiff_row *r);

/* The rows of pair p that differ, of one kind (derived or counters), in
 * the order s shows them, into order (room for p->nrows); their number,
 * or -1 when out of memory. */
long ws_simdiff_order(const struct ws_simdiff_pair *p, int derived,
                      enum ws_cmp_sort s, size_t *order);

#endif
