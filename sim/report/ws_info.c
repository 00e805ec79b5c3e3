/*
 * ws_info: rendering of trace and listing summaries (see ws_info.h).
 * Numbers are printed with fixed precision so golden tests compare text.
 */
#include "ws_info.h"

#include <jansson.h>
#include <string.h>

#include "trace/ws_opcode.h"
#include "util/ws_utf8.h"
#include "ws_report.h"

static void ws_info_mix(FILE *out, const uint64_t *by_class, uint64_t total)
{
    fprintf(out, "  instruction mix:\n");
    for (int c = 0; c < WS_OPC_COUNT; c++)
        if (by_class[c])
            fprintf(out, "    %-8s %12llu  %6.2f%%\n",
                    ws_opcode_class_name((enum ws_op_class)c),
                    (unsigned long long)by_class[c],
                    100.0 * ws_profile_ratio(by_class[c], total));
}

static void ws_info_memory(FILE *out, const struct ws_profile *p)
{
    int any = 0;

    for (int s = 1; s < WS_SPACE_COUNT; s++)
        any |= p->space[s].insts != 0;
    if (!any) {
        fprintf(out, "  memory: none\n");
        return;
    }
    fprintf(out, "  memory:\n    %-7s %10s %9s %9s %8s %8s %9s %11s %9s %14s\n",
            "space", "insts", "loads", "stores", "atomics", "pred-off",
            "avg lanes", "sectors/req", "lines/req", "bytes");
    for (int s = 1; s < WS_SPACE_COUNT; s++) {
        const struct ws_space_stats *m = &p->space[s];
        uint64_t active = m->insts - m->predicated_off;
        if (!m->insts)
            continue;
        fprintf(out, "    %-7s %10llu %9llu %9llu %8llu %8llu %9.2f ",
                ws_space_name((enum ws_space)s), (unsigned long long)m->insts,
                (unsigned long long)m->loads, (unsigned long long)m->stores,
                (unsigned long long)m->atomics,
                (unsigned long long)m->predicated_off,
                ws_profile_ratio(m->lanes, active));
        if (s == WS_SPACE_SHARED)
            fprintf(out, "%11s %9s", "-", "-");
        else
            fprintf(out, "%11.2f %9.2f", ws_profile_ratio(m->sectors, active),
                    ws_profile_ratio(m->lines, active));
        fprintf(out, " %14llu\n", (unsigned long long)m->bytes);
        if (s == WS_SPACE_SHARED)
            fprintf(out,
                    "    %-7s wavefronts/req %.2f (1.00 = no bank "
                    "conflict)\n",
                    "", ws_profile_ratio(m->wavefronts, active));
    }
}

static void ws_info_unknown(FILE *out, const struct ws_unknown_op *u,
                            uint32_t n)
{
    fprintf(out, "  unknown opcodes:");
    if (n == 0)
        fprintf(out, " none");
    for (uint32_t i = 0; i < n; i++)
        fprintf(out, "%s %s (%llu)", i ? "," : "", u[i].name,
                (unsigned long long)u[i].count);
    fprintf(out, "\n");
}

static void ws_info_kernel(FILE *out, const struct ws_profile *p)
{
    const struct ws_launch *l = &p->launch;

    fprintf(out, "\nkernel %u: %s\n", l->id, p->name);
    fprintf(out,
            "  grid (%u,%u,%u)  block (%u,%u,%u)  regs %u  shmem %u B  "
            "sm_%u  tracer %s%u\n",
            l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1],
            l->block[2], l->nregs, l->shmem, l->sm_version,
            l->trace_version ? "v" : "pre-v",
            l->trace_version ? l->trace_version : 3);
    fprintf(out,
            "  CTAs %llu of %llu  warps %llu  warp instructions %llu  "
            "thread instructions %llu (avg active lanes %.2f)\n",
            (unsigned long long)p->ctas, (unsigned long long)ws_launch_ctas(l),
            (unsigned long long)p->warps, (unsigned long long)p->warp_insts,
            (unsigned long long)p->thread_insts,
            ws_profile_ratio(p->thread_insts, p->warp_insts));
    ws_info_mix(out, p->by_class, p->warp_insts);
    ws_info_memory(out, p);
    ws_info_unknown(out, p->unknown, p->nunknown);
}

void ws_info_print_trace(FILE *out, const struct ws_info_trace *t)
{
    fprintf(out,
            "trace %s: %zu kernel%s, %llu host-to-device cop%s "
            "(%llu bytes)\n",
            t->input, t->nkernels, t->nkernels == 1 ? "" : "s",
            (unsigned long long)t->memcpy_count,
            t->memcpy_count == 1 ? "y" : "ies",
            (unsigned long long)t->memcpy_bytes);
    fprintf(out, "sector, line and bank geometry from: %s\n", t->gpu_name);
    for (size_t k = 0; k < t->nkernels; k++)
        ws_info_kernel(out, &t->kernels[k]);
}

/* ---- JSON ------------------------------------------------------------ */

/* Every string that comes from input text (names, opcodes, paths) goes
 * through ws_utf8: jansson drops a key whose string is not UTF-8. */

static json_t *ws_json_u(uint64_t v)
{
    return json_integer((json_int_t)v);
}

static json_t *ws_json_mix(const uint64_t *by_class)
{
    json_t *o = json_object();

    for (int c = 0; c < WS_OPC_COUNT; c++)
        json_object_set_new(o, ws_opcode_class_name((enum ws_op_class)c),
                            ws_json_u(by_class[c]));
    return o;
}

static json_t *ws_json_space(const struct ws_space_stats *m, int shared)
{
    json_t *o = json_object();
    uint64_t active = m->insts - m->predicated_off;

    json_object_set_new(o, "insts", ws_json_u(m->insts));
    json_object_set_new(o, "loads", ws_json_u(m->loads));
    json_object_set_new(o, "stores", ws_json_u(m->stores));
    json_object_set_new(o, "atomics", ws_json_u(m->atomics));
    json_object_set_new(o, "predicated_off", ws_json_u(m->predicated_off));
    json_object_set_new(o, "avg_active_lanes",
                        json_real(ws_profile_ratio(m->lanes, active)));
    json_object_set_new(o, "bytes", ws_json_u(m->bytes));
    if (shared) {
        json_object_set_new(o, "wavefronts", ws_json_u(m->wavefronts));
        json_object_set_new(o, "wavefronts_per_request",
                            json_real(ws_profile_ratio(m->wavefronts, active)));
    } else {
        json_object_set_new(o, "sectors", ws_json_u(m->sectors));
        json_object_set_new(o, "lines", ws_json_u(m->lines));
        json_object_set_new(o, "sectors_per_request",
                            json_real(ws_profile_ratio(m->sectors, active)));
    }
    return o;
}

static json_t *ws_json_kernel(const struct ws_profile *p)
{
    const struct ws_launch *l = &p->launch;
    json_t *o = json_object(), *mem = json_object(), *unk = json_object();

    ws_report_json_launch(o, ws_json_u(l->id), p->name, l);
    json_object_set_new(o, "registers", ws_json_u(l->nregs));
    json_object_set_new(o, "shared_bytes", ws_json_u(l->shmem));
    json_object_set_new(o, "sm_version", ws_json_u(l->sm_version));
    json_object_set_new(o, "tracer_version", ws_json_u(l->trace_version));
    json_object_set_new(o, "ctas", ws_json_u(p->ctas));
    json_object_set_new(o, "warps", ws_json_u(p->warps));
    json_object_set_new(o, "warp_instructions", ws_json_u(p->warp_insts));
    json_object_set_new(o, "thread_instructions", ws_json_u(p->thread_insts));
    json_object_set_new(o, "mix", ws_json_mix(p->by_class));
    for (int s = 1; s < WS_SPACE_COUNT; s++)
        if (p->space[s].insts)
            json_object_set_new(mem, ws_space_name((enum ws_space)s),
                                ws_json_space(&p->space[s],
                                              s == WS_SPACE_SHARED));
    json_object_set_new(o, "memory", mem);
    for (uint32_t i = 0; i < p->nunknown; i++)
        ws_utf8_json_set(unk, p->unknown[i].name,
                         ws_json_u(p->unknown[i].count));
    json_object_set_new(o, "unknown_opcodes", unk);
    return o;
}

json_t *ws_info_json_header(const char *kind, const char *input)
{
    json_t *root = json_object();

    json_object_set_new(root, "schema_version",
                        json_integer(WS_INFO_SCHEMA_VERSION));
    json_object_set_new(root, "tool", json_string("warpsim " WS_VERSION));
    json_object_set_new(root, "kind", json_string(kind));
    json_object_set_new(root, "input", ws_utf8_json_string(input));
    return root;
}

char *ws_info_json_finish(json_t *root)
{
    char *text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    char *line;
    size_t n;

    json_decref(root);
    if (!text)
        return NULL;
    n = strlen(text);
    line = realloc(text, n + 2);
    if (!line) {
        free(text);
        return NULL;
    }
    line[n] = '\n';
    line[n + 1] = '\0';
    return line;
}

char *ws_info_json_trace(const struct ws_info_trace *t)
{
    json_t *root = ws_info_json_header("trace", t->input);
    json_t *ks = json_array();

    json_object_set_new(root, "gpu", ws_utf8_json_string(t->gpu_name));
    json_object_set_new(root, "memcpy_htod",
                        json_pack("{sIsI}", "count",
                                  (json_int_t)t->memcpy_count, "bytes",
                                  (json_int_t)t->memcpy_bytes));
    for (size_t k = 0; k < t->nkernels; k++)
        json_array_append_new(ks, ws_json_kernel(&t->kernels[k]));
    json_object_set_new(root, "kernels", ks);
    return ws_info_json_finish(root);
}
