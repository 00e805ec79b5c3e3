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
 *     the temporary file has an unpredictable name (.warpsim-XXXXXX in the
 *     same folder) and is created exclusively, so nothing planted there in
 *     advance (a link, a folder, a read-only file) is opened or followed;
 *   - the folder is tried before anything runs, by making and removing
 *     such a file, so a folder that takes no new files (read-only, a
 *     read-only file system, no permission) is refused up front even when
 *     the file itself exists and is writable;
 *   - a folder, a read-only file, a file the command read (named on the
 *     command line, or reached through a list, a workload's listing or a
 *     config's base:), and two outputs naming the same file or stream are
 *     refused (exit 2) before anything runs;
 *   - a write that fails afterwards (a full disk) is exit 1.
 * Temporary files are removed on SIGINT, SIGTERM and SIGHUP.
 *
 * Leaves out: locking against other processes writing the same file,
 * except that a commit can leave the new file locked (flock) for a caller
 * that appends to it afterwards (the sweep's results).
 */
#ifndef WS_OUTPUT_H
#define WS_OUTPUT_H

#include <stdio.h>

#include "ws_err.h"

struct ws_output {
    const char *path;    /* as the user wrote it (points into argv) */
    const char *flag;    /* the option that named it, for messages */
    const char *named;   /* the argument naming it, when path is built
                               from one (trace gen's -o DIR); else path */
    const char *at_file; /* or, when set, the file and place that named
                               it (a sweep file's plot): errors go there */
    long at_line, at_col;
    char *real;   /* the file written: symlinks followed */
    char *tmp;    /* temporary beside real while open */
    int stream;   /* 1 or 2: written through stdout or stderr */
    int inplace;  /* a device or FIFO: opened and written */
    int has_mode; /* replacing a file: keep its permissions */
    unsigned mode;
    FILE *fp;
    int lock;   /* set by the caller: commit takes flock(LOCK_EX)
                               on the new file before renaming it in place */
    int lockfd; /* after such a commit: the locked descriptor
                               (O_RDWR), the caller's to close */
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
 * ws_output_rmdirs.  Errors carry errno, are placed at the command-line
 * word named (path when NULL), and say what the folder is for (what: "a
 * folder for the trace"). */
int ws_output_mkdirs(const char *path, const char *named, const char *what,
                     size_t *made, struct ws_err *err);

/* Undoes ws_output_mkdirs after a failure: removes, deepest first, the
 * folders it made, as long as they are empty. */
void ws_output_rmdirs(const char *path, size_t made);

#endif
