/*
 * ws_mem_queue: MSHR files and bounded FIFOs as times (see
 * ws_mem_queue.h).  All memory is allocated at init.
 */
#include "ws_mem_queue.h"

#include <stdlib.h>

int ws_mshr_init(struct ws_mshr *h, uint32_t cap)
{
    return ws_heap_init(&h->busy, sizeof(struct ws_heap_key), cap, 1);
}

void ws_mshr_free(struct ws_mshr *h)
{
    ws_heap_free(&h->busy);
}

void ws_mshr_clear(struct ws_mshr *h)
{
    ws_heap_clear(&h->busy);
}

static void ws_mshr_retire(struct ws_mshr *h, uint64_t t)
{
    while (h->busy.n > 0 && ws_heap_top(&h->busy).cycle <= t)
        ws_heap_pop(&h->busy, NULL);
}

uint64_t ws_mshr_ready(struct ws_mshr *h, uint64_t t)
{
    ws_mshr_retire(h, t);
    return h->busy.n < h->busy.cap ? t : ws_heap_top(&h->busy).cycle;
}

uint64_t ws_mshr_acquire(struct ws_mshr *h, uint64_t t)
{
    uint64_t free_at;

    ws_mshr_retire(h, t);
    if (h->busy.n < h->busy.cap)
        return t;
    free_at = ws_heap_top(&h->busy).cycle;
    ws_heap_pop(&h->busy, NULL);
    return free_at;
}

void ws_mshr_push(struct ws_mshr *h, uint64_t done)
{
    struct ws_heap_key k = {done, 0};

    /* acquire left an entry free, so a fixed heap has room. */
    (void)ws_heap_push(&h->busy, &k);
}

int ws_fifo_init(struct ws_fifo *f, uint32_t cap)
{
    f->t = malloc(cap * sizeof *f->t);
    f->n = f->head = 0;
    f->cap = cap;
    return f->t ? 0 : -1;
}

void ws_fifo_free(struct ws_fifo *f)
{
    free(f->t);
    f->t = NULL;
    f->n = f->cap = f->head = 0;
}

void ws_fifo_clear(struct ws_fifo *f)
{
    f->n = f->head = 0;
}

void ws_fifo_push(struct ws_fifo *f, uint64_t leave)
{
    uint32_t last = (f->head + f->n + f->cap - 1) % f->cap;

    if (f->n > 0 && f->t[last] > leave)
        leave = f->t[last];
    if (f->n < f->cap) {
        f->t[(f->head + f->n) % f->cap] = leave;
        f->n++;
    } else {
        f->t[f->head] = leave;
        f->head = (f->head + 1) % f->cap;
    }
}
