/*
 * ws_cycle: a cycle's events by parts of SMs, own work side by side (see
 * ws_cycle.h).
 */
#include "ws_cycle.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/ws_cacheline.h"
#include "util/ws_err.h"
#include "util/ws_grow.h"
#include "ws_cta.h"
#include "ws_cycle_part.h"
#include "ws_par.h"
#include "ws_sim.h"
#include "ws_window.h"

/* Fewer events than this in the last cycle: the next runs on the calling
 * thread, since waking the workers costs about as much as a few issues.
 * (Which thread runs a part never changes what it computes.) */
#define WS_CYCLE_PAR_MIN 32

/* Threads pay only where the SMs' own work outweighs what they cost: a
 * job per cycle, and the state of SMs whose other events ran on the
 * calling thread moving between cores (a warp refilled there, read by its
 * part's thread the next cycle).  That depends on the kernel and the
 * machine (on 16 cores of the lent host, always using the threads made
 * matmul 1.3-1.7x slower and apsp on V100 up to 1.2x faster), so the
 * loop measures it.  A round is WS_CYCLE_ROUND slices of WS_CYCLE_SLICE
 * cycles (the first rounds shorter): its trial runs slices on the
 * threads and on one by turns, at most WS_CYCLE_TRIAL of them, and the
 * rest of the round runs the way that took less time per event.  The
 * turns are short because a kernel has phases (apsp's global loads, then
 * its shared-memory updates): when the trial was two whole windows of
 * 2,048 cycles, one each way, they saw different phases, and apsp on
 * H100 ran a third of its cycles on one thread at three times the
 * threads' cost per event.  A pair of slices that shows one way
 * WS_CYCLE_CLEAR times faster ends the trial early, so matmul runs few
 * slices the slow way.  Against the two-window trial, run by turns on
 * that host (tests/bench/results/2026-11-27-h200-host, run5): apsp on
 * H100 7-14 % faster at 4-16 threads, matmul on H100 2-7 % slower.
 * Numbers are the same either way. */
#define WS_CYCLE_SLICE 256
#define WS_CYCLE_TRIAL 8
#define WS_CYCLE_ROUND 128
#define WS_CYCLE_CLEAR 1.25

static double ws_cycle_clock(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void ws_cycle_part_free(struct ws_cycle_part *p)
{
    if (!p)
        return;
    ws_event_free(&p->q);
    free(p->batch);
    free(p->sorted);
    free(p->held);
    free(p->commits);
    free(p->commits_sorted);
    ws_free_lines(p->stop);
    free(p->defer);
    free(p->ahead_commits);
    for (int l = 0; l < WS_CYCLE_LISTS; l++) {
        free(p->lists[l].seg);
        free(p->lists[l].count);
    }
    ws_free_lines(p);
}

int ws_cycle_init(struct ws_sim *s, unsigned threads)
{
    /* a config has at least one SM (the schema's range) */
    uint32_t nsm = s->gpu->sm.count ? s->gpu->sm.count : 1;
    uint32_t n = threads > 1 ? threads : 1;

    if (n > nsm)
        n = nsm;
    s->parts = calloc(n, sizeof(struct ws_cycle_part *));
    s->sm_part = calloc(nsm, sizeof *s->sm_part);
    s->sm_local = calloc(nsm, sizeof *s->sm_local);
    if (!s->parts || !s->sm_part || !s->sm_local)
        return -1;
    s->nparts = n;
    s->win.forced = ws_window_forced();
    for (uint32_t i = 0; i < n; i++) {
        /* lines of its own: each is written by the thread that runs it */
        struct ws_cycle_part *p = ws_calloc_lines(1, sizeof *p);
        if (!p)
            return -1;
        s->parts[i] = p;
        ws_event_init(&p->q);
        p->first = i;
        p->stride = n;
        p->nsm = (nsm - i + n - 1) / n;
        /* lines of its own, as the part is (each thread writes its own) */
        p->stop = ws_calloc_lines(p->nsm, 1);
        if (!p->stop)
            return -1;
        for (int l = 0; l < WS_CYCLE_LISTS; l++) {
            p->lists[l].seg = calloc(p->nsm, sizeof *p->lists[l].seg);
            p->lists[l].count = calloc(p->nsm + 1, sizeof *p->lists[l].count);
            if (!p->lists[l].seg || !p->lists[l].count)
                return -1;
        }
        for (uint32_t k = 0; k < p->nsm; k++) {
            s->sm_part[i + k * n] = i;
            s->sm_local[i + k * n] = k;
        }
    }
    if (n > 1 && (s->par = ws_par_start(n))) {
        s->tune.threads = 1;
        s->tune.round = 2 * WS_CYCLE_TRIAL;
        s->tune.trial = 1;
        s->tune.start = ws_cycle_clock();
    }
    return 0;
}

void ws_cycle_free(struct ws_sim *s)
{
    for (uint32_t i = 0; s->parts && i < s->nparts; i++)
        ws_cycle_part_free(s->parts[i]);
    free(s->parts);
    free(s->sm_part);
    free(s->sm_local);
    free(s->win.commits);
    ws_par_stop(s->par);
    s->parts = NULL;
    s->sm_part = NULL;
    s->sm_local = NULL;
    s->win.commits = NULL;
    s->win.commit_cap = 0;
    s->par = NULL;
    s->nparts = 0;
}

/* While a part's own work runs, out of memory marks the part instead of
 * the run's error: s->err is every thread's. */
int ws_cycle_push(struct ws_sim *s, uint32_t sm, uint64_t t,
                  enum ws_event_kind kind, union ws_event_payload p)
{
    struct ws_cycle_part *pt = s->parts[s->sm_part[sm]];

    if (ws_event_push(&pt->q, t, kind, p) == 0)
        return 0;
    if (!pt->own)
        return -1;
    pt->failed = 1;
    return 0;
}

struct ws_err *ws_cycle_err(struct ws_sim *s, uint32_t sm)
{
    struct ws_cycle_part *pt = s->parts[s->sm_part[sm]];

    return pt->own ? &pt->err : s->err;
}

/* Room in commits and commits_sorted for n more than the round's own
 * commits: -1 when out of memory. */
static int ws_cycle_commit_room(struct ws_cycle_part *p, size_t n)
{
    size_t cap = p->commit_cap, had = p->commit_cap;

    if (p->ncommits + n <= cap)
        return 0;
    if (ws_grow((void **)&p->commits, &cap, p->ncommits + n, sizeof *p->commits,
                64)
            < 0
        || ws_grow((void **)&p->commits_sorted, &had, cap,
                   sizeof *p->commits_sorted, cap)
               < 0)
        return -1;
    p->commit_cap = cap;
    return 0;
}

/* Window w, read in SM sm's own work at `cycle`, into a commit list; its
 * warp reads no next window until it commits. */
static void ws_cycle_commit_put(struct ws_cycle_commit *c, uint32_t sm,
                                struct ws_warp *w, uint64_t cycle)
{
    c->sm = sm;
    c->w = w;
    c->cycle = cycle;
    w->commit_pending = 1;
}

/* A window read in a window's first pass: it commits in the second, at
 * the first round of its cycle or before (ws_window.c). */
static int ws_cycle_commit_ahead(struct ws_cycle_part *pt, uint32_t sm,
                                 struct ws_warp *w)
{
    size_t cap = pt->ahead_cap;

    if (pt->nahead == cap
        && ws_grow((void **)&pt->ahead_commits, &cap, pt->nahead + 1,
                   sizeof *pt->ahead_commits, 64)
               < 0)
        return -1;
    pt->ahead_cap = cap;
    ws_cycle_commit_put(&pt->ahead_commits[pt->nahead++], sm, w, pt->cycle);
    return 1;
}

int ws_cycle_commit_later(struct ws_sim *s, uint32_t sm, struct ws_warp *w)
{
    struct ws_cycle_part *pt = s->parts[s->sm_part[sm]];

    if (!pt->own)
        return 0;
    if (pt->ahead)
        return ws_cycle_commit_ahead(pt, sm, w);
    if (ws_cycle_commit_room(pt, 1) < 0)
        return -1;
    pt->lists[WS_CYCLE_WINDOWS].count[s->sm_local[sm] + 1]++;
    ws_cycle_commit_put(&pt->commits[pt->ncommits++], sm, w, s->now);
    return 1;
}

/* A counting sort's middle: g's items per SM (count[k + 1], by local
 * index) become where each SM's run ends, so that count[k] is where it
 * starts, as the scatter wants; each SM that has items gets a run in
 * g->seg, in SM order. */
static void ws_cycle_offsets(const struct ws_cycle_part *p,
                             struct ws_cycle_segs *g)
{
    uint32_t at = 0;

    for (uint32_t k = 0; k < p->nsm; k++) {
        if (g->count[k + 1]) {
            struct ws_cycle_seg *r = &g->seg[g->n++];
            r->sm = p->first + k * p->stride;
            r->begin = at;
            r->end = at + g->count[k + 1];
        }
        g->count[k + 1] = at += g->count[k + 1];
    }
}

/* The counts left at zero for the next cycle. */
static void ws_cycle_clear(const struct ws_cycle_part *p,
                           struct ws_cycle_segs *g)
{
    memset(g->count, 0, ((size_t)p->nsm + 1) * sizeof *g->count);
}

/* The part's windows read in own work sorted by SM (stable: each SM's in
 * the order read), into commits_sorted; counted as they were read
 * (ws_cycle_commit_later).  A window's first pass read its windows of
 * cycle t before this round's own work read any (ws_window.c): each SM's
 * come first.  -1 when out of memory. */
static int ws_cycle_sort_commits(struct ws_sim *s, struct ws_cycle_part *p)
{
    struct ws_cycle_segs *g = &p->lists[WS_CYCLE_WINDOWS];
    size_t a = p->ahead_at, b = a;

    g->n = 0;
    while (b < p->nahead && p->ahead_commits[b].cycle == s->now)
        g->count[s->sm_local[p->ahead_commits[b++].sm] + 1]++;
    if (!p->ncommits && a == b)
        return 0;
    if (ws_cycle_commit_room(p, b - a) < 0) {
        ws_cycle_clear(p, g);
        return -1;
    }
    ws_cycle_offsets(p, g);
    for (size_t i = a; i < b; i++)
        p->commits_sorted[g->count[s->sm_local[p->ahead_commits[i].sm]]++] =
            p->ahead_commits[i];
    for (size_t i = 0; i < p->ncommits; i++)
        p->commits_sorted[g->count[s->sm_local[p->commits[i].sm]]++] =
            p->commits[i];
    ws_cycle_clear(p, g);
    p->ahead_at = b;
    if (b == p->nahead)
        p->nahead = p->ahead_at = 0;
    return 0;
}

/* Runs one SM's run r of a part's list. */
typedef int (*ws_cycle_run_fn)(struct ws_sim *s, struct ws_cycle_part *p,
                               const struct ws_cycle_seg *r);

/* Every part's runs of list l, SM by SM from the first SM at or after
 * `from`, round to the SM before it.  Each part's runs are in SM order;
 * the parts' are merged. */
static int ws_cycle_merge(struct ws_sim *s, enum ws_cycle_list l, uint32_t from,
                          ws_cycle_run_fn fn)
{
    /* a config has at least one SM, and so one part */
    uint32_t nsm = s->gpu->sm.count ? s->gpu->sm.count : 1;

    for (uint32_t i = 0; i < s->nparts; i++) {
        struct ws_cycle_segs *g = &s->parts[i]->lists[l];
        g->cur = 0;
        while (g->cur < g->n && g->seg[g->cur].sm < from)
            g->cur++;
        g->left = g->n;
    }
    for (;;) {
        struct ws_cycle_part *best = NULL;
        struct ws_cycle_segs *bg = NULL;
        uint32_t key = 0;
        for (uint32_t i = 0; i < s->nparts; i++) {
            struct ws_cycle_segs *g = &s->parts[i]->lists[l];
            uint32_t k;
            if (!g->left)
                continue;
            if (g->cur == g->n)
                g->cur = 0;
            k = (g->seg[g->cur].sm + nsm - from) % nsm;
            if (!best || k < key) {
                best = s->parts[i];
                bg = g;
                key = k;
            }
        }
        if (!best)
            return 0;
        if (fn(s, best, &bg->seg[bg->cur]) < 0)
            return -1;
        bg->cur++;
        bg->left--;
    }
}

static int ws_cycle_commit_run(struct ws_sim *s, struct ws_cycle_part *p,
                               const struct ws_cycle_seg *r)
{
    for (uint32_t e = r->begin; e < r->end; e++)
        if (ws_cta_commit(p->commits_sorted[e].w, s->err) < 0)
            return -1;
    return 0;
}

/* Every part's windows read in own work, committed SM by SM (each SM's in
 * the order read): the same order for any number of parts. */
static int ws_cycle_commit(struct ws_sim *s)
{
    int rc = ws_cycle_merge(s, WS_CYCLE_WINDOWS, 0, ws_cycle_commit_run);

    for (uint32_t i = 0; i < s->nparts; i++)
        s->parts[i]->ncommits = 0;
    return rc;
}

uint64_t ws_cycle_next(const struct ws_sim *s)
{
    uint64_t t = UINT64_MAX;

    for (uint32_t i = 0; i < s->nparts; i++) {
        uint64_t c = ws_event_next_cycle(&s->parts[i]->q);
        if (c < t)
            t = c;
    }
    return t;
}

uint32_t ws_cycle_event_sm(const struct ws_event *ev)
{
    return ev->kind == WS_EV_CTA_RETIRE ? ev->u.retire.sm : ev->u.wake.sm;
}

/* Room for one more event of the cycle in batch, and for as many in
 * sorted and held. */
static int ws_cycle_grow(struct ws_cycle_part *p)
{
    size_t cap = p->cap, had;

    if (ws_grow((void **)&p->batch, &cap, p->nbatch + 1, sizeof *p->batch, 256)
        < 0)
        return -1;
    had = p->cap;
    if (ws_grow((void **)&p->sorted, &had, cap, sizeof *p->sorted, cap) < 0)
        return -1;
    had = p->cap;
    if (ws_grow((void **)&p->held, &had, cap, sizeof *p->held, cap) < 0)
        return -1;
    p->cap = cap;
    return 0;
}

int ws_cycle_take(struct ws_cycle_part *p, uint64_t t)
{
    p->nbatch = 0;
    /* A window's first pass deferred them: they were queued before any
     * event its second pass queues for t. */
    while (p->defer_at < p->ndefer && p->defer[p->defer_at].cycle == t) {
        if (p->nbatch == p->cap && ws_cycle_grow(p) < 0)
            return -1;
        p->batch[p->nbatch++] = p->defer[p->defer_at++];
    }
    if (p->defer_at == p->ndefer)
        p->ndefer = p->defer_at = 0;
    for (;;) {
        if (p->nbatch == p->cap && ws_cycle_grow(p) < 0)
            return -1;
        if (!ws_event_pop_at(&p->q, t, &p->batch[p->nbatch]))
            break;
        p->nbatch++;
    }
    return 0;
}

void ws_cycle_fail_at(struct ws_cycle_part *p, uint32_t sm, uint64_t cycle)
{
    if (!p->kept.set || cycle < p->kept_cycle
        || (cycle == p->kept_cycle && sm < p->fail_sm)) {
        p->kept = p->err;
        p->fail_sm = sm;
        p->kept_cycle = cycle;
    }
    ws_err_clear(&p->err);
}

/* The part's own work, in queue order: an SM's events run up to the first
 * that reaches beyond the SM (ws_sim_event says which), and that one and
 * the SM's later ones are held for the rest of the cycle.  Different SMs'
 * own work commutes, so queue order gives what SM by SM would, without
 * sorting the cycle's events: only the held ones are sorted, after. */
static void ws_cycle_own_run(struct ws_sim *s, struct ws_cycle_part *p)
{
    uint32_t *count = p->lists[WS_CYCLE_HELD].count;

    for (size_t i = 0; i < p->nbatch; i++) {
        const struct ws_event *ev = &p->batch[i];
        uint32_t sm = ws_cycle_event_sm(ev), m = s->sm_local[sm];
        if (!count[m + 1]) {
            int rc = ws_sim_event(s, ev, 1);
            if (p->failed || (rc < 0 && !p->err.set)) {
                p->failed = 1;
                return;
            }
            /* the SM's other events are held, for a kernel that stops
             * after this cycle's own work */
            if (rc < 0)
                ws_cycle_fail_at(p, sm, s->now);
            if (rc == 0)
                continue;
        }
        count[m + 1]++;
        p->held[p->nheld++] = (uint32_t)i;
    }
}

/* The held events sorted by SM (stable: each SM's stay in queue order),
 * a run per SM, for the rest of the cycle. */
static void ws_cycle_sort_held(struct ws_sim *s, struct ws_cycle_part *p)
{
    struct ws_cycle_segs *g = &p->lists[WS_CYCLE_HELD];

    g->n = 0;
    if (!p->nheld)
        return;
    ws_cycle_offsets(p, g);
    for (size_t k = 0; k < p->nheld; k++) {
        const struct ws_event *ev = &p->batch[p->held[k]];
        p->sorted[g->count[s->sm_local[ws_cycle_event_sm(ev)]]++] = *ev;
    }
    ws_cycle_clear(p, g);
}

/* Part i's share of cycle s->now: its events taken, its SMs' own work,
 * what it held and the windows it read sorted by SM (on its thread). */
static void ws_cycle_own_part(void *ctx, uint32_t i)
{
    struct ws_sim *s = ctx;
    struct ws_cycle_part *p = s->parts[i];

    p->own = 1;
    p->nheld = 0;
    p->nbatch = 0;
    /* an idle part has nothing before its window's end (ws_window.c) */
    if (!p->idle && ws_cycle_take(p, s->now) < 0)
        p->failed = 1;
    else
        ws_cycle_own_run(s, p);
    ws_cycle_sort_held(s, p);
    if (ws_cycle_sort_commits(s, p) < 0)
        p->failed = 1;
    p->own = 0;
}

static int ws_cycle_rest_run(struct ws_sim *s, struct ws_cycle_part *p,
                             const struct ws_cycle_seg *r)
{
    for (uint32_t e = r->begin; e < r->end; e++)
        if (ws_sim_event(s, &p->sorted[e], 0) < 0)
            return -1;
    return 0;
}

/* Every SM's events from the first beyond its own work, SM by SM from the
 * first SM at or after t mod the SM count, round to the SM before it: a
 * fixed order would always let SM 0 ahead of SM 79 into L2's and DRAM's
 * queues, an arbitration no crossbar has. */
static int ws_cycle_rest(struct ws_sim *s, uint64_t t)
{
    /* a config has at least one SM */
    uint32_t nsm = s->gpu->sm.count ? s->gpu->sm.count : 1;

    return ws_cycle_merge(s, WS_CYCLE_HELD, (uint32_t)(t % nsm),
                          ws_cycle_rest_run);
}

/* Has the trial so far shown one way clearly faster?  Seconds per event
 * compared without dividing by zero: *threads says which. */
static int ws_cycle_tune_clear(const struct ws_cycle_tuning *u, int *threads)
{
    double one = u->secs[0] * (double)u->events_run[1];
    double par = u->secs[1] * (double)u->events_run[0];

    *threads = par < one;
    return par * WS_CYCLE_CLEAR < one || one * WS_CYCLE_CLEAR < par;
}

/* At a slice's end: in the trial, its time and events go to the way it
 * ran; the next slice's way is chosen. */
static void ws_cycle_tune(struct ws_sim *s)
{
    struct ws_cycle_tuning *u = &s->tune;
    double now = ws_cycle_clock();
    int faster = 0;

    if (u->trial) {
        u->secs[u->threads] += now - u->start;
        u->events_run[u->threads] += u->events;
    }
    if (++u->slice == u->round) {
        /* A new round, twice as long as the last up to WS_CYCLE_ROUND:
         * a kernel's first cycles (CTAs arriving, the first loads) are
         * unlike the rest, and the first trial sees only them. */
        u->slice = 0;
        u->round = u->round * 2 < WS_CYCLE_ROUND ? u->round * 2
                                                 : WS_CYCLE_ROUND;
        u->trial = 1;
        memset(u->secs, 0, sizeof u->secs);
        memset(u->events_run, 0, sizeof u->events_run);
    }
    if (u->trial) {
        /* after each pair of slices: done at the trial's end, or sooner
         * when one way is clearly faster (matmul on threads, which pays
         * for every slice it runs the slow way) */
        int done = u->slice % 2 == 0 && u->slice > 0
                   && (ws_cycle_tune_clear(u, &faster)
                       || u->slice == WS_CYCLE_TRIAL);
        u->threads = done ? faster : u->slice % 2 == 0;
        u->trial = !done;
    }
    u->start = now;
    u->events = 0;
    u->cycles = 0;
}

void ws_cycle_parts(struct ws_sim *s, ws_par_fn fn, int threads)
{
    if (threads)
        ws_par_for(s->par, s->nparts, fn, s);
    else
        for (uint32_t i = 0; i < s->nparts; i++)
            fn(s, i);
}

int ws_cycle_round(struct ws_sim *s, uint64_t t, int threads)
{
    struct ws_cycle_part *kept = NULL;
    size_t events = 0;
    int failed = 0;

    s->now = t;
    ws_cycle_parts(s, ws_cycle_own_part, threads);
    for (uint32_t i = 0; i < s->nparts; i++) {
        struct ws_cycle_part *p = s->parts[i];
        events += p->nbatch;
        failed |= p->failed;
        p->failed = 0;
        /* a window's first pass may have kept one of a later cycle */
        if (p->kept.set && p->kept_cycle == t
            && (!kept || p->fail_sm < kept->fail_sm))
            kept = p;
    }
    s->cycle_events = events;
    s->events += events;
    s->tune.events += events;
    if (failed)
        return ws_err_oom(s->err);
    if (kept) {
        *s->err = kept->kept;
        return -1;
    }
    if (ws_cycle_commit(s) < 0)
        return -1;
    return ws_cycle_rest(s, t);
}

int ws_cycle_run(struct ws_sim *s, uint64_t t)
{
    if (s->par && ++s->tune.cycles >= WS_CYCLE_SLICE)
        ws_cycle_tune(s);
    if (s->win.ok && (s->win.forced || (s->par && s->tune.threads)))
        return ws_window_run(s, t);
    return ws_cycle_round(s, t,
                          s->par && s->tune.threads
                              && s->cycle_events >= WS_CYCLE_PAR_MIN);
}
