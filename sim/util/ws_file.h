/*
 * ws_file: a small text file read whole (configs, workload descriptions),
 * with a size limit so that a wrong path to a huge file is an error, not
 * a gigabyte allocation.
 *
 * Leaves out: large inputs (traces go through ws_lines, line by line).
 */
#ifndef WS_FILE_H
#define WS_FILE_H

#include <stddef.h>
#include <stdio.h>

#include "ws_err.h"

/* Reads all of fp (opened from `name`) into a NUL-terminated buffer the
 * caller frees; NULL with err set when it holds more than max bytes (a
 * whole number of MiB, as the message says).
 * `what` names the content in the message ("config", "workload"). */
char *ws_file_slurp(FILE *fp, const char *name, const char *what, size_t max,
                    size_t *len, struct ws_err *err);

#endif
