/*
 * ws_workload_internal: what the parts of the workload loader share
 * (ws_workload.c: the description; ws_workload_rules.c: per-instruction
 * rules; ws_workload_tma.c: tensors and bulk copies).  Not for use outside
 * workload/.
 */
#ifndef WS_WORKLOAD_INTERNAL_H
#define WS_WORKLOAD_INTERNAL_H

#include "ws_workload.h"

struct ws_wl_ctx {
    struct ws_workload *w;
    struct ws_ynode *root;
    struct ws_err *err;
    char *dir;
};

/* An error at node n: "what (expected expected)". */
int ws_wl_bad(struct ws_wl_ctx *c, const struct ws_ynode *n, const char *what,
              const char *expected);

/* Evaluates a parameter-only expression (launch shape, buffer sizes). */
int ws_wl_const(struct ws_wl_ctx *c, const struct ws_ynode *n, int64_t *out);
/* A typo in a key is an error naming the keys expected. */
int ws_wl_only_keys(struct ws_wl_ctx *c, const struct ws_ynode *map,
                    const char *const *keys, const char *what,
                    const char *expected);

/* Compiles when:, loops:, memory:, mbarriers:, the opcode patterns, and
 * (ws_wl_tma_rules) tma:. */
int ws_wl_rules(struct ws_wl_ctx *c);
/* The instruction that rule n's key names. */
int ws_wl_find_inst(struct ws_wl_ctx *c, const struct ws_ynode *n,
                    uint32_t *out);
/* 1 for UTMALDG, UTMASTG, UBLKCP and the other bulk copies. */
int ws_wl_is_bulk(const struct ws_workload *w, const struct ws_sass_inst *in);
/* Compiles expression text (a scalar node) into a WS_RULE_PART rule for
 * instruction inst; its index in rules, or -1. */
int ws_wl_add_part(struct ws_wl_ctx *c, const struct ws_ynode *text,
                   uint32_t inst);

/* tensors: (after buffers:) and tma: (from ws_wl_rules). */
int ws_wl_tensors(struct ws_wl_ctx *c);
int ws_wl_tma_rules(struct ws_wl_ctx *c);
/* Every guarded EXIT, conditional branch and memory instruction has the
 * rule it needs. */
int ws_wl_complete(struct ws_wl_ctx *c);

#endif
