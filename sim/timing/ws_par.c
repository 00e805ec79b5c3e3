/*
 * ws_par: a pool of spinning workers for short jobs (see ws_par.h).
 *
 * Items are dealt into lanes, one per thread (the caller's is lane 0):
 * item i is lane i mod threads's.  A thread runs its own lane's items
 * first and then takes what is left in the others', so that with as many
 * items as threads (the simulator's parts) each item runs on the same
 * thread job after job, and its SMs' state stays in that core's cache,
 * while a worker the kernel has not scheduled (more threads than cores, a
 * busy machine) has its items taken by the others.
 *
 * A job is published by closing every lane (the job's generation, no
 * item left), filling the job's fields, setting each lane to the job's
 * generation and item 0, and then bumping `gen`.  Anyone working on it
 * takes a lane's items by compare-and-swap on the lane, which only
 * succeeds while the generation in it is the job's: a worker that wakes
 * late, or reads the next job's fields, fails the swap instead of running
 * an item twice.  The caller returns when `done` says every item ran,
 * without waiting for workers that took none.
 */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "ws_par.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

/* Spins before a worker with nothing to do sleeps, or before the caller
 * waiting for an item another thread runs yields its core: about 50
 * microseconds, longer than the serial part of a simulated cycle usually
 * takes, far shorter than a kernel's setup between two of them. */
#define WS_PAR_SPINS 20000

/* A lane: generation << 32 | its next item's place in it.  A cache line
 * of its own, since its thread and thieves swap it. */
struct ws_par_lane {
    _Alignas(64) atomic_uint_fast64_t claim;
};

/* What a worker thread is started with. */
struct ws_par_self {
    struct ws_par *p;
    uint32_t lane;
};

struct ws_par {
    pthread_t *tid;
    struct ws_par_self *self;
    unsigned nworkers; /* threads started, the caller not counted */
    uint32_t nlanes;   /* nworkers + 1 */
    struct ws_par_lane *lanes;
    atomic_uint_fast64_t gen;
    atomic_uint done; /* items of the job finished */
    atomic_int stop;
    atomic_uint sleepers;
    /* The job: items, and what runs one.  A late worker may read n while
     * the next job's is written (its swap then fails, ws_par_for): n is
     * atomic; fn and ctx are read only after a swap of this job
     * succeeded. */
    atomic_uint n;
    ws_par_fn fn;
    void *ctx;
    pthread_mutex_t mu;
    pthread_cond_t cv;
};

static void ws_par_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* Runs lane l's items of job g until none is left to take. */
static void ws_par_lane_work(struct ws_par *p, uint64_t g, uint32_t l)
{
    atomic_uint_fast64_t *claim = &p->lanes[l].claim;
    uint64_t c = atomic_load_explicit(claim, memory_order_acquire);

    for (;;) {
        uint32_t n = atomic_load_explicit(&p->n, memory_order_acquire);
        uint64_t item = (uint64_t)(uint32_t)c * p->nlanes + l;
        if (c >> 32 != (g & 0xffffffffu) || item >= n)
            return;
        if (!atomic_compare_exchange_weak_explicit(claim, &c, c + 1,
                                                   memory_order_acq_rel,
                                                   memory_order_acquire))
            continue;
        p->fn(p->ctx, (uint32_t)item);
        atomic_fetch_add_explicit(&p->done, 1, memory_order_release);
        c = atomic_load_explicit(claim, memory_order_acquire);
    }
}

/* Runs items of job g until none is left: lane self's first, then the
 * others' from the next lane round. */
static void ws_par_work(struct ws_par *p, uint64_t g, uint32_t self)
{
    for (uint32_t k = 0; k < p->nlanes; k++)
        ws_par_lane_work(p, g, (self + k) % p->nlanes);
}

/* Waits for a generation other than seen, spinning first; returns it, or
 * seen when the pool stops. */
static uint64_t ws_par_wait(struct ws_par *p, uint64_t seen)
{
    uint64_t g;

    for (unsigned k = 0; k < WS_PAR_SPINS; k++) {
        g = atomic_load_explicit(&p->gen, memory_order_acquire);
        if (g != seen || atomic_load_explicit(&p->stop, memory_order_acquire))
            return g;
        ws_par_relax();
    }
    pthread_mutex_lock(&p->mu);
    atomic_fetch_add(&p->sleepers, 1);
    while ((g = atomic_load(&p->gen)) == seen && !atomic_load(&p->stop))
        pthread_cond_wait(&p->cv, &p->mu);
    atomic_fetch_sub(&p->sleepers, 1);
    pthread_mutex_unlock(&p->mu);
    return g;
}

static void *ws_par_main(void *arg)
{
    const struct ws_par_self *me = arg;
    struct ws_par *p = me->p;
    uint64_t seen = 0;

    for (;;) {
        uint64_t g = ws_par_wait(p, seen);
        if (atomic_load_explicit(&p->stop, memory_order_acquire))
            return NULL;
        seen = g;
        ws_par_work(p, g, me->lane);
    }
}

struct ws_par *ws_par_start(unsigned threads)
{
    struct ws_par *p = calloc(1, sizeof *p);
    size_t lanes = (size_t)threads * sizeof *p->lanes;

    if (!p || threads < 2)
        return free(p), NULL;
    p->tid = calloc(threads - 1, sizeof *p->tid);
    p->self = calloc(threads - 1, sizeof *p->self);
    p->lanes = aligned_alloc(_Alignof(struct ws_par_lane), lanes);
    if (!p->tid || !p->self || !p->lanes) {
        free(p->tid);
        free(p->self);
        free(p->lanes);
        return free(p), NULL;
    }
    p->nlanes = threads;
    for (unsigned i = 0; i < threads; i++)
        atomic_init(&p->lanes[i].claim, 0);
    atomic_init(&p->gen, 0);
    atomic_init(&p->done, 0);
    atomic_init(&p->n, 0);
    atomic_init(&p->stop, 0);
    atomic_init(&p->sleepers, 0);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    for (unsigned i = 0; i + 1 < threads; i++) {
        p->self[i].p = p;
        p->self[i].lane = i + 1;
        if (pthread_create(&p->tid[i], NULL, ws_par_main, &p->self[i]) != 0)
            break;
        p->nworkers++;
    }
    if (p->nworkers == 0) {
        ws_par_stop(p);
        return NULL;
    }
    return p;
}

void ws_par_stop(struct ws_par *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    atomic_store(&p->stop, 1);
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    for (unsigned i = 0; i < p->nworkers; i++)
        pthread_join(p->tid[i], NULL);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->cv);
    free(p->tid);
    free(p->self);
    free(p->lanes);
    free(p);
}

void ws_par_for(struct ws_par *p, uint32_t n, ws_par_fn fn, void *ctx)
{
    uint64_t g = atomic_load_explicit(&p->gen, memory_order_relaxed) + 1;
    unsigned spins = 0;

    /* Closed first: a worker still at the last job that reads this job's
     * n (released after the closing) then finds its swap failing, instead
     * of taking an item past the last job's end with this job's fn. */
    for (uint32_t l = 0; l < p->nlanes; l++)
        atomic_store_explicit(&p->lanes[l].claim,
                              (g & 0xffffffffu) << 32 | UINT32_MAX,
                              memory_order_relaxed);
    atomic_store_explicit(&p->n, n, memory_order_release);
    p->fn = fn;
    p->ctx = ctx;
    atomic_store_explicit(&p->done, 0, memory_order_relaxed);
    for (uint32_t l = 0; l < p->nlanes; l++)
        atomic_store_explicit(&p->lanes[l].claim, (g & 0xffffffffu) << 32,
                              memory_order_release);
    /* Sequentially consistent, with the sleepers count below and the
     * worker's count and check in ws_par_wait: either it sees this
     * generation before it sleeps, or this sees it asleep. */
    atomic_store(&p->gen, g);
    if (atomic_load(&p->sleepers)) {
        pthread_mutex_lock(&p->mu);
        pthread_cond_broadcast(&p->cv);
        pthread_mutex_unlock(&p->mu);
    }
    ws_par_work(p, g, 0);
    while (atomic_load_explicit(&p->done, memory_order_acquire) < n) {
        if (++spins < WS_PAR_SPINS)
            ws_par_relax();
        else
            sched_yield();
    }
}

unsigned ws_par_threads(unsigned want)
{
    unsigned have = 1;
    cpu_set_t set;

    if (sched_getaffinity(0, sizeof set, &set) == 0)
        have = (unsigned)CPU_COUNT(&set);
    else if (sysconf(_SC_NPROCESSORS_ONLN) > 0)
        have = (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
    if (have < 1)
        have = 1;
    return want == 0 ? have : want;
}
