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

/* ---- MWP/CWP (Hong & Kim, ISCA 2009) and its L2 form (Wang & Lou) ----
 * Instruction counts are per thread (= per warp: one warp instruction per
 * thread instruction), averaged over the kernel's warps. */
struct ws_mwp_params {
    double freq_ghz;            /* Freq: SM clock */
    double mem_bw_gbs;          /* Mem_Bandwidth */
    double mem_ld;              /* Mem_LD = Mem_L2_cache_miss: DRAM latency */
    double mem_l2_hit;          /* Mem_L2_cache_hit: L2 hit latency (L2 form) */
    double l2_hit_rate;         /* 0..1, from the profile's reuse analysis
                                   (L2 form; see ws_model_mwp.c for its use) */
    double departure_del_uncoal, departure_del_coal;
    double uncoal_per_mw;       /* #Uncoal_per_mw: transactions per warp */
    double coal_per_mw;         /* #Coal_per_mw */
    double load_bytes_per_warp; /* Load_bytes_per_warp */
    double active_sms;          /* #Active_SMs */
    double issue_cycles;        /* Issue_cycles */
    double comp_insts;          /* #Comp_insts */
    double uncoal_insts;        /* #Uncoal_Mem_insts */
    double coal_insts;          /* #Coal_Mem_insts */
    double synch_insts;         /* #Synch_insts */
    double first_comp_period_insts;
    double threads_per_block;
    double blocks;              /* #Blocks */
    double active_blocks_per_sm;
};

/* Hong & Kim, every case, with the synchronization cost; no rounding. */
int ws_model_mwp(const struct ws_mwp_params *p, struct ws_model_result *r);
/* Wang & Lou's L2 extension (eqs 20-22). */
int ws_model_mwp_l2(const struct ws_mwp_params *p, struct ws_model_result *r);

/* ---- TMM (Ma, Chamberlain & Agrawal, ASAP 2014), eqs 1, 3, 4, 8 ---- */
struct ws_tmm_params {
    double t1;                  /* work: thread instructions */
    double t_inf;               /* span: the longest dependent chain */
    double m;                   /* global memory transactions after coalescing */
    double l;                   /* memory latency, cycles */
    double t;                   /* threads per core */
    double p;                   /* cores (all SMs) */
    double q;                   /* cores per SM */
    double z;                   /* shared memory per SM, bytes */
    double s_b;                 /* shared memory per block, bytes */
    double r;                   /* registers per SM */
    double r_t;                 /* registers per thread */
    double t_r;                 /* threads per block */
    double b_r;                 /* requested blocks */
    double b_max;               /* block limit per SM (config) */
    double t_max_mp;            /* thread limit per SM */
    double scale;               /* the config's calibrated factor (cycles) */
};

int ws_model_tmm(const struct ws_tmm_params *p, struct ws_model_result *r);

/* ---- Roofline and its hierarchical form (the "black-box and white-box"
 * GPU performance notes): a lower bound, not a predictor. ---- */
struct ws_roofline_params {
    double flops;               /* FP32 operations, an FMA counting 2 */
    double peak_flops;          /* per SM cycle, whole GPU */
    double dram_bytes;          /* that must cross DRAM at least */
    double dram_bw;             /* bytes per SM cycle */
    double l2_bytes, l2_bw;     /* that must cross L2 at least; per cycle */
    double l1_bytes, l1_bw;     /* through the L1 data pipes; per cycle */
    double c_op, c_ldst, c_other;   /* instruction mix, for E_inst */
};

int ws_model_roofline(const struct ws_roofline_params *p,
                      struct ws_model_result *r);

#endif
