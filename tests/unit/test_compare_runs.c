/*
 * Unit tests of what compare grew for issue "compare grows up": the rows'
 * order (--sort: by |difference|, a difference from 0 first and a missing
 * side last, ties in the files' order; by name; none), the run JSON
 * reader's derived figures, total_cycles and provenance (and the errors of
 * a damaged provenance at their line), two runs held against each other
 * (pairing by launch id and name, each figure's delta, equal counts, which
 * inputs, params, config and build differ), and, against measurements,
 * the flag of a pairing whose definitions differ (Accel-Sim's L1D totals)
 * kept out of the mean, and the clocks of an Nsight export.
 */
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/ws_cmp_sort.h"
#include "measure/ws_compare.h"
#include "measure/ws_simdiff.h"
#include "measure/ws_simrun.h"
#include "ws_test.h"

/* ---- the order of rows ------------------------------------------------------ */

static void test_sort(void **state)
{
    static const char *const names[] = {"d", "b", "a", "e", "c"};
    const double keys[] = {1, NAN, INFINITY, 5, 1};
    static const size_t by_error[] = {2, 3, 0, 4, 1};
    static const size_t by_name[] = {2, 1, 4, 0, 3};
    enum ws_cmp_sort s;
    size_t order[5];

    (void)state;
    assert_int_equal(ws_cmp_sort_order(order, 5, names, keys,
                                       WS_CMP_SORT_ERROR),
                     0);
    assert_memory_equal(order, by_error, sizeof order);
    assert_int_equal(ws_cmp_sort_order(order, 5, names, keys, WS_CMP_SORT_NAME),
                     0);
    assert_memory_equal(order, by_name, sizeof order);
    assert_int_equal(ws_cmp_sort_order(order, 5, names, keys, WS_CMP_SORT_NONE),
                     0);
    for (size_t i = 0; i < 5; i++)
        assert_int_equal(order[i], i);

    /* a difference from 0 is larger than any; a missing side has none */
    assert_true(isinf(ws_cmp_sort_key(0, 5, NAN)));
    assert_true(isnan(ws_cmp_sort_key(NAN, 5, NAN)));
    assert_true(isnan(ws_cmp_sort_key(5, NAN, NAN)));
    ws_test_near(ws_cmp_sort_key(2, 1, -50), 50, "|-50 %|");
    assert_true(ws_cmp_sort_key(0, 0, 0) == 0);

    assert_int_equal(ws_cmp_sort_parse("name", &s), 0);
    assert_int_equal(s, WS_CMP_SORT_NAME);
    assert_int_equal(ws_cmp_sort_parse("none", &s), 0);
    assert_int_equal(s, WS_CMP_SORT_NONE);
    assert_int_equal(ws_cmp_sort_parse("error", &s), 0);
    assert_int_equal(s, WS_CMP_SORT_ERROR);
    assert_int_equal(ws_cmp_sort_parse("Error", &s), -1);
    assert_int_equal(ws_cmp_sort_parse("", &s), -1);
    assert_string_equal(ws_cmp_sort_word(WS_CMP_SORT_NAME), "name");
}

/* ---- the run JSON: derived figures, total_cycles, provenance --------------- */

static int simrun(struct ws_simrun *s, const char *text, struct ws_err *err)
{
    ws_err_clear(err);
    return ws_simrun_parse(s, "r.json", text, strlen(text), err);
}

/* A run document: provenance PROV (text spliced in), kernels KERNELS. */
#define RUN(prov, kernels) \
    "{\"schema_version\": 1, \"gpu\": \"G\", \"input\": \"t/k\",\n" \
    "\"total_cycles\": 30,\n" prov "\"kernels\": [" kernels "]}\n"

#define PROV(config, sets, hash, params, inputs) \
    "\"provenance\": {\"version\": \"0.6.0\", \"commit\": \"abc\",\n" \
    "\"config\": \"" config "\", \"overrides\": [" sets "],\n" \
    "\"config_hash\": \"" hash "\", \"params\": [" params "],\n" \
    "\"inputs\": [" inputs "]},\n"

#define INPUT(path, hash) \
    "{\"path\": \"" path "\", \"bytes\": 4, \"xxh3_128\": \"" hash "\"}"

#define KERNEL(id, name, x, y, ipc) \
    "{\"id\": " id ", \"name\": \"" name "\", \"derived\": {\"time_us\": " \
    "1, \"ipc\": " ipc ", \"lts__t_sector_hit_rate.pct\": null},\n" \
    "\"counters\": {\"c__x.sum\": {\"value\": " x ", \"unit\": \"inst\"},\n" \
    "\"c__y.sum\": {\"value\": " y ", \"unit\": \"inst\"}}}"

static void test_simrun_extra(void **state)
{
    static const char text[] = RUN(PROV("h100", "\"a.b=x2\"", "h1", "\"n=4\"",
                                        INPUT("t/k/list",
                                              "11") "," INPUT("t/k/k1", "22")),
                                   KERNEL("1", "_Z1av", "1", "2", "0.5"));
    struct ws_simrun s;
    struct ws_err err;

    (void)state;
    assert_int_equal(simrun(&s, text, &err), 0);
    assert_string_equal(s.input, "t/k");
    ws_test_near(s.total_cycles, 30, "total_cycles");
    /* ipc has no measured counterpart: kept apart, as a derived figure */
    assert_int_equal(s.kernels[0].nextra, 1);
    assert_string_equal(s.kernels[0].extra[0].name, "ipc");
    assert_true(s.kernels[0].extra[0].derived);
    /* time_us (first: no cycles counter to follow) is derived, the
     * counters are not; the null hit rate is absent */
    assert_int_equal(s.kernels[0].nmetrics, 3);
    assert_string_equal(s.kernels[0].metrics[0].name, "time_us");
    assert_true(s.kernels[0].metrics[0].derived);
    assert_string_equal(s.kernels[0].metrics[1].name, "c__x.sum");
    assert_false(s.kernels[0].metrics[1].derived);
    assert_true(s.prov.present);
    assert_string_equal(s.prov.config, "h100");
    assert_string_equal(s.prov.commit, "abc");
    assert_int_equal(s.prov.noverrides, 1);
    assert_string_equal(s.prov.overrides[0], "a.b=x2");
    assert_int_equal(s.prov.nparams, 1);
    assert_int_equal(s.prov.ninputs, 2);
    assert_string_equal(s.prov.inputs[1].path, "t/k/k1");
    assert_string_equal(s.prov.inputs[1].hash, "22");
    assert_int_equal(s.prov.inputs[1].bytes, 4);
    ws_simrun_free(&s);

    /* a run of before 0.6.0: no provenance, no total */
    assert_int_equal(simrun(&s,
                            "{\"schema_version\": 1, \"kernels\": [" KERNEL(
                                "1", "k", "1", "2", "1") "]}",
                            &err),
                     0);
    assert_false(s.prov.present);
    assert_true(isnan(s.total_cycles));
    ws_simrun_free(&s);
}

static void simrun_fails(const char *text, long line, const char *want)
{
    struct ws_simrun s;
    struct ws_err err;

    assert_int_equal(simrun(&s, text, &err), -1);
    ws_test_err(&err, "r.json", line, want);
}

static void test_simrun_prov_errors(void **state)
{
    (void)state;
    simrun_fails("{\"schema_version\": 1,\n\"provenance\": [], \"kernels\": "
                 "[" KERNEL("1", "k", "1", "2", "1") "]}",
                 2, "\"provenance\" is not an object");
    simrun_fails("{\"schema_version\": 1, \"provenance\": {\n\"config\": 7}, "
                 "\"kernels\": [" KERNEL("1", "k", "1", "2", "1") "]}",
                 2, "provenance \"config\" is not a string");
    simrun_fails("{\"schema_version\": 1, \"provenance\": {\"overrides\": "
                 "[\"a=1\",\n 2]}, \"kernels\": [" KERNEL("1", "k", "1", "2",
                                                          "1") "]}",
                 2, "provenance \"overrides\" holds a value");
    simrun_fails("{\"schema_version\": 1, \"provenance\": {\"inputs\": [\n"
                 "{\"path\": \"p\"}]}, \"kernels\": [" KERNEL("1", "k", "1",
                                                              "2", "1") "]}",
                 2, "a provenance input has no \"path\" or \"xxh3_128\"");
    simrun_fails("{\"schema_version\": 1,\n\"total_cycles\": -1, \"kernels\": "
                 "[" KERNEL("1", "k", "1", "2", "1") "]}",
                 2, "total_cycles is negative");
    simrun_fails("{\"schema_version\": 1, \"kernels\": [{\"id\": 1, "
                 "\"name\": \"k\", \"counters\": {}, \"derived\": {\n"
                 "\"ipc\": \"fast\"}}]}",
                 2, "derived 'ipc' is not a number");
}

/* ---- two runs ------------------------------------------------------------------ */

struct runs {
    struct ws_simrun a, b;
    struct ws_simdiff d;
};

static void runs_load(struct runs *r, const char *a, const char *b,
                      const regex_t *re)
{
    struct ws_err err;

    assert_int_equal(simrun(&r->a, a, &err), 0);
    assert_int_equal(simrun(&r->b, b, &err), 0);
    ws_err_clear(&err);
    assert_int_equal(ws_simdiff_run(&r->d, &r->a, &r->b, re, &err), 0);
}

static void runs_free(struct runs *r)
{
    ws_simdiff_free(&r->d);
    ws_simrun_free(&r->a);
    ws_simrun_free(&r->b);
}

/* A: a, b, c (ids 1-3); B: a, x under b's id, c under another id. */
static const char runs_a[] =
    RUN(PROV("h100", "", "h1", "",
             INPUT("t/k/list", "11") "," INPUT("t/k/k1", "22")),
        KERNEL("1", "_Z1av", "0", "8",
               "2") "," KERNEL("2", "_Z1bv", "1", "1",
                               "1") "," KERNEL("3", "_Z1cv", "1", "1", "1"));
static const char runs_b[] = RUN(
    PROV("h100", "\"dram.bandwidth=x1.5\"", "h2", "",
         INPUT("u/k/list", "11") "," INPUT("t/k/k1",
                                           "33") "," INPUT("t/k/extra", "44")),
    KERNEL("1", "_Z1av", "4", "6",
           "2") "," KERNEL("2", "_Z1xv", "1", "1",
                           "1") "," KERNEL("4", "_Z1cv", "1", "1", "1"));

static const struct ws_simdiff_row *row(const struct ws_simdiff_pair *p,
                                        const char *name)
{
    for (size_t i = 0; i < p->nrows; i++)
        if (strcmp(p->rows[i].name, name) == 0)
            return &p->rows[i];
    fail_msg("no row %s", name);
    return NULL;
}

static void test_simdiff(void **state)
{
    struct runs r;
    const struct ws_simdiff_pair *p;
    size_t order[8];

    (void)state;
    runs_load(&r, runs_a, runs_b, NULL);
    /* by launch id and name: only a pairs */
    assert_int_equal(r.d.npairs, 1);
    p = &r.d.pairs[0];
    assert_int_equal(p->a, 0);
    assert_int_equal(p->b, 0);
    assert_int_equal(r.d.na_only, 2); /* b (id 2 is x in B), c (id 3) */
    assert_int_equal(r.d.a_only[0], 1);
    assert_int_equal(r.d.a_only[1], 2);
    assert_int_equal(r.d.nb_only, 2); /* x, c under id 4 */
    /* figures: two counters, then time_us and ipc */
    assert_int_equal(p->ncounters, 2);
    assert_int_equal(p->nderived, 2);
    assert_int_equal(p->counters_equal, 0);
    assert_int_equal(p->derived_equal, 2);
    ws_test_near(row(p, "c__y.sum")->delta, -2, "delta");
    ws_test_near(row(p, "c__y.sum")->delta_pct, -25, "delta %");
    /* from 0: a delta, no percentage; sorted before any percentage */
    ws_test_near(row(p, "c__x.sum")->delta, 4, "delta from 0");
    assert_true(isnan(row(p, "c__x.sum")->delta_pct));
    assert_int_equal(ws_simdiff_order(p, 0, WS_CMP_SORT_ERROR, order), 2);
    assert_string_equal(p->rows[order[0]].name, "c__x.sum");
    assert_int_equal(ws_simdiff_order(p, 1, WS_CMP_SORT_ERROR, order), 0);
    ws_test_near(r.d.total.delta, 0, "total_cycles");
    runs_free(&r);
}

static void test_simdiff_provenance(void **state)
{
    struct runs r;

    (void)state;
    runs_load(&r, runs_a, runs_b, NULL);
    assert_true(r.d.provenance);
    assert_true(r.d.same_build);
    assert_true(r.d.same_params);
    assert_false(r.d.same_config);
    assert_false(r.d.same_inputs);
    /* the list under another path is the same content: the same input;
     * k1 under its path with another content, extra in B only */
    assert_int_equal(r.d.ninputs, 2);
    assert_string_equal(r.d.inputs[0].a->path, "t/k/k1");
    assert_string_equal(r.d.inputs[0].b->hash, "33");
    assert_null(r.d.inputs[1].a);
    assert_string_equal(r.d.inputs[1].b->path, "t/k/extra");
    runs_free(&r);

    runs_load(&r, runs_a, runs_a, NULL);
    assert_true(r.d.same_inputs && r.d.same_config && r.d.same_params
                && r.d.same_build);
    assert_int_equal(r.d.pairs[0].counters_equal, 2);
    assert_int_equal(r.d.na_only + r.d.nb_only, 0);
    runs_free(&r);
}

/* Compares runs a and b, filtered by pattern (NULL: none); returns what
 * ws_simdiff_run does, err holding its message. */
static int runs_try(struct runs *r, const char *a, const char *b,
                    const char *pattern, struct ws_err *err)
{
    regex_t re;
    int rc;

    if (pattern)
        assert_int_equal(regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB), 0);
    assert_int_equal(simrun(&r->a, a, err), 0);
    assert_int_equal(simrun(&r->b, b, err), 0);
    ws_err_clear(err);
    rc = ws_simdiff_run(&r->d, &r->a, &r->b, pattern ? &re : NULL, err);
    if (pattern)
        regfree(&re);
    return rc;
}

static void test_simdiff_filter(void **state)
{
    struct runs r;
    struct ws_err err;

    (void)state;
    /* the filter keeps a, and the lone kernels it matches */
    assert_int_equal(runs_try(&r, runs_a, runs_b, "^(a|x)$", &err), 0);
    assert_int_equal(r.d.npairs, 1);
    assert_int_equal(r.d.na_only, 0);
    assert_int_equal(r.d.nb_only, 1); /* x */
    runs_free(&r);
    /* c is in both runs, but under two ids: no pair to compare */
    assert_int_equal(runs_try(&r, runs_a, runs_b, "^c$", &err), -1);
    assert_non_null(strstr(err.text, "--kernel selects no kernel"));
    ws_simrun_free(&r.a);
    ws_simrun_free(&r.b);
    /* launch 1 is another kernel in each run */
    assert_int_equal(runs_try(&r, RUN("", KERNEL("1", "k", "1", "1", "1")),
                              RUN("", KERNEL("1", "j", "1", "1", "1")), NULL,
                              &err),
                     -1);
    assert_non_null(strstr(err.text, "no kernel is in both runs"));
    ws_simrun_free(&r.a);
    ws_simrun_free(&r.b);
}

/* ---- against measurements: definitions, mean, clocks ----------------------- */

static void compare_files(struct ws_simrun *s, struct ws_measured *m,
                          struct ws_compare *c, const char *meas)
{
    struct ws_err err;

    ws_err_clear(&err);
    assert_int_equal(ws_simrun_load(s, "tests/data/compare/small_sim.json",
                                    &err),
                     0);
    assert_int_equal(ws_measured_load(m, meas, &err), 0);
    assert_int_equal(ws_compare_run(c, s, m, NULL, &err), 0);
}

static void compare_free(struct ws_simrun *s, struct ws_measured *m,
                         struct ws_compare *c)
{
    ws_compare_free(c);
    ws_measured_free(m);
    ws_simrun_free(s);
}

static void test_mismatch(void **state)
{
    struct ws_simrun s;
    struct ws_measured m;
    struct ws_compare c;
    double sum = 0;
    size_t n = 0, flagged = 0, order[16];

    (void)state;
    compare_files(&s, &m, &c, "tests/data/compare/accelsim.log");
    for (size_t j = 0; j < c.nmetrics; j++) {
        int l1 = strcmp(c.metrics[j].name,
                        "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate."
                        "pct")
                 == 0;
        /* Accel-Sim's L1D totals count stores: that row only is flagged */
        assert_int_equal(c.metrics[j].mismatch != NULL, l1);
        if (l1) {
            flagged++;
            assert_non_null(strstr(c.metrics[j].mismatch, "stores"));
        } else if (!isnan(c.metrics[j].mape)) {
            sum += c.metrics[j].mape;
            n++;
        }
    }
    assert_int_equal(flagged, 1);
    assert_int_equal(c.n_flagged, 1);
    assert_int_equal(c.n_mean, n);
    ws_test_near(c.mean_mape, sum / (double)n, "mean MAPE without L1");
    /* an Accel-Sim log gives no SM clock metric */
    assert_true(isnan(c.meas_mhz));
    ws_test_near(c.sim_mhz, 1980, "simulated clock");
    /* rows by |diff|: never a smaller one before a larger */
    assert_int_equal(ws_compare_order_pair(&c, 0, WS_CMP_SORT_ERROR, order), 0);
    for (size_t i = 1; i < c.nmetrics; i++) {
        const struct ws_compare_cell *x = ws_compare_cell(&c, 0, order[i - 1]);
        const struct ws_compare_cell *y = ws_compare_cell(&c, 0, order[i]);
        assert_true(isnan(y->diff_pct)
                    || fabs(x->diff_pct) >= fabs(y->diff_pct));
    }
    compare_free(&s, &m, &c);

    /* the same L1 hit rate of an Nsight export is defined alike */
    compare_files(&s, &m, &c, "tests/data/compare/ncu_small.csv");
    assert_int_equal(c.n_flagged, 0);
    for (size_t j = 0; j < c.nmetrics; j++)
        assert_null(c.metrics[j].mismatch);
    /* the export's clock: the mean of its kernels' */
    assert_true(fabs(c.meas_mhz - 1590.3) < 0.1);
    assert_string_equal(c.meas_clock, "gpc__cycles_elapsed.avg.per_second");
    compare_free(&s, &m, &c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sort),
        cmocka_unit_test(test_simrun_extra),
        cmocka_unit_test(test_simrun_prov_errors),
        cmocka_unit_test(test_simdiff),
        cmocka_unit_test(test_simdiff_provenance),
        cmocka_unit_test(test_simdiff_filter),
        cmocka_unit_test(test_mismatch),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
