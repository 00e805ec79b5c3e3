/*
 * ws_sweep_points: a sweep's points as its file defines them (see
 * ws_sweep.h): the inputs of point p (its digits, one per axis or zip
 * group), the rule that each point is there once, and the files the
 * points read.
 *
 * Leaves out: reading the file (ws_sweep_file.c), keying and checking the
 * points against the config and workload (ws_sweep_prep.c).
 */
#include "ws_sweep.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Values i and j of axis a are one value: a number compared in the base
 * unit (12MiB is 12582912), text as written. */
static int ws_sweep_same_value(const struct ws_axis *a, size_t i, size_t j)
{
    const struct ws_axis_value *x = &a->values[i], *y = &a->values[j];

    return isnan(x->num) ? strcmp(x->assign, y->assign) == 0
                         : strcmp(x->cell, y->cell) == 0;
}

/* One value twice on a digit (an axis's, or a zip group's tuple) is one
 * point twice: two rows under one key.  Reported at the second value of
 * the digit's first axis. */
int ws_sweep_repeats(const struct ws_sweep *s, const int *zipped,
                     struct ws_err *err)
{
    for (size_t d = 0; d < s->ndims; d++) {
        const struct ws_axis *first = NULL;
        for (size_t k = 0; k < s->naxes && !first; k++)
            if (s->axes[k].dim == d)
                first = &s->axes[k];
        for (size_t j = 1; first && j < first->nvalues; j++)
            for (size_t i = 0; i < j; i++) {
                int same = 1;
                for (size_t k = 0; k < s->naxes && same; k++)
                    if (s->axes[k].dim == d)
                        same = ws_sweep_same_value(&s->axes[k], i, j);
                if (same)
                    return ws_err_at(err, s->path, first->values[j].line,
                                     first->values[j].col,
                                     "%s gets '%s' "
                                     "twice, first at %ld:%ld%s (expected each "
                                     "value once)",
                                     first->name, first->values[j].cell,
                                     first->values[i].line,
                                     first->values[i].col,
                                     zipped[first - s->axes]
                                         ? ", with the "
                                           "same values of its zip group"
                                         : "");
            }
    }
    return 0;
}

void ws_sweep_point_get(const struct ws_sweep *s, size_t index,
                        struct ws_sweep_point *p)
{
    size_t digit[WS_SWEEP_MAX_AXES], rest = index;

    memset(p, 0, sizeof *p);
    p->index = index;
    for (size_t d = s->ndims; d-- > 0;) {
        digit[d] = rest % s->dim_size[d];
        rest /= s->dim_size[d];
    }
    p->gpu = s->gpu;
    for (size_t i = 0; i < s->nfixed_sets; i++)
        p->sets[p->nsets++] = s->fixed_sets[i];
    for (size_t i = 0; i < s->nfixed_params; i++)
        p->params[p->nparams++] = s->fixed_params[i];
    for (size_t i = 0; i < s->naxes; i++) {
        const struct ws_axis *a = &s->axes[i];
        const char *assign;
        p->value[i] = digit[a->dim];
        assign = a->values[p->value[i]].assign;
        if (a->kind == WS_AXIS_GPU)
            p->gpu = assign;
        else if (a->kind == WS_AXIS_SET)
            p->sets[p->nsets++] = assign;
        else
            p->params[p->nparams++] = assign;
    }
}

const char **ws_sweep_input_files(const struct ws_sweep *s, size_t *n)
{
    size_t cap = 4;
    const char **files;

    for (size_t i = 0; i < s->naxes; i++)
        if (s->axes[i].kind == WS_AXIS_GPU)
            cap += s->axes[i].nvalues;
    files = malloc(cap * sizeof *files);
    if (!files)
        return NULL;
    files[0] = s->path;
    files[1] = s->input;
    files[2] = s->gpu;
    files[3] = s->listing;
    *n = 4;
    for (size_t i = 0; i < s->naxes; i++)
        for (size_t j = 0;
             s->axes[i].kind == WS_AXIS_GPU && j < s->axes[i].nvalues; j++)
            files[(*n)++] = s->axes[i].values[j].assign;
    return files;
}
