/*
 * ws_study_run: a study of `warpsim validate` (one row of the table in
 * validate/ws_studies.c) run as a call: its sweeps through ws_sweep_run,
 * then its analysis, charts and report into DIR/NAME/.
 *
 * Leaves out: which studies there are and what they compute
 * (validate/ws_study.h), options and printing (cli/cmd_validate.c).
 */
#ifndef WS_STUDY_RUN_H
#define WS_STUDY_RUN_H

#include <stdio.h>

#include "sweep/ws_sweep.h"
#include "util/ws_err.h"
#include "validate/ws_study.h"

struct ws_study_request {
    const char *dir;  /* the studies' folders go in DIR/NAME;
                                   NULL: validate/out */
    const char *word; /* where errors about the default folder
                                   are placed: the command's name */
    int quick;        /* S.quick.yaml; sweeps without one left out */
    long jobs;        /* worker processes per sweep; 0: per core */
    const char *models[WS_SWEEP_MAX_MODELS]; /* NAME=COMMAND, run and
                                                   scored at every point */
    int nmodels;
    FILE *say, *log; /* the sweeps' streams (ws_sweep_run.h) */
    int progress;    /* the sweeps' progress line on stderr */
};

/* The folder the studies' folders go in: rq->dir or validate/out. */
const char *ws_study_root(const struct ws_study_request *rq);

/* -1 with err unless the current folder holds validate/studies (the
 * source root): elsewhere every sweep would be missing. */
int ws_study_check_root(const struct ws_study_request *rq, struct ws_err *err);

/* Runs study d: 0 with its files in ROOT/NAME/ (report.md among them); 1
 * when a sweep was interrupted (the finished points stay; the command
 * exits 130); -1 with err, the study's folders left only if they hold
 * something. */
int ws_study_run(const struct ws_study_request *rq,
                 const struct ws_study_def *d, struct ws_err *err);

#endif
