/*
 * ws_gpgpusim_known: the GPGPU-Sim and Accel-Sim options this importer
 * knows, each with the type GPGPU-Sim registers it with (so a malformed
 * value is an error even where warpsim has no use for it) and, for those
 * without a warpsim equivalent, the reason, which "config import" prints
 * in the YAML's closing list.
 *
 * Names come from the option registrations of GPGPU-Sim 4 / Accel-Sim
 * (gpu-sim.cc, shader.cc, l2cache.cc, local_interconnect.cc,
 * trace_config.cc).  An option missing here is listed as unknown, never
 * refused: forks add options freely.
 *
 * Leaves out: power-model options one by one (the -power_, -accelwattch_,
 * -gpuwattch_ and -dvfs_ families are recognised by prefix).
 */
#include "ws_gpgpusim.h"

#include <ctype.h>
#include <string.h>

#define T WS_GS_TEXT
#define U WS_GS_UINT
#define I WS_GS_INT
#define B WS_GS_BOOL

/* Reasons shared by several options. */
#define WHY_PTX "PTX functional simulation: warpsim reads SASS traces"
#define WHY_RT "CUDA runtime limit of functional simulation"
#define WHY_STAT "statistics or debugging switch, nothing to simulate"
#define WHY_OC \
    "operand collector and register-file banks: warpsim " \
    "issues from a scoreboard without register-bank conflicts"
#define WHY_ICNT \
    "interconnect buffering and arbitration: warpsim's " \
    "crossbar is icnt.latency and icnt.bandwidth_per_sm"
#define WHY_FETCH \
    "instruction fetch and caches: not modelled (traces " \
    "supply instructions)"
#define WHY_DRAMQ \
    "DRAM controller queues and scheduling: warpsim serves " \
    "each channel in arrival order over its banks"
#define WHY_FERMI \
    "Fermi's per-kernel L1/shared preference: warpsim " \
    "uses sm.carveouts, or one fixed split"
#define WHY_LIMIT \
    "simulation stop condition: see warpsim run's --max-* " \
    "options"
#define WHY_POWER "AccelWattch / GPUWattch power model"

static const struct ws_gpgpusim_known ws_gs_known[] = {
    /* Read by the translation (ws_gpgpusim_map.c). */
    {"-gpgpu_ptx_force_max_capability", U, NULL},
    {"-gpgpu_compute_capability_major", U, NULL},
    {"-gpgpu_compute_capability_minor", U, NULL},
    {"-gpgpu_clock_domains", T, NULL},
    {"-gpgpu_n_clusters", U, NULL},
    {"-gpgpu_n_cores_per_cluster", U, NULL},
    {"-gpgpu_num_sched_per_core", I, NULL},
    {"-gpgpu_sub_core_model", B, NULL},
    {"-gpgpu_shader_core_pipeline", T, NULL},
    {"-gpgpu_shader_cta", U, NULL},
    {"-gpgpu_shader_registers", U, NULL},
    {"-gpgpu_shmem_size", U, NULL},
    {"-gpgpu_shmem_per_block", U, NULL},
    {"-gpgpu_unified_l1d_size", U, NULL},
    {"-gpgpu_adaptive_cache_config", U, NULL},
    {"-gpgpu_shmem_option", T, NULL},
    {"-gpgpu_scheduler", T, NULL},
    {"-gpgpu_max_insn_issue_per_warp", I, NULL},
    {"-gpgpu_dual_issue_diff_exec_units", B, NULL},
    {"-gpgpu_num_sp_units", U, NULL},
    {"-gpgpu_num_sfu_units", U, NULL},
    {"-gpgpu_num_dp_units", U, NULL},
    {"-gpgpu_num_int_units", U, NULL},
    {"-gpgpu_tensor_core_avail", U, NULL},
    {"-gpgpu_num_tensor_core_units", U, NULL},
    {"-trace_opcode_latency_initiation_int", T, NULL},
    {"-trace_opcode_latency_initiation_sp", T, NULL},
    {"-trace_opcode_latency_initiation_dp", T, NULL},
    {"-trace_opcode_latency_initiation_sfu", T, NULL},
    {"-trace_opcode_latency_initiation_tensor", T, NULL},
    {"-trace_opcode_latency_initiation_spec_op_", T, NULL},
    {"-specialized_unit_", T, NULL},
    {"-ptx_opcode_latency_int", T, NULL},
    {"-ptx_opcode_latency_fp", T, NULL},
    {"-ptx_opcode_latency_dp", T, NULL},
    {"-ptx_opcode_latency_sfu", T, NULL},
    {"-ptx_opcode_latency_tesnor", T, NULL},
    {"-ptx_opcode_initiation_int", T, NULL},
    {"-ptx_opcode_initiation_fp", T, NULL},
    {"-ptx_opcode_initiation_dp", T, NULL},
    {"-ptx_opcode_initiation_sfu", T, NULL},
    {"-ptx_opcode_initiation_tensor", T, NULL},
    {"-gpgpu_cache:dl1", T, NULL},
    {"-gpgpu_gmem_skip_L1D", B, NULL},
    {"-gpgpu_l1_latency", U, NULL},
    {"-gpgpu_shmem_num_banks", U, NULL},
    {"-gpgpu_smem_latency", U, NULL},
    {"-gpgpu_cache:dl2", T, NULL},
    {"-gpgpu_n_mem", U, NULL},
    {"-gpgpu_n_sub_partition_per_mchannel", U, NULL},
    {"-gpgpu_l2_rop_latency", U, NULL},
    {"-gpgpu_dram_partition_queues", T, NULL},
    {"-gpgpu_memory_partition_indexing", U, NULL},
    {"-gpgpu_n_mem_per_ctrlr", U, NULL},
    {"-gpgpu_dram_buswidth", U, NULL},
    {"-gpgpu_dram_burst_length", U, NULL},
    {"-dram_data_command_freq_ratio", U, NULL},
    {"-dram_latency", U, NULL},
    {"-gpgpu_dram_timing_opt", T, NULL},
    {"-gpgpu_mem_addr_mapping", T, NULL},
    {"-dram_write_queue_size", T, NULL},
    {"-dram_elimnate_rw_turnaround", B, NULL},
    {"-icnt_flit_size", U, NULL},
    {"-network_mode", I, NULL},
    {"-gpgpu_kernel_launch_latency", U, NULL},
    {"-gpgpu_perf_sim_memcpy", B, NULL},

    /* No warpsim equivalent. */
    {"-gpgpu_ptx_instruction_classification", I, WHY_PTX},
    {"-gpgpu_ptx_sim_mode", I, WHY_PTX},
    {"-gpgpu_ptx_convert_to_ptxplus", B, WHY_PTX},
    {"-gpgpu_ptx_save_converted_ptxplus", B, WHY_PTX},
    {"-gpgpu_ptx_use_cuobjdump", B, WHY_PTX},
    {"-gpgpu_ptx_inst_debug_to_file", B, WHY_STAT},
    {"-gpgpu_ptx_inst_debug_file", T, WHY_STAT},
    {"-gpgpu_ptx_inst_debug_thread_uid", I, WHY_STAT},
    {"-save_embedded_ptx", B, WHY_PTX},
    {"-keep", B, WHY_PTX},
    {"-gpgpu_cuda_sim", B, WHY_PTX},
    {"-gpgpu_stack_size_limit", U, WHY_RT},
    {"-gpgpu_heap_size_limit", U, WHY_RT},
    {"-gpgpu_runtime_sync_depth_limit", U, WHY_RT},
    {"-gpgpu_runtime_pending_launch_count_limit", U, WHY_RT},
    {"-gpgpu_TB_launch_latency", U,
     "CTA launch delay: warpsim dispatches a "
     "CTA as soon as an SM has room"},
    {"-gpgpu_max_concurrent_kernel", I,
     "warpsim runs a trace's kernels one "
     "after another"},
    {"-gpgpu_concurrent_kernel_sm", B,
     "warpsim runs a trace's kernels one "
     "after another"},
    {"-gpgpu_clock_gated_lanes", B, WHY_POWER},
    {"-gpgpu_clock_gated_reg_file", B, WHY_POWER},
    {"-n_regfile_gating_group", U, WHY_POWER},
    {"-gpgpu_registers_per_block", U,
     "warpsim limits a CTA by the SM's "
     "registers (sm.registers) only"},
    {"-gpgpu_ignore_resources_limitation", B,
     "warpsim always applies the "
     "SM's limits"},
    {"-gpgpu_occupancy_sm_number", U,
     "occupancy calculator's SM version: "
     "warpsim's occupancy follows the config's own limits"},
    {"-gpgpu_num_cta_barriers", U, "named barriers per CTA: not limited"},
    {"-gpgpu_simd_model", I,
     "divergence model: traces carry each "
     "instruction's active mask"},
    {"-gpgpu_pipeline_widths", T,
     "pipeline registers between stages: "
     "warpsim issues straight to the function units"},
    {"-gpgpu_enable_specialized_operand_collector", B, WHY_OC},
    {"-gpgpu_operand_collector_num_units_sp", I, WHY_OC},
    {"-gpgpu_operand_collector_num_units_dp", I, WHY_OC},
    {"-gpgpu_operand_collector_num_units_sfu", I, WHY_OC},
    {"-gpgpu_operand_collector_num_units_int", I, WHY_OC},
    {"-gpgpu_operand_collector_num_units_tensor_core", I, WHY_OC},
    {"-gpgpu_operand_collector_num_units_mem", I, WHY_OC},
    {"-gpgpu_operand_collector_num_units_gen", U, WHY_OC},
    {"-gpgpu_operand_collector_num_in_ports_sp", I, WHY_OC},
    {"-gpgpu_operand_collector_num_in_ports_dp", I, WHY_OC},
    {"-gpgpu_operand_collector_num_in_ports_sfu", I, WHY_OC},
    {"-gpgpu_operand_collector_num_in_ports_int", I, WHY_OC},
    {"-gpgpu_operand_collector_num_in_ports_tensor_core", I, WHY_OC},
    {"-gpgpu_operand_collector_num_in_ports_mem", I, WHY_OC},
    {"-gpgpu_operand_collector_num_in_ports_gen", I, WHY_OC},
    {"-gpgpu_operand_collector_num_out_ports_sp", I, WHY_OC},
    {"-gpgpu_operand_collector_num_out_ports_dp", I, WHY_OC},
    {"-gpgpu_operand_collector_num_out_ports_sfu", I, WHY_OC},
    {"-gpgpu_operand_collector_num_out_ports_int", I, WHY_OC},
    {"-gpgpu_operand_collector_num_out_ports_tensor_core", I, WHY_OC},
    {"-gpgpu_operand_collector_num_out_ports_mem", I, WHY_OC},
    {"-gpgpu_operand_collector_num_out_ports_gen", I, WHY_OC},
    {"-gpgpu_num_reg_banks", I, WHY_OC},
    {"-gpgpu_reg_bank_use_warp_id", B, WHY_OC},
    {"-gpgpu_reg_file_port_throughput", I, WHY_OC},
    {"-gpgpu_shmem_limited_broadcast", B,
     "warpsim counts a warp's "
     "shared-memory wavefronts with broadcast, as Volta and later do"},
    {"-gpgpu_shmem_warp_parts", I,
     "warpsim checks bank conflicts over the "
     "whole warp, as Volta and later do"},
    {"-gpgpu_shmem_port_per_bank", I,
     "shared-memory bank ports: one access "
     "per bank per cycle"},
    {"-gpgpu_cache_port_per_bank", I, "cache bank ports: not modelled"},
    {"-gpgpu_const_port_per_bank", I, "constant cache: not modelled"},
    {"-gpgpu_coalesce_arch", I,
     "warpsim coalesces into 32-byte sectors of "
     "128-byte lines, as sm_60 and later"},
    {"-gpgpu_mem_unit_ports", I,
     "memory transactions per cycle: warpsim's "
     "L1 tag pipe takes one request per cycle"},
    {"-gpgpu_num_mem_units", U, "not used by GPGPU-Sim either"},
    {"-gpgpu_simt_core_sim_order", I,
     "order GPGPU-Sim steps the SMs in: "
     "warpsim is event driven"},
    {"-gpgpu_l1_banks", U,
     "L1 data banks: bank conflicts in L1 are not "
     "modelled"},
    {"-gpgpu_l1_banks_byte_interleaving", U,
     "L1 data banks: bank conflicts "
     "in L1 are not modelled"},
    {"-gpgpu_l1_banks_hashing_function", U,
     "L1 data banks: bank conflicts "
     "in L1 are not modelled"},
    {"-gpgpu_l1_cache_write_ratio", U,
     "share of L1 ways stores may take: "
     "warpsim's L1 is write-through and allocates on loads only"},
    {"-gpgpu_flush_l1_cache", B,
     "warpsim always invalidates L1 at a kernel "
     "boundary"},
    {"-gpgpu_flush_l2_cache", B,
     "warpsim keeps L2's contents across "
     "kernels"},
    {"-gpgpu_n_cluster_ejection_buffer_size", U,
     "response buffers at the "
     "SM: returns are not queued there"},
    {"-gpgpu_n_ldst_response_buffer_size", U,
     "response buffers at the SM: "
     "returns are not queued there"},
    {"-gpgpu_shmem_sizeDefault", U,
     "shared memory of a kernel with no "
     "preference: warpsim picks a carveout per kernel (l1.carveout: auto)"},
    {"-gpgpu_shmem_size_PrefL1", U, WHY_FERMI},
    {"-gpgpu_shmem_size_PrefShared", U, WHY_FERMI},
    {"-gpgpu_cache:dl1PrefL1", T, WHY_FERMI},
    {"-gpgpu_cache:dl1PrefShared", T, WHY_FERMI},
    {"-gpgpu_cache:dl2_texture_only", B, "warpsim's L2 caches every access"},
    {"-gpgpu_cache:il1", T, WHY_FETCH},
    {"-gpgpu_cache:il0", T, WHY_FETCH},
    {"-gpgpu_inst_fetch_throughput", I, WHY_FETCH},
    {"-gpgpu_perfect_inst_const_cache", B, WHY_FETCH},
    {"-gpgpu_tex_cache:l1", T,
     "texture cache: warpsim sends texture loads "
     "through L1 like global loads"},
    {"-gpgpu_const_cache:l1", T,
     "constant cache: constant loads are not "
     "timed apart from the instruction"},
    {"-gpgpu_perfect_mem", B, "ideal memory: lower the latencies instead"},
    {"-l2_ideal", B, "ideal L2: lower l2.latency or raise l2.size instead"},
    {"-gpgpu_local_mem_map", B,
     "local memory goes through L1 and L2 like "
     "global memory"},
    {"-gpgpu_max_cycle", U, WHY_LIMIT},
    {"-gpgpu_max_insn", U, WHY_LIMIT},
    {"-gpgpu_max_cta", U, WHY_LIMIT},
    {"-gpgpu_max_completed_cta", U, WHY_LIMIT},
    {"-gpgpu_deadlock_detect", B,
     "warpsim reports kernels that cannot "
     "progress without a switch"},
    {"-inter_config_file", T, WHY_ICNT},
    {"-icnt_in_buffer_limit", U, WHY_ICNT},
    {"-icnt_out_buffer_limit", U, WHY_ICNT},
    {"-icnt_subnets", U, WHY_ICNT},
    {"-icnt_arbiter_algo", U, WHY_ICNT},
    {"-icnt_verbose", U, WHY_STAT},
    {"-icnt_grant_cycles", U, WHY_ICNT},
    {"-gpgpu_dram_scheduler", I, WHY_DRAMQ},
    {"-gpgpu_frfcfs_dram_sched_queue_size", I, WHY_DRAMQ},
    {"-gpgpu_dram_return_queue_size", I, WHY_DRAMQ},
    {"-dram_seperate_write_queue_enable", B,
     "warpsim always drains writes "
     "in batches (dram.write_batch)"},
    {"-dram_dual_bus_interface", U,
     "HBM's separate row and column command "
     "buses: warpsim does not time commands"},
    {"-dram_bnk_indexing_policy", U,
     "bank index hashing: warpsim picks "
     "banks by its own address hash"},
    {"-dram_bnkgrp_indexing_policy", U,
     "bank-group index bits: warpsim "
     "picks bank groups by its own address hash"},
    {"-gpgpu_mem_address_mask", I,
     "channel-bit placement: warpsim slices "
     "L2 and channels by its own hash (l2.hash)"},
    {"-gpgpu_memlatency_stat", I, WHY_STAT},
    {"-gpgpu_runtime_stat", T, WHY_STAT},
    {"-enable_ptx_file_line_stats", B, WHY_STAT},
    {"-ptx_line_stats_filename", T, WHY_STAT},
    {"-visualizer_enabled", B, WHY_STAT},
    {"-visualizer_outputfile", T, WHY_STAT},
    {"-visualizer_zlevel", I, WHY_STAT},
    {"-trace_enabled", B, WHY_STAT},
    {"-trace_components", T, WHY_STAT},
    {"-trace_sampling_core", I, WHY_STAT},
    {"-trace_sampling_memory_partition", I, WHY_STAT},
    {"-gpgpu_cflog_interval", I, WHY_STAT},
    {"-gpgpu_warpdistro_shader", I, WHY_STAT},
    {"-gpgpu_warp_issue_shader", I, WHY_STAT},
    {"-liveness_message_freq", U, WHY_STAT},
    {"-gpgpu_stat_sample_freq", I, WHY_STAT},
    {"-checkpoint_option", I, "checkpointing of functional simulation"},
    {"-checkpoint_kernel", I, "checkpointing of functional simulation"},
    {"-checkpoint_CTA", I, "checkpointing of functional simulation"},
    {"-resume_option", I, "checkpointing of functional simulation"},
    {"-resume_kernel", I, "checkpointing of functional simulation"},
    {"-resume_CTA", I, "checkpointing of functional simulation"},
    {"-checkpoint_CTA_t", I, "checkpointing of functional simulation"},
    {"-checkpoint_insn_Y", I, "checkpointing of functional simulation"},
    {"-gpgpu_debug_buf", T, WHY_STAT},
    {"-trace", T, "the trace list: give the trace to warpsim run"},
    {"-trace_driven_mode", I, "warpsim is always trace driven"},
    {"-gpgpu_compute_capability", T, WHY_PTX},
};

#undef T
#undef U
#undef I
#undef B

/* Families recognised by prefix; a numbered family's entry above ends in
 * '_' and matches that prefix followed by digits only. */
static const char *const ws_gs_power_prefixes[] = {
    "-power_",        "-accelwattch_", "-gpuwattch_",       "-dvfs_",
    "-steady_",       "-hw_perf_",     "-aggregate_power_", "-gpu_steady_",
    "-gpu_nonlinear_"};

static const struct ws_gpgpusim_known ws_gs_power = {"(power)", WS_GS_TEXT,
                                                     WHY_POWER};

static int ws_gs_numbered(const char *entry, const char *name)
{
    size_t n = strlen(entry);

    if (n == 0 || entry[n - 1] != '_' || strncmp(entry, name, n) != 0
        || name[n] == '\0')
        return 0;
    for (const char *p = name + n; *p; p++)
        if (!isdigit((unsigned char)*p))
            return 0;
    return 1;
}

const struct ws_gpgpusim_known *ws_gpgpusim_known(const char *name)
{
    size_t n = sizeof ws_gs_known / sizeof ws_gs_known[0];

    for (size_t i = 0; i < n; i++) {
        const char *e = ws_gs_known[i].name;
        if (e[strlen(e) - 1] == '_' ? ws_gs_numbered(e, name)
                                    : strcmp(e, name) == 0)
            return &ws_gs_known[i];
    }
    for (size_t i = 0;
         i < sizeof ws_gs_power_prefixes / sizeof ws_gs_power_prefixes[0]; i++)
        if (strncmp(name, ws_gs_power_prefixes[i],
                    strlen(ws_gs_power_prefixes[i]))
            == 0)
            return &ws_gs_power;
    return NULL;
}
