/*
 * ws_sweep_pool: worker processes for sweep points (see ws_sweep_pool.h).
 */
#include "ws_sweep_pool.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/ws_file.h"

/* Exit status of a child whose point failed on its input: its pipe holds
 * the error line, not rows. */
#define WS_SWEEP_CHILD_FAILED 3
#define WS_SWEEP_MAX_JOBS 256
#define WS_SWEEP_PROGRESS_WIDTH 79

struct ws_sweep_slot {
    pid_t pid;
    int fd;
    size_t index;
    char *buf;
    size_t len, cap;
};

static volatile sig_atomic_t ws_sweep_stop;

static void ws_sweep_on_signal(int sig)
{
    ws_sweep_stop = sig;
}

/* A pipe, a fork or a poll that fails is the system's doing, not the
 * sweep file's: exit 1, not 2. */
static int ws_sweep_sys_fail(struct ws_err *err, const char *what)
{
    int e = errno;

    if (!err->set)
        err->internal = 1;
    return ws_err_msg(err, "warpsim sweep: %s: %s", what, strerror(e));
}

double ws_sweep_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void ws_sweep_clock(char *buf, size_t cap, double s)
{
    long t = (long)(s + 0.5);

    if (t >= 3600)
        snprintf(buf, cap, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(buf, cap, "%ld:%02ld", t / 60, t % 60);
}

static void ws_sweep_show(struct ws_sweep_progress *p, int force)
{
    double now = ws_sweep_now(), ran;
    size_t finished = p->before + p->done;
    char el[32], left[32];

    if (!p->on || (!force && now - p->last < 1.0))
        return;
    p->last = now;
    ran = now - p->start;
    ws_sweep_clock(el, sizeof el, ran);
    if (p->done)
        ws_sweep_clock(left, sizeof left,
                       ran / (double)p->done * (double)(p->total - finished));
    else
        snprintf(left, sizeof left, "?");
    fprintf(stderr,
            "\rsweep: %zu/%zu points, %zu failed, %s elapsed, ~%s "
            "left   ",
            finished, p->total, p->failed, el, left);
}

static void ws_sweep_child(size_t index, int fd, ws_sweep_run_fn run, void *ctx)
{
    struct ws_err err;
    char *rows;
    const char *out;
    int status = 0;

    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
    ws_err_clear(&err);
    rows = run(ctx, index, &err);
    out = rows;
    if (!rows) {
        out = err.set ? err.text : "the point failed for an unknown reason";
        status = WS_SWEEP_CHILD_FAILED;
    }
    if (ws_file_write_all(fd, out, strlen(out)) < 0)
        _exit(1);
    _exit(status);
}

static int ws_sweep_start(struct ws_sweep_slot *s, size_t index,
                          ws_sweep_run_fn run, void *ctx, struct ws_err *err)
{
    int fds[2];

    if (pipe(fds) < 0)
        return ws_sweep_sys_fail(err, "cannot make a pipe");
    fflush(NULL);
    s->pid = fork();
    if (s->pid < 0) {
        int e = errno;
        close(fds[0]);
        close(fds[1]);
        errno = e;
        return ws_sweep_sys_fail(err, "cannot start a worker");
    }
    if (s->pid == 0) {
        close(fds[0]);
        ws_sweep_child(index, fds[1], run, ctx);
    }
    close(fds[1]);
    s->fd = fds[0];
    s->index = index;
    s->len = 0;
    return 0;
}

/* Reads what the child sent; 1 at end of file. */
static int ws_sweep_drain(struct ws_sweep_slot *s, struct ws_err *err)
{
    for (;;) {
        ssize_t r;
        if (s->cap - s->len < 4096) {
            size_t cap = s->cap ? s->cap * 2 : 65536;
            char *b = realloc(s->buf, cap);
            if (!b)
                return ws_err_oom(err);
            s->buf = b;
            s->cap = cap;
        }
        r = read(s->fd, s->buf + s->len, s->cap - s->len - 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0 && errno == EAGAIN)
            return 0;
        if (r <= 0)
            return 1;
        s->len += (size_t)r;
        return 0;
    }
}

/* The child is done: collect its status and report the point. */
static int ws_sweep_reap(struct ws_sweep_slot *s, ws_sweep_done_fn done,
                         void *ctx, struct ws_sweep_progress *prog,
                         struct ws_err *err)
{
    char why[WS_ERR_TEXT];
    int status = 0, rc;

    close(s->fd);
    s->fd = -1;
    while (waitpid(s->pid, &status, 0) < 0 && errno == EINTR)
        ;
    s->pid = 0;
    /* ws_sweep_drain makes the buffer before its first read, and a slot
     * is reaped only once drain has seen the end of its pipe.
     * NOLINTNEXTLINE(clang-analyzer-core.NullDereference) */
    s->buf[s->len] = '\0';
    /* Ctrl-C reaches the whole process group: a child that died with the
     * parent's stop did not fail, and its point is left for the rerun
     * (recorded as failed, a rerun would keep it so). */
    if (ws_sweep_stop && WIFSIGNALED(status))
        return 0;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && s->len) {
        rc = done(ctx, s->index, s->buf, NULL, err);
    } else {
        if (WIFEXITED(status) && WEXITSTATUS(status) == WS_SWEEP_CHILD_FAILED)
            snprintf(why, sizeof why, "%s", s->buf);
        else if (WIFSIGNALED(status))
            snprintf(why, sizeof why,
                     "the point's simulation crashed "
                     "(signal %d: %s)",
                     WTERMSIG(status), strsignal(WTERMSIG(status)));
        else
            snprintf(why, sizeof why,
                     "the point's worker exited with "
                     "status %d",
                     WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        prog->failed++;
        rc = done(ctx, s->index, NULL, why, err);
    }
    prog->done++;
    ws_sweep_show(prog, 1);
    return rc;
}

static void ws_sweep_kill_all(struct ws_sweep_slot *slots, int n)
{
    for (int i = 0; i < n; i++) {
        if (!slots[i].pid)
            continue;
        kill(slots[i].pid, SIGTERM);
        close(slots[i].fd);
        while (waitpid(slots[i].pid, NULL, 0) < 0 && errno == EINTR)
            ;
        slots[i].pid = 0;
    }
}

static int ws_sweep_loop(struct ws_sweep_slot *slots, int jobs,
                         const size_t *todo, size_t n, ws_sweep_run_fn run,
                         ws_sweep_done_fn done, void *ctx,
                         struct ws_sweep_progress *prog, struct ws_err *err)
{
    struct pollfd pfd[WS_SWEEP_MAX_JOBS];
    int map[WS_SWEEP_MAX_JOBS];
    size_t next = 0, running = 0;

    while (next < n || running) {
        int np = 0, ready;
        for (int i = 0; i < jobs && next < n && !ws_sweep_stop; i++) {
            if (slots[i].pid)
                continue;
            if (ws_sweep_start(&slots[i], todo[next], run, ctx, err) < 0)
                return -1;
            next++;
            running++;
        }
        if (ws_sweep_stop)
            return 1;
        for (int i = 0; i < jobs; i++)
            if (slots[i].pid) {
                pfd[np] = (struct pollfd){slots[i].fd, POLLIN, 0};
                map[np++] = i;
            }
        ready = poll(pfd, (nfds_t)np, 1000);
        if (ready < 0 && errno != EINTR)
            return ws_sweep_sys_fail(err, "poll");
        ws_sweep_show(prog, 0);
        for (int k = 0; ready > 0 && k < np; k++) {
            struct ws_sweep_slot *s = &slots[map[k]];
            int eof;
            if (!pfd[k].revents)
                continue;
            eof = ws_sweep_drain(s, err);
            if (eof < 0)
                return -1;
            if (eof) {
                running--;
                if (ws_sweep_reap(s, done, ctx, prog, err) < 0)
                    return -1;
            }
        }
    }
    return ws_sweep_stop ? 1 : 0;
}

int ws_sweep_pool_run(const size_t *todo, size_t n, int jobs,
                      ws_sweep_run_fn run, ws_sweep_done_fn done, void *ctx,
                      struct ws_sweep_progress *prog, struct ws_err *err)
{
    struct ws_sweep_slot slots[WS_SWEEP_MAX_JOBS];
    struct sigaction sa, old[3];
    const int sigs[3] = {SIGINT, SIGTERM, SIGHUP};
    int rc;

    if (jobs < 1)
        jobs = 1;
    if (jobs > WS_SWEEP_MAX_JOBS)
        jobs = WS_SWEEP_MAX_JOBS;
    memset(slots, 0, sizeof slots);
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = ws_sweep_on_signal;
    sigemptyset(&sa.sa_mask);
    ws_sweep_stop = 0;
    for (int i = 0; i < 3; i++)
        sigaction(sigs[i], &sa, &old[i]);
    prog->start = prog->last = ws_sweep_now();
    ws_sweep_show(prog, 1);
    rc = ws_sweep_loop(slots, jobs, todo, n, run, done, ctx, prog, err);
    ws_sweep_kill_all(slots, jobs);
    for (int i = 0; i < jobs; i++)
        free(slots[i].buf);
    for (int i = 0; i < 3; i++)
        sigaction(sigs[i], &old[i], NULL);
    if (prog->on)
        fprintf(stderr, "\r%*s\r", WS_SWEEP_PROGRESS_WIDTH, "");
    return rc;
}
