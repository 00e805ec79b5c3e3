/*
 * ws_kgen: kernels built in memory (see ws_kgen.h).
 */
#include "ws_kgen.h"

#include <stdlib.h>
#include <string.h>

#include "util/ws_grow.h"
#include "ws_sim.h"

void ws_kgen_init(struct ws_kgen *k, uint32_t ctas, uint32_t threads,
                  ws_kgen_fn gen, const void *user)
{
    memset(k, 0, sizeof *k);
    k->launch.name = "generated";
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
    k->cur_warp = -1;
    ws_strtab_init(&k->ops);
}

void ws_kgen_free(struct ws_kgen *k)
{
    ws_strtab_free(&k->ops);
    free(k->inst);
    free(k->addrs);
}

static void ws_kgen_close_warp(struct ws_kgen *k)
{
    if (k->cur_warp >= 0)
        k->warps[k->cur_warp].ninst = k->ninst - k->first[k->cur_warp];
}

void ws_kgen_warp(struct ws_kgen *k, uint32_t warp)
{
    ws_kgen_close_warp(k);
    k->cur_warp = (int)(warp < 32 ? warp : 31);
    k->first[k->cur_warp] = k->ninst;
}

static struct ws_inst *ws_kgen_fail(struct ws_kgen *k)
{
    k->failed = 1;
    memset(&k->spare, 0, sizeof k->spare);
    return &k->spare;
}

static struct ws_inst *ws_kgen_push(struct ws_kgen *k, const char *opcode)
{
    struct ws_opcode_info info;
    struct ws_inst *in;

    if (k->cur_warp < 0
        || ws_grow((void **)&k->inst, &k->inst_cap, (size_t)k->ninst + 1,
                   sizeof *k->inst, 1024)
               < 0
        || ws_opcode_lookup(opcode, ws_opcode_base_len(opcode),
                            k->launch.sm_version, &info)
               != 1)
        return ws_kgen_fail(k);
    in = &k->inst[k->ninst++];
    memset(in, 0, sizeof *in);
    in->op = ws_strtab_intern(&k->ops, opcode, strlen(opcode));
    in->cls = info.cls;
    in->memop = info.memop;
    in->flags = (uint8_t)ws_opcode_semantics(opcode);
    in->mask = 0xffffffffu;
    in->pc = 16 * (k->ninst - 1 - k->first[k->cur_warp]);
    return in;
}

struct ws_inst *ws_kgen_op(struct ws_kgen *k, const char *opcode, int dst,
                           int src0, int src1)
{
    struct ws_inst *in = ws_kgen_push(k, opcode);

    if (dst >= 0)
        in->dst[in->ndst++] = (uint8_t)dst;
    if (src0 >= 0)
        in->src[in->nsrc++] = (uint8_t)src0;
    if (src1 >= 0)
        in->src[in->nsrc++] = (uint8_t)src1;
    return in;
}

struct ws_inst *ws_kgen_mem(struct ws_kgen *k, const char *opcode, int dst,
                            int src, unsigned lanes, uint64_t base,
                            int64_t stride, unsigned width)
{
    struct ws_inst *in = ws_kgen_op(k, opcode, dst, src, -1);

    if (in == &k->spare)
        return in;
    in->mask = lanes >= 32 ? 0xffffffffu : (1u << lanes) - 1;
    in->width = (uint8_t)width;
    in->space = in->cls == WS_OPC_SHARED ? WS_SPACE_SHARED : WS_SPACE_GLOBAL;
    in->addr = k->naddr;
    if (ws_grow((void **)&k->addrs, &k->addr_cap,
                (size_t)k->naddr + (lanes < 32 ? lanes : 32), sizeof *k->addrs,
                4096)
        < 0)
        return ws_kgen_fail(k);
    for (unsigned l = 0; l < lanes && l < 32; l++)
        k->addrs[k->naddr++] = base + (uint64_t)((int64_t)l * stride);
    return in;
}

static int ws_kgen_next(void *ctx, const struct ws_cta_stream **cta,
                        struct ws_err *err)
{
    struct ws_kgen *k = ctx;
    uint32_t nw = ws_launch_warps_per_cta(&k->launch);

    if (k->next_cta == k->launch.grid[0])
        return 0;
    k->ninst = k->naddr = 0;
    k->cur_warp = -1;
    memset(k->warps, 0, sizeof k->warps);
    k->gen(k, k->next_cta);
    ws_kgen_close_warp(k);
    if (k->failed || nw > 32)
        return ws_err_msg(err, "a generated kernel could not be built "
                               "(out of memory, or an unknown opcode)");
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

struct ws_cta_source ws_kgen_source(struct ws_kgen *k)
{
    struct ws_cta_source src;

    memset(&src, 0, sizeof src);
    k->next_cta = 0;
    src.origin = "generated";
    src.ctx = k;
    src.launch = &k->launch;
    src.ops = &k->ops;
    src.next = ws_kgen_next;
    return src;
}

int64_t ws_kgen_run(struct ws_kgen *k, struct ws_sim *sim,
                    struct ws_kernel_stats *out, struct ws_err *err)
{
    struct ws_kernel_stats st;
    struct ws_cta_source src = ws_kgen_source(k);
    int64_t cycles;

    if (ws_sim_kernel(sim, &src, &st, err) < 0) {
        ws_kernel_stats_free(&st);
        return -1;
    }
    cycles = (int64_t)st.ctr.v[WS_CTR_CYCLES];
    if (out)
        *out = st;
    else
        ws_kernel_stats_free(&st);
    return cycles;
}
