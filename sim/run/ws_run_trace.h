/*
 * ws_run_trace: what `warpsim trace info` and `trace gen` do with an
 * opened input, short of printing and placing files: every kernel of a
 * trace profiled and every host-to-device copy counted, for the summary;
 * a workload's kernel written out as an Accel-Sim .traceg, read through
 * the front door like any other kernel.
 *
 * Leaves out: the summary's text and JSON (report/ws_info.h), the output
 * files and folders (cli/cmd_trace.c), packing (ws_input_pack).
 */
#ifndef WS_RUN_TRACE_H
#define WS_RUN_TRACE_H

#include <stdio.h>

#include "config/ws_config.h"
#include "input/ws_input.h"
#include "report/ws_info.h"
#include "util/ws_err.h"

/* Fills t->kernels (one profile per kernel), t->nkernels and the copies'
 * count and bytes; t->input and t->gpu_name are the caller's.  On failure
 * t holds nothing to free. */
int ws_run_trace_info(struct ws_input *in, const struct ws_gpu *gpu,
                      struct ws_info_trace *t, struct ws_err *err);
void ws_run_trace_info_free(struct ws_info_trace *t);

/* Writes in's one kernel, a workload's expansion, on fp as a .traceg
 * (header, then every CTA), as tracer version 4 writes it. */
int ws_run_trace_gen(struct ws_input *in, FILE *fp, struct ws_err *err);

#endif
