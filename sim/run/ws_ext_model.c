/*
 * ws_ext_model: external models through a JSON contract (see
 * ws_ext_model.h).
 */
#include "ws_ext_model.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "config/ws_cfg_schema.h"
#include "util/ws_utf8.h"
#include "ws_model.h"
#include "ws_model_ext.h"
#include "ws_model_params.h"
#include "report/ws_model_print.h"

/* The most a model may write: a result is a few hundred bytes. */
#define WS_EXT_MAX_OUT (1u << 20)

int ws_ext_models_add(struct ws_ext_models *e, const char *spec,
                      const char **why)
{
    const char *eq = strchr(spec, '=');
    size_t len = eq ? (size_t)(eq - spec) : 0;

    if (!eq || len == 0 || !eq[1]) {
        *why = "NAME=COMMAND, e.g. mine='python3 my_model.py'";
        return -1;
    }
    if (len > WS_EXT_NAME || !isalpha((unsigned char)spec[0])) {
        *why = "a NAME of at most 40 letters, digits and '_', starting "
               "with a letter";
        return -1;
    }
    for (size_t i = 0; i < len; i++)
        if ((!isalnum((unsigned char)spec[i]) && spec[i] != '_')
            || (i && spec[i] == '_' && spec[i - 1] == '_')) {
            *why = "a NAME of letters, digits and single '_'";
            return -1;
        }
    if (len == 5 && strncmp(spec, "total", 5) == 0) {
        *why = "a NAME other than 'total' (a sweep's total_cycles column)";
        return -1;
    }
    if (e->n == WS_EXT_MAX) {
        *why = "at most 8 external models";
        return -1;
    }
    memcpy(e->m[e->n].name, spec, len);
    e->m[e->n].name[len] = '\0';
    if (ws_model_find(e->m[e->n].name)) {
        *why = "a NAME that is not a built-in model's";
        return -1;
    }
    for (int i = 0; i < e->n; i++)
        if (strcmp(e->m[i].name, e->m[e->n].name) == 0) {
            *why = "each NAME once";
            return -1;
        }
    e->m[e->n++].cmd = eq + 1;
    return 0;
}

/* ---- the input ------------------------------------------------------------ */

/* Every config key: a number in its base unit, or its text. */
static json_t *ws_ext_config(const struct ws_gpu *g)
{
    json_t *o = json_object();

    for (size_t i = 0; i < ws_cfg_key_count(); i++) {
        const struct ws_key *k = ws_cfg_key(i);
        char text[256];
        double v;
        if (ws_cfg_key_absent(k, g))
            continue;
        if (ws_cfg_key_number(k, g, &v) == 0) {
            json_object_set_new(o, k->path, json_real(v));
            continue;
        }
        ws_cfg_key_format(k, g, text, sizeof text);
        json_object_set_new(o, k->path, ws_utf8_json_string(text));
    }
    return o;
}

json_t *ws_ext_input(const struct ws_profile *p, const struct ws_gpu *g,
                     int l2_may_be_warm)
{
    const struct ws_launch *l = &p->launch;
    json_t *params = json_object(), *k;

    for (int i = 0; i < ws_model_count(); i++) {
        const struct ws_model_def *m = ws_model_nth(i);
        union ws_model_params in;
        /* A family that shares one set of inputs (MWP/CWP) gives it once. */
        if (m->inputs_of)
            continue;
        ws_model_params_for(m, p, g, l2_may_be_warm, &in);
        json_object_set_new(params, m->name, ws_model_json_params(m, &in));
    }
    k = json_pack("{s:I,s:o,s:[III],s:[III],s:I,s:I,s:o,s:o}", "id",
                  (json_int_t)l->id, "name", ws_utf8_json_string(p->name),
                  "grid", (json_int_t)l->grid[0], (json_int_t)l->grid[1],
                  (json_int_t)l->grid[2], "block", (json_int_t)l->block[0],
                  (json_int_t)l->block[1], (json_int_t)l->block[2], "registers",
                  (json_int_t)l->nregs, "shared_bytes", (json_int_t)l->shmem,
                  "profile", ws_model_json_profile(p), "parameters", params);
    return json_pack("{s:s,s:o,s:o,s:o}", "contract", "warpsim-model/1", "gpu",
                     ws_utf8_json_string(g->name), "config", ws_ext_config(g),
                     "kernel", k);
}

/* ---- running the command ---------------------------------------------------- */

static double ws_ext_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static pid_t ws_ext_spawn(const char *cmd, const char *dir, int *in_fd,
                          int *out_fd)
{
    int in[2], out[2];
    pid_t pid;

    if (pipe(in) < 0)
        return -1;
    if (pipe(out) < 0) {
        close(in[0]);
        close(in[1]);
        return -1;
    }
    pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        signal(SIGPIPE, SIG_DFL);
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[0]);
        close(in[1]);
        close(out[0]);
        close(out[1]);
        if (dir && chdir(dir) < 0)
            _exit(126);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    /* Both sides set the group, so that a kill right away finds it. */
    if (pid > 0)
        setpgid(pid, pid);
    close(in[0]);
    close(out[1]);
    if (pid < 0) {
        close(in[1]);
        close(out[0]);
        return -1;
    }
    fcntl(in[1], F_SETFL, O_NONBLOCK);
    *in_fd = in[1];
    *out_fd = out[0];
    return pid;
}

/* Feeds `in` to the child and gathers its output until it closes it or
 * the deadline passes; 0, -1 (timed out) or -3 (more than the limit). */
static int ws_ext_exchange(int in_fd, int out_fd, const char *in, size_t in_len,
                           char *out, size_t *out_len, double deadline)
{
    size_t sent = 0;

    *out_len = 0;
    if (in_len == 0) {
        close(in_fd);
        in_fd = -1;
    }
    for (;;) {
        struct pollfd pf[2] = {{out_fd, POLLIN, 0}, {in_fd, POLLOUT, 0}};
        double left = deadline - ws_ext_now();
        int n;
        if (left <= 0)
            break;
        n = poll(pf, in_fd >= 0 ? 2 : 1, (int)(left * 1000) + 1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            break;
        if (in_fd >= 0 && (pf[1].revents & (POLLOUT | POLLERR | POLLHUP))) {
            ssize_t w = write(in_fd, in + sent, in_len - sent);
            if (w > 0)
                sent += (size_t)w;
            if (w < 0 || sent == in_len) {
                close(in_fd); /* written, or the model stopped reading */
                in_fd = -1;
            }
        }
        if (pf[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            /* One byte past the limit tells a full buffer from too much. */
            ssize_t r = read(out_fd, out + *out_len,
                             WS_EXT_MAX_OUT + 1 - *out_len);
            if (r == 0) {
                if (in_fd >= 0)
                    close(in_fd);
                return 0;
            }
            if (r > 0)
                *out_len += (size_t)r;
            if (*out_len > WS_EXT_MAX_OUT) {
                if (in_fd >= 0)
                    close(in_fd);
                return -3;
            }
        }
    }
    if (in_fd >= 0)
        close(in_fd);
    return -1;
}

/* Waits for the child until the deadline (0: now), then kills its
 * process group: a model that closed its output but runs on is not left
 * behind, nor what it started and left running when it exited.  -1 when
 * the model itself had to be killed. */
static int ws_ext_reap(pid_t pid, double deadline, int *status)
{
    int rc = -1;

    /* Waited for without reaping (WNOWAIT), so that its id is still its
     * own, and its group's, when the group is killed. */
    for (;;) {
        siginfo_t info;
        memset(&info, 0, sizeof info);
        if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) < 0
            && errno != EINTR)
            break;
        if (info.si_pid == pid) {
            rc = 0;
            break;
        }
        if (ws_ext_now() >= deadline)
            break;
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    }
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL);
    while (waitpid(pid, status, 0) < 0 && errno == EINTR)
        ;
    return rc;
}

/* WARPSIM_MODEL_TIMEOUT, or the default; -1 with err set for a value
 * that is not a number of seconds. */
static double ws_ext_timeout(struct ws_err *err)
{
    const char *e = getenv("WARPSIM_MODEL_TIMEOUT");
    char *end;
    double t;

    if (!e)
        return WS_EXT_TIMEOUT;
    t = strtod(e, &end);
    if (end == e || *end != '\0' || !(t > 0) || t > 86400) {
        ws_err_msg(err,
                   "WARPSIM_MODEL_TIMEOUT is '%.40s' (expected seconds, "
                   "more than 0 and at most 86400)",
                   e);
        return -1;
    }
    return t;
}

/* Runs cmd with in on its standard input; its output (NUL-terminated,
 * malloc'd) in *out.  SIGPIPE is ignored meanwhile: a model that exits
 * without reading its input must not take warpsim with it. */
static int ws_ext_call(const struct ws_ext_model *m, const char *in, char **out,
                       struct ws_err *err)
{
    struct sigaction ign, old;
    int in_fd, out_fd, status = 0, rc;
    double deadline, timeout = ws_ext_timeout(err);
    size_t len = 0;
    pid_t pid;
    char *buf, cmd[128];

    if (timeout < 0)
        return -1;
    /* Shown in messages with control characters as '?'. */
    ws_utf8_copy_shown(cmd, sizeof cmd, m->cmd, '?');
    if (!(buf = malloc(WS_EXT_MAX_OUT + 2)))
        return ws_err_oom(err);
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ign, &old);
    fflush(NULL);
    pid = ws_ext_spawn(m->cmd, m->dir, &in_fd, &out_fd);
    deadline = ws_ext_now() + timeout;
    rc = pid < 0 ? -2
                 : ws_ext_exchange(in_fd, out_fd, in, strlen(in), buf, &len,
                                   deadline);
    if (pid > 0) {
        close(out_fd);
        rc = ws_ext_reap(pid, rc < 0 ? 0 : deadline, &status) < 0 ? -1 : rc;
    }
    sigaction(SIGPIPE, &old, NULL);
    buf[len] = '\0';
    *out = buf;
    if (rc == -2)
        return ws_err_msg(err,
                          "external model %s: cannot start '%s' "
                          "(expected a command /bin/sh can run)",
                          m->name, cmd);
    if (rc == -3)
        return ws_err_msg(err,
                          "external model %s: '%s' wrote more than 1 "
                          "MiB (expected one JSON result per kernel)",
                          m->name, cmd);
    if (rc < 0)
        return ws_err_msg(err,
                          "external model %s: '%s' ran past %g s "
                          "(expected a result within WARPSIM_MODEL_TIMEOUT)",
                          m->name, cmd, timeout);
    if (strlen(buf) != len)
        return ws_err_msg(err,
                          "external model %s: '%s' wrote a NUL byte "
                          "(expected one JSON result)",
                          m->name, cmd);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return ws_err_msg(err,
                          "external model %s: '%s' %s %d (expected "
                          "exit status 0)",
                          m->name, cmd,
                          WIFEXITED(status) ? "exited with status"
                                            : "was killed by signal",
                          WIFEXITED(status) ? WEXITSTATUS(status)
                                            : WTERMSIG(status));
    return 0;
}

int ws_ext_run(const struct ws_ext_model *m, const json_t *input,
               struct ws_model_result *r, struct ws_err *err)
{
    char *in = json_dumps(input, JSON_COMPACT | JSON_REAL_PRECISION(17));
    char *out = NULL;
    int rc;

    if (!in)
        return ws_err_oom(err);
    rc = ws_ext_call(m, in, &out, err);
    if (rc == 0)
        rc = ws_model_ext_parse(m->name, out, r, err);
    /* Where it was named: the sweep file's models: entry, or the --model
     * word on the command line. */
    if (rc < 0 && m->file)
        ws_err_place(err, m->file, m->line, m->col);
    else if (rc < 0)
        ws_err_place_arg(err, m->cmd);
    free(in);
    free(out);
    return rc;
}
