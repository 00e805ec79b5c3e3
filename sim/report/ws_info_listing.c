/*
 * ws_info_listing: "trace info" for a static SASS listing: per function the
 * static instruction mix, memory instructions by space and kind, guarded
 * instructions, branch targets and unknown mnemonics.  Static counts: each
 * instruction once, however often it would run.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "trace/ws_opcode.h"
#include "util/ws_utf8.h"
#include "ws_info.h"

struct ws_func_summary {
    uint64_t by_class[WS_OPC_COUNT];
    uint64_t mem_loads[WS_OPC_COUNT], mem_stores[WS_OPC_COUNT],
        mem_atomics[WS_OPC_COUNT];
    uint64_t guarded, targets;
    char unknown[512];
};

static void ws_func_summarise(const struct ws_sass *s,
                              const struct ws_sass_func *f,
                              struct ws_func_summary *out)
{
    memset(out, 0, sizeof *out);
    for (uint32_t i = 0; i < f->ninst; i++) {
        const struct ws_sass_inst *in = &s->insts[f->first + i];
        out->by_class[in->cls]++;
        out->guarded += in->guard >= 0 && !(in->guard == 7 && !in->guard_neg);
        out->mem_loads[in->cls] += in->memop == WS_MEMOP_LOAD
                                   || in->memop == WS_MEMOP_ASYNC_COPY;
        out->mem_stores[in->cls] += in->memop == WS_MEMOP_STORE;
        out->mem_atomics[in->cls] += in->memop == WS_MEMOP_ATOMIC
                                     || in->memop == WS_MEMOP_REDUCTION;
        for (uint32_t k = 0; k < in->nopnd; k++)
            out->targets += s->opnds[in->opnd + k].kind == WS_OPND_TARGET;
        if (!in->known) {
            const char *op = ws_strtab_str(&s->strs, in->op);
            size_t bl = ws_opcode_base_len(op), used = strlen(out->unknown);
            char name[64];
            snprintf(name, sizeof name, "%.*s", (int)bl, op);
            if (!strstr(out->unknown, name)
                && used + bl + 3 < sizeof out->unknown)
                snprintf(out->unknown + used, sizeof out->unknown - used,
                         "%s%s", used ? ", " : "", name);
        }
    }
}

static void ws_print_res(FILE *out, const char *what, int v, const char *unit)
{
    if (v >= 0)
        fprintf(out, "  %s %d%s", what, v, unit);
    else
        fprintf(out, "  %s ?", what);
}

void ws_info_print_listing(FILE *out, const char *input,
                           const struct ws_sass *s)
{
    fprintf(out, "listing %s: %zu function%s (static counts)\n", input,
            s->nfuncs, s->nfuncs == 1 ? "" : "s");
    for (size_t i = 0; i < s->nfuncs; i++) {
        const struct ws_sass_func *f = &s->funcs[i];
        struct ws_func_summary sum;
        ws_func_summarise(s, f, &sum);
        fprintf(out, "\nfunction %s\n  sm_%u  instructions %u", f->name, f->sm,
                f->ninst);
        ws_print_res(out, "regs", f->regs, "");
        ws_print_res(out, "shared", f->shared, " B");
        ws_print_res(out, "local", f->local, " B");
        fprintf(out, "\n  guarded %llu  branch targets %llu\n",
                (unsigned long long)sum.guarded,
                (unsigned long long)sum.targets);
        fprintf(out, "  instruction mix:\n");
        for (int c = 0; c < WS_OPC_COUNT; c++) {
            if (!sum.by_class[c])
                continue;
            fprintf(out, "    %-8s %6llu",
                    ws_opcode_class_name((enum ws_op_class)c),
                    (unsigned long long)sum.by_class[c]);
            if (ws_opcode_class_is_memory((enum ws_op_class)c))
                fprintf(out, "  (loads %llu, stores %llu, atomics %llu)",
                        (unsigned long long)sum.mem_loads[c],
                        (unsigned long long)sum.mem_stores[c],
                        (unsigned long long)sum.mem_atomics[c]);
            fprintf(out, "\n");
        }
        fprintf(out, "  unknown opcodes: %s\n",
                sum.unknown[0] ? sum.unknown : "none");
    }
}

char *ws_info_json_listing(const char *input, const struct ws_sass *s)
{
    json_t *root = ws_info_json_header("listing", input);
    json_t *fs = json_array();

    for (size_t i = 0; i < s->nfuncs; i++) {
        const struct ws_sass_func *f = &s->funcs[i];
        struct ws_func_summary sum;
        json_t *o = json_object(), *mix = json_object();
        ws_func_summarise(s, f, &sum);
        json_object_set_new(o, "name", ws_utf8_json_string(f->name));
        json_object_set_new(o, "sm_version", json_integer(f->sm));
        json_object_set_new(o, "instructions", json_integer(f->ninst));
        json_object_set_new(o, "registers",
                            f->regs >= 0 ? json_integer(f->regs) : json_null());
        json_object_set_new(o, "shared_bytes",
                            f->shared >= 0 ? json_integer(f->shared)
                                           : json_null());
        json_object_set_new(o, "guarded",
                            json_integer((json_int_t)sum.guarded));
        json_object_set_new(o, "branch_targets",
                            json_integer((json_int_t)sum.targets));
        for (int c = 0; c < WS_OPC_COUNT; c++)
            json_object_set_new(mix, ws_opcode_class_name((enum ws_op_class)c),
                                json_integer((json_int_t)sum.by_class[c]));
        json_object_set_new(o, "mix", mix);
        json_object_set_new(o, "unknown_opcodes",
                            ws_utf8_json_string(sum.unknown));
        json_array_append_new(fs, o);
    }
    json_object_set_new(root, "functions", fs);
    return ws_info_json_finish(root);
}
