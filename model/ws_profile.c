/*
 * ws_profile: counting a kernel's instruction stream (see ws_profile.h).
 */
#include "ws_profile.h"

#include <stdlib.h>
#include <string.h>

#include "mem/ws_coalesce.h"
#include "trace/ws_async_op.h"
#include "util/ws_bits.h"

int ws_profile_init(struct ws_profile *p, const struct ws_launch *launch,
                    const struct ws_gpu *gpu)
{
    memset(p, 0, sizeof *p);
    p->launch = ws_launch_scalars(launch);
    p->name = strdup(launch->name ? launch->name : "?");
    if (!p->name)
        return -1;
    p->sector_bytes = (unsigned)gpu->l2.sector;
    p->line_bytes = (unsigned)gpu->l1.line;
    p->banks = gpu->shared.banks;
    p->bank_width = (unsigned)gpu->shared.bank_width;
    for (int u = 0; u < WS_UNIT_COUNT; u++)
        p->lat_unit[u] = gpu->unit[u].latency;
    p->lat_dram = gpu->dram.latency;
    p->lat_shared = gpu->shared.latency;
    p->lat_const = gpu->l1.latency;
    p->model.warp_insts_min = UINT64_MAX;
    ws_u64set_init(&p->model.read);
    ws_u64set_init(&p->model.written);
    ws_u64set_init(&p->model.write_first);
    return 0;
}

void ws_profile_free(struct ws_profile *p)
{
    free(p->name);
    free(p->unknown);
    ws_u64set_free(&p->model.read);
    ws_u64set_free(&p->model.written);
    ws_u64set_free(&p->model.write_first);
    memset(p, 0, sizeof *p);
}

double ws_profile_ratio(uint64_t num, uint64_t den)
{
    return den ? (double)num / (double)den : 0.0;
}

static void ws_profile_unknown(struct ws_profile *p, const char *op)
{
    size_t blen = ws_opcode_base_len(op);

    p->unknown_insts++;
    if (blen >= sizeof p->unknown[0].name)
        blen = sizeof p->unknown[0].name - 1;
    for (uint32_t i = 0; i < p->nunknown; i++) {
        if (strncmp(p->unknown[i].name, op, blen) == 0
            && p->unknown[i].name[blen] == '\0') {
            p->unknown[i].count++;
            return;
        }
    }
    if (p->nunknown == p->unknown_cap) {
        uint32_t cap = p->unknown_cap ? p->unknown_cap * 2 : 8;
        struct ws_unknown_op *u = realloc(p->unknown, cap * sizeof *u);
        if (!u)
            return; /* the count above still records it */
        p->unknown = u;
        p->unknown_cap = cap;
    }
    memcpy(p->unknown[p->nunknown].name, op, blen);
    p->unknown[p->nunknown].name[blen] = '\0';
    p->unknown[p->nunknown].count = 1;
    p->nunknown++;
}

/* Distinct sectors kept per set: 2^26 sectors are a 2 GiB footprint, and
 * 2048 bitmap pages (8 MiB) hold them when the footprint is dense.  Past
 * either the sets stop growing and the profile says it is incomplete: the
 * roofline then drops its DRAM and L2 roofs (a weaker bound, still a
 * bound) rather than the run growing without limit. */
#define WS_PROFILE_MAX_SECTORS (1u << 26)
#define WS_PROFILE_MAX_PAGES 2048

static void ws_profile_sector(struct ws_profile_model *m, struct ws_u64set *set,
                              uint64_t sector)
{
    if (m->incomplete)
        return;
    if (ws_u64set_add(set, sector) < 0 || set->n > WS_PROFILE_MAX_SECTORS
        || set->npages > WS_PROFILE_MAX_PAGES)
        m->incomplete = 1;
}

/* The sectors a global or local access touches, into the reuse sets. */
static void ws_profile_sectors(struct ws_profile *p, const struct ws_inst *in,
                               const struct ws_coalesce_result *r)
{
    struct ws_profile_model *m = &p->model;
    int reads = in->memop != WS_MEMOP_STORE;
    int writes = in->memop != WS_MEMOP_LOAD && in->memop != WS_MEMOP_ASYNC_COPY;

    for (unsigned k = 0; k < r->nsectors; k++) {
        uint64_t sector = r->sectors[k] / p->sector_bytes;
        if (reads)
            ws_profile_sector(m, &m->read, sector);
        /* Written before any read: a later read finds it in L2, so it is
         * no compulsory DRAM read (the trace's order stands for time). */
        if (writes && !ws_u64set_has(&m->read, sector)
            && !ws_u64set_has(&m->written, sector))
            ws_profile_sector(m, &m->write_first, sector);
        if (writes)
            ws_profile_sector(m, &m->written, sector);
    }
    if (reads)
        m->read_sector_refs += r->nsectors;
    if (writes)
        m->store_sectors += r->nsectors;
}

/* Coalesced, as Hong & Kim count it: no more sectors than the bytes moved
 * need when contiguous, plus one for an access that straddles a boundary.
 * A stride of two words already needs twice as many. */
static void ws_profile_coalescing(struct ws_profile *p,
                                  const struct ws_inst *in, unsigned lanes,
                                  const struct ws_coalesce_result *r)
{
    struct ws_profile_model *m = &p->model;
    uint64_t bytes = (uint64_t)lanes * in->width;
    uint64_t least = (bytes + p->sector_bytes - 1) / p->sector_bytes;

    m->mem_insts++;
    if (r->nsectors <= least + 1) {
        m->coal_insts++;
        m->coal_sectors += r->nsectors;
        m->coal_lines += r->nlines;
    } else {
        m->uncoal_insts++;
        m->uncoal_sectors += r->nsectors;
        m->uncoal_lines += r->nlines;
    }
    if (in->memop == WS_MEMOP_LOAD || in->memop == WS_MEMOP_ASYNC_COPY) {
        m->load_insts++;
        m->load_bytes += bytes;
    }
    ws_profile_sectors(p, in, r);
}

/* One piece of a box row, inside one line: its sectors into the reuse
 * sets, counted in *sectors. */
static void ws_profile_box_piece(struct ws_profile *p, const struct ws_inst *in,
                                 uint64_t a, uint64_t n, uint64_t *sectors)
{
    struct ws_coalesce_result r;
    uint64_t first = a / p->sector_bytes;
    uint64_t last = (a + n - 1) / p->sector_bytes;

    r.nsectors = 0;
    r.nlines = 1;
    for (uint64_t s = first; s <= last && r.nsectors < WS_COALESCE_MAX_SECTORS;
         s++)
        r.sectors[r.nsectors++] = s * p->sector_bytes;
    ws_profile_sectors(p, in, &r);
    *sectors += r.nsectors;
}

/* A bulk (TMA) copy: its box's bytes, sectors and lines, as one perfectly
 * coalesced access (the copy engine asks for whole rows). */
static void ws_profile_box(struct ws_profile *p, const struct ws_inst *in,
                           const uint64_t *addrs, struct ws_space_stats *s)
{
    struct ws_profile_model *m = &p->model;
    struct ws_box b;
    struct ws_box_walk it;
    uint64_t sectors = 0, lines = 0, bytes, a;
    uint32_t n;

    if (ws_box_unpack(addrs + in->addr, WS_BOX_MAX_BYTES, &b) < 0)
        return;
    bytes = ws_box_bytes(&b);
    ws_box_walk_init(&it, &b, p->line_bytes);
    while (ws_box_walk_next(&it, &a, &n)) {
        ws_profile_box_piece(p, in, a, n, &sectors);
        lines++;
    }
    s->lanes++;
    s->bytes += bytes;
    s->sectors += sectors;
    s->lines += lines;
    m->mem_insts++;
    m->coal_insts++;
    m->coal_sectors += sectors;
    m->coal_lines += lines;
    if (in->memop == WS_MEMOP_LOAD) {
        m->load_insts++;
        m->load_bytes += bytes;
    }
}

static void ws_profile_memory(struct ws_profile *p, const struct ws_inst *in,
                              const uint64_t *addrs)
{
    struct ws_space_stats *s = &p->space[in->space];
    unsigned lanes = ws_popcount32(in->mask);

    s->insts++;
    s->loads += in->memop == WS_MEMOP_LOAD || in->memop == WS_MEMOP_ASYNC_COPY;
    s->stores += in->memop == WS_MEMOP_STORE;
    s->atomics += in->memop == WS_MEMOP_ATOMIC
                  || in->memop == WS_MEMOP_REDUCTION;
    if (lanes == 0 || in->width == 0) {
        s->predicated_off += lanes == 0;
        return;
    }
    if ((in->flags & WS_INST_ASYNC) && in->mask == WS_BOX_MASK
        && in->space == WS_SPACE_GLOBAL) {
        ws_profile_box(p, in, addrs, s);
        return;
    }
    s->lanes += lanes;
    s->bytes += (uint64_t)lanes * in->width;
    if (in->space != WS_SPACE_SHARED) {
        struct ws_coalesce_result r;
        ws_coalesce(addrs + in->addr, lanes, in->width, p->sector_bytes,
                    p->line_bytes, &r);
        s->sectors += r.nsectors;
        s->lines += r.nlines;
        if (in->space == WS_SPACE_GLOBAL || in->space == WS_SPACE_LOCAL)
            ws_profile_coalescing(p, in, lanes, &r);
    }
}

/* A memory instruction, for the models: global or local, moving data. */
static int ws_profile_is_mem(const struct ws_inst *in)
{
    return (in->space == WS_SPACE_GLOBAL || in->space == WS_SPACE_LOCAL)
           && in->mask != 0 && in->width != 0;
}

/* Cycles from an instruction's issue to its result, for the dependent
 * chain: the unit's latency, or the memory level a load would wait on when
 * nothing is cached (DRAM for global and local, as a pointer chase pays). */
static double ws_profile_latency(const struct ws_profile *p,
                                 const struct ws_inst *in)
{
    if (in->space == WS_SPACE_SHARED)
        return p->lat_shared;
    if (in->space == WS_SPACE_CONST)
        return p->lat_const;
    if (in->space != WS_SPACE_NONE && in->memop != WS_MEMOP_STORE)
        return p->lat_dram;
    return p->lat_unit[ws_unit_for_class(in->cls)];
}

/* The same link in TMM's time steps (Ma et al., section II.A): an
 * operation, fast (shared) memory included, takes one step; a global
 * access takes L, which the GPU's DRAM latency stands for. */
static double ws_profile_steps(const struct ws_profile *p,
                               const struct ws_inst *in)
{
    if ((in->space == WS_SPACE_GLOBAL || in->space == WS_SPACE_LOCAL)
        && in->memop != WS_MEMOP_STORE)
        return p->lat_dram;
    return 1;
}

/* The start of `in` on both clocks (GPU cycles, TMM's time steps): the
 * end of the longest chain into it, since a source, or a destination
 * written again, waits for its producer.  One walk over the registers for
 * both. */
static void ws_profile_link(const struct ws_profile_warp *pw,
                            const struct ws_inst *in, double *start,
                            double *start_steps)
{
    double a = 0, b = 0;

    for (unsigned k = 0; k < in->nsrc; k++) {
        const struct ws_profile_reg *r = &pw->reg[in->src[k]];
        a = r->ready > a ? r->ready : a;
        b = r->steps > b ? r->steps : b;
    }
    for (unsigned k = 0; k < in->ndst; k++) {
        const struct ws_profile_reg *r = &pw->reg[in->dst[k]];
        a = r->ready > a ? r->ready : a;
        b = r->steps > b ? r->steps : b;
    }
    *start = a;
    *start_steps = b;
}

/* T_inf of one warp: the longest chain through register dependences, each
 * link weighed by its producer's latency (GPU cycles) and, beside it, by
 * TMM's time steps.  Taken a window at a time: the registers' ready times
 * carry over in pw. */
static void ws_profile_span(const struct ws_profile *p,
                            struct ws_profile_warp *pw,
                            const struct ws_inst *insts, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const struct ws_inst *in = &insts[i];
        double end, steps;
        ws_profile_link(pw, in, &end, &steps);
        end += ws_profile_latency(p, in);
        steps += ws_profile_steps(p, in);
        for (unsigned k = 0; k < in->ndst; k++) {
            pw->reg[in->dst[k]].ready = end;
            pw->reg[in->dst[k]].steps = steps;
        }
        if (end > pw->span)
            pw->span = end;
        if (steps > pw->span_steps)
            pw->span_steps = steps;
    }
}

/* Arithmetic operations by pipe (ws_flops.h): a fused multiply-add is two,
 * as every roofline counts it.  The mnemonic is looked at once per opcode
 * in a row: a loop of FFMAs asks the same question millions of times. */
static void ws_profile_flops(struct ws_profile_warp *pw,
                             const struct ws_inst *in,
                             const struct ws_strtab *ops)
{
    struct ws_profile_sums *m = &pw->sums;
    double lanes;

    if (in->cls != WS_OPC_FP32 && in->cls != WS_OPC_FP16
        && in->cls != WS_OPC_FP64 && in->cls != WS_OPC_TENSOR)
        return;
    if (pw->flops_op != in->op + 1) {
        pw->flops_op = in->op + 1;
        ws_flops_of(ws_strtab_str(ops, in->op), in->cls, &pw->flops);
    }
    /* No register source: a compiler idiom (HFMA2.MMA R5, -RZ, RZ, 0, imm
     * loads a constant), not arithmetic. */
    lanes = in->nsrc ? (double)ws_popcount32(in->mask) : 0;
    m->fma_insts[pw->flops.kind] += pw->flops.fma;
    switch (pw->flops.kind) {
    case WS_FLOP_FP32:
        m->flops += lanes * pw->flops.per_lane;
        break;
    case WS_FLOP_FP16:
        m->flops_fp16 += lanes * pw->flops.per_lane;
        break;
    case WS_FLOP_FP64:
        m->flops_fp64 += lanes * pw->flops.per_lane;
        break;
    case WS_FLOP_TENSOR:
        m->flops_tensor += in->mask ? pw->flops.per_warp : 0;
        break;
    default:
        break;
    }
}

/* A warp's sums into the kernel's. */
static void ws_profile_sums_add(struct ws_profile *p,
                                const struct ws_profile_sums *w)
{
    struct ws_profile_model *m = &p->model;

    p->thread_insts += w->thread_insts;
    m->sync_insts += w->sync_insts;
    for (unsigned c = 0; c < WS_OPC_COUNT; c++)
        p->by_class[c] += w->by_class[c];
    for (unsigned k = 0; k < WS_FLOP_KINDS; k++)
        m->fma_insts[k] += w->fma_insts[k];
    m->flops += w->flops;
    m->flops_fp16 += w->flops_fp16;
    m->flops_fp64 += w->flops_fp64;
    m->flops_tensor += w->flops_tensor;
}

void ws_profile_cta(struct ws_profile *p)
{
    p->ctas++;
}

void ws_profile_warp_begin(struct ws_profile *p, struct ws_profile_warp *pw)
{
    (void)p;
    memset(pw, 0, sizeof *pw);
}

void ws_profile_warp_own(const struct ws_profile *p, struct ws_profile_warp *pw,
                         const struct ws_inst *insts, size_t n,
                         const uint64_t *addrs, const struct ws_strtab *ops)
{
    for (size_t i = 0; i < n && !pw->seen_mem; i++) {
        if (ws_profile_is_mem(&insts[i]))
            pw->seen_mem = 1;
        else
            pw->first_comp++;
    }
    /* Sums: the order warps end in does not change the kernel's. */
    pw->count_from = n;
    for (size_t i = 0; i < n; i++) {
        const struct ws_inst *in = &insts[i];
        unsigned lanes = ws_popcount32(in->mask);
        pw->sums.by_class[in->cls]++;
        pw->sums.thread_insts += lanes;
        pw->sums.sync_insts += (in->flags & WS_INST_BAR_SYNC) != 0;
        ws_profile_flops(pw, in, ops);
        if ((in->space != WS_SPACE_NONE || (in->flags & WS_INST_UNKNOWN))
            && pw->count_from == n)
            pw->count_from = i;
        if (in->space == WS_SPACE_SHARED && lanes && in->width)
            pw->wavefronts += ws_shared_wavefronts(addrs + in->addr, lanes,
                                                   in->width, p->banks,
                                                   p->bank_width);
    }
    ws_profile_span(p, pw, insts, n);
    pw->ninst += n;
}

void ws_profile_warp_count(struct ws_profile *p, const struct ws_inst *insts,
                           size_t n, const uint64_t *addrs,
                           const struct ws_strtab *ops)
{
    for (size_t i = 0; i < n; i++) {
        const struct ws_inst *in = &insts[i];
        if (in->flags & WS_INST_UNKNOWN)
            ws_profile_unknown(p, ws_strtab_str(ops, in->op));
        if (in->space != WS_SPACE_NONE)
            ws_profile_memory(p, in, addrs);
    }
}

void ws_profile_warp_add(struct ws_profile *p, struct ws_profile_warp *pw,
                         const struct ws_inst *insts, size_t n,
                         const uint64_t *addrs, const struct ws_strtab *ops)
{
    ws_profile_warp_own(p, pw, insts, n, addrs, ops);
    ws_profile_warp_count(p, insts + pw->count_from, n - pw->count_from, addrs,
                          ops);
}

/* Latencies are whole cycles, so spans are whole numbers and their sum is
 * exact in a double: the order warps end in (a simulation's, for streamed
 * warps) does not change it. */
void ws_profile_warp_end(struct ws_profile *p, struct ws_profile_warp *pw)
{
    struct ws_profile_model *m = &p->model;

    p->space[WS_SPACE_SHARED].wavefronts += pw->wavefronts;
    ws_profile_sums_add(p, &pw->sums);
    if (pw->ninst == 0)
        return;
    p->warps++;
    p->warp_insts += pw->ninst;
    m->first_comp_insts += pw->first_comp;
    if (pw->ninst < m->warp_insts_min)
        m->warp_insts_min = pw->ninst;
    if (pw->ninst > m->warp_insts_max)
        m->warp_insts_max = pw->ninst;
    m->span_sum += pw->span;
    if (pw->span > m->span_max)
        m->span_max = pw->span;
    if (pw->span_steps > m->span_steps_max)
        m->span_steps_max = pw->span_steps;
}

void ws_profile_add_cta(struct ws_profile *p, const struct ws_cta_stream *cta,
                        const struct ws_strtab *ops)
{
    struct ws_profile_warp pw;

    ws_profile_cta(p);
    for (uint32_t w = 0; w < cta->nwarps; w++) {
        const struct ws_warp_stream *ws = &cta->warps[w];
        if (ws->ninst == 0)
            continue;
        ws_profile_warp_begin(p, &pw);
        ws_profile_warp_add(p, &pw, ws->inst, ws->ninst, cta->addrs, ops);
        ws_profile_warp_end(p, &pw);
    }
}

uint64_t ws_profile_compulsory_reads(const struct ws_profile *p)
{
    return ws_u64set_count_not_in(&p->model.read, &p->model.write_first);
}
