/*
 * ws_file: a small text file read whole (configs, workload descriptions),
 * with a size limit so that a wrong path to a huge file is an error, not
 * a gigabyte allocation.
 *
 * Only regular files are read: a FIFO, a terminal or a device named by
 * mistake would block or never end, and a folder is a wrong path.  The
 * open never blocks (O_NONBLOCK until fstat has said it is a regular file).
 *
 * And the other way, all of a buffer to a descriptor (a sweep's results
 * file and its workers' pipes), which write(2) may take in pieces.
 *
 * Leaves out: large inputs (traces go through ws_lines, line by line).
 */
#ifndef WS_FILE_H
#define WS_FILE_H

#include <stddef.h>

#include "ws_err.h"

/* Reads the regular file at path into a NUL-terminated buffer the caller
 * frees, its length in *len.  `what` names the content in messages
 * ("config", "workload"); max is a whole number of MiB, as the message
 * says.
 *
 * NULL with err set on failure: a file over max bytes is placed at
 * path:1:1; an I/O failure is left unplaced for the caller that knows
 * where the name was written (ws_err_place), as "PATH: cannot open: <errno
 * text> (expected a readable WHAT file)" or "PATH: is a folder ...".
 * When missing is not NULL, a path that does not exist (ENOENT, ENOTDIR)
 * sets *missing to 1 and returns NULL with err untouched, so the caller
 * can look elsewhere (a built-in config's name). */
char *ws_file_read(const char *path, const char *what, size_t max, size_t *len,
                   int *missing, struct ws_err *err);

/* ws_file_read of a file this command wrote itself (a study's sweep
 * results): it does not join the set of files read, which outputs may not
 * replace, so a later step may write it again. */
char *ws_file_read_own(const char *path, const char *what, size_t max,
                       size_t *len, struct ws_err *err);

/* Writes all len bytes of buf to fd, again after EINTR or a short write.
 * 0, or -1 with errno set (ENOSPC when the descriptor took nothing). */
int ws_file_write_all(int fd, const void *buf, size_t len);

#endif
