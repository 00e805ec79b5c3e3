/*
 * ws_workload: a workload description (workload.yaml): which SASS listing
 * and function to run, its parameters, launch geometry, buffers, and for
 * each instruction that the listing alone cannot decide an expression:
 * the lanes for which a guarded instruction's predicate is true, the trip
 * count of a loop, the address each lane touches.  Wang & Lou's "code
 * analysis of cuobjdump output", made executable.
 *
 *   listing: saxpy.sm_80.sass          # relative to this file
 *   function: _Z5saxpy...              # optional with one function
 *   params: {n: 65536, stride: 1}      # defaults; --param n=... overrides
 *   launch: {grid: ["(n + 255) / 256", 1, 1], block: [256, 1, 1],
 *            shared: 0, registers: 16, cluster: [2, 1, 1]}
 *   # cluster: optional (Hopper); CTAs are then handed out cluster by
 *   # cluster, and shared addresses may name a CTA of the cluster by its
 *   # rank in bits 24..31, as MAPA does
 *   buffers: {x: {base: 0x7f0000000000, size: "4 * n * stride"}}
 *   let: {i: "ctaid.x * ntid.x + tid.x"}          # per-lane helpers
 *   when: {"EXIT#1": "i >= n"}                    # guarded instructions
 *   loops: {"BRA#1": {counter: k, trips: "8"}}    # backward branches
 *   memory: {"LDG#1": "x + 4 * i * stride"}       # per-lane addresses
 *
 * Instructions are named by offset ("0x00a0") or by the n-th occurrence of
 * a mnemonic ("LDG#2") or of an opcode with its leading modifiers
 * ("SYNCS.EXCH#3": the third SYNCS.EXCH.anything), which survives
 * recompiling for another SM.  A memory or mbarrier rule may also name
 * every instruction of an opcode ("LDS.128*"): unrolled loops repeat one
 * access with different constant offsets, which its expression reads as
 * `off`.
 *
 * Hopper's asynchronous instructions (ws_workload_tma.c has the syntax):
 * tensors: are TMA tensor maps over buffers, tma: gives each bulk copy
 * (UTMALDG, UTMASTG, UBLKCP ...) its tensor, box coordinates, mbarrier and
 * multicast mask, expanded into the box words of trace/ws_async_op.h;
 * mbarriers: gives SYNCS instructions their immediate (arrival count,
 * transaction bytes, phase parity), as timing/ws_async.h reads it.
 *
 * Leaves out: the expansion itself (ws_expand.c).
 */
#ifndef WS_WORKLOAD_H
#define WS_WORKLOAD_H

#include <stdint.h>

#include "util/ws_yaml.h"
#include "ws_expr.h"
#include "listing/ws_sass.h"
#include "trace/ws_trace.h"

/* Names every expression can use, in slot order. */
enum ws_wl_slot {
    WS_SLOT_TID_X,
    WS_SLOT_TID_Y,
    WS_SLOT_TID_Z,
    WS_SLOT_CTAID_X,
    WS_SLOT_CTAID_Y,
    WS_SLOT_CTAID_Z,
    WS_SLOT_NTID_X,
    WS_SLOT_NTID_Y,
    WS_SLOT_NTID_Z,
    WS_SLOT_NCTAID_X,
    WS_SLOT_NCTAID_Y,
    WS_SLOT_NCTAID_Z,
    WS_SLOT_LANE,
    WS_SLOT_WARP,
    WS_SLOT_OFF, /* the memory operand's constant offset, in bytes */
    WS_SLOT_FIXED
};

/* The first WS_RULE_INDEXED kinds have at most one rule per instruction,
 * found through rule_of; a TMA rule's expressions (WS_RULE_PART) are
 * found through its struct ws_wl_tma. */
enum ws_wl_rule_kind {
    WS_RULE_WHEN,
    WS_RULE_LOOP,
    WS_RULE_MEMORY,
    WS_RULE_IMM, /* mbarriers: the instruction's immediate */
    WS_RULE_INDEXED,
    WS_RULE_PART = WS_RULE_INDEXED
};

/* What an mbarrier rule's value means, and so how it becomes the imm that
 * timing/ws_async.h reads. */
enum ws_wl_imm {
    WS_IMM_COUNT, /* SYNCS.EXCH: arrivals per phase */
    WS_IMM_TX,    /* SYNCS.ARRIVE: expected transaction bytes */
    WS_IMM_PARITY /* SYNCS.PHASECHK: 2 | parity (bit 1: parity known) */
};

struct ws_wl_rule {
    enum ws_wl_rule_kind kind;
    uint32_t inst;       /* index in the function */
    struct ws_expr expr; /* condition, trip count, address or value */
    int counter;         /* loops: the counter's slot */
    uint8_t imm;         /* WS_RULE_IMM: enum ws_wl_imm */
    long line;           /* where the rule is written */
};

/* A TMA tensor map (cuTensorMapEncodeTiled's arguments), innermost
 * dimension first; the box is what one copy moves. */
#define WS_WL_MAX_TENSORS 16
#define WS_WL_TENSOR_DIMS 3

struct ws_wl_tensor {
    char *name;
    uint32_t buffer; /* index in buffers */
    uint32_t elem, ndims;
    int64_t dim[WS_WL_TENSOR_DIMS];     /* elements */
    uint64_t stride[WS_WL_TENSOR_DIMS]; /* bytes; stride[0] is elem */
    uint32_t box[WS_WL_TENSOR_DIMS];    /* elements, 1 past ndims */
};

/* The bytes of a whole box of tensor t, what one copy completes. */
static inline uint64_t ws_wl_box_bytes(const struct ws_wl_tensor *t)
{
    return (uint64_t)t->box[0] * t->elem * t->box[1] * t->box[2];
}

/* A bulk copy's rule: its tensor and the indices in rules of the
 * expressions giving the box's coordinates, mbarrier and multicast mask
 * (-1 when absent). */
struct ws_wl_tma {
    uint32_t inst, tensor;
    int coord[WS_WL_TENSOR_DIMS];
    int mbar, multicast;
    uint8_t kind; /* enum ws_async_kind: a bulk load, store or prefetch */
    long line;
};

#define WS_WL_MAX_LETS 32
#define WS_WL_MAX_COUNTERS 16

struct ws_wl_buffer {
    int slot;
    uint64_t base, size;
};

struct ws_workload {
    char *path;
    long line, col;            /* of the description's top mapping */
    struct ws_trace_opts opts; /* limits: CTAs, instructions */
    struct ws_sass sass;
    const struct ws_sass_func *func;
    struct ws_launch launch;
    struct ws_expr_names names;
    char *name_store[WS_EXPR_MAX_NAMES];
    uint32_t nparams; /* names[0..nparams) are the params, then the rest */
    int64_t param_value[WS_EXPR_MAX_NAMES];
    struct ws_wl_buffer buffers[32];
    uint32_t nbuffers;
    struct ws_expr lets[WS_WL_MAX_LETS];
    int let_slot[WS_WL_MAX_LETS];
    uint32_t nlets;
    struct ws_wl_rule *rules;
    uint32_t nrules;
    int *rule_of; /* per instruction: [kind * ninst + inst] -> rule or -1 */
    struct ws_wl_tensor tensors[WS_WL_MAX_TENSORS];
    uint32_t ntensors;
    struct ws_wl_tma *tmas;
    uint32_t ntmas;
    int *tma_of; /* per instruction: index in tmas or -1 */
    int counters[WS_WL_MAX_COUNTERS];
    uint32_t ncounters;
};

/* Loads path; sets are "name=value" parameter overrides; listing, when not
 * NULL, replaces the file's listing (another SM version's). */
int ws_workload_load(struct ws_workload *w, const char *path,
                     const char *const *sets, int nsets, const char *listing,
                     const struct ws_trace_opts *opts, struct ws_err *err);
void ws_workload_free(struct ws_workload *w);

/* 1 when the instruction transfers control to a target (BRA, JMP). */
int ws_workload_is_jump(const struct ws_workload *w,
                        const struct ws_sass_inst *in);

/* The rule of a kind for instruction i, or NULL.  Inline: expansion asks
 * for every instruction it emits. */
static inline const struct ws_wl_rule *
ws_workload_rule(const struct ws_workload *w, enum ws_wl_rule_kind kind,
                 uint32_t i)
{
    int r = w->rule_of[kind * w->func->ninst + i];

    return r >= 0 ? &w->rules[r] : NULL;
}

/* The TMA rule of instruction i, or NULL. */
static inline const struct ws_wl_tma *
ws_workload_tma(const struct ws_workload *w, uint32_t i)
{
    int t = w->tma_of[i];

    return t >= 0 ? &w->tmas[t] : NULL;
}

#endif
