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
 * counterpart in a measurement: they are kept apart ("extra"), for
 * comparing two runs.  Order: the cycles, time_us, then the counters and
 * the Nsight-named derived figures as the file lists them.  A derived
 * figure the run gives as null (a hit rate without an access) is absent.
 *
 * Also kept, for comparing two runs: total_cycles and the "provenance"
 * object (warpsim's version and commit, the config as named, its --set
 * overrides and hash, the --params, every input with its XXH3-128).  A
 * run written before 0.6.0 has none; one present is checked as the rest
 * (a string where a string belongs, an input with a path and a hash).
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
 * Leaves out: the models, the occupancy and launch records, the
 * warnings.
 */
#ifndef WS_SIMRUN_H
#define WS_SIMRUN_H

#include <stddef.h>

#include "util/ws_err.h"

struct ws_simrun_metric {
    char *name;
    char *unit; /* "cycle", "byte", "%", "us", "" when none */
    double value;
    int derived; /* a figure of "derived", not a counter */
};

struct ws_simrun_kernel {
    long long id; /* launch order, from 1 */
    char *name;   /* as the trace names it, mangled */
    char *base;   /* ws_kname_base(name) */
    size_t nmetrics;
    struct ws_simrun_metric *metrics;
    size_t nextra; /* the derived figures no measurement has */
    struct ws_simrun_metric *extra;
};

/* An input file of the run, as its provenance lists it. */
struct ws_simrun_input {
    char *path;
    long long bytes; /* -1 when not given */
    char *hash;      /* XXH3-128 in hex */
};

/* What produced the run; strings "" and lists empty when not given. */
struct ws_simrun_prov {
    int present; /* the file has a "provenance" object */
    char *version, *commit, *config, *config_hash;
    size_t noverrides, nparams, ninputs;
    char **overrides; /* the --set options, KEY=VALUE */
    char **params;    /* the --param options, NAME=VALUE */
    struct ws_simrun_input *inputs;
};

struct ws_simrun {
    char *name;          /* the path, for messages */
    char *gpu;           /* the config's name, "" when absent */
    char *input;         /* the input run was given, "" when absent */
    double total_cycles; /* NAN when absent */
    struct ws_simrun_prov prov;
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

/* Whether the file at path holds a JSON object (its first byte past
 * blanks and a byte order mark is '{'): a run's JSON rather than
 * measurements.  0 for anything else, a file that cannot be read
 * included (its reader says why). */
int ws_simrun_sniff(const char *path);

/* The SM clock of the run in MHz, from a kernel's cycles over its time;
 * NAN when no kernel has both. */
double ws_simrun_clock_mhz(const struct ws_simrun *s);

#endif
