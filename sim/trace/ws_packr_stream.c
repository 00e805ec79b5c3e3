/*
 * ws_packr_stream: a packed kernel's warps handed out a window at a time
 * (ws_cta_source.next_header / warp_open), for kernels whose warps are
 * long: a CTA of warps of 10^5 instructions read whole is megabytes per
 * CTA, and a GPU holds hundreds of CTAs.  Streamed, memory follows the
 * simulator's windows; each warp's records are checked as they are read
 * (the same checks, and corrections for this configuration, as a whole
 * CTA gets), and the pages a warp has read are given back to the file.
 *
 * Kernels of short warps are read whole (ws_packr_kernel.c): their CTAs
 * are small, and a warp of a few records shares its pages with its
 * neighbours, so reading it alone would give nothing back.
 *
 * Each record is copied before it is checked, so a file rewritten while
 * it is read cannot slip an unchecked record in between; a warp's last
 * read also checks that its accesses took exactly its addresses, and that
 * the file is unchanged (ws_packr_unchanged, size and time included).
 *
 * Leaves out: checking a warp's records before the simulation reaches
 * them: a damaged record deep in a warp is found when it is read, with
 * the same message.  (The CTA and warp records, and every total, are
 * checked when the kernel is opened.)
 */
#include "ws_packr_internal.h"

#include <stdlib.h>
#include <string.h>

#include "util/ws_bits.h"

/* Instructions per warp, on average, from which a kernel is streamed:
 * 4096 records are 144 KiB, dozens of pages to give back per warp. */
#define WS_PACKR_STREAM_MIN 4096
/* A warp gives back what it read in steps of this many bytes: the
 * resident pages of a packed kernel are then at most this much per warp
 * resident, whatever the warps' length. */
#define WS_PACKR_GIVE_STEP (64u << 10)

struct ws_packr_warp {
    struct ws_pack_reader *r;
    const struct ws_inst *inst; /* the warp's records, in the mapping */
    uint64_t inst_off;          /* of inst[0], for messages */
    uint32_t ninst, next;
    const uint64_t *addrs; /* its CTA's address pool */
    uint32_t naddrs;
    uint64_t addr_next, addr_end; /* its address chain (ws_packr_chain) */
    uint32_t first_addr;          /* for messages */
    int ended;                    /* its end was checked */
    uint32_t cta_no, warp;        /* for messages */
    uint64_t given;               /* records given back: inst[0..given) */
    struct ws_packr_warp *next_spare;
};

int ws_pack_reader_streams(const struct ws_pack_reader *r)
{
    uint64_t warps = (uint64_t)r->k.nctas * r->k.nwarps;

    return warps && r->k.ninst / warps >= WS_PACKR_STREAM_MIN;
}

int ws_pack_reader_next_header(struct ws_pack_reader *r,
                               const struct ws_cta_stream **cta,
                               struct ws_err *err)
{
    return ws_packr_serve(r, cta, 0, err);
}

/* Gives back the whole pages of the records the warp has read, from the
 * last mark on (all of them at the end). */
static void ws_packr_warp_give(struct ws_packr_warp *w, int all)
{
    uint64_t upto = w->next;

    if (!all && (upto - w->given) * sizeof(struct ws_inst) < WS_PACKR_GIVE_STEP)
        return;
    ws_pack_release(w->r->p, w->inst_off + w->given * sizeof(struct ws_inst),
                    (upto - w->given) * sizeof(struct ws_inst));
    w->given = upto;
}

/* The record at w->next, into *in and checked: sound, and where its
 * warp's address chain says; -1 (err) otherwise. */
static int ws_packr_warp_take(struct ws_packr_warp *w, struct ws_inst *in,
                              struct ws_err *err)
{
    struct ws_pack_reader *r = w->r;
    uint64_t at = w->inst_off + (uint64_t)w->next * sizeof *in;
    uint64_t next = w->addr_next;

    memcpy(in, &w->inst[w->next], sizeof *in);
    if (!ws_packr_sound(r, in, w->naddrs))
        return ws_packr_bad(r->p->name, err, at, WS_PACKR_REPACK,
                            "kernel "
                            "%zu, CTA %u: warp %u's instruction %u unsound "
                            "(opcode, registers, width or addresses)",
                            r->index + 1, w->cta_no + 1, w->warp, w->next);
    if (!ws_packr_chain(in, &next, w->addr_end))
        return ws_packr_bad(r->p->name, err,
                            at + offsetof(struct ws_inst, addr),
                            WS_PACKR_REPACK,
                            "kernel %zu, CTA %u: warp %u's "
                            "instruction %u has addr %u where its warp's "
                            "addresses are %u to %llu, the next at %llu",
                            r->index + 1, w->cta_no + 1, w->warp, w->next,
                            in->addr, w->first_addr,
                            (unsigned long long)w->addr_end,
                            (unsigned long long)w->addr_next);
    return 0;
}

/* Once the warp's records are all read: its accesses took exactly its
 * addresses, and the file did not change under them. */
static int ws_packr_warp_end(struct ws_packr_warp *w, struct ws_err *err)
{
    struct ws_pack_reader *r = w->r;

    w->ended = 1;
    if (w->addr_next != w->addr_end)
        return ws_packr_bad(r->p->name, err,
                            w->inst_off
                                + (uint64_t)w->ninst * sizeof(struct ws_inst),
                            WS_PACKR_REPACK,
                            "kernel %zu, CTA %u: warp %u's accesses take "
                            "%llu of its %llu addresses",
                            r->index + 1, w->cta_no + 1, w->warp,
                            (unsigned long long)(w->addr_next - w->first_addr),
                            (unsigned long long)(w->addr_end - w->first_addr));
    return 0;
}

static long ws_packr_warp_fill(struct ws_packr_warp *w, struct ws_inst *inst,
                               size_t cap, uint64_t *addrs, size_t addr_cap,
                               struct ws_err *err)
{
    struct ws_pack_reader *r = w->r;
    size_t n = 0, na = 0;

    while (n < cap && w->next < w->ninst) {
        struct ws_inst *in = &inst[n];
        unsigned lanes;
        if (ws_packr_warp_take(w, in, err) < 0)
            return -1;
        lanes = in->width ? ws_popcount32(in->mask) : 0;
        if (na + lanes > addr_cap)
            break;
        if (ws_packr_stale(r, in, w->addrs))
            ws_opinfo_apply(&r->opinfo[in->op], &r->launch, w->addrs, in);
        if (lanes)
            memcpy(addrs + na, w->addrs + in->addr, lanes * sizeof *addrs);
        w->addr_next += lanes;
        in->addr = (uint32_t)na;
        na += lanes;
        n++;
        w->next++;
    }
    if (w->next == w->ninst && !w->ended && ws_packr_warp_end(w, err) < 0)
        return -1;
    ws_packr_warp_give(w, 0);
    return (long)n;
}

static long ws_packr_warp_read(void *ctx, struct ws_inst *inst, size_t cap,
                               uint64_t *addrs, size_t addr_cap,
                               struct ws_err *err)
{
    struct ws_packr_warp *w = ctx;
    long n = ws_packr_warp_fill(w, inst, cap, addrs, addr_cap, err);

    /* A window costs a load of the guard's flag; the warp's end (a read
     * that returns nothing) and an error compare the file's size and time
     * too. */
    if (ws_packr_unchanged(w->r->p, n <= 0, err) < 0)
        return -1;
    return n;
}

static void ws_packr_warp_close(void *ctx)
{
    struct ws_packr_warp *w = ctx;

    ws_packr_warp_give(w, 1);
    w->next_spare = w->r->spare;
    w->r->spare = w;
}

int ws_pack_reader_warp_open(struct ws_pack_reader *r,
                             const struct ws_cta_stream *cta, uint32_t warp,
                             struct ws_warp_reader *out, struct ws_err *err)
{
    struct ws_packr_warp *w = r->spare;

    (void)cta;
    if (warp >= r->k.nwarps || !r->warps[warp].inst)
        return ws_err_msg(err,
                          "internal: warp %u of a packed CTA has no "
                          "instructions",
                          warp);
    if (w)
        r->spare = w->next_spare;
    else if (!(w = malloc(sizeof *w)))
        return ws_err_oom(err);
    memset(w, 0, sizeof *w);
    w->r = r;
    w->inst = r->warps[warp].inst;
    w->inst_off = (uint64_t)((const uint8_t *)w->inst - r->p->base);
    w->ninst = r->warps[warp].ninst;
    w->addrs = (const void *)(r->p->base + r->cur_addr_off);
    w->naddrs = r->cur_naddrs;
    /* The warp records of the CTA just served (warps are opened as their
     * CTA is dispatched, before the next CTA is served). */
    w->first_addr = r->wrec[warp].first_addr;
    w->addr_next = w->first_addr;
    w->addr_end = (uint64_t)w->first_addr + r->wrec[warp].naddrs;
    w->cta_no = r->cur_no;
    w->warp = warp;
    out->ctx = w;
    out->read = ws_packr_warp_read;
    out->close = ws_packr_warp_close;
    return 0;
}

void ws_packr_stream_free(struct ws_pack_reader *r)
{
    while (r->spare) {
        struct ws_packr_warp *w = r->spare;
        r->spare = w->next_spare;
        free(w);
    }
}
