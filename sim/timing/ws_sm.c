/*
 * ws_sm: an SM's slots, allocated once per simulator (see ws_sm.h).
 */
#include "ws_sm.h"

#include <stdlib.h>
#include <string.h>

int ws_sm_init(struct ws_sm *sm, uint32_t id, const struct ws_gpu *gpu)
{
    memset(sm, 0, sizeof *sm);
    sm->id = id;
    sm->warps = calloc(gpu->sm.max_warps, sizeof *sm->warps);
    sm->slots = calloc(gpu->sm.max_blocks, sizeof *sm->slots);
    sm->sub = calloc(gpu->sm.sub_cores, sizeof *sm->sub);
    if (!sm->warps || !sm->slots || !sm->sub)
        return -1;
    for (uint32_t i = 0; i < gpu->sm.sub_cores; i++)
        sm->sub[i].wake = WS_NEVER;
    return 0;
}

void ws_sm_free(struct ws_sm *sm)
{
    for (uint32_t i = 0; sm->slots && i < sm->nslots; i++) {
        free(sm->slots[i].inst);
        free(sm->slots[i].addrs);
    }
    free(sm->warps);
    free(sm->slots);
    free(sm->sub);
    memset(sm, 0, sizeof *sm);
}
