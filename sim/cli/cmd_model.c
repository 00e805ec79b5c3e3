/*
 * warpsim model NAME: one closed-form model, with every parameter and
 * every intermediate shown: from explicit parameters (--params FILE.yaml,
 * to check a paper's worked example by hand) or from each kernel of a
 * trace or workload, its parameters derived from the kernel's profile and
 * the GPU config as "run" derives them.
 *
 * Leaves out: reading parameters and kernels (run/ws_run_model.h,
 * run/ws_run_profile.h), the models (model/), their layout
 * (report/ws_model_print.h).
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "report/ws_model_print.h"
#include "run/ws_run_model.h"
#include "run/ws_run_profile.h"
#include "util/ws_output.h"
#include "util/ws_utf8.h"
#include "ws_cli.h"

static void ws_model_help(FILE *out)
{
    fprintf(
        out,
        "usage: warpsim model NAME --params FILE.yaml [--json FILE]\n"
        "       warpsim model NAME [OPTIONS] TRACE\n"
        "\n"
        "NAME is one of the built-in models (listed below). With --params, FILE\n"
        "is a YAML mapping of the model's parameters\n"
        "(the names 'warpsim profile' prints; a parameter not given is 0). With a\n"
        "TRACE (kernelslist.g, folder, .traceg[.xz|.zst] or workload.yaml), each\n"
        "kernel's parameters come from its profile and the GPU config.\n"
        "\n"
        "options:\n"
        "      --params FILE         explicit parameters instead of a TRACE\n" WS_CLI_INPUT_HELP
        "      --json FILE           parameters and results as JSON\n"
        "      --allow-unknown-keys  skip unknown trace header keys\n" WS_CLI_LIMIT_HELP
        "  -h, --help                this text\n"
        "\n"
        "models:\n",
        ws_cfg_default_name());
    for (int k = 0; k < ws_model_count(); k++)
        fprintf(out, "  %-17s %s\n", ws_model_nth(k)->name,
                ws_model_nth(k)->what);
}

/* Each result into the text stream and the JSON array. */
static void ws_model_one(FILE *text, json_t *arr,
                         const struct ws_model_def *kind,
                         const union ws_model_params *in, json_t *header)
{
    struct ws_model_result r;
    json_t *o = header ? header : json_object();

    ws_model_eval(kind, in, &r);
    ws_model_print_params(text, kind, in);
    ws_model_print_result(text, &r);
    json_object_set_new(o, "parameters", ws_model_json_params(kind, in));
    json_object_set_new(o, "result", ws_model_json_result(&r));
    json_array_append_new(arr, o);
}

/* Where each kernel's result goes. */
struct ws_model_out {
    const struct ws_model_def *kind;
    FILE *text;
    json_t *arr;
    const struct ws_gpu *gpu;
};

static int ws_model_kernel(void *ctx, const struct ws_profile *p, int warm,
                           struct ws_err *err)
{
    struct ws_model_out *mo = ctx;
    union ws_model_params params;

    (void)err;
    fprintf(mo->text, "\nkernel %u: %s\n", p->launch.id, p->name);
    ws_model_params_for(mo->kind, p, mo->gpu, warm, &params);
    ws_model_one(mo->text, mo->arr, mo->kind, &params,
                 json_pack("{s:I,s:o}", "id", (json_int_t)p->launch.id, "name",
                           ws_utf8_json_string(p->name)));
    return 0;
}

static int ws_model_from_trace(const struct ws_cli_kernel_args *a,
                               const struct ws_model_def *kind, FILE *text,
                               json_t *arr, const struct ws_gpu *gpu,
                               struct ws_output *jo, struct ws_err *err)
{
    struct ws_input_params ip = ws_cli_input_params(&a->params, &a->topts);
    const char *extra[2] = {a->gpu.gpu, a->params.listing};
    struct ws_model_out mo = {kind, text, arr, gpu};
    struct ws_input *in;
    int rc = ws_input_open(&in, a->input, &ip, err);

    if (rc == 0 && a->json)
        rc = ws_cli_plan_outputs(jo, 1, in, extra, 2, err);
    if (rc == 0)
        rc = ws_run_refuse_static(in, "model", err);
    if (rc == 0)
        rc = ws_run_profile_each(in, gpu, ws_model_kernel, &mo, err);
    ws_input_close(in);
    return rc;
}

static int ws_model_run(const struct ws_cli_kernel_args *a,
                        const struct ws_model_def *kind, struct ws_err *err)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *text = open_memstream(&buf, &len);
    json_t *root = json_object(), *arr = json_array();
    union ws_model_params in;
    struct ws_output jo = {.path = a->json, .flag = "--json"};
    struct ws_gpu gpu;
    int rc = text ? 0 : ws_err_oom(err);

    if (rc == 0 && a->params_file) {
        if (a->json)
            rc = ws_cli_plan_outputs(&jo, 1, NULL, &a->params_file, 1, err);
        if (rc == 0)
            rc = ws_run_model_params(a->params_file, kind, &in, err);
        if (rc == 0) {
            fprintf(text, "warpsim model %s --params %s\n", kind->name,
                    a->params_file);
            ws_model_one(text, arr, kind, &in, NULL);
        }
    } else if (rc == 0) {
        rc = ws_cli_load_gpu_probed(&a->gpu, &gpu, err);
        if (rc == 0) {
            fprintf(text, "warpsim model %s %s on %s\n", kind->name, a->input,
                    gpu.name);
            rc = ws_model_from_trace(a, kind, text, arr, &gpu, &jo, err);
        }
    }
    if (text && fclose(text) != 0 && rc == 0)
        rc = ws_err_oom(err);
    json_object_set_new(root, "schema_version", json_integer(1));
    json_object_set_new(root, "tool", json_string("warpsim " WS_VERSION));
    json_object_set_new(root, "model", json_string(kind->name));
    json_object_set_new(root, "kernels", arr);
    rc = ws_cli_finish_report(rc, &jo, root, buf, err);
    ws_output_free(&jo);
    return rc;
}

int ws_cmd_model(int argc, char **argv)
{
    struct ws_cli_kernel_args a;
    struct ws_err err;
    const struct ws_model_def *kind;
    int rc;

    memset(&a, 0, sizeof a);
    ws_err_clear(&err);
    ws_trace_opts_default(&a.topts);
    if (argc < 2)
        return ws_cli_usage("model", "missing NAME (expected one of %s)",
                            ws_model_names());
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        ws_model_help(stdout);
        return WS_EXIT_OK;
    }
    kind = ws_model_find(argv[1]);
    if (!kind)
        return ws_cli_usage("model",
                            "unknown model '%s' (expected one of "
                            "%s)",
                            argv[1], ws_model_names());
    rc = ws_cli_parse_kernel_args(&a, "model", argc - 1, argv + 1, 1,
                                  ws_model_help);
    if (rc != 0)
        return rc == 1 ? WS_EXIT_OK : rc;
    rc = ws_model_run(&a, kind, &err);
    if (rc < 0)
        ws_err_place_arg(&err, a.params_file ? a.params_file : a.input);
    return rc < 0 ? ws_cli_fail(&err) : WS_EXIT_OK;
}
