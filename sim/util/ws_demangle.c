/*
 * ws_demangle: C++ kernel names demangled (see ws_demangle.h).
 *
 * A mangled name is input text, and the Itanium grammar's substitutions
 * let a few hundred bytes stand for gigabytes of output ("S_" naming an
 * earlier component that itself holds two earlier ones, doubling with each
 * level): __cxa_demangle has no bound on its output, its time or its
 * memory.  So it runs in a child process that gives up after
 * WS_DEMANGLE_SECONDS and whose output is read up to WS_DEMANGLE_MAX
 * bytes; past either, the name is shown as traced.  A run has few distinct
 * kernel names, and each is demangled once (a small cache), so the fork
 * costs a few milliseconds per run.
 *
 * The cache is this file's state: not for concurrent use (reports are
 * written by one thread).
 */
#include "ws_demangle.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* The Itanium C++ ABI's demangler (its section 3.4); C linkage, defined
 * by the C++ runtime, which has no C header for it: the name is the ABI's.
 * NOLINTNEXTLINE(bugprone-reserved-identifier) */
char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

#define WS_DEMANGLE_SECONDS 1
#define WS_DEMANGLE_CACHE 64
/* After this many names that ran the clock out, no more are tried: a
 * trace of a thousand hostile names would otherwise cost a thousand
 * seconds. */
#define WS_DEMANGLE_GIVE_UP 3

struct ws_demangle_entry {
    char *name, *shown; /* shown NULL: not demangled (shown as traced) */
};

static struct ws_demangle_entry ws_demangle_cache[WS_DEMANGLE_CACHE];
static unsigned ws_demangle_next, ws_demangle_timeouts;

/* The child: demangle, write at most WS_DEMANGLE_MAX + 1 bytes (one more
 * than fits tells the parent it did not fit), exit.  alarm ends it if the
 * demangler runs away. */
static void ws_demangle_child(const char *name, int fd)
{
    int status = -1;
    char *out;
    sigset_t alrm;

    /* The parent's handler and mask are inherited: the alarm must kill. */
    signal(SIGALRM, SIG_DFL);
    sigemptyset(&alrm);
    sigaddset(&alrm, SIGALRM);
    sigprocmask(SIG_UNBLOCK, &alrm, NULL);
    alarm(WS_DEMANGLE_SECONDS);
    out = __cxa_demangle(name, NULL, NULL, &status);
    if (out && status == 0) {
        size_t len = strlen(out), off = 0;
        if (len > WS_DEMANGLE_MAX)
            len = WS_DEMANGLE_MAX + 1;
        while (off < len) {
            ssize_t w = write(fd, out + off, len - off);
            if (w <= 0)
                _exit(1);
            off += (size_t)w;
        }
    }
    _exit(out && status == 0 ? 0 : 1);
}

/* Reads the child's answer into buf (cap WS_DEMANGLE_MAX + 2); its length,
 * or -1 when it is no answer (too long, or the child failed). */
static long ws_demangle_read(int fd, pid_t pid, char *buf)
{
    size_t got = 0;
    int st = 0;
    ssize_t r;

    while (got <= WS_DEMANGLE_MAX) {
        r = read(fd, buf + got, WS_DEMANGLE_MAX + 1 - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    if (got > WS_DEMANGLE_MAX)
        kill(pid, SIGKILL);
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM)
        ws_demangle_timeouts++;
    if (got == 0 || got > WS_DEMANGLE_MAX || !WIFEXITED(st)
        || WEXITSTATUS(st) != 0)
        return -1;
    buf[got] = '\0';
    return (long)got;
}

/* The demangled name, malloc'd, or NULL where it is none (not a C++
 * name, too long, failed, or out of memory). */
static char *ws_demangle_run(const char *name)
{
    char *buf;
    int fds[2];
    pid_t pid;
    long n;

    if (strncmp(name, "_Z", 2) != 0 || strlen(name) > WS_DEMANGLE_MAX
        || ws_demangle_timeouts >= WS_DEMANGLE_GIVE_UP)
        return NULL;
    buf = malloc(WS_DEMANGLE_MAX + 2);
    if (!buf || pipe(fds) < 0) {
        free(buf);
        return NULL;
    }
    pid = fork();
    if (pid == 0) {
        close(fds[0]);
        ws_demangle_child(name, fds[1]);
    }
    close(fds[1]);
    n = pid > 0 ? ws_demangle_read(fds[0], pid, buf) : -1;
    close(fds[0]);
    if (n < 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

char *ws_demangle(const char *name)
{
    struct ws_demangle_entry *e;

    for (int i = 0; i < WS_DEMANGLE_CACHE; i++) {
        e = &ws_demangle_cache[i];
        if (e->name && strcmp(e->name, name) == 0)
            return strdup(e->shown ? e->shown : name);
    }
    e = &ws_demangle_cache[ws_demangle_next++ % WS_DEMANGLE_CACHE];
    free(e->name);
    free(e->shown);
    e->name = strdup(name);
    e->shown = e->name ? ws_demangle_run(name) : NULL;
    return strdup(e->shown ? e->shown : name);
}
