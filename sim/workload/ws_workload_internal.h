/*
 * ws_workload_internal: what the two halves of the workload loader share
 * (ws_workload.c: the description; ws_workload_rules.c: per-instruction
 * rules).  Not for use outside workload/.
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

/* Compiles when:, loops:, memory: and the opcode patterns. */
int ws_wl_rules(struct ws_wl_ctx *c);
/* Every guarded EXIT, conditional branch and memory instruction has the
 * rule it needs. */
int ws_wl_complete(struct ws_wl_ctx *c);

#endif
