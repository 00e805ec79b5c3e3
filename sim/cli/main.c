/*
 * warpsim: the command.  Dispatches to one subcommand per file (cmd_*.c)
 * through the command table (ws_commands.c), which also makes the help.
 *
 * Exit statuses: 0 success, 2 bad input or usage (one error line on
 * stderr), 1 internal failure.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ws_cli.h"

/* Warnings wait until the command has succeeded: a failed command prints
 * its one error line and nothing else.  A few are enough to show what is
 * wrong; the rest are counted. */
#define WS_MAIN_MAX_WARNINGS 20

static char ws_main_warnings[WS_MAIN_MAX_WARNINGS][WS_ERR_TEXT];
static int ws_main_nwarnings;

static void ws_main_warn(const char *line)
{
    if (ws_main_nwarnings < WS_MAIN_MAX_WARNINGS)
        snprintf(ws_main_warnings[ws_main_nwarnings], WS_ERR_TEXT, "%s", line);
    ws_main_nwarnings++;
}

static void ws_main_flush_warnings(void)
{
    int n = ws_main_nwarnings < WS_MAIN_MAX_WARNINGS ? ws_main_nwarnings
                                                     : WS_MAIN_MAX_WARNINGS;

    for (int i = 0; i < n; i++)
        fprintf(stderr, "%s\n", ws_main_warnings[i]);
    if (ws_main_nwarnings > n)
        fprintf(stderr, "warpsim: %d more warnings not shown\n",
                ws_main_nwarnings - n);
}

/* Output lost to a full disk or a closed pipe is a failure, not a success
 * with nothing to show: stdout is flushed and closed here and checked. */
static int ws_main_finish(int rc)
{
    if (fflush(stdout) != 0 || ferror(stdout) || fclose(stdout) != 0) {
        if (rc == WS_EXIT_OK) {
            fprintf(stderr, "warpsim: cannot write standard output: %s\n",
                    strerror(errno));
            rc = WS_EXIT_INTERNAL;
        }
    }
    if (rc == WS_EXIT_OK)
        ws_main_flush_warnings();
    return rc;
}

/* Hidden: 'warpsim --completion bash' prints the completion script the
 * build installs; 'warpsim --commands' lists the table's rows for
 * dist/man_page.sh and the tests.  Neither is a command of the help. */
static int ws_main_hidden(int argc, char **argv)
{
    if (strcmp(argv[1], "--commands") == 0) {
        ws_cli_print_commands(stdout);
        return WS_EXIT_OK;
    }
    if (argc != 3) {
        fprintf(stderr,
                "warpsim: --completion: %s (expected one SHELL: "
                "bash)\n",
                argc < 3 ? "missing SHELL" : "more than one SHELL");
        return WS_EXIT_INPUT;
    }
    if (ws_cli_completion(stdout, argv[2]) < 0) {
        fprintf(stderr,
                "warpsim: --completion: unknown shell '%s' (expected "
                "bash)\n",
                argv[2]);
        return WS_EXIT_INPUT;
    }
    return WS_EXIT_OK;
}

static int ws_main_dispatch(int argc, char **argv)
{
    const struct ws_cli_command *c;

    if (argc < 2)
        return ws_cli_usage("", "missing command"), ws_cli_help(stderr),
               WS_EXIT_INPUT;
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        ws_cli_help(stdout);
        return WS_EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("warpsim %s\n", WS_VERSION);
        return WS_EXIT_OK;
    }
    if (strcmp(argv[1], "--completion") == 0
        || strcmp(argv[1], "--commands") == 0)
        return ws_main_hidden(argc, argv);
    c = ws_cli_command_find(argv[1], argc > 2 ? argv[2] : NULL);
    if (!c)
        return ws_cli_unknown_command(argv[1]);
    return c->run(argc - 1, argv + 1);
}

int main(int argc, char **argv)
{
    /* A reader that goes away (| head) is a write error on stdout, exit 1
     * with a message, not a silent death by signal. */
    signal(SIGPIPE, SIG_IGN);
    /* Nothing is worth computing when nothing can be written: files would
     * be written and the summary lost. */
    if (fcntl(STDOUT_FILENO, F_GETFD) < 0) {
        fprintf(stderr, "warpsim: standard output is closed (expected "
                        "somewhere to write)\n");
        return WS_EXIT_INTERNAL;
    }
    ws_err_set_argv(argc, argv);
    ws_warn_set_sink(ws_main_warn);
    return ws_main_finish(ws_main_dispatch(argc, argv));
}
