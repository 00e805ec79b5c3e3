/*
 * ws_readset: the files this process has opened for reading, by device and
 * inode, so that an output is never written over an input however the
 * input was reached: named on the command line, listed in a kernelslist.g,
 * pulled in by a workload's listing: or a config's base:, or reached
 * through a link.
 *
 * Every reader of input files (ws_lines, ws_file) records what it opens;
 * the command checks its outputs against the set before writing.
 *
 * Leaves out: files opened after the check (kernel traces of a long list
 * are opened one at a time during the run; the command checks the list's
 * paths itself).  The set is bounded; past its size, files are not kept.
 */
#ifndef WS_READSET_H
#define WS_READSET_H

#include <sys/stat.h>

/* Records the file st describes (from fstat of an open input), opened as
 * path. */
void ws_readset_note(const char *path, const struct stat *st);

/* 1 when the file st describes was opened as an input and path still
 * names it (a deleted or renamed-over input's inode number may be reused
 * by a new file, which is then not an input). */
int ws_readset_has(const struct stat *st);

#endif
