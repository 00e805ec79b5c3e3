/*
 * ws_tracew: writes instruction streams in the Accel-Sim trace format
 * (tracer version 4, no line numbers), so a kernel expanded from a listing
 * can be given to Accel-Sim or read back by warpsim.  Addresses use mode 1
 * (base + stride) when the active lanes form one run with a constant
 * stride, else mode 2 (base + popcount - 1 deltas).  Operands are written
 * as NVBit's tracer records them, so Accel-Sim's parser accepts the file:
 * the first destination register only (readers widen the rest from the
 * opcode) and at most four sources; the immediate is always written.
 *
 * Leaves out: compression (.xz), line numbers, MemcpyHtoD commands.
 */
#ifndef WS_TRACEW_H
#define WS_TRACEW_H

#include <stdio.h>

#include "util/ws_strtab.h"
#include "ws_trace.h"

void ws_tracew_header(FILE *fp, const struct ws_launch *l);
void ws_tracew_cta(FILE *fp, const struct ws_cta_stream *cta,
                   const struct ws_strtab *ops);

#endif
