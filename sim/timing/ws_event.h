/*
 * ws_event: the simulator's event queue, a binary min-heap ordered by
 * (cycle, sequence number).  The sequence number is the push order, so
 * events of the same cycle run in a fixed order and every run of the same
 * inputs gives the same numbers.  The heap grows by doubling and never
 * shrinks, so a run's steady state allocates nothing.
 *
 * Leaves out: what events mean (ws_sim.c dispatches on kind).
 */
#ifndef WS_EVENT_H
#define WS_EVENT_H

#include <stddef.h>
#include <stdint.h>

enum ws_event_kind {
    WS_EV_SUBCORE_WAKE,    /* a = SM, b = sub-core */
    WS_EV_CTA_RETIRE       /* a = SM, b = CTA slot */
};

struct ws_event {
    uint64_t cycle;
    uint64_t seq;
    uint32_t kind, a, b;
};

struct ws_event_queue {
    struct ws_event *heap;
    size_t n, cap;
    uint64_t next_seq;
};

void ws_event_init(struct ws_event_queue *q);
void ws_event_free(struct ws_event_queue *q);
int ws_event_push(struct ws_event_queue *q, uint64_t cycle, uint32_t kind,
                  uint32_t a, uint32_t b);
/* 1 and the earliest event, or 0 when empty. */
int ws_event_pop(struct ws_event_queue *q, struct ws_event *out);

#endif
