/*
 * ws_meas_units: the number, unit and dimension rules of the measurements
 * (declared in ws_measured.h), which both readers, the run JSON reader,
 * the comparison and their tests share.
 *
 * A number is read as Nsight prints it (thousands separators, no "nan").
 * A unit is one of Nsight's words, bare, after an SI prefix (K, M, G, T,
 * P) or, for bytes, a binary one (KiB, Mibyte); a time is named whole; a
 * quotient of two is a rate when it is per time.  Each unit has a
 * dimension (bytes, cycles, time, percent, counts, clocks, byte and count
 * rates, other ratios), and a unit scales into another of its dimension
 * only.  A metric's dimension comes from its Nsight name (the unit__
 * counter.rollup.submetric convention), where the name says it.
 *
 * Leaves out: anything Nsight does not print ("Byte", "percent", "MHz"):
 * an export is machine-written, so a spelling of its own is a file that
 * is not ncu's, refused rather than guessed at.
 */
#include "ws_measured.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A number longer than this is no measurement. */
#define WS_MEAS_MAX_NUMBER 63

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

/* Nsight's unit words and what each measures.  A bit counts as an
 * eighth of a byte: data sizes are compared in bytes, the unit of every
 * Nsight and warpsim counter of data. */
struct ws_meas_word {
    const char *name;
    double scale;
    enum ws_meas_dim dim;
};

static const struct ws_meas_word ws_meas_words[] = {
    {"byte", 1, WS_DIM_BYTES},      {"B", 1, WS_DIM_BYTES},
    {"bit", 0.125, WS_DIM_BYTES},   {"cycle", 1, WS_DIM_CYCLES},
    {"hz", 1, WS_DIM_CLOCK},        {"inst", 1, WS_DIM_COUNT},
    {"sector", 1, WS_DIM_COUNT},    {"request", 1, WS_DIM_COUNT},
    {"wavefront", 1, WS_DIM_COUNT}, {"transaction", 1, WS_DIM_COUNT},
    {"warp", 1, WS_DIM_COUNT},      {"thread", 1, WS_DIM_COUNT},
    {"block", 1, WS_DIM_COUNT},     {"cluster", 1, WS_DIM_COUNT},
    {"SM", 1, WS_DIM_COUNT},        {"register", 1, WS_DIM_COUNT},
    {"pass", 1, WS_DIM_COUNT},
};

/* Time is named whole, without the prefixes of the other words. */
static const struct ws_meas_word ws_meas_times[] = {
    {"second", 1, WS_DIM_TIME},     {"s", 1, WS_DIM_TIME},
    {"msecond", 1e-3, WS_DIM_TIME}, {"ms", 1e-3, WS_DIM_TIME},
    {"usecond", 1e-6, WS_DIM_TIME}, {"us", 1e-6, WS_DIM_TIME},
    {"nsecond", 1e-9, WS_DIM_TIME}, {"ns", 1e-9, WS_DIM_TIME},
};

#define WS_MEAS_NWORDS (sizeof ws_meas_words / sizeof ws_meas_words[0])
#define WS_MEAS_NTIMES (sizeof ws_meas_times / sizeof ws_meas_times[0])

static const struct ws_meas_word *
ws_meas_find(const struct ws_meas_word *w, size_t nw, const char *u, size_t n)
{
    for (size_t i = 0; i < nw; i++)
        if (strlen(w[i].name) == n && strncmp(u, w[i].name, n) == 0)
            return &w[i];
    return NULL;
}

/* One unit without '/' ("" counts as one: a plain number): a time name,
 * or a unit word, bare or after a prefix; NAN when it is none of them. */
static double ws_meas_simple(const char *u, size_t n, enum ws_meas_dim *dim)
{
    const struct ws_meas_word *w;
    const char *prefix = "KMGTP", *at;
    double scale = 1, step = 1000;

    *dim = WS_DIM_UNKNOWN;
    if (n == 0 || (n == 1 && u[0] == '%')) {
        *dim = n ? WS_DIM_PCT : WS_DIM_PLAIN;
        return 1;
    }
    if ((w = ws_meas_find(ws_meas_times, WS_MEAS_NTIMES, u, n))
        || (w = ws_meas_find(ws_meas_words, WS_MEAS_NWORDS, u, n))) {
        *dim = w->dim;
        return w->scale;
    }
    if (n < 2 || !(at = strchr(prefix, u[0])))
        return NAN;
    u++, n--;
    if ((n == 2 && strncmp(u, "iB", 2) == 0)
        || (n == 5 && strncmp(u, "ibyte", 5) == 0)) {
        /* KiB, Mibyte: binary, for bytes only ("Minst" is M inst) */
        step = 1024;
        u++, n--;
    }
    if (!(w = ws_meas_find(ws_meas_words, WS_MEAS_NWORDS, u, n)))
        return NAN;
    for (const char *p = prefix; p <= at; p++)
        scale *= step;
    *dim = w->dim;
    return scale * w->scale;
}

/* The scale and dimension of a whole unit.  A quotient is a rate when it
 * is per time (what Nsight's .per_second metrics print), else a ratio;
 * "%" and "" stand alone only ("%/register" is a ratio, "/" no unit). */
static double ws_meas_unit(const char *unit, enum ws_meas_dim *dim)
{
    const char *slash = strchr(unit, '/');
    enum ws_meas_dim num, den;
    double s;

    if (!slash)
        return ws_meas_simple(unit, strlen(unit), dim);
    *dim = WS_DIM_UNKNOWN;
    /* a ratio has two parts, neither empty: "byte/" is no unit */
    if (slash == unit || !slash[1] || strchr(slash + 1, '/'))
        return NAN;
    s = ws_meas_simple(unit, (size_t)(slash - unit), &num)
        / ws_meas_simple(slash + 1, strlen(slash + 1), &den);
    if (isnan(s))
        return NAN;
    *dim = den != WS_DIM_TIME     ? WS_DIM_RATIO
           : num == WS_DIM_BYTES  ? WS_DIM_BYTE_RATE
           : num == WS_DIM_CYCLES ? WS_DIM_CLOCK
           : num == WS_DIM_COUNT  ? WS_DIM_COUNT_RATE
                                  : WS_DIM_RATIO;
    return s;
}

double ws_meas_unit_scale(const char *unit)
{
    enum ws_meas_dim dim;

    return ws_meas_unit(unit, &dim);
}

enum ws_meas_dim ws_meas_unit_dim(const char *unit)
{
    enum ws_meas_dim dim;

    ws_meas_unit(unit, &dim);
    return dim;
}

enum ws_meas_dim ws_meas_sim_unit_dim(const char *unit)
{
    /* the counts warpsim names in its own words (sim/stats/ws_stats.c) */
    static const char *const counts[] = {"cta", "access", "warp-cycle"};

    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        if (strcmp(unit, counts[i]) == 0)
            return WS_DIM_COUNT;
    return ws_meas_unit_dim(unit);
}

/* Whether counter c[0..n) holds the word w between underscores. */
static int ws_meas_has_word(const char *c, size_t n, const char *w)
{
    size_t wl = strlen(w);

    for (size_t at = 0; at + wl <= n; at++)
        if ((at == 0 || c[at - 1] == '_') && strncmp(c + at, w, wl) == 0
            && (at + wl == n || c[at + wl] == '_'))
            return 1;
    return 0;
}

/* The dimension a counter's words give it; UNKNOWN when none or two. */
static enum ws_meas_dim ws_meas_counter_dim(const char *c, size_t n)
{
    static const char *const counts[] = {
        "inst",  "sectors", "requests", "wavefronts",
        "warps", "ctas",    "threads",  "transactions",
    };
    enum ws_meas_dim d = WS_DIM_UNKNOWN;
    int kinds = 0;

    if (ws_meas_has_word(c, n, "bytes"))
        d = WS_DIM_BYTES, kinds++;
    if (ws_meas_has_word(c, n, "cycles"))
        d = WS_DIM_CYCLES, kinds++;
    if (n == 13 && strncmp(c, "time_duration", 13) == 0)
        d = WS_DIM_TIME, kinds++;
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        if (ws_meas_has_word(c, n, counts[i])) {
            d = WS_DIM_COUNT, kinds++;
            break;
        }
    return kinds == 1 ? d : WS_DIM_UNKNOWN;
}

static int ws_meas_is_rollup(const char *r, size_t n)
{
    return n == 3
           && (strncmp(r, "sum", 3) == 0 || strncmp(r, "avg", 3) == 0
               || strncmp(r, "max", 3) == 0 || strncmp(r, "min", 3) == 0);
}

/* Nsight's rule (see the header); held against every column of the two
 * committed H100 exports (466 that it classifies), whose units all agree
 * with it. */
enum ws_meas_dim ws_meas_metric_dim(const char *name)
{
    const char *c = strstr(name, "__"), *roll, *sub;
    size_t n, rn, len = strlen(name);
    enum ws_meas_dim d;

    if (!c)
        return strcmp(name, "time_us") == 0 ? WS_DIM_TIME : WS_DIM_UNKNOWN;
    if (len > 4 && strcmp(name + len - 4, ".pct") == 0)
        return WS_DIM_PCT;
    c += 2;
    n = strcspn(c, ".");
    if (!c[n])
        return WS_DIM_UNKNOWN; /* no roll-up */
    roll = c + n + 1;
    rn = strcspn(roll, ".");
    sub = roll[rn] ? roll + rn + 1 : "";
    if (strncmp(sub, "pct", 3) == 0)
        return WS_DIM_PCT;
    if (!ws_meas_is_rollup(roll, rn))
        return WS_DIM_UNKNOWN;
    d = ws_meas_counter_dim(c, n);
    if (!*sub)
        return d;
    if (strcmp(sub, "per_second") != 0)
        return WS_DIM_UNKNOWN;
    return d == WS_DIM_BYTES    ? WS_DIM_BYTE_RATE
           : d == WS_DIM_CYCLES ? WS_DIM_CLOCK
           : d == WS_DIM_COUNT  ? WS_DIM_COUNT_RATE
                                : WS_DIM_UNKNOWN;
}

const char *ws_meas_dim_name(enum ws_meas_dim d)
{
    switch (d) {
    case WS_DIM_PLAIN:
        return "a plain number";
    case WS_DIM_BYTES:
        return "a byte count";
    case WS_DIM_CYCLES:
        return "a cycle count";
    case WS_DIM_TIME:
        return "a time";
    case WS_DIM_PCT:
        return "a percentage";
    case WS_DIM_COUNT:
        return "a count";
    case WS_DIM_CLOCK:
        return "a clock";
    case WS_DIM_BYTE_RATE:
        return "a byte rate";
    case WS_DIM_COUNT_RATE:
        return "a rate";
    case WS_DIM_RATIO:
        return "a ratio";
    case WS_DIM_UNKNOWN:
    default:
        return "of no known dimension";
    }
}

const char *ws_meas_dim_units(enum ws_meas_dim d)
{
    switch (d) {
    case WS_DIM_BYTES:
        return "a byte unit: byte, Kbyte, Mbyte, KiB, ...";
    case WS_DIM_CYCLES:
        return "a cycle unit: cycle, Kcycle, Mcycle, ...";
    case WS_DIM_TIME:
        return "a time unit: second, msecond, usecond, "
               "nsecond, or s, ms, us, ns";
    case WS_DIM_PCT:
        return "a percentage: %";
    case WS_DIM_COUNT:
        return "a count: inst, sector, request, warp, ..., "
               "after K, M, G";
    case WS_DIM_CLOCK:
        return "a clock: hz, Mhz, Ghz, cycle/nsecond, ...";
    case WS_DIM_BYTE_RATE:
        return "a byte rate: byte/second, "
               "Gbyte/second, ...";
    case WS_DIM_COUNT_RATE:
        return "a rate: inst/second, ...";
    case WS_DIM_RATIO:
    case WS_DIM_PLAIN:
    case WS_DIM_UNKNOWN:
    default:
        return "a unit of the metric's dimension";
    }
}

int ws_meas_dim_fits(enum ws_meas_dim got, enum ws_meas_dim want)
{
    return got == want || got == WS_DIM_PLAIN || got == WS_DIM_UNKNOWN
           || want == WS_DIM_PLAIN || want == WS_DIM_UNKNOWN;
}
