/*
 * ws_cfg_schema: the key table (see ws_cfg_schema.h).
 *
 * Limits are sanity bounds, not claims about any product: wide enough for
 * every GPU from Fermi to Hopper and for "what if" configs several times
 * larger, narrow enough that a typo of three extra zeros is caught.  The
 * caches' tag arrays are allocated in full (an L1 per SM), so their sizes
 * stop at 16 MiB (L1, 64 times Hopper's) and 1 GiB (L2); the state of the
 * whole GPU has its own bound (ws_cfg_check.c).
 */
#include "ws_cfg_schema.h"

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "trace/ws_opcode.h"
#include "util/ws_utf8.h"
#include "ws_units.h"

/* The enum keys' names tables.  A field they fill is read and written as an
 * int, which an enum of small non-negative values is the size of. */
static const char *const ws_cfg_policy_names[] = {"lrr", "gto", "two_level"};
_Static_assert(sizeof ws_cfg_policy_names / sizeof ws_cfg_policy_names[0]
                   == WS_SCHED_TWO_LEVEL + 1,
               "a name per enum ws_sched_policy");
_Static_assert(sizeof(enum ws_sched_policy) == sizeof(int), "int-sized");
static const struct ws_cfg_enum ws_cfg_policy = {ws_cfg_policy_names,
                                                 WS_SCHED_TWO_LEVEL + 1, NULL};

static const char *const ws_cfg_hash_names[] = {"xor", "linear"};
_Static_assert(sizeof ws_cfg_hash_names / sizeof ws_cfg_hash_names[0]
                   == WS_L2_HASH_LINEAR + 1,
               "a name per enum ws_l2_hash");
_Static_assert(sizeof(enum ws_l2_hash) == sizeof(int), "int-sized");
static const struct ws_cfg_enum ws_cfg_hash = {ws_cfg_hash_names,
                                               WS_L2_HASH_LINEAR + 1, NULL};

static const char *const ws_cfg_repl_names[] = {"lru", "fifo"};
_Static_assert(sizeof ws_cfg_repl_names / sizeof ws_cfg_repl_names[0]
                   == WS_REPL_FIFO + 1,
               "a name per enum ws_repl_policy");
_Static_assert(sizeof(enum ws_repl_policy) == sizeof(int), "int-sized");
static const struct ws_cfg_enum ws_cfg_repl = {ws_cfg_repl_names,
                                               WS_REPL_FIFO + 1, NULL};

/* The trace reader's own names, so the two cannot drift. */
static const struct ws_cfg_enum ws_cfg_opclass = {ws_opcode_class_names,
                                                  WS_OPC_COUNT,
                                                  "an opcode class"};

#define F(member) offsetof(struct ws_gpu, member)
static const struct ws_key ws_cfg_keys[] = {
    {"name", WS_KT_STRING, F(name), NULL, 0,
     sizeof((struct ws_gpu *)0)->name - 1, 0},
    {"source", WS_KT_STRING, F(source), NULL, 0,
     sizeof((struct ws_gpu *)0)->source - 1, WS_KF_OPTIONAL},
    {"sm_version", WS_KT_COUNT, F(sm_version), 0, 10, 199, 0},
    {"unknown_opcode_class", WS_KT_ENUM, F(unknown_class), &ws_cfg_opclass, 0,
     0, WS_KF_OPTIONAL},
    {"clock.core", WS_KT_FREQ, F(core_mhz), 0, 1, 100000, 0},
    {"sm.count", WS_KT_COUNT, F(sm.count), 0, 1, 100000, 0},
    {"sm.sub_cores", WS_KT_COUNT, F(sm.sub_cores), 0, 1, 16, 0},
    {"sm.max_threads", WS_KT_COUNT, F(sm.max_threads), 0, 32, 65536, 0},
    {"sm.max_warps", WS_KT_COUNT, F(sm.max_warps), 0, 1, 2048, 0},
    {"sm.max_blocks", WS_KT_COUNT, F(sm.max_blocks), 0, 1, 1024, 0},
    {"sm.registers", WS_KT_COUNT, F(sm.registers), 0, 1024, 16777216, 0},
    {"sm.reg_alloc_unit", WS_KT_COUNT, F(sm.reg_alloc_unit), 0, 1, 65536,
     WS_KF_POW2},
    {"sm.shared_mem", WS_KT_SIZE, F(sm.shared_mem), 0, 1024, 1073741824.0, 0},
    {"sm.shared_per_block", WS_KT_SIZE, F(sm.shared_per_block), 0, 1024,
     1073741824.0, 0},
    {"sm.shared_alloc_unit", WS_KT_SIZE, F(sm.shared_alloc_unit), 0, 1, 1048576,
     WS_KF_POW2},
    {"sm.shared_reserved", WS_KT_SIZE, F(sm.shared_reserved), 0, 0, 1048576,
     WS_KF_OPTIONAL | WS_KF_ZERO_OK | WS_KF_IF_SET},
    {"sm.s2r_latency", WS_KT_CYCLES, F(sm.s2r_latency), 0, 0, 100000,
     WS_KF_OPTIONAL | WS_KF_ZERO_OK | WS_KF_IF_SET},
    {"sm.l1_shared", WS_KT_SIZE, F(sm.l1_shared), 0, 0, 1073741824.0,
     WS_KF_ZERO_OK},
    {"sm.carveouts", WS_KT_SIZES, F(sm.carveout), 0, 0, 1073741824.0,
     WS_KF_OPTIONAL},
    {"sm.gpcs", WS_KT_COUNT, F(sm.gpcs), 0, 0, 1024,
     WS_KF_OPTIONAL | WS_KF_ZERO_OK | WS_KF_IF_SET},
    {"sched.policy", WS_KT_ENUM, F(sched.policy), &ws_cfg_policy, 0, 0, 0},
    {"sched.active_warps", WS_KT_COUNT, F(sched.active_warps), 0, 1, 2048,
     WS_KF_OPTIONAL},
    {"sched.dual_issue", WS_KT_BOOL, F(sched.dual_issue), 0, 0, 0, 0},
    {"sched.control_bits", WS_KT_BOOL, F(sched.control_bits), 0, 0, 0,
     WS_KF_OPTIONAL | WS_KF_IF_SET},
    {"regfile.banks", WS_KT_COUNT, F(regfile.banks), 0, 0, 64,
     WS_KF_OPTIONAL | WS_KF_ZERO_OK | WS_KF_IF_SET},
    {"icache.l0_size", WS_KT_SIZE, F(icache.l0_size), 0, 0, 1073741824.0,
     WS_KF_OPTIONAL | WS_KF_ZERO_OK | WS_KF_IF_SET},
    {"icache.line", WS_KT_SIZE, F(icache.line), 0, 0, 65536,
     WS_KF_OPTIONAL | WS_KF_ZERO_OK | WS_KF_IF_SET},
    {"icache.latency", WS_KT_CYCLES, F(icache.latency), 0, 0, 100000,
     WS_KF_OPTIONAL | WS_KF_ZERO_OK | WS_KF_IF_SET},
    {"icache.prefetch", WS_KT_COUNT, F(icache.prefetch), 0, 0, 64,
     WS_KF_OPTIONAL | WS_KF_ZERO_OK | WS_KF_IF_SET},
    {"icache.fill_interval", WS_KT_CYCLES, F(icache.fill_interval), 0, 0,
     100000, WS_KF_OPTIONAL | WS_KF_ZERO_OK | WS_KF_IF_SET},
    {"units.fp32.lanes", WS_KT_COUNT, F(unit[WS_UNIT_FP32].lanes), 0, 1, 64, 0},
    {"units.fp32.latency", WS_KT_CYCLES, F(unit[WS_UNIT_FP32].latency), 0, 1,
     10000, 0},
    {"units.fp32.interval", WS_KT_CYCLES, F(unit[WS_UNIT_FP32].interval), 0, 1,
     10000, WS_KF_OPTIONAL},
    {"units.fp16.lanes", WS_KT_COUNT, F(unit[WS_UNIT_FP16].lanes), 0, 1, 64, 0},
    {"units.fp16.latency", WS_KT_CYCLES, F(unit[WS_UNIT_FP16].latency), 0, 1,
     10000, 0},
    {"units.fp16.interval", WS_KT_CYCLES, F(unit[WS_UNIT_FP16].interval), 0, 1,
     10000, WS_KF_OPTIONAL},
    {"units.int.lanes", WS_KT_COUNT, F(unit[WS_UNIT_INT].lanes), 0, 1, 64, 0},
    {"units.int.latency", WS_KT_CYCLES, F(unit[WS_UNIT_INT].latency), 0, 1,
     10000, 0},
    {"units.int.interval", WS_KT_CYCLES, F(unit[WS_UNIT_INT].interval), 0, 1,
     10000, WS_KF_OPTIONAL},
    {"units.fp64.lanes", WS_KT_COUNT, F(unit[WS_UNIT_FP64].lanes), 0, 1, 64, 0},
    {"units.fp64.latency", WS_KT_CYCLES, F(unit[WS_UNIT_FP64].latency), 0, 1,
     10000, 0},
    {"units.fp64.interval", WS_KT_CYCLES, F(unit[WS_UNIT_FP64].interval), 0, 1,
     10000, WS_KF_OPTIONAL},
    {"units.sfu.lanes", WS_KT_COUNT, F(unit[WS_UNIT_SFU].lanes), 0, 1, 64, 0},
    {"units.sfu.latency", WS_KT_CYCLES, F(unit[WS_UNIT_SFU].latency), 0, 1,
     10000, 0},
    {"units.sfu.interval", WS_KT_CYCLES, F(unit[WS_UNIT_SFU].interval), 0, 1,
     10000, WS_KF_OPTIONAL},
    {"units.tensor.lanes", WS_KT_COUNT, F(unit[WS_UNIT_TENSOR].lanes), 0, 1, 64,
     0},
    {"units.tensor.latency", WS_KT_CYCLES, F(unit[WS_UNIT_TENSOR].latency), 0,
     1, 10000, 0},
    {"units.tensor.interval", WS_KT_CYCLES, F(unit[WS_UNIT_TENSOR].interval), 0,
     1, 10000, WS_KF_OPTIONAL},
    {"units.uniform.lanes", WS_KT_COUNT, F(unit[WS_UNIT_UNIFORM].lanes), 0, 1,
     64, 0},
    {"units.uniform.latency", WS_KT_CYCLES, F(unit[WS_UNIT_UNIFORM].latency), 0,
     1, 10000, 0},
    {"units.uniform.interval", WS_KT_CYCLES, F(unit[WS_UNIT_UNIFORM].interval),
     0, 1, 10000, WS_KF_OPTIONAL},
    {"units.misc.lanes", WS_KT_COUNT, F(unit[WS_UNIT_MISC].lanes), 0, 1, 64, 0},
    {"units.misc.latency", WS_KT_CYCLES, F(unit[WS_UNIT_MISC].latency), 0, 1,
     10000, 0},
    {"units.misc.interval", WS_KT_CYCLES, F(unit[WS_UNIT_MISC].interval), 0, 1,
     10000, WS_KF_OPTIONAL},
    {"units.branch.lanes", WS_KT_COUNT, F(unit[WS_UNIT_BRANCH].lanes), 0, 1, 64,
     0},
    {"units.branch.latency", WS_KT_CYCLES, F(unit[WS_UNIT_BRANCH].latency), 0,
     1, 10000, 0},
    {"units.branch.interval", WS_KT_CYCLES, F(unit[WS_UNIT_BRANCH].interval), 0,
     1, 10000, WS_KF_OPTIONAL},
    {"units.ldst.lanes", WS_KT_COUNT, F(unit[WS_UNIT_LDST].lanes), 0, 1, 64, 0},
    {"units.ldst.latency", WS_KT_CYCLES, F(unit[WS_UNIT_LDST].latency), 0, 1,
     10000, 0},
    {"units.ldst.interval", WS_KT_CYCLES, F(unit[WS_UNIT_LDST].interval), 0, 1,
     10000, WS_KF_OPTIONAL},
    {"l1.enabled", WS_KT_BOOL, F(l1.enabled), 0, 0, 0, 0},
    {"l1.size", WS_KT_SIZE, F(l1.size), 0, 1024, 16777216.0, 0},
    {"l1.line", WS_KT_SIZE, F(l1.line), 0, 16, 4096, WS_KF_POW2},
    {"l1.sector", WS_KT_SIZE, F(l1.sector), 0, 4, 4096, WS_KF_POW2},
    {"l1.assoc", WS_KT_COUNT, F(l1.assoc), 0, 1, 1024, 0},
    {"l1.replacement", WS_KT_ENUM, F(l1.repl), &ws_cfg_repl, 0, 0,
     WS_KF_OPTIONAL},
    {"l1.latency", WS_KT_CYCLES, F(l1.latency), 0, 1, 100000, 0},
    {"l1.mshrs", WS_KT_COUNT, F(l1.mshrs), 0, 1, 65536, 0},
    {"l1.miss_queue", WS_KT_COUNT, F(l1.miss_queue), 0, 1, 65536,
     WS_KF_OPTIONAL},
    {"l1.carveout", WS_KT_CARVEOUT, F(l1.carveout), 0, 0, 1073741824.0,
     WS_KF_OPTIONAL | WS_KF_ZERO_OK},
    {"shared.banks", WS_KT_COUNT, F(shared.banks), 0, 1, 1024, WS_KF_POW2},
    {"shared.bank_width", WS_KT_SIZE, F(shared.bank_width), 0, 1, 64,
     WS_KF_POW2},
    {"shared.latency", WS_KT_CYCLES, F(shared.latency), 0, 1, 100000, 0},
    {"l2.size", WS_KT_SIZE, F(l2.size), 0, 1024, 1073741824.0, 0},
    {"l2.line", WS_KT_SIZE, F(l2.line), 0, 16, 4096, WS_KF_POW2},
    {"l2.sector", WS_KT_SIZE, F(l2.sector), 0, 4, 4096, WS_KF_POW2},
    {"l2.assoc", WS_KT_COUNT, F(l2.assoc), 0, 1, 1024, 0},
    {"l2.replacement", WS_KT_ENUM, F(l2.repl), &ws_cfg_repl, 0, 0,
     WS_KF_OPTIONAL},
    {"l2.slices", WS_KT_COUNT, F(l2.slices), 0, 1, 4096, 0},
    {"l2.latency", WS_KT_CYCLES, F(l2.latency), 0, 1, 100000, 0},
    {"l2.mshrs", WS_KT_COUNT, F(l2.mshrs), 0, 1, 65536, 0},
    {"l2.input_queue", WS_KT_COUNT, F(l2.input_queue), 0, 1, 65536,
     WS_KF_OPTIONAL},
    {"l2.bandwidth", WS_KT_BW, F(l2.bandwidth), 0, 0.001, 1e7, 0},
    {"l2.hash", WS_KT_ENUM, F(l2.hash), &ws_cfg_hash, 0, 0, 0},
    {"l2.far_latency", WS_KT_CYCLES, F(l2.far_latency), 0, 0, 100000,
     WS_KF_OPTIONAL | WS_KF_ZERO_OK | WS_KF_IF_SET},
    {"l2.fetch_granularity", WS_KT_SIZE, F(l2.fetch_granularity), 0, 0, 4096,
     WS_KF_OPTIONAL | WS_KF_ZERO_OK | WS_KF_IF_SET},
    {"dram.channels", WS_KT_COUNT, F(dram.channels), 0, 1, 4096, 0},
    {"dram.latency", WS_KT_CYCLES, F(dram.latency), 0, 1, 100000, 0},
    {"dram.bandwidth", WS_KT_BW, F(dram.bandwidth), 0, 0.001, 1e6, 0},
    {"dram.clock", WS_KT_FREQ, F(dram.clock_mhz), 0, 1, 100000, 0},
    {"dram.banked", WS_KT_BOOL, F(dram.banked), 0, 0, 0, WS_KF_OPTIONAL},
    {"dram.row_size", WS_KT_SIZE, F(dram.row_size), 0, 32, 1048576, WS_KF_POW2},
    {"dram.banks", WS_KT_COUNT, F(dram.banks), 0, 1, 1024, 0},
    {"dram.bank_groups", WS_KT_COUNT, F(dram.bank_groups), 0, 1, 64,
     WS_KF_OPTIONAL},
    {"dram.burst", WS_KT_SIZE, F(dram.burst), 0, 4, 4096,
     WS_KF_POW2 | WS_KF_OPTIONAL},
    {"dram.write_batch", WS_KT_COUNT, F(dram.write_batch), 0, 1, 4096,
     WS_KF_OPTIONAL},
    {"dram.t_rcd", WS_KT_TIME, F(dram.t_rcd), 0, 0, 1000,
     WS_KF_ZERO_OK | WS_KF_OPTIONAL},
    {"dram.t_rp", WS_KT_TIME, F(dram.t_rp), 0, 0, 1000,
     WS_KF_ZERO_OK | WS_KF_OPTIONAL},
    {"dram.t_ras", WS_KT_TIME, F(dram.t_ras), 0, 0, 1000,
     WS_KF_ZERO_OK | WS_KF_OPTIONAL},
    {"dram.t_ccd_l", WS_KT_TIME, F(dram.t_ccd_l), 0, 0, 1000,
     WS_KF_ZERO_OK | WS_KF_OPTIONAL},
    {"dram.t_wtr", WS_KT_TIME, F(dram.t_wtr), 0, 0, 1000,
     WS_KF_ZERO_OK | WS_KF_OPTIONAL},
    {"dram.t_rtw", WS_KT_TIME, F(dram.t_rtw), 0, 0, 1000,
     WS_KF_ZERO_OK | WS_KF_OPTIONAL},
    {"dram.t_rfc", WS_KT_TIME, F(dram.t_rfc), 0, 0, 10000,
     WS_KF_ZERO_OK | WS_KF_OPTIONAL},
    {"dram.refresh_per_bank", WS_KT_BOOL, F(dram.refresh_per_bank), 0, 0, 0,
     WS_KF_OPTIONAL},
    {"dram.t_refi", WS_KT_TIME, F(dram.t_refi), 0, 100, 1e8,
     WS_KF_ZERO_OK | WS_KF_OPTIONAL},
    {"icnt.latency", WS_KT_CYCLES, F(icnt.latency), 0, 0, 100000,
     WS_KF_ZERO_OK},
    {"icnt.bandwidth_per_sm", WS_KT_BW, F(icnt.bandwidth_per_sm), 0, 0.001, 1e6,
     0},
    {"wgmma.macs", WS_KT_REAL, F(wgmma.macs), 0, 0, 1e6,
     WS_KF_OPTIONAL | WS_KF_ZERO_OK | WS_KF_IF_SET},
    {"wgmma.latency", WS_KT_CYCLES, F(wgmma.latency), 0, 0, 100000,
     WS_KF_OPTIONAL | WS_KF_ZERO_OK | WS_KF_IF_SET},
    {"wgmma.min_interval", WS_KT_CYCLES, F(wgmma.min_interval), 0, 0, 100000,
     WS_KF_OPTIONAL | WS_KF_ZERO_OK | WS_KF_IF_SET},
    {"tma.bytes_per_clk", WS_KT_REAL, F(tma.bytes_per_clk), 0, 1, 1e6,
     WS_KF_OPTIONAL | WS_KF_ZERO_OK | WS_KF_IF_SET},
    {"tma.latency", WS_KT_CYCLES, F(tma.latency), 0, 0, 100000,
     WS_KF_OPTIONAL | WS_KF_ZERO_OK | WS_KF_IF_SET},
    {"dsmem.latency", WS_KT_CYCLES, F(dsmem.latency), 0, 0, 100000,
     WS_KF_OPTIONAL | WS_KF_ZERO_OK | WS_KF_IF_SET},
    {"dsmem.bytes_per_clk", WS_KT_REAL, F(dsmem.bytes_per_clk), 0, 1, 1e6,
     WS_KF_OPTIONAL | WS_KF_ZERO_OK | WS_KF_IF_SET},
    {"launch_overhead", WS_KT_CYCLES, F(launch_overhead), 0, 0, 100000000,
     WS_KF_ZERO_OK},
    {"memcpy_warms_l2", WS_KT_BOOL, F(memcpy_warms_l2), 0, 0, 0, 0},
    {"model.tmm_scale", WS_KT_REAL, F(model.tmm_scale), 0, 1e-3, 1e3,
     WS_KF_OPTIONAL},
    /* 0 for these: the line, and the probe's measurement (ws_config.h). */
    {"model.transaction", WS_KT_SIZE, F(model.transaction), 0, 0, 4096,
     WS_KF_OPTIONAL | WS_KF_POW2 | WS_KF_ZERO_OK},
    {"model.departure_del_uncoal", WS_KT_REAL, F(model.departure_del_uncoal), 0,
     0, 1e4, WS_KF_OPTIONAL | WS_KF_ZERO_OK},
    {"model.departure_del_coal", WS_KT_REAL, F(model.departure_del_coal), 0, 0,
     1e4, WS_KF_OPTIONAL | WS_KF_ZERO_OK},
};

#define WS_CFG_NKEYS (sizeof ws_cfg_keys / sizeof ws_cfg_keys[0])
_Static_assert(WS_CFG_NKEYS <= WS_CFG_MAX_KEYS,
               "struct ws_gpu's loc[] must hold every key");

int ws_cfg_key_absent(const struct ws_key *k, const struct ws_gpu *gpu)
{
    double v;

    return (k->flags & WS_KF_IF_SET) && ws_cfg_key_number(k, gpu, &v) == 0
           && v == 0;
}

size_t ws_cfg_key_count(void)
{
    return WS_CFG_NKEYS;
}

const struct ws_key *ws_cfg_key(size_t i)
{
    return i < WS_CFG_NKEYS ? &ws_cfg_keys[i] : NULL;
}

long ws_cfg_key_find(const char *path)
{
    for (size_t i = 0; i < WS_CFG_NKEYS; i++)
        if (strcmp(ws_cfg_keys[i].path, path) == 0)
            return (long)i;
    return -1;
}

int ws_cfg_key_is_group(const char *path)
{
    size_t n = strlen(path);

    for (size_t i = 0; i < WS_CFG_NKEYS; i++)
        if (strncmp(ws_cfg_keys[i].path, path, n) == 0
            && ws_cfg_keys[i].path[n] == '.')
            return 1;
    return 0;
}

static size_t ws_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    size_t row[128];

    if (lb >= sizeof row / sizeof row[0])
        return (size_t)-1;
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            diag = up;
            row[j] = best;
        }
    }
    return row[lb];
}

int ws_cfg_key_common_groups(const char *prev, const char *path,
                             const char **rest)
{
    const char *p = path, *q = prev;
    int depth = 0;

    for (;;) {
        const char *dp = strchr(p, '.'), *dq = q ? strchr(q, '.') : NULL;
        if (!dp || !dq || dp - p != dq - q || strncmp(p, q, (size_t)(dp - p)))
            break;
        p = dp + 1;
        q = dq + 1;
        depth++;
    }
    *rest = p;
    return depth;
}

const char *ws_cfg_key_suggest(const char *path)
{
    const char *best = NULL;
    size_t best_d = 4;

    /* Within 3 edits of a key means shorter than 128 bytes; the distance
     * costs length x length, and a key may be a megabyte long. */
    if (strnlen(path, 128) == 128)
        return NULL;
    for (size_t i = 0; i < WS_CFG_NKEYS; i++) {
        size_t d = ws_edit_distance(path, ws_cfg_keys[i].path);
        if (d < best_d) {
            best_d = d;
            best = ws_cfg_keys[i].path;
        }
    }
    return best;
}

/* "lrr, gto or two_level", after "an opcode class: " when the table says
 * what its names are. */
static const char *ws_cfg_enum_expected(const struct ws_cfg_enum *e)
{
    static char buf[512];
    size_t o = 0;

    buf[0] = '\0';
    if (e->what)
        o = (size_t)snprintf(buf, sizeof buf, "%s: ", e->what);
    for (int i = 0; i < e->count && o < sizeof buf; i++)
        o += (size_t)snprintf(buf + o, sizeof buf - o, "%s%s",
                              i == 0             ? ""
                              : i + 1 < e->count ? ", "
                                                 : " or ",
                              e->names[i]);
    return buf;
}

static int ws_cfg_parse_enum(const struct ws_cfg_enum *e, const char *text,
                             int *out, const char **expected)
{
    for (int i = 0; i < e->count; i++) {
        if (strcmp(text, e->names[i]) == 0) {
            *out = i;
            return 0;
        }
    }
    *expected = ws_cfg_enum_expected(e);
    return -1;
}

static int ws_cfg_check_range(const struct ws_key *k, double v,
                              const char **expected)
{
    static char buf[160];

    if (v == 0 && (k->flags & WS_KF_ZERO_OK))
        return 0;
    if (v < k->min || v > k->max) {
        const char *unit = k->type == WS_KT_TIME   ? "ns"
                           : k->type == WS_KT_SIZE ? " bytes"
                           : k->type == WS_KT_FREQ ? "MHz"
                           : k->type == WS_KT_BW   ? "GB/s"
                                                   : "";
        snprintf(buf, sizeof buf, "a value from %.15g%s to %.15g%s", k->min,
                 unit, k->max, unit);
        *expected = buf;
        return -1;
    }
    if ((k->flags & WS_KF_POW2)
        && (v != floor(v) || ((uint64_t)v & ((uint64_t)v - 1)) != 0)) {
        *expected = "a power of two, as the hardware indexes with it";
        return -1;
    }
    return 0;
}

static int ws_cfg_parse_number(const struct ws_key *k, void *field,
                               const char *text, const char **expected)
{
    uint64_t u = 0;
    double d = 0;

    switch (k->type) {
    case WS_KT_COUNT:
        *expected = "a whole number";
        if (ws_units_count(text, &u) < 0)
            return -1;
        d = (double)u;
        break;
    case WS_KT_CYCLES:
        *expected = "a whole number of core cycles";
        if (ws_units_cycles(text, &u) < 0)
            return -1;
        d = (double)u;
        break;
    case WS_KT_SIZE:
        *expected = "a size such as 48KiB, 6MiB or 128B";
        if (ws_units_size(text, &u) < 0)
            return -1;
        d = (double)u;
        break;
    case WS_KT_FREQ:
        *expected = "a frequency such as 1380MHz or 1.41GHz";
        if (ws_units_freq(text, &d) < 0)
            return -1;
        break;
    case WS_KT_REAL:
        *expected = "a number such as 1.25";
        if (ws_units_real(text, &d) < 0)
            return -1;
        break;
    case WS_KT_TIME:
        *expected = "a time such as 14ns or 3.9us";
        if (ws_units_time(text, &d) < 0)
            return -1;
        break;
    default:
        *expected = "a bandwidth such as 898GB/s or 3.35TB/s";
        if (ws_units_bandwidth(text, &d) < 0)
            return -1;
        break;
    }
    if (ws_cfg_check_range(k, d, expected) < 0)
        return -1;
    if (k->type == WS_KT_COUNT || k->type == WS_KT_CYCLES)
        *(uint32_t *)field = (uint32_t)u;
    else if (k->type == WS_KT_SIZE)
        *(uint64_t *)field = u;
    else
        *(double *)field = d;
    return 0;
}

/* "0, 8KiB, 16KiB": ascending shared-memory carveouts, at most
 * WS_MAX_CARVEOUTS of them. */
static int ws_cfg_parse_sizes(const struct ws_key *k, struct ws_gpu *gpu,
                              const char *text, const char **expected)
{
    uint64_t v[WS_MAX_CARVEOUTS];
    uint32_t n = 0;
    const char *p = text;
    char item[64];

    *expected = "ascending sizes separated by commas, not a YAML list, "
                "such as 0, 8KiB, 16KiB, 32KiB, 64KiB, 96KiB (at most 16)";
    for (;;) {
        size_t len = strcspn(p, ",");
        const char *e = p + len;
        while (len && (*p == ' ' || *p == '\t'))
            p++, len--;
        while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
            len--;
        if (len == 0 || len >= sizeof item || n == WS_MAX_CARVEOUTS)
            return -1;
        memcpy(item, p, len);
        item[len] = '\0';
        if (ws_units_size(item, &v[n]) < 0 || (double)v[n] > k->max
            || (n > 0 && v[n] <= v[n - 1]))
            return -1;
        n++;
        if (!*e)
            break;
        p = e + 1;
    }
    memcpy(gpu->sm.carveout, v, n * sizeof v[0]);
    gpu->sm.ncarveouts = n;
    return 0;
}

static int ws_cfg_printable(const char *text)
{
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        if (*p < 0x20 || *p == 0x7f)
            return 0;
    return ws_utf8_valid(text);
}

int ws_cfg_key_parse(const struct ws_key *k, struct ws_gpu *gpu,
                     const char *text, const char **expected)
{
    void *field = (char *)gpu + k->off;
    int v;

    switch (k->type) {
    case WS_KT_STRING:
        *expected = "text shorter than the field";
        if (strlen(text) > k->max)
            return -1;
        /* config show writes names back inside double quotes: control
         * characters and bytes that are not UTF-8 could not come back
         * through YAML as they were. */
        *expected = "printable UTF-8 text";
        if (!ws_cfg_printable(text))
            return -1;
        strcpy(field, text);
        return 0;
    case WS_KT_BOOL:
        *expected = "true or false";
        if (ws_units_bool(text, &v) < 0)
            return -1;
        *(int *)field = v;
        return 0;
    case WS_KT_ENUM:
        if (ws_cfg_parse_enum(k->names, text, &v, expected) < 0)
            return -1;
        *(int *)field = v;
        return 0;
    case WS_KT_SIZES:
        return ws_cfg_parse_sizes(k, gpu, text, expected);
    case WS_KT_CARVEOUT:
        if (strcmp(text, "auto") == 0) {
            *(uint64_t *)field = WS_CARVEOUT_AUTO;
            return 0;
        }
        if (ws_cfg_parse_number(&(struct ws_key){.type = WS_KT_SIZE,
                                                 .min = k->min,
                                                 .max = k->max,
                                                 .flags = k->flags},
                                field, text, expected)
            < 0) {
            *expected = "auto (the driver's choice) or a shared-memory "
                        "size such as 64KiB";
            return -1;
        }
        return 0;
    default:
        return ws_cfg_parse_number(k, field, text, expected);
    }
}

/* Shortest %g form that reads back to the same double. */
static void ws_fmt_double(char *buf, size_t cap, double v, const char *unit)
{
    for (int prec = 6; prec <= 17; prec++) {
        snprintf(buf, cap, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    strncat(buf, unit, cap - strlen(buf) - 1);
}

void ws_cfg_key_format(const struct ws_key *k, const struct ws_gpu *gpu,
                       char *buf, size_t cap)
{
    const void *field = (const char *)gpu + k->off;

    switch (k->type) {
    case WS_KT_STRING: {
        size_t o = 0;
        const char *s = field;
        buf[o++] = '"';
        for (; *s && o + 3 < cap; s++) {
            if (*s == '"' || *s == '\\')
                buf[o++] = '\\';
            buf[o++] = *s;
        }
        buf[o++] = '"';
        buf[o] = '\0';
        return;
    }
    case WS_KT_COUNT:
    case WS_KT_CYCLES:
        snprintf(buf, cap, "%u", *(const uint32_t *)field);
        return;
    case WS_KT_SIZE:
        ws_units_fmt_size(buf, cap, *(const uint64_t *)field);
        return;
    case WS_KT_FREQ:
        ws_fmt_double(buf, cap, *(const double *)field, "MHz");
        return;
    case WS_KT_BW:
        ws_fmt_double(buf, cap, *(const double *)field, "GB/s");
        return;
    case WS_KT_TIME:
        ws_fmt_double(buf, cap, *(const double *)field, "ns");
        return;
    case WS_KT_REAL:
        ws_fmt_double(buf, cap, *(const double *)field, "");
        return;
    case WS_KT_BOOL:
        snprintf(buf, cap, "%s", *(const int *)field ? "true" : "false");
        return;
    case WS_KT_ENUM: {
        int v = *(const int *)field;
        snprintf(buf, cap, "%s",
                 v >= 0 && v < k->names->count ? k->names->names[v] : "?");
        return;
    }
    case WS_KT_SIZES:
        buf[0] = '\0';
        for (uint32_t i = 0; i < gpu->sm.ncarveouts; i++) {
            char one[32];
            ws_units_fmt_size(one, sizeof one, gpu->sm.carveout[i]);
            snprintf(buf + strlen(buf), cap - strlen(buf), "%s%s",
                     i ? ", " : "", one);
        }
        return;
    case WS_KT_CARVEOUT:
        if (*(const uint64_t *)field == WS_CARVEOUT_AUTO)
            snprintf(buf, cap, "auto");
        else
            ws_units_fmt_size(buf, cap, *(const uint64_t *)field);
        return;
    }
}

int ws_cfg_key_number(const struct ws_key *k, const struct ws_gpu *gpu,
                      double *v)
{
    const void *field = (const char *)gpu + k->off;

    switch (k->type) {
    case WS_KT_COUNT:
    case WS_KT_CYCLES:
        *v = *(const uint32_t *)field;
        return 0;
    case WS_KT_SIZE:
        *v = (double)*(const uint64_t *)field;
        return 0;
    case WS_KT_CARVEOUT:
        if (*(const uint64_t *)field == WS_CARVEOUT_AUTO)
            return -1;
        *v = (double)*(const uint64_t *)field;
        return 0;
    case WS_KT_FREQ:
    case WS_KT_BW:
    case WS_KT_TIME:
    case WS_KT_REAL:
        *v = *(const double *)field;
        return 0;
    case WS_KT_BOOL:
        *v = *(const int *)field;
        return 0;
    default:
        return -1;
    }
}
