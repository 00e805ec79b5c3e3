/*
 * ws_test: shared test helpers (see ws_test.h).
 */
#include "ws_test.h"

#include "config/ws_config.h"
#include "listing/ws_sass.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/ws_input.h"
#include "timing/ws_probe.h"
#include "ws_model.h"
#include "ws_profile.h"

void ws_test_err(const struct ws_err *err, const char *name, long line,
                 const char *want)
{
    char prefix[512];
    const char *p;

    if (!err->set)
        fail_msg("expected an error containing '%s', got none", want);
    if (!strstr(err->text, want))
        fail_msg("error '%s' does not contain '%s'", err->text, want);
    snprintf(prefix, sizeof prefix, "%s:", name);
    if (strncmp(err->text, prefix, strlen(prefix)) != 0)
        fail_msg("error '%s' does not start with '%s'", err->text, prefix);
    p = err->text + strlen(prefix);
    if (line > 0) {
        char num[32];
        snprintf(num, sizeof num, "%ld:", line);
        if (strncmp(p, num, strlen(num)) != 0)
            fail_msg("error '%s' is not at line %ld", err->text, line);
    }
    if (!strstr(err->text, "(expected "))
        fail_msg("error '%s' does not say what was expected", err->text);
    if (strchr(err->text, '\n'))
        fail_msg("error '%s' spans lines", err->text);
}

char *ws_test_read(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    char *buf;
    long n;

    if (!fp)
        fail_msg("cannot open %s", path);
    fseek(fp, 0, SEEK_END);
    n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
    buf[n] = '\0';
    fclose(fp);
    if (len)
        *len = (size_t)n;
    return buf;
}

void ws_test_near(double got, double want, const char *what)
{
    if (!(fabs(got - want) <= 1e-9 * fmax(1.0, fabs(want))))
        fail_msg("%s: got %.12g, want %.12g", what, got, want);
}

void ws_test_model_var(const struct ws_model_result *r, const char *name,
                       double want, double tol)
{
    double got = ws_model_get(r, name);

    if (tol < 0)
        tol = 1e-9 * fmax(1.0, fabs(want));
    if (!(fabs(got - want) <= tol))
        fail_msg("%s: %s = %.12g, want %.12g (+- %g)", r->model, name, got,
                 want, tol);
}

void ws_test_profile(const char *path, const char *gpu, const char *const *sets,
                     int nsets, struct ws_profile *p, struct ws_gpu *g)
{
    struct ws_input_params ip;
    struct ws_input *in;
    struct ws_input_kernel k;
    struct ws_err err;
    const struct ws_cta_stream *cta;
    int rc;

    ws_err_clear(&err);
    if (ws_cfg_load(g, gpu, NULL, 0, &err) < 0 || ws_probe_model(g, &err) < 0)
        fail_msg("%s", err.text);
    memset(&ip, 0, sizeof ip);
    ip.sets = sets;
    ip.nsets = nsets;
    ws_trace_opts_default(&ip.opts);
    if (ws_input_open(&in, path, &ip, &err) < 0)
        fail_msg("%s", err.text);
    assert_int_equal(ws_input_kernel_open(in, 0, &k, &err), 0);
    assert_int_equal(ws_profile_init(p, k.src.launch, g), 0);
    while ((rc = k.src.next(k.src.ctx, &cta, &err)) == 1)
        ws_profile_add_cta(p, cta, k.src.ops);
    assert_int_equal(rc, 0);
    ws_input_kernel_close(&k);
    ws_input_close(in);
}

void ws_test_config(struct ws_gpu *g, const char *name)
{
    struct ws_err err;

    ws_err_clear(&err);
    if (ws_cfg_load(g, name, NULL, 0, &err) < 0)
        fail_msg("%s", err.text);
}

void ws_test_sass(struct ws_sass *s, const char *path)
{
    struct ws_err err;

    ws_err_clear(&err);
    if (ws_sass_load(s, path, NULL, &err) < 0)
        fail_msg("%s", err.text);
}
