/*
 * ws_memsys: reservation-based memory timing (see ws_memsys.h).
 *
 * A load walks: coalesce -> per 128-byte line, the L1 tag pipe -> L1
 * sectors (hit, merge with an in-flight fill, or miss) -> for the missing
 * sectors an MSHR, the interconnect, the slice (hit, merge, or miss ->
 * slice MSHR -> DRAM channel) -> the response port back to the SM.
 */
#include "ws_memsys.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/ws_bits.h"

/* ---- MSHR heaps ------------------------------------------------------- */

static int ws_mshr_init(struct ws_mshr *h, uint32_t cap)
{
    h->t = malloc(cap * sizeof *h->t);
    h->n = 0;
    h->cap = cap;
    return h->t ? 0 : -1;
}

static void ws_mshr_sift_down(struct ws_mshr *h, uint32_t i)
{
    for (;;) {
        uint32_t l = 2 * i + 1, r = l + 1, m = i;
        uint64_t tmp;
        if (l < h->n && h->t[l] < h->t[m])
            m = l;
        if (r < h->n && h->t[r] < h->t[m])
            m = r;
        if (m == i)
            return;
        tmp = h->t[i];
        h->t[i] = h->t[m];
        h->t[m] = tmp;
        i = m;
    }
}

static uint64_t ws_mshr_pop(struct ws_mshr *h)
{
    uint64_t top = h->t[0];

    h->t[0] = h->t[--h->n];
    ws_mshr_sift_down(h, 0);
    return top;
}

static void ws_mshr_push(struct ws_mshr *h, uint64_t t)
{
    uint32_t i = h->n++;

    h->t[i] = t;
    while (i > 0 && h->t[(i - 1) / 2] > h->t[i]) {
        uint64_t tmp = h->t[i];
        h->t[i] = h->t[(i - 1) / 2];
        h->t[(i - 1) / 2] = tmp;
        i = (i - 1) / 2;
    }
}

/* Retires entries done by t; returns when one entry is free (>= t). */
static uint64_t ws_mshr_acquire(struct ws_mshr *h, uint64_t t)
{
    while (h->n > 0 && h->t[0] <= t)
        ws_mshr_pop(h);
    if (h->n < h->cap)
        return t;
    return ws_mshr_pop(h);
}

/* ---- bounded FIFOs ----------------------------------------------------- */

static int ws_fifo_init(struct ws_fifo *f, uint32_t cap)
{
    f->t = malloc(cap * sizeof *f->t);
    f->n = f->head = 0;
    f->cap = cap;
    return f->t ? 0 : -1;
}

/* The earliest time >= t at which the FIFO has room. */
static uint64_t ws_fifo_admit(const struct ws_fifo *f, uint64_t t)
{
    if (f->n < f->cap)
        return t;
    return f->t[f->head] > t ? f->t[f->head] : t;
}

/* Records an entry that leaves at `leave`; FIFO order means not before
 * the entry ahead of it. */
static void ws_fifo_push(struct ws_fifo *f, uint64_t leave)
{
    uint32_t last = (f->head + f->n + f->cap - 1) % f->cap;

    if (f->n > 0 && f->t[last] > leave)
        leave = f->t[last];
    if (f->n < f->cap) {
        f->t[(f->head + f->n) % f->cap] = leave;
        f->n++;
    } else {
        f->t[f->head] = leave;
        f->head = (f->head + 1) % f->cap;
    }
}

/* ---- set-up ------------------------------------------------------------ */

static uint64_t ws_ceil(double x)
{
    return (uint64_t)ceil(x - 1e-9);
}

static int ws_memsys_alloc(struct ws_memsys *m, const struct ws_gpu *g)
{
    uint32_t l1_sets = (uint32_t)(g->l1.size / g->l1.line / g->l1.assoc);
    uint32_t l2_sets = (uint32_t)(g->l2.size / g->l2.slices / g->l2.line
                                  / g->l2.assoc);

    m->sm = calloc(m->nsm, sizeof *m->sm);
    m->slice = calloc(m->nslice, sizeof *m->slice);
    if (!m->sm || !m->slice)
        return -1;
    for (uint32_t s = 0; s < m->nsm; s++)
        if (ws_cache_init(&m->sm[s].l1, l1_sets, g->l1.assoc,
                          (uint32_t)(g->l1.line / g->l1.sector)) < 0
            || ws_mshr_init(&m->sm[s].mshr, g->l1.mshrs) < 0
            || ws_fifo_init(&m->sm[s].missq, g->l1.miss_queue) < 0)
            return -1;
    for (uint32_t s = 0; s < m->nslice; s++)
        if (ws_cache_init(&m->slice[s].l2, l2_sets, g->l2.assoc,
                          (uint32_t)(g->l2.line / g->l2.sector)) < 0
            || ws_mshr_init(&m->slice[s].mshr, g->l2.mshrs) < 0
            || ws_fifo_init(&m->slice[s].inq, g->l2.input_queue) < 0)
            return -1;
    return ws_dram_init(&m->dram, g, m->line_bytes, m->sector_bytes,
                        g->icnt.latency);
}

int ws_memsys_init(struct ws_memsys *m, const struct ws_gpu *g)
{
    double ghz = g->core_mhz / 1000.0;

    memset(m, 0, sizeof *m);
    m->gpu = g;
    m->nsm = g->sm.count;
    m->nslice = g->l2.slices;
    m->nchan = g->dram.channels;
    m->l1_on = g->l1.enabled;
    m->line_bytes = (uint32_t)g->l2.line;
    m->l1_line_bytes = (uint32_t)g->l1.line;
    m->sector_bytes = (uint32_t)g->l2.sector;
    /* GB/s divided by GHz is bytes per core cycle. */
    m->port_cps = m->sector_bytes / (g->icnt.bandwidth_per_sm / ghz);
    m->slice_cps = m->sector_bytes / (g->l2.bandwidth / ghz / g->l2.slices);
    m->l2_access = g->l2.latency - 2 * g->icnt.latency;
    if (ws_memsys_alloc(m, g) < 0) {
        ws_memsys_free(m);
        return -1;
    }
    return 0;
}

void ws_memsys_free(struct ws_memsys *m)
{
    for (uint32_t s = 0; m->sm && s < m->nsm; s++) {
        ws_cache_free(&m->sm[s].l1);
        free(m->sm[s].mshr.t);
        free(m->sm[s].missq.t);
    }
    for (uint32_t s = 0; m->slice && s < m->nslice; s++) {
        ws_cache_free(&m->slice[s].l2);
        free(m->slice[s].mshr.t);
        free(m->slice[s].inq.t);
    }
    ws_dram_free(&m->dram);
    free(m->sm);
    free(m->slice);
    memset(m, 0, sizeof *m);
}

uint64_t ws_mem_drained(const struct ws_memsys *m)
{
    double last = ws_dram_drained(&m->dram);

    /* A slice still serving the last stores' sectors is still busy: a
     * store returns when its data reaches L2, not when the slice has
     * finished taking it in. */
    for (uint32_t s = 0; s < m->nslice; s++)
        if (m->slice[s].free > last)
            last = m->slice[s].free;
    return ws_ceil(last);
}

void ws_memsys_new_kernel(struct ws_memsys *m, uint64_t l1_size)
{
    const struct ws_gpu *g = m->gpu;
    uint32_t sets = (uint32_t)(l1_size / g->l1.line / g->l1.assoc);

    /* A carveout can leave no whole set: the kernel runs without L1. */
    m->l1_on = g->l1.enabled && sets > 0;
    /* L1 is not coherent: real parts invalidate it at a kernel boundary. */
    for (uint32_t s = 0; s < m->nsm; s++) {
        ws_cache_reshape(&m->sm[s].l1, sets);
        m->sm[s].mshr.n = 0;
        m->sm[s].missq.n = m->sm[s].missq.head = 0;
    }
}

/* ---- address mapping -------------------------------------------------- */

/* XOR-folding the line index spreads power-of-two strides over all slices,
 * which a plain modulo would pile onto a few (the reason real parts hash). */
static uint32_t ws_slice_of(const struct ws_memsys *m, uint64_t line)
{
    uint64_t h = line;

    if (m->gpu->l2.hash == WS_L2_HASH_XOR)
        h = line ^ (line >> 7) ^ (line >> 14) ^ (line >> 21);
    return (uint32_t)(h % m->nslice);
}

static uint32_t ws_chan_of(const struct ws_memsys *m, uint32_t slice,
                           uint64_t line)
{
    if (m->nslice >= m->nchan)
        return slice % m->nchan;
    return (slice + m->nslice * (uint32_t)(line % (m->nchan / m->nslice)))
           % m->nchan;
}

static uint32_t ws_l2_set(const struct ws_memsys *m, const struct ws_cache *c,
                          uint64_t line)
{
    return (uint32_t)((line / m->nslice) % c->sets);
}

/* ---- DRAM write-backs ------------------------------------------------- */

static void ws_writeback(struct ws_memsys *m, uint32_t slice,
                         const struct ws_cache_victim *v, uint64_t t,
                         struct ws_counters *ctr)
{
    unsigned n = ws_popcount32(v->dirty);

    if (n)
        ws_dram_access(&m->dram, ws_chan_of(m, slice, v->line), t, v->line,
                       n, 1, ctr);
}

/* ---- L2 ---------------------------------------------------------------- */

/* A request arriving at t enters the slice's input queue when it has room
 * (*admitted) and is served from when the slice is free; the caller
 * records its service start as the time it leaves the queue. */
static double ws_slice_take(struct ws_mem_slice *sl, uint64_t t,
                            uint64_t *admitted)
{
    *admitted = ws_fifo_admit(&sl->inq, t);
    return fmax((double)*admitted, sl->free);
}

/* Reads `want` sectors of line at slice arrival time t; returns when the
 * last one is ready at the slice.  Atomics (occupancy > sectors) keep the
 * slice busy for one cycle per operation. */
static uint64_t ws_l2_read(struct ws_memsys *m, uint64_t line, uint8_t want,
                           uint64_t t, unsigned ops, int dirty,
                           struct ws_counters *ctr, uint64_t *admitted)
{
    uint32_t s = ws_slice_of(m, line);
    struct ws_mem_slice *sl = &m->slice[s];
    struct ws_cache_victim v;
    struct ws_cache_line *cl;
    unsigned nsect = ws_popcount32(want);
    double start = ws_slice_take(sl, t, admitted);
    uint64_t st, ready, done = 0;
    uint8_t miss = 0;

    sl->free = start + (ops > nsect ? ops : nsect) * m->slice_cps;
    st = ws_ceil(start);
    ws_fifo_push(&sl->inq, st);
    cl = ws_cache_fetch(&sl->l2, ws_l2_set(m, &sl->l2, line), line, &v);
    ws_writeback(m, s, &v, st, ctr);
    /* Nsight's lookup sees the tag: a sector present with its fill still
     * in flight is a hit (and waits for the fill), counted apart too. */
    for (unsigned k = 0; k < sl->l2.sectors; k++) {
        if (!(want >> k & 1))
            continue;
        if (cl->valid >> k & 1) {
            ready = st + m->l2_access;
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
        ready = ws_dram_access(&m->dram, ws_chan_of(m, s, line), issue, line,
                               ws_popcount32(miss), 0, ctr);
        ws_mshr_push(&sl->mshr, ready);
        for (unsigned k = 0; k < sl->l2.sectors; k++)
            if (miss >> k & 1)
                cl->fill[k] = ready;
        cl->valid |= miss;
        if (ready > done)
            done = ready;
    }
    if (dirty)
        cl->dirty |= want;
    return done;
}

/* Writes sectors of line into L2 (write-back, allocate without fetch). */
static uint64_t ws_l2_write(struct ws_memsys *m, uint64_t line, uint8_t mask,
                            uint64_t t, struct ws_counters *ctr,
                            uint64_t *admitted)
{
    uint32_t s = ws_slice_of(m, line);
    struct ws_mem_slice *sl = &m->slice[s];
    struct ws_cache_victim v;
    struct ws_cache_line *cl;
    unsigned nsect = ws_popcount32(mask);
    double start = ws_slice_take(sl, t, admitted);
    uint64_t st;

    sl->free = start + nsect * m->slice_cps;
    st = ws_ceil(start);
    ws_fifo_push(&sl->inq, st);
    cl = ws_cache_fetch(&sl->l2, ws_l2_set(m, &sl->l2, line), line, &v);
    ws_writeback(m, s, &v, st, ctr);
    ctr->v[WS_CTR_L2_SECTOR_MISSES] += ws_popcount32(mask & ~cl->valid);
    ctr->v[WS_CTR_L2_SECTOR_HITS] += ws_popcount32(mask & cl->valid);
    for (unsigned k = 0; k < sl->l2.sectors; k++)
        if ((mask >> k & 1) && (!(cl->valid >> k & 1) || cl->fill[k] < st))
            cl->fill[k] = st;
    cl->valid |= mask;
    cl->dirty |= mask;
    return st + m->l2_access;
}

/* ---- SM side ----------------------------------------------------------- */

uint64_t ws_mem_mshr_ready(struct ws_memsys *m, uint32_t sm, uint64_t t)
{
    struct ws_mshr *h = &m->sm[sm].mshr;

    while (h->n > 0 && h->t[0] <= t)
        ws_mshr_pop(h);
    return h->n < h->cap ? t : h->t[0];
}

/* One 128-byte line request through the L1 tag pipe: returns its start. */
static uint64_t ws_l1_tag(struct ws_mem_sm *s, uint64_t t)
{
    double start = fmax((double)t, s->tag_free);

    s->tag_free = start + 1.0;
    return ws_ceil(start);
}

/* A request ready to leave the L1 at t enters the miss queue when it has
 * room; while it waits, the L1 pipe behind it waits too. */
static uint64_t ws_missq_enter(struct ws_mem_sm *s, uint64_t t)
{
    uint64_t enter = ws_fifo_admit(&s->missq, t);

    if ((double)enter > s->tag_free)
        s->tag_free = (double)enter;
    return enter;
}

/* The request left the miss queue when its slice admitted it. */
static void ws_missq_leave(struct ws_memsys *m, struct ws_mem_sm *s,
                           uint64_t admitted)
{
    uint64_t icnt = m->gpu->icnt.latency;

    ws_fifo_push(&s->missq, admitted > icnt ? admitted - icnt : 0);
}

/* Data for `nsect` sectors back over the SM's response port. */
static uint64_t ws_response(struct ws_memsys *m, struct ws_mem_sm *s,
                            uint64_t ready_at_slice, unsigned nsect)
{
    double arrive = (double)(ready_at_slice + m->gpu->icnt.latency);
    double start = fmax(arrive, s->resp_free);

    s->resp_free = start + nsect * m->port_cps;
    return ws_ceil(start);
}

static void ws_max_into(uint64_t *done, uint64_t t)
{
    if (t > *done)
        *done = t;
}

/* The run of coalesced sectors from index i that share one line: returns
 * the index after it, with the line and its sector mask. */
static unsigned ws_next_line(const struct ws_memsys *m,
                             const struct ws_coalesce_result *r, unsigned i,
                             uint64_t *line, uint8_t *mask)
{
    unsigned j = i;

    *line = r->sectors[i] / m->line_bytes;
    *mask = 0;
    for (; j < r->nsectors && r->sectors[j] / m->line_bytes == *line; j++)
        *mask |= (uint8_t)(1u << ((r->sectors[j] - *line * m->line_bytes)
                                  / m->sector_bytes));
    return j;
}

/* Loads one line's sectors; returns when they are in the SM. */
static uint64_t ws_load_line(struct ws_memsys *m, uint32_t sm, uint64_t t,
                             uint64_t line, uint8_t want, int cached,
                             struct ws_counters *ctr)
{
    const struct ws_gpu *g = m->gpu;
    struct ws_mem_sm *s = &m->sm[sm];
    uint64_t st = ws_l1_tag(s, t), done = 0, ready;
    struct ws_cache_line *cl = NULL;
    struct ws_cache_victim v;
    uint8_t miss = want;

    ctr->v[WS_CTR_L1_REQUESTS]++;
    ctr->v[WS_CTR_L1_SECTORS] += ws_popcount32(want);
    ctr->v[WS_CTR_L1_SECTORS_LOAD] += ws_popcount32(want);
    if (cached && m->l1_on) {
        cl = ws_cache_fetch(&s->l1, (uint32_t)(line % s->l1.sets), line, &v);
        miss = 0;
        for (unsigned k = 0; k < s->l1.sectors; k++) {
            if (!(want >> k & 1))
                continue;
            if (!(cl->valid >> k & 1)) {
                miss |= (uint8_t)(1u << k);
                continue;
            }
            ready = st + g->l1.latency;
            ctr->v[WS_CTR_L1_SECTOR_HITS]++;
            if (cl->fill[k] > ready) {
                ready = cl->fill[k];
                ctr->v[WS_CTR_L1_MSHR_MERGES]++;
            }
            if (ready > done)
                done = ready;
        }
    }
    /* A load that bypasses L1 misses in it, as Nsight counts it. */
    ctr->v[WS_CTR_L1_SECTOR_MISSES] += ws_popcount32(miss);
    if (!miss)
        return done;
    {
        uint64_t issue = cl ? ws_mshr_acquire(&s->mshr, st) : st, adm;
        unsigned n = ws_popcount32(miss);
        ctr->v[WS_CTR_L2_SECTORS_READ] += n;
        issue = ws_missq_enter(s, issue);
        ready = ws_l2_read(m, line, miss, issue + g->icnt.latency, n, 0, ctr,
                           &adm);
        ws_missq_leave(m, s, adm);
        ready = ws_response(m, s, ready, n);
        if (cl) {
            ws_mshr_push(&s->mshr, ready);
            for (unsigned k = 0; k < s->l1.sectors; k++)
                if (miss >> k & 1)
                    cl->fill[k] = ready;
            cl->valid |= miss;
        }
    }
    return ready > done ? ready : done;
}

/* A warp access goes out as one request per line (the config check keeps
 * L1 and L2 lines the same size). */
/* The access's sectors, into the scratch buffer. */
static const struct ws_coalesce_result *
ws_mem_coalesce(struct ws_memsys *m, const struct ws_mem_req *q)
{
    ws_coalesce(q->addrs, q->nlanes, q->width, m->sector_bytes, m->line_bytes,
                &m->scratch);
    return &m->scratch;
}

uint64_t ws_mem_load(struct ws_memsys *m, const struct ws_mem_req *q,
                     int cached)
{
    const struct ws_coalesce_result *r = ws_mem_coalesce(m, q);
    uint64_t done = q->cycle;

    for (unsigned i = 0, j; i < r->nsectors; i = j) {
        uint64_t line;
        uint8_t mask;
        j = ws_next_line(m, r, i, &line, &mask);
        ws_max_into(&done, ws_load_line(m, q->sm, q->cycle, line, mask,
                                        cached, q->ctr));
    }
    return done;
}

/* Store and atomic data travel over the SM's request port. */
static uint64_t ws_request(struct ws_memsys *m, struct ws_mem_sm *s,
                           uint64_t t, unsigned nsect)
{
    double start = fmax((double)t, s->req_free);

    s->req_free = start + nsect * m->port_cps;
    return ws_ceil(start) + m->gpu->icnt.latency;
}

uint64_t ws_mem_store(struct ws_memsys *m, const struct ws_mem_req *q)
{
    const struct ws_coalesce_result *r = ws_mem_coalesce(m, q);
    struct ws_mem_sm *s = &m->sm[q->sm];
    struct ws_counters *ctr = q->ctr;
    uint64_t t = q->cycle, done = t;

    for (unsigned i = 0, j; i < r->nsectors; i = j) {
        uint64_t line, st, adm;
        uint8_t mask;
        struct ws_cache_line *cl;
        j = ws_next_line(m, r, i, &line, &mask);
        st = ws_l1_tag(s, t);
        ctr->v[WS_CTR_L1_REQUESTS]++;
        ctr->v[WS_CTR_L1_SECTORS] += j - i;
        ctr->v[WS_CTR_L2_SECTORS_WRITE] += j - i;
        /* Write-through, no allocate: a resident L1 copy is updated. */
        if (m->l1_on
            && (cl = ws_cache_find(&s->l1, (uint32_t)(line % s->l1.sets), line)))
            for (unsigned k = 0; k < s->l1.sectors; k++)
                if ((mask >> k & 1) && cl->fill[k] < st)
                    cl->fill[k] = st;
        st = ws_missq_enter(s, st);
        ws_max_into(&done, ws_l2_write(m, line, mask,
                                       ws_request(m, s, st, j - i), ctr,
                                       &adm));
        ws_missq_leave(m, s, adm);
    }
    return done;
}

uint64_t ws_mem_atomic(struct ws_memsys *m, const struct ws_mem_req *q)
{
    const struct ws_coalesce_result *r = ws_mem_coalesce(m, q);
    struct ws_mem_sm *s = &m->sm[q->sm];
    struct ws_counters *ctr = q->ctr;
    uint64_t t = q->cycle, done = t;

    for (unsigned i = 0, j; i < r->nsectors; i = j) {
        uint64_t line, st, ready, adm;
        unsigned ops = 0;
        uint8_t mask;
        j = ws_next_line(m, r, i, &line, &mask);
        for (unsigned k = 0; k < q->nlanes; k++)
            ops += q->addrs[k] / m->line_bytes == line;
        st = ws_l1_tag(s, t);
        ctr->v[WS_CTR_L2_SECTORS_ATOM] += j - i;
        st = ws_missq_enter(s, st);
        ready = ws_l2_read(m, line, mask, ws_request(m, s, st, j - i), ops, 1,
                           ctr, &adm);
        ws_missq_leave(m, s, adm);
        ws_max_into(&done, ws_response(m, s, ready, j - i));
    }
    return done;
}

uint64_t ws_mem_shared(struct ws_memsys *m, const struct ws_mem_req *q)
{
    const struct ws_gpu *g = m->gpu;
    struct ws_mem_sm *s = &m->sm[q->sm];
    struct ws_counters *ctr = q->ctr;
    unsigned wf = ws_shared_wavefronts(q->addrs, q->nlanes, q->width,
                                       g->shared.banks,
                                       (unsigned)g->shared.bank_width);
    double start = fmax((double)q->cycle, s->shared_free);

    ctr->v[WS_CTR_SHARED_REQUESTS]++;
    ctr->v[WS_CTR_SHARED_WAVEFRONTS] += wf;
    ctr->v[WS_CTR_SHARED_BANK_CONFLICTS] += wf ? wf - 1 : 0;
    s->shared_free = start + wf;
    return ws_ceil(start) + (wf ? wf - 1 : 0) + g->shared.latency;
}

void ws_mem_warm_l2(struct ws_memsys *m, uint64_t addr, uint64_t bytes)
{
    uint64_t first, last;

    if (bytes == 0)
        return;
    /* Only the last L2-full of a larger copy can still be resident. */
    if (bytes > m->gpu->l2.size) {
        addr += bytes - m->gpu->l2.size;
        bytes = m->gpu->l2.size;
    }
    first = addr / m->line_bytes;
    last = (addr + bytes - 1) / m->line_bytes;
    for (uint64_t line = first; line <= last; line++) {
        uint32_t s = ws_slice_of(m, line);
        struct ws_cache_victim v;
        struct ws_cache_line *cl = ws_cache_fetch(&m->slice[s].l2,
            ws_l2_set(m, &m->slice[s].l2, line), line, &v);
        cl->valid = (uint8_t)((1u << m->slice[s].l2.sectors) - 1);
    }
}
