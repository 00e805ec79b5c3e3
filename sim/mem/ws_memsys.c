/*
 * ws_memsys: the memory levels wired together (see ws_memsys.h).  A warp's
 * access is coalesced into sectors, grouped per 128-byte line, and each
 * line goes to its SM's L1 as one request (the config check keeps L1 and
 * L2 lines the same size).
 */
#include "ws_memsys.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/ws_cacheline.h"

/* ---- wiring ------------------------------------------------------------- */

/* Lines of a slice go to its channel; with more channels than slices a
 * slice's lines are spread over the channels it owns. */
static uint32_t ws_memsys_chan_of(const struct ws_memsys *m, uint32_t slice,
                                  uint64_t line)
{
    uint32_t nslice = m->l2.nslice;

    if (nslice >= m->nchan)
        return slice % m->nchan;
    return (slice + nslice * (uint32_t)(line % (m->nchan / nslice))) % m->nchan;
}

/* L2's port to DRAM: r->src is the slice. */
static uint64_t ws_memsys_dram_port(void *ctx, const struct ws_line_req *r,
                                    uint64_t *left)
{
    struct ws_memsys *m = ctx;

    *left = r->t;
    return ws_dram_access(&m->dram, ws_memsys_chan_of(m, r->src, r->line), r);
}

static int ws_memsys_alloc(struct ws_memsys *m, const struct ws_gpu *g)
{
    struct ws_mem_port to_dram = {ws_memsys_dram_port, m};
    struct ws_mem_port to_l2 = {ws_l2_port, &m->l2};
    struct ws_mem_port to_icnt = {ws_icnt_port, &m->icnt};

    if (ws_dram_init(&m->dram, g, m->line_bytes, m->sector_bytes,
                     g->icnt.latency)
            < 0
        || ws_l2_init(&m->l2, g, to_dram) < 0
        || ws_icnt_init(&m->icnt, g, to_l2) < 0
        || ws_smem_init(&m->smem, g) < 0)
        return -1;
    m->l1 = ws_calloc_lines(m->nsm, sizeof *m->l1);
    if (!m->l1)
        return -1;
    for (uint32_t s = 0; s < m->nsm; s++)
        if (ws_l1_init(&m->l1[s], g, to_icnt) < 0)
            return -1;
    return 0;
}

int ws_memsys_init(struct ws_memsys *m, const struct ws_gpu *g)
{
    memset(m, 0, sizeof *m);
    m->gpu = g;
    m->nsm = g->sm.count;
    m->nchan = g->dram.channels;
    m->line_bytes = (uint32_t)g->l2.line;
    m->sector_bytes = (uint32_t)g->l2.sector;
    if (ws_memsys_alloc(m, g) < 0) {
        ws_memsys_free(m);
        return -1;
    }
    return 0;
}

void ws_memsys_free(struct ws_memsys *m)
{
    for (uint32_t s = 0; m->l1 && s < m->nsm; s++)
        ws_l1_free(&m->l1[s]);
    ws_free_lines(m->l1);
    ws_smem_free(&m->smem);
    ws_icnt_free(&m->icnt);
    ws_l2_free(&m->l2);
    ws_dram_free(&m->dram);
    memset(m, 0, sizeof *m);
}

uint64_t ws_mem_drained(const struct ws_memsys *m)
{
    double busy = fmax(ws_dram_drained(&m->dram), ws_l2_busy_until(&m->l2));
    /* A slice still serving the last stores' sectors is still busy: a
     * store returns when its data reaches L2, not when the slice has
     * finished taking it in. */
    uint64_t last = (uint64_t)ceil(busy - 1e-9);

    return last > m->last_done ? last : m->last_done;
}

void ws_memsys_new_kernel(struct ws_memsys *m, uint64_t l1_size)
{
    const struct ws_gpu *g = m->gpu;
    uint32_t sets = (uint32_t)(l1_size / g->l1.line / g->l1.assoc);

    /* A carveout can leave no whole set: the kernel runs without L1. */
    for (uint32_t s = 0; s < m->nsm; s++)
        ws_l1_new_kernel(&m->l1[s], sets, g->l1.enabled);
    m->last_done = 0;
}

/* ---- warp accesses ---------------------------------------------------------- */

uint64_t ws_mem_mshr_ready(struct ws_memsys *m, uint32_t sm, uint64_t t)
{
    return ws_l1_mshr_ready(&m->l1[sm], t);
}

static void ws_max_into(uint64_t *done, uint64_t t)
{
    if (t > *done)
        *done = t;
}

/* The access's sectors, into the scratch buffer. */
static const struct ws_coalesce_result *
ws_mem_coalesce(struct ws_memsys *m, const struct ws_mem_req *q)
{
    ws_mem_sectors(m, q, &m->scratch);
    return &m->scratch;
}

/* The run of coalesced sectors from index i that share one line: returns
 * the index after it, with the line request (line, sector mask, the
 * access's SM, cycle and counters, op). */
static unsigned ws_next_line(const struct ws_memsys *m,
                             const struct ws_coalesce_result *c, unsigned i,
                             const struct ws_mem_req *q, int op,
                             struct ws_line_req *r)
{
    uint64_t line = c->sectors[i] / m->line_bytes;
    unsigned j = i;

    r->line = line;
    r->t = q->cycle;
    r->src = q->sm;
    r->mask = 0;
    r->op = (uint8_t)op;
    r->ops = 0;
    r->ctr = q->ctr;
    for (; j < c->nsectors && c->sectors[j] / m->line_bytes == line; j++)
        r->mask |= (uint8_t)(1u << ((c->sectors[j] - line * m->line_bytes)
                                    / m->sector_bytes));
    return j;
}

void ws_mem_sectors(const struct ws_memsys *m, const struct ws_mem_req *q,
                    struct ws_coalesce_result *c)
{
    ws_coalesce(q->addrs, q->nlanes, q->width, m->sector_bytes, m->line_bytes,
                c);
}

int ws_mem_load_hits(const struct ws_memsys *m, const struct ws_mem_req *q,
                     const struct ws_coalesce_result *c)
{
    struct ws_line_req r;

    for (unsigned i = 0; i < c->nsectors;) {
        i = ws_next_line(m, c, i, q, WS_LINE_READ, &r);
        if (!ws_l1_hits(&m->l1[q->sm], r.line, r.mask))
            return 0;
    }
    return 1;
}

uint64_t ws_mem_load_sectors(struct ws_memsys *m, const struct ws_mem_req *q,
                             const struct ws_coalesce_result *c, int cached)
{
    uint64_t done = q->cycle;
    struct ws_line_req r;

    for (unsigned i = 0; i < c->nsectors;) {
        i = ws_next_line(m, c, i, q, WS_LINE_READ, &r);
        ws_max_into(&done, ws_l1_load(&m->l1[q->sm], &r, cached));
    }
    return done;
}

uint64_t ws_mem_load(struct ws_memsys *m, const struct ws_mem_req *q,
                     int cached)
{
    return ws_mem_load_sectors(m, q, ws_mem_coalesce(m, q), cached);
}

uint64_t ws_mem_bulk(struct ws_memsys *m, uint32_t sm, uint64_t t,
                     uint64_t addr, uint32_t bytes, int write,
                     struct ws_counters *ctr)
{
    struct ws_line_req r;
    uint64_t first = addr / m->sector_bytes;
    uint64_t last = (addr + bytes - 1) / m->sector_bytes;
    uint64_t done;

    r.line = addr / m->line_bytes;
    r.t = t;
    r.src = sm;
    r.mask = 0;
    r.op = (uint8_t)(write ? WS_LINE_WRITE : WS_LINE_READ);
    r.ops = 0;
    r.ctr = ctr;
    for (uint64_t sec = first; sec <= last; sec++) {
        uint64_t k = sec - r.line * (m->line_bytes / m->sector_bytes);
        r.mask |= (uint8_t)(1u << k);
    }
    if (!write)
        return ws_l1_load(&m->l1[sm], &r, 0);
    done = ws_l1_store(&m->l1[sm], &r);
    ws_max_into(&m->last_done, done);
    return done;
}

uint64_t ws_mem_store(struct ws_memsys *m, const struct ws_mem_req *q)
{
    const struct ws_coalesce_result *c = ws_mem_coalesce(m, q);
    uint64_t done = q->cycle;
    struct ws_line_req r;

    for (unsigned i = 0; i < c->nsectors;) {
        i = ws_next_line(m, c, i, q, WS_LINE_WRITE, &r);
        ws_max_into(&done, ws_l1_store(&m->l1[q->sm], &r));
    }
    ws_max_into(&m->last_done, done);
    return done;
}

uint64_t ws_mem_atomic(struct ws_memsys *m, const struct ws_mem_req *q)
{
    const struct ws_coalesce_result *c = ws_mem_coalesce(m, q);
    uint64_t done = q->cycle;
    struct ws_line_req r;

    for (unsigned i = 0; i < c->nsectors;) {
        unsigned ops = 0;
        i = ws_next_line(m, c, i, q, WS_LINE_ATOMIC, &r);
        for (unsigned k = 0; k < q->nlanes; k++)
            ops += q->addrs[k] / m->line_bytes == r.line;
        r.ops = (uint16_t)ops;
        ws_max_into(&done, ws_l1_atomic(&m->l1[q->sm], &r));
    }
    ws_max_into(&m->last_done, done);
    return done;
}

uint64_t ws_mem_shared(struct ws_memsys *m, const struct ws_mem_req *q)
{
    return ws_smem_access(&m->smem, q);
}

void ws_mem_warm_l2(struct ws_memsys *m, uint64_t addr, uint64_t bytes)
{
    ws_l2_warm(&m->l2, addr, bytes);
}
