/*
 * ws_simrun: the JSON `warpsim run --json FILE` writes, read back as the
 * simulated side of a comparison: per kernel in launch order, its id,
 * its (mangled) name and the metrics a measurement can hold it against.
 *
 * The metrics of a kernel: every counter, under its Nsight Compute name
 * with its unit ("gpc__cycles_elapsed.max", cycle); "time_us", the
 * derived kernel time at the SM clock (us); and every derived figure
 * named as Nsight names it (the hit rates "...hit_rate.pct", the achieved
 * occupancy "sm__warps_active.avg.pct_of_peak_sustained_active", in %).
 * The other derived figures (ipc, utilisations, DRAM bandwidth) have no
 * counterpart in a measurement and are left out.  Order: the cycles,
 * time_us, then the counters and the Nsight-named derived figures as the
 * file lists them.
 *
 * The file is checked as it is read: a JSON syntax error, or a document
 * that is not a run's (no "kernels", a kernel without "counters" as
 * `trace info --json` writes, a value of the wrong type, a counter or a
 * kept figure below 0: no count, time or rate is negative), is one error
 * at the line and byte column of the offending value.  So are a launch
 * id twice (a kernel copied, or two runs joined; naming both kernels when
 * they differ), a counter's unit of another dimension than its Nsight
 * name gives it (dram__bytes_read.sum in cycles) or scaled (Kbyte: values
 * are compared as they are), and a counter in two units in two kernels.
 *
 * Leaves out: the models, the occupancy and launch records.
 */
#ifndef WS_SIMRUN_H
#define WS_SIMRUN_H

#include <stddef.h>

#include "util/ws_err.h"

struct ws_simrun_metric {
    char *name;
    char *unit; /* "cycle", "byte", "%", "us", "" when none */
    double value;
};

struct ws_simrun_kernel {
    long long id; /* launch order, from 1 */
    char *name;   /* as the trace names it, mangled */
    char *base;   /* ws_kname_base(name) */
    size_t nmetrics;
    struct ws_simrun_metric *metrics;
};

struct ws_simrun {
    char *name; /* the path, for messages */
    char *gpu;  /* the config's name, "" when absent */
    size_t nkernels;
    struct ws_simrun_kernel *kernels;
};

/* Reads the file at path.  An I/O failure is left unplaced for the caller
 * (ws_err_place_arg); anything about the content is placed in the file. */
int ws_simrun_load(struct ws_simrun *s, const char *path, struct ws_err *err);

/* The same from memory; name is used in messages. */
int ws_simrun_parse(struct ws_simrun *s, const char *name, const char *text,
                    size_t len, struct ws_err *err);

void ws_simrun_free(struct ws_simrun *s);

#endif
