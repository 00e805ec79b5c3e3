/*
 * ws_run_compare: a simulation held against measurements (see
 * ws_run_compare.h).
 */
#include "ws_run_compare.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "measure/ws_compare.h"
#include "report/ws_compare_json.h"
#include "report/ws_compare_plot.h"
#include "report/ws_compare_text.h"

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
static char *ws_run_compare_json_text(const struct ws_compare *c,
                                      const char *kernel)
{
    json_t *root = ws_compare_json(c, kernel);
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
    out->text = ws_compare_text(c);
    if (!out->text)
        return ws_err_oom(err);
    if (rq->plot && !(out->svg = ws_compare_svg(c, err))) {
        ws_err_place_arg(err, rq->plot);
        return -1;
    }
    if (rq->json && !(out->json = ws_run_compare_json_text(c, rq->kernel)))
        return ws_err_oom(err);
    return 0;
}

int ws_run_compare(const struct ws_run_compare_request *rq,
                   struct ws_run_compared *out, struct ws_err *err)
{
    struct ws_simrun s;
    struct ws_measured m;
    struct ws_compare c;
    int rc;

    memset(out, 0, sizeof *out);
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
