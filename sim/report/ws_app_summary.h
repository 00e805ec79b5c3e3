/*
 * ws_app_summary: a multi-kernel run as a whole application: its kernels
 * grouped by name (launches, cycles, share of the run, mean per launch),
 * busiest first, with the time between kernels (launch overheads) apart
 * from the kernels' own, as Nsight Systems' "CUDA GPU Kernel Summary"
 * shows a real run.  Names are demangled (util/ws_demangle.h) unless the
 * caller asks for them as traced.
 *
 * Leaves out: grouping by anything but the exact traced name (template
 * instances of one kernel stay apart, as they are different code).
 */
#ifndef WS_APP_SUMMARY_H
#define WS_APP_SUMMARY_H

#include <stdio.h>

#include "ws_report.h"

/* The text table; nothing for a run of one kernel. */
void ws_app_summary_text(FILE *out, const struct ws_run_report *r);
struct json_t;
/* The same as a JSON object; NULL when out of memory. */
struct json_t *ws_app_summary_json(const struct ws_run_report *r);

#endif
