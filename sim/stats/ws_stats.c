/*
 * ws_stats: counter names, units and resource groups (see ws_stats.h).
 * Names follow Nsight Compute's metric names (sm__, smsp__, l1tex__, lts__,
 * dram__); ws__ marks counters Nsight has no single metric for.
 */
#include "ws_stats.h"

#include <stdlib.h>
#include <string.h>

#include "ws_kernel_stats.h"

static const struct ws_ctr_info ws_ctr_table[WS_CTR_COUNT] = {
    [WS_CTR_CYCLES] = {"gpc__cycles_elapsed.max", "cycle", WS_GRP_TIME,
                       "SM cycles from the launch to the last warp's exit, its "
                       "memory traffic drained"},
    [WS_CTR_SM_CYCLES_ACTIVE] = {"sm__cycles_active.sum", "cycle", WS_GRP_OCC,
                                 "SM cycles with at least one resident warp"},
    [WS_CTR_WARP_CYCLES_RESIDENT] = {"sm__warps_active.sum", "warp-cycle",
                                     WS_GRP_OCC,
                                     "resident warps per cycle, summed"},
    [WS_CTR_CTAS] = {"sm__ctas_launched.sum", "cta", WS_GRP_OCC,
                     "CTAs that ran"},
    [WS_CTR_WARPS] = {"smsp__warps_launched.sum", "warp", WS_GRP_OCC,
                      "warps that ran"},
    [WS_CTR_INST] = {"smsp__inst_executed.sum", "inst", WS_GRP_ISSUE,
                     "warp instructions issued (predicated-off ones too)"},
    [WS_CTR_THREAD_INST] = {"smsp__thread_inst_executed.sum", "inst",
                            WS_GRP_ISSUE, "thread instructions (active lanes)"},
    [WS_CTR_ISSUE_CYCLES] = {"smsp__issue_active.sum", "cycle", WS_GRP_ISSUE,
                             "sub-core cycles that issued"},
    [WS_CTR_INST_FP32] = {"smsp__inst_executed_pipe_fma.sum", "inst",
                          WS_GRP_FMA,
                          "warp instructions on the fp32 (FMA) pipe"},
    [WS_CTR_INST_FP16] = {"smsp__inst_executed_pipe_fp16.sum", "inst",
                          WS_GRP_FMA, "warp instructions on the fp16 pipe"},
    [WS_CTR_INST_INT] = {"smsp__inst_executed_pipe_alu.sum", "inst", WS_GRP_INT,
                         "warp instructions on the integer (ALU) pipe"},
    [WS_CTR_INST_FP64] = {"smsp__inst_executed_pipe_fp64.sum", "inst",
                          WS_GRP_FP64, "warp instructions on the fp64 pipe"},
    [WS_CTR_INST_SFU] =
        {"smsp__inst_executed_pipe_xu.sum", "inst", WS_GRP_SFU,
         "warp instructions on the special function unit (MUFU)"},
    [WS_CTR_INST_TENSOR] =
        {"smsp__inst_executed_pipe_tensor.sum", "inst", WS_GRP_TENSOR,
         "warp instructions on the tensor cores (HMMA, IMMA, ...)"},
    [WS_CTR_INST_UNIFORM] = {"smsp__inst_executed_pipe_uniform.sum", "inst",
                             WS_GRP_INT,
                             "warp instructions on the uniform datapath"},
    [WS_CTR_INST_MISC] = {"ws__inst_executed_pipe_misc.sum", "inst", WS_GRP_INT,
                          "warp instructions that are moves, conversions or "
                          "special-register reads"},
    [WS_CTR_INST_BRANCH] = {"smsp__inst_executed_pipe_cbu.sum", "inst",
                            WS_GRP_CTRL,
                            "branch, call and return warp instructions"},
    [WS_CTR_INST_BARRIER] = {"smsp__inst_executed_op_barrier.sum", "inst",
                             WS_GRP_CTRL, "barrier warp instructions"},
    [WS_CTR_INST_EXIT] = {"ws__inst_executed_op_exit.sum", "inst", WS_GRP_CTRL,
                          "EXIT warp instructions"},
    [WS_CTR_INST_LSU] = {"smsp__inst_executed_pipe_lsu.sum", "inst", WS_GRP_LSU,
                         "warp instructions on the load/store pipe"},
    [WS_CTR_STALL_MEM_DEP] = {"smsp__warps_issue_stalled_long_scoreboard.sum",
                              "warp-cycle", WS_GRP_STALL,
                              "waiting on a global, local or texture result"},
    [WS_CTR_STALL_SHORT_DEP] =
        {"smsp__warps_issue_stalled_short_scoreboard.sum", "warp-cycle",
         WS_GRP_STALL, "waiting on a shared-memory result"},
    [WS_CTR_STALL_ALU_DEP] = {"smsp__warps_issue_stalled_wait.sum",
                              "warp-cycle", WS_GRP_STALL,
                              "waiting on a fixed-latency result"},
    [WS_CTR_STALL_UNIT_BUSY] =
        {"smsp__warps_issue_stalled_math_pipe_throttle.sum", "warp-cycle",
         WS_GRP_STALL, "function unit busy"},
    [WS_CTR_STALL_BARRIER] = {"smsp__warps_issue_stalled_barrier.sum",
                              "warp-cycle", WS_GRP_STALL, "at a barrier"},
    [WS_CTR_STALL_MSHR] = {"smsp__warps_issue_stalled_lg_throttle.sum",
                           "warp-cycle", WS_GRP_STALL, "L1 MSHRs full"},
    [WS_CTR_STALL_NOT_SELECTED] = {"smsp__warps_issue_stalled_not_selected.sum",
                                   "warp-cycle", WS_GRP_STALL,
                                   "ready, another warp issued"},
    [WS_CTR_STALL_DRAINED] = {"smsp__warps_issue_stalled_drain.sum",
                              "warp-cycle", WS_GRP_STALL,
                              "exited, waiting for its results or its CTA"},
    [WS_CTR_STALL_NO_INST] =
        {"smsp__warps_issue_stalled_no_instruction.sum", "warp-cycle",
         WS_GRP_STALL,
         "no instruction: waiting for its line from the L0 instruction cache"},
    [WS_CTR_SHARED_REQUESTS] =
        {"l1tex__data_pipe_lsu_wavefronts_mem_shared_cmd.sum", "request",
         WS_GRP_SMEM, "shared-memory warp instructions"},
    [WS_CTR_SHARED_WAVEFRONTS] =
        {"l1tex__data_pipe_lsu_wavefronts_mem_shared.sum", "wavefront",
         WS_GRP_SMEM, "shared-memory wavefronts (passes through the banks)"},
    [WS_CTR_SHARED_BANK_CONFLICTS] =
        {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum", "wavefront",
         WS_GRP_BANK, "extra wavefronts from bank conflicts"},
    [WS_CTR_L1_REQUESTS] =
        {"l1tex__t_requests_pipe_lsu_mem_global.sum", "request", WS_GRP_L1,
         "global and local line requests, loads and stores (one "
         "per 128-byte line a warp access touches)"},
    [WS_CTR_L1_SECTORS] = {"l1tex__t_sectors_pipe_lsu_mem_global.sum", "sector",
                           WS_GRP_L1,
                           "global and local sectors, loads and stores"},
    [WS_CTR_L1_SECTORS_LOAD] =
        {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "sector", WS_GRP_L1,
         "global and local sectors loaded"},
    [WS_CTR_L1_SECTOR_HITS] =
        {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum", "sector",
         WS_GRP_L1,
         "load sectors whose lookup found the sector "
         "present, its fill done or still in flight "
         "(a tag hit, as Nsight counts it)"},
    [WS_CTR_L1_SECTOR_MISSES] =
        {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum", "sector",
         WS_GRP_L1,
         "load sectors whose lookup did not find the "
         "sector (sent to L2); hits + misses = "
         "sectors loaded through L1"},
    [WS_CTR_L1_MSHR_MERGES] = {"ws__l1tex_t_sectors_lookup_hit_in_flight.sum",
                               "sector", WS_GRP_L1,
                               "of the lookup hits, sectors whose fill was "
                               "still in flight: merged into the earlier "
                               "miss, waiting for its data"},
    [WS_CTR_L2_SECTORS_READ] = {"lts__t_sectors_op_read.sum", "sector",
                                WS_GRP_L2,
                                "sectors read at L2 (the L1 misses of loads)"},
    [WS_CTR_L2_SECTORS_WRITE] =
        {"lts__t_sectors_op_write.sum", "sector", WS_GRP_L2,
         "sectors written at L2 (stores, write-through)"},
    [WS_CTR_L2_SECTORS_ATOM] = {"lts__t_sectors_op_atom.sum", "sector",
                                WS_GRP_L2,
                                "sectors of atomics and reductions at L2"},
    [WS_CTR_L2_SECTOR_HITS] = {"lts__t_sectors_lookup_hit.sum", "sector",
                               WS_GRP_L2,
                               "sector lookups (reads, writes, atomics) that "
                               "found the sector present, its fill done or "
                               "still in flight (a tag hit, as Nsight "
                               "counts it)"},
    [WS_CTR_L2_SECTOR_MISSES] = {"lts__t_sectors_lookup_miss.sum", "sector",
                                 WS_GRP_L2,
                                 "sector lookups that did not find the "
                                 "sector: a read or atomic fetches it from "
                                 "DRAM, a write allocates it"},
    [WS_CTR_L2_SECTOR_IN_FLIGHT] =
        {"ws__lts_t_sectors_lookup_hit_in_flight.sum", "sector", WS_GRP_L2,
         "of the lookup hits, sectors whose fill "
         "from DRAM was still in flight (merged "
         "into that miss)"},
    [WS_CTR_DRAM_BYTES_READ] = {"dram__bytes_read.sum", "byte", WS_GRP_DRAM,
                                "bytes read from DRAM (L2 misses)"},
    [WS_CTR_DRAM_BYTES_WRITE] = {"dram__bytes_write.sum", "byte", WS_GRP_DRAM,
                                 "bytes written to DRAM (dirty L2 evictions)"},
    [WS_CTR_DRAM_ROW_HITS] = {"ws__dram_row_hits.sum", "access", WS_GRP_DRAM,
                              "open-row hits (row model on)"},
    [WS_CTR_DRAM_ROW_MISSES] = {"ws__dram_row_misses.sum", "access",
                                WS_GRP_DRAM, "row misses (row model on)"},
    [WS_CTR_MEM_LOADS] = {"ws__mem_loads.sum", "inst", WS_GRP_TERMS,
                          "global and local load warp instructions that "
                          "move data"},
    [WS_CTR_MEM_LOAD_LATENCY] = {"ws__mem_load_latency.sum", "cycle",
                                 WS_GRP_TERMS,
                                 "their cycles from issue to "
                                 "data in registers, summed (loaded Mem_L)"},
    [WS_CTR_WARP_MEM_CYCLES] = {"ws__warps_mem_outstanding.sum", "warp-cycle",
                                WS_GRP_TERMS,
                                "warp cycles with a global or "
                                "local load in flight (memory warps: MWP)"},
    [WS_CTR_SM_MEM_CYCLES] = {"ws__sm_cycles_mem_outstanding.sum", "cycle",
                              WS_GRP_TERMS,
                              "SM cycles with a global or "
                              "local load in flight"},
    [WS_CTR_TAIL_CYCLES] = {"ws__tail_cycles", "cycle", WS_GRP_TERMS,
                            "cycles from the first CTA slot left empty for "
                            "want of CTAs to the kernel's end (the last "
                            "wave's tail)"},
    [WS_CTR_WGMMA_INST] = {"ws__inst_executed_pipe_gmma.sum", "inst",
                           WS_GRP_TENSOR,
                           "warpgroup MMA instructions (HGMMA, QGMMA, IGMMA, "
                           "BGMMA), one per warp"},
    [WS_CTR_WGMMA_PIPE_CYCLES] =
        {"ws__pipe_tensor_gmma_quarter_cycles.sum", "cycle", WS_GRP_TENSOR,
         "cycles the SM tensor pipe's quarters were held by wgmma, summed "
         "over quarters (4 per SM-cycle at full use)"},
    [WS_CTR_TMA_OPS] = {"ws__tma_ops.sum", "inst", WS_GRP_LSU,
                        "bulk copies (TMA loads, stores, prefetches)"},
    [WS_CTR_TMA_BYTES] = {"ws__tma_bytes.sum", "byte", WS_GRP_LSU,
                          "bytes the TMA engines moved (boxes, once per "
                          "multicast)"},
    [WS_CTR_MBAR_WAITS] = {"ws__mbarrier_waits_blocked.sum", "inst",
                           WS_GRP_STALL,
                           "mbarrier waits that held their warp: the phase "
                           "waited for completed after the wait issued"},
    /* "cycle", not "warp-cycle": compare reads a counter's dimension off
     * its name ("_cycles") and refused every run's JSON over this one */
    [WS_CTR_MBAR_WAIT_CYCLES] = {"ws__mbarrier_wait_cycles.sum", "cycle",
                                 WS_GRP_STALL,
                                 "cycles warps were held at mbarrier "
                                 "waits, summed over the warps"},
    [WS_CTR_CLUSTER_REPLAYED] = {"ws__cluster_waits_replayed.sum", "inst",
                                 WS_GRP_STALL,
                                 "cluster barrier waits not held because the "
                                 "input does not give the cluster's size"},
    [WS_CTR_DSMEM_BYTES] = {"ws__dsmem_bytes.sum", "byte", WS_GRP_SMEM,
                            "distributed shared memory: bytes loaded from or "
                            "stored to another CTA of the cluster"},
    [WS_CTR_CLUSTER_UNMATCHED] = {"ws__cluster_accesses_unmatched.sum", "inst",
                                  WS_GRP_SMEM,
                                  "remote arrives, multicast deliveries and "
                                  "DSMEM accesses whose cluster rank names "
                                  "no running CTA (a trace of part of a "
                                  "grid): not simulated"},
    [WS_CTR_INST_CONTROL] = {"ws__inst_issued_by_control_bits.sum", "inst",
                             WS_GRP_ISSUE,
                             "warp instructions whose issue and dependences "
                             "followed the compiler's control bits (stall "
                             "count, dependence counters) rather than the "
                             "register scoreboard"},
    [WS_CTR_RF_BANK_BUBBLES] = {"ws__rf_bank_conflict_cycles.sum", "cycle",
                                WS_GRP_ISSUE,
                                "sub-core issue cycles lost to source "
                                "operands in one register bank"},
    [WS_CTR_RFC_HITS] = {"ws__rf_reuse_cache_hits.sum", "operand", WS_GRP_ISSUE,
                         "source operands read from the register reuse "
                         "cache instead of their bank"},
    [WS_CTR_ICACHE_MISSES] = {"ws__l0_icache_misses.sum", "line", WS_GRP_ISSUE,
                              "L0 instruction-cache line misses (a warp "
                              "entering a line its sub-core's L0 lacks)"},
    [WS_CTR_ICACHE_PREFETCH_HITS] = {"ws__l0_icache_prefetch_hits.sum", "line",
                                     WS_GRP_ISSUE,
                                     "of the L0 misses, lines the stream "
                                     "buffer had fetched or was fetching"},
    [WS_CTR_INST_UNKNOWN] = {"ws__inst_executed_unknown_opcode.sum", "inst",
                             WS_GRP_ISSUE,
                             "warp instructions whose mnemonic the opcode "
                             "table does not know, simulated with the "
                             "config's unknown_opcode_class"},
    [WS_CTR_MBAR_REPLAYED] = {"ws__mbarrier_waits_replayed.sum", "inst",
                              WS_GRP_STALL,
                              "mbarrier waits whose parity the input does "
                              "not give: timed as the trace recorded them "
                              "(their spin iterations issue), not re-timed"},
    /* Nsight's smsp__pipe_*_cycles_active where it has the pipe; the
     * uniform, misc, branch and LD/ST units have no such counter. */
    [WS_CTR_PIPE_FP32_CYCLES] = {"smsp__pipe_fma_cycles_active.sum", "cycle",
                                 WS_GRP_FMA,
                                 "sub-core cycles the FP32 (FMA) pipe was "
                                 "held by issues, summed over sub-cores"},
    [WS_CTR_PIPE_FP16_CYCLES] = {"smsp__pipe_fp16_cycles_active.sum", "cycle",
                                 WS_GRP_FMA,
                                 "sub-core cycles the FP16 pipe was held by "
                                 "issues, summed over sub-cores"},
    [WS_CTR_PIPE_INT_CYCLES] = {"smsp__pipe_alu_cycles_active.sum", "cycle",
                                WS_GRP_INT,
                                "sub-core cycles the integer (ALU) pipe was "
                                "held by issues, summed over sub-cores"},
    [WS_CTR_PIPE_FP64_CYCLES] = {"smsp__pipe_fp64_cycles_active.sum", "cycle",
                                 WS_GRP_FP64,
                                 "sub-core cycles the FP64 pipe was held by "
                                 "issues, summed over sub-cores"},
    [WS_CTR_PIPE_SFU_CYCLES] = {"smsp__pipe_xu_cycles_active.sum", "cycle",
                                WS_GRP_SFU,
                                "sub-core cycles the SFU (XU) pipe was held "
                                "by issues, summed over sub-cores"},
    [WS_CTR_PIPE_TENSOR_CYCLES] = {"smsp__pipe_tensor_cycles_active.sum",
                                   "cycle", WS_GRP_TENSOR,
                                   "sub-core cycles the tensor pipe was held "
                                   "by issues (mma.sync; wgmma's own pipe "
                                   "time is ws__pipe_tensor_gmma_quarter_"
                                   "cycles), summed over sub-cores"},
    [WS_CTR_PIPE_UNIFORM_CYCLES] = {"ws__pipe_uniform_cycles_active.sum",
                                    "cycle", WS_GRP_ISSUE,
                                    "sub-core cycles the uniform datapath was "
                                    "held by issues, summed over sub-cores"},
    [WS_CTR_PIPE_MISC_CYCLES] = {"ws__pipe_misc_cycles_active.sum", "cycle",
                                 WS_GRP_ISSUE,
                                 "sub-core cycles the misc unit (moves, "
                                 "conversions the table puts there) was held "
                                 "by issues, summed over sub-cores"},
    [WS_CTR_PIPE_BRANCH_CYCLES] = {"ws__pipe_branch_cycles_active.sum", "cycle",
                                   WS_GRP_CTRL,
                                   "sub-core cycles the branch unit was held "
                                   "by issues, summed over sub-cores"},
    [WS_CTR_PIPE_LDST_CYCLES] = {"ws__pipe_lsu_cycles_active.sum", "cycle",
                                 WS_GRP_LSU,
                                 "sub-core cycles the LD/ST unit was held by "
                                 "issues, summed over sub-cores"},
};

static const char *const ws_group_names[WS_GRP_COUNT] = {
    "TIME", "OCC",   "ISSUE", "FMA",  "INT", "FP64", "SFU",  "TENSOR", "CTRL",
    "LSU",  "STALL", "SMEM",  "BANK", "L1",  "L2",   "DRAM", "TERMS"};

const struct ws_ctr_info *ws_ctr_info(enum ws_ctr c)
{
    return &ws_ctr_table[c];
}

long ws_ctr_find(const char *name)
{
    for (int i = 0; i < WS_CTR_COUNT; i++)
        if (strcmp(ws_ctr_table[i].name, name) == 0)
            return i;
    return -1;
}

const char *ws_group_name(enum ws_group g)
{
    return (unsigned)g < WS_GRP_COUNT ? ws_group_names[g] : "?";
}

void ws_counters_add(struct ws_counters *dst, const struct ws_counters *src)
{
    for (int i = 0; i < WS_CTR_COUNT; i++)
        dst->v[i] += src->v[i];
}

void ws_kernel_stats_free(struct ws_kernel_stats *k)
{
    free(k->name);
    free(k->models);
    k->name = NULL;
    k->models = NULL;
    k->nmodels = 0;
}
