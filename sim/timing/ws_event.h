/*
 * ws_event: the simulator's event queue, ordered by (cycle, sequence
 * number).  The sequence number is the push order, so events of the same
 * cycle run in a fixed order and every run of the same inputs gives the
 * same numbers.
 *
 * Nearly every event is a sub-core's wake-up a few cycles ahead, so the
 * queue is a timing wheel for the next WS_EVENT_WHEEL cycles (one FIFO
 * list per cycle, a bitmap of the lists in use: push and pop are O(1))
 * with a binary heap (util/ws_heap.h, shared with the MSHRs) for the rare
 * events further out (CTA retirements behind a long memory tail).  Order is the heap's would be: an event goes
 * to the heap only while its cycle is a wheel's turn or more away, and the
 * wheel's base only moves forward, so every heap event of a cycle was
 * pushed before every wheel event of that cycle; a cycle's heap events
 * therefore pop first, then its wheel list in push order.  Storage grows by
 * doubling and never shrinks, so a run's steady state allocates nothing.
 *
 * Leaves out: what events mean (ws_sim.c dispatches on kind).
 */
#ifndef WS_EVENT_H
#define WS_EVENT_H

#include <stddef.h>
#include <stdint.h>

#include "util/ws_heap.h"

#define WS_EVENT_WHEEL 1024 /* cycles; a power of two */
#define WS_EVENT_NIL UINT32_MAX

enum ws_event_kind {
    WS_EV_SUBCORE_WAKE, /* payload: wake */
    WS_EV_CTA_RETIRE    /* payload: retire */
};

/* What an event is about, named per kind. */
union ws_event_payload {
    struct {
        uint32_t sm, sub; /* the sub-core to try to issue */
    } wake;
    struct {
        uint32_t sm, slot; /* the CTA slot whose CTA is done */
    } retire;
};

/* cycle and seq first, in this order: the far heap orders events by them
 * as a struct ws_heap_key (util/ws_heap.h). */
struct ws_event {
    uint64_t cycle;
    uint64_t seq;
    uint32_t kind; /* enum ws_event_kind */
    union ws_event_payload u;
};

struct ws_event_node {
    struct ws_event ev;
    uint32_t next;
};

struct ws_event_queue {
    struct ws_heap far; /* events a wheel's turn or more away */
    uint64_t next_seq;
    uint64_t base; /* the wheel holds [base, base + W) */
    uint32_t head[WS_EVENT_WHEEL], tail[WS_EVENT_WHEEL];
    uint64_t used[WS_EVENT_WHEEL / 64]; /* lists that hold an event */
    struct ws_event_node *nodes;        /* the lists' storage */
    uint32_t nnodes, node_cap, free;
    size_t nwheel;
};

void ws_event_init(struct ws_event_queue *q);
void ws_event_free(struct ws_event_queue *q);
/* Queues an event of `kind` at cycle (the queue numbers it).  The payload
 * goes by value, in a register: it is written into the queue's own storage
 * once, not built in memory by the caller and copied.  0, or -1 when out
 * of memory. */
int ws_event_push(struct ws_event_queue *q, uint64_t cycle,
                  enum ws_event_kind kind, union ws_event_payload p);
/* The earliest event's cycle, UINT64_MAX when empty. */
uint64_t ws_event_next_cycle(const struct ws_event_queue *q);
/* 1 and the next event of cycle t, which must be the earliest cycle
 * (ws_event_next_cycle), or 0 when t has no more: one cycle's events in
 * order without looking for the earliest each time. */
int ws_event_pop_at(struct ws_event_queue *q, uint64_t t, struct ws_event *out);
/* 1 and the earliest event, or 0 when empty. */
int ws_event_pop(struct ws_event_queue *q, struct ws_event *out);

#endif
