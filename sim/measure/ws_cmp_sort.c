/*
 * ws_cmp_sort: the order of a comparison's rows (see ws_cmp_sort.h).
 *
 * qsort is not stable and has no context argument in C11: the rows are
 * copied into records carrying their key, name and index, and the index
 * breaks every tie.
 *
 * Leaves out: the rows themselves.
 */
#include "ws_cmp_sort.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const ws_cmp_sort_words[] = {"error", "name", "none"};

int ws_cmp_sort_parse(const char *word, enum ws_cmp_sort *s)
{
    for (int i = 0; i < 3; i++)
        if (strcmp(word, ws_cmp_sort_words[i]) == 0) {
            *s = (enum ws_cmp_sort)i;
            return 0;
        }
    return -1;
}

const char *ws_cmp_sort_word(enum ws_cmp_sort s)
{
    return ws_cmp_sort_words[s <= WS_CMP_SORT_NONE ? s : 0];
}

double ws_cmp_sort_key(double ref, double other, double pct)
{
    if (isnan(ref) || isnan(other))
        return NAN;
    return isnan(pct) ? INFINITY : fabs(pct);
}

struct ws_cmp_sort_rec {
    double key;
    const char *name;
    size_t index;
};

static int ws_cmp_sort_by_index(const struct ws_cmp_sort_rec *p,
                                const struct ws_cmp_sort_rec *q)
{
    return p->index < q->index ? -1 : p->index > q->index;
}

/* Larger keys first, NAN after every number. */
static int ws_cmp_sort_by_key(const void *a, const void *b)
{
    const struct ws_cmp_sort_rec *p = a, *q = b;

    if (isnan(p->key) != isnan(q->key))
        return isnan(p->key) ? 1 : -1;
    if (!isnan(p->key) && p->key != q->key)
        return p->key > q->key ? -1 : 1;
    return ws_cmp_sort_by_index(p, q);
}

static int ws_cmp_sort_by_name(const void *a, const void *b)
{
    const struct ws_cmp_sort_rec *p = a, *q = b;
    int c = strcmp(p->name, q->name);

    return c ? c : ws_cmp_sort_by_index(p, q);
}

int ws_cmp_sort_order(size_t *order, size_t n, const char *const *names,
                      const double *keys, enum ws_cmp_sort s)
{
    struct ws_cmp_sort_rec *r;

    for (size_t i = 0; i < n; i++)
        order[i] = i;
    if (s == WS_CMP_SORT_NONE || n < 2)
        return 0;
    if (!(r = malloc(n * sizeof *r)))
        return -1;
    for (size_t i = 0; i < n; i++)
        r[i] = (struct ws_cmp_sort_rec){keys[i], names[i], i};
    qsort(r, n, sizeof *r,
          s == WS_CMP_SORT_NAME ? ws_cmp_sort_by_name : ws_cmp_sort_by_key);
    for (size_t i = 0; i < n; i++)
        order[i] = r[i].index;
    free(r);
    return 0;
}
