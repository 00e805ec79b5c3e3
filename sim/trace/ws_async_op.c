/*
 * ws_async_op: decoding Hopper asynchronous opcodes (see ws_async_op.h).
 *
 * Mnemonics and modifiers are those cuobjdump and nvdisasm print for
 * sm_90a code compiled by nvcc 13 (the listings under
 * traces/kernels/hopper/): SYNCS.EXCH.64 for mbarrier.init,
 * SYNCS.ARRIVE.TRANS64[.RED][.A1T0|.A0TX|.A1TR] for arrive (.RED: the
 * cluster-scope form that may name a peer CTA's barrier),
 * SYNCS.PHASECHK.TRANS64[.TRYWAIT] for test_wait / try_wait.
 */
#include "ws_async_op.h"

#include <stdlib.h>
#include <string.h>

static const char *const ws_async_kind_names[WS_ASYNC_KIND_COUNT] = {
    "none",
    "wgmma",
    "wg_arrive",
    "wg_wait",
    "mbar_init",
    "mbar_arrive",
    "mbar_wait",
    "bulk_load",
    "bulk_store",
    "bulk_prefetch",
    "cluster_arrive",
    "cluster_wait",
    "mbar_arrive_ldgsts"};

const char *ws_async_kind_name(enum ws_async_kind kind)
{
    return (unsigned)kind < WS_ASYNC_KIND_COUNT ? ws_async_kind_names[kind]
                                                : "?";
}

static int ws_prefix(const char *op, const char *p)
{
    return strncmp(op, p, strlen(p)) == 0;
}

/* "64x256x16" right after the mnemonic's first dot. */
static int ws_wgmma_shape(const char *op, struct ws_async_op *out)
{
    const char *p = strchr(op, '.');
    char *end;
    unsigned long m, n, k;

    if (!p)
        return -1;
    m = strtoul(p + 1, &end, 10);
    if (*end != 'x')
        return -1;
    n = strtoul(end + 1, &end, 10);
    if (*end != 'x')
        return -1;
    k = strtoul(end + 1, &end, 10);
    if (*end != '.' && *end != '\0')
        return -1;
    /* PTX allows m64 only, N a multiple of 8 up to 256, K 8..256. */
    if (m != 64 || n == 0 || n > 256 || n % 8 != 0 || k == 0 || k > 256)
        return -1;
    out->m = (uint16_t)m;
    out->n = (uint16_t)n;
    out->k = (uint16_t)k;
    return 0;
}

static int ws_async_wgmma(const char *op, struct ws_async_op *out)
{
    if (ws_wgmma_shape(op, out) < 0)
        return -1;
    out->kind = WS_ASYNC_WGMMA;
    switch (op[0]) {
    case 'H':
        out->type = out->k == 8 ? WS_WGMMA_TF32 : WS_WGMMA_F16;
        break;
    case 'B':
        out->type = WS_WGMMA_B1;
        break;
    default: /* QGMMA, IGMMA */
        out->type = WS_WGMMA_F8;
        break;
    }
    return 0;
}

static void ws_async_syncs(const char *op, struct ws_async_op *out)
{
    if (ws_prefix(op, "SYNCS.EXCH"))
        out->kind = WS_ASYNC_MBAR_INIT;
    else if (ws_prefix(op, "SYNCS.ARRIVE")) {
        out->kind = WS_ASYNC_MBAR_ARRIVE;
        out->remote = strstr(op, ".RED") != NULL;
    } else if (ws_prefix(op, "SYNCS.PHASECHK"))
        out->kind = WS_ASYNC_MBAR_WAIT;
}

int ws_async_op_decode(const char *op, struct ws_async_op *out)
{
    memset(out, 0, sizeof *out);
    if (ws_prefix(op, "HGMMA.") || ws_prefix(op, "QGMMA.")
        || ws_prefix(op, "IGMMA.") || ws_prefix(op, "BGMMA.")) {
        if (ws_async_wgmma(op, out) == 0)
            return 0;
        memset(out, 0, sizeof *out);
        return -1;
    }
    if (ws_prefix(op, "WARPGROUP.ARRIVE"))
        out->kind = WS_ASYNC_WG_ARRIVE;
    else if (ws_prefix(op, "WARPGROUP.DEPBAR"))
        out->kind = WS_ASYNC_WG_WAIT;
    else if (ws_prefix(op, "SYNCS."))
        ws_async_syncs(op, out);
    else if (ws_prefix(op, "UTMALDG") || ws_prefix(op, "UBLKCP"))
        out->kind = WS_ASYNC_BULK_LOAD;
    else if (ws_prefix(op, "UTMASTG") || ws_prefix(op, "UTMAREDG")
             || ws_prefix(op, "UBLKRED"))
        out->kind = WS_ASYNC_BULK_STORE;
    else if (ws_prefix(op, "UTMAPF") || ws_prefix(op, "UBLKPF"))
        out->kind = WS_ASYNC_BULK_PREFETCH;
    else if (ws_prefix(op, "UCGABAR_ARV"))
        out->kind = WS_ASYNC_CLUSTER_ARRIVE;
    else if (ws_prefix(op, "UCGABAR_WAIT"))
        out->kind = WS_ASYNC_CLUSTER_WAIT;
    else if (ws_prefix(op, "ARRIVES.LDGSTSBAR"))
        out->kind = WS_ASYNC_MBAR_ARRIVE_LDGSTS;
    return 0;
}

int ws_async_op_is_bulk(const char *op)
{
    struct ws_async_op a;

    return ws_async_op_decode(op, &a) == 0 && ws_async_kind_is_bulk(a.kind);
}

void ws_box_walk_init(struct ws_box_walk *it, const struct ws_box *b,
                      uint64_t line_bytes)
{
    it->b = b;
    it->line = line_bytes;
    it->plane = it->row = 0;
    it->at = it->end = 0;
}

int ws_box_walk_next(struct ws_box_walk *it, uint64_t *addr, uint32_t *bytes)
{
    const struct ws_box *b = it->b;
    uint64_t next;

    while (it->at >= it->end) {
        if (it->plane >= b->planes || b->rows == 0)
            return 0;
        it->at = b->base + it->plane * b->plane_pitch + it->row * b->pitch;
        it->end = it->at + b->row_bytes;
        if (++it->row == b->rows) {
            it->row = 0;
            it->plane++;
        }
    }
    next = (it->at / it->line + 1) * it->line;
    *addr = it->at;
    *bytes = (uint32_t)((next < it->end ? next : it->end) - it->at);
    it->at += *bytes;
    return 1;
}

void ws_box_pack(const struct ws_box *b, uint64_t words[WS_BOX_WORDS])
{
    words[WS_BOX_BASE] = b->base;
    words[WS_BOX_ROW] = (uint64_t)b->row_bytes | (uint64_t)b->rows << 32;
    words[WS_BOX_PITCH] = b->pitch;
    words[WS_BOX_MBAR] = b->mbar;
    words[WS_BOX_PLANES] = (uint64_t)b->planes | (uint64_t)b->multicast << 20
                           | (uint64_t)b->fill << 36;
    words[WS_BOX_PPITCH] = b->plane_pitch;
}

uint64_t ws_box_bytes(const struct ws_box *b)
{
    return (uint64_t)b->row_bytes * b->rows * b->planes;
}

int ws_box_unpack(const uint64_t words[WS_BOX_WORDS], uint64_t max_bytes,
                  struct ws_box *b)
{
    uint64_t planes = words[WS_BOX_PLANES] & 0xfffffu;

    b->base = words[WS_BOX_BASE];
    b->row_bytes = (uint32_t)words[WS_BOX_ROW];
    b->rows = (uint32_t)(words[WS_BOX_ROW] >> 32);
    b->pitch = words[WS_BOX_PITCH];
    b->mbar = words[WS_BOX_MBAR];
    b->planes = (uint32_t)planes;
    b->plane_pitch = words[WS_BOX_PPITCH];
    b->multicast = (uint16_t)(words[WS_BOX_PLANES] >> 20);
    b->fill = (uint32_t)(words[WS_BOX_PLANES] >> 36);
    /* A TMA box is at most 256 elements per dimension (PTX), so these
     * bounds refuse words that were never a box before they can make the
     * engine loop for ever. */
    /* A box wholly outside its tensor reads nothing: all of it is fill. */
    if ((b->row_bytes == 0 || b->rows == 0 || b->planes == 0) && b->fill == 0)
        return -1;
    if (b->row_bytes > 256u * 16u || b->rows > 65536 || b->planes > 65536)
        return -1;
    return ws_box_bytes(b) + b->fill <= max_bytes ? 0 : -1;
}
