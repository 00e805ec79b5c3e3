/*
 * ws_cal: a port of fixed bandwidth whose reservations may be made out of
 * arrival order, kept as a calendar: a ring of per-cycle slots, each with
 * the share of its cycle's capacity already taken.
 *
 * Timing is by reservation (ws_memsys.h): a resource is booked when the
 * simulator reaches the request, which is issue order.  A port booked as
 * a single "free from" time (ws_icnt's request port, DRAM's buses) is
 * right while requests reach it in the order they were issued.  Data
 * coming back to an SM does not: an L2 hit issued after a DRAM miss
 * arrives first, as does a miss homed in the near L2 half after one homed
 * in the far half (ws_l2.h).  With a "free from" time the early arrival
 * would queue behind a transfer that has not begun; the calendar gives it
 * the cycles still free at its arrival.
 *
 * Leaves out: an arrival more than WS_CAL_SLOTS cycles before the latest
 * cycle booked is booked as if it arrived that far back (the ring no
 * longer holds its cycles): it may wait longer than it should, but the
 * port never moves more than its capacity; no arbitration order within a
 * cycle (capacity goes first come, first served in booking order).
 */
#ifndef WS_CAL_H
#define WS_CAL_H

#include <stdint.h>

/* The ring's span in cycles: a power of two, beyond the spread of round
 * trips that reach one port out of order under ordinary load. */
#define WS_CAL_SLOTS 2048u

struct ws_cal {
    uint64_t *stamp; /* [WS_CAL_SLOTS]: cycle + 1 the slot holds, 0: none */
    float *used;     /* [WS_CAL_SLOTS]: sectors of that cycle taken */
    double cap;      /* sectors per cycle */
    uint64_t newest; /* the latest cycle booked */
    uint64_t full_lo, full_hi; /* [lo, hi): cycles known to be full */
};

/* sector_cycles: cycles one sector takes (> 0). */
int ws_cal_init(struct ws_cal *c, double sector_cycles);
void ws_cal_free(struct ws_cal *c);
void ws_cal_clear(struct ws_cal *c);
/* Books n sectors arriving at t: returns the first cycle (>= t) in which
 * they move; they take the capacity left in that cycle and the next. */
uint64_t ws_cal_reserve(struct ws_cal *c, uint64_t t, unsigned n);

#endif
