/*
 * ws_event: binary heap of events (see ws_event.h).
 */
#include "ws_event.h"

#include <stdlib.h>

#include "util/ws_grow.h"

void ws_event_init(struct ws_event_queue *q)
{
    q->heap = NULL;
    q->n = q->cap = 0;
    q->next_seq = 0;
}

void ws_event_free(struct ws_event_queue *q)
{
    free(q->heap);
    ws_event_init(q);
}

static int ws_event_less(const struct ws_event *a, const struct ws_event *b)
{
    return a->cycle < b->cycle || (a->cycle == b->cycle && a->seq < b->seq);
}

int ws_event_push(struct ws_event_queue *q, uint64_t cycle, uint32_t kind,
                  uint32_t a, uint32_t b)
{
    size_t i;

    if (ws_grow((void **)&q->heap, &q->cap, q->n + 1, sizeof *q->heap,
                1024) < 0)
        return -1;
    i = q->n++;
    q->heap[i].cycle = cycle;
    q->heap[i].seq = q->next_seq++;
    q->heap[i].kind = kind;
    q->heap[i].a = a;
    q->heap[i].b = b;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        struct ws_event tmp;
        if (!ws_event_less(&q->heap[i], &q->heap[parent]))
            break;
        tmp = q->heap[i];
        q->heap[i] = q->heap[parent];
        q->heap[parent] = tmp;
        i = parent;
    }
    return 0;
}

int ws_event_pop(struct ws_event_queue *q, struct ws_event *out)
{
    size_t i = 0;

    if (q->n == 0)
        return 0;
    *out = q->heap[0];
    q->heap[0] = q->heap[--q->n];
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        struct ws_event tmp;
        if (l < q->n && ws_event_less(&q->heap[l], &q->heap[m]))
            m = l;
        if (r < q->n && ws_event_less(&q->heap[r], &q->heap[m]))
            m = r;
        if (m == i)
            break;
        tmp = q->heap[i];
        q->heap[i] = q->heap[m];
        q->heap[m] = tmp;
        i = m;
    }
    return 1;
}
