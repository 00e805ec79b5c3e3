/*
 * ws_roofline_plot: the hierarchical roofline of a run (`warpsim run
 * --roofline FILE.svg`), after Yang et al. ("Hierarchical Roofline
 * Analysis for GPUs", 2020) in the instruction form of Ding & Williams
 * ("An Instruction Roofline Model for GPUs", 2019): each kernel's
 * achieved rate of arithmetic warp instructions against its intensity at
 * L1, L2 and DRAM, one point per level, under the config's ceilings.
 *
 * Warp instructions, not FLOPs: the counters count warp instructions per
 * pipe (stats/ws_stats.h), not the lanes that ran nor whether each was a
 * fused multiply-add, so a FLOP count would be an estimate resting on an
 * assumption; this one is exact.  Counted: the FP32, FP16, FP64 and
 * tensor pipes' warp instructions.  Bytes: L1 global/local sectors x
 * l1.sector, L2 sectors read, written and updated atomically x l2.sector,
 * DRAM bytes read and written.
 *
 * Ceilings, log-log: each pipe's warp-instruction rate (SMs x sub-cores x
 * clock / the unit's issue interval, which is 32 / lanes unless the
 * config sets it), and the bandwidths of DRAM (dram.bandwidth), L2
 * (l2.bandwidth) and L1 (one line request per SM per cycle, the tag pipe
 * of mem/ws_l1.h: SMs x l1.line x clock; the configs give no L1 figure).
 *
 * Leaves out: shared memory and the interconnect as levels, FLOP counts
 * (model/ws_flops.h estimates them for the models from the instruction
 * stream, which a report no longer holds), ceilings below the peaks.
 */
#ifndef WS_ROOFLINE_PLOT_H
#define WS_ROOFLINE_PLOT_H

#include "util/ws_err.h"
#include "ws_report.h"

/* The chart as SVG (malloc'd), or NULL with err set (gnuplot missing or
 * failing, out of memory).  A kernel without arithmetic instructions or
 * cycles has no place on it: it is named in a note under the chart. */
char *ws_roofline_svg(const struct ws_run_report *r, struct ws_err *err);

#endif
