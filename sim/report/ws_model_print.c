/*
 * ws_model_print: model inputs and results for people and for JSON (see
 * ws_model_print.h).
 */
#include "ws_model_print.h"

#include <math.h>

#include "util/ws_utf8.h"

static double ws_avg(const struct ws_profile *p, double sum)
{
    return p->warps ? sum / (double)p->warps : 0;
}

void ws_model_print_profile(FILE *out, const struct ws_profile *p)
{
    const struct ws_profile_model *m = &p->model;
    uint64_t compulsory = ws_profile_compulsory_reads(p);

    fprintf(out,
            "  warps %llu, warp instructions per warp %.2f (min %llu, "
            "max %llu)\n",
            (unsigned long long)p->warps, ws_avg(p, (double)p->warp_insts),
            (unsigned long long)(p->warps ? m->warp_insts_min : 0),
            (unsigned long long)m->warp_insts_max);
    fprintf(out,
            "  per warp: memory %.2f (coalesced %.2f, uncoalesced %.2f), "
            "synchronization %.2f, before the first memory instruction "
            "%.2f\n",
            ws_avg(p, (double)m->mem_insts), ws_avg(p, (double)m->coal_insts),
            ws_avg(p, (double)m->uncoal_insts),
            ws_avg(p, (double)m->sync_insts),
            ws_avg(p, (double)m->first_comp_insts));
    fprintf(out,
            "  transactions: coalesced %llu sectors in %llu 128-byte "
            "blocks, uncoalesced %llu sectors in %llu blocks\n",
            (unsigned long long)m->coal_sectors,
            (unsigned long long)m->coal_lines,
            (unsigned long long)m->uncoal_sectors,
            (unsigned long long)m->uncoal_lines);
    fprintf(out,
            "  span (longest dependent chain of a warp): max %.0f "
            "cycles, average %.1f; max %.0f TMM time steps\n",
            m->span_max, ws_avg(p, m->span_sum), m->span_steps_max);
    fprintf(out,
            "  operations: FP32 %.0f (%llu FFMA), FP16 %.0f, FP64 %.0f "
            "(%llu DFMA), tensor %.0f\n",
            m->flops, (unsigned long long)m->fma_insts[WS_FLOP_FP32],
            m->flops_fp16, m->flops_fp64,
            (unsigned long long)m->fma_insts[WS_FLOP_FP64], m->flops_tensor);
    fprintf(out,
            "  sectors read %llu (%llu distinct), "
            "written or updated %llu (%llu distinct); compulsory DRAM "
            "reads %llu sectors%s\n",
            (unsigned long long)m->read_sector_refs,
            (unsigned long long)m->read.n, (unsigned long long)m->store_sectors,
            (unsigned long long)m->written.n, (unsigned long long)compulsory,
            m->incomplete
                ? " (incomplete: a footprint past 2 GiB, or out of memory)"
                : "");
}

json_t *ws_model_json_profile(const struct ws_profile *p)
{
    const struct ws_profile_model *m = &p->model;

    json_t *o = json_pack(
        "{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,"
        "s:f,s:f,s:f,s:I,s:I,s:I,s:I,s:I,s:b}",
        "warps", (json_int_t)p->warps, "warp_instructions",
        (json_int_t)p->warp_insts, "warp_instructions_min",
        (json_int_t)(p->warps ? m->warp_insts_min : 0), "warp_instructions_max",
        (json_int_t)m->warp_insts_max, "memory_instructions",
        (json_int_t)m->mem_insts, "coalesced_instructions",
        (json_int_t)m->coal_insts, "uncoalesced_instructions",
        (json_int_t)m->uncoal_insts, "coalesced_transactions",
        (json_int_t)m->coal_sectors, "uncoalesced_transactions",
        (json_int_t)m->uncoal_sectors, "synchronization_instructions",
        (json_int_t)m->sync_insts, "first_comp_period_instructions",
        (json_int_t)m->first_comp_insts, "span_max_cycles", m->span_max,
        "span_sum_cycles", m->span_sum, "fp32_flops", m->flops, "sector_reads",
        (json_int_t)m->read_sector_refs, "distinct_sectors_read",
        (json_int_t)m->read.n, "sector_writes", (json_int_t)m->store_sectors,
        "distinct_sectors_written", (json_int_t)m->written.n,
        "compulsory_read_sectors", (json_int_t)ws_profile_compulsory_reads(p),
        "incomplete", m->incomplete);

    if (!o)
        return NULL;
    json_object_set_new(o, "load_instructions",
                        json_integer((json_int_t)m->load_insts));
    json_object_set_new(o, "load_bytes_requested",
                        json_integer((json_int_t)m->load_bytes));
    json_object_set_new(o, "coalesced_blocks",
                        json_integer((json_int_t)m->coal_lines));
    json_object_set_new(o, "uncoalesced_blocks",
                        json_integer((json_int_t)m->uncoal_lines));
    json_object_set_new(o, "span_max_steps", json_real(m->span_steps_max));
    json_object_set_new(o, "fp16_ops", json_real(m->flops_fp16));
    json_object_set_new(o, "fp64_ops", json_real(m->flops_fp64));
    json_object_set_new(o, "tensor_ops", json_real(m->flops_tensor));
    json_object_set_new(o, "ffma_instructions",
                        json_integer((json_int_t)m->fma_insts[WS_FLOP_FP32]));
    json_object_set_new(o, "dfma_instructions",
                        json_integer((json_int_t)m->fma_insts[WS_FLOP_FP64]));
    return o;
}

void ws_model_print_params(FILE *out, const struct ws_model_def *m,
                           const union ws_model_params *in)
{
    const struct ws_model_field *f = m->fields;

    fprintf(out, "  %s parameters:\n", m->name);
    for (int i = 0; i < m->nfields; i++)
        fprintf(out, "    %-24s %14.6g  %s\n", f[i].name,
                ws_model_field_get(in, &f[i]), f[i].what);
}

json_t *ws_model_json_params(const struct ws_model_def *m,
                             const union ws_model_params *in)
{
    const struct ws_model_field *f = m->fields;
    json_t *o = json_object();

    for (int i = 0; i < m->nfields; i++)
        json_object_set_new(o, f[i].name,
                            json_real(ws_model_field_get(in, &f[i])));
    return o;
}

void ws_model_print_result(FILE *out, const struct ws_model_result *r)
{
    if (!r->applies) {
        fprintf(out, "  %s does not apply: %s\n", r->model, r->why);
        return;
    }
    fprintf(out, "  %s intermediates:\n", r->model);
    for (int i = 0; i < r->nvars; i++)
        fprintf(out, "    %-24s %14.6g\n", r->vars[i].name, r->vars[i].value);
    fprintf(out, "  %s: %.2f cycles%s  %s\n", r->model, r->cycles,
            r->bound ? " (a lower bound)" : "", r->regime);
}

json_t *ws_model_json_result(const struct ws_model_result *r)
{
    return ws_model_result_json(r, 0);
}
