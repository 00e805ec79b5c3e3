/*
 * ws_profile: counting a kernel's instruction stream (see ws_profile.h).
 */
#include "ws_profile.h"

#include <stdlib.h>
#include <string.h>

#include "mem/ws_coalesce.h"

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
    return 0;
}

void ws_profile_free(struct ws_profile *p)
{
    free(p->name);
    free(p->unknown);
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
            return;                 /* the count above still records it */
        p->unknown = u;
        p->unknown_cap = cap;
    }
    memcpy(p->unknown[p->nunknown].name, op, blen);
    p->unknown[p->nunknown].name[blen] = '\0';
    p->unknown[p->nunknown].count = 1;
    p->nunknown++;
}

static void ws_profile_memory(struct ws_profile *p, const struct ws_inst *in,
                              const uint64_t *addrs)
{
    struct ws_space_stats *s = &p->space[in->space];
    unsigned lanes = (unsigned)__builtin_popcount(in->mask);

    s->insts++;
    s->loads += in->memop == WS_MEMOP_LOAD || in->memop == WS_MEMOP_ASYNC_COPY;
    s->stores += in->memop == WS_MEMOP_STORE;
    s->atomics += in->memop == WS_MEMOP_ATOMIC
                  || in->memop == WS_MEMOP_REDUCTION;
    if (lanes == 0 || in->width == 0) {
        s->predicated_off += lanes == 0;
        return;
    }
    s->lanes += lanes;
    s->bytes += (uint64_t)lanes * in->width;
    if (in->space == WS_SPACE_SHARED) {
        s->wavefronts += ws_shared_wavefronts(addrs + in->addr, lanes,
                                              in->width, p->banks,
                                              p->bank_width);
    } else {
        struct ws_coalesce_result r;
        ws_coalesce(addrs + in->addr, lanes, in->width, p->sector_bytes,
                    p->line_bytes, &r);
        s->sectors += r.nsectors;
        s->lines += r.nlines;
    }
}

void ws_profile_add_cta(struct ws_profile *p, const struct ws_cta_stream *cta,
                        const struct ws_strtab *ops)
{
    p->ctas++;
    for (uint32_t w = 0; w < cta->nwarps; w++) {
        const struct ws_warp_stream *ws = &cta->warps[w];
        if (ws->ninst == 0)
            continue;
        p->warps++;
        p->warp_insts += ws->ninst;
        for (uint32_t i = 0; i < ws->ninst; i++) {
            const struct ws_inst *in = &ws->inst[i];
            p->by_class[in->cls]++;
            p->thread_insts += (uint64_t)__builtin_popcount(in->mask);
            if (in->flags & WS_INST_UNKNOWN)
                ws_profile_unknown(p, ws_strtab_str(ops, in->op));
            if (in->space != WS_SPACE_NONE)
                ws_profile_memory(p, in, cta->addrs);
        }
    }
}
