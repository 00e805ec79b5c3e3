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
 * Also here: the table's growth, the readers' notes of metrics left out,
 * and the identity check of launch ids both readers share.
 *
 * Leaves out: the formats themselves (ws_ncu_csv.c, ws_accelsim_log.c),
 * and the number, unit and dimension rules (ws_meas_units.c).
 */
#include "ws_measured.h"

#include "ws_kname.h"
#include "util/ws_clip.h"
#include "util/ws_grow.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ws_csv reads at most this much; refusing sooner saves the copy. */
#define WS_MEAS_MAX_CSV ((size_t)256 << 20)

const char *ws_measured_format_name(enum ws_meas_format f)
{
    return f == WS_MEAS_NCU ? "Nsight Compute CSV" : "Accel-Sim log";
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
    if (!copy
        || ws_grow((void **)&m->metrics, &m->metrics_cap, m->nmetrics + 1,
                   sizeof *m->metrics, 16)
               < 0
        || ws_grow((void **)&m->units, &m->units_cap, m->nmetrics + 1,
                   sizeof *m->units, 16)
               < 0) {
        free(copy);
        return -1;
    }
    m->metrics[m->nmetrics] = copy;
    m->units[m->nmetrics] = (struct ws_meas_unit){NULL, 0, 0};
    return (long)m->nmetrics++;
}

int ws_measured_set_unit(struct ws_measured *m, size_t metric, const char *unit,
                         long line, long col)
{
    char *copy = ws_meas_strndup(unit, strlen(unit));

    if (!copy)
        return -1;
    free(m->units[metric].text);
    m->units[metric] = (struct ws_meas_unit){copy, line, col};
    return 0;
}

long ws_measured_add_kernel(struct ws_measured *m, const char *name, size_t len,
                            long line, long long id)
{
    struct ws_meas_kernel k = {
        ws_meas_strndup(name, len), NULL, line, id, line, 1};
    size_t n = m->nkernels;

    if (k.name)
        k.base = ws_kname_base(k.name);
    if (!k.base
        || ws_grow((void **)&m->kernels, &m->kernels_cap, n + 1,
                   sizeof *m->kernels, 16)
               < 0
        || (m->nmetrics
            && ws_grow((void **)&m->values, &m->values_cap,
                       (n + 1) * m->nmetrics, sizeof *m->values,
                       16 * m->nmetrics)
                   < 0)) {
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
    struct ws_meas_bad b = {kernel,
                            metric,
                            line,
                            col,
                            ws_meas_strndup(text, strlen(text)),
                            why,
                            WS_DIM_UNKNOWN,
                            WS_DIM_UNKNOWN,
                            metric};

    /* Out of order would break the search of ws_measured_bad. */
    if (m->nbad > 0
        && !ws_meas_bad_before(&m->bad[m->nbad - 1], kernel, metric)) {
        free(b.text);
        return -1;
    }
    if (!b.text
        || ws_grow((void **)&m->bad, &m->bad_cap, m->nbad + 1, sizeof *m->bad,
                   16)
               < 0) {
        free(b.text);
        return -1;
    }
    m->bad[m->nbad++] = b;
    return 0;
}

static int ws_meas_keep_unit_bad(struct ws_measured *m, struct ws_meas_bad b)
{
    if (!b.text
        || ws_grow((void **)&m->unit_bad, &m->unit_bad_cap, m->nunit_bad + 1,
                   sizeof *m->unit_bad, 8)
               < 0) {
        free(b.text);
        return -1;
    }
    m->unit_bad[m->nunit_bad++] = b;
    return 0;
}

int ws_measured_add_unit_bad(struct ws_measured *m, size_t metric, long line,
                             long col, const char *unit, enum ws_meas_why why)
{
    return ws_meas_keep_unit_bad(
        m, (struct ws_meas_bad){0, metric, line, col,
                                ws_meas_strndup(unit, strlen(unit)), why,
                                WS_DIM_UNKNOWN, WS_DIM_UNKNOWN, metric});
}

int ws_measured_add_dim_bad(struct ws_measured *m, size_t metric, size_t from,
                            long line, long col, const char *unit,
                            enum ws_meas_dim dim, enum ws_meas_dim want)
{
    return ws_meas_keep_unit_bad(
        m, (struct ws_meas_bad){0, metric, line, col,
                                ws_meas_strndup(unit, strlen(unit)),
                                WS_MEAS_DIM_UNIT, dim, want, from});
}

int ws_measured_add_note(struct ws_measured *m, size_t kernel, size_t metric,
                         long line, const char *fmt, ...)
{
    struct ws_meas_note n = {kernel, metric, line, NULL};
    va_list ap;
    int len;

    va_start(ap, fmt);
    len = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (len < 0 || !(n.why = malloc((size_t)len + 1)))
        return -1;
    va_start(ap, fmt);
    vsnprintf(n.why, (size_t)len + 1, fmt, ap);
    va_end(ap);
    if (ws_grow((void **)&m->notes, &m->notes_cap, m->nnotes + 1,
                sizeof *m->notes, 8)
        < 0) {
        free(n.why);
        return -1;
    }
    m->notes[m->nnotes++] = n;
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
                   && m->bad[lo].metric == metric
               ? &m->bad[lo]
               : NULL;
}

void ws_measured_free(struct ws_measured *m)
{
    for (size_t i = 0; i < m->nmetrics; i++) {
        free(m->metrics[i]);
        free(m->units[i].text);
    }
    for (size_t i = 0; i < m->nnotes; i++)
        free(m->notes[i].why);
    free(m->notes);
    free(m->units);
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

/* ---- identity ----------------------------------------------------------- */

void ws_meas_ids_init(struct ws_meas_ids *s)
{
    ws_strtab_init(&s->ids);
    s->kernel = NULL;
    s->cap = 0;
}

void ws_meas_ids_free(struct ws_meas_ids *s)
{
    ws_strtab_free(&s->ids);
    free(s->kernel);
    s->kernel = NULL;
    s->cap = 0;
}

long ws_meas_ids_seen(struct ws_meas_ids *s, long long id, size_t k)
{
    char key[32];
    int n = snprintf(key, sizeof key, "%lld", id);
    uint32_t before = s->ids.count;
    uint32_t at = ws_strtab_intern(&s->ids, key, (size_t)n);

    if (at == UINT32_MAX
        || ws_grow((void **)&s->kernel, &s->cap, (size_t)at + 1,
                   sizeof *s->kernel, 64)
               < 0)
        return -2;
    if (at != before)
        return (long)s->kernel[at];
    s->kernel[at] = k;
    return -1;
}

/* A launch measured twice is refused, even when the two rows (blocks)
 * are byte for byte the same.  Keeping one would look harmless, but a
 * repeat is how two exports or two logs joined together show (a rerun
 * appended, a block pasted twice), and what else such a join brings (a
 * launch of the other run under a new id, running totals that restart)
 * would pair silently by launch order; a repeat that is not identical
 * cannot be settled at all.  So the safe rule is one: each id once. */
int ws_meas_ids_add(struct ws_meas_ids *s, const struct ws_measured *m,
                    size_t k, struct ws_err *err)
{
    const struct ws_meas_kernel *mk = &m->kernels[k], *old;
    int ncu = m->format == WS_MEAS_NCU;
    const char *what = ncu ? "launch ID" : "kernel_launch_uid";
    struct ws_clip q1, q2;
    long first = ws_meas_ids_seen(s, mk->id, k);

    if (first == -2)
        return ws_err_oom(err);
    if (first < 0)
        return 0;
    old = &m->kernels[first];
    if (strcmp(old->name, mk->name) != 0)
        return ws_err_at(err, m->name, mk->id_line, mk->id_col,
                         "%s %lld is "
                         "%s here but %s at line %ld (expected one kernel "
                         "per %s: are two %s joined?)",
                         what, mk->id, ws_clip(&q1, mk->name),
                         ws_clip(&q2, old->name), old->id_line, what,
                         ncu ? "exports" : "logs");
    return ws_err_at(err, m->name, mk->id_line, mk->id_col,
                     "%s %lld of %s "
                     "again, as at line %ld (expected each launch once, as "
                     "%s: is a %s repeated, or are two %s joined?)",
                     what, mk->id, ws_clip(&q1, mk->name), old->id_line,
                     ncu ? "ncu writes one row per launch"
                         : "GPGPU-Sim prints one block per launch",
                     ncu ? "row" : "block", ncu ? "exports" : "logs");
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
        ws_err_at(err, r->name, r->lineno > 0 ? r->lineno : 1, 1,
                  "no data "
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
            ws_err_at(err, r->name, r->lineno, 1,
                      "the CSV passes %zu MiB "
                      "(expected a smaller export)",
                      WS_MEAS_MAX_CSV >> 20);
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
        return 0; /* ws_lines_open says why it cannot open it */
    return ws_err_msg(err,
                      "%s: %s (expected an Nsight Compute CSV or an "
                      "Accel-Sim log file)",
                      ws_clip_path(&q, path),
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

int ws_measured_parse(struct ws_measured *m, const char *name, const char *text,
                      size_t len, struct ws_err *err)
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
