/*
 * ws_compare: pairing, differences and statistics (see ws_compare.h).
 *
 * Pairing is linear in the kernels: measured kernels are grouped by base
 * name (an interned id each, their indices in launch order per id), and
 * the k-th simulated launch of a name takes the k-th of its group.  The
 * readers have made sure no launch id is twice on either side, so a
 * launch cannot pair twice.
 *
 * A compared metric's measured unit is held against its dimension once,
 * at its first pair with both values (ws_cmp_unit); the readers' notes of
 * metrics left out are kept for the compared metrics and paired kernels.
 *
 * Rows are shown in the order --sort asks (ws_compare_order_pair and
 * _metrics); the comparison itself keeps the files' order, which the
 * chart's colours follow.
 *
 * Leaves out: weighting kernels (every pair counts once in MAPE and r).
 */
#include "ws_compare.h"

#include "util/ws_clip.h"
#include "util/ws_strtab.h"

#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Measured columns that describe the device, the launch or the
 * profiler, not the kernel's work (Nsight's metric families). */
static const char *const ws_cmp_attr_families[] = {
    "device__", "launch__",  "profiler__", "numa__",
    "nvlink__", "c2clink__", "derived__",  "pmsampling__",
};

/* Where a measured metric is not what the simulated counter of its name
 * counts (ws_compare.h).  Accel-Sim's L1D totals: every access of the
 * L1D, loads, stores and local memory alike, each a hit, pending hit or
 * miss (GPGPU-Sim's cache_stats; the reader's header says which figures
 * it takes); warpsim's L1 hit rate follows Nsight's, of load sectors,
 * and warpsim counts no L1 store hits from which to make the other. */
static const struct ws_cmp_mismatch {
    enum ws_meas_format format;
    const char *metric;
    const char *why;
} ws_cmp_mismatches[] = {
    {WS_MEAS_ACCELSIM, "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct",
     "Accel-Sim's L1D totals count every L1D access, stores and local "
     "memory included; warpsim's hit rate, as Nsight's, is of load sectors "
     "only, and warpsim counts no L1 store hits to match the other"},
};

/* Kernels grouped by base name: ids from names, and per id the indices
 * of its kernels in order (start[id] .. start[id] + count[id] in list). */
struct ws_cmp_groups {
    struct ws_strtab names;
    size_t *start, *count, *list;
};

struct ws_cmp {
    struct ws_compare *c;
    const struct ws_simrun *s;
    const struct ws_measured *m;
    const regex_t *re;
    struct ws_err *err;
};

/* -1 here, not ws_err_oom's value, so that a reader of this file (or an
 * analyser, which does not look into util/) sees that failure is nonzero. */
static int ws_cmp_oom(struct ws_cmp *x)
{
    ws_err_oom(x->err);
    return -1;
}

/* ---- pairing ------------------------------------------------------------- */

static void ws_cmp_groups_free(struct ws_cmp_groups *g)
{
    ws_strtab_free(&g->names);
    free(g->start);
    free(g->count);
    free(g->list);
}

static int ws_cmp_group(struct ws_cmp_groups *g, const struct ws_measured *m)
{
    size_t n = m->nkernels, *ids = malloc((n + 1) * sizeof *ids), *fill;

    ws_strtab_init(&g->names);
    g->start = g->count = g->list = NULL;
    if (!ids)
        return -1;
    for (size_t i = 0; i < n; i++) {
        const char *b = m->kernels[i].base;
        ids[i] = ws_strtab_intern(&g->names, b, strlen(b));
        if (ids[i] == UINT32_MAX) {
            free(ids);
            return -1;
        }
    }
    g->start = calloc(g->names.count + 1, sizeof *g->start);
    g->count = calloc(g->names.count + 1, sizeof *g->count);
    g->list = calloc(n + 1, sizeof *g->list);
    fill = calloc(g->names.count + 1, sizeof *fill);
    if (g->start && g->count && g->list && fill) {
        for (size_t i = 0; i < n; i++)
            g->count[ids[i]]++;
        for (size_t id = 1; id < g->names.count; id++)
            g->start[id] = g->start[id - 1] + g->count[id - 1];
        for (size_t i = 0; i < n; i++)
            g->list[g->start[ids[i]] + fill[ids[i]]++] = i;
    }
    free(fill);
    free(ids);
    if (g->start && g->count && g->list)
        return 0;
    ws_cmp_groups_free(g);
    return -1;
}

static int ws_cmp_match(const regex_t *re, const char *name, const char *base)
{
    return !re || regexec(re, name, 0, NULL, 0) == 0
           || regexec(re, base, 0, NULL, 0) == 0;
}

/* Pairs the simulated kernels in order; what remains is lone. */
static int ws_cmp_pair(struct ws_cmp *x, struct ws_cmp_groups *g)
{
    struct ws_compare *c = x->c;
    struct ws_strtab sim_names;
    size_t *used = calloc(g->names.count + 1, sizeof *used);
    size_t *sim_seen = calloc(x->s->nkernels + 1, sizeof *sim_seen);
    unsigned char *paired = calloc(x->m->nkernels + 1, 1);
    int rc = used && sim_seen && paired ? 0 : -1;

    ws_strtab_init(&sim_names);
    for (size_t i = 0; rc == 0 && i < x->s->nkernels; i++) {
        const struct ws_simrun_kernel *k = &x->s->kernels[i];
        uint32_t id = ws_strtab_find(&g->names, k->base, strlen(k->base));
        uint32_t sid = ws_strtab_intern(&sim_names, k->base, strlen(k->base));
        size_t launch;
        if (sid == UINT32_MAX) {
            rc = -1;
            break;
        }
        launch = ++sim_seen[sid];
        if (id != UINT32_MAX && used[id] < g->count[id]) {
            size_t mi = g->list[g->start[id] + used[id]++];
            const struct ws_meas_kernel *mk = &x->m->kernels[mi];
            paired[mi] = 1;
            if (ws_cmp_match(x->re, k->name, k->base)
                || ws_cmp_match(x->re, mk->name, mk->base))
                c->pairs[c->npairs++] = (struct ws_compare_pair){i, mi, launch};
        } else if (ws_cmp_match(x->re, k->name, k->base)) {
            c->sim_only[c->nsim_only++] = (struct ws_compare_lone){i, launch};
        }
    }
    for (uint32_t id = 0; rc == 0 && id < g->names.count; id++)
        for (size_t j = 0; j < g->count[id]; j++) {
            size_t mi = g->list[g->start[id] + j];
            const struct ws_meas_kernel *mk = &x->m->kernels[mi];
            if (!paired[mi] && ws_cmp_match(x->re, mk->name, mk->base))
                c->meas_only[c->nmeas_only++] = (struct ws_compare_lone){mi,
                                                                         j + 1};
        }
    ws_strtab_free(&sim_names);
    free(used);
    free(sim_seen);
    free(paired);
    return rc;
}

/* Measured lone kernels were gathered by name: back to launch order. */
static int ws_cmp_lone_cmp(const void *a, const void *b)
{
    const struct ws_compare_lone *p = a, *q = b;

    return p->index < q->index ? -1 : p->index > q->index;
}

/* ---- metrics -------------------------------------------------------------- */

/* The value of metric name in simulated kernel k (hint: where it sits
 * in the first kernel, as every kernel of a run lists the same). */
static const struct ws_simrun_metric *
ws_cmp_sim_metric(const struct ws_simrun_kernel *k, const char *name,
                  size_t hint)
{
    if (hint < k->nmetrics && strcmp(k->metrics[hint].name, name) == 0)
        return &k->metrics[hint];
    for (size_t i = 0; i < k->nmetrics; i++)
        if (strcmp(k->metrics[i].name, name) == 0)
            return &k->metrics[i];
    return NULL;
}

/* The note of a pairing whose definitions differ, or NULL. */
static const char *ws_cmp_mismatch(const struct ws_measured *m,
                                   const char *name)
{
    for (size_t i = 0;
         i < sizeof ws_cmp_mismatches / sizeof ws_cmp_mismatches[0]; i++)
        if (ws_cmp_mismatches[i].format == m->format
            && strcmp(ws_cmp_mismatches[i].metric, name) == 0)
            return ws_cmp_mismatches[i].why;
    return NULL;
}

/* The union of the paired simulated kernels' metrics, in order: those
 * measured too become c->metrics, the others are simulated only. */
static int ws_cmp_metric_set(struct ws_cmp *x, struct ws_strtab *seen)
{
    struct ws_compare *c = x->c;

    for (size_t p = 0; p < c->npairs; p++) {
        const struct ws_simrun_kernel *k = &x->s->kernels[c->pairs[p].sim];
        for (size_t i = 0; i < k->nmetrics; i++) {
            const struct ws_simrun_metric *sm = &k->metrics[i];
            uint32_t before = seen->count;
            uint32_t id = ws_strtab_intern(seen, sm->name, strlen(sm->name));
            long mi;
            if (id == UINT32_MAX)
                return -1;
            if (id < before)
                continue;
            mi = ws_measured_metric(x->m, sm->name);
            if (mi >= 0)
                c->metrics[c->nmetrics++] = (struct ws_compare_metric){
                    .name = sm->name,
                    .unit = sm->unit,
                    .meas = (size_t)mi,
                    .mape = NAN,
                    .r = NAN,
                    .mismatch = ws_cmp_mismatch(x->m, sm->name)};
            else if (strncmp(sm->name, "ws__", 4) == 0)
                c->nown++;
            else
                c->sim_metrics_only[c->nsim_metrics_only++] = sm->name;
        }
    }
    return 0;
}

/* A unit of the wrong dimension, at its place in the units row; of a
 * derived metric (time_us from cycles and a clock), the source says it. */
static int ws_cmp_bad_dim(struct ws_cmp *x, const struct ws_meas_bad *b,
                          const char *name)
{
    struct ws_clip q1, q2;

    if (b->from != b->metric)
        return ws_err_at(x->err, x->m->name, b->line, b->col,
                         "metric %s "
                         "comes from %s, in unit '%s', which is %s "
                         "(expected %s)",
                         name, ws_clip(&q1, x->m->metrics[b->from]),
                         ws_clip(&q2, b->text), ws_meas_dim_name(b->dim),
                         ws_meas_dim_units(b->want));
    return ws_err_at(x->err, x->m->name, b->line, b->col,
                     "metric %s in "
                     "unit '%s' is %s (expected %s)",
                     name, ws_clip(&q1, b->text), ws_meas_dim_name(b->dim),
                     ws_meas_dim_units(b->want));
}

/* A measured cell (or a column's unit) that cannot be used, where it
 * would be compared. */
static int ws_cmp_bad(struct ws_cmp *x, size_t kernel, size_t metric)
{
    const struct ws_meas_bad *b = ws_measured_bad(x->m, kernel, metric);
    struct ws_clip q1, q2, q3;
    const char *text, *name;

    if (!b)
        return 0;
    text = ws_clip(&q1, b->text);
    name = ws_clip(&q2, x->m->metrics[metric]);
    switch (b->why) {
    case WS_MEAS_NEGATIVE:
        return ws_err_at(x->err, x->m->name, b->line, b->col,
                         "'%s' for %s is "
                         "negative (expected a count, a time or a rate: a "
                         "number of at least 0)",
                         text, name);
    case WS_MEAS_ZERO_CLOCK:
        return ws_err_at(x->err, x->m->name, b->line, b->col,
                         "metric %s "
                         "comes from the clock %s, which is '%s' (expected "
                         "the SM clock the kernel ran at: a rate above 0 "
                         "that gives a time)",
                         name, ws_clip(&q3, x->m->metrics[b->from]), text);
    case WS_MEAS_UNKNOWN_UNIT:
        return ws_err_at(x->err, x->m->name, b->line, b->col,
                         "unknown unit "
                         "'%s' for %s (expected one of Nsight's units: %s, "
                         "bare, after a prefix K, M, G, T, P, or as a ratio "
                         "such as byte/second)",
                         text, name, WS_MEAS_UNITS);
    case WS_MEAS_DIM_UNIT:
        return ws_cmp_bad_dim(x, b, name);
    case WS_MEAS_NOT_NUMBER:
    default:
        return ws_err_at(x->err, x->m->name, b->line, b->col,
                         "'%s' for %s "
                         "is not a number (expected a number such as "
                         "7,433,216, or an empty cell)",
                         text, name);
    }
}

/* The dimension a compared metric has: the simulated counter's unit's
 * (warpsim writes each counter in Nsight's unit), else what its Nsight
 * name says (ws_meas_metric_dim). */
static enum ws_meas_dim ws_cmp_want(const struct ws_compare_metric *mt)
{
    enum ws_meas_dim d = ws_meas_sim_unit_dim(mt->unit);

    return d != WS_DIM_UNKNOWN && d != WS_DIM_PLAIN
               ? d
               : ws_meas_metric_dim(mt->name);
}

/* The measured unit of a compared metric against its dimension: values
 * scale within a dimension only, so a byte count in msecond, or cycles in
 * %, compares nothing.  Checked once the metric has a value to compare;
 * an implied unit (an Accel-Sim log's) is placed by the caller. */
static int ws_cmp_unit(struct ws_cmp *x, const struct ws_compare_metric *mt)
{
    const struct ws_meas_unit *u = &x->m->units[mt->meas];
    const char *text = u->text ? u->text : "";
    enum ws_meas_dim got = ws_meas_unit_dim(text), want = ws_cmp_want(mt);
    struct ws_clip q1, q2, q3;

    if (ws_meas_dim_fits(got, want))
        return 0;
    if (u->line > 0)
        return ws_err_at(x->err, x->m->name, u->line, u->col,
                         "metric %s in "
                         "unit '%s' is %s (expected %s, as the simulation "
                         "counts it in '%s')",
                         ws_clip(&q1, mt->name), ws_clip(&q2, text),
                         ws_meas_dim_name(got), ws_meas_dim_units(want),
                         ws_clip(&q3, mt->unit));
    return ws_err_msg(x->err,
                      "metric %s, which the %s gives in '%s', is %s "
                      "(expected %s, as the simulation counts it in '%s')",
                      ws_clip(&q1, mt->name),
                      ws_measured_format_name(x->m->format), ws_clip(&q2, text),
                      ws_meas_dim_name(got), ws_meas_dim_units(want),
                      ws_clip(&q3, mt->unit));
}

/* NAN, too, when the quotient passes a double (a measurement of 1e-320
 * against one of thousands): no relative error can be told. */
static double ws_cmp_diff(double sim, double meas)
{
    double d;

    if (isnan(sim) || isnan(meas))
        return NAN;
    if (meas == 0)
        return sim == 0 ? 0 : NAN;
    d = (sim - meas) / fabs(meas) * 100;
    return isfinite(d) ? d : NAN;
}

/* The cells of metric j, and its statistics. */
static int ws_cmp_fill(struct ws_cmp *x, size_t j, size_t hint, double *xs,
                       double *ys)
{
    struct ws_compare *c = x->c;
    struct ws_compare_metric *mt = &c->metrics[j];
    double mape = 0;

    for (size_t p = 0; p < c->npairs; p++) {
        const struct ws_compare_pair *pr = &c->pairs[p];
        const struct ws_simrun_metric *sm =
            ws_cmp_sim_metric(&x->s->kernels[pr->sim], mt->name, hint);
        struct ws_compare_cell *cell = &c->cells[p * c->nmetrics + j];
        cell->sim = sm ? sm->value : NAN;
        cell->meas = ws_measured_value(x->m, pr->meas, mt->meas);
        if (isnan(cell->meas) && sm && ws_cmp_bad(x, pr->meas, mt->meas) < 0)
            return -1;
        if (sm && !isnan(cell->meas) && mt->n == 0 && ws_cmp_unit(x, mt) < 0)
            return -1;
        cell->diff_pct = ws_cmp_diff(cell->sim, cell->meas);
        if (isnan(cell->sim) || isnan(cell->meas))
            continue;
        xs[mt->n] = cell->meas;
        ys[mt->n++] = cell->sim;
        if (!isnan(cell->diff_pct) && cell->meas != 0) {
            /* a running mean: a sum of huge errors would pass a double */
            mt->n_mape++;
            mape += (fabs(cell->diff_pct) - mape) / (double)mt->n_mape;
        }
    }
    mt->mape = mt->n_mape ? mape : NAN;
    mt->r = mt->n >= 3 ? gsl_stats_correlation(xs, 1, ys, 1, mt->n) : NAN;
    if (!isfinite(mt->r))
        mt->r = NAN;
    return 0;
}

/* The position of metric name in the first pair's simulated kernel. */
static size_t ws_cmp_hint(const struct ws_cmp *x, const char *name)
{
    const struct ws_simrun_kernel *k = &x->s->kernels[x->c->pairs[0].sim];

    /* name is one of c->metrics[0..nmetrics), every one set by
     * ws_cmp_metric_set; the analyser does not follow the fill. */
    for (size_t i = 0; i < k->nmetrics; i++)
        /* NOLINTNEXTLINE(clang-analyzer-core.NonNullParamChecker) */
        if (strcmp(k->metrics[i].name, name) == 0)
            return i;
    return 0;
}

/* Fills every metric's cells; metrics measured for no pair move to the
 * simulated-only list. */
static int ws_cmp_cells(struct ws_cmp *x)
{
    struct ws_compare *c = x->c;
    double *xs = malloc((c->npairs + 1) * sizeof *xs);
    double *ys = malloc((c->npairs + 1) * sizeof *ys);
    size_t kept = 0;
    int rc = xs && ys ? 0 : ws_cmp_oom(x);

    for (size_t j = 0; rc == 0 && j < c->nmetrics; j++)
        rc = ws_cmp_fill(x, j, ws_cmp_hint(x, c->metrics[j].name), xs, ys);
    for (size_t j = 0; rc == 0 && j < c->nmetrics; j++) {
        if (c->metrics[j].n == 0) {
            c->sim_metrics_only[c->nsim_metrics_only++] = c->metrics[j].name;
            continue;
        }
        c->metrics[kept] = c->metrics[j];
        for (size_t p = 0; p < c->npairs; p++)
            c->cells[p * c->nmetrics + kept] = c->cells[p * c->nmetrics + j];
        kept++;
    }
    /* The matrix keeps its row length; rows are re-packed below. */
    for (size_t p = 0; rc == 0 && p < c->npairs; p++)
        memmove(&c->cells[p * kept], &c->cells[p * c->nmetrics],
                kept * sizeof *c->cells);
    if (rc == 0)
        c->nmetrics = kept;
    free(xs);
    free(ys);
    return rc;
}

/* Measured metrics warpsim has no counter for, less attributes and the
 * other roll-ups of counters compared ("dram__bytes_read.avg" beside
 * "dram__bytes_read.sum"). */
static void ws_cmp_meas_only(struct ws_cmp *x, const struct ws_strtab *seen)
{
    struct ws_compare *c = x->c;

    for (size_t i = 0; i < x->m->nmetrics; i++) {
        const char *name = x->m->metrics[i];
        size_t stem = strcspn(name, ".");
        int attr = 0;
        if (ws_strtab_find(seen, name, strlen(name)) != UINT32_MAX)
            continue;
        for (size_t f = 0;
             f < sizeof ws_cmp_attr_families / sizeof ws_cmp_attr_families[0];
             f++)
            attr |= strncmp(name, ws_cmp_attr_families[f],
                            strlen(ws_cmp_attr_families[f]))
                    == 0;
        for (size_t j = 0; !attr && j < c->nmetrics; j++)
            attr = strncmp(c->metrics[j].name, name, stem) == 0
                   && c->metrics[j].name[stem] == '.';
        if (attr)
            c->nattrs++;
        else
            c->meas_metrics_only[c->nmeas_metrics_only++] = name;
    }
}

/* The readers' notes that bear on the comparison: of a metric compared
 * (or simulated and left out of the measurements), for every kernel or
 * for a paired one. */
static int ws_cmp_notes(struct ws_cmp *x, const struct ws_strtab *seen)
{
    struct ws_compare *c = x->c;
    size_t *pair_of = malloc((x->m->nkernels + 1) * sizeof *pair_of);

    c->notes = malloc((x->m->nnotes + 1) * sizeof *c->notes);
    if (!pair_of || !c->notes) {
        free(pair_of);
        return ws_cmp_oom(x);
    }
    for (size_t k = 0; k < x->m->nkernels; k++)
        pair_of[k] = WS_MEAS_ALL;
    for (size_t p = 0; p < c->npairs; p++)
        pair_of[c->pairs[p].meas] = p;
    for (size_t i = 0; i < x->m->nnotes; i++) {
        const struct ws_meas_note *n = &x->m->notes[i];
        const char *name = x->m->metrics[n->metric];
        size_t p = n->kernel == WS_MEAS_ALL ? WS_MEAS_ALL : pair_of[n->kernel];
        if (ws_strtab_find(seen, name, strlen(name)) == UINT32_MAX
            || (n->kernel != WS_MEAS_ALL && p == WS_MEAS_ALL))
            continue;
        c->notes[c->nnotes++] = (struct ws_compare_note){name, p, n->line,
                                                         n->why};
    }
    free(pair_of);
    return 0;
}

/* ---- summaries ------------------------------------------------------------- */

static int ws_cmp_double_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return x < y ? -1 : x > y;
}

/* The mean and the median of the metrics' MAPE, those whose definitions
 * differ left out: their error is the definitions', not the simulator's.
 * The median beside the mean, as one metric far off (a count measured
 * near 0) can carry the mean alone. */
static int ws_cmp_mean(struct ws_cmp *x)
{
    struct ws_compare *c = x->c;
    double sum = 0, *v = malloc((c->nmetrics + 1) * sizeof *v);

    if (!v)
        return ws_cmp_oom(x);
    c->n_mean = c->n_flagged = 0;
    for (size_t j = 0; j < c->nmetrics; j++) {
        const struct ws_compare_metric *mt = &c->metrics[j];
        if (mt->mismatch) {
            c->n_flagged++;
        } else if (!isnan(mt->mape)) {
            v[c->n_mean++] = mt->mape;
            sum += (mt->mape - sum) / (double)c->n_mean; /* running mean */
        }
    }
    qsort(v, c->n_mean, sizeof *v, ws_cmp_double_cmp);
    c->mean_mape = c->n_mean ? sum : NAN;
    c->median_mape = !c->n_mean ? NAN
                     : c->n_mean % 2
                         ? v[c->n_mean / 2]
                         : (v[c->n_mean / 2 - 1] + v[c->n_mean / 2]) / 2;
    free(v);
    return 0;
}

/* The clock the measured kernels ran at: the mean over the pairs of the
 * first of Nsight's SM clock metrics the export has (Hz). */
static void ws_cmp_clocks(struct ws_compare *c)
{
    static const char *const clocks[] = {"gpc__cycles_elapsed.avg.per_second",
                                         "sm__cycles_elapsed.avg.per_second"};
    double sum = 0;
    size_t n = 0;

    c->sim_mhz = ws_simrun_clock_mhz(c->sim);
    c->meas_mhz = NAN;
    c->meas_clock = NULL;
    for (size_t i = 0; i < 2 && !c->meas_clock; i++) {
        long mi = ws_measured_metric(c->meas, clocks[i]);
        for (size_t p = 0; mi >= 0 && p < c->npairs; p++) {
            double v = ws_measured_value(c->meas, c->pairs[p].meas, (size_t)mi);
            if (v > 0 && isfinite(v)) {
                n++;
                sum += (v / 1e6 - sum) / (double)n;
            }
        }
        if (n)
            c->meas_clock = clocks[i];
    }
    if (n)
        c->meas_mhz = sum;
}

int ws_compare_order_pair(const struct ws_compare *c, size_t p,
                          enum ws_cmp_sort s, size_t *order)
{
    const char **names = malloc((c->nmetrics + 1) * sizeof *names);
    double *keys = malloc((c->nmetrics + 1) * sizeof *keys);
    int rc = -1;

    if (names && keys) {
        for (size_t j = 0; j < c->nmetrics; j++) {
            const struct ws_compare_cell *cell = ws_compare_cell(c, p, j);
            names[j] = c->metrics[j].name;
            keys[j] = ws_cmp_sort_key(cell->meas, cell->sim, cell->diff_pct);
        }
        rc = ws_cmp_sort_order(order, c->nmetrics, names, keys, s);
    }
    free(names);
    free(keys);
    return rc;
}

int ws_compare_order_metrics(const struct ws_compare *c, enum ws_cmp_sort s,
                             size_t *order)
{
    const char **names = malloc((c->nmetrics + 1) * sizeof *names);
    double *keys = malloc((c->nmetrics + 1) * sizeof *keys);
    int rc = -1;

    if (names && keys) {
        for (size_t j = 0; j < c->nmetrics; j++) {
            names[j] = c->metrics[j].name;
            keys[j] = c->metrics[j].mape;
        }
        rc = ws_cmp_sort_order(order, c->nmetrics, names, keys, s);
    }
    free(names);
    free(keys);
    return rc;
}

/* ---- the whole ------------------------------------------------------------- */

/* The names of up to three kernels of a side, for a message. */
static void ws_cmp_some(char *out, size_t size, const char *const *names,
                        size_t n)
{
    struct ws_clip q;
    size_t len = 0;

    out[0] = '\0';
    for (size_t i = 0; i < n && i < 3 && len < size; i++)
        len += (size_t)snprintf(out + len, size - len, "%s%s", i ? ", " : "",
                                ws_clip(&q, names[i]));
    if (n > 3 && len < size)
        snprintf(out + len, size - len, ", ...");
}

static int ws_cmp_none(struct ws_cmp *x)
{
    const char *sn[3], *mn[3];
    char sl[240], ml[240];

    if (x->re)
        return ws_err_msg(x->err, "--kernel selects no kernel that is both "
                                  "simulated and measured (expected a pattern "
                                  "matching a kernel of both files)");
    for (size_t i = 0; i < 3 && i < x->s->nkernels; i++)
        sn[i] = x->s->kernels[i].base;
    for (size_t i = 0; i < 3 && i < x->m->nkernels; i++)
        mn[i] = x->m->kernels[i].base;
    ws_cmp_some(sl, sizeof sl, sn, x->s->nkernels);
    ws_cmp_some(ml, sizeof ml, mn, x->m->nkernels);
    return ws_err_msg(x->err,
                      "no kernel is both simulated and measured "
                      "(expected the same kernels in both files: simulated "
                      "%s; measured %s)",
                      sl, ml);
}

static int ws_cmp_alloc(struct ws_cmp *x, size_t nsim_metrics)
{
    struct ws_compare *c = x->c;
    size_t ns = x->s->nkernels, nm = x->m->nkernels;

    /* Zeroed, not because anything reads past what is filled but so
     * that a static analyser need not prove it. */
    c->pairs = calloc(ns + 1, sizeof *c->pairs);
    c->sim_only = calloc(ns + 1, sizeof *c->sim_only);
    c->meas_only = calloc(nm + 1, sizeof *c->meas_only);
    c->metrics = calloc(nsim_metrics + 1, sizeof *c->metrics);
    c->sim_metrics_only = calloc(2 * nsim_metrics + 1,
                                 sizeof *c->sim_metrics_only);
    c->meas_metrics_only = calloc(x->m->nmetrics + 1,
                                  sizeof *c->meas_metrics_only);
    return c->pairs && c->sim_only && c->meas_only && c->metrics
                   && c->sim_metrics_only && c->meas_metrics_only
               ? 0
               : -1;
}

/* Every metric name a simulated kernel lists, counted with repeats:
 * an upper bound on the union. */
static size_t ws_cmp_sim_metric_bound(const struct ws_simrun *s)
{
    size_t n = 0;

    for (size_t i = 0; i < s->nkernels; i++)
        n += s->kernels[i].nmetrics;
    return n;
}

static int ws_cmp_all(struct ws_cmp *x)
{
    struct ws_compare *c = x->c;
    struct ws_cmp_groups g;
    struct ws_strtab seen;
    int rc;

    ws_strtab_init(&seen);
    if (ws_cmp_alloc(x, ws_cmp_sim_metric_bound(x->s)) < 0
        || ws_cmp_group(&g, x->m) < 0) {
        ws_strtab_free(&seen);
        return ws_cmp_oom(x);
    }
    rc = ws_cmp_pair(x, &g) < 0 ? ws_cmp_oom(x) : 0;
    ws_cmp_groups_free(&g);
    qsort(c->meas_only, c->nmeas_only, sizeof *c->meas_only, ws_cmp_lone_cmp);
    if (rc == 0 && c->npairs == 0)
        rc = ws_cmp_none(x);
    if (rc == 0 && ws_cmp_metric_set(x, &seen) < 0)
        rc = ws_cmp_oom(x);
    if (rc == 0
        && !(c->cells = malloc((c->npairs * c->nmetrics + 1)
                               * sizeof *c->cells)))
        rc = ws_cmp_oom(x);
    if (rc == 0)
        rc = ws_cmp_cells(x);
    if (rc == 0 && c->nmetrics == 0)
        rc = ws_err_msg(x->err,
                        "no metric is both simulated and measured "
                        "for these kernels (expected measurements under "
                        "Nsight Compute names, such as "
                        "gpc__cycles_elapsed.max)");
    if (rc == 0)
        ws_cmp_meas_only(x, &seen);
    if (rc == 0)
        rc = ws_cmp_notes(x, &seen);
    if (rc == 0)
        rc = ws_cmp_mean(x);
    if (rc == 0)
        ws_cmp_clocks(c);
    ws_strtab_free(&seen);
    return rc;
}

int ws_compare_run(struct ws_compare *c, const struct ws_simrun *s,
                   const struct ws_measured *m, const regex_t *re,
                   struct ws_err *err)
{
    struct ws_cmp x = {c, s, m, re, err};
    int rc;

    memset(c, 0, sizeof *c);
    c->sim = s;
    c->meas = m;
    rc = ws_cmp_all(&x);
    if (rc < 0)
        ws_compare_free(c);
    return rc;
}

void ws_compare_free(struct ws_compare *c)
{
    free(c->pairs);
    free(c->metrics);
    free(c->cells);
    free(c->sim_only);
    free(c->meas_only);
    free(c->sim_metrics_only);
    free(c->meas_metrics_only);
    free(c->notes);
    memset(c, 0, sizeof *c);
}
