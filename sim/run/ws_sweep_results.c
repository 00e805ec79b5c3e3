/*
 * ws_sweep_results: the sweep's results file on disk: one writer at a
 * time, resumed from, appended to a point at a time, and sorted at the
 * end.
 *
 * One writer: the file is held under flock(LOCK_EX) for the whole run,
 * and a second sweep or share into the same file is refused at once
 * rather than interleaving with the first (two writers would each sort
 * and rename their own view over the other's).  The file is replaced by
 * renaming a new one over it; the new one is locked before the rename
 * (ws_output's lock), so the lock moves with the name and a process that
 * opened the old file sees, once it gets the old file's lock, that the
 * name now leads elsewhere, and tries again.  flock, not fcntl locks: a
 * POSIX lock is dropped when any descriptor of the file closes, and the
 * run reads the file through descriptors of its own.
 *
 * Every write goes through ws_output (an exclusive, unpredictable
 * temporary name beside the file, renamed in place when complete).
 *
 * Leaves out: what the rows hold and which rows are kept
 * (sweep/ws_sweep_rows, sweep/ws_sweep_table).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sweep/ws_sweep_rows.h"
#include "sweep/ws_sweep_table.h"
#include "util/ws_file.h"
#include "util/ws_output.h"
#include "ws_sweep_internal.h"

/* Tries to lock the file once; another holder is given a few chances to
 * replace it (the name moves to a new file while we wait). */
#define WS_SWEEP_LOCK_TRIES 8

static int ws_sweep_busy(const struct ws_sweep_state *r, struct ws_err *err)
{
    return ws_err_arg(err, r->out_named, 0, 0,
                      "--output %s: another "
                      "warpsim sweep is writing it now (expected one sweep "
                      "per results file: wait for it to end, or give this "
                      "one its own file with -o)",
                      r->out);
}

int ws_sweep_results_lock(struct ws_sweep_state *r, struct ws_err *err)
{
    for (int i = 0; i < WS_SWEEP_LOCK_TRIES; i++) {
        const int flags = O_RDWR | O_APPEND | O_NOFOLLOW | O_CLOEXEC;
        struct stat fs, ps;
        int fd = open(r->out, flags);
        r->created = 0;
        if (fd < 0 && errno == ENOENT) {
            fd = open(r->out, flags | O_CREAT | O_EXCL, 0666);
            r->created = fd >= 0;
            if (fd < 0 && errno == EEXIST)
                continue; /* made by someone else just now */
        }
        if (fd < 0)
            return ws_err_arg(err, r->out_named, 0, 0,
                              "--output %s: %s "
                              "(expected a results file warpsim can write)",
                              r->out, strerror(errno));
        if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            close(fd);
            return errno == EWOULDBLOCK
                       ? ws_sweep_busy(r, err)
                       : ws_err_arg(
                           err, r->out_named, 0, 0,
                           "--output %s: cannot "
                           "lock it: %s (expected a file on a file system "
                           "with locks)",
                           r->out, strerror(errno));
        }
        if (fstat(fd, &fs) == 0 && stat(r->out, &ps) == 0
            && fs.st_dev == ps.st_dev && fs.st_ino == ps.st_ino) {
            r->fd = fd;
            return 0;
        }
        close(fd); /* replaced while we waited: the new file */
    }
    return ws_sweep_busy(r, err);
}

/* Replaces the results by text; the new file is locked before it takes
 * the name, and becomes the file appended to. */
static int ws_sweep_results_replace(struct ws_sweep_state *r, const char *text,
                                    struct ws_err *err)
{
    struct ws_output o = {.path = r->out,
                          .flag = "--output",
                          .named = r->out_named,
                          .lock = 1};
    struct stat st;
    int rc;

    if (!(o.real = strdup(r->out)))
        return ws_err_oom(err);
    if (fstat(r->fd, &st) == 0) {
        o.has_mode = 1;
        o.mode = st.st_mode & 07777;
    }
    rc = ws_output_write(&o, text, err);
    if (rc == 0) {
        close(r->fd);
        r->fd = o.lockfd;
        if (fcntl(r->fd, F_SETFL, O_APPEND) != 0) {
            rc = ws_err_msg(err, "%s: cannot append: %s", r->out,
                            strerror(errno));
            err->internal = 1;
        }
    }
    ws_output_free(&o);
    return rc;
}

/* A note on what a resume cuts out of the results file. */
static void ws_sweep_dropping(const struct ws_sweep_state *r, size_t n,
                              const char *what)
{
    if (n)
        ws_sweep_say(r->rq->log, "warpsim sweep: %s: dropping %zu %s\n", r->out,
                     n, what);
}

/* The locked file's text, read through its descriptor: what the name
 * leads to now may not be this run's file (deleted, or replaced by a
 * process that ignored the lock), and the rows are in ours. */
static char *ws_sweep_results_text(struct ws_sweep_state *r, size_t *len,
                                   struct ws_err *err)
{
    struct stat st;
    char *text;
    size_t n = 0;

    if (fstat(r->fd, &st) != 0) {
        ws_err_msg(err, "%s: %s", r->out, strerror(errno));
        err->internal = 1;
        return NULL;
    }
    if ((uint64_t)st.st_size > WS_CSV_MAX_BYTES) {
        ws_err_arg(err, r->out_named, 0, 0,
                   "--output %s: larger than %zu "
                   "bytes (expected a results file warpsim wrote; give "
                   "this sweep a new one with -o)",
                   r->out, WS_CSV_MAX_BYTES);
        return NULL;
    }
    text = malloc((size_t)st.st_size + 1);
    if (!text) {
        ws_err_oom(err);
        return NULL;
    }
    while (n < (size_t)st.st_size) {
        ssize_t got = pread(r->fd, text + n, (size_t)st.st_size - n, (off_t)n);
        if (got <= 0) {
            if (got < 0 && errno == EINTR)
                continue;
            break;
        }
        n += (size_t)got;
    }
    *len = n;
    return text;
}

/* Reads the file (locked: nobody else writes it) and marks the points it
 * holds whole. */
static int ws_sweep_results_read(struct ws_sweep_state *r, struct ws_csv *t,
                                 struct ws_sweep_held *h, int retry_failed,
                                 struct ws_err *err)
{
    size_t len = 0;
    char *text = ws_sweep_results_text(r, &len, err);
    int rc;

    if (!text)
        return -1;
    rc = ws_csv_parse(t, r->out, text, len, 1, 1, err);
    free(text);
    if (rc < 0)
        return -1;
    if (t->ncols && ws_sweep_check_header(t, r->header, err) < 0) {
        ws_csv_free(t);
        return -1;
    }
    memset(h, 0, sizeof *h);
    if (t->ncols
        && ws_sweep_held_scan(h, t, r->s.npoints, r->keys, retry_failed,
                              r->done, err)
               < 0) {
        ws_csv_free(t);
        return -1;
    }
    return 0;
}

int ws_sweep_results_resume(struct ws_sweep_state *r, int retry_failed,
                            struct ws_err *err)
{
    struct ws_sweep_held h;
    struct ws_csv t;
    struct stat st;
    size_t held = 0;
    char *text;
    int rc;

    if (fstat(r->fd, &st) < 0 || st.st_size == 0)
        return ws_sweep_results_replace(r, r->header, err);
    if (ws_sweep_results_read(r, &t, &h, retry_failed, err) < 0)
        return -1;
    for (size_t i = 0; i < t.nrows; i++)
        held += h.point && h.point[i] >= 0;
    ws_sweep_dropping(r, h.stale,
                      "rows of points that are no longer "
                      "this sweep's");
    ws_sweep_dropping(r, h.torn,
                      "points with rows missing or "
                      "conflicting, to rerun them");
    ws_sweep_dropping(r, h.doubled, "rows written twice");
    ws_sweep_dropping(r, h.retried, "failed points, to rerun them");
    /* Rewritten always: the kept rows take this sweep's numbers. */
    text = t.ncols ? ws_sweep_held_text(&h, &t, r->s.npoints, r->sweep_id)
                   : NULL;
    if (t.ncols && !text)
        rc = ws_err_oom(err);
    else
        rc = ws_sweep_results_replace(r, text ? text : r->header, err);
    r->created = r->created && held == 0;
    free(text);
    ws_sweep_held_free(&h);
    ws_csv_free(&t);
    return rc;
}

int ws_sweep_results_append(struct ws_sweep_state *r, const char *rows,
                            struct ws_err *err)
{
    /* One write per point: O_APPEND puts it whole at the end, and a kill
     * between two points leaves whole rows only. */
    if (ws_file_write_all(r->fd, rows, strlen(rows)) < 0) {
        ws_err_msg(err, "%s: cannot write: %s", r->out, strerror(errno));
        err->internal = 1;
        return -1;
    }
    r->created = 0;
    return 0;
}

int ws_sweep_results_finish(struct ws_sweep_state *r, struct ws_csv *t,
                            struct ws_err *err)
{
    struct ws_sweep_held h;
    struct ws_csv raw;
    char *text;
    int rc;

    memset(r->done, 0, r->s.npoints);
    if (ws_sweep_results_read(r, &raw, &h, 0, err) < 0)
        return -1;
    text = ws_sweep_held_text(&h, &raw, r->s.npoints, r->sweep_id);
    ws_sweep_held_free(&h);
    ws_csv_free(&raw);
    if (!text)
        return ws_err_oom(err);
    rc = ws_sweep_results_replace(r, text, err);
    /* The plots and the report read the sorted table, not the order the
     * workers finished in. */
    if (rc == 0)
        rc = ws_csv_parse(t, r->out, text, strlen(text), 0, 0, err);
    free(text);
    return rc;
}

/* A sweep that failed before any point ran leaves no results file it
 * made itself. */
void ws_sweep_results_abandon(struct ws_sweep_state *r)
{
    if (r->fd >= 0 && r->created)
        unlink(r->out);
}

int ws_sweep_peek(struct ws_sweep_state *r, struct ws_err *err)
{
    struct ws_sweep_held h;
    struct ws_csv t;
    int rc;

    r->fd = open(r->out, O_RDONLY | O_CLOEXEC);
    if (r->fd < 0)
        return 0;
    rc = ws_sweep_results_read(r, &t, &h, 0, err);
    close(r->fd);
    r->fd = -1;
    if (rc < 0)
        return -1;
    ws_sweep_held_free(&h);
    ws_csv_free(&t);
    return 0;
}
