/*
 * warpsim profile: what the analytic models are given for each kernel of
 * a trace or workload: the counts taken from the instruction stream (the
 * seed papers' "code analysis", done without timing) and each model's
 * parameters as derived from them and the GPU config.  Nothing is printed
 * until the whole input has been read.
 *
 * Leaves out: reading the kernels (run/ws_run_profile.h), the layout of a
 * profile and of each model's parameters (report/ws_model_print.h).
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "report/ws_model_print.h"
#include "run/ws_run_profile.h"
#include "util/ws_output.h"
#include "util/ws_utf8.h"
#include "ws_cli.h"

static void ws_profile_help(FILE *out)
{
    fprintf(
        out,
        "usage: warpsim profile [OPTIONS] TRACE\n"
        "\n"
        "For each kernel of TRACE (a kernelslist.g, a folder holding one, a\n"
        "kernel-N.traceg[.xz|.zst] or a workload.yaml): warps and the spread of their\n"
        "lengths, memory instructions split into coalesced and uncoalesced,\n"
        "barriers, instructions before the first memory access, the longest\n"
        "dependent chain, operations by pipe, distinct sectors read and written;\n"
        "then the parameters of each model (the mwp_cwp family shares one set;\n"
        "tmm, roofline, qroofline, aiq) as derived from them and the GPU.\n"
        "Per-warp numbers are averages over the kernel's warps.\n"
        "\n"
        "options:\n" WS_CLI_INPUT_HELP
        "      --json FILE           the same as JSON\n"
        "      --allow-unknown-keys  skip unknown trace header keys\n" WS_CLI_LIMIT_HELP
        "  -h, --help                this text\n",
        ws_cfg_default_name());
}

/* Where each kernel goes: the text (a memory stream) and the JSON array. */
struct ws_profile_out {
    FILE *text;
    json_t *arr;
    const struct ws_gpu *gpu;
};

static int ws_profile_kernel(void *ctx, const struct ws_profile *p, int warm,
                             struct ws_err *err)
{
    struct ws_profile_out *po = ctx;
    const struct ws_launch *l = &p->launch;
    json_t *o = json_object(), *params = json_object();

    (void)err;
    fprintf(po->text, "\nkernel %u: %s  grid (%u,%u,%u) block (%u,%u,%u)\n",
            l->id, p->name, l->grid[0], l->grid[1], l->grid[2], l->block[0],
            l->block[1], l->block[2]);
    ws_model_print_profile(po->text, p);
    json_object_set_new(o, "id", json_integer(l->id));
    json_object_set_new(o, "name", ws_utf8_json_string(p->name));
    json_object_set_new(o, "profile", ws_model_json_profile(p));
    /* Each set of inputs once: a family that shares one (MWP/CWP and its
     * L2 forms) under its first model's name. */
    for (int k = 0; k < ws_model_count(); k++) {
        const struct ws_model_def *m = ws_model_nth(k);
        union ws_model_params in;
        if (m->inputs_of)
            continue;
        ws_model_params_for(m, p, po->gpu, warm, &in);
        ws_model_print_params(po->text, m, &in);
        json_object_set_new(params, m->name, ws_model_json_params(m, &in));
    }
    json_object_set_new(o, "parameters", params);
    json_array_append_new(po->arr, o);
    return 0;
}

static int ws_profile_all(const struct ws_cli_kernel_args *a,
                          struct ws_input *in, const struct ws_gpu *gpu,
                          struct ws_output *jo, struct ws_err *err)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *text = open_memstream(&buf, &len);
    json_t *root = json_object(), *arr = json_array();
    struct ws_profile_out po = {text, arr, gpu};
    int rc = text ? 0 : ws_err_oom(err);

    if (rc == 0) {
        fprintf(text, "warpsim profile %s on %s\n", a->input, gpu->name);
        rc = ws_run_profile_each(in, gpu, ws_profile_kernel, &po, err);
    }
    if (text && fclose(text) != 0 && rc == 0)
        rc = ws_err_oom(err);
    json_object_set_new(root, "schema_version", json_integer(1));
    json_object_set_new(root, "tool", json_string("warpsim " WS_VERSION));
    json_object_set_new(root, "input", ws_utf8_json_string(a->input));
    json_object_set_new(root, "gpu", ws_utf8_json_string(gpu->name));
    json_object_set_new(root, "kernels", arr);
    return ws_cli_finish_report(rc, jo, root, buf, err);
}

int ws_cmd_profile(int argc, char **argv)
{
    struct ws_cli_kernel_args a;
    struct ws_input_params ip;
    struct ws_input *in = NULL;
    struct ws_output jo = {.flag = "--json"};
    struct ws_gpu gpu;
    struct ws_err err;
    int rc;

    memset(&a, 0, sizeof a);
    ws_err_clear(&err);
    ws_trace_opts_default(&a.topts);
    rc = ws_cli_parse_kernel_args(&a, "profile", argc, argv, 0,
                                  ws_profile_help);
    if (rc != 0)
        return rc == 1 ? WS_EXIT_OK : rc;
    if (ws_cli_load_gpu_probed(&a.gpu, &gpu, &err) < 0)
        return ws_cli_fail(&err);
    a.topts.unknown_class = gpu.unknown_class;
    ip = ws_cli_input_params(&a.params, &a.topts);
    rc = ws_input_open(&in, a.input, &ip, &err);
    if (rc == 0)
        rc = ws_run_refuse_static(in, "profile", &err);
    jo.path = a.json;
    if (rc == 0 && a.json) {
        const char *extra[2] = {a.gpu.gpu, a.params.listing};
        rc = ws_cli_plan_outputs(&jo, 1, in, extra, 2, &err);
    }
    if (rc == 0)
        rc = ws_profile_all(&a, in, &gpu, &jo, &err);
    ws_output_free(&jo);
    ws_input_close(in);
    if (rc < 0)
        ws_err_place_arg(&err, a.input);
    return rc < 0 ? ws_cli_fail(&err) : WS_EXIT_OK;
}
