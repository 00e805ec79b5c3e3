/*
 * ws_u64set: a set of 64-bit values (open addressing, linear probing),
 * growing by doubling.  The kernel profile keeps the distinct sectors a
 * kernel touches in one, to count compulsory misses and reuse.
 *
 * Leaves out: removal.  The value UINT64_MAX cannot be stored (it marks an
 * empty slot); sector addresses are multiples of the sector size, so it
 * never is one.
 */
#ifndef WS_U64SET_H
#define WS_U64SET_H

#include <stddef.h>
#include <stdint.h>

struct ws_u64set {
    uint64_t *slot;
    size_t cap, n;
};

void ws_u64set_init(struct ws_u64set *s);
void ws_u64set_free(struct ws_u64set *s);

/* 1 when v was added, 0 when it was there, -1 when out of memory. */
int ws_u64set_add(struct ws_u64set *s, uint64_t v);

/* 1 when v is in the set. */
int ws_u64set_has(const struct ws_u64set *s, uint64_t v);

#endif
