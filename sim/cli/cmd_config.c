/*
 * warpsim config show | list | import: the effective GPU description, the
 * built-in ones, and a GPGPU-Sim / Accel-Sim description translated into
 * warpsim's YAML.
 *
 * Leaves out: the translation itself (import/ws_gpgpusim.h).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/ws_gpgpusim.h"
#include "ws_cli.h"
#include "util/ws_output.h"

static void ws_config_help(FILE *out)
{
    fprintf(
        out,
        "usage: warpsim config show [--gpu CONFIG] [--set KEY=VALUE ...]\n"
        "       warpsim config list\n"
        "       warpsim config import GPGPUSIM_CONFIG [TRACE_CONFIG] [-o FILE]\n"
        "                             [--base CONFIG]\n"
        "\n"
        "show prints the GPU config warpsim would simulate, as YAML that --gpu can\n"
        "read back: the file or built-in config CONFIG (default %s), its base:\n"
        "chain, then every --set in order. Values carry units (48KiB, 1380MHz,\n"
        "898GB/s); latencies are SM core cycles. --set KEY=xF scales the\n"
        "config's value by F in its own unit (dram.bandwidth=x1.5).\n"
        "\n"
        "import translates a GPGPU-Sim / Accel-Sim GPU description (gpgpusim.config,\n"
        "and trace.config read after it) into a warpsim config: every option with\n"
        "a warpsim equivalent becomes a key, with a comment naming the option;\n"
        "keys GPGPU-Sim has no option for come from a built-in config (the one\n"
        "nearest the input's compute capability, or --base); the options without\n"
        "an equivalent are listed, with the reason, at the end. The result is\n"
        "checked as --gpu would load it before anything is written.\n"
        "\n"
        "options:\n"
        "  -g, --gpu CONFIG      show: a YAML file or a built-in name (config list)\n"
        "  -s, --set KEY=VALUE   show: override one key, e.g. --set l2.size=12MiB\n"
        "  -o, --output FILE     import: write the config there (default: standard\n"
        "                        output)\n"
        "      --base CONFIG     import: the config keys GPGPU-Sim lacks come from\n"
        "  -h, --help            this text\n",
        ws_cfg_default_name());
}

enum {
    WS_CONFIG_OPT_BASE = 0x200
};

struct ws_config_import_args {
    struct ws_gpgpusim_import in;
    const char *out;
};

/* An option import does not take, or one without its value. */
static int ws_config_import_bad(int opt, char **argv)
{
    char buf[3];
    const char *w = ws_cli_option_word(opt, argv, buf);

    if (opt == ':')
        return ws_cli_usage("config",
                            "import: option '%s' needs a value "
                            "(expected %s)",
                            w,
                            optopt == WS_CONFIG_OPT_BASE ? "--base CONFIG"
                                                         : "-o FILE");
    return ws_cli_usage("config",
                        "import: bad option '%s' (expected -o "
                        "FILE, --base CONFIG or --help)",
                        w);
}

/* argv[0] is "import".  0 ok, 1 after --help, WS_EXIT_INPUT on a usage
 * error. */
static int ws_config_import_parse(struct ws_config_import_args *a, int argc,
                                  char **argv)
{
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},
        {"base", required_argument, NULL, WS_CONFIG_OPT_BASE},
        {"help", no_argument, NULL, WS_OPT_HELP},
        {NULL, 0, NULL, 0}};
    int opt;

    optind = 1;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
        if (opt == WS_OPT_HELP) {
            ws_config_help(stdout);
            return 1;
        }
        if (opt == 'o' || opt == WS_CONFIG_OPT_BASE) {
            if (ws_cli_once("config", opt == 'o' ? &a->out : &a->in.base,
                            optarg, opt == 'o' ? "-o" : "--base")
                < 0)
                return WS_EXIT_INPUT;
            continue;
        }
        return ws_config_import_bad(opt, argv);
    }
    if (optind >= argc)
        return ws_cli_usage("config",
                            "import: missing GPGPUSIM_CONFIG "
                            "(expected GPGPUSIM_CONFIG [TRACE_CONFIG]: the "
                            "gpgpusim.config file to translate)");
    if (argc - optind > 2)
        return ws_cli_usage("config",
                            "import: unexpected argument '%s' "
                            "(expected GPGPUSIM_CONFIG [TRACE_CONFIG])",
                            argv[optind + 2]);
    a->in.config = argv[optind];
    a->in.trace = argc - optind > 1 ? argv[optind + 1] : NULL;
    return 0;
}

/* Nothing is written unless the whole translation and its check passed.
 * The output is checked against the inputs once they have all been read:
 * the --base chain is known only then. */
static int ws_config_import(int argc, char **argv)
{
    struct ws_config_import_args a;
    struct ws_output o = {.flag = "-o"};
    struct ws_err err;
    const char *inputs[3];
    char *yaml = NULL;
    int rc;

    memset(&a, 0, sizeof a);
    ws_err_clear(&err);
    rc = ws_config_import_parse(&a, argc, argv);
    if (rc != 0)
        return rc == 1 ? WS_EXIT_OK : rc;
    inputs[0] = a.in.config;
    inputs[1] = a.in.trace;
    inputs[2] = a.in.base;
    o.path = a.out;
    rc = ws_gpgpusim_import(&a.in, &yaml, &err);
    if (rc == 0 && a.out)
        rc = ws_output_plan(&o, 1, inputs, 3, &err);
    if (rc == 0 && a.out)
        rc = ws_output_write(&o, yaml, &err);
    if (rc == 0 && !a.out
        && (fputs(yaml, stdout) == EOF || fflush(stdout) != 0)) {
        rc = ws_err_msg(&err, "cannot write the config to standard output "
                              "(expected it open)");
        err.internal = 1;
    }
    free(yaml);
    ws_output_free(&o);
    return rc < 0 ? ws_cli_fail(&err) : WS_EXIT_OK;
}

/* The built-in configs, each with what it describes: the part's name,
 * its SM version and size, as its own file says them. */
static int ws_config_list(void)
{
    for (int i = 0; ws_cfg_builtin_name(i); i++) {
        const char *n = ws_cfg_builtin_name(i);
        int len = (int)(strlen(n) - 5); /* less ".yaml" */
        int dflt = strncmp(n, ws_cfg_default_name(), (size_t)len) == 0
                   && (int)strlen(ws_cfg_default_name()) == len;
        struct ws_gpu g;
        struct ws_err err;
        ws_err_clear(&err);
        if (ws_cfg_load(&g, n, NULL, 0, &err) < 0) {
            printf("%.*s%s\n", len, n, dflt ? " (default)" : "");
            continue;
        }
        printf("%-10.*s %s: sm_%u, %u SMs at %.0f MHz%s\n", len, n, g.name,
               g.sm_version, g.sm.count, g.core_mhz, dflt ? " (default)" : "");
    }
    return WS_EXIT_OK;
}

int ws_cmd_config(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"gpu", required_argument, NULL, WS_OPT_GPU},
        {"set", required_argument, NULL, WS_OPT_SET},
        {"help", no_argument, NULL, WS_OPT_HELP},
        {NULL, 0, NULL, 0}};
    struct ws_cli_gpu_opts gopts;
    struct ws_gpu gpu;
    struct ws_err err;
    const char *sub;
    int opt;

    memset(&gopts, 0, sizeof gopts);
    ws_err_clear(&err);
    if (argc < 2)
        return ws_cli_usage("config", "missing subcommand (expected show, "
                                      "list or import)");
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        ws_config_help(stdout);
        return WS_EXIT_OK;
    }
    sub = argv[1];
    if (strcmp(sub, "import") == 0)
        return ws_config_import(argc - 1, argv + 1);
    if (strcmp(sub, "show") != 0 && strcmp(sub, "list") != 0)
        return ws_cli_usage("config",
                            "unknown subcommand '%s' (expected "
                            "show, list or import)",
                            sub);
    optind = 1;
    opterr = 0;
    while ((opt = getopt_long(argc - 1, argv + 1, ":g:s:h", longopts, NULL))
           != -1) {
        int used = ws_cli_gpu_option(&gopts, "config", opt, optarg);
        if (used < 0)
            return WS_EXIT_INPUT;
        if (used)
            continue;
        if (opt == WS_OPT_HELP) {
            ws_config_help(stdout);
            return WS_EXIT_OK;
        }
        return ws_cli_bad_option("config", opt, argv + 1);
    }
    if (optind + 1 < argc)
        return ws_cli_usage("config", "unexpected argument '%s'",
                            argv[optind + 1]);
    if (strcmp(sub, "list") == 0)
        return ws_config_list();
    if (ws_cli_load_gpu(&gopts, &gpu, &err) < 0)
        return ws_cli_fail(&err);
    ws_cfg_print(stdout, &gpu);
    return WS_EXIT_OK;
}
