/*
 * ws_window: several cycles per synchronisation (see ws_window.h).
 */
#include "ws_window.h"

#include <stdlib.h>
#include <string.h>

#include "util/ws_grow.h"
#include "ws_cta.h"
#include "ws_cycle_part.h"
#include "ws_par.h"
#include "ws_sim.h"

/* Window lengths, cycles.  A window pays one synchronisation of the
 * threads, and whatever its SMs do after their first work beyond them
 * runs serially in its second pass: the longer the window, the fewer
 * synchronisations and the larger that serial share.  Every
 * WS_WINDOW_PERIOD windows the length halves when more than
 * WS_WINDOW_SHRINK of their events ran in second passes and doubles
 * when fewer than WS_WINDOW_GROW did, up to WS_WARP_WINDOW cycles: a
 * warp issues at most one instruction a cycle, so in a window no longer
 * than its window of instructions it reads at most one more (a second
 * read would wait for the first's commit, and stop its SM).  On apsp
 * (V100, 2 threads of this 2-core VM) windows of 4, 16 and 64 cycles
 * ran 1.7, 4.2 and 9.6 % of the events serially; on the fma loop a cap
 * of 256 cycles ran 1.2x slower than windows of 16 (five runs each,
 * alternating).  Only speed depends on the length: the numbers are the
 * same for any. */
#define WS_WINDOW_FIRST 16
#define WS_WINDOW_MIN 4
#define WS_WINDOW_MAX WS_WARP_WINDOW
#define WS_WINDOW_PERIOD 16
#define WS_WINDOW_SHRINK 0.10
#define WS_WINDOW_GROW 0.04
#define WS_WINDOW_PAR_MIN 64

uint64_t ws_window_forced(void)
{
    const char *e = getenv("WARPSIM_WINDOW");
    char *end;
    unsigned long long n;

    if (!e || !*e)
        return 0;
    n = strtoull(e, &end, 10);
    return *end == '\0' && n > 0 ? (uint64_t)n : 0;
}

/* An event of a stopped SM, for the second pass: -1 when out of memory. */
static int ws_window_defer(struct ws_cycle_part *p, const struct ws_event *ev)
{
    size_t cap = p->defer_cap;

    if (p->ndefer == cap
        && ws_grow((void **)&p->defer, &cap, p->ndefer + 1, sizeof *p->defer,
                   256)
               < 0)
        return -1;
    p->defer_cap = cap;
    p->defer[p->ndefer++] = *ev;
    return 0;
}

/* SM stop states in a first pass. */
enum {
    WS_WINDOW_RUNS,
    WS_WINDOW_STOPPED, /* its events from here are deferred */
    WS_WINDOW_FAILED   /* its own work failed: the kernel stops here */
};

/* The part's events of cycle c (in p->batch), in queue order: each SM's
 * own work until it stops.  -1 when out of memory. */
static int ws_window_cycle(struct ws_sim *s, struct ws_cycle_part *p,
                           uint64_t c)
{
    for (size_t i = 0; i < p->nbatch; i++) {
        const struct ws_event *ev = &p->batch[i];
        uint32_t sm = ws_cycle_event_sm(ev), m = s->sm_local[sm];
        if (p->stop[m] == WS_WINDOW_FAILED)
            continue; /* never run: the kernel stops at its error */
        if (p->stop[m] == WS_WINDOW_RUNS) {
            int rc = ws_sim_event(s, ev, 1);
            if (p->failed || (rc < 0 && !p->err.set))
                return -1;
            if (rc < 0) {
                ws_cycle_fail_at(p, sm, c);
                p->stop[m] = WS_WINDOW_FAILED;
            }
            if (rc <= 0) {
                p->events++;
                continue;
            }
            p->stop[m] = WS_WINDOW_STOPPED;
        }
        if (ws_window_defer(p, ev) < 0)
            return -1;
    }
    return 0;
}

/* Part i's first pass through the window (on its thread). */
static void ws_window_first(void *ctx, uint32_t i)
{
    struct ws_sim *s = ctx;
    struct ws_cycle_part *p = s->parts[i];
    uint64_t c;

    p->own = p->ahead = 1;
    p->events = 0;
    p->last = 0;
    memset(p->stop, WS_WINDOW_RUNS, p->nsm);
    while ((c = ws_event_next_cycle(&p->q)) < s->win.end) {
        p->cycle = p->last = c;
        if (ws_cycle_take(p, c) < 0 || ws_window_cycle(s, p, c) < 0) {
            p->failed = 1;
            break;
        }
        /* the kernel stops at c, or at an earlier error */
        if (p->kept.set)
            break;
    }
    p->own = p->ahead = 0;
}

static void ws_window_min(uint64_t *t, uint64_t c)
{
    if (c < *t)
        *t = c;
}

static int ws_window_commit_cmp(const void *a, const void *b)
{
    const struct ws_cycle_commit *x = a, *y = b;

    if (x->cycle != y->cycle)
        return x->cycle < y->cycle ? -1 : 1;
    if (x->sm != y->sm)
        return x->sm < y->sm ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Commits the windows the first pass read before cycle e, in the order
 * rounds of one cycle would (cycle, SM, order read), without the rounds:
 * in a cycle with no other work left, a round would only commit them. */
static int ws_window_commit_until(struct ws_sim *s, uint64_t e)
{
    size_t n = 0, cap = s->win.commit_cap;

    for (uint32_t i = 0; i < s->nparts; i++) {
        const struct ws_cycle_part *p = s->parts[i];
        for (size_t k = p->ahead_at;
             k < p->nahead && p->ahead_commits[k].cycle < e; k++)
            n++;
    }
    if (!n)
        return 0;
    if (ws_grow((void **)&s->win.commits, &cap, n, sizeof *s->win.commits, 256)
        < 0)
        return ws_err_oom(s->err);
    s->win.commit_cap = cap;
    n = 0;
    for (uint32_t i = 0; i < s->nparts; i++) {
        struct ws_cycle_part *p = s->parts[i];
        for (;
             p->ahead_at < p->nahead && p->ahead_commits[p->ahead_at].cycle < e;
             p->ahead_at++) {
            s->win.commits[n] = p->ahead_commits[p->ahead_at];
            s->win.commits[n++].seq = (uint32_t)p->ahead_at;
        }
        if (p->ahead_at == p->nahead)
            p->nahead = p->ahead_at = 0;
    }
    qsort(s->win.commits, n, sizeof *s->win.commits, ws_window_commit_cmp);
    for (size_t k = 0; k < n; k++)
        if (ws_cta_commit(s->win.commits[k].w, s->err) < 0)
            return -1;
    return 0;
}

/* The second pass's next cycle: the earliest with an event queued or
 * deferred or an error to report. */
static uint64_t ws_window_next(const struct ws_sim *s)
{
    uint64_t t = UINT64_MAX;

    for (uint32_t i = 0; i < s->nparts; i++) {
        const struct ws_cycle_part *p = s->parts[i];
        if (p->idle)
            continue;
        ws_window_min(&t, ws_event_next_cycle(&p->q));
        if (p->defer_at < p->ndefer)
            ws_window_min(&t, p->defer[p->defer_at].cycle);
        if (p->kept.set)
            ws_window_min(&t, p->kept_cycle);
    }
    return t;
}

/* The length of the windows to come, from the share of the last
 * WS_WINDOW_PERIOD windows' events that ran in their second passes. */
static void ws_window_adapt(struct ws_window_state *w, size_t ran,
                            size_t serial)
{
    double share;

    w->ran += ran;
    w->serial += serial;
    if (++w->runs < WS_WINDOW_PERIOD)
        return;
    share = w->ran + w->serial
                ? (double)w->serial / (double)(w->ran + w->serial)
                : 0.0;
    if (share > WS_WINDOW_SHRINK && w->len / 2 >= WS_WINDOW_MIN)
        w->len /= 2;
    else if (share < WS_WINDOW_GROW && w->len * 2 <= WS_WINDOW_MAX)
        w->len *= 2;
    w->runs = 0;
    w->ran = w->serial = 0;
}

/* The second pass: the cycles before the window's end that still have
 * work, one round each, the windows read in the first pass committing in
 * between.  The parts are idle again after it. */
static int ws_window_second(struct ws_sim *s)
{
    int rc = 0;

    for (;;) {
        uint64_t c = ws_window_next(s);
        if ((rc = ws_window_commit_until(s, c < s->win.end ? c : s->win.end))
                < 0
            || c >= s->win.end || (rc = ws_cycle_round(s, c, 0)) < 0)
            break;
    }
    for (uint32_t i = 0; i < s->nparts; i++)
        s->parts[i]->idle = 0;
    return rc;
}

int ws_window_run(struct ws_sim *s, uint64_t t)
{
    uint64_t len, last = t, second;
    size_t ran = 0;
    int failed = 0;

    if (!s->win.len)
        s->win.len = WS_WINDOW_FIRST;
    len = s->win.forced ? s->win.forced : s->win.len;
    s->win.end = UINT64_MAX - t > len ? t + len : UINT64_MAX;
    /* As for a cycle (ws_cycle.c): waking the workers costs about as much
     * as a few issues, so a window after one with few events runs its
     * first pass on the calling thread. */
    ws_cycle_parts(s, ws_window_first,
                   s->par && s->cycle_events >= WS_WINDOW_PAR_MIN);
    for (uint32_t i = 0; i < s->nparts; i++) {
        struct ws_cycle_part *p = s->parts[i];
        ran += p->events;
        failed |= p->failed;
        p->failed = 0;
        if (p->last > last)
            last = p->last;
    }
    s->events += ran;
    s->tune.events += ran;
    s->tune.cycles += len - 1;
    if (failed)
        return ws_err_oom(s->err);
    /* Work beyond an SM reaches only that SM (no clusters): a part none of
     * whose SMs stopped gets no event before the end. */
    for (uint32_t i = 0; i < s->nparts; i++)
        s->parts[i]->idle = !s->parts[i]->ndefer && !s->parts[i]->kept.set;
    second = s->events;
    if (ws_window_second(s) < 0)
        return -1;
    if (last > s->now)
        s->now = last;
    s->cycle_events = (size_t)(s->events - second) + ran;
    ws_window_adapt(&s->win, ran, (size_t)(s->events - second));
    return 0;
}
