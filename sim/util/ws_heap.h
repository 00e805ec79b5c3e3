/*
 * ws_heap: a binary min-heap of small fixed-size elements, ordered by the
 * (cycle, seq) key each element begins with: the event queue's far events
 * (ws_event.h) and the MSHRs' completion times (mem/ws_mem_queue.h).
 *
 * Elements are copied in and out by size (at most WS_HEAP_MAX_ELEM bytes)
 * rather than compared through a callback, so a push or pop is a few
 * memcpy of a size known per heap and one inline key compare per level.
 * A fixed heap never grows (an MSHR file has a size); a growing one doubles
 * (ws_grow.h) and never shrinks, so a steady state allocates nothing.
 *
 * Leaves out: decrease-key and removal from the middle (no user needs
 * them); stability beyond the key (callers that need push order put a
 * sequence number in seq).
 */
#ifndef WS_HEAP_H
#define WS_HEAP_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define WS_HEAP_MAX_ELEM 64

/* The order: cycle, then seq.  Every element starts with one. */
struct ws_heap_key {
    uint64_t cycle;
    uint64_t seq;
};

struct ws_heap {
    unsigned char *v; /* cap elements of size bytes */
    size_t n, cap, size;
    int fixed; /* 1: push fails when full instead of growing */
};

/* A heap of elements of `size` bytes (a struct beginning with a
 * struct ws_heap_key), room for cap allocated now; fixed: never more.
 * 0, or -1 when out of memory or size is out of range. */
int ws_heap_init(struct ws_heap *h, size_t size, size_t cap, int fixed);
void ws_heap_free(struct ws_heap *h);
void ws_heap_clear(struct ws_heap *h);

/* 0, or -1 when a fixed heap is full or growing needs memory it cannot
 * have (the heap is then unchanged). */
int ws_heap_push(struct ws_heap *h, const void *elem);

/* Removes the least element into *out (may be NULL); the heap must not be
 * empty. */
void ws_heap_pop(struct ws_heap *h, void *out);

/* The least element's key; the heap must not be empty.  Inline: callers
 * test it before every pop. */
static inline struct ws_heap_key ws_heap_top(const struct ws_heap *h)
{
    struct ws_heap_key k;

    memcpy(&k, h->v, sizeof k);
    return k;
}

#endif
