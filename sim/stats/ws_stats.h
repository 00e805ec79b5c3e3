/*
 * ws_stats: the simulator's counters.  Each has a Nsight Compute name where
 * one exists (so simulated and measured profiles compare line by line), a
 * unit, and a resource group (FMA, SMEM, L2, DRAM...) for the
 * resource-significance analysis of Islam et al..  Counters are plain integers
 * in an array indexed by enum ws_ctr; ratios and percentages are derived
 * when reported, never accumulated.
 *
 * Leaves out: formatting (ws_report.c).
 */
#ifndef WS_STATS_H
#define WS_STATS_H

#include <stdint.h>

enum ws_ctr {
    /* time and occupancy */
    WS_CTR_CYCLES,           /* kernel span, SM cycles */
    WS_CTR_SM_CYCLES_ACTIVE, /* sum over SMs of cycles with a resident warp */
    WS_CTR_WARP_CYCLES_RESIDENT, /* sum over warps of resident cycles */
    WS_CTR_CTAS,
    WS_CTR_WARPS,
    /* issue */
    WS_CTR_INST, /* warp instructions issued */
    WS_CTR_THREAD_INST,
    WS_CTR_ISSUE_CYCLES, /* sub-core cycles that issued */
    WS_CTR_INST_FP32,
    WS_CTR_INST_FP16,
    WS_CTR_INST_INT,
    WS_CTR_INST_FP64,
    WS_CTR_INST_SFU,
    WS_CTR_INST_TENSOR,
    WS_CTR_INST_UNIFORM,
    WS_CTR_INST_MISC,
    WS_CTR_INST_BRANCH,
    WS_CTR_INST_BARRIER,
    WS_CTR_INST_EXIT,
    WS_CTR_INST_LSU,
    /* stall reasons, in warp cycles */
    WS_CTR_STALL_MEM_DEP,   /* scoreboard on an L1TEX result */
    WS_CTR_STALL_SHORT_DEP, /* scoreboard on a shared-memory result */
    WS_CTR_STALL_ALU_DEP,   /* scoreboard on a fixed-latency result */
    WS_CTR_STALL_UNIT_BUSY,
    WS_CTR_STALL_BARRIER,
    WS_CTR_STALL_MSHR,
    WS_CTR_STALL_NOT_SELECTED,
    WS_CTR_STALL_DRAINED,
    WS_CTR_STALL_NO_INST,
    /* shared memory */
    WS_CTR_SHARED_REQUESTS,
    WS_CTR_SHARED_WAVEFRONTS,
    WS_CTR_SHARED_BANK_CONFLICTS,
    /* L1 */
    WS_CTR_L1_REQUESTS, /* global/local line requests */
    WS_CTR_L1_SECTORS,
    WS_CTR_L1_SECTORS_LOAD,
    WS_CTR_L1_SECTOR_HITS, /* of loads; in-flight fills included */
    WS_CTR_L1_SECTOR_MISSES,
    WS_CTR_L1_MSHR_MERGES, /* of the hits, fills still in flight */
    /* L2 */
    WS_CTR_L2_SECTORS_READ,
    WS_CTR_L2_SECTORS_WRITE,
    WS_CTR_L2_SECTORS_ATOM,
    WS_CTR_L2_SECTOR_HITS, /* every op; in-flight fills included */
    WS_CTR_L2_SECTOR_MISSES,
    WS_CTR_L2_SECTOR_IN_FLIGHT, /* of the hits, fills still in flight */
    /* DRAM */
    WS_CTR_DRAM_BYTES_READ,
    WS_CTR_DRAM_BYTES_WRITE,
    WS_CTR_DRAM_ROW_HITS,
    WS_CTR_DRAM_ROW_MISSES,
    /* what the simulation measures of the analytic models' terms */
    WS_CTR_MEM_LOADS,        /* global/local loads that move data */
    WS_CTR_MEM_LOAD_LATENCY, /* their cycles from issue to data */
    WS_CTR_WARP_MEM_CYCLES,  /* warp-cycles with a load outstanding */
    WS_CTR_SM_MEM_CYCLES,    /* SM-cycles with a load outstanding */
    WS_CTR_TAIL_CYCLES,      /* from the first CTA slot left empty
                                      for want of CTAs to the end */
    /* Hopper's asynchronous units (timing/ws_async.h) */
    WS_CTR_WGMMA_INST,        /* warp-level wgmma instructions */
    WS_CTR_WGMMA_PIPE_CYCLES, /* tensor-pipe quarter-cycles they held */
    WS_CTR_TMA_OPS,
    WS_CTR_TMA_BYTES,
    WS_CTR_MBAR_WAITS,        /* mbarrier waits that held their warp */
    WS_CTR_MBAR_WAIT_CYCLES,  /* warp-cycles held by them */
    WS_CTR_MBAR_REPLAYED,     /* waits without a parity, replayed */
    WS_CTR_CLUSTER_REPLAYED,  /* cluster waits of a cluster of unknown size */
    WS_CTR_DSMEM_BYTES,       /* shared-memory bytes to other CTAs */
    WS_CTR_CLUSTER_UNMATCHED, /* cluster accesses to no running CTA */
    WS_CTR_INST_UNKNOWN,      /* of unknown opcodes (ws_kernel_stats) */
    /* the SM core as the encoding drives it (timing/ws_issue.c) */
    WS_CTR_INST_CONTROL,         /* issued by their control bits */
    WS_CTR_RF_BANK_BUBBLES,      /* issue cycles lost to register-bank reads */
    WS_CTR_RFC_HITS,             /* operands the reuse cache served */
    WS_CTR_ICACHE_MISSES,        /* L0 instruction-cache line misses */
    WS_CTR_ICACHE_PREFETCH_HITS, /* of those, the stream buffer served */
    /* Sub-core cycles each function unit was held by issues (its interval
     * per warp instruction), summed over sub-cores; in the order of enum
     * ws_unit_kind, so WS_CTR_PIPE_FP32_CYCLES + unit is the unit's. */
    WS_CTR_PIPE_FP32_CYCLES,
    WS_CTR_PIPE_FP16_CYCLES,
    WS_CTR_PIPE_INT_CYCLES,
    WS_CTR_PIPE_FP64_CYCLES,
    WS_CTR_PIPE_SFU_CYCLES,
    WS_CTR_PIPE_TENSOR_CYCLES,
    WS_CTR_PIPE_UNIFORM_CYCLES,
    WS_CTR_PIPE_MISC_CYCLES,
    WS_CTR_PIPE_BRANCH_CYCLES,
    WS_CTR_PIPE_LDST_CYCLES,
    WS_CTR_COUNT
};

enum ws_group {
    WS_GRP_TIME,
    WS_GRP_OCC,
    WS_GRP_ISSUE,
    WS_GRP_FMA,
    WS_GRP_INT,
    WS_GRP_FP64,
    WS_GRP_SFU,
    WS_GRP_TENSOR,
    WS_GRP_CTRL,
    WS_GRP_LSU,
    WS_GRP_STALL,
    WS_GRP_SMEM,
    WS_GRP_BANK,
    WS_GRP_L1,
    WS_GRP_L2,
    WS_GRP_DRAM,
    WS_GRP_TERMS,
    WS_GRP_COUNT
};

struct ws_ctr_info {
    const char *name; /* Nsight Compute metric name, or ws__ for ours */
    const char *unit;
    enum ws_group group;
    const char *what;
};

const struct ws_ctr_info *ws_ctr_info(enum ws_ctr c);
/* The counter named name (its Nsight or ws__ name), or -1. */
long ws_ctr_find(const char *name);
const char *ws_group_name(enum ws_group g);

struct ws_counters {
    uint64_t v[WS_CTR_COUNT];
};

void ws_counters_add(struct ws_counters *dst, const struct ws_counters *src);

#endif
