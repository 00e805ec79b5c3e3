/*
 * warpsim model NAME: one closed-form model, with every parameter and
 * every intermediate shown: from explicit parameters (--params FILE.yaml,
 * to check a paper's worked example by hand) or from each kernel of a
 * trace or workload, its parameters derived from the kernel's profile and
 * the GPU config as "run" derives them.
 */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/ws_file.h"
#include "util/ws_num.h"
#include "util/ws_utf8.h"
#include "util/ws_yaml.h"
#include "ws_cli.h"
#include "report/ws_model_print.h"
#include "util/ws_output.h"

#define WS_MODEL_MAX_PARAMS_FILE (1u << 20)

static void ws_model_help(FILE *out)
{
    fprintf(out,
"usage: warpsim model NAME --params FILE.yaml [--json FILE]\n"
"       warpsim model NAME [OPTIONS] TRACE\n"
"\n"
"NAME is one of the built-in models (listed below). With --params, FILE\n"
"is a YAML mapping of the model's parameters\n"
"(the names 'warpsim profile' prints; a parameter not given is 0). With a\n"
"TRACE (kernelslist.g, folder, .traceg[.xz] or workload.yaml), each\n"
"kernel's parameters come from its profile and the GPU config.\n"
"\n"
"options:\n"
"      --params FILE         explicit parameters instead of a TRACE\n"
"  -g, --gpu CONFIG          GPU config file or built-in name (default %s)\n"
"  -s, --set KEY=VALUE       override one config key (repeatable)\n"
"  -p, --param NAME=VALUE    override a workload parameter (repeatable)\n"
"      --listing FILE        expand the workload over another listing\n"
"      --json FILE           parameters and results as JSON\n"
"      --allow-unknown-keys  skip unknown trace header keys\n"
WS_CLI_LIMIT_HELP
"  -h, --help                this text\n"
"\n"
"models:\n", ws_cfg_default_name());
    for (int k = 0; k < WS_MODEL_COUNT; k++)
        fprintf(out, "  %-17s %s\n", ws_model_name((enum ws_model_kind)k),
                ws_model_what((enum ws_model_kind)k));
}

/* Each result into the text stream and the JSON array. */
static void ws_model_one(FILE *text, json_t *arr, enum ws_model_kind kind,
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

static int ws_model_unknown_param(const struct ws_ynode *n,
                                  enum ws_model_kind kind,
                                  const struct ws_model_field *f, int nf,
                                  struct ws_err *err)
{
    char names[512];
    size_t len = 0;

    names[0] = '\0';
    for (int k = 0; k < nf && len < sizeof names; k++)
        len += (size_t)snprintf(names + len, sizeof names - len, "%s%s",
                                k ? ", " : "", f[k].name);
    return ws_err_at(err, n->file, n->key_line, n->key_col, "unknown "
                     "parameter '%.64s' for %s (expected one of %s)", n->key,
                     ws_model_name(kind), names);
}

/* A plain decimal number: no leading blanks, no hexadecimal, nothing
 * strtod would read but a person would not write as a parameter. */
static int ws_model_plain_number(const char *s)
{
    if (!(*s == '-' || *s == '+' || *s == '.' || (*s >= '0' && *s <= '9')))
        return 0;
    for (; *s; s++)
        if (!((*s >= '0' && *s <= '9') || *s == '.' || *s == 'e'
              || *s == 'E' || *s == '-' || *s == '+'))
            return 0;
    return 1;
}

static int ws_model_field_value(const struct ws_ynode *n, double *out,
                                struct ws_err *err)
{
    char *end;

    if (n->kind != WS_YNODE_SCALAR || !n->value[0])
        return ws_err_at(err, n->file, n->line, n->col, "parameter '%s' is "
                         "not a number (expected a value such as 420 or "
                         "2.5e3)", n->key);
    *out = strtod(n->value, &end);
    if (*end || !isfinite(*out) || !ws_model_plain_number(n->value))
        return ws_err_at(err, n->file, n->line, n->col, "parameter '%s' is "
                         "not a number: '%s' (expected a finite value such as "
                         "420 or 2.5e3)", n->key, n->value);
    if (fabs(*out) > 1e300)
        return ws_err_at(err, n->file, n->line, n->col, "parameter '%s' is "
                         "%s (expected a number of at most 1e300)", n->key,
                         n->value);
    return 0;
}

/* A YAML mapping of parameter names onto a params struct. */
static int ws_model_read_params(const char *path, enum ws_model_kind kind,
                                union ws_model_params *in, struct ws_err *err)
{
    int nf;
    const struct ws_model_field *f = ws_model_fields(kind, &nf);
    struct ws_ynode *root = NULL;
    size_t len;
    char *text = ws_file_read(path, "parameters", WS_MODEL_MAX_PARAMS_FILE,
                              &len, NULL, err);
    int rc;

    memset(in, 0, sizeof *in);
    if (!text)
        return -1;
    rc = ws_yaml_parse(&root, path, text, len, err);
    free(text);
    for (const struct ws_ynode *n = rc == 0 ? root->child : NULL;
         n && rc == 0; n = n->next) {
        int k = 0;
        while (k < nf && strcmp(f[k].name, n->key) != 0)
            k++;
        if (k == nf)
            rc = ws_model_unknown_param(n, kind, f, nf, err);
        else
            rc = ws_model_field_value(n, ws_model_field_ptr(in, &f[k]), err);
    }
    ws_yaml_free(root);
    return rc;
}

static int ws_model_from_trace(const struct ws_cli_kernel_args *a,
                               enum ws_model_kind kind, FILE *text,
                               json_t *arr, const struct ws_gpu *gpu,
                               struct ws_output *jo, struct ws_err *err)
{
    struct ws_input_params ip = ws_cli_input_params(&a->params, &a->topts);
    const char *extra[2] = {a->gpu.gpu, a->params.listing};
    struct ws_input in;
    int rc = ws_input_open(&in, a->input, &ip, err);

    if (rc == 0 && a->json)
        rc = ws_cli_plan_outputs(jo, 1, &in, extra, 2, err);
    if (rc == 0 && in.kind == WS_INPUT_LISTING)
        rc = ws_err_at(err, a->input, 1, 1, "a SASS listing alone has no "
                       "dynamic instruction stream to model (expected a "
                       "trace, or a workload description over the listing)");
    for (size_t i = 0; rc == 0 && i < in.list.n; i++) {
        struct ws_profile p;
        union ws_model_params params;
        if (in.list.cmds[i].kind != WS_CMD_KERNEL)
            continue;
        rc = ws_cli_profile_kernel(&in, i, gpu, &p, err);
        if (rc < 0)
            break;
        fprintf(text, "\nkernel %u: %s\n", p.launch.id, p.name);
        ws_model_params_for(kind, &p, gpu, i > 0, &params);
        ws_model_one(text, arr, kind, &params,
                     json_pack("{s:I,s:o}", "id", (json_int_t)p.launch.id,
                               "name", ws_utf8_json_string(p.name)));
        ws_profile_free(&p);
    }
    ws_input_close(&in);
    return rc;
}

static int ws_model_run(const struct ws_cli_kernel_args *a,
                        enum ws_model_kind kind, struct ws_err *err)
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
            rc = ws_model_read_params(a->params_file, kind, &in, err);
        if (rc == 0) {
            fprintf(text, "warpsim model %s --params %s\n",
                    ws_model_name(kind), a->params_file);
            ws_model_one(text, arr, kind, &in, NULL);
        }
    } else if (rc == 0) {
        rc = ws_cli_load_gpu_probed(&a->gpu, &gpu, err);
        if (rc == 0) {
            fprintf(text, "warpsim model %s %s on %s\n", ws_model_name(kind),
                    a->input, gpu.name);
            rc = ws_model_from_trace(a, kind, text, arr, &gpu, &jo, err);
        }
    }
    if (text && fclose(text) != 0 && rc == 0)
        rc = ws_err_oom(err);
    json_object_set_new(root, "schema_version", json_integer(1));
    json_object_set_new(root, "tool", json_string("warpsim " WS_VERSION));
    json_object_set_new(root, "model", json_string(ws_model_name(kind)));
    json_object_set_new(root, "kernels", arr);
    rc = ws_cli_finish_report(rc, &jo, root, buf, err);
    ws_output_free(&jo);
    return rc;
}

int ws_cmd_model(int argc, char **argv)
{
    struct ws_cli_kernel_args a;
    struct ws_err err;
    int kind, rc;

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
    if (kind < 0)
        return ws_cli_usage("model", "unknown model '%s' (expected one of "
                            "%s)", argv[1], ws_model_names());
    rc = ws_cli_parse_kernel_args(&a, "model", argc - 1, argv + 1, 1,
                                  ws_model_help);
    if (rc != 0)
        return rc == 1 ? WS_EXIT_OK : rc;
    rc = ws_model_run(&a, (enum ws_model_kind)kind, &err);
    if (rc < 0)
        ws_err_place_arg(&err, a.params_file ? a.params_file : a.input);
    return rc < 0 ? ws_cli_fail(&err) : WS_EXIT_OK;
}
