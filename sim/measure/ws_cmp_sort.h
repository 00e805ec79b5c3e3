/*
 * ws_cmp_sort: the order in which a comparison's rows are shown, for
 * `warpsim compare --sort error|name|none`: by the size of the relative
 * difference, largest first (what a reader looks for first), by name, or
 * as the files list them.
 *
 * A difference from 0 (measured 0 and simulated not, or run A 0 and run B
 * not) has no relative size but is larger than any that has: it sorts
 * first.  A row one side lacks has no difference at all: it sorts last.
 * Ties keep the files' order, so the output is the same on every libc.
 *
 * Leaves out: what the rows are (ws_compare.h, ws_simdiff.h) and how they
 * are printed (report/).
 */
#ifndef WS_CMP_SORT_H
#define WS_CMP_SORT_H

#include <stddef.h>

enum ws_cmp_sort {
    WS_CMP_SORT_ERROR, /* |difference %| descending */
    WS_CMP_SORT_NAME,  /* by name, bytewise */
    WS_CMP_SORT_NONE   /* as the files list them */
};

/* The words of --sort, in enum order, for messages and completion. */
#define WS_CMP_SORT_WORDS "error name none"

/* 0 with *s set for "error", "name" or "none"; -1 for anything else. */
int ws_cmp_sort_parse(const char *word, enum ws_cmp_sort *s);
const char *ws_cmp_sort_word(enum ws_cmp_sort s);

/* The sort key of a row whose reference value is ref (measured, or run
 * A's), other the value held against it and pct their difference in
 * percent of |ref| (NAN when undefined): |pct|; INFINITY when ref is 0 and
 * other is not (or the quotient passes a double); NAN when a side lacks
 * the value. */
double ws_cmp_sort_key(double ref, double other, double pct);

/* order[0..n) becomes the row indices in the order s shows them: keys
 * (from ws_cmp_sort_key) descending with NAN last, names bytewise, or
 * 0..n-1.  -1 when out of memory (order then holds 0..n-1). */
int ws_cmp_sort_order(size_t *order, size_t n, const char *const *names,
                      const double *keys, enum ws_cmp_sort s);

#endif
