/*
 * libFuzzer target: the measurements readers of warpsim compare (an
 * Nsight Compute CSV export or an Accel-Sim log, told apart by content).
 * Any input must give a table or one clean error line, never a crash; a
 * table's kernels have names and base names and launch ids that no two
 * share, its values are NAN or finite, its kept bad cells and unit
 * problems point inside it (a dimension problem at a source column that
 * exists), every metric has its unit and every note a metric and a
 * kernel of the table.  A table is then paired with a small fixed
 * simulation, which must pair or fail cleanly too, with differences and
 * statistics that are NAN or finite and notes of pairs that exist.  The
 * input's first line is also read as a kernel name and as a unit, whose
 * dimension must agree with its scale.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "measure/ws_compare.h"
#include "measure/ws_kname.h"
#include "measure/ws_measured.h"
#include "measure/ws_simrun.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Kernels the seed corpus measures, so that pairing is reached. */
static const char fuzz_run[] =
    "{\"schema_version\": 1, \"kernels\": ["
    "{\"id\": 1, \"name\": \"_Z5saxpyiifPKfPf\", \"counters\": {"
    "\"gpc__cycles_elapsed.max\": {\"value\": 1529, \"unit\": \"cycle\"},"
    "\"dram__bytes_read.sum\": {\"value\": 524288, \"unit\": \"byte\"}},"
    "\"derived\": {\"time_us\": 0.77, \"lts__t_sector_hit_rate.pct\": 33}},"
    "{\"id\": 2, \"name\": \"_Z6reduceILi256EEvPKfPfi\", \"counters\": {"
    "\"gpc__cycles_elapsed.max\": {\"value\": 2233, \"unit\": \"cycle\"}}},"
    "{\"id\": 3, \"name\": \"_Z5saxpyiifPKfPf\", \"counters\": {"
    "\"gpc__cycles_elapsed.max\": {\"value\": 2525, \"unit\": \"cycle\"}}}"
    "]}";

/* No two kernels of a table share a launch id (the readers refuse it);
 * quadratic, on the few kernels a fuzz input holds. */
static void fuzz_measured_ids(const struct ws_measured *m)
{
    for (size_t i = 0; i < m->nkernels && i < 4096; i++)
        for (size_t j = i + 1;
             m->kernels[i].id >= 0 && j < m->nkernels && j < 4096; j++)
            if (m->kernels[j].id == m->kernels[i].id)
                abort();
}

static void fuzz_measured_check(const struct ws_measured *m)
{
    if (m->nkernels == 0)
        abort();
    for (size_t k = 0; k < m->nkernels; k++) {
        if (!m->kernels[k].name || !m->kernels[k].base)
            abort();
        for (size_t j = 0; j < m->nmetrics; j++) {
            double v = ws_measured_value(m, k, j);
            if (!isnan(v) && !isfinite(v))
                abort();
        }
    }
    for (size_t i = 0; i < m->nbad; i++)
        if (m->bad[i].kernel >= m->nkernels || m->bad[i].metric >= m->nmetrics
            || m->bad[i].from >= m->nmetrics || m->bad[i].line < 1
            || m->bad[i].col < 1 || m->bad[i].why >= WS_MEAS_UNKNOWN_UNIT)
            abort();
    for (size_t i = 0; i < m->nunit_bad; i++)
        if (m->unit_bad[i].metric >= m->nmetrics || m->unit_bad[i].line < 1
            || m->unit_bad[i].col < 1 || !m->unit_bad[i].text
            || m->unit_bad[i].from >= m->nmetrics
            || m->unit_bad[i].why < WS_MEAS_UNKNOWN_UNIT
            || (m->unit_bad[i].why == WS_MEAS_DIM_UNIT
                && ws_meas_dim_fits(m->unit_bad[i].dim, m->unit_bad[i].want)))
            abort();
    for (size_t j = 0; j < m->nmetrics; j++)
        if (!m->units[j].text || m->units[j].line < 0)
            abort();
    for (size_t i = 0; i < m->nnotes; i++)
        if (m->notes[i].metric >= m->nmetrics || !m->notes[i].why
            || (m->notes[i].kernel != WS_MEAS_ALL
                && m->notes[i].kernel >= m->nkernels))
            abort();
    fuzz_measured_ids(m);
}

static void fuzz_measured_compare(const struct ws_measured *m)
{
    struct ws_simrun s;
    struct ws_compare c;
    struct ws_err err;

    ws_err_clear(&err);
    if (ws_simrun_parse(&s, "run.json", fuzz_run, sizeof fuzz_run - 1, &err)
        < 0)
        abort();
    if (ws_compare_run(&c, &s, m, NULL, &err) == 0) {
        for (size_t j = 0; j < c.nmetrics; j++)
            if (isinf(c.metrics[j].mape) || isinf(c.metrics[j].r)
                || c.metrics[j].n > c.npairs)
                abort();
        for (size_t i = 0; i < c.nnotes; i++)
            if (!c.notes[i].metric || !c.notes[i].why
                || (c.notes[i].pair != WS_MEAS_ALL
                    && c.notes[i].pair >= c.npairs))
                abort();
        ws_compare_free(&c);
    } else if (!err.set || strchr(err.text, '\n')) {
        abort();
    }
    ws_simrun_free(&s);
}

/* The first line as a unit and as a metric name: a unit refused by its
 * scale has no dimension, one that scales has one. */
static void fuzz_measured_unit(const char *line)
{
    double scale = ws_meas_unit_scale(line);
    enum ws_meas_dim d = ws_meas_unit_dim(line);

    if (isnan(scale) != (d == WS_DIM_UNKNOWN)
        || (!isnan(scale) && !(scale > 0)))
        abort();
    if (!ws_meas_dim_name(ws_meas_metric_dim(line))
        || !ws_meas_dim_units(ws_meas_sim_unit_dim(line)))
        abort();
}

/* The input's first line as a kernel name: the demangler never fails. */
static void fuzz_measured_kname(const uint8_t *data, size_t size)
{
    size_t n = 0;
    char *name, *base;

    while (n < size && data[n] != '\n' && data[n] != '\0')
        n++;
    name = malloc(n + 1);
    if (!name)
        return;
    memcpy(name, data, n);
    name[n] = '\0';
    base = ws_kname_base(name);
    if (!base || strlen(base) > 3 * n + 64)
        abort();
    fuzz_measured_unit(name);
    free(base);
    free(name);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct ws_measured m;
    struct ws_err err;

    fuzz_measured_kname(data, size);
    ws_err_clear(&err);
    if (ws_measured_parse(&m, "fuzz", (const char *)data, size, &err) < 0) {
        if (!err.set || strchr(err.text, '\n'))
            abort();
        return 0;
    }
    fuzz_measured_check(&m);
    fuzz_measured_compare(&m);
    ws_measured_free(&m);
    return 0;
}
