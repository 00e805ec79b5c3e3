/*
 * ws_sweep_run_merge: the shares of a sweep run as a job array
 * (--array-index/--array-size) joined into the file one run on one machine
 * would have written: every point exactly once, sorted by point.  A
 * missing or doubled point is an error, not a quiet gap.
 *
 * Leaves out: which rows make a whole point and the joining itself
 * (sweep/ws_sweep_table), plots and the report (`warpsim plot` on the
 * result), the command's options (cli/cmd_sweep.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sweep/ws_sweep_table.h"
#include "util/ws_csv.h"
#include "util/ws_output.h"
#include "ws_sweep_run.h"

/* A share named twice (a shell glob and a name, a link) would read as
 * every one of its points doubled; say so instead. */
static int ws_merge_twice(const char *const *paths, int n, struct ws_err *err)
{
    struct stat *st = calloc((size_t)n, sizeof *st);

    if (!st)
        return ws_err_oom(err);
    for (int i = 0; i < n; i++) {
        if (stat(paths[i], &st[i]) != 0)
            continue; /* the load says why */
        for (int j = 0; j < i; j++)
            if (st[j].st_ino == st[i].st_ino && st[j].st_dev == st[i].st_dev) {
                ws_err_arg(err, paths[i], 0, 0,
                           "SHARE %s: the same file as "
                           "%s (expected each share once)",
                           paths[i], paths[j]);
                free(st);
                return -1;
            }
    }
    free(st);
    return 0;
}

/* A share a sweep still holds (ws_sweep_results.c locks it for the whole
 * run) is unfinished: merging it would take its points as they stand. */
static int ws_merge_busy(const char *path, struct ws_err *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC), busy;

    if (fd < 0)
        return 0; /* the load says why */
    busy = flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    close(fd);
    if (busy)
        return ws_err_arg(err, path, 0, 0,
                          "SHARE %s: a sweep is still "
                          "writing it (expected finished shares: wait for "
                          "the sweep to end)",
                          path);
    return 0;
}

static int ws_merge_load(struct ws_csv *tabs, const char *const *paths, int n,
                         struct ws_err *err)
{
    if (ws_merge_twice(paths, n, err) < 0)
        return -1;
    for (int i = 0; i < n; i++) {
        if (ws_merge_busy(paths[i], err) < 0)
            return -1;
        if (ws_csv_load(&tabs[i], paths[i], 0, 0, err) < 0) {
            ws_err_place_arg(err, paths[i]);
            return -1;
        }
    }
    return 0;
}

int ws_sweep_merge_files(const char *out, const char *const *shares, int n,
                         struct ws_err *err)
{
    struct ws_output o = {.path = out, .flag = "OUT.csv"};
    struct ws_csv *tabs = calloc(n > 0 ? (size_t)n : 1, sizeof *tabs);
    char *text = NULL;
    int rc;

    if (!tabs)
        return ws_err_oom(err);
    rc = ws_output_plan(&o, 1, shares, n, err);
    if (rc == 0)
        rc = ws_merge_load(tabs, shares, n, err);
    if (rc == 0 && !(text = ws_sweep_merge(tabs, (size_t)n, err)))
        rc = -1;
    if (rc == 0)
        rc = ws_output_write(&o, text, err);
    free(text);
    for (int i = 0; i < n; i++)
        ws_csv_free(&tabs[i]);
    free(tabs);
    ws_output_free(&o);
    return rc;
}
