/*
 * libFuzzer target: sweep files (YAML shape, axes, ranges, zip groups,
 * plots) and the point numbering.  The input is loaded with
 * ws_sweep_load only: ws_sweep_validate opens the configs and inputs the
 * file names, which would turn the fuzzer loose on the file system.
 * A few points (the first, the last and one between) are enumerated, so
 * the mixed-radix count and the zip digits are exercised too.
 */
#include <stdint.h>
#include <stdio.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_tmp.h"
#include "sweep/ws_sweep.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Every value a point names must be one of its axis's. */
static void fuzz_sweep_points(const struct ws_sweep *s)
{
    static struct ws_sweep_point p;
    size_t at[3] = {0, s->npoints / 2, s->npoints - 1};

    for (int k = 0; k < 3; k++) {
        ws_sweep_point_get(s, at[k], &p);
        for (size_t i = 0; i < s->naxes; i++)
            if (p.value[i] >= s->axes[i].nvalues
                || !s->axes[i].values[p.value[i]].assign)
                __builtin_trap();
        if (p.nsets > WS_SWEEP_MAX_FIXED + WS_SWEEP_MAX_AXES
            || p.nparams > WS_SWEEP_MAX_FIXED + WS_SWEEP_MAX_AXES)
            __builtin_trap();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    struct ws_sweep s;
    struct ws_err err;

    if (fuzz_tmp_write("sweep", data, size, path, sizeof path) < 0)
        return 0;
    ws_err_clear(&err);
    if (ws_sweep_load(&s, path, &err) == 0) {
        if (s.npoints == 0 || s.npoints > WS_SWEEP_MAX_POINTS)
            __builtin_trap();
        fuzz_sweep_points(&s);
    } else if (!err.set || strchr(err.text, '\n')) {
        __builtin_trap(); /* a failure always says why, on one line */
    }
    ws_sweep_free(&s);
    remove(path);
    return 0;
}
