/*
 * ws_output: safe writing of a command's output files (see ws_output.h).
 *
 * Why not simply "temporary file + rename" for everything: renaming over
 * /dev/null as root replaces the device node with a regular file, renaming
 * over a symbolic link replaces the link, and renaming over the input trace
 * destroys it.  So the target is classified first, once, before any work.
 */
/* realpath() is X/Open, not POSIX.1 alone. */
#define _XOPEN_SOURCE 700

#include "ws_output.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ws_readset.h"
#include "ws_sighold.h"

/* Longest symlink chain followed, as the kernel's own limit (MAXSYMLINKS). */
#define WS_OUTPUT_MAX_HOPS 40
#define WS_OUTPUT_MAX_LIVE 8

/* Temporary files that exist right now, removed by the signal handler. */
static const char *volatile ws_output_live[WS_OUTPUT_MAX_LIVE];

static void ws_output_on_signal(int sig)
{
    for (int i = 0; i < WS_OUTPUT_MAX_LIVE; i++)
        if (ws_output_live[i])
            unlink(ws_output_live[i]);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void ws_output_track(const char *tmp, int on)
{
    static int installed;

    if (!installed) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = ws_output_on_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
        sigaction(SIGHUP, &sa, NULL);
        installed = 1;
    }
    for (int i = 0; i < WS_OUTPUT_MAX_LIVE; i++) {
        if (on && !ws_output_live[i]) {
            ws_output_live[i] = tmp;
            return;
        }
        if (!on && ws_output_live[i] == tmp) {
            ws_output_live[i] = NULL;
            return;
        }
    }
}

/* An error about output o, at the place that named it: a line of a file
 * (a sweep file's plot) or a command-line word. */
static int ws_output_err(struct ws_err *err, const struct ws_output *o,
                         const char *fmt, ...)
{
    char text[WS_ERR_TEXT];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (o->at_file)
        return ws_err_at(err, o->at_file, o->at_line, o->at_col, "%s", text);
    return ws_err_arg(err, o->named ? o->named : o->path, 0, 0, "%s", text);
}

static int ws_output_fail(struct ws_err *err, const struct ws_output *o,
                          const char *what, const char *expected)
{
    return ws_output_err(err, o, "%s %s: %s (expected %s)", o->flag, o->path,
                         what, expected);
}

/* A write that fails once the checks passed (a full disk, an I/O error, a
 * closed stream) is not the input's fault: exit status 1. */
static int ws_output_io_fail(struct ws_err *err, const struct ws_output *o,
                             int errnum, const char *expected)
{
    int set = err->set;

    ws_output_fail(err, o, strerror(errnum), expected);
    if (!set)
        err->internal = 1;
    return -1;
}

static char *ws_output_join(const char *dir, size_t dlen, const char *name)
{
    char *s = malloc(dlen + strlen(name) + 2);

    if (s)
        sprintf(s, "%.*s/%s", (int)dlen, dir, name);
    return s;
}

/* Follows symbolic links from path to the name they end at, which need not
 * exist yet (a dangling link names the file to create).  NULL when out of
 * memory; a chain too long is left for stat to report as ELOOP. */
static char *ws_output_follow(const char *path)
{
    char *cur = strdup(path);

    for (int hops = 0; cur && hops < WS_OUTPUT_MAX_HOPS; hops++) {
        struct stat st;
        char link[PATH_MAX];
        ssize_t n;
        const char *slash;
        char *next;
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
            return cur;
        n = readlink(cur, link, sizeof link - 1);
        if (n < 0)
            return cur;
        link[n] = '\0';
        slash = strrchr(cur, '/');
        next = link[0] == '/' || !slash
                   ? strdup(link)
                   : ws_output_join(cur, (size_t)(slash - cur), link);
        free(cur);
        cur = next;
    }
    return cur;
}

/* The folder a path lives in, as a string ("." for a bare name). */
static char *ws_output_dir(const char *path)
{
    const char *slash = strrchr(path, '/');

    if (!slash)
        return strdup(".");
    if (slash == path)
        return strdup("/");
    return strndup(path, (size_t)(slash - path));
}

static int ws_output_same_stream(const struct stat *st, int fd)
{
    struct stat s;

    return fstat(fd, &s) == 0 && s.st_dev == st->st_dev
           && s.st_ino == st->st_ino;
}

/* The mode a new file gets from open(..., 0666): mkstemp makes 0600. */
static mode_t ws_output_new_mode(void)
{
    mode_t mask = umask(022);

    umask(mask);
    return 0666 & ~mask;
}

/* A fresh, unpredictable temporary file in dir, created with O_EXCL (by
 * mkstemp), so that nothing planted beforehand (a symbolic link, a folder,
 * an unwritable file) is ever opened or followed.  The name does not
 * depend on the output's: a name near NAME_MAX still gets one.  Returns
 * the descriptor (O_RDWR) with *tmp set, or -1 with errno. */
static int ws_output_mktemp(const char *dir, char **tmp)
{
    size_t n = strlen(dir) + 32;
    int fd, e;

    *tmp = malloc(n);
    if (!*tmp) {
        errno = ENOMEM;
        return -1;
    }
    snprintf(*tmp, n, "%s/.warpsim-XXXXXX", dir);
    fd = mkstemp(*tmp);
    if (fd >= 0)
        return fd;
    e = errno;
    free(*tmp);
    *tmp = NULL;
    errno = e;
    return -1;
}

/* Whether a file can be made in path's folder: tried, by making and
 * removing a temporary file, since access() cannot see a read-only file
 * system, a full quota of inodes or an ACL.  Signals are held while the
 * probe exists: no handler knows of it. */
static int ws_output_probe_dir(const char *dir, int *errnum)
{
    sigset_t old;
    char *tmp;
    int fd;

    ws_sighold(&old);
    fd = ws_output_mktemp(dir, &tmp);
    *errnum = errno;
    if (fd >= 0) {
        close(fd);
        unlink(tmp);
        free(tmp);
    }
    ws_sighold_release(&old);
    return fd >= 0 ? 0 : -1;
}

/* A file a warpsim sweep holds (ws_sweep_results.c locks its results for
 * the whole run) is that sweep's to replace: written over now, its rows
 * would be lost when the sweep sorts its own copy over it. */
static int ws_output_busy(const char *path)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), busy = 0;

    if (fd >= 0) {
        busy = flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
        close(fd);
    }
    return busy;
}

/* Classifies one output; see the rules in ws_output.h. */
static int ws_output_resolve(struct ws_output *o, struct ws_err *err)
{
    struct stat st;
    char *dir;
    int rc = 0, e;

    if (stat(o->path, &st) == 0 && !S_ISDIR(st.st_mode)) {
        for (int fd = 1; fd <= 2; fd++)
            if (ws_output_same_stream(&st, fd)) {
                o->stream = fd;
                return 0;
            }
    }
    o->real = ws_output_follow(o->path);
    if (!o->real)
        return ws_err_oom(err);
    if (stat(o->real, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return ws_output_fail(err, o, "is a folder", "a file path");
        if (!S_ISREG(st.st_mode)) {
            o->inplace = 1;
            return 0;
        }
        if ((st.st_mode & 0222) == 0 || access(o->real, W_OK) != 0)
            return ws_output_fail(err, o, "is read-only",
                                  "a writable file; "
                                  "warpsim does not replace read-only files");
        if (ws_output_busy(o->real))
            return ws_output_fail(err, o, "a warpsim sweep is writing it now",
                                  "a file no sweep is running on: wait for "
                                  "it to end");
        o->has_mode = 1;
        o->mode = st.st_mode & 07777;
    } else if (errno != ENOENT) {
        return ws_output_fail(err, o, strerror(errno), "a writable path");
    }
    /* A file is replaced by renaming a new one over it, so its folder must
     * take new files even when the file itself exists. */
    dir = ws_output_dir(o->real);
    if (!dir)
        return ws_err_oom(err);
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        rc = ws_output_fail(err, o, "its folder does not exist",
                            "an existing folder");
    else if (ws_output_probe_dir(dir, &e) != 0) {
        char what[160];
        snprintf(what, sizeof what, "its folder takes no new file (%s)",
                 strerror(e));
        rc = ws_output_fail(err, o, what,
                            "a folder where files can be "
                            "made");
    }
    free(dir);
    return rc;
}

/* The name two outputs or an output and an input are compared by: the
 * canonical path of the file, or of its folder plus its name when the file
 * does not exist yet. */
static char *ws_output_canon(const char *path)
{
    char *r = realpath(path, NULL), *dir, *dr;
    const char *base;

    if (r || errno != ENOENT)
        return r;
    dir = ws_output_dir(path);
    dr = dir ? realpath(dir, NULL) : NULL;
    base = strrchr(path, '/');
    base = base ? base + 1 : path;
    r = dr ? ws_output_join(dr, strlen(dr), base) : NULL;
    free(dir);
    free(dr);
    return r;
}

static int ws_output_is_input(const struct ws_output *o,
                              const char *const *inputs, int ninputs)
{
    struct stat so, si;

    if (stat(o->real, &so) != 0)
        return -2;
    for (int i = 0; i < ninputs; i++)
        if (inputs[i] && stat(inputs[i], &si) == 0 && si.st_dev == so.st_dev
            && si.st_ino == so.st_ino)
            return i;
    return ws_readset_has(&so) ? -1 : -2;
}

/* What two outputs are compared by: the stream, the device or FIFO, or the
 * canonical path of the file (which may not exist yet). */
static char *ws_output_identity(const struct ws_output *o)
{
    struct stat st;
    char *id;

    if (o->stream || o->inplace) {
        id = malloc(64);
        if (!id)
            return NULL;
        if (o->stream)
            snprintf(id, 64, "stream %d", o->stream);
        else if (stat(o->real, &st) == 0)
            snprintf(id, 64, "file %ju:%ju", (uintmax_t)st.st_dev,
                     (uintmax_t)st.st_ino);
        else
            snprintf(id, 64, "?");
        return id;
    }
    return ws_output_canon(o->real);
}

/* Two outputs on one path would leave only the last one written, or mix
 * two documents in one stream. */
static int ws_output_clash(const struct ws_output *outs, int n,
                           struct ws_err *err)
{
    char **id = calloc(n > 0 ? (size_t)n : 1, sizeof *id);
    int rc = 0;

    if (!id)
        return ws_err_oom(err);
    for (int i = 0; i < n && rc == 0; i++) {
        if (!outs[i].path)
            continue;
        if (!(id[i] = ws_output_identity(&outs[i])))
            rc = ws_err_oom(err);
        for (int j = 0; id[i] && j < i && rc == 0; j++)
            if (id[j] && strcmp(id[i], id[j]) == 0)
                rc = ws_output_err(err, &outs[i],
                                   "%s %s: the same file as "
                                   "%s %s (expected a different file for "
                                   "each output)",
                                   outs[i].flag, outs[i].path, outs[j].flag,
                                   outs[j].path);
    }
    for (int i = 0; i < n; i++)
        free(id[i]);
    free(id);
    return rc;
}

int ws_output_plan(struct ws_output *outs, int n, const char *const *inputs,
                   int ninputs, struct ws_err *err)
{
    for (int i = 0; i < n; i++) {
        int k;
        if (!outs[i].path)
            continue;
        if (!outs[i].path[0])
            return ws_output_err(err, &outs[i],
                                 "%s '': an empty path "
                                 "(expected the path of a file to write)",
                                 outs[i].flag);
        if (ws_output_resolve(&outs[i], err) < 0)
            return -1;
        if (outs[i].stream || outs[i].inplace)
            continue;
        k = ws_output_is_input(&outs[i], inputs, ninputs);
        if (k >= -1)
            return ws_output_err(err, &outs[i],
                                 "%s %s: is an input of this "
                                 "command%s%s (expected an output path that "
                                 "is not an input)",
                                 outs[i].flag, outs[i].path, k >= 0 ? ", " : "",
                                 k >= 0 ? inputs[k] : "");
    }
    return ws_output_clash(outs, n, err);
}

int ws_output_open(struct ws_output *o, struct ws_err *err)
{
    sigset_t old;
    char *dir;
    int fd, e;

    /* A stream or a device cannot be taken back: what goes there is held
     * in an unnamed temporary file and copied out only on commit, so a
     * command that fails half-way writes nothing there either. */
    if (o->stream || o->inplace) {
        o->fp = tmpfile();
        return o->fp ? 0
                     : ws_output_io_fail(err, o, errno,
                                         "a writable "
                                         "temporary folder");
    }
    dir = ws_output_dir(o->real);
    if (!dir)
        return ws_err_oom(err);
    ws_sighold(&old);
    fd = ws_output_mktemp(dir, &o->tmp);
    e = errno;
    free(dir);
    if (fd >= 0)
        ws_output_track(o->tmp, 1);
    ws_sighold_release(&old);
    if (fd >= 0) {
        (void)fchmod(fd, o->has_mode ? (mode_t)o->mode : ws_output_new_mode());
        o->fp = fdopen(fd, "w+");
        e = errno;
    }
    if (!o->fp) {
        if (fd >= 0) {
            close(fd);
            ws_output_abort(o);
        }
        return ws_output_io_fail(err, o, e, "a writable folder");
    }
    return 0;
}

/* Copies the held text of a stream or device output to it. */
static int ws_output_copy_out(struct ws_output *o)
{
    FILE *to = o->stream == 1   ? stdout
               : o->stream == 2 ? stderr
                                : fopen(o->real, "w");
    char buf[1 << 16];
    size_t n;
    int ok = to != NULL && fflush(o->fp) == 0 && !ferror(o->fp);

    if (ok)
        rewind(o->fp);
    while (ok && (n = fread(buf, 1, sizeof buf, o->fp)) > 0)
        ok = fwrite(buf, 1, n, to) == n;
    ok = ok && !ferror(o->fp);
    if (to && !o->stream)
        ok = fclose(to) == 0 && ok;
    else if (to)
        ok = fflush(to) == 0 && ok;
    return ok;
}

int ws_output_commit(struct ws_output *o, struct ws_err *err)
{
    int ok, lockfd = -1;

    if (o->stream || o->inplace) {
        ok = ws_output_copy_out(o);
        fclose(o->fp);
        o->fp = NULL;
        return ok ? 0 : ws_output_io_fail(err, o, errno, "a writable path");
    }
    ok = fflush(o->fp) == 0 && !ferror(o->fp);
    /* Locked before anyone can open it by its name: no other process can
     * hold it in between. */
    if (ok && o->lock) {
        lockfd = fcntl(fileno(o->fp), F_DUPFD_CLOEXEC, 0);
        ok = lockfd >= 0 && flock(lockfd, LOCK_EX | LOCK_NB) == 0;
    }
    ok = fclose(o->fp) == 0 && ok;
    o->fp = NULL;
    /* A sweep may have started on the file since the plan: its rows would
     * be lost under ours, or ours under its sort.  (A sweep's own replace
     * holds the lock itself: o->lock.) */
    if (ok && o->tmp && !o->lock && ws_output_busy(o->real)) {
        ws_output_abort(o);
        return ws_output_fail(err, o,
                              "a warpsim sweep started writing it "
                              "while this command ran",
                              "a file no sweep is "
                              "running on");
    }
    if (ok && o->tmp && rename(o->tmp, o->real) != 0)
        ok = 0;
    if (!ok) {
        int e = errno;
        if (lockfd >= 0)
            close(lockfd);
        ws_output_abort(o);
        return ws_output_io_fail(err, o, e, "a writable path");
    }
    o->lockfd = lockfd;
    if (o->tmp) {
        ws_output_track(o->tmp, 0);
        free(o->tmp);
        o->tmp = NULL;
    }
    return 0;
}

void ws_output_abort(struct ws_output *o)
{
    if (o->fp)
        fclose(o->fp);
    o->fp = NULL;
    if (o->tmp) {
        unlink(o->tmp);
        ws_output_track(o->tmp, 0);
        free(o->tmp);
        o->tmp = NULL;
    }
}

/* Text outputs end with a newline, as text files do: a JSON document
 * written to standard output must not run into what follows it. */
int ws_output_write(struct ws_output *o, const char *text, struct ws_err *err)
{
    size_t n = strlen(text);

    if (ws_output_open(o, err) < 0)
        return -1;
    if (fputs(text, o->fp) < 0
        || (n > 0 && text[n - 1] != '\n' && fputc('\n', o->fp) == EOF)) {
        int e = errno;
        ws_output_abort(o);
        return ws_output_io_fail(err, o, e, "a writable path");
    }
    return ws_output_commit(o, err);
}

void ws_output_free(struct ws_output *o)
{
    ws_output_abort(o);
    free(o->real);
    o->real = NULL;
}

int ws_output_mkdirs(const char *path, const char *named, const char *what,
                     size_t *made, struct ws_err *err)
{
    char *p = strdup(path);
    struct stat st;
    int rc = 0;

    *made = 0;
    named = named ? named : path;
    if (!p)
        return ws_err_oom(err);
    if (!*p) {
        free(p);
        return ws_err_arg(err, named, 0, 0, "empty folder name (expected %s)",
                          what);
    }
    for (char *s = p + 1; rc == 0; s++) {
        char c = *s;
        if (c != '/' && c != '\0')
            continue;
        *s = '\0';
        if (mkdir(p, 0777) == 0) {
            if (!*made)
                *made = strlen(p);
        } else if (errno != EEXIST)
            rc = ws_err_arg(err, named, 0, 0,
                            "cannot create folder %s: %s "
                            "(expected %s, where a folder can be made)",
                            p, strerror(errno), what);
        else if (stat(p, &st) != 0 || !S_ISDIR(st.st_mode))
            rc = ws_err_arg(err, named, 0, 0,
                            "%s is not a folder (expected "
                            "%s)",
                            p, what);
        *s = c;
        if (c == '\0')
            break;
    }
    free(p);
    return rc;
}

void ws_output_rmdirs(const char *path, size_t made)
{
    char *p = made ? strdup(path) : NULL;
    size_t n;

    if (!p)
        return;
    n = strlen(p);
    while (n > 1 && p[n - 1] == '/')
        p[--n] = '\0';
    while (n >= made && rmdir(p) == 0) {
        char *slash = strrchr(p, '/');
        if (!slash)
            break;
        *slash = '\0';
        n = strlen(p);
    }
    free(p);
}
