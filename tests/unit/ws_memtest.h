/*
 * ws_memtest: what the per-level memory tests share (test_mem_*.c): a GPU
 * from a built-in config with overrides, and a stub next level behind a
 * struct ws_mem_port that records every request and answers at chosen
 * cycles, so each level is tested alone, in the manner of ChampSim's
 * per-stage tests.  Header-only: each test is its own program.
 */
#ifndef WS_MEMTEST_H
#define WS_MEMTEST_H

#include <string.h>

#include "config/ws_config.h"
#include "mem/ws_mem_req.h"
#include "ws_test.h"

#define WS_MEMTEST_MAX 256

/* The stub takes a request at max(t, free) (what it reports as *left)
 * and is busy `hold` cycles after each: hold > 0 makes a slow receiver
 * that fills the sender's queue.  It answers `latency` after taking. */
struct ws_memtest_stub {
    struct ws_line_req req[WS_MEMTEST_MAX];
    unsigned n;
    uint64_t latency, hold, free;
};

static inline uint64_t ws_memtest_access(void *ctx, const struct ws_line_req *r,
                                         uint64_t *left)
{
    struct ws_memtest_stub *s = ctx;
    uint64_t took = r->t > s->free ? r->t : s->free;

    if (s->n < WS_MEMTEST_MAX)
        s->req[s->n++] = *r;
    s->free = took + s->hold;
    *left = took;
    return took + s->latency;
}

static inline struct ws_mem_port ws_memtest_port(struct ws_memtest_stub *s,
                                                 uint64_t latency)
{
    struct ws_mem_port p = {ws_memtest_access, s};

    memset(s, 0, sizeof *s);
    s->latency = latency;
    return p;
}

static inline struct ws_gpu ws_memtest_gpu(const char *const *sets, int n)
{
    struct ws_gpu g;
    struct ws_err err;

    ws_err_clear(&err);
    if (ws_cfg_load(&g, "v100", sets, n, &err) < 0)
        fail_msg("%s", err.text);
    return g;
}

/* A line request as the levels make them. */
static inline struct ws_line_req ws_memtest_req(uint64_t line, uint8_t mask,
                                                int op, uint64_t t,
                                                struct ws_counters *ctr)
{
    struct ws_line_req r = {line, t, 0, mask, (uint8_t)op, 0, ctr};

    return r;
}

#endif
