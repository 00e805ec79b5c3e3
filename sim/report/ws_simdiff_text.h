/*
 * ws_simdiff_text: the text report of `warpsim compare A.json B.json`:
 * both runs with their provenance, one line saying whether they read the
 * same inputs and ran the same config (and which differ), total_cycles,
 * then per pair of kernels the counters and derived figures that differ,
 * A's and B's values, the delta and the delta in percent of A (rows by
 * |delta %|, by name or as the files list them), with how many are equal;
 * then the kernels of one run only.
 *
 * Leaves out: the pairing and the differences (measure/ws_simdiff.h), the
 * JSON (ws_simdiff_json.h).
 */
#ifndef WS_SIMDIFF_TEXT_H
#define WS_SIMDIFF_TEXT_H

#include "measure/ws_simdiff.h"

/* What the two runs have in common, one line (malloc'd; NULL when out of
 * memory): "same inputs; config differs: A h100 with --set
 * dram.bandwidth=x1.5, B h100". */
char *ws_simdiff_verdict(const struct ws_simdiff *d);

/* The whole report (malloc'd), or NULL when out of memory. */
char *ws_simdiff_text(const struct ws_simdiff *d, enum ws_cmp_sort s);

#endif
