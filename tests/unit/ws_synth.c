/*
 * ws_synth: in-memory kernels for the timing-model tests (see ws_synth.h).
 */
#include "ws_synth.h"

#include <stdlib.h>
#include <string.h>

#include "ws_test.h"

void ws_synth_init(struct ws_synth *k, uint32_t ctas, uint32_t threads,
                   ws_synth_gen gen, const void *user)
{
    memset(k, 0, sizeof *k);
    k->launch.name = "synthetic";
    k->launch.id = 1;
    k->launch.grid[0] = ctas;
    k->launch.grid[1] = k->launch.grid[2] = 1;
    k->launch.block[0] = threads;
    k->launch.block[1] = k->launch.block[2] = 1;
    k->launch.nregs = 32;
    k->launch.sm_version = 70;
    k->launch.trace_version = 5;
    k->gen = gen;
    k->user = user;
    ws_strtab_init(&k->ops);
}

void ws_synth_free(struct ws_synth *k)
{
    ws_strtab_free(&k->ops);
    free(k->inst);
    free(k->addrs);
}

static void ws_synth_close_warp(struct ws_synth *k)
{
    if (k->cur_warp >= 0)
        k->warps[k->cur_warp].ninst = k->ninst - k->first[k->cur_warp];
}

void ws_synth_warp(struct ws_synth *k, uint32_t warp)
{
    ws_synth_close_warp(k);
    k->cur_warp = (int)warp;
    k->first[warp] = k->ninst;
}

static struct ws_inst *ws_synth_push(struct ws_synth *k, const char *opcode)
{
    struct ws_opcode_info info;
    struct ws_inst *in;

    if (k->ninst == k->inst_cap) {
        k->inst_cap = k->inst_cap ? 2 * k->inst_cap : 1024;
        k->inst = realloc(k->inst, k->inst_cap * sizeof *k->inst);
        assert_non_null(k->inst);
    }
    in = &k->inst[k->ninst++];
    memset(in, 0, sizeof *in);
    assert_int_equal(ws_opcode_lookup(opcode, ws_opcode_base_len(opcode), 70,
                                      &info), 1);
    in->op = ws_strtab_intern(&k->ops, opcode, strlen(opcode));
    in->cls = info.cls;
    in->memop = info.memop;
    in->flags = (uint8_t)ws_opcode_semantics(opcode);
    in->mask = 0xffffffffu;
    in->pc = 16 * (k->ninst - 1 - k->first[k->cur_warp]);
    return in;
}

struct ws_inst *ws_synth_op(struct ws_synth *k, const char *opcode, int dst,
                            int src0, int src1)
{
    struct ws_inst *in = ws_synth_push(k, opcode);

    if (dst >= 0)
        in->dst[in->ndst++] = (uint8_t)dst;
    if (src0 >= 0)
        in->src[in->nsrc++] = (uint8_t)src0;
    if (src1 >= 0)
        in->src[in->nsrc++] = (uint8_t)src1;
    return in;
}

struct ws_inst *ws_synth_mem(struct ws_synth *k, const char *opcode, int dst,
                             int src, unsigned lanes, uint64_t base,
                             int64_t stride, unsigned width)
{
    struct ws_inst *in = ws_synth_op(k, opcode, dst, src, -1);

    in->mask = lanes >= 32 ? 0xffffffffu : (1u << lanes) - 1;
    in->width = (uint8_t)width;
    in->space = in->cls == WS_OPC_SHARED ? WS_SPACE_SHARED : WS_SPACE_GLOBAL;
    in->addr = k->naddr;
    for (unsigned l = 0; l < lanes; l++) {
        if (k->naddr == k->addr_cap) {
            k->addr_cap = k->addr_cap ? 2 * k->addr_cap : 4096;
            k->addrs = realloc(k->addrs, k->addr_cap * sizeof *k->addrs);
            assert_non_null(k->addrs);
        }
        k->addrs[k->naddr++] = base + (uint64_t)((int64_t)l * stride);
    }
    return in;
}

static int ws_synth_next(void *ctx, const struct ws_cta_stream **cta,
                         struct ws_err *err)
{
    struct ws_synth *k = ctx;
    uint32_t nw = ws_launch_warps_per_cta(&k->launch);

    (void)err;
    if (k->next_cta == k->launch.grid[0])
        return 0;
    k->ninst = k->naddr = 0;
    k->cur_warp = -1;
    memset(k->warps, 0, sizeof k->warps);
    k->gen(k, k->next_cta);
    ws_synth_close_warp(k);
    for (uint32_t w = 0; w < nw; w++)
        k->warps[w].inst = k->inst + k->first[w];
    k->cta.ctaid[0] = k->next_cta;
    k->cta.linear_id = k->next_cta;
    k->cta.nwarps = nw;
    k->cta.warps = k->warps;
    k->cta.addrs = k->addrs;
    k->cta.ninst = k->ninst;
    k->cta.naddrs = k->naddr;
    k->next_cta++;
    *cta = &k->cta;
    return 1;
}

/* A streamed warp: its own copy of the instructions and addresses, since
 * the generator's buffers hold the CTA being dispatched next. */
struct ws_synth_reader {
    struct ws_inst *inst;
    uint64_t *addrs;
    uint32_t ninst, next, window;
};

static long ws_synth_read(void *ctx, struct ws_inst *inst, size_t cap,
                          uint64_t *addrs, size_t addr_cap, struct ws_err *err)
{
    struct ws_synth_reader *r = ctx;
    size_t n = 0, na = 0;

    (void)err;
    while (n < cap && n < r->window && r->next < r->ninst) {
        struct ws_inst in = r->inst[r->next];
        unsigned lanes = in.width ? (unsigned)__builtin_popcount(in.mask) : 0;
        if (na + lanes > addr_cap)
            break;
        memcpy(addrs + na, r->addrs + in.addr, lanes * sizeof *addrs);
        in.addr = (uint32_t)na;
        na += lanes;
        inst[n++] = in;
        r->next++;
    }
    return (long)n;
}

static void ws_synth_close(void *ctx)
{
    struct ws_synth_reader *r = ctx;

    free(r->inst);
    free(r->addrs);
    free(r);
}

static int ws_synth_open(void *ctx, const struct ws_cta_stream *cta,
                         uint32_t warp, struct ws_warp_reader *out,
                         struct ws_err *err)
{
    struct ws_synth *k = ctx;
    const struct ws_warp_stream *ws = &cta->warps[warp];
    struct ws_synth_reader *r = calloc(1, sizeof *r);

    (void)err;
    assert_non_null(r);
    r->ninst = ws->ninst;
    r->window = k->stream_window;
    r->inst = malloc((ws->ninst + 1) * sizeof *r->inst);
    r->addrs = malloc((k->naddr + 1) * sizeof *r->addrs);
    assert_non_null(r->inst);
    assert_non_null(r->addrs);
    if (ws->ninst)
        memcpy(r->inst, ws->inst, ws->ninst * sizeof *r->inst);
    if (k->naddr)
        memcpy(r->addrs, k->addrs, k->naddr * sizeof *r->addrs);
    out->ctx = r;
    out->read = ws_synth_read;
    out->close = ws_synth_close;
    return 0;
}

struct ws_cta_source ws_synth_source(struct ws_synth *k)
{
    struct ws_cta_source src;

    memset(&src, 0, sizeof src);
    if (k->stream_window) {
        src.next_header = ws_synth_next;
        src.warp_open = ws_synth_open;
    }
    src.origin = "synthetic";
    src.ctx = k;
    src.launch = &k->launch;
    src.ops = &k->ops;
    src.next = ws_synth_next;
    return src;
}

uint64_t ws_synth_run(struct ws_synth *k, const struct ws_gpu *gpu,
                      struct ws_kernel_stats *out)
{
    struct ws_sim sim;
    struct ws_err err;
    struct ws_kernel_stats st;
    struct ws_cta_source src = ws_synth_source(k);
    uint64_t cycles;

    ws_err_clear(&err);
    k->next_cta = 0;
    assert_int_equal(ws_sim_init(&sim, gpu, NULL, &err), 0);
    if (ws_sim_kernel(&sim, &src, &st, &err) < 0)
        fail_msg("simulation failed: %s", err.text);
    cycles = st.ctr.v[WS_CTR_CYCLES];
    if (out)
        *out = st;
    else
        ws_kernel_stats_free(&st);
    ws_sim_free(&sim);
    return cycles;
}
