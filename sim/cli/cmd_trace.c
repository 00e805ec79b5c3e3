/*
 * warpsim trace info: read a trace or listing completely, then summarise
 * it.  Nothing is printed until the whole input has been read, so a corrupt
 * kernel late in a trace gives one error line and no partial report.
 * trace gen writes a workload out as an Accel-Sim trace; trace pack writes
 * a trace as one packed file (.wst, trace/ws_pack.h).
 *
 * Inputs: a kernelslist.g (or a folder holding one), a single
 * kernel-N.traceg[.xz|.zst], a .wst, or a cuobjdump/nvdisasm listing
 * (recognised by content).
 *
 * Leaves out: reading and writing kernels (run/ws_run_trace.h,
 * ws_input_pack), the summary's layout (report/ws_info.h).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/ws_info.h"
#include "run/ws_run_trace.h"
#include "util/ws_output.h"
#include "ws_cli.h"

struct ws_trace_args {
    struct ws_cli_gpu_opts gpu;
    struct ws_cli_params params;
    const char *out_dir;
    struct ws_trace_opts topts;
    const char *json;
    const char *input;
};

static void ws_trace_help(FILE *out)
{
    fprintf(
        out,
        "usage: warpsim trace info [OPTIONS] PATH\n"
        "       warpsim trace gen [--param NAME=VALUE]... [--listing FILE] -o DIR WORKLOAD\n"
        "       warpsim trace pack [OPTIONS] -o OUT.wst TRACE\n"
        "\n"
        "Summarises a kernel trace or a SASS listing without simulating it: per\n"
        "kernel the launch (grid, block, registers, shared memory, SM version),\n"
        "CTAs, warps, warp instructions, the instruction mix by class, memory\n"
        "instructions by space with average sectors per request and active lanes,\n"
        "and unknown opcodes. For a listing, the static mix per function.\n"
        "\n"
        "PATH is a kernelslist.g, a folder holding one, a kernel-N.traceg[.xz|.zst], a\n"
        "packed .wst, a workload.yaml (expanded first), or a cuobjdump -sass /\n"
        "nvdisasm listing.\n"
        "\n"
        "gen expands WORKLOAD and writes DIR/kernelslist.g and DIR/kernel-1.traceg in\n"
        "the Accel-Sim format (tracer version 4), readable by warpsim and Accel-Sim.\n"
        "\n"
        "pack reads TRACE (a kernelslist.g, a folder holding one, or one\n"
        "kernel-N.traceg[.xz|.zst]) and writes its kernels and host-to-device copies as\n"
        "one binary file, OUT.wst, which every command accepts in place of the\n"
        "text and reads without parsing.\n"
        "\n"
        "options:\n"
        "  -g, --gpu CONFIG        GPU whose sector and bank sizes are used and whose\n"
        "                          unknown_opcode_class applies (default %s)\n"
        "  -s, --set KEY=VALUE     override one config key\n"
        "      --json FILE         also write the summary as JSON to FILE\n"
        "  -p, --param NAME=VALUE  override a workload parameter (repeatable)\n"
        "      --listing FILE      expand the workload over another listing\n"
        "  -o, --output DIR        where gen writes the trace (pack: the .wst)\n"
        "      --allow-unknown-keys  skip unknown '-key = value' trace header lines\n"
        "                          instead of rejecting them\n" WS_CLI_LIMIT_HELP
        "  -h, --help              this text\n",
        ws_cfg_default_name());
}

static int ws_trace_info_traces(const struct ws_trace_args *a,
                                struct ws_input *in, const struct ws_gpu *gpu,
                                struct ws_output *jo, struct ws_err *err)
{
    struct ws_info_trace t;
    char *json = NULL;
    int rc;

    memset(&t, 0, sizeof t);
    t.input = a->input;
    t.gpu_name = gpu->name;
    rc = ws_run_trace_info(in, gpu, &t, err);
    if (rc == 0 && a->json) {
        json = ws_info_json_trace(&t);
        rc = json ? ws_output_write(jo, json, err) : ws_err_oom(err);
    }
    if (rc == 0)
        ws_info_print_trace(stdout, &t);
    free(json);
    ws_run_trace_info_free(&t);
    return rc;
}

static int ws_trace_info_listing(const struct ws_trace_args *a,
                                 const struct ws_input *in,
                                 struct ws_output *jo, struct ws_err *err)
{
    char *json = NULL;
    int rc = 0;

    if (a->json) {
        json = ws_info_json_listing(a->input, ws_input_listing(in));
        rc = json ? ws_output_write(jo, json, err) : ws_err_oom(err);
    }
    if (rc == 0)
        ws_info_print_listing(stdout, a->input, ws_input_listing(in));
    free(json);
    return rc;
}

static int ws_trace_parse_args(struct ws_trace_args *a, int argc, char **argv)
{
    static const struct option longopts[] = {
        {"gpu", required_argument, NULL, WS_OPT_GPU},
        {"set", required_argument, NULL, WS_OPT_SET},
        {"json", required_argument, NULL, WS_OPT_JSON},
        {"allow-unknown-keys", no_argument, NULL, WS_OPT_ALLOW_UNKNOWN_KEYS},
        {"param", required_argument, NULL, 'p'},
        {"listing", required_argument, NULL, WS_OPT_LISTING},
        WS_CLI_LIMIT_LONGOPTS,
        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, WS_OPT_HELP},
        {NULL, 0, NULL, 0}};
    int opt;

    optind = 1;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":g:s:p:o:h", longopts, NULL))
           != -1) {
        int used = ws_cli_input_option(&a->gpu, &a->params, &a->topts, "trace",
                                       opt, optarg);
        if (used < 0)
            return WS_EXIT_INPUT;
        if (used)
            continue;
        switch (opt) {
        case 'o':
            if (ws_cli_once("trace", &a->out_dir, optarg, "-o") < 0)
                return WS_EXIT_INPUT;
            break;
        case WS_OPT_JSON:
            if (ws_cli_once("trace", &a->json, optarg, "--json") < 0)
                return WS_EXIT_INPUT;
            break;
        case WS_OPT_ALLOW_UNKNOWN_KEYS:
            a->topts.allow_unknown_keys = 1;
            break;
        case WS_OPT_HELP:
            ws_trace_help(stdout);
            return 1;
        default:
            return ws_cli_bad_option("trace", opt, argv);
        }
    }
    if (optind != argc - 1)
        return ws_cli_usage("trace", optind >= argc ? "missing PATH"
                                                    : "more than one PATH");
    a->input = argv[optind];
    return 0;
}

/* Writes the expanded workload as DIR/kernel-1.traceg (through a
 * temporary file, so a failed or interrupted expansion leaves nothing) and
 * DIR/kernelslist.g, creating DIR as mkdir -p would. */
static int ws_trace_gen(const struct ws_trace_args *a, struct ws_input *in,
                        struct ws_err *err)
{
    char trace[4096], list[4096];
    struct ws_output outs[2] = {
        {.path = trace, .flag = "trace gen -o", .named = a->out_dir},
        {.path = list, .flag = "trace gen -o", .named = a->out_dir}};
    const char *inputs[2] = {a->input, a->params.listing};
    size_t made;
    int rc;

    if (!ws_input_has_workload(in))
        return ws_err_arg(err, a->input, 0, 0,
                          "trace gen expands a workload "
                          "description (expected a workload.yaml, not a "
                          "trace or listing)");
    if ((size_t)snprintf(trace, sizeof trace, "%s/kernel-1.traceg", a->out_dir)
        >= sizeof trace)
        return ws_err_arg(err, a->out_dir, 0, 0,
                          "folder name too long "
                          "(expected at most %zu bytes)",
                          sizeof trace - 32);
    snprintf(list, sizeof list, "%s/kernelslist.g", a->out_dir);
    rc = ws_output_mkdirs(a->out_dir, NULL, "a folder for the trace", &made,
                          err);
    if (rc == 0)
        rc = ws_output_plan(outs, 2, inputs, 2, err);
    if (rc == 0)
        rc = ws_output_open(&outs[0], err);
    if (rc == 0) {
        rc = ws_run_trace_gen(in, outs[0].fp, err);
        rc = rc == 0 ? ws_output_commit(&outs[0], err) : -1;
    }
    if (rc == 0)
        rc = ws_output_write(&outs[1], "kernel-1.traceg\n", err);
    ws_output_free(&outs[0]);
    ws_output_free(&outs[1]);
    if (rc < 0)
        ws_output_rmdirs(a->out_dir, made);
    return rc;
}

/* Writes the trace's commands, in launch order, as one .wst (through a
 * temporary file, so a trace that turns out corrupt leaves nothing). */
static int ws_trace_pack(const struct ws_trace_args *a, struct ws_input *in,
                         struct ws_err *err)
{
    struct ws_output out = {.path = a->out_dir, .flag = "trace pack -o"};
    int rc;

    if (!ws_input_can_pack(in))
        return ws_err_arg(err, a->input, 0, 0,
                          "trace pack reads a trace "
                          "(expected a kernelslist.g, a folder holding one, "
                          "a kernel-N.traceg[.xz|.zst] or a .wst, not a %s)",
                          ws_input_what(in));
    rc = ws_cli_plan_outputs(&out, 1, in, NULL, 0, err);
    if (rc == 0)
        rc = ws_output_open(&out, err);
    if (rc == 0)
        rc = ws_input_pack(in, out.fp, a->out_dir, err);
    if (rc == 0)
        rc = ws_output_commit(&out, err);
    ws_output_free(&out);
    return rc;
}

int ws_cmd_trace(int argc, char **argv)
{
    struct ws_trace_args a;
    struct ws_input_params ip;
    struct ws_input *in = NULL;
    struct ws_output jo = {.flag = "--json"};
    struct ws_gpu gpu;
    struct ws_err err;
    int gen, pack, rc;

    memset(&a, 0, sizeof a);
    ws_err_clear(&err);
    ws_trace_opts_default(&a.topts);
    if (argc < 2)
        return ws_cli_usage("trace", "missing subcommand (expected info, gen "
                                     "or pack)");
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        ws_trace_help(stdout);
        return WS_EXIT_OK;
    }
    if (strcmp(argv[1], "info") != 0 && strcmp(argv[1], "gen") != 0
        && strcmp(argv[1], "pack") != 0)
        return ws_cli_usage("trace",
                            "unknown subcommand '%s' (expected "
                            "info, gen or pack)",
                            argv[1]);
    rc = ws_trace_parse_args(&a, argc - 1, argv + 1);
    if (rc == 1)
        return WS_EXIT_OK;
    if (rc != 0)
        return rc;
    if (ws_cli_load_gpu(&a.gpu, &gpu, &err) < 0)
        return ws_cli_fail(&err);
    a.topts.unknown_class = gpu.unknown_class;
    gen = strcmp(argv[1], "gen") == 0;
    pack = strcmp(argv[1], "pack") == 0;
    if (gen && !a.out_dir)
        return ws_cli_usage("trace gen", "missing -o DIR");
    if (pack && !a.out_dir)
        return ws_cli_usage("trace pack", "missing -o OUT.wst");
    if ((gen || pack) && a.json)
        return ws_cli_usage(gen ? "trace gen" : "trace pack",
                            "--json applies to trace info only");
    if (!gen && !pack && a.out_dir)
        return ws_cli_usage("trace info", "-o applies to trace gen and pack "
                                          "only");
    ip = ws_cli_input_params(&a.params, &a.topts);
    rc = ws_input_open(&in, a.input, &ip, &err);
    jo.path = a.json;
    if (rc == 0 && a.json) {
        const char *extra[2] = {a.gpu.gpu, a.params.listing};
        rc = ws_cli_plan_outputs(&jo, 1, in, extra, 2, &err);
    }
    if (rc == 0 && gen)
        rc = ws_trace_gen(&a, in, &err);
    else if (rc == 0 && pack)
        rc = ws_trace_pack(&a, in, &err);
    else if (rc == 0)
        rc = ws_input_is_static(in)
                 ? ws_trace_info_listing(&a, in, &jo, &err)
                 : ws_trace_info_traces(&a, in, &gpu, &jo, &err);
    ws_output_free(&jo);
    ws_input_close(in);
    if (rc < 0)
        ws_err_place_arg(&err, a.input);
    return rc < 0 ? ws_cli_fail(&err) : WS_EXIT_OK;
}
