/*
 * ws_profile: what a kernel's instruction stream contains, counted without
 * timing: the "code analysis" of the seed papers done from the trace.
 *
 * Instruction mix by class, memory instructions by space with their
 * coalescing (sectors and lines per request for global/local, wavefronts for
 * shared), active lanes, predicated-off instructions, unknown mnemonics.
 * "warpsim trace info" prints it; the analytic models will read their
 * parameters from it, never from the simulator's internals.
 *
 * Leaves out: anything that depends on timing or cache state.
 */
#ifndef WS_PROFILE_H
#define WS_PROFILE_H

#include <stdint.h>

#include "config/ws_config.h"
#include "trace/ws_opcode.h"
#include "trace/ws_trace.h"
#include "util/ws_strtab.h"

struct ws_space_stats {
    uint64_t insts;          /* warp instructions in this space */
    uint64_t loads, stores, atomics;
    uint64_t predicated_off; /* mask 0: issued, no traffic */
    uint64_t lanes;          /* active lanes over the others */
    uint64_t sectors;        /* global/local: 32-byte sectors */
    uint64_t lines;          /* global/local: 128-byte line requests */
    uint64_t wavefronts;     /* shared: bank-conflict wavefronts */
    uint64_t bytes;          /* lanes x width */
};

struct ws_unknown_op {
    char name[32];
    uint64_t count;
};

struct ws_profile {
    char *name;
    struct ws_launch launch;           /* scalars; name and nvbit not owned */
    uint64_t ctas, warps, warp_insts, thread_insts;
    uint64_t by_class[WS_OPC_COUNT];
    struct ws_space_stats space[WS_SPACE_COUNT];
    struct ws_unknown_op *unknown;
    uint32_t nunknown, unknown_cap;
    uint64_t unknown_insts;
    unsigned sector_bytes, line_bytes, banks, bank_width;
};

/* The GPU supplies sector, line and bank geometry. */
int ws_profile_init(struct ws_profile *p, const struct ws_launch *launch,
                    const struct ws_gpu *gpu);
void ws_profile_add_cta(struct ws_profile *p, const struct ws_cta_stream *cta,
                        const struct ws_strtab *ops);
void ws_profile_free(struct ws_profile *p);

double ws_profile_ratio(uint64_t num, uint64_t den);

#endif
