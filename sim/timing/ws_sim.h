/*
 * ws_sim: the simulator proper: one GPU (SMs, memory system, event queue)
 * running kernels one after another on a single global clock, so that L2
 * contents and DRAM state carry from one kernel to the next.
 *
 * Main loop: take the earliest cycle's events (sub-core wake-ups, CTA
 * retirements), act, push the follow-up events.  Nothing runs in a cycle
 * without events, so an idle SM or a warp waiting 800 cycles on DRAM
 * costs nothing.
 *
 * A cycle's events run SM by SM, each SM's in the order they were queued;
 * events they queue for the same cycle run after them, SM by SM again.
 * An SM's own work (an issue that reads and writes only its warps, units,
 * shared memory and counters, and a workload warp's next window, read by
 * its part's copy of the expander) comes first, for every SM with events,
 * and may run on several threads (ws_cycle.h); the windows it read then
 * commit (the kernel's instruction total, the model profile) SM by SM;
 * then, SM by SM in an order that turns with the cycle, each SM's events
 * from the first that reaches beyond it (L1 and the levels below, CTA
 * dispatch and retirement, clusters, a warp's end, the next window of a
 * trace read from a file).  Which work is whose, and so the order, follows
 * from the events alone: the numbers are the same for any thread count.
 * One exception, by design: on several threads a load whose every line
 * hits in L1 is own work too (it touches only its SM's L1), on one thread
 * it waits for the rest; it commutes with other SMs' work, so the numbers
 * do not change (tests/cli/threads_same.sh compares the two).  (Own
 * work touches nothing another SM's does, so the split only reorders the
 * rare cross-SM signals of one cycle: a cluster's arrival reaches an SM
 * that issued in that cycle after its issue.)  Where no CTA is in a
 * cluster, the threads run windows of several cycles between their
 * synchronisations (ws_window.h), with this order's numbers.
 *
 * Leaves out: concurrent kernels (streams), host-device transfer time.
 */
#ifndef WS_SIM_H
#define WS_SIM_H

#include <stdint.h>

#include "config/ws_config.h"
#include "config/ws_occupancy.h"
#include "mem/ws_memsys.h"
#include "stats/ws_kernel_stats.h"
#include "stats/ws_stats.h"
#include "trace/ws_trace.h"
#include "util/ws_err.h"
#include "ws_event.h"
#include "trace/ws_async_op.h"
#include "ws_sm.h"

struct ws_timeline;
struct ws_cluster;
struct ws_par;
struct ws_cycle_part;
struct ws_cycle_commit;

/* One opcode of the kernel, as the timing model learnt it at its first
 * issue. */
struct ws_op_note {
    struct ws_async_op op; /* its asynchronous kind */
    uint8_t decoded;       /* op is filled */
    uint8_t named;         /* in the kernel's unknown_ops already */
};

/* Called now and then during a long kernel (progress display). */
typedef void (*ws_sim_progress_fn)(void *ctx, const struct ws_kernel_stats *k,
                                   uint64_t ctas_done, uint64_t now);

struct ws_sim {
    const struct ws_gpu *gpu;
    struct ws_memsys mem;
    struct ws_sm *sms;
    uint64_t now;
    uint64_t warp_age;
    /* the kernel being simulated */
    struct ws_kernel_stats *k;
    struct ws_cta_source *src;
    int src_done;
    int streamed; /* src hands out warp readers, not whole CTAs */
    uint64_t ctas_done, ctas_dispatched;
    uint64_t tail_from; /* first cycle a free slot found no CTA */
    struct ws_err *err;
    struct ws_timeline *tl;
    ws_sim_progress_fn progress;
    void *progress_ctx;
    uint64_t events;
    /* What this kernel's opcodes were found to be, by opcode id
     * (ws_async.h): grown as new ids issue. */
    struct ws_op_note *notes;
    uint32_t nnotes;
    /* Thread-block clusters resident now (ws_cluster.h), and the CTA held
     * until its cluster's GPC has a free slot (NULL: none). */
    struct ws_cluster *clusters;
    uint32_t nclusters;
    int clusters_on; /* the table is this kernel's */
    /* The kernel's control bits by PC when the config issues by them and
     * its source has them (trace/ws_ctrl.h); NULL: the scoreboard. */
    const struct ws_ctrl_table *ctrl;
    uint8_t *ctrl_seen; /* [ctrl->n]: PCs whose opcode was checked */
    const struct ws_cta_stream *held;
    int starved; /* an SM asked for work and got none while one was held */
    /* The SMs in parts, each with its event queue (ws_cycle.h). */
    struct ws_cycle_part **parts;
    uint32_t nparts;
    uint32_t *sm_part;   /* [sm.count]: each SM's part */
    uint32_t *sm_local;  /* [sm.count]: its index among its part's SMs */
    struct ws_par *par;  /* worker threads; NULL: one thread */
    size_t cycle_events; /* events of the last cycle run */
    struct ws_window_state {
        int ok;          /* this kernel may run windows (ws_window.h) */
        uint64_t len;    /* their length now, cycles */
        uint64_t forced; /* the length WARPSIM_WINDOW forces; 0: none */
        uint64_t end;    /* the running one's end */
        /* since the length last adapted: windows run, and the events
         * their first and second passes ran */
        uint32_t runs;
        size_t ran, serial;
        struct ws_cycle_commit *commits; /* ws_window.c's sort */
        size_t commit_cap;
    } win;
    struct ws_cycle_tuning {
        int threads;          /* this slice's cycles run on the threads */
        uint32_t slice;       /* slices run in this round */
        uint32_t round;       /* this round's slices */
        int trial;            /* this round's trial is still on */
        uint64_t cycles;      /* cycles run in this slice */
        size_t events;        /* events run in this slice */
        double start;         /* its start, wall-clock seconds */
        double secs[2];       /* this round's trial: seconds and events */
        size_t events_run[2]; /* run each way (one thread, threads) */
    } tune;                   /* ws_cycle.c: whether threads pay */
    uint64_t next_report;     /* event count of the next progress call */
};

/* What a caller may attach to a simulation; all optional. */
struct ws_sim_opts {
    struct ws_timeline *tl;      /* events written as they happen */
    ws_sim_progress_fn progress; /* called now and then in a kernel */
    void *progress_ctx;
    /* Threads that run the SMs' own work (ws_par.h; 0 or 1: one).  The
     * numbers are the same for any count; a timeline runs on one. */
    unsigned threads;
};

/* opts may be NULL: no timeline, no progress. */
int ws_sim_init(struct ws_sim *s, const struct ws_gpu *gpu,
                const struct ws_sim_opts *opts, struct ws_err *err);
void ws_sim_free(struct ws_sim *s);

/* Simulates every CTA of src; fills *out (name copied).  -1 with err set on
 * bad input (a CTA that cannot fit, CTAs that can never finish, a reader
 * error), placed at the kernel's header (line 1 of src->origin). */
int ws_sim_kernel(struct ws_sim *s, struct ws_cta_source *src,
                  struct ws_kernel_stats *out, struct ws_err *err);

/* Closes the readers of streamed warps a failed kernel left open (a
 * kernel that ran to its end has none). */
void ws_sim_close_readers(struct ws_sim *s);

/* A host-to-device copy between kernels. */
void ws_sim_memcpy(struct ws_sim *s, uint64_t addr, uint64_t bytes);


/* The timing model's two kinds of event, for the CTA and issue code: the
 * wake-up of a sub-core at cycle t, and the retirement of CTA slot `slot`
 * of an SM. */
int ws_sim_wake(struct ws_sim *s, uint32_t sm, uint32_t sub, uint64_t t);
int ws_sim_retire_at(struct ws_sim *s, uint32_t sm, uint32_t slot, uint64_t t);

/* One event (ws_cycle.c runs each cycle's).  With own set, only when it is
 * its SM's own work: 1, with nothing changed, when it is not. */
int ws_sim_event(struct ws_sim *s, const struct ws_event *ev, int own);

#endif
