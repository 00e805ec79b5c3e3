/*
 * warpsim compare: PLACEHOLDER while the command is being written.
 */
#include "ws_cli.h"

int ws_cmd_compare(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return ws_cli_usage("compare", "not built yet");
}
