/*
 * ws_kernelslist: kernelslist.g parsing (see ws_kernelslist.h).
 */
#include "ws_kernelslist.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/ws_grow.h"
#include "util/ws_lines.h"
#include "util/ws_num.h"

/* More commands than this are refused: a few hundred KiB of compressed
 * kernelslist can stand for a hundred million copies, gigabytes of
 * entries.  The largest real applications launch tens of thousands of
 * kernels with their copies. */
#define WS_CMDLIST_MAX (4u << 20)

static int ws_cmdlist_push(struct ws_cmdlist *list, struct ws_cmd *cmd,
                           struct ws_err *err)
{
    if (list->n >= WS_CMDLIST_MAX)
        return ws_err_at(err, list->name, cmd->line, 1,
                         "more than %u kernels and copies (expected at "
                         "most %u: an application's launches)",
                         WS_CMDLIST_MAX, WS_CMDLIST_MAX);
    if (ws_grow((void **)&list->cmds, &list->cap, list->n + 1,
                sizeof *list->cmds, 16)
        < 0)
        return ws_err_oom(err);
    list->cmds[list->n++] = *cmd;
    if (cmd->kind == WS_CMD_KERNEL)
        list->nkernels++;
    return 0;
}

static int ws_memcpy_line(struct ws_cmdlist *list, const char *line,
                          long lineno, struct ws_err *err)
{
    const char *a = strchr(line, ',');
    const char *b = a ? strchr(a + 1, ',') : NULL;
    struct ws_cmd cmd;

    memset(&cmd, 0, sizeof cmd);
    cmd.kind = WS_CMD_MEMCPY_HTOD;
    cmd.line = lineno;
    if (!a || !b || strchr(b + 1, ','))
        return ws_err_at(err, list->name, lineno, 1,
                         "bad MemcpyHtoD line "
                         "(expected 'MemcpyHtoD,0x<address>,<bytes>')");
    if (ws_num_hex(a + 1, (size_t)(b - a - 1), &cmd.addr) < 0)
        return ws_err_at(err, list->name, lineno, (long)(a - line) + 2,
                         "bad copy address (expected a hexadecimal address)");
    if (ws_num_u64(b + 1, strlen(b + 1), &cmd.bytes) < 0
        || cmd.bytes > (1ull << 40))
        return ws_err_at(err, list->name, lineno, (long)(b - line) + 2,
                         "bad copy size (expected a byte count up to 1 TiB)");
    if (cmd.bytes > 0 && cmd.addr > UINT64_MAX - (cmd.bytes - 1))
        return ws_err_at(err, list->name, lineno, (long)(a - line) + 2,
                         "copy of %llu bytes at 0x%llx runs past the end of "
                         "the address space (expected a copy below 2^64)",
                         (unsigned long long)cmd.bytes,
                         (unsigned long long)cmd.addr);
    return ws_cmdlist_push(list, &cmd, err);
}

/* A kernel line names a trace file.  The tracer writes "kernel-N.traceg"
 * (the reference simulator takes only lines starting with "kernel"); a
 * path to such a file, absolute or with folders ("../other/kernel-2.traceg",
 * "/data/run1/kernel-1.traceg.xz"), and any file ending in .traceg,
 * .traceg.xz or .traceg.zst are kernels too.  Other lines (MemcpyDtoH, '#' notes) are
 * skipped as the reference simulator skips them. */
static int ws_is_kernel_line(const char *line)
{
    const char *base = strrchr(line, '/');
    size_t n = strlen(line);

    if (line[0] == '#')
        return 0;
    base = base ? base + 1 : line;
    return strncmp(base, "kernel", 6) == 0
           || (n >= 7 && strcmp(line + n - 7, ".traceg") == 0)
           || (n >= 10 && strcmp(line + n - 10, ".traceg.xz") == 0)
           || (n >= 11 && strcmp(line + n - 11, ".traceg.zst") == 0);
}

static int ws_kernel_line(struct ws_cmdlist *list, const char *dir,
                          const char *line, long lineno, struct ws_err *err)
{
    size_t dn = strlen(dir), ln = strlen(line);
    struct ws_cmd cmd;

    memset(&cmd, 0, sizeof cmd);
    cmd.kind = WS_CMD_KERNEL;
    cmd.line = lineno;
    if (strpbrk(line, " \t,"))
        return ws_err_at(err, list->name, lineno, 1,
                         "bad kernel line '%s' "
                         "(expected a trace file name such as "
                         "kernel-1.traceg)",
                         line);
    cmd.path = malloc(dn + ln + 2);
    if (!cmd.path)
        return ws_err_oom(err);
    /* Relative paths are relative to the list's folder, absolute ones are
     * taken as they are. */
    if (dn && line[0] != '/')
        sprintf(cmd.path, "%s/%s", dir, line);
    else
        memcpy(cmd.path, line, ln + 1);
    if (ws_cmdlist_push(list, &cmd, err) < 0) {
        free(cmd.path);
        return -1;
    }
    /* cmd.path now belongs to the list's copy of cmd, which the analyser
     * does not follow.  NOLINTNEXTLINE(clang-analyzer-unix.Malloc) */
    return 0;
}

static int ws_kernelslist_read(struct ws_cmdlist *list, struct ws_lines *in,
                               const char *dir, struct ws_err *err)
{
    char *line;
    size_t len;
    int rc;

    while ((rc = ws_lines_next(in, &line, &len, err)) == 1) {
        while (len > 0 && (line[len - 1] == ' ' || line[len - 1] == '\t'))
            line[--len] = '\0';
        if (strncmp(line, "MemcpyHtoD", 10) == 0)
            rc = ws_memcpy_line(list, line, in->lineno, err);
        else if (ws_is_kernel_line(line))
            rc = ws_kernel_line(list, dir, line, in->lineno, err);
        else
            rc = 0;
        if (rc < 0)
            return -1;
    }
    if (rc < 0)
        return -1;
    if (list->nkernels == 0)
        return ws_err_at(err, list->name, in->lineno > 0 ? in->lineno : 1, 1,
                         "no kernel in the list (expected lines such as "
                         "kernel-1.traceg)");
    return 0;
}

static int ws_kernelslist_start(struct ws_cmdlist *list, const char *name,
                                struct ws_err *err)
{
    memset(list, 0, sizeof *list);
    list->name = strdup(name);
    if (!list->name)
        return ws_err_oom(err);
    return 0;
}

int ws_kernelslist_parse_mem(struct ws_cmdlist *list, const char *name,
                             const char *dir, const void *data, size_t len,
                             struct ws_err *err)
{
    struct ws_lines in;
    int rc;

    if (ws_kernelslist_start(list, name, err) < 0)
        return -1;
    if (ws_lines_open_mem(&in, list->name, data, len, err) < 0) {
        ws_kernelslist_free(list);
        return -1;
    }
    rc = ws_kernelslist_read(list, &in, dir, err);
    ws_lines_close(&in);
    if (rc < 0)
        ws_kernelslist_free(list);
    return rc;
}

/* Every kernel file must be a readable regular file before anything is
 * read from the first one, so a missing kernel (or a FIFO, a folder) is
 * reported at its line in the list. */
static int ws_kernelslist_check_files(const struct ws_cmdlist *list,
                                      struct ws_err *err)
{
    for (size_t i = 0; i < list->n; i++) {
        const struct ws_cmd *c = &list->cmds[i];
        if (c->kind == WS_CMD_KERNEL && ws_lines_check(c->path, err) < 0) {
            ws_err_place(err, list->name, c->line, 1);
            return -1;
        }
    }
    return 0;
}

int ws_kernelslist_load(struct ws_cmdlist *list, const char *path,
                        struct ws_err *err)
{
    const char *slash = strrchr(path, '/');
    struct ws_lines in;
    char *dir;
    int rc;

    if (ws_kernelslist_start(list, path, err) < 0)
        return -1;
    dir = malloc(strlen(path) + 1);
    if (!dir) {
        ws_kernelslist_free(list);
        return ws_err_oom(err);
    }
    if (slash) {
        memcpy(dir, path, (size_t)(slash - path));
        dir[slash - path] = '\0';
    } else {
        dir[0] = '\0';
    }
    rc = ws_lines_open(&in, list->name, err);
    if (rc == 0) {
        rc = ws_kernelslist_read(list, &in, dir, err);
        ws_lines_close(&in);
    }
    free(dir);
    if (rc == 0)
        rc = ws_kernelslist_check_files(list, err);
    if (rc < 0)
        ws_kernelslist_free(list);
    return rc;
}

/* The path comes from the command line, not from a list line, so it is
 * taken as it is (spaces and all). */
int ws_kernelslist_single(struct ws_cmdlist *list, const char *path,
                          struct ws_err *err)
{
    struct ws_cmd cmd;

    if (ws_kernelslist_start(list, path, err) < 0)
        return -1;
    memset(&cmd, 0, sizeof cmd);
    cmd.kind = WS_CMD_KERNEL;
    cmd.line = 0; /* named on the command line, not in a list */
    cmd.path = strdup(path);
    if (!cmd.path)
        ws_err_oom(err);
    if (!cmd.path || ws_cmdlist_push(list, &cmd, err) < 0) {
        free(cmd.path);
        ws_kernelslist_free(list);
        return -1;
    }
    /* As in ws_kernel_line: the list owns cmd.path now.
     * NOLINTNEXTLINE(clang-analyzer-unix.Malloc) */
    return 0;
}

void ws_kernelslist_free(struct ws_cmdlist *list)
{
    for (size_t i = 0; i < list->n; i++)
        free(list->cmds[i].path);
    free(list->cmds);
    free(list->name);
    memset(list, 0, sizeof *list);
}
