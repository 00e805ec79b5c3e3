/*
 * ws_event: timing wheel and heap of events (see ws_event.h).
 */
#include "ws_event.h"

#include <stdlib.h>
#include <string.h>

#include "util/ws_grow.h"

#define WS_EVENT_MASK (WS_EVENT_WHEEL - 1)
#define WS_EVENT_WORDS (WS_EVENT_WHEEL / 64)

void ws_event_init(struct ws_event_queue *q)
{
    memset(q, 0, sizeof *q);
    for (size_t i = 0; i < WS_EVENT_WHEEL; i++)
        q->head[i] = q->tail[i] = WS_EVENT_NIL;
    q->free = WS_EVENT_NIL;
    /* No storage yet: it cannot fail. */
    (void)ws_heap_init(&q->far, sizeof(struct ws_event), 0, 0);
}

void ws_event_free(struct ws_event_queue *q)
{
    ws_heap_free(&q->far);
    free(q->nodes);
    ws_event_init(q);
}

/* ---- the wheel, for near events ------------------------------------------ */

static uint32_t ws_node_new(struct ws_event_queue *q)
{
    uint32_t i = q->free;
    size_t cap = q->node_cap;

    if (i != WS_EVENT_NIL) {
        q->free = q->nodes[i].next;
        return i;
    }
    if (q->nnodes == UINT32_MAX - 1
        || ws_grow((void **)&q->nodes, &cap, (size_t)q->nnodes + 1,
                   sizeof *q->nodes, 1024)
               < 0)
        return WS_EVENT_NIL;
    q->node_cap = (uint32_t)cap;
    return q->nnodes++;
}

static int ws_wheel_push(struct ws_event_queue *q, uint64_t cycle,
                         uint32_t kind, union ws_event_payload p)
{
    uint32_t i = ws_node_new(q), b = (uint32_t)(cycle & WS_EVENT_MASK);
    struct ws_event *ev;

    if (i == WS_EVENT_NIL)
        return -1;
    ev = &q->nodes[i].ev;
    ev->cycle = cycle;
    ev->seq = q->next_seq++;
    ev->kind = kind;
    ev->u = p;
    q->nodes[i].next = WS_EVENT_NIL;
    if (q->tail[b] == WS_EVENT_NIL)
        q->head[b] = i;
    else
        q->nodes[q->tail[b]].next = i;
    q->tail[b] = i;
    q->used[b / 64] |= UINT64_C(1) << (b % 64);
    q->nwheel++;
    return 0;
}

/* The wheel's earliest cycle: the first list in use at or after base's. */
static uint64_t ws_wheel_first(const struct ws_event_queue *q)
{
    uint32_t start = (uint32_t)(q->base & WS_EVENT_MASK);

    for (uint32_t k = 0; k <= WS_EVENT_WORDS; k++) {
        uint32_t w = (start / 64 + k) % WS_EVENT_WORDS;
        uint64_t bits = q->used[w];
        if (k == 0)
            bits &= ~UINT64_C(0) << (start % 64);
        else if (k == WS_EVENT_WORDS)
            bits &= (UINT64_C(1) << (start % 64)) - 1;
        if (bits) {
            uint32_t b = w * 64 + (uint32_t)__builtin_ctzll(bits);
            return q->base + ((b - start) & WS_EVENT_MASK);
        }
    }
    return UINT64_MAX;
}

static void ws_wheel_pop(struct ws_event_queue *q, uint64_t cycle,
                         struct ws_event *out)
{
    uint32_t b = (uint32_t)(cycle & WS_EVENT_MASK), i = q->head[b];

    *out = q->nodes[i].ev;
    q->head[b] = q->nodes[i].next;
    if (q->head[b] == WS_EVENT_NIL) {
        q->tail[b] = WS_EVENT_NIL;
        q->used[b / 64] &= ~(UINT64_C(1) << (b % 64));
    }
    q->nodes[i].next = q->free;
    q->free = i;
    q->nwheel--;
}

/* ---- the queue ------------------------------------------------------------ */

int ws_event_push(struct ws_event_queue *q, uint64_t cycle,
                  enum ws_event_kind kind, union ws_event_payload p)
{
    struct ws_event ev;

    /* An event in the past (none is pushed so, but the order must hold
     * even then) sorts before every wheel event: the heap takes it. */
    if (cycle >= q->base && cycle - q->base < WS_EVENT_WHEEL)
        return ws_wheel_push(q, cycle, kind, p);
    memset(&ev, 0, sizeof ev);
    ev.cycle = cycle;
    ev.seq = q->next_seq;
    ev.kind = kind;
    ev.u = p;
    if (ws_heap_push(&q->far, &ev) < 0)
        return -1;
    q->next_seq++;
    return 0;
}

uint64_t ws_event_next_cycle(const struct ws_event_queue *q)
{
    uint64_t near = q->nwheel ? ws_wheel_first(q) : UINT64_MAX;

    if (q->far.n && ws_heap_top(&q->far).cycle < near)
        return ws_heap_top(&q->far).cycle;
    return near;
}

int ws_event_pop_at(struct ws_event_queue *q, uint64_t t, struct ws_event *out)
{
    uint32_t b = (uint32_t)(t & WS_EVENT_MASK);

    /* t is the earliest cycle: the heap holds none before it, and its own
     * events of t pop before the wheel's (ws_event.h). */
    if (q->far.n && ws_heap_top(&q->far).cycle == t)
        ws_heap_pop(&q->far, out);
    else if (t >= q->base && t - q->base < WS_EVENT_WHEEL
             && q->head[b] != WS_EVENT_NIL)
        ws_wheel_pop(q, t, out);
    else
        return 0;
    if (out->cycle > q->base)
        q->base = out->cycle;
    return 1;
}

int ws_event_pop(struct ws_event_queue *q, struct ws_event *out)
{
    uint64_t t = ws_event_next_cycle(q);

    return t != UINT64_MAX && ws_event_pop_at(q, t, out);
}
