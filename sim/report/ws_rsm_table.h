/*
 * ws_rsm_table: the RSM analysis of a results table (a sweep's CSV, one row
 * per point and kernel), as `warpsim analyze rsm` prints it.
 *
 * Targets (Islam et al., seed 001, eqs 6-8): ts, the kernel time
 * (time_us) normalised by the largest in the table; 1 - ul, the SM idle
 * share (sm_util_pct); score = 1 - alpha / ts, alpha taking alpha[0],
 * alpha[1] or alpha[2] as ul is below 0.5, below 0.8, or above.  The
 * dictionary: every counter column the table has (Nsight and ws__ names,
 * grouped into resources as --json groups them), except those that are
 * the kernel's duration in another unit (elapsed and SM-active cycles,
 * resident warp-cycles), each divided by its largest magnitude within the kernel,
 * as the seed normalises.  Rows whose status is not "ok" are left out; each
 * kernel (the "kernel" column) is analysed on its own rows, as the seed
 * analyses each variant over its inputs.
 *
 * Leaves out: the comparative (variant minus baseline) analysis, which the
 * matmul study forms from two kernels' tables.
 */
#ifndef WS_RSM_TABLE_H
#define WS_RSM_TABLE_H

#include <jansson.h>

#include "util/ws_csv.h"
#include "util/ws_err.h"
#include "analyze/ws_rsm.h"

enum ws_rsm_target {
    WS_RSM_TS,
    WS_RSM_UL,
    WS_RSM_SCORE
};

struct ws_rsm_args {
    enum ws_rsm_target target;
    double alpha[3];
    struct ws_rsm_opts opts;
};

/* The markdown report (malloc'd); with svg non-NULL also a bar chart of
 * RSM per group, one series per kernel (malloc'd SVG, or NULL with the
 * error set); with json non-NULL the RSM as {kernel: {group: rsm}} for the
 * kernels that had enough runs (new reference).  Unplaced errors
 * (ws_err_msg): a missing column, no kernel with three usable rows. */
char *ws_rsm_report(const struct ws_csv *t, const struct ws_rsm_args *a,
                    char **svg, json_t **json, struct ws_err *err);

const char *ws_rsm_target_name(enum ws_rsm_target t);

#endif
