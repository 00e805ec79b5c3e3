/*
 * ws_measured: per-kernel measurements to hold simulated counters
 * against, read from one of two formats recognised by content:
 *
 *   - an Nsight Compute CSV export, `ncu --csv --page raw` (ws_ncu_csv.c):
 *     one row per kernel launch, one column per metric under Nsight's own
 *     names, which are warpsim's counter names;
 *   - an Accel-Sim / GPGPU-Sim log, the simulator's standard output
 *     (ws_accelsim_log.c): one statistics block per kernel, whose figures
 *     are turned into warpsim's names there (that file says how).
 *
 * Every value is in its metric's base unit (bytes, cycles, instructions,
 * seconds, hertz, percent), whatever unit the file printed it in.  A
 * kernel that lacks a metric holds NAN for it.  A cell that is not a
 * number is not an error while reading (Nsight prints text in some
 * metric columns, launch__func_cache_config for one): it is kept, with
 * its place, so that the comparison can refuse it where it would use it.
 * So is a negative number (no counter, time or rate is below 0), and a
 * column whose unit is not one of Nsight's or does not fit the metric (a
 * percentage in Kbyte): its values are NAN and the unit is kept, with its
 * place in the units row, for every kernel of the column.
 *
 * Also here: the two number and unit rules both readers and their tests
 * share.
 *
 * Leaves out: other exports (ncu --page details, nvprof, Nsight Systems)
 * and instanced metric values (--print-metric-instances).
 */
#ifndef WS_MEASURED_H
#define WS_MEASURED_H

#include <stddef.h>

#include "util/ws_err.h"
#include "util/ws_lines.h"

enum ws_meas_format {
    WS_MEAS_NCU = 1,        /* Nsight Compute CSV (--page raw) */
    WS_MEAS_ACCELSIM        /* Accel-Sim / GPGPU-Sim log */
};

struct ws_meas_kernel {
    char *name;             /* as the file writes it */
    char *base;             /* ws_kname_base(name) */
    long line;              /* its row, or its kernel_name line */
    long long id;           /* ncu's ID, Accel-Sim's kernel_launch_uid;
                               -1 when the file gives none */
};

/* Why a kept cell (or a column's unit) cannot be used. */
enum ws_meas_why {
    WS_MEAS_NOT_NUMBER,     /* text where a number belongs */
    WS_MEAS_NEGATIVE,       /* a number below 0 */
    WS_MEAS_UNKNOWN_UNIT,   /* a unit Nsight does not print */
    WS_MEAS_PCT_UNIT        /* a percentage in a unit other than % */
};

/* A cell of a metric column that is neither a number of at least 0 nor
 * empty; or, among the unit problems, the unit cell of a column. */
struct ws_meas_bad {
    size_t kernel, metric;  /* kernel: 0 for a unit */
    long line, col;
    char *text;
    enum ws_meas_why why;
};

struct ws_measured {
    char *name;                     /* the path, for messages */
    enum ws_meas_format format;
    size_t nmetrics;
    char **metrics;                 /* warpsim's names, in file order */
    size_t nkernels;
    struct ws_meas_kernel *kernels; /* in launch order */
    double *values;                 /* nkernels x nmetrics, NAN: absent */
    size_t nbad;
    struct ws_meas_bad *bad;        /* by kernel, then metric */
    size_t nunit_bad;
    struct ws_meas_bad *unit_bad;   /* columns whose unit is wrong */
    size_t metrics_cap, kernels_cap, values_cap, bad_cap, unit_bad_cap;
};

/* Reads the file at path (plain or .xz), whichever format it holds.  An
 * I/O failure is left unplaced for the caller (ws_err_place_arg); a
 * format error is at the file's line and column. */
int ws_measured_load(struct ws_measured *m, const char *path,
                     struct ws_err *err);

/* The same from memory (tests, fuzzing); name is used in messages. */
int ws_measured_parse(struct ws_measured *m, const char *name,
                      const char *text, size_t len, struct ws_err *err);

void ws_measured_free(struct ws_measured *m);

const char *ws_measured_format_name(enum ws_meas_format f);

static inline double ws_measured_value(const struct ws_measured *m,
                                       size_t kernel, size_t metric)
{
    return m->values[kernel * m->nmetrics + metric];
}

/* The index of metric name, or -1. */
long ws_measured_metric(const struct ws_measured *m, const char *name);

/* Why (kernel, metric) holds no value although the file has a cell for
 * it: the metric's unit problem if it has one, else the bad cell, else
 * NULL. */
const struct ws_meas_bad *ws_measured_bad(const struct ws_measured *m,
                                          size_t kernel, size_t metric);

/* A number as Nsight prints it: optional sign, digits in groups of three
 * separated by commas ("7,433,216") or not grouped at all, an optional
 * fraction (".79"), or a plain exponent form without commas ("1.5e+09").
 * 0 with *v set; 1 for an absent value (empty, "n/a", "N/A"); -1 for
 * anything else (a misplaced comma, letters, "nan", "inf"). */
int ws_meas_number(const char *s, double *v);

/* The factor that turns a value printed in unit into the metric's base
 * unit.  Nsight's units are "" (a plain number), "%", and the words of
 * WS_MEAS_UNITS; it scales with decimal SI prefixes ("Kbyte", "Mbyte",
 * "Gbyte", "Kcycle", "Ghz"; binary ones, "KiB", "Mibyte", for bytes) and
 * names time "nsecond", "usecond", "msecond", "second" (or "ns", "us",
 * "ms", "s" in --print-units base); a ratio ("cycle/nsecond",
 * "Gbyte/second", "%/register") is the ratio of its parts.  Time's base
 * is the second, so "ns" gives 1e-9.  NAN for any other unit ("furlong",
 * "K%"). */
double ws_meas_unit_scale(const char *unit);

/* The unit words, for messages. */
#define WS_MEAS_UNITS "byte, bit, cycle, inst, sector, request, " \
    "wavefront, transaction, warp, thread, block, cluster, SM, register, " \
    "pass, hz, second (ns, us, ms, s), %"

/* ---- for the two readers (ws_measured.c) ---------------------------- */

/* Adds a metric; its index, or -1 when out of memory.  Every metric is
 * added before the first kernel (the values are one matrix). */
long ws_measured_add_metric(struct ws_measured *m, const char *name);

/* Adds a kernel whose values are all NAN; its index, or -1 when out of
 * memory.  name is copied; base is computed. */
long ws_measured_add_kernel(struct ws_measured *m, const char *name,
                            size_t len, long line, long long id);

static inline void ws_measured_set(struct ws_measured *m, size_t kernel,
                                   size_t metric, double v)
{
    m->values[kernel * m->nmetrics + metric] = v;
}

/* Keeps a bad cell; cells are added in order of kernel, then metric
 * (-1 when out of order, a reader's bug, or out of memory). */
int ws_measured_add_bad(struct ws_measured *m, size_t kernel, size_t metric,
                        long line, long col, const char *text,
                        enum ws_meas_why why);

/* Keeps the unit problem of a metric's column (-1 when out of memory). */
int ws_measured_add_unit_bad(struct ws_measured *m, size_t metric, long line,
                             long col, const char *unit, enum ws_meas_why why);

/* The readers proper.  text holds the CSV from its header row on, which
 * is line first_line of the file (lines of ncu's own log, "==PROF==",
 * may come before it). */
int ws_ncu_parse(struct ws_measured *m, const char *text, size_t len,
                 long first_line, struct ws_err *err);
int ws_accelsim_read(struct ws_measured *m, struct ws_lines *r,
                     struct ws_err *err);

#endif
