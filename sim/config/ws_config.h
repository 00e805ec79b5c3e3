/*
 * ws_config: the GPU a simulation runs on (struct ws_gpu) and how it is
 * loaded: a YAML file or a compiled-in config, its "base:" chain, and
 * "--set key=value" overrides, validated as a whole before anything runs.
 *
 * All sizes are bytes, clocks MHz, bandwidths GB/s (10^9 B/s), latencies SM
 * core cycles.  Function units are per sub-core.  Every field is named by a
 * dotted key (sm.count, l2.size, units.fp32.latency) listed in ws_cfg_schema.c,
 * which is also the order "warpsim config show" prints them in.
 *
 * Leaves out: timing (the engine reads this struct; it never reads YAML).
 */
#ifndef WS_CONFIG_H
#define WS_CONFIG_H

#include <stdint.h>
#include <stdio.h>

#include "util/ws_err.h"

enum ws_sched_policy {
    WS_SCHED_LRR,
    WS_SCHED_GTO,
    WS_SCHED_TWO_LEVEL
};

enum ws_l2_hash {
    WS_L2_HASH_XOR,   /* XOR-folded line address, as on real parts */
    WS_L2_HASH_LINEAR /* line address modulo slices, for experiments */
};

/* Which way of a set a cache fill evicts (mem/ws_cache.h). */
enum ws_repl_policy {
    WS_REPL_LRU, /* least recently used: the default */
    WS_REPL_FIFO /* first filled, hits not counted (GPGPU-Sim's F) */
};

/* Function units a sub-core owns; opcode classes map onto these. */
enum ws_unit_kind {
    WS_UNIT_FP32,
    WS_UNIT_FP16,
    WS_UNIT_INT,
    WS_UNIT_FP64,
    WS_UNIT_SFU,
    WS_UNIT_TENSOR,
    WS_UNIT_UNIFORM,
    WS_UNIT_MISC,
    WS_UNIT_BRANCH,
    WS_UNIT_LDST,
    WS_UNIT_COUNT
};

struct ws_unit_cfg {
    uint32_t lanes;    /* lanes per sub-core: a warp takes 32/lanes beats */
    uint32_t latency;  /* cycles from issue to result */
    uint32_t interval; /* cycles between issues of one warp instruction */
};

struct ws_cache_cfg {
    int enabled;
    uint64_t size, line, sector;
    uint32_t assoc, latency, mshrs;
    uint32_t miss_queue;      /* L1 only: requests waiting to leave the SM */
    uint64_t carveout;        /* L1 only: shared-memory carveout, or AUTO */
    enum ws_repl_policy repl; /* l1.replacement */
};

/* The unified L1/shared SRAM is split per kernel (sm.carveouts): the
 * driver's choice unless l1.carveout names one. */
#define WS_MAX_CARVEOUTS 16
#define WS_CARVEOUT_AUTO UINT64_MAX

/* Where a key's value came from (a file, or WS_CFG_CMDLINE for --set);
 * file NULL when it was never set.  File names live as long as the
 * process. */
#define WS_CFG_CMDLINE "command line"

struct ws_cfg_loc {
    const char *file;
    long line, col;
};

#define WS_CFG_MAX_KEYS 256

struct ws_gpu {
    char name[96];
    char source[160]; /* where the numbers come from */
    uint32_t sm_version;
    int unknown_class; /* enum ws_op_class for unknown opcodes */

    double core_mhz;

    struct {
        uint32_t count, sub_cores;
        uint32_t max_threads, max_warps, max_blocks;
        uint32_t registers, reg_alloc_unit; /* regs per warp granule */
        uint64_t shared_mem, shared_per_block, l1_shared;
        uint64_t shared_alloc_unit;
        uint64_t shared_reserved; /* per CTA, the driver's (sm_80 on) */
        /* S2R's latency through the sub-core's MIO path, which it shares
         * with the LD/ST unit (0: S2R is timed as its class). */
        uint32_t s2r_latency;
        /* Shared-memory capacities the driver may give a kernel, ascending;
         * none: the split is fixed (l1.size and shared_mem hold). */
        uint64_t carveout[WS_MAX_CARVEOUTS];
        uint32_t ncarveouts;
        /* GPCs the SMs are split into, evenly: a cluster's CTAs are
         * co-scheduled within one (0: one GPC of every SM). */
        uint32_t gpcs;
    } sm;

    struct {
        enum ws_sched_policy policy;
        uint32_t active_warps; /* two-level: warps in the ready set */
        int dual_issue;
        /* Issue by the compiler's control bits (stall counts, dependence
         * counters, yield) where the listing gives them, instead of the
         * register scoreboard (trace/ws_ctrl.h, timing/ws_issue.c). */
        int control_bits;
    } sched;

    /* The sub-core's register file: banks with one read port each and
     * the compiler-filled operand cache (timing/ws_regfile.h); 0 banks:
     * operands are read for free. */
    struct {
        uint32_t banks;
    } regfile;

    /* Instruction fetch (timing/ws_icache.h): a per-sub-core L0 of
     * l0_size bytes in lines, misses served after `latency` by the SM's
     * L1 instruction cache, and a stream buffer that fetches the
     * `prefetch` lines after a miss, one per `fill_interval`.  l0_size 0:
     * a perfect instruction cache. */
    struct {
        uint64_t l0_size, line; /* line 0: ws_icache_line's default */
        uint32_t latency, prefetch, fill_interval;
    } icache;

    struct ws_unit_cfg unit[WS_UNIT_COUNT];

    struct ws_cache_cfg l1;

    struct {
        uint32_t banks, latency;
        uint64_t bank_width;
    } shared;

    struct {
        uint64_t size, line, sector;
        uint32_t assoc, slices, latency, mshrs;
        uint32_t input_queue; /* per slice, requests from the SMs */
        double bandwidth;     /* GB/s, all slices together */
        enum ws_l2_hash hash;
        enum ws_repl_policy repl; /* l2.replacement */
        /* A read miss fetches the aligned block of this many bytes around
         * its sector from DRAM (0: the sector alone). */
        uint64_t fetch_granularity;
        /* Load-to-use of a hit in the far half of a two-partition L2 (a
         * line reused after more than half the L2; 0: one partition). */
        uint32_t far_latency;
    } l2;

    struct {
        uint32_t channels, latency;
        double bandwidth, clock_mhz;
        /* The banked model (ws_dram.h): banks in bank groups with open
         * rows, read/write turnaround and refresh; off: a channel is a
         * latency and a bandwidth. */
        int banked;
        uint64_t row_size;           /* bytes per row of one bank */
        uint32_t banks, bank_groups; /* per channel */
        uint32_t write_batch;        /* writes drained per turnaround */
        double t_rcd, t_rp, t_ras;   /* ns */
        uint64_t burst;              /* bytes one column access moves */
        double t_ccd_l;              /* ns, bursts in one bank group */
        double t_wtr, t_rtw;         /* ns, bus turnarounds */
        double t_rfc, t_refi;        /* ns; t_refi 0: no refresh */
        int refresh_per_bank;        /* REFSB: one bank at a time */
    } dram;

    struct {
        uint32_t latency;
        double bandwidth_per_sm; /* GB/s each way */
    } icnt;

    /* Hopper's asynchronous units (timing/ws_async.h); 0 on parts without
     * them, whose opcode table refuses the instructions anyway. */
    struct {
        double macs;           /* dense fp16 multiply-adds per SM per cycle
                                  (tf32 half, fp8/int8 twice that) */
        uint32_t latency;      /* a wgmma's pipeline depth after its turn */
        uint32_t min_interval; /* cycles a quarter holds the pipe at least */
    } wgmma;
    struct {
        double bytes_per_clk; /* the SM's copy engine, both directions */
        uint32_t latency;     /* issue to the first request leaving */
    } tma;
    struct {
        uint32_t latency;     /* SM to SM: a DSMEM load's, and what a
                                 remote arrive or multicast copy adds */
        double bytes_per_clk; /* per SM */
    } dsmem;

    uint32_t launch_overhead; /* cycles between dependent kernels */
    int memcpy_warms_l2;

    struct {
        double tmm_scale; /* SM cycles per TMM time unit */
        /* MWP/CWP's transaction: the papers' 128-byte block (l1.line, the
         * default when 0) or a sector (l2.sector); the departure delays
         * below are in it.  0 delays: measured on this config by the
         * simulator's probe each run (timing/ws_probe.h). */
        uint64_t transaction;
        double departure_del_uncoal; /* cycles between two transactions
                                           of one uncoalesced warp */
        double departure_del_coal;   /* between two warps' coalesced
                                           requests */
    } model;

    /* Kept so that later layers (the simulator's own limits) can report at
     * the key responsible, indexed like the schema's key table. */
    struct ws_cfg_loc loc[WS_CFG_MAX_KEYS];
    const char *top; /* the config named by --gpu */
};

/* The longest config file ws_cfg_load reads, in bytes (a GPU description
 * is a few KiB); config import refuses to write a longer one, which --gpu
 * could not read back. */
#define WS_CFG_MAX_FILE (1u << 20)

/* Loads the GPU named by gpu_arg: a path to a YAML file, or the name of a
 * compiled-in config ("v100", "v100.yaml"); NULL means the default.  sets
 * are "key=value" overrides applied after every file, in order. */
int ws_cfg_load(struct ws_gpu *gpu, const char *gpu_arg,
                const char *const *sets, int nsets, struct ws_err *err);

/* An error at the position of key's value (path as in the YAML, e.g.
 * "sm.count"), or at the config's first line when no file set it. */
int ws_cfg_key_error(const struct ws_gpu *gpu, const char *key,
                     struct ws_err *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Prints the effective config as YAML that ws_cfg_load reads back to the
 * same struct, with derived quantities as comments. */
void ws_cfg_print(FILE *out, const struct ws_gpu *gpu);
/* The same text, malloc'd, its length in *len: what a run's provenance
 * and a sweep's point keys hash as the effective config.  NULL when out of
 * memory. */
char *ws_cfg_text(const struct ws_gpu *gpu, size_t *len);

const char *ws_cfg_default_name(void);

/* MWP/CWP's transaction in bytes: model.transaction, or the line (the
 * papers' 128-byte block) when the config leaves it unset. */
uint64_t ws_cfg_transaction(const struct ws_gpu *gpu);

/* Names of the compiled-in configs, NULL-terminated walk by index. */
const char *ws_cfg_builtin_name(int i);

const char *ws_unit_name(enum ws_unit_kind unit);

/* The instruction-cache line: icache.line, or the 128 bytes of the
 * configs when a config gives an L0 but no line. */
static inline uint64_t ws_icache_line(const struct ws_gpu *g)
{
    return g->icache.line ? g->icache.line : 128;
}

/* The unit an opcode class issues to. */
enum ws_unit_kind ws_unit_for_class(int op_class);

#endif
