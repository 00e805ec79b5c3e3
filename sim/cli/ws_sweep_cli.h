/*
 * ws_sweep_cli: the parts of `warpsim sweep` in files of their own.
 */
#ifndef WS_SWEEP_CLI_H
#define WS_SWEEP_CLI_H

/* warpsim sweep merge OUT.csv SHARE... (argv[0] is "merge"). */
int ws_cmd_sweep_merge(int argc, char **argv);

#endif
