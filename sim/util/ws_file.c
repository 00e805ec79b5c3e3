/*
 * ws_file: whole-file reads of small inputs (see ws_file.h).
 */
#include "ws_file.h"

#include "ws_clip.h"
#include "ws_readset.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int ws_file_fail(struct ws_err *err, const char *path, const char *step,
                        int errnum, const char *what)
{
    struct ws_clip q;

    return ws_err_msg(err, "%s: cannot %s: %s (expected a readable %s file)",
                      ws_clip_path(&q, path), step, strerror(errnum), what);
}

/* Refuses anything but a regular file, naming what it is instead; an
 * input (note) joins the set of files read. */
static int ws_file_check_kind(int fd, const char *path, const char *what,
                              size_t max, int note, struct ws_err *err)
{
    struct stat st;
    struct ws_clip q;

    if (fstat(fd, &st) != 0)
        return ws_file_fail(err, path, "open", errno, what);
    if (S_ISDIR(st.st_mode))
        return ws_err_msg(err,
                          "%s: is a folder, not a %s file (expected "
                          "the path of a %s file)",
                          ws_clip_path(&q, path), what, what);
    if (!S_ISREG(st.st_mode))
        return ws_err_msg(err,
                          "%s: not a regular file (expected a %s file, "
                          "not a pipe, terminal or device)",
                          ws_clip_path(&q, path), what);
    if (note)
        ws_readset_note(path, &st);
    /* The size is rechecked while reading: the file may grow meanwhile. */
    if ((uintmax_t)st.st_size > max)
        return ws_err_at(err, path, 1, 1,
                         "%s larger than %zu MiB (expected "
                         "a smaller %s file)",
                         what, max >> 20, what);
    return 0;
}

/* Reads up to max + 1 bytes, so that one byte too many is seen.  The
 * buffer grows as the file turns out longer: a limit of hundreds of MiB
 * (a sweep's results) must not cost that much for a file of a page. */
static char *ws_file_slurp(int fd, const char *path, const char *what,
                           size_t max, size_t *len, struct ws_err *err)
{
    size_t cap = max < 65535 ? max + 1 : 65536, n = 0;
    char *text = malloc(cap + 1);

    if (!text) {
        ws_err_oom(err);
        return NULL;
    }
    while (n <= max) {
        ssize_t got;
        if (n == cap) {
            size_t grown = cap > max / 2 ? max + 1 : cap * 2;
            char *t = realloc(text, grown + 1);
            if (!t) {
                free(text);
                ws_err_oom(err);
                return NULL;
            }
            text = t;
            cap = grown;
        }
        got = read(fd, text + n, cap - n);
        if (got == 0)
            break;
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            ws_file_fail(err, path, "read", errno, what);
            free(text);
            return NULL;
        }
        n += (size_t)got;
    }
    if (n > max) {
        ws_err_at(err, path, 1, 1,
                  "%s larger than %zu MiB (expected a "
                  "smaller %s file)",
                  what, max >> 20, what);
        free(text);
        return NULL;
    }
    text[n] = '\0';
    *len = n;
    return text;
}

static char *ws_file_read_as(const char *path, const char *what, size_t max,
                             size_t *len, int *missing, int note,
                             struct ws_err *err)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    char *text;

    *len = 0;
    if (missing)
        *missing = 0;
    if (fd < 0) {
        if (missing && (errno == ENOENT || errno == ENOTDIR)) {
            *missing = 1;
            return NULL;
        }
        ws_file_fail(err, path, "open", errno, what);
        return NULL;
    }
    if (ws_file_check_kind(fd, path, what, max, note, err) < 0) {
        close(fd);
        return NULL;
    }
    text = ws_file_slurp(fd, path, what, max, len, err);
    close(fd);
    return text;
}

char *ws_file_read(const char *path, const char *what, size_t max, size_t *len,
                   int *missing, struct ws_err *err)
{
    return ws_file_read_as(path, what, max, len, missing, 1, err);
}

char *ws_file_read_own(const char *path, const char *what, size_t max,
                       size_t *len, struct ws_err *err)
{
    return ws_file_read_as(path, what, max, len, NULL, 0, err);
}

int ws_file_write_all(int fd, const void *buf, size_t len)
{
    const char *p = buf;

    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return -1;
        if (w == 0) {
            errno = ENOSPC;
            return -1;
        }
        p += w;
        len -= (size_t)w;
    }
    return 0;
}
