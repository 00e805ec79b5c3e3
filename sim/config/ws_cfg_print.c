/*
 * ws_cfg_print: the effective config as YAML (warpsim config show), in
 * schema order, with derived quantities as comments.  What it prints loads
 * back to the same struct ws_gpu; a unit test checks that round trip.
 */
#include <stdlib.h>
#include <string.h>

#include "trace/ws_opcode.h"
#include "trace/ws_trace.h"
#include "ws_cfg_schema.h"
#include "ws_config.h"

/* Prints the mapping headers between the previous key and this one. */
static void ws_cfg_print_groups(FILE *out, const char *prev, const char *path)
{
    const char *p;
    int depth = ws_cfg_key_common_groups(prev, path, &p);

    for (const char *dot; (dot = strchr(p, '.')); p = dot + 1, depth++)
        fprintf(out, "%*s%.*s:\n", depth * 2, "", (int)(dot - p), p);
}

static int ws_cfg_depth(const char *path)
{
    int d = 0;

    for (; *path; path++)
        d += *path == '.';
    return d;
}

static void ws_cfg_print_derived(FILE *out, const struct ws_gpu *g)
{
    double ghz = g->core_mhz / 1000.0;
    const struct ws_unit_cfg *fp32 = &g->unit[WS_UNIT_FP32];

    fprintf(out, "# derived (not keys):\n");
    fprintf(out, "#   dram bytes per core cycle: %.3f (%.3f per channel)\n",
            g->dram.bandwidth / ghz,
            g->dram.bandwidth / ghz / g->dram.channels);
    fprintf(out, "#   l2 bytes per core cycle: %.3f (%.3f per slice)\n",
            g->l2.bandwidth / ghz, g->l2.bandwidth / ghz / g->l2.slices);
    fprintf(out, "#   l2 sets per slice: %llu, l1 sets: %llu\n",
            (unsigned long long)(g->l2.size / g->l2.slices / g->l2.line
                                 / g->l2.assoc),
            (unsigned long long)(g->l1.size / g->l1.line / g->l1.assoc));
    fprintf(out, "#   peak fp32: %.1f GFLOP/s (FMA = 2 flops)\n",
            2.0 * fp32->lanes * g->sm.sub_cores * g->sm.count * g->core_mhz
                / 1000.0);
    fprintf(out, "#   max warps per sub-core: %u\n",
            (g->sm.max_warps + g->sm.sub_cores - 1) / g->sm.sub_cores);
}

void ws_cfg_print(FILE *out, const struct ws_gpu *gpu)
{
    const char *prev = NULL;

    fprintf(out, "# effective GPU config (warpsim config show)\n");
    for (size_t i = 0; i < ws_cfg_key_count(); i++) {
        const struct ws_key *k = ws_cfg_key(i);
        const char *leaf = strrchr(k->path, '.');
        char value[256];
        /* A fixed L1/shared split has no list to print (or read back). */
        if ((k->type == WS_KT_SIZES && gpu->sm.ncarveouts == 0)
            || ws_cfg_key_absent(k, gpu))
            continue;
        ws_cfg_print_groups(out, prev, k->path);
        ws_cfg_key_format(k, gpu, value, sizeof value);
        fprintf(out, "%*s%s: %s\n", ws_cfg_depth(k->path) * 2, "",
                leaf ? leaf + 1 : k->path, value);
        prev = k->path;
    }
    ws_cfg_print_derived(out, gpu);
}

char *ws_cfg_text(const struct ws_gpu *gpu, size_t *len)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, len);

    if (!f)
        return NULL;
    ws_cfg_print(f, gpu);
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}
