/*
 * ws_icnt: the interconnect between the SMs and the L2 slices: per SM a
 * request port (store and atomic data, SM to L2) and a response port
 * (load and atomic data, L2 to SM), each icnt.bandwidth_per_sm wide, and
 * icnt.latency cycles one way.
 *
 * Timed by reservation (ws_memsys.h): data leaves over its port when the
 * port is free, one sector per port time, and arrives icnt.latency later.
 * Stores reach the request port in issue order, so a "free from" time
 * books it; replies reach the response port in the order their round
 * trips end, which is not issue order, so a calendar books it (ws_cal.h).
 * A read request itself is small and costs no port time.  When the slice
 * admits a request (its input queue has room), the request left the SM
 * icnt.latency earlier: that is when the L1's miss queue frees its entry.
 *
 * The level below is a port (ws_mem_req.h): the L2 in the simulator, a
 * stub in the tests.
 *
 * Leaves out: topology (a crossbar without internal contention), packet
 * sizes and flits, the slices' own output ports.
 */
#ifndef WS_ICNT_H
#define WS_ICNT_H

#include <stdint.h>

#include "config/ws_config.h"
#include "ws_cal.h"
#include "ws_mem_req.h"

struct ws_icnt_ports {
    double req_free;    /* SM -> L2 port (store and atomic data) */
    struct ws_cal resp; /* L2 -> SM port (load and atomic data) */
};

struct ws_icnt {
    struct ws_icnt_ports *sm;
    uint32_t nsm;
    uint64_t latency; /* one way */
    double port_cps;  /* core cycles per sector on an SM port */
    struct ws_mem_port below;
};

int ws_icnt_init(struct ws_icnt *n, const struct ws_gpu *g,
                 struct ws_mem_port below);
void ws_icnt_free(struct ws_icnt *n);

/* Carries r (r->src: the SM; r->t: when it leaves the SM's queue, ready)
 * to the level below and back: returns when a read's or atomic's data is
 * in the SM, or when a write is done below; *left is when the request
 * left the SM. */
uint64_t ws_icnt_access(struct ws_icnt *n, const struct ws_line_req *r,
                        uint64_t *left);

/* As a port (ctx: the struct ws_icnt). */
uint64_t ws_icnt_port(void *ctx, const struct ws_line_req *r, uint64_t *left);

#endif
