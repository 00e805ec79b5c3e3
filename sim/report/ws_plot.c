/*
 * ws_plot: the gnuplot driver every chart uses (see ws_plot.h): a private
 * folder, the chart's data and script written into it, gnuplot run on
 * them, the SVG read back, the folder removed.
 *
 * Charts check their data first (numbers, positive on a log axis), so
 * gnuplot is only ever given data it can draw and its failures are
 * warpsim's bugs or a missing program, never bad input.  Text from users
 * (column names, series values, kernel names) reaches a script only as
 * single-quoted gnuplot strings (no escapes are processed there, a quote
 * is doubled, control characters become blanks) shown "noenhanced", so
 * an underscore stays an underscore.
 *
 * gnuplot runs with -d (no ~/.gnuplot), its standard input from /dev/null
 * and its output to a file, in a private folder that is always removed.
 * SIGINT, SIGTERM and SIGHUP are held off while the folder exists.
 *
 * Leaves out: the charts themselves (ws_plot_table.c, ws_plot_bars.c,
 * ws_roofline_plot.c); a time limit on gnuplot.
 */
#include "ws_plot.h"

#include "util/ws_sighold.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* A chart of a few thousand points is well under a megabyte; more than
 * this is gnuplot gone wrong, not a chart to keep. */
#define WS_PLOT_MAX_SVG ((size_t)64 << 20)

/* The inside of a gnuplot single-quoted string: nothing is escaped there
 * but the quote itself, which is doubled; a line break would end the
 * command. */
void ws_plot_quote_body(FILE *out, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '\'')
            fputc('\'', out);
        fputc(c < 0x20 || c == 0x7f ? ' ' : c, out);
    }
}

void ws_plot_quote(FILE *out, const char *s)
{
    fputc('\'', out);
    ws_plot_quote_body(out, s);
    fputc('\'', out);
}

static int ws_plot_internal(struct ws_err *err)
{
    if (err->set && !err->placed)
        err->internal = 1;
    return -1;
}

/* SIGINT, SIGTERM and SIGHUP wait while the private folder exists
 * (ws_sighold), so no signal leaves it behind; gnuplot runs with the
 * caller's mask (a Ctrl-C to the process group stops it at once, and the
 * signal reaches warpsim when the folder is gone). */
/* $TMPDIR when it is an absolute path a script can quote, else /tmp. */
static int ws_plot_mkdir(struct ws_plot_dir *d, struct ws_err *err)
{
    const char *base = getenv("TMPDIR");

    if (!base || base[0] != '/' || strlen(base) > PATH_MAX - 64)
        base = "/tmp";
    for (const char *p = base; *p; p++)
        if ((unsigned char)*p < 0x20)
            base = "/tmp";
    snprintf(d->dir, sizeof d->dir, "%s/warpsim-plot-XXXXXX", base);
    ws_sighold(&d->old);
    if (!mkdtemp(d->dir)) {
        ws_sighold_release(&d->old);
        ws_err_msg(err,
                   "cannot create a temporary folder in %s: %s "
                   "(expected a writable $TMPDIR or /tmp)",
                   base, strerror(errno));
        return ws_plot_internal(err);
    }
    snprintf(d->data, sizeof d->data, "%s/data.txt", d->dir);
    snprintf(d->script, sizeof d->script, "%s/plot.gp", d->dir);
    snprintf(d->svg, sizeof d->svg, "%s/plot.svg", d->dir);
    snprintf(d->log, sizeof d->log, "%s/gnuplot.log", d->dir);
    return 0;
}

static void ws_plot_rmdir(const struct ws_plot_dir *d)
{
    unlink(d->data);
    unlink(d->script);
    unlink(d->svg);
    unlink(d->log);
    rmdir(d->dir);
    ws_sighold_release(&d->old);
}

FILE *ws_plot_fopen(const char *path, struct ws_err *err)
{
    FILE *fp = fopen(path, "w");

    if (!fp) {
        ws_err_msg(err,
                   "cannot create %s: %s (expected a writable "
                   "temporary folder)",
                   path, strerror(errno));
        ws_plot_internal(err);
    }
    return fp;
}

int ws_plot_close(FILE *fp, const char *path, struct ws_err *err)
{
    if (ferror(fp) | (fclose(fp) != 0)) {
        ws_err_msg(err,
                   "cannot write %s: %s (expected space in the "
                   "temporary folder)",
                   path, strerror(errno));
        return ws_plot_internal(err);
    }
    return 0;
}

/* The line of gnuplot's output that says what went wrong: the one giving
 * the script's line ('"plot.gp" line 9: ...'), else the first non-blank
 * one. */
static void ws_plot_log_line(const char *path, char *out, size_t size)
{
    FILE *fp = fopen(path, "r");
    char line[512];
    int found = 0;

    snprintf(out, size, "no message");
    while (fp && !found && fgets(line, sizeof line, fp)) {
        const char *p = line + strspn(line, " \t");
        line[strcspn(line, "\r\n")] = '\0';
        found = strstr(p, "\" line ") != NULL;
        if (*p && (found || strcmp(out, "no message") == 0))
            snprintf(out, size, "%s", p);
    }
    if (fp)
        fclose(fp);
}

static int ws_plot_spawn_failed(int rc, struct ws_err *err)
{
    if (rc == ENOENT)
        ws_err_msg(err, "gnuplot is not installed (expected the Debian "
                        "package gnuplot-nox)");
    else
        ws_err_msg(err,
                   "cannot run gnuplot: %s (expected the Debian "
                   "package gnuplot-nox)",
                   strerror(rc));
    return ws_plot_internal(err);
}

/* Runs "gnuplot -d SCRIPT", output and errors to the log file. */
static int ws_plot_run(const struct ws_plot_dir *d, struct ws_err *err)
{
    char *argv[] = {"gnuplot", "-d", (char *)d->script, NULL};
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    char msg[240];
    pid_t pid;
    int rc, status;

    if (posix_spawnattr_init(&at) != 0)
        return ws_err_oom(err);
    if (posix_spawn_file_actions_init(&fa) != 0) {
        posix_spawnattr_destroy(&at);
        return ws_err_oom(err);
    }
    rc = posix_spawnattr_setsigmask(&at, &d->old);
    if (rc == 0)
        rc = posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK);
    if (rc == 0)
        rc = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    if (rc == 0)
        rc = posix_spawn_file_actions_addopen(&fa, 1, d->log,
                                              O_WRONLY | O_CREAT | O_TRUNC,
                                              0600);
    if (rc == 0)
        rc = posix_spawn_file_actions_adddup2(&fa, 1, 2);
    if (rc == 0)
        rc = posix_spawnp(&pid, "gnuplot", &fa, &at, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    if (rc != 0)
        return ws_plot_spawn_failed(rc, err);
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return ws_plot_spawn_failed(errno, err);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    /* A shell-like spawn reports a missing program as status 127. */
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
        return ws_plot_spawn_failed(ENOENT, err);
    ws_plot_log_line(d->log, msg, sizeof msg);
    ws_err_msg(err,
               "gnuplot failed (%s %d): %s (expected it to draw the "
               "chart)",
               WIFEXITED(status) ? "exit status" : "signal",
               WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), msg);
    return ws_plot_internal(err);
}

/* The SVG gnuplot wrote, read whole.  Not through ws_file: the file is
 * not an input, and must not join the set that outputs are checked
 * against. */
static char *ws_plot_read_svg(const char *path, struct ws_err *err)
{
    FILE *fp = fopen(path, "rb");
    char *text = malloc(WS_PLOT_MAX_SVG + 1);
    size_t n = 0;

    if (fp && text)
        n = fread(text, 1, WS_PLOT_MAX_SVG + 1, fp);
    if (fp && text && !ferror(fp) && n > 0 && n <= WS_PLOT_MAX_SVG) {
        fclose(fp);
        text[n] = '\0';
        return text;
    }
    if (!text)
        ws_err_oom(err);
    ws_err_msg(err,
               "gnuplot wrote %s SVG (expected a chart of at most "
               "%zu MiB)",
               n ? "too large an" : "no", WS_PLOT_MAX_SVG >> 20);
    ws_plot_internal(err);
    if (fp)
        fclose(fp);
    free(text);
    return NULL;
}


void ws_plot_data_text(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++)
        fputc(*s == '"' || (unsigned char)*s < 0x20 ? '_' : *s, out);
    fputc('"', out);
}

void ws_plot_terminal(FILE *fp, const struct ws_plot_dir *d, int width,
                      int height)
{
    fprintf(fp,
            "set encoding utf8\n"
            "set terminal svg size %d,%d dynamic enhanced font 'sans,11'\n"
            "set output ",
            width, height);
    ws_plot_quote(fp, d->svg);
    fputc('\n', fp);
}

char *ws_plot_gnuplot(ws_plot_write_fn write, const void *chart,
                      struct ws_err *err)
{
    struct ws_plot_dir d;
    char *svg = NULL;

    if (ws_plot_mkdir(&d, err) < 0)
        return NULL;
    if (write(&d, chart, err) == 0 && ws_plot_run(&d, err) == 0)
        svg = ws_plot_read_svg(d.svg, err);
    ws_plot_rmdir(&d);
    return svg;
}
