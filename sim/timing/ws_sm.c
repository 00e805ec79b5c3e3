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
    /* each in lines of its own: the next SM's may be another thread's */
    sm->warps = ws_calloc_lines(gpu->sm.max_warps, sizeof *sm->warps);
    sm->nwarps = sm->warps ? gpu->sm.max_warps : 0;
    sm->slots = ws_calloc_lines(gpu->sm.max_blocks, sizeof *sm->slots);
    sm->sub = ws_calloc_lines(gpu->sm.sub_cores, sizeof *sm->sub);
    sm->nsub = sm->sub ? gpu->sm.sub_cores : 0;
    sm->cand_of = ws_calloc_lines(gpu->sm.max_warps, sizeof *sm->cand_of);
    if (!sm->warps || !sm->slots || !sm->sub || !sm->cand_of)
        return -1;
    for (uint32_t i = 0; i < gpu->sm.max_warps; i++)
        sm->cand_of[i] = WS_NO_CAND;
    for (uint32_t i = 0; i < gpu->sm.sub_cores; i++) {
        sm->sub[i].wake = WS_NEVER;
        sm->sub[i].last_cand = WS_NO_CAND;
        sm->sub[i].cand = ws_calloc_lines(gpu->sm.max_warps / gpu->sm.sub_cores
                                              + 1,
                                          sizeof *sm->sub[i].cand);
        if (!sm->sub[i].cand || ws_icache_init(&sm->sub[i].icache, gpu) < 0)
            return -1;
    }
    return 0;
}

/* Candidates are kept oldest first: greedy-then-oldest takes the first
 * ready one and need not look further. */
static void ws_sm_renumber(struct ws_sm *sm, struct ws_subcore *sc,
                           uint32_t from)
{
    for (uint32_t i = from; i < sc->ncand; i++) {
        sm->cand_of[sc->cand[i].warp] = i;
        if (sc->cand[i].warp == sc->last)
            sc->last_cand = i;
    }
}

void ws_sm_activate(struct ws_sm *sm, uint32_t wi, uint32_t sub_cores)
{
    struct ws_subcore *sc = &sm->sub[wi % sub_cores];
    struct ws_warp *w = &sm->warps[wi];
    uint32_t at = sc->ncand;

    if (sm->cand_of[wi] != WS_NO_CAND)
        return;
    while (at > 0 && sc->cand[at - 1].age > w->age)
        at--;
    memmove(&sc->cand[at + 1], &sc->cand[at],
            (sc->ncand - at) * sizeof *sc->cand);
    sc->ncand++;
    memset(&sc->cand[at], 0, sizeof sc->cand[at]);
    sc->cand[at].warp = wi;
    sc->cand[at].age = w->age;
    ws_sm_renumber(sm, sc, at);
}

void ws_sm_deactivate(struct ws_sm *sm, uint32_t wi, uint32_t sub_cores)
{
    struct ws_subcore *sc = &sm->sub[wi % sub_cores];
    uint32_t at = sm->cand_of[wi];

    if (at == WS_NO_CAND)
        return;
    if (wi == sc->last)
        sc->last_cand = WS_NO_CAND;
    sc->ncand--;
    memmove(&sc->cand[at], &sc->cand[at + 1],
            (sc->ncand - at) * sizeof *sc->cand);
    sm->cand_of[wi] = WS_NO_CAND;
    ws_sm_renumber(sm, sc, at);
}

void ws_sm_warp_close(struct ws_warp *w)
{
    /* no reader, nothing to clear: and a slot never used stays unwritten */
    if (!w->reader.read)
        return;
    if (w->reader.close)
        w->reader.close(w->reader.ctx);
    memset(&w->reader, 0, sizeof w->reader);
}

void ws_sm_free(struct ws_sm *sm)
{
    for (uint32_t i = 0; sm->slots && i < sm->slots_seen; i++) {
        free(sm->slots[i].inst);
        free(sm->slots[i].addrs);
    }
    for (uint32_t i = 0; sm->sub && i < sm->nsub; i++) {
        ws_free_lines(sm->sub[i].cand);
        ws_icache_free(&sm->sub[i].icache);
    }
    for (uint32_t i = 0; sm->warps && i < sm->warps_seen; i++) {
        ws_sm_warp_close(&sm->warps[i]);
        free(sm->warps[i].win);
        free(sm->warps[i].win_addrs);
    }
    ws_free_lines(sm->warps);
    ws_free_lines(sm->slots);
    ws_free_lines(sm->sub);
    ws_free_lines(sm->cand_of);
    memset(sm, 0, sizeof *sm);
}
