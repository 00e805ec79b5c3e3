/*
 * ws_run: an input opened, simulated and reported on (see ws_run.h).
 */
#include "ws_run.h"

#include <string.h>

int ws_run_open(const struct ws_run_request *rq, struct ws_input **in,
                struct ws_err *err)
{
    if (ws_input_open(in, rq->input, &rq->params, err) < 0)
        return -1;
    if (ws_input_is_static(*in)) {
        ws_input_close(*in);
        *in = NULL;
        return ws_err_at(err, rq->input, 1, 1,
                         "a SASS listing has no "
                         "dynamic instruction stream to simulate (expected "
                         "a kernelslist.g or a .traceg; listings need a "
                         "workload description)");
    }
    return 0;
}

/* A selection that skipped every kernel: the user named something the
 * trace does not have, which an empty report would hide. */
static int ws_run_none_picked(const struct ws_run_request *rq,
                              struct ws_err *err)
{
    const struct ws_run_select *sel = rq->sel;

    return ws_err_arg(err, sel->given, 0, 0,
                      "no kernel of %s %s '%s' "
                      "(expected a launch id or name the trace has; "
                      "'warpsim trace info' lists them)",
                      rq->input,
                      sel->by_id ? "has launch id" : "has a name matching",
                      sel->given);
}

int ws_run_simulate(const struct ws_run_request *rq, struct ws_input *in,
                    struct ws_run_report *rep, struct ws_err *err)
{
    struct ws_sim sim;
    int rc;

    memset(rep, 0, sizeof *rep);
    rep->input = rq->input;
    rep->gpu = rq->gpu;
    rep->ext = rq->ext;
    if (ws_run_engine_prepare(rep, in, err) < 0)
        return -1;
    if (ws_sim_init(&sim, rq->gpu, &rq->hooks, err) < 0) {
        ws_run_engine_free(rep);
        return -1;
    }
    rc = ws_run_engine_list(&sim, in, rep, rq->kernel_no, rq->sel, err);
    if (rc == 0 && rep->nkernels == 0 && rq->sel && rq->sel->given)
        rc = ws_run_none_picked(rq, err);
    ws_sim_free(&sim);
    if (rc < 0)
        ws_run_engine_free(rep);
    return rc;
}

int ws_run_input(const struct ws_run_request *rq, struct ws_run_report *rep,
                 struct ws_err *err)
{
    struct ws_input *in;
    int rc;

    memset(rep, 0, sizeof *rep);
    if (ws_run_open(rq, &in, err) < 0)
        return -1;
    rc = ws_run_simulate(rq, in, rep, err);
    ws_input_close(in);
    return rc;
}

void ws_run_free(struct ws_run_report *rep)
{
    ws_run_engine_free(rep);
}
