/*
 * ws_icnt: SM ports and the interconnect latency (see ws_icnt.h).
 */
#include "ws_icnt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/ws_bits.h"

static uint64_t ws_icnt_ceil(double x)
{
    return (uint64_t)ceil(x - 1e-9);
}

int ws_icnt_init(struct ws_icnt *n, const struct ws_gpu *g,
                 struct ws_mem_port below)
{
    double ghz = g->core_mhz / 1000.0;

    memset(n, 0, sizeof *n);
    n->nsm = g->sm.count;
    n->latency = g->icnt.latency;
    /* GB/s divided by GHz is bytes per core cycle. */
    n->port_cps = (double)(uint32_t)g->l2.sector
                  / (g->icnt.bandwidth_per_sm / ghz);
    n->below = below;
    n->sm = calloc(n->nsm, sizeof *n->sm);
    if (!n->sm)
        return -1;
    for (uint32_t s = 0; s < n->nsm; s++)
        if (ws_cal_init(&n->sm[s].resp, n->port_cps) < 0) {
            ws_icnt_free(n);
            return -1;
        }
    return 0;
}

void ws_icnt_free(struct ws_icnt *n)
{
    for (uint32_t s = 0; n->sm && s < n->nsm; s++)
        ws_cal_free(&n->sm[s].resp);
    free(n->sm);
    memset(n, 0, sizeof *n);
}


/* Store and atomic data over the SM's request port: when they arrive. */
static uint64_t ws_icnt_request(struct ws_icnt *n, struct ws_icnt_ports *p,
                                uint64_t t, unsigned nsect)
{
    double start = fmax((double)t, p->req_free);

    p->req_free = start + nsect * n->port_cps;
    return ws_icnt_ceil(start) + n->latency;
}

/* Data for nsect sectors back over the SM's response port. */
static uint64_t ws_icnt_response(struct ws_icnt *n, struct ws_icnt_ports *p,
                                 uint64_t ready_below, unsigned nsect)
{
    return ws_cal_reserve(&p->resp, ready_below + n->latency, nsect);
}

uint64_t ws_icnt_access(struct ws_icnt *n, const struct ws_line_req *r,
                        uint64_t *left)
{
    struct ws_icnt_ports *p = &n->sm[r->src];
    unsigned nsect = ws_popcount32(r->mask);
    struct ws_line_req down = *r;
    uint64_t done, admitted;

    if (r->op == WS_LINE_READ)
        down.t = r->t + n->latency;
    else
        down.t = ws_icnt_request(n, p, r->t, nsect);
    done = n->below.access(n->below.ctx, &down, &admitted);
    *left = admitted > n->latency ? admitted - n->latency : 0;
    if (r->op == WS_LINE_WRITE)
        return done;
    return ws_icnt_response(n, p, done, nsect);
}

uint64_t ws_icnt_port(void *ctx, const struct ws_line_req *r, uint64_t *left)
{
    return ws_icnt_access(ctx, r, left);
}
