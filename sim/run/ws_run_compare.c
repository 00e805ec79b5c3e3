/*
 * ws_run_compare: a simulation held against measurements, or against
 * another simulation (see ws_run_compare.h).
 *
 * Leaves out: the comparisons (measure/) and their layouts (report/).
 */
#include "ws_run_compare.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "measure/ws_compare.h"
#include "report/ws_compare_json.h"
#include "report/ws_compare_plot.h"
#include "measure/ws_simdiff.h"
#include "report/ws_compare_text.h"
#include "report/ws_simdiff_json.h"
#include "report/ws_simdiff_text.h"

/* Reads both sides (I/O errors placed at their paths). */
static int ws_run_compare_load(const struct ws_run_compare_request *rq,
                               struct ws_simrun *s, struct ws_measured *m,
                               struct ws_err *err)
{
    if (ws_simrun_load(s, rq->sim, err) < 0) {
        ws_err_place_arg(err, rq->sim);
        return -1;
    }
    if (ws_measured_load(m, rq->meas, err) < 0) {
        ws_err_place_arg(err, rq->meas);
        ws_simrun_free(s);
        return -1;
    }
    return 0;
}

/* The JSON as text, indented and in order, as every --json is. */
static char *ws_run_compare_dump(json_t *root)
{
    char *text = root ? json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER
                                             | JSON_REAL_PRECISION(10))
                      : NULL;

    json_decref(root);
    return text;
}

static int ws_run_compare_make(const struct ws_run_compare_request *rq,
                               const struct ws_compare *c,
                               struct ws_run_compared *out, struct ws_err *err)
{
    out->text = ws_compare_text(c, rq->sort);
    if (!out->text)
        return ws_err_oom(err);
    if (rq->plot && !(out->svg = ws_compare_svg(c, err))) {
        ws_err_place_arg(err, rq->plot);
        return -1;
    }
    if (rq->json
        && !(out->json = ws_run_compare_dump(
                 ws_compare_json(c, rq->kernel, rq->sort))))
        return ws_err_oom(err);
    return 0;
}

/* Two runs: the second file is a run's JSON too. */
static int ws_run_compare_runs(const struct ws_run_compare_request *rq,
                               struct ws_run_compared *out, struct ws_err *err)
{
    struct ws_simrun a, b;
    struct ws_simdiff d;
    int rc;

    if (rq->plot)
        return ws_err_arg(err, rq->plot, 0, 0,
                          "--plot draws simulated against "
                          "measured values, and two runs have no measured "
                          "side (expected --plot with MEASURED, an Nsight "
                          "Compute CSV or an Accel-Sim log)");
    if (ws_simrun_load(&a, rq->sim, err) < 0) {
        ws_err_place_arg(err, rq->sim);
        return -1;
    }
    if (ws_simrun_load(&b, rq->meas, err) < 0) {
        ws_err_place_arg(err, rq->meas);
        ws_simrun_free(&a);
        return -1;
    }
    rc = ws_simdiff_run(&d, &a, &b, rq->re, err);
    if (rc < 0)
        ws_err_place_arg(err, rq->kernel ? rq->kernel : rq->meas);
    if (rc == 0 && !(out->text = ws_simdiff_text(&d, rq->sort)))
        rc = ws_err_oom(err);
    if (rc == 0 && rq->json
        && !(out->json = ws_run_compare_dump(
                 ws_simdiff_json(&d, rq->kernel, rq->sort))))
        rc = ws_err_oom(err);
    if (rc < 0)
        ws_run_compared_free(out);
    ws_simdiff_free(&d);
    ws_simrun_free(&b);
    ws_simrun_free(&a);
    return rc;
}

int ws_run_compare(const struct ws_run_compare_request *rq,
                   struct ws_run_compared *out, struct ws_err *err)
{
    struct ws_simrun s;
    struct ws_measured m;
    struct ws_compare c;
    int rc;

    memset(out, 0, sizeof *out);
    if (ws_simrun_sniff(rq->meas))
        return ws_run_compare_runs(rq, out, err);
    if (ws_run_compare_load(rq, &s, &m, err) < 0)
        return -1;
    rc = ws_compare_run(&c, &s, &m, rq->re, err);
    if (rc < 0)
        ws_err_place_arg(err, rq->kernel ? rq->kernel : rq->meas);
    if (rc == 0)
        rc = ws_run_compare_make(rq, &c, out, err);
    if (rc < 0)
        ws_run_compared_free(out);
    ws_compare_free(&c);
    ws_measured_free(&m);
    ws_simrun_free(&s);
    return rc;
}

void ws_run_compared_free(struct ws_run_compared *out)
{
    free(out->text);
    free(out->json);
    free(out->svg);
    memset(out, 0, sizeof *out);
}
