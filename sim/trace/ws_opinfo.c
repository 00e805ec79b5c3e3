/*
 * ws_opinfo: opcode-derived instruction fields (see ws_opinfo.h).
 */
#include "ws_opinfo.h"

#include <string.h>

#include "ws_async_op.h"
#include "ws_opcode.h"

/* Generic LD/ST addresses are classified by window.  The tracer gives each
 * window's base but not its size; 16 MiB holds any SM's shared memory and
 * the local window is taken to run up to the shared one when it sits below
 * it. */
#define WS_OPINFO_SHARED_WINDOW (16ull << 20)

void ws_opinfo_derive(struct ws_opinfo *info, const char *op, unsigned sm,
                      int unknown_class)
{
    struct ws_opcode_info oi;
    size_t blen = ws_opcode_base_len(op);

    info->known = ws_opcode_known(op, sm, &oi) ? 1 : 2;
    info->flags = (uint8_t)ws_opcode_semantics(op);
    if (info->known == 1) {
        info->cls = oi.cls;
        info->memop = oi.memop;
    } else {
        info->cls = (uint8_t)unknown_class;
        info->memop = WS_MEMOP_NONE;
    }
    info->width = (uint8_t)ws_opcode_width(op);
    info->generic =
        (blen == 2 && (strncmp(op, "LD", 2) == 0 || strncmp(op, "ST", 2) == 0))
        || (blen == 4 && strncmp(op, "ATOM", 4) == 0)
        || (blen == 3 && strncmp(op, "RED", 3) == 0);
    info->result_regs = (uint8_t)ws_opinfo_result_regs(op, info->cls,
                                                       info->memop,
                                                       info->width);
    info->bulk = ws_async_op_is_bulk(op);
}

/* The space of a generic access at address a. */
static uint8_t ws_opinfo_window(const struct ws_launch *l, uint64_t a)
{
    uint64_t local_end = l->shmem_base > l->local_base
                             ? l->shmem_base
                             : l->local_base + WS_OPINFO_SHARED_WINDOW;

    if (l->shmem_base && a >= l->shmem_base
        && a - l->shmem_base < WS_OPINFO_SHARED_WINDOW)
        return WS_SPACE_SHARED;
    if (l->local_base && a >= l->local_base && a < local_end)
        return WS_SPACE_LOCAL;
    return WS_SPACE_GLOBAL;
}

void ws_opinfo_apply(const struct ws_opinfo *info, const struct ws_launch *l,
                     const uint64_t *addrs, struct ws_inst *in)
{
    in->cls = info->cls;
    in->memop = info->memop;
    in->flags = (uint8_t)(info->flags
                          | (info->known == 2 ? WS_INST_UNKNOWN : 0));
    switch (in->cls) {
    case WS_OPC_SHARED:
        in->space = WS_SPACE_SHARED;
        return;
    case WS_OPC_LOCAL:
        in->space = WS_SPACE_LOCAL;
        return;
    case WS_OPC_CONST:
        in->space = WS_SPACE_CONST;
        return;
    case WS_OPC_TEX:
        in->space = WS_SPACE_TEX;
        return;
    case WS_OPC_GLOBAL:
        break;
    default:
        in->space = in->width ? WS_SPACE_GLOBAL : WS_SPACE_NONE;
        return;
    }
    in->space = WS_SPACE_GLOBAL;
    if (!info->generic)
        return;
    in->flags |= WS_INST_GENERIC;
    if (in->mask != 0 && in->width != 0)
        in->space = ws_opinfo_window(l, addrs[in->addr]);
}

unsigned ws_opinfo_result_regs(const char *op, unsigned cls, unsigned memop,
                               unsigned width)
{
    unsigned regs = 1;

    /* LDSM .x2/.x4 write 2 or 4 registers whatever the width says. */
    if (memop == WS_MEMOP_LOAD || memop == WS_MEMOP_ATOMIC)
        regs = strncmp(op, "LDSM", 4) == 0 ? (strstr(op, ".4")   ? 4u
                                              : strstr(op, ".2") ? 2u
                                                                 : 1u)
               : width > 4                 ? width / 4u
                                           : 1u;
    else if (cls == WS_OPC_FP64 || strstr(op, ".WIDE"))
        regs = 2;
    return regs > WS_INST_MAX_DST ? WS_INST_MAX_DST : regs;
}

void ws_opinfo_widen(const struct ws_opinfo *info, struct ws_inst *in)
{
    if (in->ndst != 1)
        return;
    for (unsigned i = 1; i < info->result_regs && in->dst[0] + i < WS_REG_RZ;
         i++)
        in->dst[in->ndst++] = (uint8_t)(in->dst[0] + i);
}
