/*
 * ws_compare_text: the text report of `warpsim compare`: per pair of
 * kernels, each metric's simulated and measured values and their
 * difference (rows by the size of the difference, by name or as the
 * files list them); per metric, MAPE and Pearson's r, and the mean of the
 * MAPEs; the metrics whose definitions differ on the two sides, marked
 * '!' in every table, and why; for an Nsight export, the clocks; why a
 * measured metric is missing where the measurements say (notes); then
 * what was found on one side only.
 *
 * Leaves out: the pairing and statistics (measure/ws_compare.h), JSON and
 * the chart (ws_compare_json.h, ws_compare_plot.h).
 */
#ifndef WS_COMPARE_TEXT_H
#define WS_COMPARE_TEXT_H

#include "measure/ws_compare.h"

/* "apsp #2": a kernel's base name and which launch of it (the report's
 * and the chart's label). */
void ws_compare_label(char *buf, size_t size, const char *base, size_t launch);

/* The whole report as text (malloc'd), rows in the order s asks for;
 * NULL when out of memory. */
char *ws_compare_text(const struct ws_compare *c, enum ws_cmp_sort s);

#endif
