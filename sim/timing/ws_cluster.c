/*
 * ws_cluster: thread-block clusters (see ws_cluster.h).
 */
#include "ws_cluster.h"

#include <stdlib.h>
#include <string.h>

#include "ws_cta.h"

void ws_cluster_kernel(struct ws_sim *s)
{
    s->held = NULL;
    s->starved = 0;
    s->clusters_on = 0;
}

/* The table, made at the kernel's first CTA in a cluster: one entry per
 * CTA that can be resident at once. */
static int ws_cluster_table(struct ws_sim *s)
{
    uint32_t n = s->gpu->sm.count * s->k->occ.ctas_per_sm;

    if (s->clusters_on)
        return 0;
    if (n > s->nclusters) {
        struct ws_cluster *c = realloc(s->clusters, n * sizeof *c);
        if (!c)
            return ws_err_oom(s->err);
        s->clusters = c;
        s->nclusters = n;
    }
    memset(s->clusters, 0, s->nclusters * sizeof *s->clusters);
    s->clusters_on = 1;
    return 0;
}

void ws_cluster_free(struct ws_sim *s)
{
    free(s->clusters);
    s->clusters = NULL;
    s->nclusters = 0;
}

/* sm.gpcs 0: one GPC of every SM. */
static uint32_t ws_gpcs(const struct ws_gpu *g)
{
    return g->sm.gpcs ? g->sm.gpcs : 1;
}

static uint32_t ws_gpc_of(const struct ws_gpu *g, uint32_t sm)
{
    return (uint32_t)((uint64_t)sm * ws_gpcs(g) / g->sm.count);
}

static uint32_t ws_cluster_size(const struct ws_launch *l)
{
    return l->cluster[0] * (l->cluster[1] ? l->cluster[1] : 1)
           * (l->cluster[2] ? l->cluster[2] : 1);
}

static struct ws_cluster *ws_cluster_find(struct ws_sim *s, const uint32_t *id)
{
    for (uint32_t i = 0; i < s->nclusters; i++)
        if (s->clusters[i].used && memcmp(s->clusters[i].id, id, 12) == 0)
            return &s->clusters[i];
    return NULL;
}

/* CTA slots of the smallest GPC, all free: the largest cluster that can
 * ever run. */
static uint32_t ws_gpc_capacity(const struct ws_sim *s)
{
    return s->gpu->sm.count / ws_gpcs(s->gpu) * s->k->occ.ctas_per_sm;
}

/* Free CTA slots on the SMs of GPC gpc. */
static uint32_t ws_gpc_room(const struct ws_sim *s, uint32_t gpc)
{
    uint32_t room = 0;

    for (uint32_t i = 0; i < s->gpu->sm.count; i++)
        if (ws_gpc_of(s->gpu, i) == gpc)
            room += s->sms[i].nslots - s->sms[i].resident;
    return room;
}

/* The GPC a new cluster of `need` CTAs starts in: the asker's if the whole
 * cluster fits there, else the one with the most room if it fits there,
 * else none (UINT32_MAX): a cluster launches whole or not at all. */
static uint32_t ws_cluster_gpc(const struct ws_sim *s, uint32_t asker,
                               uint32_t need)
{
    uint32_t gpcs = ws_gpcs(s->gpu);
    uint32_t best = UINT32_MAX, best_room = 0;

    if (ws_gpc_room(s, ws_gpc_of(s->gpu, asker)) >= need)
        return ws_gpc_of(s->gpu, asker);
    for (uint32_t g = 0; g < gpcs; g++) {
        uint32_t room = ws_gpc_room(s, g);
        if (room >= need && room > best_room) {
            best = g;
            best_room = room;
        }
    }
    return best;
}

static struct ws_cluster *
ws_cluster_new(struct ws_sim *s, const struct ws_cta_stream *cta, uint32_t gpc)
{
    struct ws_cluster *c = NULL;

    for (uint32_t i = 0; i < s->nclusters && !c; i++)
        if (!s->clusters[i].used)
            c = &s->clusters[i];
    if (!c) {
        ws_err_msg(s->err, "internal: cluster table full");
        return NULL;
    }
    memset(c, 0, sizeof *c);
    c->used = 1;
    memcpy(c->id, cta->cluster_id, sizeof c->id);
    c->size = ws_cluster_size(s->src->launch);
    c->gpc = gpc;
    return c;
}

int ws_cluster_place(struct ws_sim *s, const struct ws_cta_stream *cta,
                     struct ws_sm *asker, struct ws_sm **to)
{
    const struct ws_gpu *g = s->gpu;
    struct ws_cluster *c;
    uint32_t size = ws_cluster_size(s->src->launch);

    *to = asker;
    s->held = NULL;
    if (!cta->has_cluster)
        return 0;
    if (ws_cluster_table(s) < 0)
        return -1;
    if (cta->cluster_rank >= WS_CLUSTER_MAX_CTAS
        || (size && cta->cluster_rank >= size))
        return ws_err_at(s->err, s->src->origin, 1, 1,
                         "kernel %s: cluster rank %u out of range (expected "
                         "below the cluster's %u CTAs, at most %d)",
                         s->k->name, cta->cluster_rank, size,
                         WS_CLUSTER_MAX_CTAS);
    if (size > ws_gpc_capacity(s))
        return ws_err_at(s->err, s->src->origin, 1, 1,
                         "kernel %s: a cluster of %u CTAs cannot run on %s "
                         "(expected at most %u: %u CTAs per SM on the %u SMs "
                         "of its smallest GPC)",
                         s->k->name, size, g->name, ws_gpc_capacity(s),
                         s->k->occ.ctas_per_sm,
                         ws_gpc_capacity(s) / s->k->occ.ctas_per_sm);
    c = ws_cluster_find(s, cta->cluster_id);
    if (!c) {
        uint32_t gpc = ws_cluster_gpc(s, asker->id, size ? size : 1);
        if (gpc == UINT32_MAX) {
            *to = NULL;
            s->held = cta;
            return 0;
        }
        if (!(c = ws_cluster_new(s, cta, gpc)))
            return -1;
    }
    if (ws_gpc_of(g, asker->id) == c->gpc && ws_sm_has_free_slot(asker))
        return 0;
    *to = NULL;
    for (uint32_t i = 0; i < g->sm.count && !*to; i++)
        if (ws_gpc_of(g, i) == c->gpc && ws_sm_has_free_slot(&s->sms[i]))
            *to = &s->sms[i];
    if (!*to)
        s->held = cta;
    return 0;
}

void ws_cluster_dispatched(struct ws_sim *s, const struct ws_cta_stream *cta,
                           struct ws_sm *sm, uint32_t si)
{
    struct ws_cta_slot *slot = &sm->slots[si];
    struct ws_cluster *c;

    slot->cluster = WS_NO_CLUSTER;
    slot->rank = 0;
    if (!cta->has_cluster || !s->clusters_on
        || !(c = ws_cluster_find(s, cta->cluster_id)))
        return;
    slot->cluster = (uint32_t)(c - s->clusters);
    slot->rank = cta->cluster_rank;
    c->sm[cta->cluster_rank] = sm->id;
    c->slot[cta->cluster_rank] = si;
    c->placed++;
    c->present |= 1u << cta->cluster_rank;
}

void ws_cluster_retired(struct ws_sim *s, struct ws_sm *sm, uint32_t si)
{
    struct ws_cta_slot *slot = &sm->slots[si];
    struct ws_cluster *c;

    if (slot->cluster == WS_NO_CLUSTER)
        return;
    c = &s->clusters[slot->cluster];
    c->ended |= 1u << slot->rank;
    slot->cluster = WS_NO_CLUSTER;
    if (++c->retired == c->placed && (!c->size || c->placed == c->size))
        c->used = 0;
}

/* ---- the cluster barrier ------------------------------------------------ */

/* Warps of the cluster that have not exited; UINT32_MAX while some of its
 * CTAs have not been placed. */
static uint32_t ws_cluster_need(const struct ws_sim *s,
                                const struct ws_cluster *c)
{
    uint32_t need = 0;

    if (c->placed < c->size)
        return UINT32_MAX;
    for (uint32_t r = 0; r < c->size; r++) {
        const struct ws_cta_slot *slot = &s->sms[c->sm[r]].slots[c->slot[r]];
        if (!(c->ended & (1u << r))) /* else its slot may hold another CTA */
            need += slot->nwarps - slot->done;
    }
    return need;
}

static int ws_cluster_release(struct ws_sim *s, struct ws_cluster *c,
                              uint64_t t)
{
    c->arrived = 0;
    c->phase++;
    for (uint32_t r = 0; r < c->size; r++) {
        struct ws_sm *sm = &s->sms[c->sm[r]];
        const struct ws_cta_slot *slot = &sm->slots[c->slot[r]];
        if (c->ended & (1u << r))
            continue;
        for (uint32_t i = 0; i < slot->nwarps; i++) {
            struct ws_warp *x = &sm->warps[slot->warp_slots[i]];
            if (x->state != WS_WARP_WAITING || x->waiting_on != WS_WAIT_CLUSTER
                || x->cga_arrives > c->phase)
                continue;
            x->waiting_on = WS_WAIT_NONE;
            if (ws_cta_wake(s, sm, slot->warp_slots[i], t + 1) < 0)
                return -1;
        }
    }
    return 0;
}

static struct ws_cluster *
ws_cluster_of(struct ws_sim *s, const struct ws_sm *sm, const struct ws_warp *w)
{
    uint32_t ci = sm->slots[w->slot].cluster;

    if (ci == WS_NO_CLUSTER)
        return NULL;
    return s->clusters[ci].size ? &s->clusters[ci] : NULL;
}

int ws_cluster_arrive(struct ws_sim *s, struct ws_sm *sm, uint32_t wi,
                      uint64_t t)
{
    struct ws_warp *w = &sm->warps[wi];
    struct ws_cluster *c = ws_cluster_of(s, sm, w);

    w->cga_arrives++;
    if (!c)
        return 0;
    if (++c->arrived >= ws_cluster_need(s, c))
        return ws_cluster_release(s, c, t);
    return 0;
}

int ws_cluster_warp_exited(struct ws_sim *s, struct ws_sm *sm, uint32_t si,
                           uint64_t t)
{
    uint32_t ci = sm->slots[si].cluster;
    struct ws_cluster *c;

    if (ci == WS_NO_CLUSTER)
        return 0;
    c = &s->clusters[ci];
    if (!c->size || c->arrived == 0 || c->arrived < ws_cluster_need(s, c))
        return 0;
    return ws_cluster_release(s, c, t);
}

int ws_cluster_wait(struct ws_sim *s, struct ws_sm *sm, uint32_t wi, uint64_t t)
{
    struct ws_warp *w = &sm->warps[wi];
    struct ws_cluster *c = ws_cluster_of(s, sm, w);

    if (!c) {
        s->k->ctr.v[WS_CTR_CLUSTER_REPLAYED]++;
        return 0;
    }
    if (c->phase >= w->cga_arrives)
        return 0;
    w->state = WS_WARP_WAITING;
    w->waiting_on = WS_WAIT_CLUSTER;
    w->wait_from = t;
    ws_sm_deactivate(sm, wi, s->gpu->sm.sub_cores);
    return 0;
}

int ws_cluster_peer(const struct ws_sim *s, const struct ws_sm *sm, uint32_t si,
                    uint32_t rank, struct ws_sm **peer_sm, uint32_t *peer_slot)
{
    const struct ws_cta_slot *slot = &sm->slots[si];
    const struct ws_cluster *c;

    *peer_sm = (struct ws_sm *)sm;
    *peer_slot = si;
    if (slot->cluster == WS_NO_CLUSTER)
        return rank == 0 ? 0 : -1; /* a CTA alone is its cluster's rank 0 */
    if (rank == slot->rank)
        return 0;
    c = &s->clusters[slot->cluster];
    if (rank >= WS_CLUSTER_MAX_CTAS || !(c->present & (1u << rank)))
        return -1;
    *peer_sm = &s->sms[c->sm[rank]];
    *peer_slot = c->slot[rank];
    return 0;
}
