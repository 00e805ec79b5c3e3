/*
 * ws_l1: the L1 data cache of one SM (see ws_l1.h).  A request walks: tag
 * pipe -> sectors (hit, merge, miss) -> for the missing sectors an MSHR
 * and the miss queue -> the level below.
 */
#include "ws_l1.h"

#include <math.h>
#include <string.h>

#include "util/ws_bits.h"

static uint64_t ws_l1_ceil(double x)
{
    return (uint64_t)ceil(x - 1e-9);
}

int ws_l1_init(struct ws_l1 *l1, const struct ws_gpu *g,
               struct ws_mem_port below)
{
    uint32_t sets = (uint32_t)(g->l1.size / g->l1.line / g->l1.assoc);

    memset(l1, 0, sizeof *l1);
    l1->on = g->l1.enabled;
    l1->latency = g->l1.latency;
    l1->below = below;
    if (ws_cache_init(&l1->tags, sets, g->l1.assoc,
                      (uint32_t)(g->l1.line / g->l1.sector), g->l1.repl)
            < 0
        || ws_mshr_init(&l1->mshr, g->l1.mshrs) < 0
        || ws_fifo_init(&l1->missq, g->l1.miss_queue) < 0) {
        ws_l1_free(l1);
        return -1;
    }
    return 0;
}

void ws_l1_free(struct ws_l1 *l1)
{
    ws_cache_free(&l1->tags);
    ws_mshr_free(&l1->mshr);
    ws_fifo_free(&l1->missq);
}

void ws_l1_new_kernel(struct ws_l1 *l1, uint32_t sets, int enabled)
{
    l1->on = enabled && sets > 0;
    ws_cache_reshape(&l1->tags, sets);
    ws_mshr_clear(&l1->mshr);
    ws_fifo_clear(&l1->missq);
}

uint64_t ws_l1_mshr_ready(struct ws_l1 *l1, uint64_t t)
{
    return ws_mshr_ready(&l1->mshr, t);
}

/* One line request through the tag pipe: returns its start. */
static uint64_t ws_l1_tag(struct ws_l1 *l1, uint64_t t)
{
    double start = fmax((double)t, l1->tag_free);

    l1->tag_free = start + 1.0;
    return ws_l1_ceil(start);
}

/* A request ready to leave at t enters the miss queue when it has room;
 * while it waits, the tag pipe behind it waits too. */
static uint64_t ws_l1_missq_enter(struct ws_l1 *l1, uint64_t t)
{
    uint64_t enter = ws_fifo_admit(&l1->missq, t);

    if ((double)enter > l1->tag_free)
        l1->tag_free = (double)enter;
    return enter;
}

/* Sends r below from the miss queue at t: returns when it is done; its
 * queue entry is freed when the level below took it. */
static uint64_t ws_l1_send(struct ws_l1 *l1, const struct ws_line_req *r,
                           uint8_t mask, uint64_t t)
{
    struct ws_line_req d = *r;
    uint64_t done, left;

    d.mask = mask;
    d.t = ws_l1_missq_enter(l1, t);
    done = l1->below.access(l1->below.ctx, &d, &left);
    ws_fifo_push(&l1->missq, left);
    return done;
}

/* The sectors of want that hit (valid, or filling) in cl: their latest
 * ready time into *done; returns the ones that miss. */
static uint8_t ws_l1_lookup(struct ws_l1 *l1, const struct ws_cache_line *cl,
                            uint8_t want, uint64_t st, uint64_t *done,
                            struct ws_counters *ctr)
{
    uint8_t miss = 0;

    for (unsigned k = 0; k < l1->tags.sectors; k++) {
        uint64_t ready;
        if (!(want >> k & 1))
            continue;
        if (!(cl->valid >> k & 1)) {
            miss |= (uint8_t)(1u << k);
            continue;
        }
        ready = st + l1->latency;
        ctr->v[WS_CTR_L1_SECTOR_HITS]++;
        if (cl->fill[k] > ready) {
            ready = cl->fill[k];
            ctr->v[WS_CTR_L1_MSHR_MERGES]++;
        }
        if (ready > *done)
            *done = ready;
    }
    return miss;
}

int ws_l1_hits(const struct ws_l1 *l1, uint64_t line, uint8_t mask)
{
    const struct ws_cache_line *cl;

    if (!l1->on)
        return 0;
    cl = ws_cache_peek(&l1->tags, (uint32_t)(line % l1->tags.sets), line);
    return cl && (cl->valid & mask) == mask;
}

uint64_t ws_l1_load(struct ws_l1 *l1, const struct ws_line_req *r, int cached)
{
    struct ws_counters *ctr = r->ctr;
    uint64_t st = ws_l1_tag(l1, r->t), done = 0, issue, ready;
    struct ws_cache_line *cl = NULL;
    struct ws_cache_victim v;
    uint8_t miss = r->mask;
    unsigned n;

    ctr->v[WS_CTR_L1_REQUESTS]++;
    ctr->v[WS_CTR_L1_SECTORS] += ws_popcount32(r->mask);
    ctr->v[WS_CTR_L1_SECTORS_LOAD] += ws_popcount32(r->mask);
    if (cached && l1->on) {
        cl = ws_cache_fetch(&l1->tags, (uint32_t)(r->line % l1->tags.sets),
                            r->line, &v);
        miss = ws_l1_lookup(l1, cl, r->mask, st, &done, ctr);
    }
    /* A load that bypasses L1 misses in it, as Nsight counts it. */
    n = ws_popcount32(miss);
    ctr->v[WS_CTR_L1_SECTOR_MISSES] += n;
    if (!miss)
        return done;
    issue = cl ? ws_mshr_acquire(&l1->mshr, st) : st;
    ctr->v[WS_CTR_L2_SECTORS_READ] += n;
    ready = ws_l1_send(l1, r, miss, issue);
    if (cl) {
        ws_mshr_push(&l1->mshr, ready);
        for (unsigned k = 0; k < l1->tags.sectors; k++)
            if (miss >> k & 1)
                cl->fill[k] = ready;
        cl->valid |= miss;
    }
    return ready > done ? ready : done;
}

uint64_t ws_l1_store(struct ws_l1 *l1, const struct ws_line_req *r)
{
    struct ws_counters *ctr = r->ctr;
    unsigned n = ws_popcount32(r->mask);
    uint64_t st = ws_l1_tag(l1, r->t);
    struct ws_cache_line *cl;

    ctr->v[WS_CTR_L1_REQUESTS]++;
    ctr->v[WS_CTR_L1_SECTORS] += n;
    ctr->v[WS_CTR_L2_SECTORS_WRITE] += n;
    if (l1->on
        && (cl = ws_cache_find(&l1->tags, (uint32_t)(r->line % l1->tags.sets),
                               r->line)))
        for (unsigned k = 0; k < l1->tags.sectors; k++)
            if ((r->mask >> k & 1) && cl->fill[k] < st)
                cl->fill[k] = st;
    return ws_l1_send(l1, r, r->mask, st);
}

uint64_t ws_l1_atomic(struct ws_l1 *l1, const struct ws_line_req *r)
{
    uint64_t st = ws_l1_tag(l1, r->t);

    r->ctr->v[WS_CTR_L2_SECTORS_ATOM] += ws_popcount32(r->mask);
    return ws_l1_send(l1, r, r->mask, st);
}
