/*
 * ws_expand_internal: what the two ways of handing out an expansion share
 * (ws_expand.c: whole CTAs; ws_expand_stream.c: warps a window at a time).
 * Not for use outside sim/workload.
 */
#ifndef WS_EXPAND_INTERNAL_H
#define WS_EXPAND_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "ws_expand.h"

/* A warp's pending paths: lanes waiting at an instruction, the lowest
 * offset first (see ws_expand.h on reconvergence). */
struct ws_path {
    uint32_t idx, mask;
};

struct ws_paths {
    struct ws_path p[33];
    uint32_t n;
};

void ws_paths_add(struct ws_paths *ps, uint32_t idx, uint32_t mask);

/* The lanes of warp w of a block of `threads` threads. */
static inline uint32_t ws_expand_lanes(uint32_t threads, uint32_t w)
{
    uint32_t n = threads - w * 32 < 32 ? threads - w * 32 : 32;

    return n == 32 ? 0xffffffffu : (1u << n) - 1;
}

/* Sets the per-lane values for warp `warp` of CTA ctaid (counters and the
 * memory offset at zero, lets out of date). */
void ws_expand_warp_init(struct ws_expander *x, uint32_t warp,
                         const uint32_t ctaid[3]);
/* Only the lanes' coordinates (thread, CTA, warp): what a streamed warp
 * does not keep across another's turn (ws_expand_stream.c). */
void ws_expand_warp_coords(struct ws_expander *x, uint32_t warp,
                           const uint32_t ctaid[3]);

/* Walks ps, emitting into x->inst / x->addrs, until no path is left or
 * x->ninst reaches inst_cap or fewer than a warp's addresses fit under
 * addr_cap.  *count is the warp's instructions so far (its limit).
 * x->cta.ctaid names the CTA in messages. */
int ws_expand_walk(struct ws_expander *x, uint32_t warp, struct ws_paths *ps,
                   uint64_t *count, size_t inst_cap, size_t addr_cap,
                   struct ws_err *err);

/* The next CTA's identity into x->cta (ctaid, linear id, warps); 0 when
 * every CTA has been handed out. */
int ws_expand_take_cta(struct ws_expander *x);

/* The kernel-size estimate from CTA 0's instruction count. */
int ws_expand_estimate(const struct ws_expander *x, uint64_t cta0,
                       struct ws_err *err);

/* Lane values (ws_expand.c): a slot changed for some lanes, so the lets
 * reading it are out of date there; a rule's value for some lanes, and
 * which of them faulted; the message of a lane that faulted. */
void ws_expand_lets_stale(struct ws_expander *x, int slot, uint32_t lanes);
uint32_t ws_expand_rule_lanes(struct ws_expander *x, const struct ws_wl_rule *r,
                              uint32_t lanes, int64_t *v);
int ws_expand_lane_check(struct ws_expander *x, uint32_t bad, uint32_t lane,
                         const struct ws_expr *e, int64_t *v,
                         struct ws_err *err);

/* Hopper's asynchronous instructions (ws_expand_async.c), for an emitted
 * instruction in with active lanes: a bulk copy's box words (or the copy
 * predicated off, when its box lies wholly outside the tensor), and an
 * mbarrier instruction's immediate. */
int ws_expand_box(struct ws_expander *x, uint32_t idx, struct ws_inst *in,
                  struct ws_err *err);
int ws_expand_imm(struct ws_expander *x, uint32_t idx, struct ws_inst *in,
                  struct ws_err *err);

/* Streaming (ws_expand_stream.c), as ws_cta_source.next_header and
 * ws_cta_source.warp_open. */
int ws_expand_next_header(void *ctx, const struct ws_cta_stream **cta,
                          struct ws_err *err);
int ws_expand_warp_open(void *ctx, const struct ws_cta_stream *cta,
                        uint32_t warp, struct ws_warp_reader *r,
                        struct ws_err *err);
void ws_expand_stream_free(struct ws_expander *x);
int ws_expand_set_parts(void *ctx, unsigned parts, struct ws_err *err);

/* The kernel-wide --max-insts error, when x's total is past it. */
int ws_expand_over_total(const struct ws_expander *x, struct ws_err *err);

#endif
