/*
 * ws_par: a pool of spinning workers for short jobs (see ws_par.h).
 *
 * A job is published by closing `claim` (the job's generation, no item
 * left), filling the job's fields, setting `claim` to the job's generation
 * and item 0, and then bumping `gen`.  Anyone working on it
 * takes items by compare-and-swap on `claim`, which only succeeds while
 * the generation in it is the job's: a worker that wakes late, or reads
 * the next job's fields, fails the swap instead of running an item twice.
 * The caller returns when `done` says every item ran, without waiting
 * for workers that took none: a worker the kernel has not scheduled yet
 * (more threads than cores, a busy machine) costs nothing then.
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

struct ws_par {
    pthread_t *tid;
    unsigned nworkers; /* threads started, the caller not counted */
    atomic_uint_fast64_t gen;
    atomic_uint_fast64_t claim; /* generation << 32 | next item */
    atomic_uint done;           /* items of the job finished */
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

/* Runs items of job g until none is left to take. */
static void ws_par_work(struct ws_par *p, uint64_t g)
{
    uint64_t c = atomic_load_explicit(&p->claim, memory_order_acquire);

    while (c >> 32 == (g & 0xffffffffu)
           && (uint32_t)c < atomic_load_explicit(&p->n, memory_order_acquire)) {
        if (!atomic_compare_exchange_weak_explicit(&p->claim, &c, c + 1,
                                                   memory_order_acq_rel,
                                                   memory_order_acquire))
            continue;
        p->fn(p->ctx, (uint32_t)c);
        atomic_fetch_add_explicit(&p->done, 1, memory_order_release);
        c = atomic_load_explicit(&p->claim, memory_order_acquire);
    }
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
    struct ws_par *p = arg;
    uint64_t seen = 0;

    for (;;) {
        uint64_t g = ws_par_wait(p, seen);
        if (atomic_load_explicit(&p->stop, memory_order_acquire))
            return NULL;
        seen = g;
        ws_par_work(p, g);
    }
}

struct ws_par *ws_par_start(unsigned threads)
{
    struct ws_par *p = calloc(1, sizeof *p);

    if (!p || threads < 2)
        return free(p), NULL;
    p->tid = calloc(threads - 1, sizeof *p->tid);
    if (!p->tid)
        return free(p), NULL;
    atomic_init(&p->gen, 0);
    atomic_init(&p->claim, 0);
    atomic_init(&p->done, 0);
    atomic_init(&p->n, 0);
    atomic_init(&p->stop, 0);
    atomic_init(&p->sleepers, 0);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    for (unsigned i = 0; i + 1 < threads; i++) {
        if (pthread_create(&p->tid[i], NULL, ws_par_main, p) != 0)
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
    free(p);
}

void ws_par_for(struct ws_par *p, uint32_t n, ws_par_fn fn, void *ctx)
{
    uint64_t g = atomic_load_explicit(&p->gen, memory_order_relaxed) + 1;
    unsigned spins = 0;

    /* Closed first: a worker still at the last job that reads this job's
     * n (released after the closing) then finds its swap failing, instead
     * of taking an item past the last job's end with this job's fn. */
    atomic_store_explicit(&p->claim, (g & 0xffffffffu) << 32 | UINT32_MAX,
                          memory_order_relaxed);
    atomic_store_explicit(&p->n, n, memory_order_release);
    p->fn = fn;
    p->ctx = ctx;
    atomic_store_explicit(&p->done, 0, memory_order_relaxed);
    atomic_store_explicit(&p->claim, (g & 0xffffffffu) << 32,
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
    ws_par_work(p, g);
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
