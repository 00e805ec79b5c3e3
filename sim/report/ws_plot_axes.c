/*
 * ws_plot_axes: what makes a chart's axes readable (see ws_plot.h): the
 * unit a results column is in, numbers written as a person writes them
 * ("3 MiB", "1.5k"), and the ticks of a log axis.
 *
 * gnuplot's own log ticks fall on whole decades only: a sweep of DRAM
 * bandwidth from 200 to 900 GB/s got two labels, 100 and 1000, both off
 * the data.  So the ticks are chosen here, from the data's range, and
 * given to gnuplot as an explicit list, each with its label.
 *
 * Leaves out: linear axes other than byte sizes (gnuplot's ticks read
 * well there), dates and times of day.
 */
#include "ws_plot.h"

#include <math.h>
#include <string.h>

#include "config/ws_cfg_schema.h"
#include "stats/ws_stats.h"

/* More ticks than this are a grey smear; the choices below stay well
 * under it. */
#define WS_PLOT_MAX_TICKS 96
/* How far a log axis reaches past the data, as a factor: points stay off
 * the frame. */
#define WS_PLOT_LOG_PAD 1.25

/* ---- units ---------------------------------------------------------------- */

static int ws_plot_ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), m = strlen(tail);

    return n >= m && strcmp(s + n - m, tail) == 0;
}

/* A counter's unit ("sector") as an axis says it ("sectors"). */
static const char *ws_plot_ctr_unit(const char *unit)
{
    static const char *const plural[][2] = {
        {"cycle", "cycles"},      {"warp-cycle", "warp-cycles"},
        {"cta", "CTAs"},          {"warp", "warps"},
        {"inst", "instructions"}, {"sector", "sectors"},
        {"request", "requests"},  {"wavefront", "wavefronts"},
        {"byte", "bytes"},        {"line", "lines"},
        {"operand", "operands"},  {"access", "accesses"}};

    for (size_t i = 0; i < sizeof plural / sizeof plural[0]; i++)
        if (strcmp(unit, plural[i][0]) == 0)
            return plural[i][1];
    return unit[0] ? unit : NULL;
}

/* A config key's base unit: the unit a sweep's "set.KEY" cells are in
 * (sweep/ws_sweep.h). */
static const char *ws_plot_key_unit(const char *path)
{
    long k = ws_cfg_key_find(path);

    if (k < 0)
        return NULL;
    switch (ws_cfg_key((size_t)k)->type) {
    case WS_KT_SIZE:
    case WS_KT_CARVEOUT:
        return "bytes";
    case WS_KT_CYCLES:
        return "cycles";
    case WS_KT_FREQ:
        return "MHz";
    case WS_KT_BW:
        return "GB/s";
    case WS_KT_TIME:
        return "ns";
    default:
        return NULL;
    }
}

const char *ws_plot_unit(const char *column)
{
    long c;

    if (strncmp(column, "set.", 4) == 0)
        return ws_plot_key_unit(column + 4);
    if ((c = ws_ctr_find(column)) >= 0)
        return ws_plot_ctr_unit(ws_ctr_info((enum ws_ctr)c)->unit);
    /* The derived columns of run and sweep results
     * (sweep/ws_sweep_rows.c, report/ws_report.c), and each model's
     * prediction, NAME_cycles. */
    if (strcmp(column, "cycles") == 0 || ws_plot_ends_with(column, "_cycles"))
        return "cycles";
    if (ws_plot_ends_with(column, "_pct")
        || ws_plot_ends_with(column, "_pct_of_peak"))
        return "%";
    if (ws_plot_ends_with(column, "_us"))
        return "\xc2\xb5s";
    if (ws_plot_ends_with(column, "_gbps"))
        return "GB/s";
    if (strcmp(column, "ipc") == 0)
        return "warp instructions per cycle";
    return ws_plot_key_unit(column);
}

/* ---- numbers -------------------------------------------------------------- */

void ws_plot_num_text(char *buf, size_t size, double v, int bytes)
{
    static const char *const si[] = {"", "k", "M", "G", "T", "P", "E"};
    static const char *const bin[] = {"B",   "KiB", "MiB", "GiB",
                                      "TiB", "PiB", "EiB"};
    double m = v;
    int p = 0;

    if (bytes) {
        while (fabs(m) >= 1024 && p < 6) {
            m /= 1024;
            p++;
        }
        snprintf(buf, size, "%.4g %s", m, bin[p]);
        return;
    }
    while (fabs(m) >= 1000 && p < 6) {
        m /= 1000;
        p++;
    }
    snprintf(buf, size, "%.4g%s", m, si[p]);
}

void ws_plot_axis_label(FILE *fp, char axis, const char *text, const char *unit)
{
    fprintf(fp, "set %clabel '", axis);
    ws_plot_quote_body(fp, text);
    if (unit && unit[0] && strcmp(unit, text) != 0) {
        fputs(" (", fp);
        ws_plot_quote_body(fp, unit);
        fputc(')', fp);
    }
    fputs("' noenhanced\n", fp);
}

/* ---- ticks ---------------------------------------------------------------- */

struct ws_plot_ticks {
    double v[WS_PLOT_MAX_TICKS];
    int minor[WS_PLOT_MAX_TICKS];
    size_t n;
};

static void ws_plot_tick(struct ws_plot_ticks *t, double v, int minor,
                         double lo, double hi)
{
    /* A tick a rounding error outside the range is still on it. */
    if (t->n < WS_PLOT_MAX_TICKS && v >= lo * (1 - 1e-9)
        && v <= hi * (1 + 1e-9)) {
        t->v[t->n] = v;
        t->minor[t->n++] = minor;
    }
}

/* Powers of two, every step-th labelled (at most 10 labels), the others
 * minor. */
static void ws_plot_ticks_pow2(struct ws_plot_ticks *t, double lo, double hi)
{
    int k0 = (int)ceil(log2(lo) - 1e-9), k1 = (int)floor(log2(hi) + 1e-9);
    int step = 1;

    while ((k1 - k0) / step >= 10)
        step *= 2;
    for (int k = k0; k <= k1; k++)
        ws_plot_tick(t, ldexp(1, k), k % step != 0, lo, hi);
}

/* How many of m x 10^(e - scale) (m from mant[]) lie in [lo, hi]; with
 * t, adds them, and the digits between as minor ticks (2..9 between whole
 * decades, 3, 4, 6..9 between 1, 2 and 5). */
static size_t ws_plot_ticks_dec(struct ws_plot_ticks *t, double lo, double hi,
                                const int *mant, size_t nmant, int scale)
{
    static const int minor1[] = {2, 3, 4, 5, 6, 7, 8, 9};
    static const int minor125[] = {3, 4, 6, 7, 8, 9};
    int e0 = (int)floor(log10(lo)) - 1, e1 = (int)ceil(log10(hi)) + 1;
    size_t n = 0;

    for (int e = e0; e <= e1; e++) {
        double p = pow(10, e - scale);
        for (size_t i = 0; i < nmant; i++) {
            double v = mant[i] * p;
            n += v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9);
            if (t)
                ws_plot_tick(t, v, 0, lo, hi);
        }
        if (t && nmant == 1)
            for (size_t i = 0; i < 8; i++)
                ws_plot_tick(t, minor1[i] * p, 1, lo, hi);
        if (t && nmant == 3)
            for (size_t i = 0; i < 6; i++)
                ws_plot_tick(t, minor125[i] * p, 1, lo, hi);
    }
    return n;
}

/* Whole decades when the range holds three or more (thinned past a dozen,
 * the others minor); else 1, 2, 5 times them; else every digit; else
 * every tenth of a digit (a range narrower than a factor of two). */
static void ws_plot_ticks_log10(struct ws_plot_ticks *t, double lo, double hi)
{
    static const int one[] = {1}, m125[] = {1, 2, 5};
    static const int digits[] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    int tenths[90];
    size_t n = ws_plot_ticks_dec(NULL, lo, hi, one, 1, 0);

    if (n > 12) {
        int e0 = (int)ceil(log10(lo) - 1e-9), e1 = (int)floor(log10(hi) + 1e-9);
        int step = (int)((n + 9) / 10);
        for (int e = e0; e <= e1; e++)
            ws_plot_tick(t, pow(10, e), e % step != 0, lo, hi);
        return;
    }
    if (n >= 3) {
        ws_plot_ticks_dec(t, lo, hi, one, 1, 0);
        return;
    }
    if (ws_plot_ticks_dec(NULL, lo, hi, m125, 3, 0) >= 3) {
        ws_plot_ticks_dec(t, lo, hi, m125, 3, 0);
        return;
    }
    if (ws_plot_ticks_dec(NULL, lo, hi, digits, 9, 0) >= 3) {
        ws_plot_ticks_dec(t, lo, hi, digits, 9, 0);
        return;
    }
    for (int i = 0; i < 90; i++)
        tenths[i] = 10 + i;
    ws_plot_ticks_dec(t, lo, hi, tenths, 90, 1);
}

static void ws_plot_ticks_put(FILE *fp, char axis,
                              const struct ws_plot_ticks *t, int bytes)
{
    char label[48];

    fprintf(fp, "set %ctics (", axis);
    for (size_t i = 0; i < t->n; i++) {
        label[0] = '\0';
        if (!t->minor[i])
            ws_plot_num_text(label, sizeof label, t->v[i], bytes);
        fprintf(fp, "%s'%s' %.10g %d", i ? ", " : "", label, t->v[i],
                t->minor[i]);
    }
    fputs(")\n", fp);
}

static int ws_plot_is_bytes(const char *unit)
{
    return unit && strcmp(unit, "bytes") == 0;
}

static void ws_plot_log_axis(FILE *fp, char axis, double lo, double hi,
                             int pow2, const char *unit, double *range)
{
    struct ws_plot_ticks t;

    t.n = 0;
    lo /= WS_PLOT_LOG_PAD;
    hi *= WS_PLOT_LOG_PAD;
    range[0] = lo;
    range[1] = hi;
    fprintf(fp, "set logscale %c %d\nset %crange [%.17g:%.17g]\n", axis,
            pow2 ? 2 : 10, axis, lo, hi);
    if (pow2 || ws_plot_is_bytes(unit))
        ws_plot_ticks_pow2(&t, lo, hi);
    else
        ws_plot_ticks_log10(&t, lo, hi);
    if (t.n > 0)
        ws_plot_ticks_put(fp, axis, &t, ws_plot_is_bytes(unit));
}

/* Byte sizes on a linear axis: multiples of a power of two, four to
 * eight of them, half a step of room at each end. */
static void ws_plot_bytes_axis(FILE *fp, char axis, double lo, double hi,
                               double *range)
{
    struct ws_plot_ticks t;
    double step = ldexp(1, (int)floor(log2((hi - lo) / 4)));

    t.n = 0;
    if (step < 1)
        step = 1;
    range[0] = lo - step / 2;
    range[1] = hi + step / 2;
    fprintf(fp, "set %crange [%.17g:%.17g]\n", axis, lo - step / 2,
            hi + step / 2);
    /* Counted in whole steps: a double loop counter drifts. */
    for (long i = (long)ceil((lo - step / 2) / step);
         (double)i * step <= hi + step / 2; i++)
        ws_plot_tick(&t, (double)i * step, 0, -INFINITY, INFINITY);
    ws_plot_ticks_put(fp, axis, &t, 1);
}

void ws_plot_axis(FILE *fp, char axis, double lo, double hi, int log, int pow2,
                  const char *unit, double *range)
{
    double r[2];

    if (!range)
        range = r;
    range[0] = lo;
    range[1] = hi;
    if (log && lo > 0 && hi >= lo)
        ws_plot_log_axis(fp, axis, lo, hi, pow2, unit, range);
    else if (log)
        fprintf(fp, "set logscale %c\n", axis);
    else if (ws_plot_is_bytes(unit) && hi > lo && lo >= 0)
        ws_plot_bytes_axis(fp, axis, lo, hi, range);
}
