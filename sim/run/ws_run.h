/*
 * ws_run: `warpsim run` as a library call.  An input is opened through
 * the front door (a listing alone is refused: it has nothing to run), the
 * kernels a selection picks are simulated in launch order on one GPU with
 * their models beside them (ws_run_engine.h), and the report comes back
 * for the caller to print or check.  A test runs an input the way the
 * command does, without starting a process.
 *
 * Leaves out: option parsing, outputs and progress lines (cli/run), the
 * timeline file (the caller opens it and passes it in the hooks), the
 * GPU config (loaded, and probed, by the caller).
 */
#ifndef WS_RUN_H
#define WS_RUN_H

#include <stddef.h>

#include "input/ws_input.h"
#include "report/ws_report.h"
#include "timing/ws_sim.h"
#include "util/ws_err.h"
#include "ws_run_engine.h"

struct ws_ext_models;

struct ws_run_request {
    const char *input;             /* the path, as the report names it */
    struct ws_input_params params; /* --param, --listing, limits */
    const struct ws_gpu *gpu;
    const struct ws_run_select *sel; /* NULL: every kernel */
    const struct ws_ext_models *ext; /* NULL: the built-in models only */
    struct ws_sim_opts hooks;        /* timeline, progress; zero: none */
    size_t *kernel_no;               /* kept at the kernel simulated,
                                           1-based, for progress; may be
                                           NULL */
};

/* Opens rq->input into *in as a run reads it; a listing alone is an
 * error at its first line.  An unplaced error (a file that cannot be
 * opened) is left for the caller to place at the command-line word. */
int ws_run_open(const struct ws_run_request *rq, struct ws_input **in,
                struct ws_err *err);

/* Simulates the opened input into *rep (zeroed here; rep->input, gpu and
 * ext from rq).  A selection that picks no kernel is an error at the
 * selection as typed (sel->given).  On failure rep holds nothing. */
int ws_run_simulate(const struct ws_run_request *rq, struct ws_input *in,
                    struct ws_run_report *rep, struct ws_err *err);

/* ws_run_open, ws_run_simulate and closing the input: the whole run. */
int ws_run_input(const struct ws_run_request *rq, struct ws_run_report *rep,
                 struct ws_err *err);

/* Frees what ws_run_simulate filled in. */
void ws_run_free(struct ws_run_report *rep);

#endif
