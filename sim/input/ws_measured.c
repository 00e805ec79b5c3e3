/*
 * ws_measured: recognising a measurements file and the table both
 * readers fill (see ws_measured.h).
 *
 * The format is decided by the first line that is not blank and not one
 * of ncu's own log lines ("==PROF== ...", "==WARNING== ...", which ncu
 * writes to the same stream as a CSV printed on standard output): a CSV
 * export's header row starts with the quoted column "ID" (every field of
 * ncu's CSV is quoted); anything else is read as an Accel-Sim log, which
 * says itself whether it is one (its statistics blocks).  The file is then
 * opened again and read by the format's reader from its first line, so
 * line numbers are the file's.
 *
 * Leaves out: the formats themselves (ws_ncu_csv.c, ws_accelsim_log.c).
 */
#include "ws_measured.h"

#include "ws_kname.h"
#include "util/ws_clip.h"
#include "util/ws_grow.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ws_csv reads at most this much; refusing sooner saves the copy. */
#define WS_MEAS_MAX_CSV ((size_t)256 << 20)
/* A number longer than this is no measurement. */
#define WS_MEAS_MAX_NUMBER 63

const char *ws_measured_format_name(enum ws_meas_format f)
{
    return f == WS_MEAS_NCU ? "Nsight Compute CSV" : "Accel-Sim log";
}

/* ---- numbers and units ------------------------------------------------ */

static size_t ws_meas_digits(const char *s)
{
    size_t n = 0;

    while (s[n] >= '0' && s[n] <= '9')
        n++;
    return n;
}

/* The digits before the fraction: one ungrouped run, or 1-3 digits then
 * groups of ",ddd".  Returns the length, 0 when malformed; *grouped set
 * when commas were met. */
static size_t ws_meas_integer(const char *s, int *grouped)
{
    size_t n = ws_meas_digits(s), at;

    *grouped = 0;
    if (n == 0 || s[n] != ',')
        return n;
    if (n > 3)
        return 0;
    at = n;
    while (s[at] == ',') {
        if (ws_meas_digits(s + at + 1) != 3)
            return 0;
        at += 4;
    }
    *grouped = 1;
    return at;
}

int ws_meas_number(const char *s, double *v)
{
    char buf[WS_MEAS_MAX_NUMBER + 1], *end;
    size_t at = 0, n = 0;
    int grouped;

    if (!*s || strcmp(s, "n/a") == 0 || strcmp(s, "N/A") == 0)
        return 1;
    if (strlen(s) > WS_MEAS_MAX_NUMBER)
        return -1;
    if (s[at] == '-' || s[at] == '+')
        at++;
    n = ws_meas_integer(s + at, &grouped);
    if (n == 0)
        return -1;
    at += n;
    if (s[at] == '.') {
        if ((n = ws_meas_digits(s + at + 1)) == 0)
            return -1;
        at += n + 1;
    }
    if ((s[at] == 'e' || s[at] == 'E') && !grouped) {
        at += s[at + 1] == '+' || s[at + 1] == '-' ? 2 : 1;
        if ((n = ws_meas_digits(s + at)) == 0)
            return -1;
        at += n;
    }
    if (s[at])
        return -1;
    n = 0;
    for (const char *p = s; *p; p++)
        if (*p != ',')
            buf[n++] = *p;
    buf[n] = '\0';
    *v = strtod(buf, &end);
    return *end || !isfinite(*v) ? -1 : 0;
}

/* One unit without '/' ("" counts as one: a plain number): a time name,
 * or a unit word, bare or after a prefix; NAN when it is none of them. */
static double ws_meas_simple_scale(const char *u, size_t n)
{
    static const struct { const char *name; double scale; } time[] = {
        {"second", 1}, {"s", 1}, {"msecond", 1e-3}, {"ms", 1e-3},
        {"usecond", 1e-6}, {"us", 1e-6}, {"nsecond", 1e-9}, {"ns", 1e-9},
    };
    static const char *const words[] = {
        "byte", "B", "bit", "cycle", "inst", "sector", "request", "wavefront",
        "transaction", "warp", "thread", "block", "cluster", "SM", "register",
        "pass", "hz",
    };
    const char *prefix = "KMGTP", *at;
    double scale = 1, step = 1000;

    if (n == 0 || (n == 1 && u[0] == '%'))
        return 1;
    for (size_t i = 0; i < sizeof time / sizeof time[0]; i++)
        if (strlen(time[i].name) == n && strncmp(u, time[i].name, n) == 0)
            return time[i].scale;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strlen(words[i]) == n && strncmp(u, words[i], n) == 0)
            return 1;
    if (n < 2 || !(at = strchr(prefix, u[0])))
        return NAN;
    u++, n--;
    if ((n == 2 && strncmp(u, "iB", 2) == 0)
        || (n == 5 && strncmp(u, "ibyte", 5) == 0)) {
        /* KiB, Mibyte: binary, for bytes only ("Minst" is M inst) */
        step = 1024;
        u++, n--;
    }
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strlen(words[i]) == n && strncmp(u, words[i], n) == 0) {
            for (const char *p = prefix; p <= at; p++)
                scale *= step;
            return scale;
        }
    return NAN;
}

double ws_meas_unit_scale(const char *unit)
{
    const char *slash = strchr(unit, '/');

    if (!slash)
        return ws_meas_simple_scale(unit, strlen(unit));
    /* a ratio has two parts, neither empty: "byte/" is no unit */
    if (slash == unit || !slash[1] || strchr(slash + 1, '/'))
        return NAN;
    return ws_meas_simple_scale(unit, (size_t)(slash - unit))
           / ws_meas_simple_scale(slash + 1, strlen(slash + 1));
}

/* ---- the table ---------------------------------------------------------- */

static char *ws_meas_strndup(const char *s, size_t n)
{
    char *d = malloc(n + 1);

    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

long ws_measured_add_metric(struct ws_measured *m, const char *name)
{
    char *copy;

    if (m->nkernels > 0)
        return -1;
    copy = ws_meas_strndup(name, strlen(name));
    if (!copy || ws_grow((void **)&m->metrics, &m->metrics_cap,
                         m->nmetrics + 1, sizeof *m->metrics, 16) < 0) {
        free(copy);
        return -1;
    }
    m->metrics[m->nmetrics] = copy;
    return (long)m->nmetrics++;
}

long ws_measured_add_kernel(struct ws_measured *m, const char *name,
                            size_t len, long line, long long id)
{
    struct ws_meas_kernel k = {ws_meas_strndup(name, len), NULL, line, id};
    size_t n = m->nkernels;

    if (k.name)
        k.base = ws_kname_base(k.name);
    if (!k.base || ws_grow((void **)&m->kernels, &m->kernels_cap, n + 1,
                           sizeof *m->kernels, 16) < 0
        || (m->nmetrics && ws_grow((void **)&m->values, &m->values_cap,
                                   (n + 1) * m->nmetrics, sizeof *m->values,
                                   16 * m->nmetrics) < 0)) {
        free(k.name);
        free(k.base);
        return -1;
    }
    m->kernels[n] = k;
    for (size_t i = 0; i < m->nmetrics; i++)
        m->values[n * m->nmetrics + i] = NAN;
    m->nkernels = n + 1;
    return (long)n;
}

static int ws_meas_bad_before(const struct ws_meas_bad *b, size_t kernel,
                              size_t metric)
{
    return b->kernel < kernel || (b->kernel == kernel && b->metric < metric);
}

int ws_measured_add_bad(struct ws_measured *m, size_t kernel, size_t metric,
                        long line, long col, const char *text,
                        enum ws_meas_why why)
{
    struct ws_meas_bad b = {kernel, metric, line, col,
                            ws_meas_strndup(text, strlen(text)), why};

    /* Out of order would break the search of ws_measured_bad. */
    if (m->nbad > 0 && !ws_meas_bad_before(&m->bad[m->nbad - 1], kernel,
                                           metric)) {
        free(b.text);
        return -1;
    }
    if (!b.text || ws_grow((void **)&m->bad, &m->bad_cap, m->nbad + 1,
                           sizeof *m->bad, 16) < 0) {
        free(b.text);
        return -1;
    }
    m->bad[m->nbad++] = b;
    return 0;
}

int ws_measured_add_unit_bad(struct ws_measured *m, size_t metric, long line,
                             long col, const char *unit, enum ws_meas_why why)
{
    struct ws_meas_bad b = {0, metric, line, col,
                            ws_meas_strndup(unit, strlen(unit)), why};

    if (!b.text || ws_grow((void **)&m->unit_bad, &m->unit_bad_cap,
                           m->nunit_bad + 1, sizeof *m->unit_bad, 8) < 0) {
        free(b.text);
        return -1;
    }
    m->unit_bad[m->nunit_bad++] = b;
    return 0;
}

long ws_measured_metric(const struct ws_measured *m, const char *name)
{
    for (size_t i = 0; i < m->nmetrics; i++)
        if (strcmp(m->metrics[i], name) == 0)
            return (long)i;
    return -1;
}

/* Readers add bad cells row by row, column by column: a binary search,
 * as a large export may hold a text cell in every row. */
const struct ws_meas_bad *ws_measured_bad(const struct ws_measured *m,
                                          size_t kernel, size_t metric)
{
    size_t lo = 0, hi = m->nbad;

    /* few columns have a unit problem: a plain search */
    for (size_t i = 0; i < m->nunit_bad; i++)
        if (m->unit_bad[i].metric == metric)
            return &m->unit_bad[i];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ws_meas_bad_before(&m->bad[mid], kernel, metric))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < m->nbad && m->bad[lo].kernel == kernel
           && m->bad[lo].metric == metric ? &m->bad[lo] : NULL;
}

void ws_measured_free(struct ws_measured *m)
{
    for (size_t i = 0; i < m->nmetrics; i++)
        free(m->metrics[i]);
    for (size_t i = 0; i < m->nkernels; i++) {
        free(m->kernels[i].name);
        free(m->kernels[i].base);
    }
    for (size_t i = 0; i < m->nbad; i++)
        free(m->bad[i].text);
    for (size_t i = 0; i < m->nunit_bad; i++)
        free(m->unit_bad[i].text);
    free(m->unit_bad);
    free(m->metrics);
    free(m->kernels);
    free(m->values);
    free(m->bad);
    free(m->name);
    memset(m, 0, sizeof *m);
}

/* ---- recognising and reading ---------------------------------------------- */

/* ncu's own log lines and blank lines come before a CSV on stdout. */
static int ws_meas_preamble(const char *line)
{
    line += strspn(line, " \t");
    return !*line || strncmp(line, "==", 2) == 0;
}

/* The first line of ncu's CSV, after a UTF-8 byte order mark if any. */
static int ws_meas_is_ncu(const char *line)
{
    if (strncmp(line, "\xef\xbb\xbf", 3) == 0)
        line += 3;
    return strncmp(line, "\"ID\",", 5) == 0 || strncmp(line, "ID,", 3) == 0;
}

/* Reads the lines before the first that says what the file is. */
static int ws_meas_detect(struct ws_lines *r, enum ws_meas_format *f,
                          struct ws_err *err)
{
    char *line;
    size_t len;
    int rc;

    while ((rc = ws_lines_next(r, &line, &len, err)) == 1) {
        if (ws_meas_preamble(line))
            continue;
        *f = ws_meas_is_ncu(line) ? WS_MEAS_NCU : WS_MEAS_ACCELSIM;
        return 0;
    }
    if (rc == 0)
        ws_err_at(err, r->name, r->lineno > 0 ? r->lineno : 1, 1, "no data "
                  "(expected an Nsight Compute CSV export or an Accel-Sim "
                  "log)");
    return -1;
}

/* The lines of a CSV export joined again (CR-LF read as LF): the text
 * ws_csv parses, from the header row on; *first is that row's line. */
static char *ws_meas_collect(struct ws_lines *r, size_t *len, long *first,
                             struct ws_err *err)
{
    char *buf = NULL, *line;
    size_t cap = 0, n = 0, llen;
    int rc;

    *first = 0;
    while ((rc = ws_lines_next(r, &line, &llen, err)) == 1) {
        if (*first == 0 && ws_meas_preamble(line))
            continue;
        if (*first == 0) {
            *first = r->lineno;
            /* A byte order mark (an export saved on Windows) is no part
             * of the first column's name. */
            if (strncmp(line, "\xef\xbb\xbf", 3) == 0) {
                line += 3;
                llen -= 3;
            }
        }
        if (n + llen + 1 > WS_MEAS_MAX_CSV) {
            free(buf);
            ws_err_at(err, r->name, r->lineno, 1, "the CSV passes %zu MiB "
                      "(expected a smaller export)", WS_MEAS_MAX_CSV >> 20);
            return NULL;
        }
        if (ws_grow((void **)&buf, &cap, n + llen + 2, 1, 1 << 16) < 0) {
            free(buf);
            ws_err_oom(err);
            return NULL;
        }
        memcpy(buf + n, line, llen);
        n += llen;
        buf[n++] = '\n';
    }
    if (rc < 0) {
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

/* Reads the whole input from r, a reader opened on its first line. */
static int ws_meas_read(struct ws_measured *m, struct ws_lines *r,
                        enum ws_meas_format f, struct ws_err *err)
{
    char *text;
    size_t len = 0;
    long first;
    int rc;

    m->format = f;
    if (f == WS_MEAS_ACCELSIM)
        return ws_accelsim_read(m, r, err);
    text = ws_meas_collect(r, &len, &first, err);
    if (!text)
        return -1;
    rc = ws_ncu_parse(m, text, len, first, err);
    free(text);
    return rc;
}

static int ws_meas_start(struct ws_measured *m, const char *name,
                         struct ws_err *err)
{
    memset(m, 0, sizeof *m);
    m->name = ws_meas_strndup(name, strlen(name));
    return m->name ? 0 : ws_err_oom(err);
}

static int ws_meas_done(struct ws_measured *m, int rc)
{
    if (rc < 0)
        ws_measured_free(m);
    return rc;
}

/* ws_lines refuses what is not a regular file too, in words about
 * traces; this says what a measurements file is. */
static int ws_meas_check(const char *path, struct ws_err *err)
{
    struct stat st;
    struct ws_clip q;

    if (stat(path, &st) != 0 || S_ISREG(st.st_mode))
        return 0;       /* ws_lines_open says why it cannot open it */
    return ws_err_msg(err, "%s: %s (expected an Nsight Compute CSV or an "
                      "Accel-Sim log file)", ws_clip_path(&q, path),
                      S_ISDIR(st.st_mode) ? "is a folder"
                      : "not a regular file");
}

int ws_measured_load(struct ws_measured *m, const char *path,
                     struct ws_err *err)
{
    struct ws_lines r;
    enum ws_meas_format f = WS_MEAS_ACCELSIM;
    int rc;

    if (ws_meas_start(m, path, err) < 0)
        return -1;
    if (ws_meas_check(path, err) < 0 || ws_lines_open(&r, path, err) < 0)
        return ws_meas_done(m, -1);
    rc = ws_meas_detect(&r, &f, err);
    ws_lines_close(&r);
    /* Opened again to read from line 1: it is a regular file
     * (ws_lines refuses anything else), so the second read sees the
     * same bytes. */
    if (rc == 0 && (rc = ws_lines_open(&r, path, err)) == 0) {
        rc = ws_meas_read(m, &r, f, err);
        ws_lines_close(&r);
    }
    return ws_meas_done(m, rc);
}

int ws_measured_parse(struct ws_measured *m, const char *name,
                      const char *text, size_t len, struct ws_err *err)
{
    struct ws_lines r;
    enum ws_meas_format f = WS_MEAS_ACCELSIM;
    int rc;

    if (ws_meas_start(m, name, err) < 0)
        return -1;
    if (ws_lines_open_mem(&r, name, text, len, err) < 0)
        return ws_meas_done(m, -1);
    rc = ws_meas_detect(&r, &f, err);
    ws_lines_close(&r);
    if (rc == 0 && (rc = ws_lines_open_mem(&r, name, text, len, err)) == 0) {
        rc = ws_meas_read(m, &r, f, err);
        ws_lines_close(&r);
    }
    return ws_meas_done(m, rc);
}
