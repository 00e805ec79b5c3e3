/*
 * ws_mem_queue: the two kinds of bounded buffer of the memory path, kept
 * as times because timing is by reservation (ws_memsys.h):
 *   - an MSHR file: the completion times of the misses in flight; a new
 *     miss needs a free entry, i.e. waits for the earliest completion when
 *     all are taken;
 *   - a FIFO (an L1 miss queue, an L2 slice's input queue): the times its
 *     entries leave, in order; a request may enter once the entry `cap`
 *     places ahead of it has left, which is how a full queue stalls its
 *     sender.
 * Both are filled in the order requests are timed, which is arrival order.
 *
 * Leaves out: what the entries are (only their times matter), merging
 * (the caches' per-sector fill times do that, ws_cache.h).
 */
#ifndef WS_MEM_QUEUE_H
#define WS_MEM_QUEUE_H

#include <stdint.h>

#include "util/ws_heap.h"

struct ws_mshr {
    struct ws_heap busy; /* keys: completion cycle, seq unused */
};

struct ws_fifo {
    uint64_t *t;
    uint32_t n, cap, head;
};

int ws_mshr_init(struct ws_mshr *h, uint32_t cap);
void ws_mshr_free(struct ws_mshr *h);
void ws_mshr_clear(struct ws_mshr *h);
/* The earliest cycle >= t at which an entry is free, retiring those done
 * by t (a look: nothing is taken). */
uint64_t ws_mshr_ready(struct ws_mshr *h, uint64_t t);
/* Takes an entry for a miss sent at t: returns when it is free (>= t). */
uint64_t ws_mshr_acquire(struct ws_mshr *h, uint64_t t);
/* The miss holding the entry taken last completes at done. */
void ws_mshr_push(struct ws_mshr *h, uint64_t done);

int ws_fifo_init(struct ws_fifo *f, uint32_t cap);
void ws_fifo_free(struct ws_fifo *f);
void ws_fifo_clear(struct ws_fifo *f);
/* The earliest time >= t at which the FIFO has room.  Inline: every
 * request through the L1 and L2 asks. */
static inline uint64_t ws_fifo_admit(const struct ws_fifo *f, uint64_t t)
{
    if (f->n < f->cap)
        return t;
    return f->t[f->head] > t ? f->t[f->head] : t;
}
/* Records an entry that leaves at `leave`, or when the one ahead of it
 * leaves if that is later (first in, first out). */
void ws_fifo_push(struct ws_fifo *f, uint64_t leave);

#endif
