/*
 * ws_run_engine: simulate an input and run the models beside it (see
 * ws_run_engine.h).
 */
#include "ws_run_engine.h"

#include <stdlib.h>
#include <string.h>

#include "measure/ws_kname.h"
#include "util/ws_demangle.h"
#include "ws_ext_model.h"
#include "ws_model_params.h"
#include "ws_profile.h"

/* The simulation pulls CTAs through this tee, which also counts them into
 * the kernel's profile: the models see exactly the stream simulated,
 * without reading the input twice. */
struct ws_run_tee_warp;
struct ws_run_tee {
    struct ws_cta_source *inner;
    struct ws_profile *profile;
    struct ws_run_tee_warp *free;
};

static int ws_run_tee_next(void *ctx, const struct ws_cta_stream **cta,
                           struct ws_err *err)
{
    struct ws_run_tee *t = ctx;
    int rc = t->inner->next(t->inner->ctx, cta, err);

    if (rc == 1)
        ws_profile_add_cta(t->profile, *cta, t->inner->ops);
    return rc;
}

/* Streamed warps pass through a reader of the tee's own, which counts
 * each window into the profile as the simulator commits it (ws_trace.h:
 * in an order that does not depend on threads).  Wrappers are kept on a
 * free list: a kernel opens one per warp. */
struct ws_run_tee_warp {
    struct ws_run_tee *tee;
    struct ws_warp_reader inner;
    struct ws_profile_warp pw;
    struct ws_run_tee_warp *next_free;
};

static int ws_run_tee_header(void *ctx, const struct ws_cta_stream **cta,
                             struct ws_err *err)
{
    struct ws_run_tee *t = ctx;
    int rc = t->inner->next_header(t->inner->ctx, cta, err);

    if (rc == 1)
        ws_profile_cta(t->profile);
    return rc;
}

static long ws_run_tee_read(void *ctx, struct ws_inst *inst, size_t cap,
                            uint64_t *addrs, size_t addr_cap,
                            struct ws_err *err)
{
    struct ws_run_tee_warp *w = ctx;
    long n = w->inner.read(w->inner.ctx, inst, cap, addrs, addr_cap, err);

    if (n > 0)
        ws_profile_warp_own(w->tee->profile, &w->pw, inst, (size_t)n, addrs,
                            w->tee->inner->ops);
    else if (n == 0)
        ws_profile_warp_end(w->tee->profile, &w->pw);
    return n;
}

/* A window goes into the warp's chain as it is read (on the thread that
 * reads it) and into the kernel's counts as it commits: the profile's sets
 * of sectors read and written depend on the order of all warps' windows,
 * which commits keep fixed for any number of threads. */
static int ws_run_tee_commit(void *ctx, const struct ws_inst *inst, size_t n,
                             const uint64_t *addrs, struct ws_err *err)
{
    struct ws_run_tee_warp *w = ctx;

    if (w->inner.commit
        && w->inner.commit(w->inner.ctx, inst, n, addrs, err) < 0)
        return -1;
    ws_profile_warp_count(w->tee->profile, inst + w->pw.count_from,
                          n - w->pw.count_from, addrs, w->tee->inner->ops);
    return 0;
}

static int ws_run_tee_more(void *ctx)
{
    struct ws_run_tee_warp *w = ctx;

    return w->inner.more(w->inner.ctx);
}

static int ws_run_tee_parts(void *ctx, unsigned parts, struct ws_err *err)
{
    struct ws_run_tee *t = ctx;

    return t->inner->set_parts(t->inner->ctx, parts, err);
}

static void ws_run_tee_close(void *ctx)
{
    struct ws_run_tee_warp *w = ctx;

    if (w->inner.close)
        w->inner.close(w->inner.ctx);
    w->next_free = w->tee->free;
    w->tee->free = w;
}

static int ws_run_tee_open(void *ctx, const struct ws_cta_stream *cta,
                           uint32_t warp, struct ws_warp_reader *r,
                           struct ws_err *err)
{
    struct ws_run_tee *t = ctx;
    struct ws_run_tee_warp *w = t->free;

    if (w)
        t->free = w->next_free;
    else if (!(w = malloc(sizeof *w)))
        return ws_err_oom(err);
    w->tee = t;
    memset(&w->inner, 0, sizeof w->inner);
    w->inner.part = r->part;
    if (t->inner->warp_open(t->inner->ctx, cta, warp, &w->inner, err) < 0) {
        w->next_free = t->free;
        t->free = w;
        return -1;
    }
    ws_profile_warp_begin(t->profile, &w->pw);
    r->ctx = w;
    r->read = ws_run_tee_read;
    r->close = ws_run_tee_close;
    r->commit = ws_run_tee_commit;
    r->more = w->inner.more ? ws_run_tee_more : NULL;
    return 0;
}

static void ws_run_tee_free(struct ws_run_tee *t)
{
    while (t->free) {
        struct ws_run_tee_warp *w = t->free;
        t->free = w->next_free;
        free(w);
    }
}

/* The built-in models and then the external ones (ext may be NULL) on
 * the kernel's profile. */
static int ws_run_models(const struct ws_profile *prof, const struct ws_gpu *g,
                         int l2_warm, const struct ws_ext_models *ext,
                         struct ws_kernel_stats *out, struct ws_err *err)
{
    int next = ext ? ext->n : 0;
    json_t *input = NULL;

    out->models = calloc((size_t)ws_model_count() + (size_t)next,
                         sizeof *out->models);
    if (!out->models)
        return ws_err_oom(err);
    ws_model_run_all(prof, g, l2_warm, out->models);
    out->nmodels = ws_model_count();
    if (next && !(input = ws_ext_input(prof, g, l2_warm)))
        return ws_err_oom(err);
    for (int i = 0; i < next; i++) {
        if (ws_ext_run(&ext->m[i], input, &out->models[out->nmodels], err)
            < 0) {
            json_decref(input);
            return -1;
        }
        out->nmodels++;
    }
    json_decref(input);
    return 0;
}

/* Simulates the opened kernel k (the caller closes it); l2_warm:
 * something ran or was copied before this kernel. */
static int ws_run_kernel(struct ws_sim *sim, struct ws_input_kernel *k,
                         int l2_warm, const struct ws_ext_models *ext,
                         struct ws_kernel_stats *out, struct ws_err *err)
{
    struct ws_profile prof;
    struct ws_run_tee tee;
    struct ws_cta_source src;
    int rc;

    if (ws_profile_init(&prof, k->src.launch, sim->gpu) < 0)
        return ws_err_oom(err);
    tee.inner = &k->src;
    tee.profile = &prof;
    tee.free = NULL;
    src = k->src;
    src.ctx = &tee;
    src.next = ws_run_tee_next;
    if (k->src.next_header && k->src.warp_open) {
        src.next_header = ws_run_tee_header;
        src.warp_open = ws_run_tee_open;
    }
    src.set_parts = k->src.set_parts ? ws_run_tee_parts : NULL;
    rc = ws_sim_kernel(sim, &src, out, err);
    /* A failed kernel leaves warps with their readers open: they are the
     * tee's, which ends here. */
    ws_sim_close_readers(sim);
    ws_run_tee_free(&tee);
    if (rc == 0)
        rc = ws_run_models(&prof, sim->gpu, l2_warm, ext, out, err);
    ws_profile_free(&prof);
    return rc;
}

int ws_run_engine_prepare(struct ws_run_report *rep, const struct ws_input *in,
                          struct ws_err *err)
{
    size_t n = ws_input_nkernels(in);

    rep->nkernels = 0;
    rep->total_cycles = 0;
    rep->kernels = calloc(n ? n : 1, sizeof *rep->kernels);
    return rep->kernels ? 0 : ws_err_oom(err);
}

/* 1 when the launch l is one sel (may be NULL: all) picks.  Only the
 * kernel's header has been read: a skipped kernel costs what its launch
 * lines cost (and a corrupt header is still an error). */
static int ws_run_picks(const struct ws_launch *l,
                        const struct ws_run_select *sel)
{
    int yes = 1;

    if (!sel)
        return 1;
    if (sel->by_id)
        yes = l->id == sel->id;
    if (yes && sel->by_name) {
        /* The name as the trace has it (mangled), its base name
         * ("reduce"), as compare --kernel matches, or as the report shows
         * it, demangled ("reduce(float const*, float*, int)"). */
        char *base = ws_kname_base(l->name), *shown = NULL;
        yes = regexec(&sel->re, l->name, 0, NULL, 0) == 0
              || (base && regexec(&sel->re, base, 0, NULL, 0) == 0);
        if (!yes && (shown = ws_demangle(l->name)))
            yes = regexec(&sel->re, shown, 0, NULL, 0) == 0;
        free(base);
        free(shown);
    }
    return yes;
}

int ws_run_engine_list(struct ws_sim *sim, struct ws_input *in,
                       struct ws_run_report *rep, size_t *kernel_no,
                       const struct ws_run_select *sel, struct ws_err *err)
{
    uint64_t first = sim->now;

    for (size_t i = 0; i < ws_input_ncmds(in); i++) {
        const struct ws_cmd *c = ws_input_cmd(in, i);
        struct ws_input_kernel k;
        int rc;
        if (c->kind == WS_CMD_MEMCPY_HTOD) {
            ws_sim_memcpy(sim, c->addr, c->bytes);
            continue;
        }
        if (sel && sel->max && rep->nkernels >= sel->max)
            continue;
        if (ws_input_kernel_open(in, i, &k, err) < 0)
            return -1;
        if (!ws_run_picks(k.src.launch, sel)) {
            ws_input_kernel_close(&k);
            continue;
        }
        if (kernel_no)
            *kernel_no = rep->nkernels + 1;
        rc = ws_run_kernel(sim, &k, i > 0, rep->ext,
                           &rep->kernels[rep->nkernels], err);
        ws_input_kernel_close(&k);
        if (rc < 0) {
            ws_kernel_stats_free(&rep->kernels[rep->nkernels]);
            return -1;
        }
        rep->nkernels++;
    }
    if (rep->nkernels)
        rep->total_cycles = rep->kernels[rep->nkernels - 1].end - first;
    return 0;
}

int ws_run_engine_simulate(const struct ws_gpu *gpu, struct ws_input *in,
                           struct ws_run_report *rep, struct ws_err *err)
{
    struct ws_sim_opts opts = {NULL, NULL, NULL, 0};
    struct ws_sim sim;
    int rc;

    if (ws_run_engine_prepare(rep, in, err) < 0)
        return -1;
    if (ws_sim_init(&sim, gpu, &opts, err) < 0) {
        ws_run_engine_free(rep);
        return -1;
    }
    rc = ws_run_engine_list(&sim, in, rep, NULL, NULL, err);
    ws_sim_free(&sim);
    if (rc < 0)
        ws_run_engine_free(rep);
    return rc;
}

void ws_run_engine_free(struct ws_run_report *rep)
{
    for (size_t i = 0; i < rep->nkernels; i++)
        ws_kernel_stats_free(&rep->kernels[i]);
    free(rep->kernels);
    rep->kernels = NULL;
    rep->nkernels = 0;
}
