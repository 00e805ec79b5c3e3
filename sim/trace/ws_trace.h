/*
 * ws_trace: the instruction stream every input turns into.
 *
 * A kernel launch (struct ws_launch) and, one CTA at a time, the dynamic
 * instructions of each of its warps (struct ws_cta_stream).  The Accel-Sim
 * reader and the workload expander both produce it, so the timing model
 * and the profile never know which file format a kernel came from.  Streams are handed out per CTA and the memory behind
 * them is reused for the next CTA: a reader's footprint follows the largest
 * CTA, not the trace.
 *
 * Register numbers are 0..254; RZ (255) is dropped at parse time because it is
 * never a dependency.  A wide load's destination is widened to the 2 or 4
 * registers it writes.  Memory addresses are stored for active lanes only, in
 * lane order, popcount(mask) of them from addr.
 *
 * Leaves out: timing (timing/), file formats (the readers).
 */
#ifndef WS_TRACE_H
#define WS_TRACE_H

#include <stddef.h>
#include <stdint.h>

#define WS_WARP_SIZE 32
/* CUDA's launch limits (compute capability 2.0 on): threads per block, and
 * block x, y and z. */
#define WS_CUDA_MAX_BLOCK_THREADS 1024
#define WS_CUDA_MAX_BLOCK_Z 64
#define WS_REG_RZ 255
#define WS_INST_MAX_DST 4
#define WS_INST_MAX_SRC 5
/* Registers an Accel-Sim trace line may name (its parser's MAX_DST and
 * MAX_SRC): NVBit's tracer records each operand once, the first register
 * of a pair or quad, and readers widen destinations from the opcode
 * (ws_opinfo_result_regs).  What warpsim writes and expands stays inside
 * these, so that its traces read back to the same stream anywhere. */
#define WS_TRACE_LINE_MAX_DST 1
#define WS_TRACE_LINE_MAX_SRC 4

enum ws_space {
    WS_SPACE_NONE,
    WS_SPACE_GLOBAL,
    WS_SPACE_SHARED,
    WS_SPACE_LOCAL,
    WS_SPACE_CONST,
    WS_SPACE_TEX,
    WS_SPACE_COUNT
};

/* Instruction flags. */
enum {
    WS_INST_UNKNOWN = 1u << 0, /* mnemonic not in the opcode table */
    WS_INST_GENERIC = 1u << 1, /* LD/ST/ATOM/RED: space came from the address */
    WS_INST_BAR_SYNC = 1u << 2, /* BAR.SYNC / BAR.RED: wait for the CTA */
    WS_INST_FENCE = 1u << 3,    /* MEMBAR / FENCE: wait for own memory ops */
    WS_INST_ASYNC_COMMIT = 1u << 4, /* LDGDEPBAR: close an LDGSTS group */
    WS_INST_ASYNC_WAIT = 1u << 5,   /* DEPBAR.LE SB0, imm: wait for groups */
    /* Hopper's asynchronous instructions (trace/ws_async_op.h): the timing
     * model decodes the opcode once and acts on its kind. */
    WS_INST_ASYNC = 1u << 6,
    WS_INST_WG_WAIT = 1u << 7 /* WARPGROUP.DEPBAR.LE gsb0, imm */
};

struct ws_inst {
    uint32_t pc;
    uint32_t mask; /* active lanes after predication; 0 = predicated off */
    uint32_t op;   /* interned full opcode, modifiers included */
    uint32_t addr; /* index of the first address in the CTA's pool */
    int32_t imm;
    uint8_t cls;   /* enum ws_op_class */
    uint8_t memop; /* enum ws_mem_op */
    uint8_t space; /* enum ws_space */
    uint8_t width; /* bytes per lane, 0 when not a memory access */
    uint8_t flags;
    uint8_t ndst, nsrc;
    uint8_t dst[WS_INST_MAX_DST];
    uint8_t src[WS_INST_MAX_SRC];
};

struct ws_warp_stream {
    uint32_t ninst;
    const struct ws_inst *inst;
};

struct ws_cta_stream {
    uint32_t ctaid[3];
    uint64_t linear_id; /* z*gy*gx + y*gx + x */
    int has_cluster;
    uint32_t cluster_id[3], cluster_cta[3], cluster_rank;
    uint32_t nwarps;              /* warps per CTA from the block size */
    struct ws_warp_stream *warps; /* [nwarps]; absent warps have ninst 0 */
    const uint64_t *addrs;
    uint32_t ninst, naddrs; /* totals, for copying the CTA */
};

struct ws_launch {
    char *name;
    uint32_t id;
    uint32_t grid[3], block[3];
    uint32_t shmem;      /* bytes per CTA, static + dynamic */
    uint32_t nregs;      /* per thread */
    uint32_t sm_version; /* 70, 80, 90 ... */
    uint64_t stream_id;
    uint64_t shmem_base, local_base;
    uint32_t trace_version; /* 0 = before version 3 */
    /* Thread-block cluster dimensions (Hopper); 0,0,0: no clusters, or
     * a source that does not say (the simulator then co-schedules what
     * the CTAs' cluster lines say but cannot size a cluster barrier). */
    uint32_t cluster[3];
    int lineinfo;
    char *nvbit_version;
};

static inline uint32_t ws_launch_threads(const struct ws_launch *l)
{
    return l->block[0] * l->block[1] * l->block[2];
}

static inline uint32_t ws_launch_warps_per_cta(const struct ws_launch *l)
{
    return (ws_launch_threads(l) + WS_WARP_SIZE - 1) / WS_WARP_SIZE;
}

/* The launch's numbers without its strings, for records that outlive the
 * reader that owns them. */
static inline struct ws_launch ws_launch_scalars(const struct ws_launch *l)
{
    struct ws_launch c = *l;

    c.name = NULL;
    c.nvbit_version = NULL;
    return c;
}

static inline uint64_t ws_launch_ctas(const struct ws_launch *l)
{
    return (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
}

const char *ws_space_name(enum ws_space space);

/* Where a kernel's CTAs come from: the Accel-Sim reader or the workload
 * expander (input/ws_input hands them out).  next() returns 1 with a CTA (valid until the next call),
 * 0 after the last one, -1 with err set. */
struct ws_err;
struct ws_strtab;
struct ws_ctrl_table;
/* One warp's instructions a window at a time, for a source that can hand
 * out warps without holding their whole streams (a workload expands each
 * warp as the simulator reaches it): memory then follows the warps resident
 * now, not how long they run. */
struct ws_warp_reader {
    void *ctx;
    /* Fills inst[0..cap) with the warp's next instructions and addrs with
     * their lanes' addresses (each inst.addr indexes addrs), stopping
     * before an instruction whose addresses would not fit in addr_cap
     * (which holds at least one warp's worth, WS_WARP_SIZE).  The number
     * read, 0 at the warp's end, -1 on error. */
    long (*read)(void *ctx, struct ws_inst *inst, size_t cap, uint64_t *addrs,
                 size_t addr_cap, struct ws_err *err);
    void (*close)(void *ctx);
    /* For a source whose reads may run side by side on threads (after
     * ws_cta_source.set_parts), else NULL: whether the next read returns
     * instructions (the warp's end, which retires it, is read on the
     * calling thread).  It changes nothing. */
    int (*more)(void *ctx);
    /* NULL, or what a read does that depends on the order of every warp's
     * reads (the kernel's instruction total, the run's model profile):
     * called after each read that returned instructions, with them, on
     * the calling thread, in an order that does not depend on threads.
     * -1 on error. */
    int (*commit)(void *ctx, const struct ws_inst *inst, size_t n,
                  const uint64_t *addrs, struct ws_err *err);
    /* Set by the caller before warp_open: the part (thread) of SMs whose
     * work reads this warp. */
    unsigned part;
};

struct ws_cta_source {
    const char *origin; /* the trace's path, for messages */
    void *ctx;
    const struct ws_launch *launch;
    const struct ws_strtab *ops;
    /* The next CTA with every warp's whole stream. */
    int (*next)(void *ctx, const struct ws_cta_stream **cta,
                struct ws_err *err);
    /* Streaming, for sources that can (NULL otherwise): the next CTA's
     * identity and warps (warps[w].ninst 1 for a warp that exists, 0 for an
     * absent one, inst NULL), then a reader per warp.  A source is read in
     * one way or the other, never both. */
    int (*next_header)(void *ctx, const struct ws_cta_stream **cta,
                       struct ws_err *err);
    int (*warp_open)(void *ctx, const struct ws_cta_stream *cta, uint32_t warp,
                     struct ws_warp_reader *r, struct ws_err *err);
    /* NULL, or readers for `parts` parts of SMs whose reads may run side by
     * side, each part's on one thread at a time (warp_open then binds a
     * reader to r->part and gives it more and commit).  Called before the
     * kernel's first warp_open. */
    int (*set_parts)(void *ctx, unsigned parts, struct ws_err *err);
    /* The kernel's control bits by PC (ws_ctrl.h), from its listing; NULL
     * when no listing printed them for every instruction. */
    const struct ws_ctrl_table *ctrl;
    /* No CTA of the kernel is in a thread-block cluster: its SMs then meet
     * only in the memory system, and the simulator may run several cycles
     * of each between synchronisations (timing/ws_window.h).  0 where a
     * source cannot tell (an Accel-Sim trace may name clusters per CTA). */
    int no_clusters;
};

#endif
