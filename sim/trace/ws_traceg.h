/*
 * ws_traceg: reader of one Accel-Sim kernel trace (kernel-N.traceg[.xz|.zst]).
 *
 * Opening reads and checks the header (struct ws_launch); each call to
 * ws_traceg_next_cta then parses one "#BEGIN_TB ... #END_TB" block into a
 * struct ws_cta_stream whose memory is reused by the next call, so a reader
 * holds one CTA at a time whatever the trace's size.  Every departure from the
 * format is an error with file, line and column:
 * the reader never guesses past a corrupt line.  So are a trace with no
 * thread block, a CTA given twice, and a launch or warp over the limits
 * below.  Fewer CTAs than the grid is legal (the tracer skips CTAs that ran
 * nothing) and gets a warning (ws_warn_at) when the trace ends.
 *
 * Versions: before 3 (four-token tb/warp prefix, no mode 2), 3, 4 (line
 * numbers when -enable lineinfo = 1), 5 (trailing immediate) and 6
 * (Accel-Sim 2.0's Hopper tracer: GMMA commit fields, TMA address blocks
 * turned into boxes, register values giving mbarrier immediates,
 * REPLAY_START/REPLAY_END spin regions; ws_traceg_hopper.c).  Address
 * modes 0 (list), 1 (base + stride) and 2 (base + popcount - 1 deltas);
 * TMA blocks 3 (list) and 4 (base + deltas).  A bulk copy in versions
 * 2-5 carries its box as six lane addresses, as `trace gen` writes it.
 *
 * Leaves out: imm2 and out-of-bounds byte counts of version 6, register
 * values other than the mbarrier operands.
 */
#ifndef WS_TRACEG_H
#define WS_TRACEG_H

#include <stddef.h>
#include <stdint.h>

#include "util/ws_err.h"
#include "util/ws_strtab.h"
#include "ws_trace.h"

/* Limits keep one typo in a --param or a header from asking for hours of
 * work or gigabytes of output: a grid of 2^31 CTAs is legal CUDA, but no
 * trace or workload a user means to simulate comes near the defaults.  Each
 * has a command-line flag to raise it, and the error names that flag. */
#define WS_LIMIT_CTAS_DEFAULT (UINT64_C(1) << 24)
#define WS_LIMIT_INSTS_DEFAULT UINT64_C(1000000000)
#define WS_LIMIT_WARP_INSTS_DEFAULT (UINT64_C(1) << 24)

struct ws_trace_opts {
    int unknown_class;       /* enum ws_op_class for unknown mnemonics */
    int allow_unknown_keys;  /* skip unknown "-key = value" header lines */
    uint64_t max_ctas;       /* CTAs in one launch (--max-ctas) */
    uint64_t max_insts;      /* warp instructions in one kernel (--max-insts) */
    uint64_t max_warp_insts; /* warp instructions of one warp
                                 (--max-warp-insts) */
};

void ws_trace_opts_default(struct ws_trace_opts *opts);

struct ws_traceg;

int ws_traceg_open(struct ws_traceg **out, const char *path,
                   const struct ws_trace_opts *opts, struct ws_err *err);

/* The same, over a buffer (fuzz targets, tests); name is used in messages. */
int ws_traceg_open_mem(struct ws_traceg **out, const char *name,
                       const void *data, size_t len,
                       const struct ws_trace_opts *opts, struct ws_err *err);

const struct ws_launch *ws_traceg_launch(const struct ws_traceg *r);

/* 1 and *cta on a CTA, 0 after the last one, -1 on error.  *cta stays valid
 * until the next call. */
int ws_traceg_next_cta(struct ws_traceg *r, const struct ws_cta_stream **cta,
                       struct ws_err *err);

/* The interned opcode strings that ws_inst.op indexes. */
const struct ws_strtab *ws_traceg_opcodes(const struct ws_traceg *r);

/* Bytes the reader holds for CTA streams: it follows the largest CTA read
 * so far, never the number of CTAs (tests check that). */
size_t ws_traceg_footprint(const struct ws_traceg *r);

void ws_traceg_close(struct ws_traceg *r);

#endif
