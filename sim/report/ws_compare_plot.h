/*
 * ws_compare_plot: the chart of `warpsim compare --plot`: simulated
 * against measured on log-log axes, a point per kernel and metric (a
 * colour per metric, or per unit family past a dozen metrics; points
 * only, never joined) beside the line y = x, drawn by gnuplot as SVG.
 *
 * Leaves out: the pairing and statistics (measure/ws_compare.h), the
 * drawing itself (ws_plot.h).
 */
#ifndef WS_COMPARE_PLOT_H
#define WS_COMPARE_PLOT_H

#include "measure/ws_compare.h"
#include "util/ws_err.h"

/* The SVG (malloc'd); NULL with err set when no value is positive on both
 * sides (nothing to draw on log axes), out of memory or gnuplot failed. */
char *ws_compare_svg(const struct ws_compare *c, struct ws_err *err);

#endif
