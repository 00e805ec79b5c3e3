/*
 * ws_smem: shared memory, per SM: banks (shared.banks of
 * shared.bank_width bytes) serving one wavefront per cycle; an access
 * takes one wavefront plus one per extra bank conflict (ws_coalesce.h) and
 * its data is ready shared.latency after its last wavefront starts.
 *
 * Leaves out: the path through the L1's data array it shares on real
 * parts (shared and L1 traffic do not contend here), distributed shared
 * memory.
 */
#ifndef WS_SMEM_H
#define WS_SMEM_H

#include <stdint.h>

#include "config/ws_config.h"
#include "util/ws_cacheline.h"
#include "ws_mem_req.h"

/* An SM's banks: free for a wavefront from.  A line of its own, as each
 * SM's is written by the thread that runs it (util/ws_cacheline.h). */
struct ws_smem_banks {
    _Alignas(WS_CACHELINE) double free;
};

struct ws_smem {
    struct ws_smem_banks *sm; /* [SM] */
    uint32_t nsm, banks, bank_width, latency;
};

int ws_smem_init(struct ws_smem *s, const struct ws_gpu *g);
void ws_smem_free(struct ws_smem *s);

/* A warp's shared-memory access: returns when its data is ready. */
uint64_t ws_smem_access(struct ws_smem *s, const struct ws_mem_req *q);

#endif
