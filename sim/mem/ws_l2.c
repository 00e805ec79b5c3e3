/*
 * ws_l2: L2 slices (see ws_l2.h).  A request walks: slice input queue ->
 * slice pipe -> tags (hit, merge with an in-flight fill, or miss -> slice
 * MSHR -> the level below); an allocation's dirty victim goes below as a
 * write-back first.
 */
#include "ws_l2.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/ws_bits.h"

static uint64_t ws_l2_ceil(double x)
{
    return (uint64_t)ceil(x - 1e-9);
}

int ws_l2_init(struct ws_l2 *l2, const struct ws_gpu *g,
               struct ws_mem_port below)
{
    uint32_t sets = (uint32_t)(g->l2.size / g->l2.slices / g->l2.line
                               / g->l2.assoc);
    double ghz = g->core_mhz / 1000.0;

    memset(l2, 0, sizeof *l2);
    l2->nslice = g->l2.slices;
    l2->hash = g->l2.hash;
    l2->size = g->l2.size;
    l2->line_bytes = g->l2.line;
    /* GB/s divided by GHz is bytes per core cycle. */
    l2->slice_cps = (double)g->l2.sector
                    / (g->l2.bandwidth / ghz / g->l2.slices);
    l2->access = g->l2.latency - 2 * g->icnt.latency;
    l2->far = g->l2.far_latency > 2 * g->icnt.latency
                  ? g->l2.far_latency - 2 * g->icnt.latency
                  : 0;
    l2->cross = l2->far > l2->access ? (l2->far - l2->access) / 2 : 0;
    l2->nsm = g->sm.count;
    l2->fetch_sectors = g->l2.fetch_granularity > g->l2.sector
                            ? (uint32_t)(g->l2.fetch_granularity / g->l2.sector)
                            : 1;
    l2->below = below;
    l2->slice = calloc(l2->nslice, sizeof *l2->slice);
    if (!l2->slice)
        return -1;
    for (uint32_t s = 0; s < l2->nslice; s++) {
        if (ws_cache_init(&l2->slice[s].tags, sets, g->l2.assoc,
                          (uint32_t)(g->l2.line / g->l2.sector), g->l2.repl)
                < 0
            || ws_mshr_init(&l2->slice[s].mshr, g->l2.mshrs) < 0
            || ws_fifo_init(&l2->slice[s].inq, g->l2.input_queue) < 0) {
            ws_l2_free(l2);
            return -1;
        }
        /* only the far half reads a hit's rank (ws_l2_read) */
        l2->slice[s].tags.ranks = l2->far != 0;
    }
    return 0;
}

void ws_l2_free(struct ws_l2 *l2)
{
    for (uint32_t s = 0; l2->slice && s < l2->nslice; s++) {
        ws_cache_free(&l2->slice[s].tags);
        ws_mshr_free(&l2->slice[s].mshr);
        ws_fifo_free(&l2->slice[s].inq);
    }
    free(l2->slice);
    memset(l2, 0, sizeof *l2);
}

/* XOR-folding the line index spreads power-of-two strides over all slices,
 * which a plain modulo would pile onto a few (the reason real parts hash). */
uint32_t ws_l2_slice_of(const struct ws_l2 *l2, uint64_t line)
{
    uint64_t h = line;

    if (l2->hash == WS_L2_HASH_XOR)
        h = line ^ (line >> 7) ^ (line >> 14) ^ (line >> 21);
    return (uint32_t)(h % l2->nslice);
}

static uint32_t ws_l2_set(const struct ws_l2 *l2, const struct ws_cache *c,
                          uint64_t line)
{
    return (uint32_t)((line / l2->nslice) % c->sets);
}

double ws_l2_busy_until(const struct ws_l2 *l2)
{
    double last = 0.0;

    for (uint32_t s = 0; s < l2->nslice; s++)
        if (l2->slice[s].free > last)
            last = l2->slice[s].free;
    return last;
}

/* Sends a line request of this slice's to the level below. */
static uint64_t ws_l2_below(struct ws_l2 *l2, uint32_t slice, uint64_t line,
                            uint8_t mask, int op, uint64_t t,
                            struct ws_counters *ctr)
{
    struct ws_line_req d = {line, t, slice, mask, (uint8_t)op, 0, ctr};
    uint64_t left;

    return l2->below.access(l2->below.ctx, &d, &left);
}

/* The request enters the slice's input queue when it has room, is served
 * from when the slice is free for `occupy` sector times, and leaves the
 * queue when its service starts; returns the tags' line (allocated, its
 * dirty victim written back) and the service start in *st. */
static struct ws_cache_line *ws_l2_take(struct ws_l2 *l2, uint32_t s,
                                        const struct ws_line_req *r,
                                        unsigned occupy, uint64_t *st,
                                        uint64_t *admitted, uint32_t *rank)
{
    struct ws_l2_slice *sl = &l2->slice[s];
    struct ws_cache_victim v;
    struct ws_cache_line *cl;
    double start;

    *admitted = ws_fifo_admit(&sl->inq, r->t);
    start = fmax((double)*admitted, sl->free);
    sl->free = start + occupy * l2->slice_cps;
    *st = ws_l2_ceil(start);
    ws_fifo_push(&sl->inq, *st);
    cl = ws_cache_fetch(&sl->tags, ws_l2_set(l2, &sl->tags, r->line), r->line,
                        &v);
    if (rank)
        *rank = v.rank;
    if (v.dirty)
        ws_l2_below(l2, s, v.line, v.dirty, WS_LINE_WRITE, *st, r->ctr);
    return cl;
}

/* The sectors a read miss brings from DRAM: each missing sector's
 * aligned block of fetch_sectors (l2.fetch_granularity), less what the
 * line already holds.  The H100 reads 64 bytes for a random 32-byte miss
 * (validate/measured/h100/loaded: ncu's dram__bytes_read is twice the
 * sectors missed; CUDA's cudaLimitMaxL2FetchGranularity reads 64 there),
 * which halves DRAM's useful bandwidth for sparse sectors. */
static uint8_t ws_l2_fetch_mask(const struct ws_l2 *l2, uint8_t miss,
                                uint8_t valid)
{
    uint32_t n = l2->fetch_sectors;
    uint8_t fetch = miss;

    if (n <= 1)
        return miss;
    for (unsigned k = 0; k < 8; k++)
        if (miss >> k & 1)
            fetch |= (uint8_t)(((1u << n) - 1) << (k / n * n));
    return (uint8_t)(fetch & ~valid);
}

/* Whether a miss of SM sm's at slice s goes to the other half's DRAM.
 * H100's two L2 halves each front their own memory controllers; a line
 * homed in the far half crosses between them on the way to DRAM and back.
 * dram.latency is a chase's mean over both kinds of line, so a near miss
 * is `cross` faster and a far one `cross` slower, where 2 cross is the far
 * half's extra for a hit (l2.far_latency - l2.latency). */
static int ws_l2_away(const struct ws_l2 *l2, uint32_t s, uint32_t sm)
{
    if (!l2->cross)
        return 0;
    return (s < l2->nslice / 2) != (sm % l2->nsm < l2->nsm / 2);
}

/* A read or atomic; atomics (ops > sectors) keep the slice busy one cycle
 * per operation. */
static uint64_t ws_l2_read(struct ws_l2 *l2, const struct ws_line_req *r,
                           uint64_t *admitted)
{
    uint32_t s = ws_l2_slice_of(l2, r->line);
    struct ws_l2_slice *sl = &l2->slice[s];
    struct ws_counters *ctr = r->ctr;
    unsigned nsect = ws_popcount32(r->mask);
    uint64_t st, ready, done = 0, hit;
    uint32_t rank;
    struct ws_cache_line *cl = ws_l2_take(l2, s, r,
                                          r->ops > nsect ? r->ops : nsect, &st,
                                          admitted, &rank);
    uint8_t miss = 0;

    /* The far partition (l2.far_latency): H100's L2 is two halves, each
     * keeping what its own SMs use, so a line an SM reuses after more
     * than half the L2's worth of other lines is found in the other half
     * (validate/measured/h100/micro: 285 cycles up to ~24 MiB, 527 from
     * ~30 to 44 MiB, DRAM's 690 beyond 52 MiB).  Under LRU that is a hit
     * ranked in the older half of its set.  Recency is the whole GPU's
     * here, not each half's own SMs': exact for one SM, an approximation
     * when many share lines. */
    hit = l2->far && rank >= sl->tags.assoc / 2 && rank < sl->tags.assoc
              ? l2->far
              : l2->access;

    /* Nsight's lookup sees the tag: a sector present with its fill still
     * in flight is a hit (and waits for the fill), counted apart too. */
    for (unsigned k = 0; k < sl->tags.sectors; k++) {
        if (!(r->mask >> k & 1))
            continue;
        if (cl->valid >> k & 1) {
            ready = st + hit;
            if (cl->fill[k] > ready) {
                ready = cl->fill[k];
                ctr->v[WS_CTR_L2_SECTOR_IN_FLIGHT]++;
            }
            if (ready > done)
                done = ready;
        } else {
            miss |= (uint8_t)(1u << k);
        }
    }
    ctr->v[WS_CTR_L2_SECTOR_MISSES] += ws_popcount32(miss);
    ctr->v[WS_CTR_L2_SECTOR_HITS] += nsect - ws_popcount32(miss);
    if (miss) {
        uint64_t issue = ws_mshr_acquire(&sl->mshr, st);
        uint8_t fetch = ws_l2_fetch_mask(l2, miss, cl->valid);
        ready = ws_l2_below(l2, s, r->line, fetch, WS_LINE_READ, issue, ctr);
        if (ws_l2_away(l2, s, r->src))
            ready += l2->cross;
        else
            ready = ready > issue + l2->cross ? ready - l2->cross : issue;
        ws_mshr_push(&sl->mshr, ready);
        for (unsigned k = 0; k < sl->tags.sectors; k++)
            if (fetch >> k & 1)
                cl->fill[k] = ready;
        cl->valid |= fetch;
        if (ready > done)
            done = ready;
    }
    if (r->op == WS_LINE_ATOMIC)
        cl->dirty |= r->mask;
    return done;
}

/* Write-back, allocate without fetch. */
static uint64_t ws_l2_write(struct ws_l2 *l2, const struct ws_line_req *r,
                            uint64_t *admitted)
{
    uint32_t s = ws_l2_slice_of(l2, r->line);
    struct ws_counters *ctr = r->ctr;
    uint64_t st;
    struct ws_cache_line *cl = ws_l2_take(l2, s, r, ws_popcount32(r->mask), &st,
                                          admitted, NULL);

    ctr->v[WS_CTR_L2_SECTOR_MISSES] += ws_popcount32(r->mask & ~cl->valid);
    ctr->v[WS_CTR_L2_SECTOR_HITS] += ws_popcount32(r->mask & cl->valid);
    for (unsigned k = 0; k < l2->slice[s].tags.sectors; k++)
        if ((r->mask >> k & 1) && (!(cl->valid >> k & 1) || cl->fill[k] < st))
            cl->fill[k] = st;
    cl->valid |= r->mask;
    cl->dirty |= r->mask;
    return st + l2->access;
}

uint64_t ws_l2_access(struct ws_l2 *l2, const struct ws_line_req *r,
                      uint64_t *admitted)
{
    if (r->op == WS_LINE_WRITE)
        return ws_l2_write(l2, r, admitted);
    return ws_l2_read(l2, r, admitted);
}

uint64_t ws_l2_port(void *ctx, const struct ws_line_req *r, uint64_t *left)
{
    return ws_l2_access(ctx, r, left);
}

void ws_l2_warm(struct ws_l2 *l2, uint64_t addr, uint64_t bytes)
{
    uint64_t first, last;

    if (bytes == 0)
        return;
    if (bytes > l2->size) {
        addr += bytes - l2->size;
        bytes = l2->size;
    }
    first = addr / l2->line_bytes;
    last = (addr + bytes - 1) / l2->line_bytes;
    for (uint64_t line = first; line <= last; line++) {
        struct ws_l2_slice *sl = &l2->slice[ws_l2_slice_of(l2, line)];
        struct ws_cache_victim v;
        struct ws_cache_line *cl =
            ws_cache_fetch(&sl->tags, ws_l2_set(l2, &sl->tags, line), line, &v);
        cl->valid = (uint8_t)((1u << sl->tags.sectors) - 1);
    }
}
