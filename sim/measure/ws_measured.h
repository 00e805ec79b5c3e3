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
 * So is a negative number (no counter, time or rate is below 0), a clock
 * of 0, and a column whose unit is not one of Nsight's or is of another
 * dimension than the metric (a percentage in Kbyte, a byte count in
 * msecond): its values are NAN and the unit is kept, with its place in
 * the units row, for every kernel of the column.  Percentages are not
 * capped at 100: Nsight's own hit rates pass it (106.12 % for
 * lts__t_sector_hit_rate.pct in validate/measured/h100/ncu_extra.csv,
 * its counters being taken in separate replay passes).
 *
 * Units have dimensions (bytes, cycles, time, percent, counts, clocks,
 * rates): a unit scales into another of its dimension only.  Each metric
 * keeps the unit its file gave it, with its place, so that the comparison
 * can hold it against the dimension of the simulated counter.  A metric
 * the file leaves out for a reason of its format (a cache GPGPU-Sim did
 * not simulate, a kernel without any access, no clock to turn cycles into
 * time) keeps a note saying so, which the report prints: no metric
 * vanishes without a word.
 *
 * Identity: a launch is measured once.  Two rows (blocks) with the same
 * launch id are refused at the second, naming the kernel of each.
 *
 * Also declared here: the number, unit and dimension rules both readers,
 * the run JSON reader and their tests share (ws_meas_units.c).
 *
 * Leaves out: other exports (ncu --page details, nvprof, Nsight Systems)
 * and instanced metric values (--print-metric-instances).
 */
#ifndef WS_MEASURED_H
#define WS_MEASURED_H

#include <stddef.h>

#include "util/ws_err.h"
#include "util/ws_lines.h"
#include "util/ws_strtab.h"

enum ws_meas_format {
    WS_MEAS_NCU = 1, /* Nsight Compute CSV (--page raw) */
    WS_MEAS_ACCELSIM /* Accel-Sim / GPGPU-Sim log */
};

struct ws_meas_kernel {
    char *name;           /* as the file writes it */
    char *base;           /* ws_kname_base(name) */
    long line;            /* its row, or its kernel_name line */
    long long id;         /* ncu's ID, Accel-Sim's kernel_launch_uid;
                               -1 when the file gives none */
    long id_line, id_col; /* where the id is written */
};

/* What a unit, or a metric, measures.  A unit scales into another of the
 * same dimension only: Kbyte into bytes, never msecond into bytes. */
enum ws_meas_dim {
    WS_DIM_UNKNOWN = 0, /* not a unit; a metric whose name says not */
    WS_DIM_PLAIN,       /* "": a plain number in the metric's base unit */
    WS_DIM_BYTES,       /* byte, B, bit, with SI or binary prefixes */
    WS_DIM_CYCLES,
    WS_DIM_TIME,
    WS_DIM_PCT,
    WS_DIM_COUNT,      /* inst, sector, request, warp, ... */
    WS_DIM_CLOCK,      /* cycles per time: hz, cycle/nsecond */
    WS_DIM_BYTE_RATE,  /* bytes per time: byte/second */
    WS_DIM_COUNT_RATE, /* counts per time: inst/second */
    WS_DIM_RATIO       /* any other quotient: byte/block, inst/cycle */
};

/* Why a kept cell (or a column's unit) cannot be used.  Those from
 * WS_MEAS_UNKNOWN_UNIT on are unit problems, of a whole column. */
enum ws_meas_why {
    WS_MEAS_NOT_NUMBER,   /* text where a number belongs */
    WS_MEAS_NEGATIVE,     /* a number below 0 */
    WS_MEAS_ZERO_CLOCK,   /* a clock of 0 (time_us from its cycles) */
    WS_MEAS_UNKNOWN_UNIT, /* a unit Nsight does not print */
    WS_MEAS_DIM_UNIT      /* a unit of another dimension than the
                               metric's (dim: the unit's, want: the
                               metric's; from: the source column of a
                               derived metric, else the metric itself) */
};

/* A cell of a metric column that is neither a number of at least 0 nor
 * empty; or, among the unit problems, the unit cell of a column. */
struct ws_meas_bad {
    size_t kernel, metric; /* kernel: 0 for a unit */
    long line, col;
    char *text;
    enum ws_meas_why why;
    enum ws_meas_dim dim, want; /* WS_MEAS_DIM_UNIT only */
    size_t from;
};

/* The unit a metric's values were printed in, with its place: the units
 * row's cell (line 0 when the format implies the unit, as an Accel-Sim
 * log does, or the export has no units row). */
struct ws_meas_unit {
    char *text; /* "" when none */
    long line, col;
};

/* A metric the file leaves out, for one kernel or for all (kernel
 * WS_MEAS_ALL), for a reason of its format: what the report says of it. */
#define WS_MEAS_ALL ((size_t)-1)

struct ws_meas_note {
    size_t kernel, metric;
    long line; /* where the reason shows; 0: an absence */
    char *why;
};

struct ws_measured {
    char *name; /* the path, for messages */
    enum ws_meas_format format;
    size_t nmetrics;
    char **metrics;             /* warpsim's names, in file order */
    struct ws_meas_unit *units; /* nmetrics, as printed */
    size_t nkernels;
    struct ws_meas_kernel *kernels; /* in launch order */
    double *values;                 /* nkernels x nmetrics, NAN: absent */
    size_t nbad;
    struct ws_meas_bad *bad; /* by kernel, then metric */
    size_t nunit_bad;
    struct ws_meas_bad *unit_bad; /* columns whose unit is wrong */
    size_t nnotes;
    struct ws_meas_note *notes; /* in the order found */
    size_t metrics_cap, kernels_cap, values_cap, bad_cap, unit_bad_cap;
    size_t units_cap, notes_cap;
};

/* Reads the file at path (plain or .xz), whichever format it holds.  An
 * I/O failure is left unplaced for the caller (ws_err_place_arg); a
 * format error is at the file's line and column. */
int ws_measured_load(struct ws_measured *m, const char *path,
                     struct ws_err *err);

/* The same from memory (tests, fuzzing); name is used in messages. */
int ws_measured_parse(struct ws_measured *m, const char *name, const char *text,
                      size_t len, struct ws_err *err);

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
 * is the second, so "ns" gives 1e-9; a bit is an eighth of a byte, the
 * base of every data size.  NAN for any other unit ("furlong", "K%",
 * "Byte", "percent": Nsight spells its units one way). */
double ws_meas_unit_scale(const char *unit);

/* The unit words, for messages. */
#define WS_MEAS_UNITS \
    "byte, bit, cycle, inst, sector, request, " \
    "wavefront, transaction, warp, thread, block, cluster, SM, register, " \
    "pass, hz, second (ns, us, ms, s), %"

/* The dimension of a unit as Nsight prints it (WS_DIM_UNKNOWN when
 * ws_meas_unit_scale refuses it, WS_DIM_PLAIN for ""). */
enum ws_meas_dim ws_meas_unit_dim(const char *unit);

/* The same for a unit of a run's JSON, which names some counts in
 * warpsim's words ("cta", "access", "warp-cycle") and times in "us". */
enum ws_meas_dim ws_meas_sim_unit_dim(const char *unit);

/* The dimension a metric's name gives it, by Nsight's naming rule
 * (unit__counter.rollup.submetric): ".pct" and ".pct_of_peak_..." a
 * percentage; a counter named "..._bytes_...", "cycles", "inst",
 * "sectors", "requests", "wavefronts", "warps", "ctas", "threads",
 * "transactions" rolled up by sum, avg, max or min a byte count, cycles or
 * a count, and ".per_second" of one its rate; gpu__time_duration a time;
 * warpsim's time_us a time.  WS_DIM_UNKNOWN when the name says nothing
 * certain (a counter naming two of them, another submetric). */
enum ws_meas_dim ws_meas_metric_dim(const char *name);

/* "a byte count", "a time", ...; and the units of a dimension, for an
 * "(expected ...)" clause: "a byte unit: byte, Kbyte, Mbyte, ...". */
const char *ws_meas_dim_name(enum ws_meas_dim d);
const char *ws_meas_dim_units(enum ws_meas_dim d);

/* Whether a value in a unit of dimension got may stand for a metric of
 * dimension want: the same, or either side unknown or plain. */
int ws_meas_dim_fits(enum ws_meas_dim got, enum ws_meas_dim want);

/* ---- for the two readers (ws_measured.c) ---------------------------- */

/* Adds a metric; its index, or -1 when out of memory.  Every metric is
 * added before the first kernel (the values are one matrix). */
long ws_measured_add_metric(struct ws_measured *m, const char *name);

/* Adds a kernel whose values are all NAN; its index, or -1 when out of
 * memory.  name is copied; base is computed. */
long ws_measured_add_kernel(struct ws_measured *m, const char *name, size_t len,
                            long line, long long id);

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

/* The same for a unit of dimension dim where the metric's is want; from:
 * the column the unit is of (the metric, or a derived metric's source). */
int ws_measured_add_dim_bad(struct ws_measured *m, size_t metric, size_t from,
                            long line, long col, const char *unit,
                            enum ws_meas_dim dim, enum ws_meas_dim want);

/* Records the unit metric's values were printed in (line 0: implied). */
int ws_measured_set_unit(struct ws_measured *m, size_t metric, const char *unit,
                         long line, long col);

/* Keeps a note of a metric left out (kernel WS_MEAS_ALL: for every
 * kernel); -1 when out of memory. */
int ws_measured_add_note(struct ws_measured *m, size_t kernel, size_t metric,
                         long line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Launch ids seen so far, for the readers' identity check: a kernel's id
 * is looked up as it is read (a log of a million kernels stays linear). */
struct ws_meas_ids {
    struct ws_strtab ids;
    size_t *kernel; /* strtab id -> the kernel that holds it */
    size_t cap;
};

void ws_meas_ids_init(struct ws_meas_ids *s);
void ws_meas_ids_free(struct ws_meas_ids *s);

/* Records that kernel k holds launch id: -1 when the id is new, the
 * kernel that held it first when it is not, -2 when out of memory.  The
 * one map of launch ids to kernels, for the measurements and for the
 * simulation JSON (ws_simrun.c). */
long ws_meas_ids_seen(struct ws_meas_ids *s, long long id, size_t k);

/* Records that kernel k of m holds its id (m->kernels[k].id, at least 0);
 * when an earlier kernel holds it already, the error, at the id's place
 * and naming both kernels, in the words of m's format (ncu's "launch ID",
 * GPGPU-Sim's "kernel_launch_uid").  -1 on an error or out of memory. */
int ws_meas_ids_add(struct ws_meas_ids *s, const struct ws_measured *m,
                    size_t k, struct ws_err *err);

/* The readers proper.  text holds the CSV from its header row on, which
 * is line first_line of the file (lines of ncu's own log, "==PROF==",
 * may come before it). */
int ws_ncu_parse(struct ws_measured *m, const char *text, size_t len,
                 long first_line, struct ws_err *err);
int ws_accelsim_read(struct ws_measured *m, struct ws_lines *r,
                     struct ws_err *err);

#endif
