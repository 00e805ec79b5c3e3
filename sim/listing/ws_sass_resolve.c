/*
 * ws_sass_resolve: the listing reader's second pass (see
 * ws_sass_internal.h).  Labels are sorted once so that each branch
 * reference is a binary search, not a scan: a listing of a million
 * branches resolves in seconds.  A branch target must lie inside its own
 * function; -res-usage figures are matched to functions by name.
 */
#include "ws_sass_internal.h"

#include <stdlib.h>
#include <string.h>

static int ws_sass_pc_in_func(const struct ws_sass *s, size_t f, int64_t pc)
{
    const struct ws_sass_func *fn = &s->funcs[f];
    uint32_t lo = 0, hi = fn->ninst;

    if (pc < 0 || pc > UINT32_MAX)
        return 0;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (s->insts[fn->first + mid].pc < (uint32_t)pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < fn->ninst && s->insts[fn->first + lo].pc == (uint32_t)pc;
}

static int ws_label_key_cmp(size_t fa, uint32_t na, size_t fb, uint32_t nb)
{
    if (fa != fb)
        return fa < fb ? -1 : 1;
    return na < nb ? -1 : na > nb;
}

static int ws_label_cmp(const void *a, const void *b)
{
    const struct ws_sass_label *x = a, *y = b;
    int c = ws_label_key_cmp(x->func, x->name, y->func, y->name);

    return c ? c : (x->line > y->line) - (x->line < y->line);
}

/* The first label of (func, name) in the sorted labels, or NULL. */
static const struct ws_sass_label *
ws_sass_label_find(const struct ws_sass_parser *p, size_t func, uint32_t name)
{
    size_t lo = 0, hi = p->nlabels;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ws_label_key_cmp(p->labels[mid].func, p->labels[mid].name, func,
                             name)
            < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == p->nlabels || p->labels[lo].func != func
        || p->labels[lo].name != name)
        return NULL;
    return &p->labels[lo];
}

static int ws_sass_sort_labels(struct ws_sass_parser *p, struct ws_err *err)
{
    const struct ws_sass *s = p->s;

    if (p->nlabels > 1)
        qsort(p->labels, p->nlabels, sizeof *p->labels, ws_label_cmp);
    for (size_t k = 1; k < p->nlabels; k++) {
        const struct ws_sass_label *a = &p->labels[k - 1], *b = &p->labels[k];
        if (a->func == b->func && a->name == b->name)
            return ws_err_at(err, s->path, b->line, 1,
                             "label '%s' is "
                             "defined twice in %s (expected each label once; "
                             "line %ld has it first)",
                             ws_strtab_str(&s->strs, b->name),
                             s->funcs[b->func].name, a->line);
    }
    return 0;
}

static int ws_sass_check_targets(const struct ws_sass *s, size_t f,
                                 struct ws_err *err)
{
    const struct ws_sass_func *fn = &s->funcs[f];

    for (uint32_t i = 0; i < fn->ninst; i++) {
        const struct ws_sass_inst *in = &s->insts[fn->first + i];
        for (uint32_t k = 0; k < in->nopnd; k++) {
            const struct ws_opnd *o = &s->opnds[in->opnd + k];
            if (o->kind == WS_OPND_TARGET
                && !ws_sass_pc_in_func(s, f, o->value))
                return ws_err_at(err, s->path, in->line, 1,
                                 "branch target "
                                 "0x%llx is not an instruction of %s "
                                 "(expected an offset inside the function)",
                                 (unsigned long long)o->value, fn->name);
        }
    }
    return 0;
}

int ws_sass_resolve(struct ws_sass_parser *p, struct ws_err *err)
{
    struct ws_sass *s = p->s;

    if (ws_sass_sort_labels(p, err) < 0)
        return -1;
    for (size_t i = 0; i < p->npending; i++) {
        struct ws_sass_pending *pd = &p->pending[i];
        const struct ws_sass_label *l = ws_sass_label_find(p, pd->func,
                                                           pd->label);
        if (!l)
            return ws_err_at(err, s->path, pd->line, 1,
                             "unknown label '%s' "
                             "(expected a label defined in this function)",
                             ws_strtab_str(&s->strs, pd->label));
        s->opnds[pd->opnd].value = l->pc;
    }
    for (size_t f = 0; f < s->nfuncs; f++)
        if (ws_sass_check_targets(s, f, err) < 0)
            return -1;
    return 0;
}

struct ws_func_ref {
    const char *name;
    struct ws_sass_func *func;
};

static int ws_func_ref_cmp(const void *a, const void *b)
{
    return strcmp(((const struct ws_func_ref *)a)->name,
                  ((const struct ws_func_ref *)b)->name);
}

/* Several entries may describe one function (nvdisasm gives registers and
 * shared memory apart): each sets what it knows. */
static void ws_sass_apply_res(struct ws_sass_func *fn,
                              const struct ws_sass_res *r)
{
    if (r->regs >= 0)
        fn->regs = r->regs;
    if (r->shared >= 0)
        fn->shared = r->shared;
    if (r->local >= 0)
        fn->local = r->local;
    if (r->stack >= 0)
        fn->stack = r->stack;
}

/* Resource entries go to every function of their name (a listing with
 * several "code for sm_XX" parts repeats names), found in a sorted index. */
int ws_sass_attach_res(struct ws_sass_parser *p, struct ws_err *err)
{
    struct ws_sass *s = p->s;
    struct ws_func_ref *idx;

    if (p->nres == 0)
        return 0;
    if (!(idx = malloc(s->nfuncs * sizeof *idx)))
        return ws_err_oom(err);
    for (size_t f = 0; f < s->nfuncs; f++) {
        idx[f].name = s->funcs[f].name;
        idx[f].func = &s->funcs[f];
    }
    qsort(idx, s->nfuncs, sizeof *idx, ws_func_ref_cmp);
    for (size_t r = 0; r < p->nres; r++) {
        size_t lo = 0, hi = s->nfuncs;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (strcmp(idx[mid].name, p->res[r].name) < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        for (; lo < s->nfuncs && strcmp(idx[lo].name, p->res[r].name) == 0;
             lo++)
            ws_sass_apply_res(idx[lo].func, &p->res[r]);
    }
    free(idx);
    return 0;
}
