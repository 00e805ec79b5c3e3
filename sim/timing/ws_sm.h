/*
 * ws_sm: the state of the streaming multiprocessors: CTA slots holding
 * their warps' instruction streams, warp slots with a scoreboard of
 * register-ready cycles, and sub-cores with a scheduler and function-unit
 * reservations.
 *
 * A warp can issue at the first cycle when: the sub-core is free that
 * cycle, every source and destination register is ready (RZ is never one;
 * the reader drops it), the instruction's function unit accepts, it is not
 * held at a barrier, and, for a global load, an L1 MSHR is free.  That
 * cycle is computed, not searched for, so idle cycles cost nothing.
 *
 * Dual issue, when the config asks for it, is two warps of one sub-core in
 * one cycle to two different units (ws_issue.c).
 *
 * With control bits (sched.control_bits and a listing that prints them),
 * dependences are the compiler's stall counts and dependence counters
 * instead of the register scoreboard; instruction fetch (ws_icache.h) and
 * register-bank reads (ws_regfile.h) add their delays when configured.
 *
 * Leaves out: operand collectors (sm_70+ has none: Huerta et al. 2025).
 */
#ifndef WS_SM_H
#define WS_SM_H

#include <stdint.h>

#include "config/ws_config.h"
#include "mem/ws_coalesce.h"
#include "stats/ws_stats.h"
#include "trace/ws_trace.h"
#include "util/ws_cacheline.h"
#include "ws_icache.h"
#include "ws_regfile.h"

#define WS_NREGS 256
#define WS_ASYNC_GROUPS 8
#define WS_NEVER UINT64_MAX

enum ws_warp_state {
    WS_WARP_FREE,
    WS_WARP_ACTIVE,
    WS_WARP_AT_BARRIER,
    WS_WARP_WAITING, /* held by an mbarrier, warpgroup or cluster wait */
    WS_WARP_DONE
};

/* A streamed warp's window: instructions and lane addresses a reader
 * refills as the warp reaches the end of what it holds.  Small, since every
 * resident warp has one: memory then follows the warps resident, not the
 * length of their streams. */
#define WS_WARP_WINDOW 32
#define WS_WARP_WINDOW_ADDRS 256

enum ws_wait_on {
    WS_WAIT_NONE,
    WS_WAIT_MBAR,   /* an mbarrier phase */
    WS_WAIT_WG,     /* its warpgroup at WARPGROUP.ARRIVE */
    WS_WAIT_CLUSTER /* its cluster at UCGABAR_WAIT */
};

/* A warp's groups of asynchronous operations (LDGSTS's, wgmma's): the
 * committed groups' completion cycles as a running maximum in a ring, so
 * that one entry answers for a group and every group before it, and the
 * latest completion in the group still open. */
struct ws_async_groups {
    uint64_t done[WS_ASYNC_GROUPS];
    uint64_t open;   /* latest completion in the open group */
    uint32_t n;      /* groups committed */
    uint32_t open_n; /* operations in the open group */
};

static inline void ws_groups_reset(struct ws_async_groups *g)
{
    g->open = 0;
    g->n = g->open_n = 0;
}

/* The last committed group's completion: that of every committed one. */
static inline uint64_t ws_groups_last(const struct ws_async_groups *g)
{
    return g->n ? g->done[(g->n - 1) % WS_ASYNC_GROUPS] : 0;
}

/* An operation completing at `done` joins the open group. */
static inline void ws_groups_add(struct ws_async_groups *g, uint64_t done)
{
    if (done > g->open)
        g->open = done;
    g->open_n++;
}

/* Closes the open group, empty or not. */
static inline void ws_groups_commit(struct ws_async_groups *g)
{
    uint64_t prev = ws_groups_last(g);

    g->done[g->n % WS_ASYNC_GROUPS] = g->open > prev ? g->open : prev;
    g->n++;
    g->open = 0;
    g->open_n = 0;
}

/* The cycle by which at most keep groups are in flight: committed ones
 * only (DEPBAR.LE SB0), or the open one too as a group of its own when it
 * holds any operation and count_open says so (WARPGROUP.DEPBAR, whose
 * groups a trace cannot close). */
static inline uint64_t ws_groups_wait(const struct ws_async_groups *g,
                                      int32_t keep, int count_open)
{
    uint32_t k = keep < 0 ? 0u : (uint32_t)keep;
    uint32_t open = count_open && g->open_n ? 1u : 0u;
    uint32_t idx;
    uint64_t last;

    if (g->n + open <= k)
        return 0;
    idx = g->n + open - 1 - k;
    if (idx < g->n)
        return g->done[idx % WS_ASYNC_GROUPS];
    last = ws_groups_last(g);
    return g->open > last ? g->open : last;
}

struct ws_warp {
    /* Instructions: the warp's whole stream (a CTA read whole, copied into
     * its slot), or a window that reader refills (reader.read non-NULL). */
    const struct ws_inst *inst;
    const uint64_t *addrs; /* what inst[i].addr indexes */
    uint32_t ninst, next;
    struct ws_warp_reader reader;
    struct ws_inst *win; /* the window, allocated at first use */
    uint64_t *win_addrs;
    uint32_t slot; /* CTA slot on this SM */
    uint32_t warp_in_cta;
    uint64_t age; /* dispatch order: GTO's "oldest" */
    enum ws_warp_state state;
    uint64_t dispatched;
    uint64_t last_issue; /* cycle of the previous issue */
    uint64_t ready_after_barrier;
    uint64_t busy_until;           /* last load or atomic result */
    uint64_t mem_until;            /* last global/local load's data */
    struct ws_async_groups ldgsts; /* LDGSTS, closed by LDGDEPBAR */
    /* Readiness of the next instruction that only this warp can change,
     * recomputed when it issues or leaves a barrier (ws_issue_prepare). */
    uint64_t next_dep;
    uint8_t next_dep_ctr, next_unit, next_mshr; /* next_dep_ctr: an
                                   enum ws_ctr stall reason */
    /* Its window was read in own work and has not committed yet: the
     * next read waits for the commit (ws_cycle_commit_later). */
    uint8_t commit_pending;
    /* The compiler's control (trace/ws_ctrl.h): the stall count's end,
     * the dependence counters SB0..SB5 as the cycle each reaches zero
     * (the latest release of the instructions that raised it), and what
     * waiting on each counts as. */
    uint64_t stall_until;
    uint64_t sb_ready[6];
    uint8_t sb_stall[6];
    uint64_t fetch_ready; /* the next instruction's line is in */
    uint64_t fetch_line;  /* line of the last instruction fetched, + 1 */
    uint64_t reg_ready[WS_NREGS];
    uint8_t reg_stall[WS_NREGS]; /* enum ws_ctr: what waiting on the
                                       register's producer counts as */
    /* Hopper's asynchronous state (ws_async.h), last: kernels without it
     * keep the fields above in the cache lines they had. */
    struct ws_async_groups wgmma;
    uint64_t wait_from;   /* cycle a WS_WARP_WAITING wait began */
    uint64_t wait_mbar;   /* the mbarrier waited on, for WS_WAIT_MBAR */
    uint32_t cga_arrives; /* UCGABAR_ARV issued (ws_cluster.h) */
    uint8_t waiting_on;   /* enum ws_wait_on, while WS_WARP_WAITING */
};

/* An mbarrier (ws_async.h), found by its shared address. */
struct ws_mbar {
    uint64_t addr;
    int64_t pending;  /* arrivals the current phase still needs */
    int64_t tx;       /* bytes expected less bytes landed */
    uint32_t count;   /* arrivals per phase */
    uint32_t phase;   /* phases completed */
    uint64_t last_at; /* when phase (phase - 1) completed */
    uint64_t cur_at;  /* latest arrival or landing of the current phase */
    uint32_t waiters; /* warps of the CTA (bit = warp) held for it */
};

#define WS_CTA_MBARS 32
#define WS_CTA_WARPGROUPS 8

struct ws_cta_slot {
    int used;
    struct ws_mbar mbar[WS_CTA_MBARS];
    uint32_t nmbar;
    uint32_t wg_arrived[WS_CTA_WARPGROUPS]; /* bit = warp of the CTA */
    uint32_t cluster, rank; /* ws_cluster.h: table index, or WS_NO_CLUSTER */
    uint32_t ctaid[3];
    uint64_t linear_id;
    uint32_t nwarps; /* warps of the CTA with instructions */
    uint32_t at_barrier, done;
    uint32_t warp_slots[32]; /* CUDA allows at most 32 warps per CTA */
    struct ws_inst *inst;    /* the CTA's streams, copied at dispatch */
    size_t inst_cap;
    uint64_t *addrs;
    size_t addr_cap;
    uint64_t dispatched, retire_at;
};

/* What selection reads of an active warp, packed: the scheduler scans a
 * sub-core's candidates every cycle it issues, and a struct ws_warp is
 * kilobytes (its scoreboard), so reading them there cost a cache miss per
 * warp per cycle. */
struct ws_cand {
    /* max(last_issue + 1, next_dep, ready_after_barrier): the part of the
     * issue cycle that other warps cannot move. */
    uint64_t ready_own;
    uint64_t age;
    uint32_t warp;
    uint8_t unit, mshr;
};

#define WS_NO_CAND UINT32_MAX

struct ws_subcore {
    struct ws_cand *cand; /* the active warps, oldest first */
    uint64_t issue_free;  /* after a register-bank bubble: next issue */
    struct ws_rfc rfc;
    struct ws_icache icache;
    uint32_t ncand;
    uint64_t unit_free[WS_UNIT_COUNT];
    uint64_t wake; /* pending wake-up, WS_NEVER when none */
    uint32_t last; /* warp slot issued last (GTO, LRR) */
    /* last's place among the candidates, WS_NO_CAND when it is not one
     * (not active, or, before the first issue, not this sub-core's):
     * greedy-then-oldest looks there first every cycle. */
    uint32_t last_cand;
};

struct ws_sm {
    /* A line of its own: neighbouring SMs may run on other threads, and
     * this one's counters (at the end) are written at every issue. */
    _Alignas(WS_CACHELINE) uint32_t id;
    struct ws_warp *warps; /* [sm.max_warps] */
    uint32_t nwarps;
    /* [sm.max_warps]: each warp slot's place among its sub-core's
     * candidates, WS_NO_CAND when it is not one.  Beside the SM, not in
     * the warps: a warp leaving the list renumbers those after it, and
     * writing into each of their structs cost a host cache miss apiece
     * (ws_sm_deactivate was 3.6 % of a streaming kernel's run). */
    uint32_t *cand_of;
    /* Slots below it have been given a warp; those above never were and
     * are left unread (their pages untouched: ws_cacheline.h). */
    uint32_t warps_seen;
    struct ws_cta_slot *slots; /* [sm.max_blocks]; this kernel uses nslots */
    uint32_t nslots, free_warps;
    /* Slots below it have held a CTA, in this kernel or an earlier one
     * with more slots: their buffers are freed with the SM. */
    uint32_t slots_seen;
    struct ws_subcore *sub; /* [sm.sub_cores] */
    uint32_t nsub;
    uint32_t resident;   /* CTAs resident now */
    uint64_t wg_pipe[4]; /* tensor-pipe quarters: free from (wgmma) */
    uint64_t tma_free;   /* the copy engine: free from */
    uint64_t dsmem_free; /* the SM-to-SM port: free from */
    uint64_t active_since;
    uint64_t mem_until; /* last global/local load's data */
    /* What issue on this SM counts, added into the kernel's counters when
     * it ends: SMs simulated side by side count apart, and sums do not
     * depend on the order they are added in. */
    struct ws_counters ctr;
    /* A load's sectors, coalesced when its issue was found to stay in the
     * SM (every line an L1 hit: ws_issue.c), for that issue to use; and
     * the warp they are for, + 1 (0: none). */
    struct ws_coalesce_result coal;
    uint32_t coal_warp;
};

/* Whether sm can take another CTA of the kernel now. */
static inline int ws_sm_has_free_slot(const struct ws_sm *sm)
{
    return sm->resident < sm->nslots;
}

int ws_sm_init(struct ws_sm *sm, uint32_t id, const struct ws_gpu *gpu);
void ws_sm_free(struct ws_sm *sm);

/* Closes a streamed warp's reader, if it has one open. */
void ws_sm_warp_close(struct ws_warp *w);

/* Warp wi becomes a candidate of its sub-core (it is active), or stops
 * being one (at a barrier, done). */
void ws_sm_activate(struct ws_sm *sm, uint32_t wi, uint32_t sub_cores);
void ws_sm_deactivate(struct ws_sm *sm, uint32_t wi, uint32_t sub_cores);

#endif
