/*
 * ws_simdiff: two runs compared (see ws_simdiff.h).
 *
 * Kernels pair through a table of B's launch ids (an interned string per
 * id, as the readers check ids), so pairing is linear in the kernels.  A
 * figure of A is looked for in B first at its own position (two runs of
 * one build list the same figures in the same order), then by a search.
 *
 * Leaves out: weighing figures (every difference is listed alike).
 */
#include "ws_simdiff.h"

#include "util/ws_clip.h"
#include "util/ws_strtab.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ws_sd {
    struct ws_simdiff *d;
    const regex_t *re;
    struct ws_err *err;
};

static int ws_sd_oom(struct ws_sd *x)
{
    ws_err_oom(x->err);
    return -1;
}

/* ---- rows -------------------------------------------------------------- */

/* The row of a figure with values a and b (NAN: absent). */
static struct ws_simdiff_row ws_sd_values(const char *name, const char *unit,
                                          int derived, double a, double b)
{
    struct ws_simdiff_row r = {name, unit, derived, a, b, NAN, NAN};

    if (isnan(a) || isnan(b))
        return r;
    r.delta = b - a;
    if (a == b)
        r.delta_pct = 0;
    else if (a != 0)
        r.delta_pct = r.delta / fabs(a) * 100;
    if (!isfinite(r.delta_pct))
        r.delta_pct = NAN;
    return r;
}

/* The row of a figure of either kernel (the other's may be NULL). */
static struct ws_simdiff_row ws_sd_row(const struct ws_simrun_metric *ma,
                                       const struct ws_simrun_metric *mb)
{
    const struct ws_simrun_metric *m = ma ? ma : mb;

    return ws_sd_values(m->name, m->unit, m->derived, ma ? ma->value : NAN,
                        mb ? mb->value : NAN);
}

int ws_simdiff_differs(const struct ws_simdiff_row *r)
{
    return isnan(r->a) || isnan(r->b) || r->a != r->b;
}

/* Figure i of a kernel's figures (its metrics, then its extra ones). */
static const struct ws_simrun_metric *
ws_sd_fig(const struct ws_simrun_kernel *k, size_t i)
{
    return i < k->nmetrics ? &k->metrics[i] : &k->extra[i - k->nmetrics];
}

/* The index of B's figure named as A's i-th, or -1. */
static long ws_sd_find(const struct ws_simrun_kernel *kb, const char *name,
                       size_t hint)
{
    size_t n = kb->nmetrics + kb->nextra;

    if (hint < n && strcmp(ws_sd_fig(kb, hint)->name, name) == 0)
        return (long)hint;
    for (size_t i = 0; i < n; i++)
        if (strcmp(ws_sd_fig(kb, i)->name, name) == 0)
            return (long)i;
    return -1;
}

/* The rows of one kind (derived or not): A's in order, then B's own. */
static void ws_sd_rows_of(struct ws_simdiff_pair *p,
                          const struct ws_simrun_kernel *ka,
                          const struct ws_simrun_kernel *kb, int derived,
                          unsigned char *used)
{
    size_t na = ka->nmetrics + ka->nextra, nb = kb->nmetrics + kb->nextra;
    size_t start = p->nrows,
           *equal = derived ? &p->derived_equal : &p->counters_equal;

    for (size_t i = 0; i < na; i++) {
        const struct ws_simrun_metric *ma = ws_sd_fig(ka, i);
        long j;
        if (ma->derived != derived)
            continue;
        j = ws_sd_find(kb, ma->name, i);
        if (j >= 0)
            used[j] = 1;
        p->rows[p->nrows++] = ws_sd_row(ma, j >= 0 ? ws_sd_fig(kb, (size_t)j)
                                                   : NULL);
    }
    for (size_t j = 0; j < nb; j++)
        if (!used[j] && ws_sd_fig(kb, j)->derived == derived)
            p->rows[p->nrows++] = ws_sd_row(NULL, ws_sd_fig(kb, j));
    for (size_t r = start; r < p->nrows; r++)
        *equal += !ws_simdiff_differs(&p->rows[r]);
    *(derived ? &p->nderived : &p->ncounters) = p->nrows - start;
}

static int ws_sd_rows(struct ws_sd *x, struct ws_simdiff_pair *p)
{
    const struct ws_simrun_kernel *ka = &x->d->a->kernels[p->a];
    const struct ws_simrun_kernel *kb = &x->d->b->kernels[p->b];
    size_t na = ka->nmetrics + ka->nextra, nb = kb->nmetrics + kb->nextra;
    unsigned char *used = calloc(nb + 1, 1);

    p->rows = calloc(na + nb + 1, sizeof *p->rows);
    if (!used || !p->rows) {
        free(used);
        return ws_sd_oom(x);
    }
    ws_sd_rows_of(p, ka, kb, 0, used);
    ws_sd_rows_of(p, ka, kb, 1, used);
    free(used);
    return 0;
}

long ws_simdiff_order(const struct ws_simdiff_pair *p, int derived,
                      enum ws_cmp_sort s, size_t *order)
{
    /* zeroed: gcc cannot see that only the first n are read */
    const char **names = calloc(p->nrows + 1, sizeof *names);
    double *keys = calloc(p->nrows + 1, sizeof *keys);
    size_t *rows = malloc((p->nrows + 1) * sizeof *rows), n = 0;
    long rc = -1;

    if (names && keys && rows) {
        for (size_t i = 0; i < p->nrows; i++) {
            const struct ws_simdiff_row *r = &p->rows[i];
            if (r->derived != derived || !ws_simdiff_differs(r))
                continue;
            names[n] = r->name;
            keys[n] = ws_cmp_sort_key(r->a, r->b, r->delta_pct);
            rows[n++] = i;
        }
        if (ws_cmp_sort_order(order, n, names, keys, s) == 0) {
            for (size_t i = 0; i < n; i++)
                order[i] = rows[order[i]];
            rc = (long)n;
        }
    }
    free(names);
    free(keys);
    free(rows);
    return rc;
}

/* ---- kernels ------------------------------------------------------------ */

static int ws_sd_match(const regex_t *re, const struct ws_simrun_kernel *k)
{
    return !re || regexec(re, k->name, 0, NULL, 0) == 0
           || regexec(re, k->base, 0, NULL, 0) == 0;
}

/* B's kernel index per interned id string (ids initialised). */
static int ws_sd_index_b(const struct ws_simrun *b, struct ws_strtab *ids,
                         size_t **at)
{
    char key[32];

    if (!(*at = calloc(b->nkernels + 1, sizeof **at)))
        return -1;
    for (size_t i = 0; i < b->nkernels; i++) {
        int n = snprintf(key, sizeof key, "%lld", b->kernels[i].id);
        uint32_t id = ws_strtab_intern(ids, key, (size_t)n);
        if (id == UINT32_MAX)
            return -1;
        (*at)[id] = i; /* the reader refused an id twice */
    }
    return 0;
}

/* Pairs by id and name; what is left is on one side only. */
static int ws_sd_pair(struct ws_sd *x)
{
    struct ws_simdiff *d = x->d;
    struct ws_strtab ids;
    size_t *at = NULL;
    unsigned char *paired = calloc(d->b->nkernels + 1, 1);
    char key[32];
    int rc;

    ws_strtab_init(&ids);
    rc = paired && ws_sd_index_b(d->b, &ids, &at) == 0 ? 0 : -1;

    for (size_t i = 0; rc == 0 && i < d->a->nkernels; i++) {
        const struct ws_simrun_kernel *ka = &d->a->kernels[i];
        int n = snprintf(key, sizeof key, "%lld", ka->id);
        uint32_t id = ws_strtab_find(&ids, key, (size_t)n);
        size_t j = id == UINT32_MAX ? 0 : at[id];
        int same = id != UINT32_MAX
                   && strcmp(d->b->kernels[j].name, ka->name) == 0;
        if (same)
            paired[j] = 1;
        if (same
            && (ws_sd_match(x->re, ka)
                || ws_sd_match(x->re, &d->b->kernels[j])))
            d->pairs[d->npairs++] = (struct ws_simdiff_pair){.a = i, .b = j};
        else if (!same && ws_sd_match(x->re, ka))
            d->a_only[d->na_only++] = i;
    }
    for (size_t j = 0; rc == 0 && j < d->b->nkernels; j++)
        if (!paired[j] && ws_sd_match(x->re, &d->b->kernels[j]))
            d->b_only[d->nb_only++] = j;
    ws_strtab_free(&ids);
    free(at);
    free(paired);
    return rc < 0 ? ws_sd_oom(x) : 0;
}

static int ws_sd_none(struct ws_sd *x)
{
    const struct ws_simrun_kernel *ka = &x->d->a->kernels[0];
    const struct ws_simrun_kernel *kb = &x->d->b->kernels[0];
    struct ws_clip q1, q2;

    if (x->re)
        return ws_err_msg(x->err, "--kernel selects no kernel of both runs "
                                  "(expected a pattern matching a kernel "
                                  "that both runs have)");
    return ws_err_msg(x->err,
                      "no kernel is in both runs (expected runs of the same "
                      "kernels, paired by launch id and name: A's first is "
                      "%lld %s, B's %lld %s)",
                      ka->id, ws_clip(&q1, ka->name), kb->id,
                      ws_clip(&q2, kb->name));
}

/* ---- provenance --------------------------------------------------------- */

static int ws_sd_same_list(char *const *a, size_t na, char *const *b, size_t nb)
{
    if (na != nb)
        return 0;
    for (size_t i = 0; i < na; i++)
        if (strcmp(a[i], b[i]) != 0)
            return 0;
    return 1;
}

/* B's unmatched input with A's hash, else one under A's path; -1. */
static long ws_sd_input_match(const struct ws_simrun_prov *pb,
                              const struct ws_simrun_input *in,
                              const unsigned char *used, int by_hash)
{
    for (size_t j = 0; j < pb->ninputs; j++)
        if (!used[j]
            && strcmp(by_hash ? pb->inputs[j].hash : pb->inputs[j].path,
                      by_hash ? in->hash : in->path)
                   == 0)
            return (long)j;
    return -1;
}

/* The inputs that differ: the same content is the same input wherever
 * it was read from; first by hash, then by path (a changed file). */
static int ws_sd_inputs(struct ws_sd *x)
{
    struct ws_simdiff *d = x->d;
    const struct ws_simrun_prov *pa = &d->a->prov, *pb = &d->b->prov;
    unsigned char *used = calloc(pb->ninputs + 1, 1);
    unsigned char *done = calloc(pa->ninputs + 1, 1);

    d->inputs = calloc(pa->ninputs + pb->ninputs + 1, sizeof *d->inputs);
    if (!used || !done || !d->inputs) {
        free(used);
        free(done);
        return ws_sd_oom(x);
    }
    for (int by_hash = 1; by_hash >= 0; by_hash--)
        for (size_t i = 0; i < pa->ninputs; i++) {
            long j = done[i]
                         ? -1
                         : ws_sd_input_match(pb, &pa->inputs[i], used, by_hash);
            if (j < 0)
                continue;
            used[j] = done[i] = 1;
            if (!by_hash)
                d->inputs[d->ninputs++] =
                    (struct ws_simdiff_input){&pa->inputs[i], &pb->inputs[j]};
        }
    for (size_t i = 0; i < pa->ninputs; i++)
        if (!done[i])
            d->inputs[d->ninputs++] = (struct ws_simdiff_input){&pa->inputs[i],
                                                                NULL};
    for (size_t j = 0; j < pb->ninputs; j++)
        if (!used[j])
            d->inputs[d->ninputs++] = (struct ws_simdiff_input){NULL,
                                                                &pb->inputs[j]};
    free(used);
    free(done);
    return 0;
}

static int ws_sd_provenance(struct ws_sd *x)
{
    struct ws_simdiff *d = x->d;
    const struct ws_simrun_prov *pa = &d->a->prov, *pb = &d->b->prov;

    d->provenance = pa->present && pb->present;
    if (!d->provenance)
        return 0;
    d->same_build = strcmp(pa->version, pb->version) == 0
                    && strcmp(pa->commit, pb->commit) == 0;
    d->same_config = *pa->config_hash
                     && strcmp(pa->config_hash, pb->config_hash) == 0;
    d->same_params = ws_sd_same_list(pa->params, pa->nparams, pb->params,
                                     pb->nparams);
    if (ws_sd_inputs(x) < 0)
        return -1;
    d->same_inputs = d->ninputs == 0;
    return 0;
}

/* ---- the whole ------------------------------------------------------------ */

static int ws_sd_all(struct ws_sd *x)
{
    struct ws_simdiff *d = x->d;

    d->pairs = calloc(d->a->nkernels + 1, sizeof *d->pairs);
    d->a_only = calloc(d->a->nkernels + 1, sizeof *d->a_only);
    d->b_only = calloc(d->b->nkernels + 1, sizeof *d->b_only);
    if (!d->pairs || !d->a_only || !d->b_only)
        return ws_sd_oom(x);
    if (ws_sd_pair(x) < 0)
        return -1;
    if (d->npairs == 0)
        return ws_sd_none(x);
    for (size_t p = 0; p < d->npairs; p++)
        if (ws_sd_rows(x, &d->pairs[p]) < 0)
            return -1;
    d->total = ws_sd_values("total_cycles", "cycle", 0, d->a->total_cycles,
                            d->b->total_cycles);
    return ws_sd_provenance(x);
}

int ws_simdiff_run(struct ws_simdiff *d, const struct ws_simrun *a,
                   const struct ws_simrun *b, const regex_t *re,
                   struct ws_err *err)
{
    struct ws_sd x = {d, re, err};
    int rc;

    memset(d, 0, sizeof *d);
    d->a = a;
    d->b = b;
    rc = ws_sd_all(&x);
    if (rc < 0)
        ws_simdiff_free(d);
    return rc;
}

void ws_simdiff_free(struct ws_simdiff *d)
{
    for (size_t p = 0; p < d->npairs; p++)
        free(d->pairs[p].rows);
    free(d->pairs);
    free(d->a_only);
    free(d->b_only);
    free(d->inputs);
    memset(d, 0, sizeof *d);
}
