/*
 * ws_synth: in-memory kernels for the timing-model tests (see ws_synth.h).
 */
#include "ws_synth.h"

#include <stdlib.h>
#include <string.h>

#include "ws_test.h"

/* The library calls back with its generator; the test's takes the
 * ws_synth, which holds it first. */
static void ws_synth_tramp(struct ws_kgen *g, uint32_t cta)
{
    struct ws_synth *k = (struct ws_synth *)(void *)g;

    k->gen(k, cta);
}

void ws_synth_init(struct ws_synth *k, uint32_t ctas, uint32_t threads,
                   ws_synth_gen gen, const void *user)
{
    memset(k, 0, sizeof *k);
    ws_kgen_init(&k->g, ctas, threads, ws_synth_tramp, NULL);
    k->gen = gen;
    k->user = user;
}

void ws_synth_free(struct ws_synth *k)
{
    ws_kgen_free(&k->g);
}

void ws_synth_warp(struct ws_synth *k, uint32_t warp)
{
    ws_kgen_warp(&k->g, warp);
}

struct ws_inst *ws_synth_op(struct ws_synth *k, const char *opcode, int dst,
                            int src0, int src1)
{
    struct ws_inst *in = ws_kgen_op(&k->g, opcode, dst, src0, src1);

    assert_false(k->g.failed);
    return in;
}

struct ws_inst *ws_synth_mem(struct ws_synth *k, const char *opcode, int dst,
                             int src, unsigned lanes, uint64_t base,
                             int64_t stride, unsigned width)
{
    struct ws_inst *in = ws_kgen_mem(&k->g, opcode, dst, src, lanes, base,
                                     stride, width);

    assert_false(k->g.failed);
    return in;
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
    const struct ws_kgen *g = &k->g;
    struct ws_synth_reader *r = calloc(1, sizeof *r);

    (void)err;
    assert_non_null(r);
    r->ninst = ws->ninst;
    r->window = k->stream_window;
    r->inst = malloc((ws->ninst + 1) * sizeof *r->inst);
    r->addrs = malloc((g->naddr + 1) * sizeof *r->addrs);
    assert_non_null(r->inst);
    assert_non_null(r->addrs);
    if (ws->ninst)
        memcpy(r->inst, ws->inst, ws->ninst * sizeof *r->inst);
    if (g->naddr)
        memcpy(r->addrs, g->addrs, g->naddr * sizeof *r->addrs);
    out->ctx = r;
    out->read = ws_synth_read;
    out->close = ws_synth_close;
    return 0;
}

/* The library's source, read whole or (stream_window) streamed: the
 * library hands out whole CTAs, and the readers here cut each warp into
 * windows. */
struct ws_cta_source ws_synth_source(struct ws_synth *k)
{
    struct ws_cta_source src = ws_kgen_source(&k->g);

    /* One context serves both: the ws_synth starts with its ws_kgen. */
    src.ctx = k;
    if (k->stream_window) {
        src.next_header = src.next;
        src.warp_open = ws_synth_open;
    }
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

    src.ctrl = k->ctrl;
    ws_err_clear(&err);
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
