/*
 * ws_expand: a workload description turned into the per-warp dynamic
 * instruction streams a tracer would have recorded, one CTA at a time (the
 * same struct ws_cta_source as the Accel-Sim reader), so a million-CTA
 * launch costs no memory up front.
 *
 * Each warp walks its function from offset 0.  Lanes that disagree at a
 * conditional branch split into paths; the path at the lowest offset runs
 * first and paths meeting at the same offset merge, which reconverges
 * structured control flow (if, if-else, loops) where the compiler's
 * BSSY/BSYNC or SSY/SYNC would.  A guarded instruction's mask is the lanes
 * whose "when" condition holds; a loop's closing branch is taken while the
 * lane's counter + 1 < trips; memory instructions record each active
 * lane's address, which must lie in a declared buffer (or, for shared
 * memory, inside the CTA's shared allocation).
 *
 * Expressions run for all the lanes of a warp at once, as lane programs
 * (ws_expr.h) built when the expander starts.  A let is evaluated again
 * only for the lanes whose inputs moved since (a loop counter advanced,
 * the memory offset changed, a new warp), since each rule reads the lets
 * and most read few counters.  A lane that faults is evaluated again alone
 * by the scalar interpreter, lowest lane first, which gives the message:
 * errors name the same lane, warp and column as evaluating one lane after
 * another would.
 *
 * Limits come from the workload's trace options: a warp may run at most
 * --max-warp-insts instructions and the kernel --max-insts, so a loop that
 * never ends, or a parameter with three zeros too many, is an error naming
 * the flag that raises the limit, not hours of work.  One CTA's streams,
 * held whole, may take at most 2 GiB.
 *
 * Leaves out: indirect branches and calls (BRX, JMX, CALL, RET), which are
 * reported as errors.
 */
#ifndef WS_EXPAND_H
#define WS_EXPAND_H

#include <stdint.h>

#include "trace/ws_ctrl.h"
#include "trace/ws_trace.h"
#include "ws_workload.h"

struct ws_expander {
    const struct ws_workload *w;
    struct ws_inst *tmpl;            /* per static instruction */
    uint32_t *target;                /* branch target index, UINT32_MAX none */
    int64_t *mem_off;                /* memory operand offset, bytes */
    struct ws_expr_lanes *rule_prog; /* per rule of the workload */
    struct ws_expr_lanes let_prog[WS_WL_MAX_LETS];
    uint32_t let_valid[WS_WL_MAX_LETS]; /* lanes whose let value is current */
    uint32_t let_bad[WS_WL_MAX_LETS];   /* of those, the lanes it faulted for */
    /* The lets that read a slot, directly or through other lets. */
    uint32_t slot_lets[WS_EXPR_MAX_NAMES];
    int reads_off; /* an expression reads `off` */
    uint64_t next_cta, ctas;
    uint64_t total; /* warp instructions of the kernel so far */
    int64_t vals[WS_EXPR_MAX_NAMES][WS_EXPR_LANES]; /* [slot][lane] */
    struct ws_inst *inst;
    size_t ninst, inst_cap;
    uint64_t *addrs;
    size_t naddr, addr_cap;
    size_t first[32];
    struct ws_warp_stream warps[32];
    struct ws_cta_stream cta;
    struct ws_ctrl_table ctrl; /* the listing's control bits by PC */
    /* Streaming: the warp whose lane values x->vals holds now, and readers
     * kept for reuse (ws_expand_stream.c). */
    struct ws_expand_reader *cur, *spare;
    int consts_set; /* vals holds the slots no warp changes */
    /* The kernel's limit the walk checks (--max-insts); none in a part's
     * copy, whose reads the main expander counts as they commit. */
    uint64_t max_total;
    /* Readers side by side (ws_cta_source.set_parts): a copy of the
     * expander per part, sharing what building made (templates, programs,
     * control bits) and owning its lane values, buffers and readers; each
     * copy's main is the expander that made it. */
    struct ws_expander **parts, *main;
    unsigned nparts;
};

int ws_expand_init(struct ws_expander *x, const struct ws_workload *w,
                   struct ws_err *err);
void ws_expand_free(struct ws_expander *x);

/* The next CTA, as ws_cta_source.next. */
int ws_expand_next(void *ctx, const struct ws_cta_stream **cta,
                   struct ws_err *err);
struct ws_cta_source ws_expand_source(struct ws_expander *x);

#endif
