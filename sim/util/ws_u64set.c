/*
 * ws_u64set: open-addressing set of 64-bit values (see ws_u64set.h).  Kept
 * at most half full, so probes stay short; the hash is a 64-bit multiply
 * (Fibonacci hashing), which spreads the low zero bits of aligned
 * addresses.
 */
#include "ws_u64set.h"

#include <stdlib.h>
#include <string.h>

#define WS_U64SET_EMPTY UINT64_MAX

static size_t ws_u64set_home(uint64_t v, size_t cap)
{
    return (size_t)((v * UINT64_C(0x9E3779B97F4A7C15)) >> 17) & (cap - 1);
}

void ws_u64set_init(struct ws_u64set *s)
{
    memset(s, 0, sizeof *s);
}

void ws_u64set_free(struct ws_u64set *s)
{
    free(s->slot);
    memset(s, 0, sizeof *s);
}

static void ws_u64set_put(uint64_t *slot, size_t cap, uint64_t v)
{
    size_t i = ws_u64set_home(v, cap);

    while (slot[i] != WS_U64SET_EMPTY)
        i = (i + 1) & (cap - 1);
    slot[i] = v;
}

static int ws_u64set_grow(struct ws_u64set *s)
{
    size_t cap = s->cap ? s->cap * 2 : 1024;
    uint64_t *slot = malloc(cap * sizeof *slot);

    if (!slot)
        return -1;
    memset(slot, 0xff, cap * sizeof *slot);
    for (size_t i = 0; i < s->cap; i++)
        if (s->slot[i] != WS_U64SET_EMPTY)
            ws_u64set_put(slot, cap, s->slot[i]);
    free(s->slot);
    s->slot = slot;
    s->cap = cap;
    return 0;
}

int ws_u64set_has(const struct ws_u64set *s, uint64_t v)
{
    if (!s->cap)
        return 0;
    for (size_t i = ws_u64set_home(v, s->cap);; i = (i + 1) & (s->cap - 1)) {
        if (s->slot[i] == v)
            return 1;
        if (s->slot[i] == WS_U64SET_EMPTY)
            return 0;
    }
}

int ws_u64set_add(struct ws_u64set *s, uint64_t v)
{
    if (ws_u64set_has(s, v))
        return 0;
    if (2 * (s->n + 1) > s->cap && ws_u64set_grow(s) < 0)
        return -1;
    ws_u64set_put(s->slot, s->cap, v);
    s->n++;
    return 1;
}
