/*
 * ws_dram: DRAM channel timing (see ws_dram.h).
 */
#include "ws_dram.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/ws_bits.h"

static uint64_t ws_dram_ceil(double x)
{
    return (uint64_t)ceil(x - 1e-9);
}

int ws_dram_init(struct ws_dram *d, const struct ws_gpu *g, uint32_t line_bytes,
                 uint32_t sector_bytes, uint64_t icnt_latency)
{
    double ghz = g->core_mhz / 1000.0;
    double fixed;

    memset(d, 0, sizeof *d);
    d->gpu = g;
    d->nchan = g->dram.channels;
    d->banks = g->dram.banks;
    d->groups = g->dram.bank_groups ? g->dram.bank_groups : 1;
    d->line_bytes = line_bytes;
    d->sector_bytes = sector_bytes;
    d->lines_per_row = g->dram.row_size > line_bytes
                           ? (uint32_t)(g->dram.row_size / line_bytes)
                           : 1;
    /* GB/s divided by GHz is bytes per core cycle. */
    d->cps = sector_bytes / (g->dram.bandwidth / ghz / g->dram.channels);
    d->t_rcd = g->dram.t_rcd * ghz;
    d->t_rp = g->dram.t_rp * ghz;
    d->t_ras = g->dram.t_ras * ghz;
    d->group_cps = g->dram.t_ccd_l * ghz * sector_bytes
                   / (double)(g->dram.burst ? g->dram.burst : sector_bytes);
    if (d->group_cps < d->cps)
        d->group_cps = d->cps;
    d->t_turn = (g->dram.t_wtr + g->dram.t_rtw) * ghz;
    d->t_rfc = g->dram.t_rfc * ghz;
    d->t_refi = g->dram.t_refi * ghz;
    fixed = (double)g->dram.latency - 2.0 * (double)icnt_latency;
    if (g->dram.banked)
        fixed -= d->t_rcd;
    d->access = fixed > 0 ? (uint64_t)llround(fixed) : 0;
    d->chan = calloc(d->nchan, sizeof *d->chan);
    if (!d->chan)
        return -1;
    for (uint32_t c = 0; g->dram.banked && c < d->nchan; c++) {
        struct ws_dram_chan *ch = &d->chan[c];
        ch->bank_free = calloc(d->banks, sizeof *ch->bank_free);
        ch->bank_open_at = calloc(d->banks, sizeof *ch->bank_open_at);
        ch->open_row = calloc(d->banks, sizeof *ch->open_row);
        ch->group_free = calloc(d->groups, sizeof *ch->group_free);
        ch->refreshes = calloc(d->banks, sizeof *ch->refreshes);
        if (!ch->bank_free || !ch->bank_open_at || !ch->open_row
            || !ch->group_free || !ch->refreshes) {
            ws_dram_free(d);
            return -1;
        }
    }
    return 0;
}

void ws_dram_free(struct ws_dram *d)
{
    for (uint32_t c = 0; d->chan && c < d->nchan; c++) {
        free(d->chan[c].bank_free);
        free(d->chan[c].bank_open_at);
        free(d->chan[c].open_row);
        free(d->chan[c].group_free);
        free(d->chan[c].refreshes);
    }
    free(d->chan);
    memset(d, 0, sizeof *d);
}

double ws_dram_drained(const struct ws_dram *d)
{
    double last = 0.0;

    for (uint32_t c = 0; c < d->nchan; c++)
        if (d->chan[c].bus_free > last)
            last = d->chan[c].bus_free;
    return last;
}

/* ---- refresh ------------------------------------------------------------ */

/* Refresh unit u (a channel, or with per-bank refresh one bank of it) is
 * refreshing during [off + k t_refi, off + k t_refi + t_rfc); the offsets
 * spread the units' refreshes evenly over t_refi. */
static double ws_refresh_offset(const struct ws_dram *d, uint32_t c,
                                uint32_t bank)
{
    double units = d->gpu->dram.refresh_per_bank ? (double)d->nchan * d->banks
                                                 : (double)d->nchan;
    double u = d->gpu->dram.refresh_per_bank ? (double)c * d->banks + bank
                                             : (double)c;

    return d->t_refi * u / units;
}

/* Refresh windows begun by time t. */
static uint64_t ws_refresh_count(const struct ws_dram *d, double off, double t)
{
    return t < off ? 0 : (uint64_t)floor((t - off) / d->t_refi) + 1;
}

/* The first time >= t at which something lasting dur runs clear of the
 * refresh windows: t, the end of the window t falls in, or the end of the
 * next one when it would begin before dur is over. */
static double ws_refresh_clear(const struct ws_dram *d, double off, double t,
                               double dur)
{
    uint64_t k = ws_refresh_count(d, off, t);
    double end = off + (double)k * d->t_refi - d->t_refi + d->t_rfc;

    if (k > 0 && t < end)
        t = end;
    k = ws_refresh_count(d, off, t);
    if (t + dur > off + (double)k * d->t_refi && dur < d->t_refi - d->t_rfc)
        t = off + (double)k * d->t_refi + d->t_rfc;
    return t;
}

/* A bank free for the access from `ready`, after any refresh that was due;
 * a refresh precharges, closing the rows it covers (all of the channel's,
 * or the one bank's). */
static double ws_refresh_bank(struct ws_dram *d, uint32_t c, uint32_t bank,
                              double ready, double dur)
{
    struct ws_dram_chan *ch = &d->chan[c];
    int per_bank = d->gpu->dram.refresh_per_bank;
    double off = ws_refresh_offset(d, c, bank);
    uint32_t u = per_bank ? bank : 0;
    uint64_t k;

    ready = ws_refresh_clear(d, off, ready, dur);
    k = ws_refresh_count(d, off, ready);
    if (k > ch->refreshes[u]) {
        ch->refreshes[u] = k;
        if (per_bank)
            ch->open_row[bank] = 0;
        else
            memset(ch->open_row, 0, d->banks * sizeof *ch->open_row);
    }
    return ready;
}

/* ---- the banked model ---------------------------------------------------- */

struct ws_dram_place {
    uint32_t group, bank;
    uint64_t row;
};

/* The row's bits folded to a few: streams at the same offset in arrays a
 * power of two apart differ only in high row bits, and without this would
 * land in the same bank and take turns closing each other's rows. */
static uint32_t ws_dram_fold(uint64_t row)
{
    uint32_t h = 0;

    for (; row; row >>= 8)
        h ^= (uint32_t)(row & 0xff);
    return h;
}

/* The channel's own line index, split as a controller maps it for streams:
 * bank group lowest, then the row's columns, then the bank in the group,
 * then the row; group and bank are permuted by the row (permutation-based
 * interleaving, Zhang, Zhu & Zhang, MICRO 2000), so that rows conflicting
 * in one bank under the plain split spread over all of them. */
static struct ws_dram_place ws_dram_map(const struct ws_dram *d, uint64_t line)
{
    uint64_t local = line / d->nchan;
    uint32_t per_group = d->banks / d->groups;
    uint64_t rest = local / d->groups / d->lines_per_row;
    struct ws_dram_place p;
    uint32_t h;

    p.row = rest / per_group;
    h = ws_dram_fold(p.row);
    p.group = (uint32_t)((local + h) % d->groups);
    p.bank = p.group * per_group
             + (uint32_t)((rest + h / d->groups) % per_group);
    return p;
}

/* When bank p.bank can transfer, arriving at ready: a row hit at once, a
 * closed bank after activate, another row open after precharge (no
 * earlier than t_ras after that row's activate) and activate. */
static double ws_dram_open(struct ws_dram *d, struct ws_dram_chan *ch,
                           struct ws_dram_place p, double ready,
                           struct ws_counters *ctr)
{
    if (ch->open_row[p.bank] == p.row + 1) {
        ctr->v[WS_CTR_DRAM_ROW_HITS]++;
        return ready;
    }
    ctr->v[WS_CTR_DRAM_ROW_MISSES]++;
    if (ch->open_row[p.bank]) {
        double ras_end = ch->bank_open_at[p.bank] + d->t_ras;
        ready = (ready > ras_end ? ready : ras_end) + d->t_rp;
    }
    ch->open_row[p.bank] = p.row + 1;
    ch->bank_open_at[p.bank] = ready;
    return ready + d->t_rcd;
}

/* Writes wait in the controller and go out in batches: the bus turns
 * around twice per batch, when reads were served in between. */
static double ws_dram_turnaround(const struct ws_dram *d,
                                 struct ws_dram_chan *ch, int write)
{
    if (!write) {
        ch->read_since_drain = 1;
        return 0.0;
    }
    if (++ch->writes < d->gpu->dram.write_batch)
        return 0.0;
    ch->writes = 0;
    if (!ch->read_since_drain)
        return 0.0;
    ch->read_since_drain = 0;
    return d->t_turn;
}

static double ws_max(double a, double b)
{
    return a > b ? a : b;
}

/* The bus is reserved in arrival order, bursts t_ccd_l apart within a bank
 * group; the bank's row work (precharge, activate) delays this access's
 * data but not the bus, which the controller fills from other banks
 * meanwhile (what FR-FCFS reordering achieves): row misses cost latency,
 * and bandwidth only when one bank is asked for more than it can give.
 * Refresh and turnarounds cost the bus itself.  Returns when the data
 * moves. */
static double ws_dram_banked(struct ws_dram *d, uint32_t c,
                             const struct ws_line_req *r)
{
    struct ws_dram_chan *ch = &d->chan[c];
    struct ws_dram_place p = ws_dram_map(d, r->line);
    unsigned nsect = ws_popcount32(r->mask);
    int write = r->op == WS_LINE_WRITE;
    struct ws_counters *ctr = r->ctr;
    double t = (double)r->t;
    double burst = nsect * d->cps;
    double ready = ws_max(t, ch->bank_free[p.bank]), slot, start;

    if (d->t_refi > 0)
        ready = ws_refresh_bank(d, c, p.bank, ready, burst);
    ready = ws_dram_open(d, ch, p, ready, ctr);
    slot = ws_max(ws_max(t, ch->bus_free), ch->group_free[p.group]);
    /* An all-bank refresh stops the channel; a per-bank one only its bank,
     * which ws_refresh_bank has waited for. */
    if (d->t_refi > 0 && !d->gpu->dram.refresh_per_bank)
        slot = ws_refresh_clear(d, ws_refresh_offset(d, c, 0), slot, burst);
    ch->bus_free = slot + burst + ws_dram_turnaround(d, ch, write);
    ch->group_free[p.group] = slot + nsect * d->group_cps;
    start = ws_max(slot, ready);
    ch->bank_free[p.bank] = start + burst;
    return start;
}

uint64_t ws_dram_access(struct ws_dram *d, uint32_t c,
                        const struct ws_line_req *r)
{
    struct ws_dram_chan *ch = &d->chan[c];
    unsigned nsect = ws_popcount32(r->mask);
    double start;

    if (d->gpu->dram.banked) {
        start = ws_dram_banked(d, c, r);
    } else {
        start = ws_max((double)r->t, ch->bus_free);
        ch->bus_free = start + nsect * d->cps;
    }
    r->ctr->v[r->op == WS_LINE_WRITE ? WS_CTR_DRAM_BYTES_WRITE
                                     : WS_CTR_DRAM_BYTES_READ] +=
        (uint64_t)nsect * d->sector_bytes;
    return ws_dram_ceil(start) + d->access;
}
