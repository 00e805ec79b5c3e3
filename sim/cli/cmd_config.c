/*
 * warpsim config show | list: the effective GPU description and the
 * built-in ones.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "ws_cli.h"

static void ws_config_help(FILE *out)
{
    fprintf(out,
"usage: warpsim config show [--gpu CONFIG] [--set KEY=VALUE ...]\n"
"       warpsim config list\n"
"\n"
"show prints the GPU config warpsim would simulate, as YAML that --gpu can\n"
"read back: the file or built-in config CONFIG (default %s), its base:\n"
"chain, then every --set in order. Values carry units (48KiB, 1380MHz,\n"
"898GB/s); latencies are SM core cycles.\n"
"\n"
"options:\n"
"  -g, --gpu CONFIG      a YAML file or a built-in name (see config list)\n"
"  -s, --set KEY=VALUE   override one key, e.g. --set l2.size=12MiB\n"
"  -h, --help            this text\n", ws_cfg_default_name());
}

static int ws_config_list(void)
{
    for (int i = 0; ws_cfg_builtin_name(i); i++) {
        const char *n = ws_cfg_builtin_name(i);
        printf("%.*s%s\n", (int)(strlen(n) - 5), n,
               strncmp(n, ws_cfg_default_name(), strlen(n) - 5) == 0
               && strlen(ws_cfg_default_name()) == strlen(n) - 5
               ? " (default)" : "");
    }
    return WS_EXIT_OK;
}

int ws_cmd_config(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"gpu", required_argument, NULL, WS_OPT_GPU},
        {"set", required_argument, NULL, WS_OPT_SET},
        {"help", no_argument, NULL, WS_OPT_HELP},
        {NULL, 0, NULL, 0}
    };
    struct ws_cli_gpu_opts gopts;
    struct ws_gpu gpu;
    struct ws_err err;
    const char *sub;
    int opt;

    memset(&gopts, 0, sizeof gopts);
    ws_err_clear(&err);
    if (argc < 2)
        return ws_cli_usage("config", "missing subcommand (expected show or "
                            "list)");
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        ws_config_help(stdout);
        return WS_EXIT_OK;
    }
    sub = argv[1];
    if (strcmp(sub, "show") != 0 && strcmp(sub, "list") != 0)
        return ws_cli_usage("config", "unknown subcommand '%s' (expected "
                            "show or list)", sub);
    optind = 1;
    opterr = 0;
    while ((opt = getopt_long(argc - 1, argv + 1, ":g:s:h", longopts, NULL)) != -1) {
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
