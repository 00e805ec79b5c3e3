/*
 * Unit tests of the model scoreboard (sim/validate/ws_sb*.c, study 5) on a
 * small table planted here, every expected number worked by hand: the
 * metrics, the domains kept apart, the bound scored as a bound, the
 * simulation's bottleneck, and the hardware beside the simulation.
 */
#include <math.h>
#include <string.h>

#include "util/ws_csv.h"
#include "validate/ws_sb.h"
#include "validate/ws_sb_stats.h"
#include "validate/ws_study.h"
#include "ws_test.h"

/* Four runs in the model's domain with model / simulation 1.1, 0.9, 1.5
 * and 1.0 (APE 0.1, 0.1, 0.5, 0): median 0.1 (the mean of the middle two),
 * MAPE 0.175; mean |ln| = (ln 1.1 + ln(1/0.9) + ln 1.5 + 0) / 4 =
 * (0.0953102 + 0.1053605 + 0.4054651) / 4 = 0.1515340, geometric-mean
 * error e^0.1515340 - 1 = 0.1636; mean ln = (0.0953102 - 0.1053605 +
 * 0.4054651) / 4 = 0.0988537, bias 0.1039.  Simulated 100, 200, 300, 400
 * against model 110, 180, 450, 400: ranks 1 2 4 3, Spearman 1 - 6 x 2 /
 * (4 x 15) = 0.8. */
static void test_metrics(void **state)
{
    const double model[] = {110, 180, 450, 400};
    const double sim[] = {100, 200, 300, 400};
    struct ws_sb_metrics s;

    (void)state;
    assert_int_equal(ws_sb_metrics(model, sim, 4, &s), 0);
    assert_int_equal(s.n, 4);
    ws_test_near(s.mdape, 0.1, "median APE");
    ws_test_near(s.mape, 0.175, "MAPE");
    assert_true(fabs(s.gme - (exp(0.151534) - 1)) < 1e-6);
    assert_true(fabs(s.bias - (exp(0.0988537) - 1)) < 1e-6);
    ws_test_near(s.spearman, 0.8, "Spearman");
    /* The bootstrap interval holds the estimate and lies within the
     * sample's range of APE. */
    assert_true(s.mdape_lo <= s.mdape && s.mdape <= s.mdape_hi);
    assert_true(s.mdape_lo >= 0 && s.mdape_hi <= 0.5);
    assert_true(s.gme_lo <= s.gme && s.gme <= s.gme_hi);
    /* No pairs: nothing to say, and no crash. */
    assert_int_equal(ws_sb_metrics(model, sim, 0, &s), 0);
    assert_true(isnan(s.mdape) && isnan(s.spearman));
}

/* The same four runs in a results table, with a fifth far off (model 50x
 * the simulation) outside the model's domain, a bound below every run,
 * and a sixth row that failed.  The fifth run is DRAM bound (70 % of
 * peak); the others wait on memory (long scoreboard) but for the second,
 * whose warps mostly wait on other warps' issue. */
static const char planted[] =
    "status,cycles,time_us,dram_pct_of_peak,"
    "smsp__warps_issue_stalled_long_scoreboard.sum,"
    "smsp__warps_issue_stalled_not_selected.sum,"
    "m_cycles,m_regime,m_domain,m_terms,m_elasticity,"
    "roof_cycles,roof_regime,roof_domain,roof_terms,roof_elasticity\n"
    "ok,100,1,10,50,10,110,x,in: d,a=1,k=1,50,DRAM bound,bound: b,,\n"
    "ok,200,2,10,10,50,180,x,in: d,a=1,k=1,50,DRAM bound,bound: b,,\n"
    "ok,300,3,10,50,10,450,x,in: d,a=1,k=2,50,DRAM bound,bound: b,,\n"
    "ok,400,4,10,50,10,400,x,in: d,a=1,k=3,50,DRAM bound,bound: b,,\n"
    "ok,500,5,70,50,10,25000,x,out: e,a=1,k=9,50,DRAM bound,bound: b,,\n"
    "failed,,,,,,,,,,,,,,,\n";

static void test_planted(void **state)
{
    struct ws_csv t;
    struct ws_err err;
    struct ws_study_out o;
    const struct ws_csv *tp[1];
    struct ws_sb sb;
    json_t *m;

    (void)state;
    ws_err_clear(&err);
    assert_int_equal(ws_csv_parse(&t, "out/study/plant.csv", planted,
                                  sizeof planted - 1, 0, 0, &err),
                     0);
    tp[0] = &t;
    assert_int_equal(ws_sb_collect(&sb, tp, 1, NULL, &err), 0);
    assert_int_equal(sb.nmodels, 2);
    assert_int_equal(sb.nruns, 5);
    assert_string_equal(sb.model[0].name, "m");
    assert_int_equal(sb.model[1].bound, 1);
    assert_string_equal(sb.run[0].study, "study");
    assert_string_equal(sb.run[0].bottleneck, "memory latency");
    assert_string_equal(sb.run[1].bottleneck, "issue");
    assert_string_equal(sb.run[4].bottleneck, "DRAM bandwidth");
    assert_int_equal(sb.run[4].pred[0].in_domain, 0);
    ws_test_near(ws_sb_cell_var(sb.run[2].pred[0].elast, "k"), 2, "k");
    ws_sb_free(&sb);

    assert_int_equal(ws_study_scoreboard(tp, 1, &o, &err), 0);
    m = json_object_get(json_object_get(o.summary, "models"), "m");
    assert_non_null(m);
    /* The run 50x off is reported apart, not pooled: the in-domain
     * metrics are test_metrics'. */
    ws_test_near(json_real_value(
                     json_object_get(json_object_get(m, "in_domain"),
                                     "median_ape")),
                 0.1, "in");
    ws_test_near(json_real_value(
                     json_object_get(json_object_get(m, "in_domain"), "mape")),
                 0.175, "in MAPE");
    assert_int_equal(json_integer_value(
                         json_object_get(json_object_get(m, "out_of_domain"),
                                         "runs")),
                     1);
    ws_test_near(json_real_value(
                     json_object_get(json_object_get(m, "out_of_domain"),
                                     "median_ape")),
                 49, "out");
    assert_non_null(strstr(o.report, "runs below it: 0"));
    assert_non_null(strstr(o.report, "| m | in its domain | 4 | 10.0 %"));
    ws_study_out_free(&o);
    ws_csv_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_metrics),
        cmocka_unit_test(test_planted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
