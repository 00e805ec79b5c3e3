/*
 * ws_run_model: a model's parameters read from a YAML file (see
 * ws_run_model.h).
 */
#include "ws_run_model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/ws_file.h"
#include "util/ws_yaml.h"

/* A parameters file is a short mapping; anything near this is a mistake
 * (a trace given in its place), not parameters. */
#define WS_RUN_MODEL_MAX_FILE (1u << 20)

static int ws_run_model_unknown(const struct ws_ynode *n,
                                const struct ws_model_def *m,
                                const struct ws_model_field *f, int nf,
                                struct ws_err *err)
{
    char names[512];
    size_t len = 0;

    names[0] = '\0';
    for (int k = 0; k < nf && len < sizeof names; k++)
        len += (size_t)snprintf(names + len, sizeof names - len, "%s%s",
                                k ? ", " : "", f[k].name);
    return ws_err_at(err, n->file, n->key_line, n->key_col,
                     "unknown "
                     "parameter '%.64s' for %s (expected one of %s)",
                     n->key, m->name, names);
}

/* A plain decimal number: no leading blanks, no hexadecimal, nothing
 * strtod would read but a person would not write as a parameter. */
static int ws_run_model_plain(const char *s)
{
    if (!(*s == '-' || *s == '+' || *s == '.' || (*s >= '0' && *s <= '9')))
        return 0;
    for (; *s; s++)
        if (!((*s >= '0' && *s <= '9') || *s == '.' || *s == 'e' || *s == 'E'
              || *s == '-' || *s == '+'))
            return 0;
    return 1;
}

static int ws_run_model_value(const struct ws_ynode *n, double *out,
                              struct ws_err *err)
{
    char *end;

    if (n->kind != WS_YNODE_SCALAR || !n->value[0])
        return ws_err_at(err, n->file, n->line, n->col,
                         "parameter '%s' is "
                         "not a number (expected a value such as 420 or "
                         "2.5e3)",
                         n->key);
    *out = strtod(n->value, &end);
    if (*end || !isfinite(*out) || !ws_run_model_plain(n->value))
        return ws_err_at(err, n->file, n->line, n->col,
                         "parameter '%s' is "
                         "not a number: '%s' (expected a finite value such as "
                         "420 or 2.5e3)",
                         n->key, n->value);
    if (fabs(*out) > 1e300)
        return ws_err_at(err, n->file, n->line, n->col,
                         "parameter '%s' is "
                         "%s (expected a number of at most 1e300)",
                         n->key, n->value);
    return 0;
}

int ws_run_model_params(const char *path, const struct ws_model_def *m,
                        union ws_model_params *in, struct ws_err *err)
{
    int nf = m->nfields;
    const struct ws_model_field *f = m->fields;
    struct ws_ynode *root = NULL;
    size_t len;
    char *text = ws_file_read(path, "parameters", WS_RUN_MODEL_MAX_FILE, &len,
                              NULL, err);
    int rc;

    memset(in, 0, sizeof *in);
    if (!text)
        return -1;
    rc = ws_yaml_parse(&root, path, text, len, err);
    free(text);
    for (const struct ws_ynode *n = rc == 0 ? root->child : NULL; n && rc == 0;
         n = n->next) {
        int k = 0;
        while (k < nf && strcmp(f[k].name, n->key) != 0)
            k++;
        if (k == nf)
            rc = ws_run_model_unknown(n, m, f, nf, err);
        else
            rc = ws_run_model_value(n, ws_model_field_ptr(in, &f[k]), err);
    }
    ws_yaml_free(root);
    return rc;
}
