/*
 * ws_kernelslist: the command list of an Accel-Sim trace (kernelslist.g).
 *
 * One command per line, in launch order: "MemcpyHtoD,0x<dst>,<bytes>" or a
 * kernel trace file: a name or relative path (taken from the list's folder)
 * or an absolute path.  Other lines are skipped, as the reference simulator
 * skips them (device-to-host copies and comments).  The list is small, so
 * it is read whole; loading checks that every kernel file is a readable
 * regular file, and reports one that is not at its line.
 *
 * Leaves out: the kernels themselves (ws_traceg reads each one lazily).
 */
#ifndef WS_KERNELSLIST_H
#define WS_KERNELSLIST_H

#include <stddef.h>
#include <stdint.h>

#include "util/ws_err.h"

enum ws_cmd_kind {
    WS_CMD_KERNEL,
    WS_CMD_MEMCPY_HTOD
};

struct ws_cmd {
    enum ws_cmd_kind kind;
    char *path;           /* kernel trace path, resolved against the folder */
    uint64_t addr, bytes; /* MemcpyHtoD */
    long line;            /* where the list names it: a caller whose open of
                              the kernel fails places the error there with
                              ws_err_place(err, list->name, line, 1); 0 for
                              a kernel given on its own, whose name the
                              command line holds */
};

struct ws_cmdlist {
    char *name; /* the list's own path, for messages */
    struct ws_cmd *cmds;
    size_t n, cap;
    size_t nkernels;
};

int ws_kernelslist_load(struct ws_cmdlist *list, const char *path,
                        struct ws_err *err);

/* Parses list text from memory; dir is the folder kernel paths are
 * relative to (may be "" for none). */
int ws_kernelslist_parse_mem(struct ws_cmdlist *list, const char *name,
                             const char *dir, const void *data, size_t len,
                             struct ws_err *err);

/* A list holding one kernel trace, for a .traceg given on its own (its
 * entry has line 0); the path is taken as it is, spaces and all. */
int ws_kernelslist_single(struct ws_cmdlist *list, const char *path,
                          struct ws_err *err);

void ws_kernelslist_free(struct ws_cmdlist *list);

#endif
