/*
 * ws_async: Hopper's asynchronous pipeline in the timing model: warpgroup
 * MMAs (wgmma) on the SM's tensor pipe with commit groups, mbarriers with
 * phases and transaction bytes, the SM's TMA copy engine, and the
 * warpgroup rendezvous of WARPGROUP.ARRIVE.
 *
 * wgmma: an m64nNkK of a warpgroup splits 16 rows to each of its four
 * warps, and each warp's share runs on one quarter of the SM's tensor pipe
 * (the quarter is the warp's rank in its warpgroup, as a warpgroup's four
 * warps sit on the four sub-cores).  A quarter is held for
 * 16*N*K / (wgmma.macs / 4) cycles at the fp16 rate (tf32 half, fp8/int8
 * twice), at least wgmma.min_interval: N/2 for m64nNk16 on an H100, so
 * one warpgroup reaches the dense peak at any N >= 64 and every warpgroup
 * of the SM shares the same four quarters.  The instruction leaves the
 * warp at once (it is asynchronous); its accumulators are ready
 * wgmma.latency after its turn ends, and only WARPGROUP.DEPBAR waits for
 * them: a wgmma in flight does not hold the next one that accumulates
 * into the same registers (the pipe accumulates in place).  Commit
 * groups: the wgmmas issued since the last WARPGROUP.ARRIVE or DEPBAR form
 * one group (a trace has no operand text, so gsb0 cannot mark them), and
 * DEPBAR.LE gsb0, k waits until at most k groups are in flight.
 *
 * mbarriers: found by shared address in the CTA's table.  SYNCS.EXCH sets
 * the count of arrivals per phase (imm); an arrive counts its active
 * lanes and adds imm transaction bytes; a TMA load adds its bytes when its
 * last byte lands.  A phase completes when it has every arrival and as
 * many bytes landed as expected, at the latest of those times (known when
 * the last contributor issues, as memory is timed by reservation).
 * SYNCS.PHASECHK waits on the parity in imm bit 0 (imm bit 1 says it is
 * known): it returns at once when the barrier's current phase has the
 * other parity, else when the current phase completes.  A wait whose
 * parity a trace does not give is replayed as recorded (the spin loop's
 * iterations as the trace holds them), and counted.
 *
 * TMA: a bulk copy's box (trace/ws_async_op.h) is split into 128-byte
 * line requests the SM's copy engine sends at tma.bytes_per_clk after
 * tma.latency, through the L1's miss path without allocating in L1 (TMA
 * bypasses it), to L2 and DRAM.  Loads complete their bytes on the
 * mbarrier named in the box, on every CTA of the multicast mask; stores
 * are writes nothing waits for; prefetches warm L2.
 *
 * Leaves out: the shared-memory write bandwidth of TMA and its swizzle,
 * out-of-bounds fill (a box is clipped by whoever builds it), a limit on
 * wgmmas queued ahead of the pipe, register-sourced A operands' extra
 * read cost, and setmaxnreg's effect on occupancy.
 */
#ifndef WS_ASYNC_H
#define WS_ASYNC_H

#include <stdint.h>

#include "trace/ws_async_op.h"
#include "ws_sim.h"

/* The decoded kind of in's opcode (in->flags has WS_INST_ASYNC); NULL with
 * s->err set when memory for the cache runs out. */
const struct ws_async_op *ws_async_lookup(struct ws_sim *s, uint32_t op);

/* Whether opcode id op is S2R (a special-register read, which goes down
 * the sub-core's MIO path: timing/ws_issue.c).  Reads the opcode's text
 * and writes nothing, so SMs running side by side may ask it together. */
int ws_async_is_s2r(const struct ws_sim *s, uint32_t op);

/* Times the part of async instruction in (kind a) of warp wi issued at t
 * that happens away from the warp: the tensor pipe, the copy engine, an
 * mbarrier's count.  addr: its first active lane's address (an mbarrier's),
 * 0 when it has none.  1 when that timed the instruction (*done: when its
 * destination registers are ready), 0 when the caller times it as any
 * other, -1 with s->err set (a malformed box). */
int ws_async_exec(struct ws_sim *s, struct ws_sm *sm, uint32_t wi,
                  const struct ws_inst *in, const struct ws_async_op *a,
                  uint64_t addr, uint64_t t, uint64_t *done);

/* After the issue of a wait (an mbarrier wait, WARPGROUP.ARRIVE, a
 * cluster wait) at t: holds warp wi until the condition holds.  mbar is
 * the barrier's shared address (first active lane), imm the instruction's
 * immediate.  0 or -1. */
int ws_async_block(struct ws_sim *s, struct ws_sm *sm, uint32_t wi,
                   const struct ws_async_op *a, uint64_t mbar, int32_t imm,
                   uint64_t t);

/* A shared-memory access of warp w at t to another CTA of its cluster
 * (distributed shared memory, ws_cluster.h): 1 with *done set, 0 when the
 * address is the CTA's own or names no running CTA (then counted). */
int ws_async_dsmem(struct ws_sim *s, struct ws_sm *sm, const struct ws_warp *w,
                   const struct ws_inst *in, uint64_t addr, uint64_t t,
                   uint64_t *done);

/* Counts an instruction of an unknown mnemonic and names it once in the
 * kernel's unknown_ops.  0 or -1 (out of memory). */
int ws_async_unknown(struct ws_sim *s, uint32_t op);

/* Per-kernel state: the opcode cache. */
void ws_async_kernel_reset(struct ws_sim *s);
void ws_async_free(struct ws_sim *s);

#endif
