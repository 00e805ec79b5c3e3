/*
 * ws_u64set: paged bitmap set of 64-bit values (see ws_u64set.h).  The
 * page table is kept at most half full so probes stay short; its hash is a
 * 64-bit multiply (Fibonacci hashing) of the page key.
 */
#include "ws_u64set.h"

#include <stdlib.h>
#include <string.h>

#define WS_U64SET_PAGE_MASK ((UINT64_C(1) << WS_U64SET_PAGE_BITS) - 1)

static size_t ws_u64set_home(uint64_t key, size_t cap)
{
    return (size_t)((key * UINT64_C(0x9E3779B97F4A7C15)) >> 20) & (cap - 1);
}

void ws_u64set_init(struct ws_u64set *s)
{
    memset(s, 0, sizeof *s);
}

void ws_u64set_free(struct ws_u64set *s)
{
    free(s->pages);
    free(s->slot);
    memset(s, 0, sizeof *s);
}

/* The page holding key, as index + 1; 0 when there is none. */
static size_t ws_u64set_find(const struct ws_u64set *s, uint64_t key)
{
    if (s->last && s->pages[s->last - 1].key == key)
        return s->last;
    if (!s->cap)
        return 0;
    for (size_t i = ws_u64set_home(key, s->cap);; i = (i + 1) & (s->cap - 1)) {
        uint32_t p = s->slot[i];
        if (!p)
            return 0;
        if (s->pages[p - 1].key == key)
            return p;
    }
}

static void ws_u64set_put(uint32_t *slot, size_t cap, uint64_t key,
                          uint32_t page)
{
    size_t i = ws_u64set_home(key, cap);

    while (slot[i])
        i = (i + 1) & (cap - 1);
    slot[i] = page;
}

static int ws_u64set_grow_table(struct ws_u64set *s)
{
    size_t cap = s->cap ? s->cap * 2 : 64;
    uint32_t *slot = calloc(cap, sizeof *slot);

    if (!slot)
        return -1;
    for (size_t p = 0; p < s->npages; p++)
        ws_u64set_put(slot, cap, s->pages[p].key, (uint32_t)(p + 1));
    free(s->slot);
    s->slot = slot;
    s->cap = cap;
    return 0;
}

/* A new, empty page for key; its index + 1, or 0 when out of memory. */
static size_t ws_u64set_new_page(struct ws_u64set *s, uint64_t key)
{
    if (s->npages >= UINT32_MAX - 1)
        return 0;
    if (2 * (s->npages + 1) > s->cap && ws_u64set_grow_table(s) < 0)
        return 0;
    if (s->npages == s->page_cap) {
        size_t cap = s->page_cap ? s->page_cap * 2 : 4;
        struct ws_u64set_page *p = realloc(s->pages, cap * sizeof *p);
        if (!p)
            return 0;
        s->pages = p;
        s->page_cap = cap;
    }
    memset(&s->pages[s->npages], 0, sizeof *s->pages);
    s->pages[s->npages].key = key;
    s->npages++;
    ws_u64set_put(s->slot, s->cap, key, (uint32_t)s->npages);
    return s->npages;
}

int ws_u64set_add(struct ws_u64set *s, uint64_t v)
{
    uint64_t key = v >> WS_U64SET_PAGE_BITS, bit = v & WS_U64SET_PAGE_MASK;
    size_t p = ws_u64set_find(s, key);
    uint64_t *word, m = UINT64_C(1) << (bit % 64);

    if (!p && !(p = ws_u64set_new_page(s, key)))
        return -1;
    s->last = p;
    word = &s->pages[p - 1].bits[bit / 64];
    if (*word & m)
        return 0;
    *word |= m;
    s->n++;
    return 1;
}

int ws_u64set_has(const struct ws_u64set *s, uint64_t v)
{
    uint64_t bit = v & WS_U64SET_PAGE_MASK;
    size_t p = ws_u64set_find(s, v >> WS_U64SET_PAGE_BITS);

    return p && (s->pages[p - 1].bits[bit / 64] >> (bit % 64) & 1);
}

uint64_t ws_u64set_count_not_in(const struct ws_u64set *a,
                                const struct ws_u64set *b)
{
    uint64_t n = 0;

    for (size_t p = 0; p < a->npages; p++) {
        const struct ws_u64set_page *pa = &a->pages[p];
        size_t q = ws_u64set_find(b, pa->key);
        const uint64_t *other = q ? b->pages[q - 1].bits : NULL;
        for (size_t w = 0; w < sizeof pa->bits / sizeof pa->bits[0]; w++)
            n += (uint64_t)__builtin_popcountll(pa->bits[w]
                                                & ~(other ? other[w] : 0));
    }
    return n;
}

static int ws_u64_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return x < y ? -1 : x > y;
}

void ws_u64_sort(uint64_t *v, size_t n)
{
    qsort(v, n, sizeof *v, ws_u64_cmp);
}
