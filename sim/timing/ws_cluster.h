/*
 * ws_cluster: thread-block clusters (Hopper) in the timing model: where a
 * cluster's CTAs run, the cluster barrier, and the CTAs a cluster-scope
 * access reaches.
 *
 * Placement: a cluster's CTAs run on the SMs of one GPC (sm.gpcs splits
 * the SMs into that many equal ranges), as the hardware's cluster launch
 * guarantees, and a cluster starts only where all of it fits.  CTAs come
 * from the input one at a time, a cluster's consecutively; the first picks
 * the GPC (the asking slot's if the cluster fits there, else the roomiest),
 * and each of its peers goes to a free slot of that GPC.  A CTA that
 * cannot go anywhere yet is held until a slot frees (the input is not read
 * past it meanwhile).
 *
 * Barrier: UCGABAR_ARV counts a warp's arrival, UCGABAR_WAIT holds it
 * until every warp of every CTA of the cluster that has not exited has
 * arrived as often.  That needs the cluster's size (ws_launch.cluster); an
 * input that does not give it has its cluster waits replayed (not held),
 * and counted.
 *
 * Cluster-scope shared addresses name the CTA in bits 24..31 (the rank, as
 * MAPA's PRMT puts it) and the offset below: a remote mbarrier arrive
 * (SYNCS.ARRIVE...RED) or a DSMEM load or store reaches that CTA after
 * dsmem.latency, a DSMEM access also taking dsmem.bytes_per_clk of the
 * SM's port; a TMA multicast completes its bytes on every CTA of its mask.
 *
 * Leaves out: GPCs of unequal size (the H100's split is not published),
 * the SM-to-SM network's contention between SMs.
 */
#ifndef WS_CLUSTER_H
#define WS_CLUSTER_H

#include <stdint.h>

#include "ws_sim.h"

#define WS_CLUSTER_MAX_CTAS 16 /* PTX's non-portable maximum */
#define WS_NO_CLUSTER UINT32_MAX

struct ws_cluster {
    int used;
    uint32_t id[3];
    uint32_t size; /* CTAs; 0 when the input does not say */
    uint32_t gpc;
    uint32_t placed, retired;
    uint32_t present; /* ranks placed, bit = rank */
    uint32_t ended;   /* ranks retired, bit = rank */
    uint32_t sm[WS_CLUSTER_MAX_CTAS], slot[WS_CLUSTER_MAX_CTAS];
    uint32_t arrived; /* warp arrivals in the current barrier phase */
    uint32_t phase;   /* barrier phases completed */
};

/* Per-kernel set-up (the table is made at the first CTA in a cluster). */
void ws_cluster_kernel(struct ws_sim *s);
void ws_cluster_free(struct ws_sim *s);

/* The SM the next CTA goes to, cta having been read (or held) for a free
 * slot of `asker`: asker, another SM of the cluster's GPC, or NULL when it
 * cannot run yet (the CTA is then held: s->held, offered again at the next
 * free slot).  A cluster's first CTA starts it in the asker's GPC if the
 * whole cluster fits there, else in the GPC with the most room.  -1 on
 * error. */
int ws_cluster_place(struct ws_sim *s, const struct ws_cta_stream *cta,
                     struct ws_sm *asker, struct ws_sm **to);

/* Records that cta now runs in slot si of sm (after ws_cta_dispatch). */
void ws_cluster_dispatched(struct ws_sim *s, const struct ws_cta_stream *cta,
                           struct ws_sm *sm, uint32_t si);
void ws_cluster_retired(struct ws_sim *s, struct ws_sm *sm, uint32_t si);

/* UCGABAR_ARV / UCGABAR_WAIT of warp wi at t. */
int ws_cluster_arrive(struct ws_sim *s, struct ws_sm *sm, uint32_t wi,
                      uint64_t t);
int ws_cluster_wait(struct ws_sim *s, struct ws_sm *sm, uint32_t wi,
                    uint64_t t);
/* A warp of the CTA in slot si exited at t: the cluster barrier no longer
 * waits for it (as a CTA barrier does not). */
int ws_cluster_warp_exited(struct ws_sim *s, struct ws_sm *sm, uint32_t si,
                           uint64_t t);

/* The SM and slot of the CTA a cluster-scope address names, for a CTA in
 * slot si of sm: 0 with peer_sm and peer_slot set (the CTA itself when the
 * rank is its own or the CTA is in no cluster), -1 when the rank names no
 * CTA of the cluster. */
int ws_cluster_peer(const struct ws_sim *s, const struct ws_sm *sm, uint32_t si,
                    uint32_t rank, struct ws_sm **peer_sm, uint32_t *peer_slot);

#endif
