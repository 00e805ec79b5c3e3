/*
 * ws_output: the files a command writes (--json, --csv, --timeline, trace
 * gen's folder), checked before any work starts and written so that a
 * failed or interrupted command leaves nothing behind and destroys nothing.
 *
 * The rules, in the order they are checked:
 *   - a symbolic link is followed to the file it names, and that file is
 *     what gets written (the link stays a link);
 *   - an output that is the command's own standard output or error (e.g.
 *     /dev/stdout) is written through that stream, in order with the rest;
 *   - anything else that is not a regular file (a character device such as
 *     /dev/null, a FIFO) is written in place, never replaced;
 *   - what goes to a stream, a device or a FIFO is held in an unnamed
 *     temporary file until the command succeeds, since it cannot be taken
 *     back;
 *   - a regular file or a new path is written to a temporary file beside it
 *     and renamed over it only when complete, keeping the old file's mode;
 *   - a folder, a read-only file, a file the command read (named on the
 *     command line, or reached through a list, a workload's listing or a
 *     config's base:), and two outputs naming the same file or stream are
 *     refused (exit 2) before anything runs;
 *   - a write that fails afterwards (a full disk) is exit 1.
 * Temporary files are removed on SIGINT, SIGTERM and SIGHUP.
 *
 * Leaves out: locking against other processes writing the same file.
 */
#ifndef WS_OUTPUT_H
#define WS_OUTPUT_H

#include <stdio.h>

#include "util/ws_err.h"

struct ws_output {
    const char *path;       /* as the user wrote it (points into argv) */
    const char *flag;       /* the option that named it, for messages */
    const char *named;      /* the argument naming it, when path is built
                               from one (trace gen's -o DIR); else path */
    char *real;             /* the file written: symlinks followed */
    char *tmp;              /* temporary beside real while open */
    int stream;             /* 1 or 2: written through stdout or stderr */
    int inplace;            /* a device or FIFO: opened and written */
    int has_mode;           /* replacing a file: keep its permissions */
    unsigned mode;
    FILE *fp;
};

/* Resolves and checks outputs[0..n) against each other, against the
 * inputs (paths; NULL entries are skipped) and against every file read so
 * far; outputs with no path are skipped.  Nothing is created.  Errors are
 * placed at the command-line word that named the output. */
int ws_output_plan(struct ws_output *outs, int n, const char *const *inputs,
                   int ninputs, struct ws_err *err);

/* Opens o->fp for writing (a temporary file, the device, or the stream). */
int ws_output_open(struct ws_output *o, struct ws_err *err);

/* Closes o->fp and puts the file in place; on failure nothing is left. */
int ws_output_commit(struct ws_output *o, struct ws_err *err);

/* Closes o->fp, if open, and removes the temporary file. */
void ws_output_abort(struct ws_output *o);

/* ws_output_open + the text + ws_output_commit. */
int ws_output_write(struct ws_output *o, const char *text, struct ws_err *err);

void ws_output_free(struct ws_output *o);

/* mkdir -p: creates path and its missing parents.  *made is the length of
 * the shortest prefix of path this call created (0 when none), for
 * ws_output_rmdirs.  Errors carry errno. */
int ws_output_mkdirs(const char *path, size_t *made, struct ws_err *err);

/* Undoes ws_output_mkdirs after a failure: removes, deepest first, the
 * folders it made, as long as they are empty. */
void ws_output_rmdirs(const char *path, size_t made);

#endif
