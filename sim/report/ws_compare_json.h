/*
 * ws_compare_json: the JSON of `warpsim compare --json`: both sides'
 * paths, formats and kernel counts, the sort and the SM clocks, per pair
 * of kernels every metric's simulated and measured values and difference,
 * per metric MAPE and Pearson's r, where the definitions differ
 * ("mismatch") and the mean of the MAPEs without those, what was found on
 * one side only, and the measurements' notes of metrics left out.
 *
 * Leaves out: the pairing and statistics (measure/ws_compare.h), the text
 * report (ws_compare_text.h), the chart (ws_compare_plot.h).
 */
#ifndef WS_COMPARE_JSON_H
#define WS_COMPARE_JSON_H

#include <jansson.h>

#include "measure/ws_compare.h"

/* The document (kernel: the --kernel filter as typed, NULL when none;
 * rows in the order s asks for); NULL when out of memory. */
json_t *ws_compare_json(const struct ws_compare *c, const char *kernel,
                        enum ws_cmp_sort s);

#endif
