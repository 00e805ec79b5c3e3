/*
 * ws_model: the closed-form models warpsim prints beside every simulation,
 * each a pure function of explicit parameters (struct *_params below), so
 * that a paper's worked example can be checked by hand ("warpsim model
 * NAME --params FILE") and the same code runs on parameters extracted from
 * a kernel profile and a GPU config (ws_model_params.c).
 *
 * Every model fills a struct ws_model_result: the predicted cycles, the
 * regime that produced them (which case, which term or roof binds), and
 * every intermediate quantity by name, in the order computed, for --json.
 * A model whose assumptions do not hold for the input says so in `why`
 * and sets applies = 0 instead of printing a number.
 *
 * Each model's file also defines the model for the table of them
 * (struct ws_model_def, ws_model_def.h).
 *
 * Leaves out: where the parameters come from (ws_model_params.c).
 */
#ifndef WS_MODEL_H
#define WS_MODEL_H

#include "stats/ws_model_result.h"

/* Starts a result: applies = 1, nothing computed yet. */
void ws_model_begin(struct ws_model_result *r, const char *model);

/* Appends a named intermediate (silently ignored past the maximum). */
void ws_model_var(struct ws_model_result *r, const char *name, double value);

/* The named intermediate, or NaN when absent. */
double ws_model_get(const struct ws_model_result *r, const char *name);

/* Marks the model as not applying, with the reason; returns 0 so that a
 * model function can "return ws_model_skip(...)". */
int ws_model_skip(struct ws_model_result *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* States the model's domain: ok 1 when the input lies inside it, 0 with
 * the failing assumption in the text. */
void ws_model_domain(struct ws_model_result *r, int ok, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- MWP/CWP (Hong & Kim, ISCA 2009) and its L2 form (Wang & Lou) ----
 * Instruction counts are per thread (= per warp: one warp instruction per
 * thread instruction), averaged over the kernel's warps. */
struct ws_mwp_params {
    double freq_ghz;          /* Freq: SM clock */
    double mem_bw_gbs;        /* Mem_Bandwidth */
    double mem_ld;            /* Mem_LD = Mem_L2_cache_miss: DRAM latency */
    double mem_l2_hit;        /* Mem_L2_cache_hit: L2 hit latency (L2 form) */
    double l2_hit_rate;       /* 0..1, from the profile's reuse analysis
                                   (warpsim's reuse-weighted L2 variant and
                                   Hong & Kim's "no caches" domain) */
    double transaction_bytes; /* the unit of the counts and delays below:
                                   128 (the papers' block) or 32 (sector);
                                   0 when not said */
    double departure_del_uncoal, departure_del_coal;
    double departure_measured;  /* 1: the config's measured delays, 0:
                                   derived from the SM port (an estimate) */
    double uncoal_per_mw;       /* #Uncoal_per_mw: transactions per warp */
    double coal_per_mw;         /* #Coal_per_mw */
    double load_bytes_per_warp; /* Load_bytes_per_warp: bytes moved per
                                   memory warp instruction */
    double active_sms;          /* #Active_SMs */
    double issue_cycles;        /* Issue_cycles: the SM's issue time of one
                                   warp instruction (eqs 2, 9, 10) */
    double issue_cycles_warp;   /* one warp's own time per instruction
                                   (its compute period: eqs 1, 4, 20, 22);
                                   0 = Issue_cycles, as on the papers'
                                   one-scheduler SMs */
    double comp_insts;          /* #Comp_insts */
    double uncoal_insts;        /* #Uncoal_Mem_insts */
    double coal_insts;          /* #Coal_Mem_insts */
    double synch_insts;         /* #Synch_insts */
    double first_comp_period_insts;
    double threads_per_block;
    double blocks; /* #Blocks */
    double active_blocks_per_sm;
};

/* Hong & Kim, every case, with the synchronization cost; no rounding. */
int ws_model_mwp(const struct ws_mwp_params *p, struct ws_model_result *r);
/* Wang & Lou's L2 extension (eqs 20-22) as written: every later warp's
 * memory cycles scaled by Mem_L2_cache_hit / Mem_L2_cache_miss. */
int ws_model_mwp_l2(const struct ws_mwp_params *p, struct ws_model_result *r);
/* warpsim's extension of it: the ratio weighted by the kernel's reuse
 * (l2_hit_rate), so that a kernel that reuses nothing gets Hong & Kim. */
int ws_model_mwp_l2_reuse(const struct ws_mwp_params *p,
                          struct ws_model_result *r);

/* The family's definitions (ws_model_def.h), for the studies that compare
 * the three by name (sim/validate/ws_study_saxpy.c). */
struct ws_model_def;
extern const struct ws_model_def ws_model_mwp_def, ws_model_mwp_l2_def,
    ws_model_mwp_l2_reuse_def;

/* ---- TMM (Ma, Chamberlain & Agrawal, ASAP 2014), eqs 1, 3, 4, 8 ---- */
struct ws_tmm_params {
    double t1;        /* work: thread instructions */
    double t_inf;     /* span: operations on the longest chain,
                                   in TMM's time steps (a global access L) */
    double m;         /* global memory transactions after coalescing */
    double l;         /* memory latency, cycles */
    double t;         /* threads per core: B_a x T_r / Q */
    double p;         /* cores (all SMs) */
    double q;         /* cores per SM */
    double z;         /* shared memory per SM, bytes */
    double s_b;       /* shared memory per block, bytes */
    double r;         /* registers per SM */
    double r_t;       /* registers per thread */
    double t_r;       /* threads per block */
    double b_r;       /* requested blocks */
    double b_max;     /* block limit per SM (config) */
    double t_max_mp;  /* thread limit per SM */
    double reg_unit;  /* registers a warp is given at a time
                                   (0: none, as eq 4 prints it) */
    double smem_unit; /* shared memory granule, bytes (0: none) */
    double scale;     /* the config's calibrated factor (cycles) */
};

int ws_model_tmm(const struct ws_tmm_params *p, struct ws_model_result *r);

/* Eq 4's B_a (with the allocation granules), and the index of the limit
 * that binds (0 shared memory, 1 registers, 2 blocks, 3 threads); the
 * parameters' T should be B_a x T_r / Q. */
double ws_model_tmm_blocks(const struct ws_tmm_params *p, int *limit);

/* ---- Roofline and its hierarchical form (the "black-box and white-box"
 * GPU performance notes): a lower bound, not a predictor. ---- */
struct ws_roofline_params {
    double flops;                 /* FP32 operations, an FMA counting 2 */
    double peak_flops;            /* FP32 per SM cycle, on the SMs the grid
                                   can occupy */
    double flops_fp16, peak_fp16; /* the same on each other pipe */
    double flops_fp64, peak_fp64;
    double flops_tensor, peak_tensor;
    double dram_bytes;      /* that must cross DRAM at least */
    double dram_bw;         /* bytes per SM cycle */
    double l2_bytes, l2_bw; /* that must cross L2 at least; per cycle */
    double l1_bytes, l1_bw; /* through the L1 data pipes; per cycle */
    double port_bytes;      /* the larger of the bytes the SMs read
                                   from and write to L2 */
    double port_bw;         /* per cycle, over the SMs the grid can
                                   occupy, each direction */
};

int ws_model_roofline(const struct ws_roofline_params *p,
                      struct ws_model_result *r);

/* ---- The quantitative roofline predictor (Konstantinidis & Cotronis,
 * JPDC 2017, as the blog seed summarises it): the compute peak of the
 * dominant operation scaled by the operation-mix and instruction-mix
 * efficiencies, then memory or compute bound by O_krn against O_dev. ---- */
struct ws_qroofline_params {
    double w_comp; /* operations of the dominant type */
    double t_op;   /* its peak, operations per cycle */
    double m_fp;   /* its instructions (E_mix; 0: E_mix = 1) */
    double m_fma;  /* of them, fused multiply-adds */
    double c_op;   /* relative instruction costs D x W */
    double c_ldst;
    double c_other;
    double w_trans;     /* bytes to and from DRAM */
    double b_mem;       /* DRAM bytes per cycle */
    double blocks, sms; /* domain only (sms 0: not given) */
};

int ws_model_qroofline(const struct ws_qroofline_params *p,
                       struct ws_model_result *r);

/* ---- The abstract instruction queue model (Pei et al., IEEE Access 2019,
 * as the blog seed summarises it): per block iteration, the dispatch of
 * global loads, shared loads and global stores (memory bound), or of the
 * computation overlapped m ways with them (compute bound). ---- */
struct ws_aiq_params {
    double blocks;           /* thread blocks */
    double sms;              /* SMs */
    double gl, sl, gs, cp;   /* global loads, shared loads, global
                                   stores, computation: warp instructions,
                                   whole kernel */
    double c_gl, c_sl, c_gs; /* cycles an SM spends dispatching one */
    double m;                /* SP units per LD/ST unit */
    double l_s;              /* shared load latency */
    double l_gs;             /* global store latency */
};

int ws_model_aiq(const struct ws_aiq_params *p, struct ws_model_result *r);

#endif
