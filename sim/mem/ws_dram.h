/*
 * ws_dram: DRAM channels, timed by reservation like the rest of the memory
 * path (ws_memsys.h): an access arriving at time t gets the time its data
 * is ready at the L2 slice.
 *
 * The banked model (dram.banked) loses what real parts lose against the
 * data-sheet peak, each from a timing the config sources:
 *   - banks with open rows: a row hit streams, a row miss waits for
 *     precharge and activate (t_rp + t_rcd, and t_ras since the row was
 *     opened); a bank busy with one access holds the next;
 *   - bank groups: back-to-back column accesses (dram.burst bytes each)
 *     in one group are t_ccd_l apart, in different groups the burst time
 *     (the data bus);
 *   - read/write turnaround: the controller drains writes in batches of
 *     dram.write_batch, each batch costing the bus t_rtw + t_wtr when reads
 *     were served since the last one;
 *   - refresh: every t_refi, all banks of a channel closed and the channel
 *     unavailable for t_rfc, the channels' refreshes staggered evenly; or,
 *     with dram.refresh_per_bank (HBM's REFSB), one bank at a time, the
 *     others serving meanwhile.
 * Addresses map as controllers map them for streaming: consecutive lines of
 * a channel go to different bank groups, then to the columns of one row,
 * then to the next bank; a single stream hits its rows, many streams
 * interleaved at one channel conflict in its banks.
 *
 * dram.latency is the load-to-use latency of an access that finds its bank
 * closed, what a pointer chase over a large footprint measures (its hops
 * land in banks that refresh or a timeout closed): the fixed part of an
 * access is dram.latency less the interconnect round trip and t_rcd, so a
 * row hit is t_rcd faster and a row conflict t_rp (or more, while t_ras
 * holds the old row) slower.
 *
 * Leaves out: command-bus limits (tRRD, tFAW), reordering
 * of reads past each other (FR-FCFS): requests are served in arrival
 * order, which for the streams GPUs see loses little.
 */
#ifndef WS_DRAM_H
#define WS_DRAM_H

#include <stdint.h>

#include "config/ws_config.h"
#include "stats/ws_stats.h"
#include "ws_mem_req.h"

struct ws_dram_chan {
    double bus_free;      /* data bus free from (core cycles) */
    double *bank_free;    /* [banks]: next column access from */
    double *bank_open_at; /* [banks]: when the open row was activated */
    uint64_t *open_row;   /* [banks]: row + 1; 0 = closed */
    double *group_free;   /* [bank_groups]: next burst in the group from */
    uint64_t *refreshes;  /* [banks]: refresh windows begun (all-bank:
                             * [0] only) */
    uint32_t writes;      /* writes since the last drain */
    int read_since_drain;
};

struct ws_dram {
    const struct ws_gpu *gpu;
    struct ws_dram_chan *chan;
    uint32_t nchan, banks, groups, lines_per_row;
    uint32_t line_bytes, sector_bytes;
    double cps;       /* core cycles per sector on one channel's bus */
    double group_cps; /* per sector within one bank group (t_ccd_l) */
    uint64_t access;  /* fixed part of an access, core cycles */
    /* the config's timings in core cycles */
    double t_rcd, t_rp, t_ras, t_turn, t_rfc, t_refi;
};

/* icnt_latency: the one-way interconnect share of dram.latency. */
int ws_dram_init(struct ws_dram *d, const struct ws_gpu *g, uint32_t line_bytes,
                 uint32_t sector_bytes, uint64_t icnt_latency);
void ws_dram_free(struct ws_dram *d);

/* Reads (WS_LINE_READ) or writes (WS_LINE_WRITE) the sectors r->mask of
 * r->line on channel c, arriving at r->t; returns when the data is ready
 * at the slice (reads) or written. */
uint64_t ws_dram_access(struct ws_dram *d, uint32_t c,
                        const struct ws_line_req *r);

/* The time by which every channel has finished what it was given. */
double ws_dram_drained(const struct ws_dram *d);

#endif
