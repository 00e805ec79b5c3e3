/*
 * ws_model_eval: any built-in model, through its definition
 * (ws_model_def.h): its inputs from a profile, its evaluation, the check
 * that a prediction is a number of cycles, and the elasticity of the
 * prediction to each input.
 *
 * Leaves out: the list of models (ws_model_table.c) and the equations
 * (ws_model_*.c).
 */
#include "ws_model_def.h"

#include <math.h>
#include <string.h>

#include "ws_model.h"

double ws_model_field_get(const union ws_model_params *in,
                          const struct ws_model_field *f)
{
    return *(const double *)(const void *)((const char *)in + f->offset);
}

double *ws_model_field_ptr(union ws_model_params *in,
                           const struct ws_model_field *f)
{
    return (double *)(void *)((char *)in + f->offset);
}

void ws_model_params_for(const struct ws_model_def *m,
                         const struct ws_profile *p, const struct ws_gpu *g,
                         int l2_may_be_warm, union ws_model_params *out)
{
    memset(out, 0, sizeof *out);
    m->derive(p, g, l2_may_be_warm, out);
}

/* The largest prediction given, and intermediate: beyond, a number is
 * an overflow of absurd inputs, not a time (and 10 printed digits of
 * 1.79e308 would read back as infinity). */
#define WS_MODEL_MAX_CYCLES 1e18
#define WS_MODEL_MAX_VAR 1e300

/* Finite inputs can still overflow (1e308 cycles of latency) or vanish
 * (a bandwidth of 1e-308): no number that is not a finite, non-negative
 * count of cycles is ever given as a prediction. */
static void ws_model_check_finite(struct ws_model_result *r)
{
    if (!r->applies)
        return;
    for (int i = 0; i < r->nvars; i++)
        if (!isfinite(r->vars[i].value)
            || fabs(r->vars[i].value) > WS_MODEL_MAX_VAR) {
            ws_model_skip(r,
                          "%s overflows (expected parameters of ordinary "
                          "magnitude)",
                          r->vars[i].name);
            return;
        }
    if (!isfinite(r->cycles) || r->cycles < 0
        || r->cycles > WS_MODEL_MAX_CYCLES)
        ws_model_skip(r, "the prediction is not a number of cycles from 0 "
                         "to 1e18 (expected parameters of ordinary "
                         "magnitude)");
}

/* Whether a result is a bound is the definition's to say, so that every
 * report asks it rather than the model's name. */
static void ws_model_eval_once(const struct ws_model_def *m,
                               const union ws_model_params *in,
                               struct ws_model_result *r)
{
    m->evaluate(in, r);
    r->bound = m->bound;
    ws_model_check_finite(r);
}

/* The prediction at one input scaled by f, or NaN where it does not
 * apply. */
static double ws_model_scaled(const struct ws_model_def *m,
                              const union ws_model_params *in,
                              const struct ws_model_field *f, double scale)
{
    union ws_model_params x = *in;
    struct ws_model_result r;

    *ws_model_field_ptr(&x, f) *= scale;
    ws_model_eval_once(m, &x, &r);
    return r.applies && r.cycles > 0 ? r.cycles : NAN;
}

/* Elasticities by central differences at +-1 %: how many percent the
 * prediction moves per percent of an input, the local slope of
 * ln(cycles) on ln(input).  Inputs at 0, those whose step leaves the
 * model's domain of application, and those where the model is not smooth
 * (a ceiling such as eq 18's warps per block, a case boundary: the slopes
 * up and down differ by more than a tenth) have none, rather than the
 * step's jump read as a slope. */
static void ws_model_elasticities(const struct ws_model_def *m,
                                  const union ws_model_params *in,
                                  struct ws_model_result *r)
{
    const double h = 0.01;
    const struct ws_model_field *f = m->fields;

    r->nelast = 0;
    if (!r->applies || r->cycles <= 0)
        return;
    for (int i = 0; i < m->nfields && r->nelast < WS_MODEL_MAX_ELAST; i++) {
        double up, down;
        if (!(ws_model_field_get(in, &f[i]) > 0))
            continue;
        up = ws_model_scaled(m, in, &f[i], 1 + h);
        down = ws_model_scaled(m, in, &f[i], 1 - h);
        if (isnan(up) || isnan(down))
            continue;
        {
            double eu = log(up / r->cycles) / log(1 + h);
            double ed = log(r->cycles / down) / -log(1 - h);
            if (fabs(eu - ed) > 0.1 * fmax(fmax(fabs(eu), fabs(ed)), 0.1))
                continue;
        }
        r->elast[r->nelast].name = f[i].name;
        r->elast[r->nelast].value = (log(up) - log(down))
                                    / (log(1 + h) - log(1 - h));
        r->nelast++;
    }
}

void ws_model_eval(const struct ws_model_def *m,
                   const union ws_model_params *in, struct ws_model_result *r)
{
    ws_model_eval_once(m, in, r);
    ws_model_elasticities(m, in, r);
}

void ws_model_run_all(const struct ws_profile *p, const struct ws_gpu *g,
                      int l2_may_be_warm, struct ws_model_result *out)
{
    union ws_model_params in;

    for (int k = 0; k < ws_model_count(); k++) {
        ws_model_params_for(ws_model_nth(k), p, g, l2_may_be_warm, &in);
        ws_model_eval(ws_model_nth(k), &in, &out[k]);
    }
}
