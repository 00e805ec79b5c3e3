/*
 * ws_sweep: a design-space sweep: one kernel (trace or workload) run over
 * the product of axes of workload parameters, config keys and GPUs, each
 * point a pure function of its inputs.
 *
 * The sweep file (YAML, validated like a config: every error at the
 * file:line:col of the value at fault, before any point runs):
 *
 *   kernel: traces/kernels/saxpy/workload.yaml   # relative to this file
 *   gpu: titanx                 # built-in name or file; default v100
 *   params: {n: 1048576}        # fixed workload parameters
 *   set: {l2.latency: 200}      # fixed config overrides
 *   listing: saxpy.sm_90.sass   # optional: the workload over another SASS
 *   axes:                       # in order; the last one moves fastest
 *     param.stride: [1, 4, 8, 16]
 *     param.threads: {range: [32, 1024, 32]}     # first, last, step
 *     set.l2.size: [1MiB, 3MiB, 12MiB]
 *     set.dram.bandwidth: {geom: [100GB/s, 1600GB/s, 2]}   # first, last, factor
 *     gpu: [v100, a100]
 *   zip: [[param.stride, set.l2.size]]    # axes that move together
 *   plots:
 *     - {x: param.stride, y: cycles, series: set.l2.size, log: [x], file: s.svg}
 *   report: {target: cycles}
 *
 * Points are numbered in that order (a mixed-radix count over the axes,
 * a zip group counting as one digit), so a point's number, its inputs and
 * its results do not depend on how many workers ran it or in what order.
 *
 * Leaves out: running points (ws_sweep_pool.c), rows and files
 * (ws_sweep_rows.c), a sweep as one call (run/ws_sweep_run.h).
 */
#ifndef WS_SWEEP_H
#define WS_SWEEP_H

#include <stddef.h>
#include <stdint.h>

#include "trace/ws_traceg.h"
#include "util/ws_err.h"

#define WS_SWEEP_MAX_AXES 32
#define WS_SWEEP_MAX_VALUES 4096 /* per axis, ranges included */
#define WS_SWEEP_MAX_POINTS 1000000
#define WS_SWEEP_MAX_FIXED 128
#define WS_SWEEP_MAX_MODELS 8
/* Each plot is one gnuplot process at the end of the sweep. */
#define WS_SWEEP_MAX_PLOTS 32

enum ws_axis_kind {
    WS_AXIS_PARAM,
    WS_AXIS_SET,
    WS_AXIS_GPU
};

struct ws_axis_value {
    char *assign;   /* "name=value" for params and sets; the config
                               name or path for a GPU axis */
    char *cell;     /* the CSV cell: the number in the key's base
                               unit (bytes, MHz, GB/s, cycles), or text */
    double num;     /* that number; NaN for text */
    long line, col; /* where the sweep file writes it */
};

struct ws_axis {
    enum ws_axis_kind kind;
    char *name;         /* as written: "param.stride", "set.l2.size", "gpu" */
    const char *target; /* the part after "param." / "set." */
    struct ws_axis_value *values;
    size_t nvalues;
    long line, col; /* of the key */
    size_t dim;     /* the digit it moves with (zip groups share) */
};

struct ws_sweep_plot {
    char *x, *y, *series, *file, *title;
    int logx, logy;
    long line, col; /* of the plot's entry */
};

struct ws_sweep {
    char *path;    /* the sweep file, as given */
    char *input;   /* kernel:, resolved against the file's folder */
    char *gpu;     /* gpu:, a path when one exists there, else a name */
    char *listing; /* listing:, resolved; NULL when absent */
    char *fixed_params[WS_SWEEP_MAX_FIXED];      /* "name=value" */
    long fixed_params_at[WS_SWEEP_MAX_FIXED][2]; /* line, col */
    size_t nfixed_params;
    char *fixed_sets[WS_SWEEP_MAX_FIXED];
    long fixed_sets_at[WS_SWEEP_MAX_FIXED][2];
    size_t nfixed_sets;
    long input_line, input_col, gpu_line, gpu_col;
    struct ws_axis axes[WS_SWEEP_MAX_AXES];
    size_t naxes;
    size_t dim_size[WS_SWEEP_MAX_AXES]; /* values per digit */
    size_t ndims;
    size_t npoints;
    struct ws_sweep_plot *plots;
    size_t nplots;
    /* External models (models: NAME: COMMAND, and the command line's
     * --model): "NAME=COMMAND", run in models_dir (the sweep file's folder
     * for the file's, NULL: the current one for the command line's). */
    char *models[WS_SWEEP_MAX_MODELS];
    char *models_dir[WS_SWEEP_MAX_MODELS];
    long models_at[WS_SWEEP_MAX_MODELS][2]; /* line, col; 0 from argv */
    size_t nmodels;
    char *target; /* report target column; "cycles" by default */
    long target_line, target_col; /* where report: names it; 0 if not */
};

/* The models: key, a mapping NAME: COMMAND (ws_sweep_models.c). */
struct ws_ynode;
int ws_sweep_models_key(struct ws_sweep *s, const struct ws_ynode *e,
                        struct ws_err *err);
/* Adds "NAME=COMMAND" from the command line. */
int ws_sweep_models_add(struct ws_sweep *s, const char *spec,
                        struct ws_err *err);
/* NAME of model i, its length in *len. */
const char *ws_sweep_model_name(const struct ws_sweep *s, size_t i,
                                size_t *len);

/* Parses and checks the file's shape (keys, value kinds, ranges, zips).
 * Values are checked against the config and workload by
 * ws_sweep_validate, which needs them loaded. */
int ws_sweep_load(struct ws_sweep *s, const char *path, struct ws_err *err);
void ws_sweep_free(struct ws_sweep *s);

/* The inputs of one point: which value of each axis. */
struct ws_sweep_point {
    size_t index;
    size_t value[WS_SWEEP_MAX_AXES];
    /* What `warpsim run` would be given: --gpu, --set and --param. */
    const char *gpu;
    const char *sets[WS_SWEEP_MAX_FIXED + WS_SWEEP_MAX_AXES];
    int nsets;
    const char *params[WS_SWEEP_MAX_FIXED + WS_SWEEP_MAX_AXES];
    int nparams;
};

void ws_sweep_point_get(const struct ws_sweep *s, size_t index,
                        struct ws_sweep_point *p);

/* -1, at the second value of the digit's first axis, when a digit (an
 * axis, or a zip group's tuple, zipped[axis] set) holds one value twice:
 * the same point twice.  Part of ws_sweep_load. */
int ws_sweep_repeats(const struct ws_sweep *s, const int *zipped,
                     struct ws_err *err);

/* The files a sweep reads that its outputs must not replace: the sweep
 * file, kernel:, gpu:, listing: (NULL entries where absent) and every
 * value of a GPU axis.  malloc'd, *n entries; NULL when out of memory. */
const char **ws_sweep_input_files(const struct ws_sweep *s, size_t *n);

/* What the points of one sweep share while they are prepared and run. */
struct ws_gpu;
struct ws_input;
struct ws_sweep_ctx {
    const struct ws_sweep *s;
    struct ws_trace_opts topts; /* limits for every point */
    int hashed;                 /* input_hash holds the input's files */
    uint64_t input_hash[2];
    /* What points read instead of s->input when not NULL: a text trace
     * packed once for the whole sweep (keys still hash s->input's files). */
    const char *run_input;
};

/* Checks every value of every axis on its own (with the fixed settings
 * and no other axis), and the fixed settings alone, as each point's run
 * will load them: an error is placed at the sweep file's value, before any
 * point runs.  What only a combination breaks is the point's failure. */
int ws_sweep_validate(struct ws_sweep_ctx *c, struct ws_err *err);

/* The point's config and input, opened as its run opens them. */
int ws_sweep_open_point(const struct ws_sweep_ctx *c,
                        const struct ws_sweep_point *p, struct ws_gpu *gpu,
                        struct ws_input **in, struct ws_err *err);

/* The point's key (32 hex digits): a hash of everything its result
 * depends on: warpsim's version, the effective config as printed, the
 * bytes of every input file and the workload's resolved parameters.  A
 * point that cannot run gets *why (its error line, malloc'd) and a key
 * from its settings' text.  -1 only for internal failures. */
int ws_sweep_prepare(struct ws_sweep_ctx *c, size_t index, char key[33],
                     char **why, struct ws_err *err);

/* 1 when point index belongs to share i of k (round robin, so expensive
 * neighbouring points spread over the shares); k 0 or 1: one share. */
static inline int ws_sweep_in_share(size_t index, size_t i, size_t k)
{
    return k <= 1 || index % k == i;
}

#endif
