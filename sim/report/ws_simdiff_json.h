/*
 * ws_simdiff_json: the JSON of `warpsim compare A.json B.json --json`:
 * both runs (path, gpu, input, kernel count, total_cycles, provenance as
 * each file has it), what they have in common ("same": inputs, params,
 * config, build; null when unknown) and the verdict line of the text, the
 * inputs that differ, total_cycles' delta, and per pair of kernels the
 * counters and derived figures that differ (sorted as the text is) with
 * how many are equal; then the kernels of one run only.
 *
 * Leaves out: the pairing and differences (measure/ws_simdiff.h), the text
 * (ws_simdiff_text.h).
 */
#ifndef WS_SIMDIFF_JSON_H
#define WS_SIMDIFF_JSON_H

#include <jansson.h>

#include "measure/ws_simdiff.h"

/* The document (kernel: the --kernel filter as typed, NULL when none);
 * NULL when out of memory. */
json_t *ws_simdiff_json(const struct ws_simdiff *d, const char *kernel,
                        enum ws_cmp_sort s);

#endif
