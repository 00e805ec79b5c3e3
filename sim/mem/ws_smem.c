/*
 * ws_smem: shared-memory banks (see ws_smem.h).
 */
#include "ws_smem.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ws_coalesce.h"

int ws_smem_init(struct ws_smem *s, const struct ws_gpu *g)
{
    memset(s, 0, sizeof *s);
    s->nsm = g->sm.count;
    s->banks = g->shared.banks;
    s->bank_width = (uint32_t)g->shared.bank_width;
    s->latency = g->shared.latency;
    s->sm = ws_calloc_lines(s->nsm, sizeof *s->sm);
    return s->sm ? 0 : -1;
}

void ws_smem_free(struct ws_smem *s)
{
    ws_free_lines(s->sm);
    memset(s, 0, sizeof *s);
}

uint64_t ws_smem_access(struct ws_smem *s, const struct ws_mem_req *q)
{
    struct ws_counters *ctr = q->ctr;
    unsigned wf = ws_shared_wavefronts(q->addrs, q->nlanes, q->width, s->banks,
                                       s->bank_width);
    double start = fmax((double)q->cycle, s->sm[q->sm].free);

    ctr->v[WS_CTR_SHARED_REQUESTS]++;
    ctr->v[WS_CTR_SHARED_WAVEFRONTS] += wf;
    ctr->v[WS_CTR_SHARED_BANK_CONFLICTS] += wf ? wf - 1 : 0;
    s->sm[q->sm].free = start + wf;
    return (uint64_t)ceil(start - 1e-9) + (wf ? wf - 1 : 0) + s->latency;
}
