/*
 * ws_ncu_csv: Nsight Compute's CSV export, `ncu --csv --page raw`, read
 * into the measurements table (ws_measured.h).
 *
 * What the export looks like (validate/measured/h100/ncu_raw.csv is a real
 * one, from Nsight Compute 2025.3): a header row of quoted names, first
 * the launch's identity ("ID", "Process ID", "Process Name", "Host Name",
 * "Kernel Name", "Context", "Stream", "Block Size", "Grid Size",
 * "Device", "CC"), then one column per metric, named unit__counter.rollup
 * ("dram__bytes_read.sum"); a units row right after it, empty under the
 * identity columns ("byte", "cycle", "%", "ns", "hz" with --print-units
 * base; "Kbyte", "usecond", "cycle/nsecond", ... scaled to fit without
 * it); then one row per profiled launch, in launch order, a kernel
 * launched twice giving two rows.  Every field is quoted; numbers carry
 * thousands separators ("7,433,216", "114,514.79"); a metric not
 * collected for a launch is empty or "n/a"; kernel names are demangled
 * with their parameters ("apsp(const float *, float *, int, int)").
 *
 * Columns whose name holds "__" are metrics, kept under their names and
 * scaled to base units, each with its unit and the unit's place.  A unit
 * that is not Nsight's ("furlong"), or one of another dimension than the
 * metric's name gives it (ws_meas_metric_dim: a percentage in Kbyte, a
 * byte count in msecond, the SM clock in Gbyte/second), makes the
 * column's values NAN and is kept for the comparison to refuse, at its
 * place in the units row, if it uses the metric; so is a negative value,
 * at its cell.  A launch ID is one launch: a second row with it is
 * refused (ws_meas_ids_add).  Two metrics are derived here, in warpsim's
 * names:
 *   gpc__cycles_elapsed.max  from sm__cycles_elapsed.avg when the export
 *                            lacks it (an SM's elapsed cycles; the GPCs
 *                            run on the same clock);
 *   time_us                  the kernel's duration in microseconds: the
 *                            elapsed cycles over the SM clock
 *                            (gpc__cycles_elapsed.avg.per_second, else
 *                            sm__cycles_elapsed.avg.per_second), else
 *                            gpu__time_duration.sum.
 * A derived metric takes on the unit problems of the columns it comes
 * from, and a clock of 0 refuses the time (not the duration instead).
 * Percentages are not capped: Nsight's hit rates pass 100 (ws_measured.h).
 *
 * Leaves out: the --page details layout (one row per metric), and lines
 * of ncu's own log inside the table (only before it: ws_measured.c).
 */
#include "ws_measured.h"

#include "util/ws_clip.h"
#include "util/ws_csv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Where each cell of one row starts, found by walking the text again:
 * ws_csv keeps the line a row starts on, not its fields' columns. */
struct ws_ncu_pos {
    long line, col;
};

/* The columns the derived metrics come from (-1: absent). */
struct ws_ncu_derived {
    long cycles, cycles_alias, clock, duration; /* source columns */
    long cycles_out, time_out;                  /* metrics added */
    int time_bad; /* a source's unit is wrong: no time */
};

struct ws_ncu {
    struct ws_measured *m;
    const struct ws_csv *t;
    const char *text, *end;
    long first_line; /* the file's line of the header row */
    const char *cur; /* start of line cur_line of text */
    long cur_line;
    long *metric_of;        /* column -> metric index, -1 if none */
    double *scale;          /* column -> unit factor */
    struct ws_meas_ids ids; /* launch IDs seen */
    struct ws_ncu_derived d;
    struct ws_ncu_pos *pos; /* ncols, for the row being read */
    struct ws_err *err;
};

/* ws_csv numbers lines from the header; the file may have log lines
 * before it.  Turns "name:L:" into "name:L+delta:". */
static void ws_ncu_shift(struct ws_err *err, const char *name, long delta)
{
    size_t n = strlen(name);
    char rest[WS_ERR_TEXT];
    char *end;
    long line;

    if (delta <= 0 || strncmp(err->text, name, n) != 0 || err->text[n] != ':')
        return;
    line = strtol(err->text + n + 1, &end, 10);
    if (end == err->text + n + 1 || *end != ':')
        return;
    snprintf(rest, sizeof rest, "%s", end);
    snprintf(err->text + n + 1, sizeof err->text - n - 1, "%ld%s", line + delta,
             rest);
}

/* Walks the fields of the row starting on text line `line` (counted as
 * ws_csv counts, from 1 at the header), recording where each starts in
 * the file's numbering.  The text already parsed, so the walk cannot
 * fail; it stops at the end of the text all the same. */
static void ws_ncu_walk_row(struct ws_ncu *c, long line)
{
    const char *p, *line_start;
    long l;

    while (c->cur_line < line && c->cur < c->end)
        if (*c->cur++ == '\n')
            c->cur_line++;
    p = line_start = c->cur;
    l = c->cur_line;
    for (size_t f = 0; f < c->t->ncols && p <= c->end; f++) {
        c->pos[f].line = l + c->first_line - 1;
        c->pos[f].col = (long)(p - line_start) + 1;
        if (p < c->end && *p == '"') {
            for (p++; p < c->end; p++) {
                if (*p == '"' && (p + 1 == c->end || p[1] != '"'))
                    break;
                if (*p == '"')
                    p++;
                else if (*p == '\n') {
                    l++;
                    line_start = p + 1;
                }
            }
            p++;
        } else {
            while (p < c->end && *p != ',' && *p != '\n')
                p++;
        }
        p++; /* the separator */
    }
}

/* The unit of metric column col, kept with its place and checked: a
 * unit Nsight does not print, or one of another dimension than the
 * metric's name gives it (a byte count in msecond: scaling it would turn
 * bytes into milliseconds of nothing), is kept as the metric's problem
 * and the column's values become NAN. */
static int ws_ncu_unit(struct ws_ncu *c, size_t col, const char *unit,
                       int has_row)
{
    size_t metric = (size_t)c->metric_of[col];
    enum ws_meas_dim got = ws_meas_unit_dim(unit);
    enum ws_meas_dim want = ws_meas_metric_dim(c->t->header[col]);
    int rc;

    if (ws_measured_set_unit(c->m, metric, unit, has_row ? c->pos[col].line : 0,
                             has_row ? c->pos[col].col : 0)
        < 0)
        return ws_err_oom(c->err);
    c->scale[col] = ws_meas_unit_scale(unit);
    if (isnan(c->scale[col]))
        rc = ws_measured_add_unit_bad(c->m, metric, c->pos[col].line,
                                      c->pos[col].col, unit,
                                      WS_MEAS_UNKNOWN_UNIT);
    else if (!ws_meas_dim_fits(got, want))
        rc = ws_measured_add_dim_bad(c->m, metric, metric, c->pos[col].line,
                                     c->pos[col].col, unit, got, want);
    else
        return 0;
    c->scale[col] = NAN;
    return rc < 0 ? ws_err_oom(c->err) : 0;
}

/* A derived metric takes on the unit problem of source column col. */
static int ws_ncu_unit_from(struct ws_ncu *c, long out, long col)
{
    const struct ws_meas_bad *b;
    struct ws_meas_bad copy;
    int rc;

    if (out < 0 || col < 0 || c->metric_of[col] < 0
        || !(b = ws_measured_bad(c->m, 0, (size_t)c->metric_of[col]))
        || ws_measured_bad(c->m, 0, (size_t)out))
        return 0;
    copy = *b; /* adding may move the array b points into */
    rc = copy.why == WS_MEAS_DIM_UNIT
             ? ws_measured_add_dim_bad(c->m, (size_t)out, copy.from, copy.line,
                                       copy.col, copy.text, copy.dim, copy.want)
             : ws_measured_add_unit_bad(c->m, (size_t)out, copy.line, copy.col,
                                        copy.text, copy.why);
    return rc < 0 ? ws_err_oom(c->err) : 0;
}

/* The units of the derived metrics: the cycles' own (with its place in
 * the units row), and microseconds for the time, which is computed. */
static int ws_ncu_derived_units(struct ws_ncu *c)
{
    const struct ws_ncu_derived *d = &c->d;
    const struct ws_meas_unit *u;

    if (d->cycles_out >= 0) {
        u = &c->m->units[c->metric_of[d->cycles]];
        if (ws_measured_set_unit(c->m, (size_t)d->cycles_out, u->text, u->line,
                                 u->col)
            < 0)
            return ws_err_oom(c->err);
    }
    if (d->time_out >= 0
        && ws_measured_set_unit(c->m, (size_t)d->time_out, "us", 0, 0) < 0)
        return ws_err_oom(c->err);
    return 0;
}

/* The metrics: every column named unit__counter, and the derived two. */
static int ws_ncu_metrics(struct ws_ncu *c, long units_row)
{
    const struct ws_csv *t = c->t;
    struct ws_ncu_derived *d = &c->d;

    if (units_row >= 0)
        ws_ncu_walk_row(c, t->row_line[units_row]);
    for (size_t col = 0; col < t->ncols; col++) {
        const char *unit = units_row >= 0 ? ws_csv_cell(t, 0, col) : "";
        c->metric_of[col] = -1;
        c->scale[col] = 1;
        if (!strstr(t->header[col], "__"))
            continue;
        c->metric_of[col] = ws_measured_add_metric(c->m, t->header[col]);
        if (c->metric_of[col] < 0)
            return ws_err_oom(c->err);
        if (ws_ncu_unit(c, col, unit, units_row >= 0) < 0)
            return -1;
    }
    d->cycles = ws_csv_col(t, "gpc__cycles_elapsed.max");
    d->cycles_alias = ws_csv_col(t, "sm__cycles_elapsed.avg");
    d->clock = ws_csv_col(t, "gpc__cycles_elapsed.avg.per_second");
    if (d->clock < 0)
        d->clock = ws_csv_col(t, "sm__cycles_elapsed.avg.per_second");
    d->duration = ws_csv_col(t, "gpu__time_duration.sum");
    d->cycles_out = d->time_out = -1;
    if (d->cycles < 0 && d->cycles_alias >= 0) {
        d->cycles = d->cycles_alias;
        if ((d->cycles_out = ws_measured_add_metric(c->m,
                                                    "gpc__cycles_elapsed.max"))
            < 0)
            return ws_err_oom(c->err);
    }
    if (((d->cycles >= 0 && d->clock >= 0) || d->duration >= 0)
        && (d->time_out = ws_measured_add_metric(c->m, "time_us")) < 0)
        return ws_err_oom(c->err);
    if (ws_ncu_unit_from(c, d->cycles_out, d->cycles) < 0
        || ws_ncu_unit_from(c, d->time_out, d->clock >= 0 ? d->cycles : -1) < 0
        || ws_ncu_unit_from(c, d->time_out, d->cycles >= 0 ? d->clock : -1) < 0
        || ws_ncu_unit_from(c, d->time_out, d->duration) < 0)
        return -1;
    d->time_bad = d->time_out >= 0
                  && ws_measured_bad(c->m, 0, (size_t)d->time_out) != NULL;
    return ws_ncu_derived_units(c);
}

/* The value of cell (row, col) scaled to base units; NAN when absent,
 * not a number or negative (*bad: 1 + why; 0 when usable). */
static double ws_ncu_cell(const struct ws_ncu *c, size_t row, size_t col,
                          int *bad)
{
    double v;
    int rc = ws_meas_number(ws_csv_cell(c->t, row, col), &v);

    /* a number that scaling takes past a double is no number either */
    if (rc == 0 && !isfinite(v * c->scale[col]) && !isnan(c->scale[col]))
        rc = -1;
    *bad = rc < 0             ? 1 + WS_MEAS_NOT_NUMBER
           : rc == 0 && v < 0 ? 1 + WS_MEAS_NEGATIVE
                              : 0;
    return rc == 0 && !*bad ? v * c->scale[col] : NAN;
}

/* Keeps a cell that cannot be used, with its place, for the metric. */
static int ws_ncu_keep_bad(struct ws_ncu *c, size_t k, size_t row, size_t col,
                           long metric, int bad, int *walked)
{
    if (!*walked) {
        ws_ncu_walk_row(c, c->t->row_line[row]);
        *walked = 1;
    }
    if (ws_measured_add_bad(c->m, k, (size_t)metric, c->pos[col].line,
                            c->pos[col].col, ws_csv_cell(c->t, row, col),
                            (enum ws_meas_why)(bad - 1))
        < 0)
        return ws_err_oom(c->err);
    return 0;
}

/* The derived metrics of kernel k, from its row; a source cell that is
 * not a number makes the derived value as bad as it. */
static int ws_ncu_derive(struct ws_ncu *c, size_t k, size_t row, int *walked)
{
    const struct ws_ncu_derived *d = &c->d;
    int bad_cy = 0, bad_ck = 0, bad_du = 0;
    double cy = d->cycles >= 0 ? ws_ncu_cell(c, row, (size_t)d->cycles, &bad_cy)
                               : NAN;
    double ck = d->clock >= 0 ? ws_ncu_cell(c, row, (size_t)d->clock, &bad_ck)
                              : NAN;
    double du = d->duration >= 0
                    ? ws_ncu_cell(c, row, (size_t)d->duration, &bad_du)
                    : NAN;
    /* a clock of 0 is no measurement (a kernel ran at no speed), nor is
     * a negative or unreadable one where cycles would be divided by it, or
     * one so small the time leaves the doubles: time from it is refused,
     * not taken from the duration instead */
    int zero = (ck == 0 && !bad_ck)
               || (d->cycles >= 0
                   && (bad_ck
                       || (ck > 0 && isfinite(cy)
                           && !isfinite(cy / ck * 1e6))));
    double t = d->time_bad || zero      ? NAN
               : ck > 0 && isfinite(cy) ? cy / ck * 1e6
                                        : du * 1e6;

    if (d->cycles_out >= 0) {
        ws_measured_set(c->m, k, (size_t)d->cycles_out, cy);
        if (bad_cy
            && ws_ncu_keep_bad(c, k, row, (size_t)d->cycles, d->cycles_out,
                               bad_cy, walked)
                   < 0)
            return -1;
    }
    if (d->time_out < 0)
        return 0;
    ws_measured_set(c->m, k, (size_t)d->time_out, isfinite(t) ? t : NAN);
    if (zero && !d->time_bad) {
        if (ws_ncu_keep_bad(c, k, row, (size_t)d->clock, d->time_out,
                            1 + WS_MEAS_ZERO_CLOCK, walked)
            < 0)
            return -1;
        /* the message names the clock's column */
        c->m->bad[c->m->nbad - 1].from = (size_t)c->metric_of[d->clock];
        return 0;
    }
    /* a bad duration is refused even where the clock gave the time */
    if ((!isfinite(t) && (bad_cy || bad_ck || bad_du)) || bad_du)
        return ws_ncu_keep_bad(c, k, row,
                               (size_t)(bad_cy   ? d->cycles
                                        : bad_ck ? d->clock
                                                 : d->duration),
                               d->time_out,
                               bad_cy   ? bad_cy
                               : bad_ck ? bad_ck
                                        : bad_du,
                               walked);
    return 0;
}

/* The launch's ID: ncu numbers them from 0; -1 when the cell is empty. */
static int ws_ncu_id(struct ws_ncu *c, size_t row, long long *id)
{
    const char *s = ws_csv_cell(c->t, row, 0);
    struct ws_clip q;
    double v;

    *id = -1;
    if (ws_meas_number(s, &v) == 1)
        return 0;
    if (ws_meas_number(s, &v) == 0 && v >= 0 && v < 9e15 && v == floor(v)) {
        *id = (long long)v;
        return 0;
    }
    ws_ncu_walk_row(c, c->t->row_line[row]);
    return ws_err_at(c->err, c->m->name, c->pos[0].line, c->pos[0].col,
                     "ID '%s' is not a launch number (expected a whole "
                     "number, as ncu numbers launches)",
                     ws_clip(&q, s));
}

static int ws_ncu_row(struct ws_ncu *c, size_t row, long name_col)
{
    const struct ws_csv *t = c->t;
    const char *name = ws_csv_cell(t, row, (size_t)name_col);
    int walked = 0, bad;
    long long id;
    long k;

    if (ws_ncu_id(c, row, &id) < 0)
        return -1;
    if (!*name) {
        ws_ncu_walk_row(c, t->row_line[row]);
        return ws_err_at(c->err, c->m->name, c->pos[name_col].line,
                         c->pos[name_col].col,
                         "empty kernel name (expected "
                         "the name of the kernel this row measured)");
    }
    k = ws_measured_add_kernel(c->m, name, strlen(name),
                               t->row_line[row] + c->first_line - 1, id);
    if (k < 0)
        return ws_err_oom(c->err);
    if (id >= 0 && ws_meas_ids_add(&c->ids, c->m, (size_t)k, c->err) < 0)
        return -1;
    for (size_t col = 0; col < t->ncols; col++) {
        double v;
        if (c->metric_of[col] < 0)
            continue;
        v = ws_ncu_cell(c, row, col, &bad);
        ws_measured_set(c->m, (size_t)k, (size_t)c->metric_of[col], v);
        if (bad
            && ws_ncu_keep_bad(c, (size_t)k, row, col, c->metric_of[col], bad,
                               &walked)
                   < 0)
            return -1;
    }
    return ws_ncu_derive(c, (size_t)k, row, &walked);
}

/* Header checks, units row, metrics, then the rows. */
static int ws_ncu_table(struct ws_ncu *c)
{
    const struct ws_csv *t = c->t;
    long name_col = ws_csv_col(t, "Kernel Name");
    long units = t->nrows > 0 && !*ws_csv_cell(t, 0, 0) ? 0 : -1;

    if (name_col < 0)
        return ws_err_at(c->err, c->m->name, c->first_line, 1,
                         "no column "
                         "\"Kernel Name\" (expected the header of ncu --csv "
                         "--page raw: \"ID\", \"Process ID\", ..., \"Kernel "
                         "Name\", then the metrics)");
    if ((size_t)(units + 1) >= t->nrows)
        return ws_err_at(c->err, c->m->name, c->first_line + t->nrows + 1, 1,
                         "no kernel rows (expected one row per profiled "
                         "launch after the header%s)",
                         units == 0 ? " and the units row" : "");
    if (ws_ncu_metrics(c, units) < 0)
        return -1;
    for (size_t row = (size_t)(units + 1); row < t->nrows; row++)
        if (ws_ncu_row(c, row, name_col) < 0)
            return -1;
    return 0;
}

int ws_ncu_parse(struct ws_measured *m, const char *text, size_t len,
                 long first_line, struct ws_err *err)
{
    struct ws_csv t;
    struct ws_ncu c;
    int rc;

    m->format = WS_MEAS_NCU;
    if (ws_csv_parse(&t, m->name, text, len, 0, 0, err) < 0) {
        ws_ncu_shift(err, m->name, first_line - 1);
        return -1;
    }
    memset(&c, 0, sizeof c);
    c.m = m;
    c.t = &t;
    c.text = c.cur = text;
    c.end = text + len;
    c.cur_line = 1;
    c.first_line = first_line;
    c.err = err;
    c.metric_of = malloc(t.ncols * sizeof *c.metric_of);
    c.scale = malloc(t.ncols * sizeof *c.scale);
    c.pos = calloc(t.ncols, sizeof *c.pos);
    ws_meas_ids_init(&c.ids);
    rc = c.metric_of && c.scale && c.pos ? ws_ncu_table(&c) : ws_err_oom(err);
    ws_meas_ids_free(&c.ids);
    free(c.metric_of);
    free(c.scale);
    free(c.pos);
    ws_csv_free(&t);
    return rc;
}
