/*
 * ws_cfg_check: cross-key validation (see ws_cfg_check.h).
 *
 * Each rule names the hardware reason it exists, because a user who trips
 * one is usually exploring a hypothetical GPU and needs to know which other
 * key to move with it.
 */
#include "ws_cfg_check.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "trace/ws_trace.h"
#include "ws_cfg_schema.h"

struct ws_cfg_ctx {
    const struct ws_gpu *gpu;
    struct ws_err *err;
};

static int ws_cfg_bad(const struct ws_cfg_ctx *c, const char *key,
                      const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int ws_cfg_key_verror(const struct ws_gpu *gpu, const char *key,
                             struct ws_err *err, const char *fmt, va_list ap)
{
    long k = ws_cfg_key_find(key);
    const struct ws_cfg_loc *l = k >= 0 ? &gpu->loc[k] : NULL;
    char msg[WS_ERR_TEXT];

    vsnprintf(msg, sizeof msg, fmt, ap);
    if (l && l->file)
        return ws_err_at(err, l->file, l->line, l->col, "%s", msg);
    /* gpu is never NULL; the analyser takes l == NULL with k >= 0 for it.
     * NOLINTNEXTLINE(clang-analyzer-core.NullDereference) */
    return ws_err_at(err, gpu->top ? gpu->top : gpu->name, 1, 1, "%s", msg);
}

int ws_cfg_key_error(const struct ws_gpu *gpu, const char *key,
                     struct ws_err *err, const char *fmt, ...)
{
    va_list ap;
    int rc;

    va_start(ap, fmt);
    rc = ws_cfg_key_verror(gpu, key, err, fmt, ap);
    va_end(ap);
    return rc;
}

static int ws_cfg_bad(const struct ws_cfg_ctx *c, const char *key,
                      const char *fmt, ...)
{
    va_list ap;
    int rc;

    va_start(ap, fmt);
    rc = ws_cfg_key_verror(c->gpu, key, c->err, fmt, ap);
    va_end(ap);
    return rc;
}

/* Of two keys a rule relates, the one to blame: the one a --set gave, if
 * only one was, since that is what the user just changed (a --set of
 * dram.t_refi that refresh no longer fits is not the config file's fault);
 * else key. */
static const char *ws_cfg_blame(const struct ws_cfg_ctx *c, const char *key,
                                const char *other)
{
    long k = ws_cfg_key_find(key), o = ws_cfg_key_find(other);
    const char *kf = k >= 0 ? c->gpu->loc[k].file : NULL;
    const char *of = o >= 0 ? c->gpu->loc[o].file : NULL;

    if (of && strcmp(of, WS_CFG_CMDLINE) == 0
        && !(kf && strcmp(kf, WS_CFG_CMDLINE) == 0))
        return other;
    return key;
}

static void ws_cfg_fill_defaults(struct ws_gpu *gpu)
{
    for (int u = 0; u < WS_UNIT_COUNT; u++) {
        struct ws_unit_cfg *uc = &gpu->unit[u];
        /* A unit of L lanes needs 32/L beats for a warp: that is its issue
         * interval unless the config says otherwise (pipelined units). */
        if (uc->interval == 0 && uc->lanes > 0)
            uc->interval = (WS_WARP_SIZE + uc->lanes - 1) / uc->lanes;
    }
}

/* Only two_level reads sched.active_warps, and it ranks warps per sub-core
 * (ws_sm.c): a ready set larger than a sub-core's warps would hold them
 * all, which is LRR under another name.  Under lrr and gto the key means
 * nothing, so it is not checked there.  Ranking costs the square of the
 * sub-core's warps at every issue: 2048 warps on one sub-core take hours
 * for a kernel that 64 simulate in a second, so two_level has its own
 * bound. */
#define WS_CFG_TWO_LEVEL_MAX_WARPS 128

static int ws_cfg_check_sched(const struct ws_gpu *g,
                              const struct ws_cfg_ctx *c)
{
    uint32_t per_sub = (g->sm.max_warps + g->sm.sub_cores - 1)
                       / g->sm.sub_cores;

    if (g->sched.policy != WS_SCHED_TWO_LEVEL)
        return 0;
    if (per_sub > WS_CFG_TWO_LEVEL_MAX_WARPS)
        return ws_cfg_bad(c, "sm.max_warps",
                          "two_level scheduling of %u "
                          "warps per sub-core (expected at most %d: lower "
                          "sm.max_warps or raise sm.sub_cores)",
                          per_sub, WS_CFG_TWO_LEVEL_MAX_WARPS);
    if (g->sched.active_warps > per_sub)
        return ws_cfg_bad(c, "sched.active_warps",
                          "two_level ready set of "
                          "%u warps is larger than the %u warps of a "
                          "sub-core (expected at most sm.max_warps / "
                          "sm.sub_cores = %u)",
                          g->sched.active_warps, per_sub, per_sub);
    return 0;
}

/* A per-kernel split: the carveouts are shares of the unified SRAM, the
 * largest is the SM's shared memory, and l1.size (the most L1 the data
 * cache can use) fits beside the smallest. */
static int ws_cfg_check_carveouts(const struct ws_gpu *g,
                                  const struct ws_cfg_ctx *c)
{
    uint64_t low = g->sm.carveout[0];
    uint64_t high = g->sm.carveout[g->sm.ncarveouts - 1];

    if (high > g->sm.l1_shared)
        return ws_cfg_bad(c, "sm.carveouts",
                          "a carveout of %llu bytes "
                          "exceeds the unified SRAM sm.l1_shared (expected "
                          "carveouts up to %llu)",
                          (unsigned long long)high,
                          (unsigned long long)g->sm.l1_shared);
    if (high != g->sm.shared_mem)
        return ws_cfg_bad(c, "sm.shared_mem",
                          "sm.shared_mem is not the "
                          "largest carveout (expected %llu, the last of "
                          "sm.carveouts)",
                          (unsigned long long)high);
    if (g->l1.size + low > g->sm.l1_shared)
        return ws_cfg_bad(c, "l1.size",
                          "l1.size + the smallest carveout "
                          "exceed the unified SRAM sm.l1_shared (expected "
                          "l1.size <= %llu)",
                          (unsigned long long)(g->sm.l1_shared - low));
    if (g->l1.carveout != WS_CARVEOUT_AUTO && g->l1.carveout > high)
        return ws_cfg_bad(c, "l1.carveout",
                          "carveout larger than any in "
                          "sm.carveouts (expected auto or at most %llu "
                          "bytes)",
                          (unsigned long long)high);
    return 0;
}

static int ws_cfg_check_sm(const struct ws_gpu *g, const struct ws_cfg_ctx *c)
{
    if (g->sm.max_threads > g->sm.max_warps * WS_WARP_SIZE)
        return ws_cfg_bad(c, "sm.max_threads",
                          "sm.max_threads %u needs more "
                          "than sm.max_warps %u warps (expected at most %u "
                          "threads)",
                          g->sm.max_threads, g->sm.max_warps,
                          g->sm.max_warps * WS_WARP_SIZE);
    if (g->sm.shared_per_block > g->sm.shared_mem)
        return ws_cfg_bad(c, "sm.shared_per_block",
                          "a block may not use "
                          "more shared memory than the SM has (expected "
                          "sm.shared_per_block <= sm.shared_mem)");
    if (g->sm.ncarveouts) {
        if (ws_cfg_check_carveouts(g, c) < 0)
            return -1;
    } else if (g->l1.carveout != WS_CARVEOUT_AUTO) {
        return ws_cfg_bad(c, "l1.carveout",
                          "this config's L1/shared split "
                          "is fixed (expected sm.carveouts to list the "
                          "carveouts to choose from)");
    } else if (g->sm.l1_shared
               && g->sm.shared_mem + g->l1.size > g->sm.l1_shared) {
        return ws_cfg_bad(c, "l1.size",
                          "l1.size + sm.shared_mem exceed the "
                          "unified SRAM sm.l1_shared (expected the L1/shared "
                          "split to fit)");
    }
    if (g->sm.reg_alloc_unit > g->sm.registers)
        return ws_cfg_bad(c, "sm.reg_alloc_unit",
                          "register allocation unit "
                          "larger than the register file (expected at most "
                          "sm.registers)");
    if (g->sm.gpcs > g->sm.count)
        return ws_cfg_bad(c, "sm.gpcs",
                          "%u GPCs for %u SMs (expected at most one GPC per "
                          "SM)",
                          g->sm.gpcs, g->sm.count);
    if (g->l2.far_latency && g->l2.far_latency < g->l2.latency)
        return ws_cfg_bad(c, "l2.far_latency",
                          "far L2 hit of %u cycles below the near one's %u "
                          "(expected at least l2.latency)",
                          g->l2.far_latency, g->l2.latency);
    if (g->l2.fetch_granularity
        && (g->l2.fetch_granularity % g->l2.sector
            || g->l2.line % g->l2.fetch_granularity
            || ((g->l2.fetch_granularity / g->l2.sector)
                & (g->l2.fetch_granularity / g->l2.sector - 1))))
        return ws_cfg_bad(c, "l2.fetch_granularity",
                          "fetch granularity of %llu bytes (expected a "
                          "power-of-two number of l2.sector that divides "
                          "l2.line)",
                          (unsigned long long)g->l2.fetch_granularity);
    if (g->icache.line
        && (g->icache.line < 16 || (g->icache.line & (g->icache.line - 1))))
        return ws_cfg_bad(c, "icache.line",
                          "instruction-cache line of %llu bytes (expected a "
                          "power of two of at least 16, one instruction)",
                          (unsigned long long)g->icache.line);
    if (g->icache.l0_size && g->icache.l0_size % ws_icache_line(g))
        return ws_cfg_bad(c, "icache.l0_size",
                          "instruction cache of %llu bytes in lines of %llu "
                          "(expected a whole number of lines)",
                          (unsigned long long)g->icache.l0_size,
                          (unsigned long long)ws_icache_line(g));
    return ws_cfg_check_sched(g, c);
}

/* Sectors subdivide lines, and a set holds assoc lines: the sizes must
 * divide so that set indexing covers the whole capacity. */
static int ws_cfg_check_cache(const struct ws_cfg_ctx *c, const char *name,
                              uint64_t size, uint64_t line, uint64_t sector,
                              uint32_t assoc, uint32_t slices)
{
    char key[32];
    uint64_t per_set = line * assoc * slices;

    snprintf(key, sizeof key, "%s.sector", name);
    if (sector > line)
        return ws_cfg_bad(c, key,
                          "%s.sector larger than %s.line (expected "
                          "sectors that subdivide a line)",
                          name, name);
    snprintf(key, sizeof key, "%s.size", name);
    if (size % per_set != 0 || size / per_set == 0)
        return ws_cfg_bad(c, key,
                          "%s.size %llu is not a whole number of "
                          "sets of %llu bytes (expected a multiple of line x "
                          "assoc%s)",
                          name, (unsigned long long)size,
                          (unsigned long long)per_set,
                          slices > 1 ? " x slices" : "");
    return 0;
}


/* The banked DRAM model's geometry and timings fit together: rows hold a
 * sector, groups divide the banks, and the latency covers the interconnect
 * round trip and an activate (dram.latency is a closed bank's latency). */
static int ws_cfg_check_banked(const struct ws_gpu *g,
                               const struct ws_cfg_ctx *c)
{
    double ghz = g->core_mhz / 1000.0;
    double miss = g->dram.t_rcd * ghz;
    /* GB/s is bytes per ns. */
    double line_ns = (double)g->l2.line
                     / (g->dram.bandwidth / g->dram.channels);

    if (g->dram.row_size < g->l2.sector)
        return ws_cfg_bad(c, "dram.row_size",
                          "DRAM row smaller than an L2 "
                          "sector (expected at least %llu bytes)",
                          (unsigned long long)g->l2.sector);
    if (g->dram.banks % g->dram.bank_groups != 0)
        return ws_cfg_bad(c, "dram.bank_groups",
                          "%u bank groups do not "
                          "divide %u banks (expected a divisor of "
                          "dram.banks)",
                          g->dram.bank_groups, g->dram.banks);
    if ((double)g->dram.latency < 2.0 * g->icnt.latency + miss)
        return ws_cfg_bad(c, ws_cfg_blame(c, "dram.latency", "icnt.latency"),
                          "dram.latency %u is shorter "
                          "than the interconnect round trip and an activate "
                          "(expected at least %.0f core cycles)",
                          g->dram.latency, 2.0 * g->icnt.latency + miss);
    /* A line's burst must fit between two refreshes, or no access could
     * ever run clear of them. */
    if (g->dram.t_refi > 0 && g->dram.t_rfc >= g->dram.t_refi)
        return ws_cfg_bad(c, ws_cfg_blame(c, "dram.t_rfc", "dram.t_refi"),
                          "refresh takes its whole interval "
                          "or more (expected dram.t_rfc < dram.t_refi)");
    if (g->dram.t_refi > 0 && g->dram.t_refi - g->dram.t_rfc < line_ns)
        return ws_cfg_bad(c, ws_cfg_blame(c, "dram.t_rfc", "dram.t_refi"),
                          "refresh leaves %.3g ns between "
                          "refreshes, less than one line's %.3g ns burst "
                          "(expected dram.t_refi - dram.t_rfc >= %.3g ns)",
                          g->dram.t_refi - g->dram.t_rfc, line_ns, line_ns);
    return 0;
}

static int ws_cfg_check_mem(const struct ws_gpu *g, const struct ws_cfg_ctx *c)
{
    if (ws_cfg_check_cache(c, "l1", g->l1.size, g->l1.line, g->l1.sector,
                           g->l1.assoc, 1)
            < 0
        || ws_cfg_check_cache(c, "l2", g->l2.size, g->l2.line, g->l2.sector,
                              g->l2.assoc, g->l2.slices)
               < 0)
        return -1;
    if (g->l1.line != g->l2.line)
        return ws_cfg_bad(c, "l1.line",
                          "l1.line differs from l2.line "
                          "(expected one line size: the memory path moves "
                          "whole lines between them)");
    if (g->l1.sector != g->l2.sector)
        return ws_cfg_bad(c, "l1.sector",
                          "l1.sector differs from l2.sector "
                          "(expected one sector size: the memory path hands "
                          "L1's sector masks to L2)");
    if (g->l1.line / g->l1.sector > 8 || g->l2.line / g->l2.sector > 8)
        return ws_cfg_bad(c, "l2.sector",
                          "more than 8 sectors per line "
                          "(expected line / sector <= 8)");
    if (g->l2.latency <= 2 * g->icnt.latency)
        return ws_cfg_bad(c, "icnt.latency",
                          "the interconnect round trip "
                          "2 x %u is not shorter than l2.latency %u (expected "
                          "l2.latency to include it)",
                          g->icnt.latency, g->l2.latency);
    if (g->dram.latency <= g->l2.latency)
        return ws_cfg_bad(c, "dram.latency",
                          "dram.latency %u is not longer "
                          "than l2.latency %u (expected a miss to cost more "
                          "than a hit)",
                          g->dram.latency, g->l2.latency);
    if (g->l2.slices % g->dram.channels != 0 && g->dram.channels % g->l2.slices)
        return ws_cfg_bad(c, "l2.slices",
                          "l2.slices %u and dram.channels %u "
                          "do not divide (expected slices to be a multiple "
                          "of channels or the reverse)",
                          g->l2.slices, g->dram.channels);
    if (g->dram.banked && ws_cfg_check_banked(g, c) < 0)
        return -1;
    if (g->shared.banks * g->shared.bank_width > 1024)
        return ws_cfg_bad(c, "shared.banks",
                          "shared memory wider than 1 KiB "
                          "per cycle (expected banks x bank_width <= 1024)");
    if (g->model.transaction && g->model.transaction != g->l1.line
        && g->model.transaction != g->l2.sector)
        return ws_cfg_bad(c, "model.transaction",
                          "a transaction of %llu "
                          "bytes (expected l1.line, %llu, or l2.sector, "
                          "%llu: the units the coalescer counts)",
                          (unsigned long long)g->model.transaction,
                          (unsigned long long)g->l1.line,
                          (unsigned long long)g->l2.sector);
    return 0;
}

static int ws_cfg_check_units(const struct ws_gpu *g,
                              const struct ws_cfg_ctx *c)
{
    for (int u = 0; u < WS_UNIT_COUNT; u++) {
        char key[48];
        if (g->unit[u].interval > g->unit[u].latency) {
            snprintf(key, sizeof key, "units.%s.interval",
                     ws_unit_name((enum ws_unit_kind)u));
            return ws_cfg_bad(c, key,
                              "issue interval %u longer than the "
                              "latency %u of units.%s (expected interval <= "
                              "latency)",
                              g->unit[u].interval, g->unit[u].latency,
                              ws_unit_name((enum ws_unit_kind)u));
        }
    }
    return 0;
}

uint64_t ws_cfg_transaction(const struct ws_gpu *gpu)
{
    return gpu->model.transaction ? gpu->model.transaction : gpu->l1.line;
}

int ws_cfg_check(struct ws_gpu *gpu, struct ws_err *err)
{
    struct ws_cfg_ctx c = {gpu, err};

    ws_cfg_fill_defaults(gpu);
    if (ws_cfg_check_sm(gpu, &c) < 0 || ws_cfg_check_mem(gpu, &c) < 0
        || ws_cfg_check_units(gpu, &c) < 0)
        return -1;
    return 0;
}
