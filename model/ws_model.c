/*
 * ws_model: the result record the models share (see ws_model.h).
 */
#include "ws_model.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void ws_model_begin(struct ws_model_result *r, const char *model)
{
    memset(r, 0, sizeof *r);
    r->model = model;
    r->applies = 1;
    r->in_domain = 1;
}

void ws_model_var(struct ws_model_result *r, const char *name, double value)
{
    if (r->nvars == WS_MODEL_MAX_VARS)
        return;
    r->vars[r->nvars].name = name;
    r->vars[r->nvars].value = value;
    r->nvars++;
}

double ws_model_get(const struct ws_model_result *r, const char *name)
{
    for (int i = 0; i < r->nvars; i++)
        if (strcmp(r->vars[i].name, name) == 0)
            return r->vars[i].value;
    return NAN;
}

int ws_model_skip(struct ws_model_result *r, const char *fmt, ...)
{
    va_list ap;

    r->applies = 0;
    r->cycles = 0;
    va_start(ap, fmt);
    vsnprintf(r->why, sizeof r->why, fmt, ap);
    va_end(ap);
    return 0;
}

void ws_model_domain(struct ws_model_result *r, int ok, const char *fmt, ...)
{
    va_list ap;

    r->in_domain = ok;
    va_start(ap, fmt);
    vsnprintf(r->domain, sizeof r->domain, fmt, ap);
    va_end(ap);
}
