/*
 * ws_tracew: Accel-Sim trace writer (see ws_tracew.h).
 */
#include "ws_tracew.h"

#include <inttypes.h>

void ws_tracew_header(FILE *fp, const struct ws_launch *l)
{
    char cluster[64] = "";

    if (l->cluster[0])
        snprintf(cluster, sizeof cluster, "-cluster dim = (%u,%u,%u)\n",
                 l->cluster[0], l->cluster[1] ? l->cluster[1] : 1,
                 l->cluster[2] ? l->cluster[2] : 1);
    fprintf(fp,
            "-kernel name = %s\n-kernel id = %u\n-grid dim = (%u,%u,%u)\n"
            "-block dim = (%u,%u,%u)\n-shmem = %u\n-nregs = %u\n"
            "-binary version = %u\n-cuda stream id = 0\n"
            "-shmem base_addr = 0x%016" PRIx64 "\n"
            "-local mem base_addr = 0x%016" PRIx64 "\n"
            "-nvbit version = warpsim\n-accelsim tracer version = 4\n"
            "-enable lineinfo = 0\n%s\n#traces format = [line_num] PC mask "
            "dest_num [reg_dests] opcode src_num [reg_srcs] mem_width "
            "[adrrescompress?] [mem_addresses] [immediate]\n\n",
            l->name, l->id, l->grid[0], l->grid[1], l->grid[2], l->block[0],
            l->block[1], l->block[2], l->shmem, l->nregs, l->sm_version,
            l->shmem_base, l->local_base, cluster);
}

/* One run of lanes and one stride: mode 1 reproduces it exactly. */
static int ws_tracew_strided(uint32_t mask, const uint64_t *a, unsigned n)
{
    uint32_t run = mask >> __builtin_ctz(mask);

    if ((run & (run + 1)) != 0)
        return 0;
    for (unsigned i = 2; i < n; i++)
        if (a[i] - a[i - 1] != a[1] - a[0])
            return 0;
    return 1;
}

static void ws_tracew_addrs(FILE *fp, const struct ws_inst *in,
                            const uint64_t *a)
{
    unsigned n = (unsigned)__builtin_popcount(in->mask);

    if (n == 0) {
        fprintf(fp, " 0");
        return;
    }
    if (ws_tracew_strided(in->mask, a, n)) {
        fprintf(fp, " 1 0x%016" PRIx64 " %" PRId64, a[0],
                n > 1 ? (int64_t)(a[1] - a[0]) : (int64_t)0);
        return;
    }
    fprintf(fp, " 2 0x%016" PRIx64, a[0]);
    for (unsigned i = 1; i < n; i++)
        fprintf(fp, " %" PRId64, (int64_t)(a[i] - a[i - 1]));
}

static void ws_tracew_inst(FILE *fp, const struct ws_inst *in,
                           const uint64_t *addrs, const struct ws_strtab *ops)
{
    unsigned ndst = in->ndst < WS_TRACE_LINE_MAX_DST ? in->ndst
                                                     : WS_TRACE_LINE_MAX_DST;
    unsigned nsrc = in->nsrc < WS_TRACE_LINE_MAX_SRC ? in->nsrc
                                                     : WS_TRACE_LINE_MAX_SRC;

    /* The first destination register only: readers widen the rest from
     * the opcode, as they do for NVBit's traces. */
    fprintf(fp, "%04x %08x %u", in->pc, in->mask, ndst);
    for (unsigned i = 0; i < ndst; i++)
        fprintf(fp, " R%u", in->dst[i]);
    fprintf(fp, " %s %u", ws_strtab_str(ops, in->op), nsrc);
    for (unsigned i = 0; i < nsrc; i++)
        fprintf(fp, " R%u", in->src[i]);
    fprintf(fp, " %u", in->width);
    if (in->width)
        ws_tracew_addrs(fp, in, addrs + in->addr);
    /* Always written, as the version-4 tracer does: Accel-Sim's parser
     * reads popcount deltas in mode 2, one more than there are, and takes
     * this field as the last. */
    fprintf(fp, " %d", in->imm);
    fputc('\n', fp);
}

void ws_tracew_cta(FILE *fp, const struct ws_cta_stream *cta,
                   const struct ws_strtab *ops)
{
    fprintf(fp, "#BEGIN_TB\n\nthread block = %u,%u,%u\n", cta->ctaid[0],
            cta->ctaid[1], cta->ctaid[2]);
    if (cta->has_cluster)
        fprintf(fp,
                "cluster id = %u,%u,%u\ncluster cta = %u,%u,%u\n"
                "cluster rank = %u\n",
                cta->cluster_id[0], cta->cluster_id[1], cta->cluster_id[2],
                cta->cluster_cta[0], cta->cluster_cta[1], cta->cluster_cta[2],
                cta->cluster_rank);
    fputc('\n', fp);
    for (uint32_t w = 0; w < cta->nwarps; w++) {
        const struct ws_warp_stream *ws = &cta->warps[w];
        fprintf(fp, "warp = %u\ninsts = %u\n", w, ws->ninst);
        for (uint32_t i = 0; i < ws->ninst; i++)
            ws_tracew_inst(fp, &ws->inst[i], cta->addrs, ops);
    }
    fprintf(fp, "\n#END_TB\n\n");
}
