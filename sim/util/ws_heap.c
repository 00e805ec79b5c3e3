/*
 * ws_heap: binary min-heap by (cycle, seq) (see ws_heap.h).  Push and pop
 * move a hole instead of swapping, so each level costs one element copy.
 */
#include "ws_heap.h"

#include <stdlib.h>
#include <string.h>

#include "ws_grow.h"

static struct ws_heap_key ws_heap_key_of(const unsigned char *p)
{
    struct ws_heap_key k;

    memcpy(&k, p, sizeof k);
    return k;
}

static int ws_heap_less(struct ws_heap_key a, struct ws_heap_key b)
{
    return a.cycle < b.cycle || (a.cycle == b.cycle && a.seq < b.seq);
}

static unsigned char *ws_heap_at(const struct ws_heap *h, size_t i)
{
    return h->v + i * h->size;
}

/* One element.  A bare key (the MSHRs' heaps, the busiest) gets a copy
 * of a size known at compile time, which compiles to a few moves instead
 * of a call: this copy is the heap's inner loop.  A larger element (an
 * event beyond the wheel's horizon, rare) is copied by its size: a branch
 * copying an event's fixed size, inlined by link-time optimization into
 * the MSHRs' push of a bare key, made gcc warn of a read past the key. */
static void ws_heap_copy(const struct ws_heap *h, void *dst, const void *src)
{
    if (h->size == sizeof(struct ws_heap_key))
        memcpy(dst, src, sizeof(struct ws_heap_key));
    else
        memcpy(dst, src, h->size);
}

int ws_heap_init(struct ws_heap *h, size_t size, size_t cap, int fixed)
{
    memset(h, 0, sizeof *h);
    if (size < sizeof(struct ws_heap_key) || size > WS_HEAP_MAX_ELEM)
        return -1;
    h->size = size;
    h->fixed = fixed;
    if (cap == 0)
        return 0;
    return ws_grow((void **)&h->v, &h->cap, cap, size, cap);
}

void ws_heap_free(struct ws_heap *h)
{
    free(h->v);
    h->v = NULL;
    h->n = h->cap = 0;
}

void ws_heap_clear(struct ws_heap *h)
{
    h->n = 0;
}

int ws_heap_push(struct ws_heap *h, const void *elem)
{
    struct ws_heap_key k = ws_heap_key_of(elem);
    size_t i;

    if (h->n == h->cap
        && (h->fixed
            || ws_grow((void **)&h->v, &h->cap, h->n + 1, h->size, 1024) < 0))
        return -1;
    i = h->n++;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!ws_heap_less(k, ws_heap_key_of(ws_heap_at(h, parent))))
            break;
        ws_heap_copy(h, ws_heap_at(h, i), ws_heap_at(h, parent));
        i = parent;
    }
    ws_heap_copy(h, ws_heap_at(h, i), elem);
    return 0;
}

void ws_heap_pop(struct ws_heap *h, void *out)
{
    const unsigned char *last;
    struct ws_heap_key k;
    size_t i = 0;

    if (out)
        ws_heap_copy(h, out, h->v);
    last = ws_heap_at(h, --h->n);
    k = ws_heap_key_of(last);
    /* The hole at the root sinks until the last element fits in it; the
     * last element's own slot, past the new end, is never written. */
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n
            && ws_heap_less(ws_heap_key_of(ws_heap_at(h, c + 1)),
                            ws_heap_key_of(ws_heap_at(h, c))))
            c++;
        if (!ws_heap_less(ws_heap_key_of(ws_heap_at(h, c)), k))
            break;
        ws_heap_copy(h, ws_heap_at(h, i), ws_heap_at(h, c));
        i = c;
    }
    if (i != h->n)
        ws_heap_copy(h, ws_heap_at(h, i), last);
}
