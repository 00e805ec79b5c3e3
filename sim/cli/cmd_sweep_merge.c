/*
 * warpsim sweep merge OUT.csv SHARE...: joins the shares of a sweep run
 * as a job array (--array-index/--array-size) into the file one run on
 * one machine would have written: every point exactly once, sorted by
 * point.  A missing or doubled point is an error, not a quiet gap.
 *
 * Leaves out: plots and the report (run `warpsim plot` on the result).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sweep/ws_sweep_table.h"
#include "util/ws_csv.h"
#include "ws_cli.h"
#include "util/ws_output.h"
#include "run/ws_sweep_cli.h"

/* Shares beyond this are a mistake (a glob of the wrong folder). */
#define WS_MERGE_MAX_SHARES 100000

/* A share named twice (a shell glob and a name, a link) would read as
 * every one of its points doubled; say so instead. */
static int ws_merge_twice(char **paths, int n, struct ws_err *err)
{
    struct stat *st = calloc((size_t)n, sizeof *st);

    if (!st)
        return ws_err_oom(err);
    for (int i = 0; i < n; i++) {
        if (stat(paths[i], &st[i]) != 0)
            continue;       /* the load says why */
        for (int j = 0; j < i; j++)
            if (st[j].st_ino == st[i].st_ino && st[j].st_dev == st[i].st_dev) {
                ws_err_arg(err, paths[i], 0, 0, "SHARE %s: the same file as "
                           "%s (expected each share once)", paths[i],
                           paths[j]);
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
        return 0;           /* the load says why */
    busy = flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    close(fd);
    if (busy)
        return ws_err_arg(err, path, 0, 0, "SHARE %s: a sweep is still "
                          "writing it (expected finished shares: wait for "
                          "the sweep to end)", path);
    return 0;
}

static int ws_merge_load(struct ws_csv *tabs, char **paths, int n,
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

int ws_cmd_sweep_merge(int argc, char **argv)
{
    struct ws_output o = {.path = NULL, .flag = "OUT.csv"};
    struct ws_csv *tabs;
    struct ws_err err;
    char *text = NULL;
    int n = argc - 2, rc;

    if (argc >= 2 && (strcmp(argv[1], "-h") == 0
                      || strcmp(argv[1], "--help") == 0)) {
        printf("usage: warpsim sweep merge OUT.csv SHARE.csv...\n\n"
               "Joins the shares of a sweep (--array-index/--array-size)\n"
               "into OUT.csv, sorted by point, after checking that they\n"
               "are shares of one sweep (their sweep column), that every\n"
               "point is whole (all of its rows, once) in exactly one\n"
               "share, and that no sweep is still writing one.\n");
        return WS_EXIT_OK;
    }
    if (argc < 3)
        return ws_cli_usage("sweep merge", argc < 2 ? "missing OUT.csv"
                            : "missing SHARE.csv (expected at least one)");
    if (n > WS_MERGE_MAX_SHARES)
        return ws_cli_usage("sweep merge", "more than %d shares",
                            WS_MERGE_MAX_SHARES);
    ws_err_clear(&err);
    o.path = argv[1];
    tabs = calloc((size_t)n, sizeof *tabs);
    if (!tabs)
        return ws_cli_fail(&(struct ws_err){1, 1, 0, "out of memory"});
    rc = ws_output_plan(&o, 1, (const char *const *)argv + 2, n, &err);
    if (rc == 0)
        rc = ws_merge_load(tabs, argv + 2, n, &err);
    if (rc == 0 && !(text = ws_sweep_merge(tabs, (size_t)n, &err)))
        rc = -1;
    if (rc == 0)
        rc = ws_output_write(&o, text, &err);
    free(text);
    for (int i = 0; i < n; i++)
        ws_csv_free(&tabs[i]);
    free(tabs);
    ws_output_free(&o);
    return rc < 0 ? ws_cli_fail(&err) : WS_EXIT_OK;
}
