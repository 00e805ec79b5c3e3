/*
 * ws_gpgpusim_mem: the translation rules of the memory system: L1 and
 * shared memory and their split, L2, DRAM and the interconnect (see
 * ws_gpgpusim_map.c for the kinds of value and how absent options count).
 *
 * GPGPU-Sim describes a cache per SM or per memory sub-partition in one
 * packed string; warpsim's keys are totals (l2.size is every slice) and
 * load-to-use latencies, so several options meet in one key, and the
 * comment beside it shows the arithmetic.
 *
 * Leaves out: the address mapping's channel and bank bits (warpsim hashes
 * addresses its own way) and the DRAM controller's queues and scheduler.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/ws_cfg_schema.h"
#include "ws_gpgpusim_int.h"
#include "config/ws_units.h"
#include "util/ws_u64set.h"

/* ---- L1, shared memory and their split ---------------------------------- */

/* The comma-separated group of o's value starting at off, quoted. */
static const char *ws_gs_group(char *buf, size_t cap,
                               const struct ws_gpgpusim_opt *o, size_t off)
{
    char part[96];
    size_t n = strcspn(o->value + off, ",");

    snprintf(part, sizeof part, "%.*s", (int)(n < 90 ? n : 90), o->value + off);
    ws_gs_quote(buf, cap, part, 60);
    return buf;
}

/* The replacement policy is a warpsim key (GPGPU-Sim's L and F are
 * warpsim's lru and fifo); the rest of the policy group is noted. */
static int ws_gs_cache_policies(struct ws_gs_map *m, const char *level,
                                const struct ws_gpgpusim_opt *o,
                                const struct ws_gpgpusim_cache *c)
{
    char sif[3] = {':', c->set_index, '\0'}, key[24];

    ws_gs_note(m,
               "%s policies %c:%c:%c:%c%s, MSHR type %c merging %llu, "
               "result FIFO %llu, port %llu B: write and allocation "
               "policies, set indexing, MSHR merging and the data port are "
               "not warpsim keys (L1 is write-through, L2 write-back)",
               o->name, c->repl, c->write, c->alloc, c->write_alloc,
               c->set_index ? sif : "", c->mshr_type,
               (unsigned long long)c->mshr_merge,
               (unsigned long long)c->result_fifo, (unsigned long long)c->port);
    snprintf(key, sizeof key, "%s.replacement", level);
    return ws_gs_set(m, key, o, 0, c->repl == 'F' ? "fifo" : "lru",
                     "%s: replacement policy %c", o->name, c->repl);
}

/* A cache's line and its sectors (S: GPGPU-Sim's 32 bytes, N: the whole
 * line), for level "l1" or "l2"; geo is the option's geometry group as
 * comments cite it. */
static int ws_gs_line_sector(struct ws_gs_map *m, const char *level,
                             const struct ws_gpgpusim_opt *o,
                             const struct ws_gpgpusim_cache *c, const char *geo)
{
    char key[24], why[600];

    snprintf(why, sizeof why, "%s %s: %llu-byte lines", o->name, geo,
             (unsigned long long)c->line);
    snprintf(key, sizeof key, "%s.line", level);
    if (ws_gs_set_size(m, key, o, c->off_geometry, c->line, why) < 0)
        return -1;
    snprintf(key, sizeof key, "%s.sector", level);
    return ws_gs_set_size(m, key, o, 0, c->type == 'S' ? 32 : c->line,
                          c->type == 'S' ? "sectored (S): "
                                           "GPGPU-Sim's 32-byte sectors"
                                         : "normal (N): "
                                           "whole lines");
}

/* The options of L1, shared memory and their split, as read. */
struct ws_gs_l1 {
    struct ws_gs_val d, u, a, shm, pb, skip;
    struct ws_gpgpusim_cache c; /* of d; zero when absent */
    uint64_t unified, adaptive, shmem, per_block;
    int skip_l1;
};

static int ws_gs_map_l1_cache(struct ws_gs_map *m, const struct ws_gs_l1 *l)
{
    char why[600], geo[80], grp[80];
    const struct ws_gpgpusim_opt *o = l->d.o;
    const struct ws_gpgpusim_cache *c = &l->c;
    const char *skip = l->skip.o ? l->skip.cite : "";

    if (c->disabled)
        snprintf(why, sizeof why, "%s: no L1%s%s", l->d.cite, *skip ? "; " : "",
                 skip);
    else if (l->skip_l1)
        snprintf(why, sizeof why, "%s given; %s: global loads skip L1", o->name,
                 skip);
    else
        snprintf(why, sizeof why, "%s given (not none)%s%s%s", o->name,
                 *skip ? "; " : "", skip, *skip ? ": global loads use it" : "");
    if (ws_gs_set_flag(m, "l1.enabled",
                       l->skip_l1 && !c->disabled ? l->skip.o : o,
                       !c->disabled && !l->skip_l1, why)
        < 0)
        return -1;
    if (c->disabled)
        return 0;
    if (ws_gs_cache_policies(m, "l1", o, c) < 0)
        return -1;
    ws_gs_group(geo, sizeof geo, o, 0);
    if (ws_gs_line_sector(m, "l1", o, c, geo) < 0)
        return -1;
    snprintf(why, sizeof why,
             "%s %s: %llu ways (GPGPU-Sim widens the ways "
             "with the L1 share, warpsim adds sets)",
             o->name, geo, (unsigned long long)c->assoc);
    if (ws_gs_set_u(m, "l1.assoc", o, c->off_geometry, c->assoc, why) < 0)
        return -1;
    snprintf(why, sizeof why, "%s %s: MSHR entries", o->name,
             ws_gs_group(grp, sizeof grp, o, c->off_mshr));
    if (ws_gs_set_u(m, "l1.mshrs", o, c->off_mshr, c->mshr_entries, why) < 0)
        return -1;
    snprintf(why, sizeof why, "%s ...,%s: miss queue", o->name,
             ws_gs_group(grp, sizeof grp, o, c->off_queue));
    return c->has_miss_queue ? ws_gs_set_u(m, "l1.miss_queue", o, c->off_queue,
                                           c->miss_queue, why)
                             : 0;
}

/* -gpgpu_gmem_skip_L1D without -gpgpu_cache:dl1: 1 turns the base's L1
 * off (GPGPU-Sim sends global loads past it); 0 leaves it as it is. */
static int ws_gs_map_l1_skip(struct ws_gs_map *m, struct ws_gs_l1 *l)
{
    char why[600];

    if (!l->skip.o)
        return 0;
    if (!l->skip_l1) {
        ws_gs_aside(&l->skip,
                    "global loads through L1, and no "
                    "-gpgpu_cache:dl1 describes it: l1.enabled kept from the "
                    "base");
        return 0;
    }
    snprintf(why, sizeof why, "%s: global loads skip L1", l->skip.cite);
    return ws_gs_set_flag(m, "l1.enabled", l->skip.o, 0, why);
}

static void ws_gs_sizes_text(char *buf, size_t cap, const uint64_t *kb,
                             size_t n)
{
    buf[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        char one[32];
        ws_units_fmt_size(one, sizeof one, kb[i] * 1024);
        snprintf(buf + strlen(buf), cap - strlen(buf), "%s%s", i ? ", " : "",
                 one);
    }
}

/* GPGPU-Sim's adaptive split: the kernel gets the smallest shared-memory
 * option that holds it and L1 the rest of the unified SRAM, up to four
 * times the dl1 string's size. */
static int ws_gs_map_adaptive(struct ws_gs_map *m, const struct ws_gs_l1 *l)
{
    struct ws_gpgpusim_opt stand, *o;
    struct ws_gs_val opt;
    uint64_t kb[WS_MAX_CARVEOUTS], l1, unified = l->unified;
    const struct ws_gpgpusim_cache *c = &l->c;
    size_t n, k = 0;
    char text[256], why[600];

    o = ws_gs_packed(m, "-gpgpu_shmem_option", "0", &opt, &stand);
    if (ws_gpgpusim_uints(o, ',', 1, WS_MAX_CARVEOUTS, 0, 1u << 20, kb, &n,
                          m->err)
        < 0)
        return -1;
    ws_u64_sort(kb, n);
    for (size_t i = 0; i < n; i++) /* as GPGPU-Sim: sorted, once */
        if (k == 0 || kb[i] != kb[k - 1])
            kb[k++] = kb[i];
    ws_gs_sizes_text(text, sizeof text, kb, k);
    snprintf(why, sizeof why, "%s, in KB (sorted)", opt.cite);
    if (ws_gs_set(m, "sm.carveouts", opt.o ? opt.o : l->a.o, 0, text, "%s", why)
        < 0)
        return -1;
    snprintf(why, sizeof why, "%s KB; %s: an adaptive split", l->u.cite,
             l->a.cite);
    if (ws_gs_set_size(m, "sm.l1_shared", l->u.o, 0, unified * 1024, why) < 0)
        return -1;
    snprintf(why, sizeof why, "%s%s", l->shm.cite,
             l->shm.o ? "" : " (the largest option)");
    if (ws_gs_set_size(m, "sm.shared_mem", l->shm.o ? l->shm.o : o, 0,
                       l->shm.o ? l->shmem : kb[k - 1] * 1024, why)
        < 0)
        return -1;
    l1 = unified * 1024 > kb[0] * 1024 ? unified * 1024 - kb[0] * 1024 : 0;
    snprintf(why, sizeof why,
             "[RULE] %s KB less the smallest "
             "-gpgpu_shmem_option, %llu KB",
             l->u.cite, (unsigned long long)kb[0]);
    if (l->d.o && !c->disabled && 4 * c->sets * c->line * c->assoc < l1) {
        l1 = 4 * c->sets * c->line * c->assoc;
        snprintf(why, sizeof why,
                 "[RULE] four times the %s size, GPGPU-Sim's "
                 "limit on growing L1",
                 l->d.o->name);
    }
    return ws_gs_set_size(m, "l1.size", l->u.o, 0, l1, why);
}

static int ws_gs_map_fixed(struct ws_gs_map *m, const struct ws_gs_l1 *l)
{
    char why[600];
    const struct ws_gpgpusim_cache *c = &l->c;

    ws_gs_aside_name(m, "-gpgpu_shmem_option",
                     "carveouts apply with "
                     "-gpgpu_adaptive_cache_config 1 and "
                     "-gpgpu_unified_l1d_size only");
    m->out.sm.ncarveouts = 0;
    if (ws_gs_set(m, "sm.carveouts",
                  ws_gs_first(&l->a, &l->u, &l->shm)
                      ? ws_gs_first(&l->a, &l->u, &l->shm)
                      : l->d.o,
                  0, "0", "fixed split")
        < 0)
        return -1;
    m->out.sm.ncarveouts = 0;
    snprintf(why, sizeof why, "%s%s%s%s%s", l->u.cite, l->u.o ? " KB" : "",
             l->a.o ? "; " : "", l->a.o ? l->a.cite : "",
             !l->a.o       ? ""
             : l->adaptive ? " without a unified size: a fixed split"
                           : ": a fixed split");
    if (ws_gs_set_size(m, "sm.l1_shared", l->u.o ? l->u.o : l->a.o, 0,
                       l->unified * 1024, why)
        < 0)
        return -1;
    if (ws_gs_set_size(m, "sm.shared_mem", l->shm.o, 0, l->shmem, l->shm.cite)
        < 0)
        return -1;
    if (!l->d.o || c->disabled)
        return 0;
    snprintf(why, sizeof why, "%s: %llu sets x %llu B x %llu ways", l->d.cite,
             (unsigned long long)c->sets, (unsigned long long)c->line,
             (unsigned long long)c->assoc);
    return ws_gs_set_size(m, "l1.size", l->d.o, c->off_geometry,
                          c->sets * c->line * c->assoc, why);
}

/* A block's share of shared memory; absent, GPGPU-Sim's 48 KB default,
 * no more than the SM has (warpsim refuses a larger one, GPGPU-Sim would
 * only fail to launch such a block), blamed on what set the SM's. */
static int ws_gs_map_per_block(struct ws_gs_map *m, const struct ws_gs_l1 *l)
{
    char why[600];
    uint64_t sm = m->out.sm.shared_mem;
    long k = ws_cfg_key_find("sm.shared_mem");

    if (l->pb.o)
        return ws_gs_set_size(m, "sm.shared_per_block", l->pb.o, 0,
                              l->per_block, l->pb.cite);
    snprintf(why, sizeof why, "%s%s", l->pb.cite,
             l->per_block > sm ? ", at most sm.shared_mem" : "");
    return ws_gs_set_size(m, "sm.shared_per_block",
                          k >= 0 ? m->key[k].opt : NULL, 0,
                          l->per_block > sm ? sm : l->per_block, why);
}

int ws_gs_map_l1(struct ws_gs_map *m)
{
    struct ws_gs_l1 l;
    int rc;

    memset(&l, 0, sizeof l);
    if (ws_gs_map_plain(m, "l1.latency", "-gpgpu_l1_latency", 1, 100000) < 0
        || ws_gs_map_plain(m, "shared.banks", "-gpgpu_shmem_num_banks", 1, 1024)
               < 0
        || ws_gs_map_plain(m, "shared.latency", "-gpgpu_smem_latency", 1,
                           100000)
               < 0
        || ws_gs_uint(m, "-gpgpu_shmem_per_block", 1024, 1u << 30, 49152, &l.pb,
                      &l.per_block)
               < 0
        || ws_gs_uint(m, "-gpgpu_unified_l1d_size", 0, 1u << 20, 0, &l.u,
                      &l.unified)
               < 0
        || ws_gs_uint(m, "-gpgpu_adaptive_cache_config", 0, 1, 0, &l.a,
                      &l.adaptive)
               < 0
        || ws_gs_uint(m, "-gpgpu_shmem_size", 0, 1u << 30, 16384, &l.shm,
                      &l.shmem)
               < 0
        || ws_gs_flag(m, "-gpgpu_gmem_skip_L1D", 0, &l.skip, &l.skip_l1) < 0)
        return -1;
    if (ws_gs_fetch(m, "-gpgpu_cache:dl1", "", &l.d)
        && ws_gpgpusim_cache(l.d.o, &l.c, m->err) < 0)
        return -1;
    rc = l.d.o ? ws_gs_map_l1_cache(m, &l) : ws_gs_map_l1_skip(m, &l);
    if (rc < 0)
        return -1;
    if (!l.d.o && !l.u.o && !l.a.o && !l.shm.o) {
        ws_gs_aside_name(m, "-gpgpu_shmem_option",
                         "carveouts apply with "
                         "-gpgpu_adaptive_cache_config 1 and "
                         "-gpgpu_unified_l1d_size only");
        return l.pb.o ? ws_gs_set_size(m, "sm.shared_per_block", l.pb.o, 0,
                                       l.per_block, l.pb.cite)
                      : 0;
    }
    rc = l.adaptive && l.unified ? ws_gs_map_adaptive(m, &l)
                                 : ws_gs_map_fixed(m, &l);
    if (rc < 0)
        return -1;
    return ws_gs_map_per_block(m, &l);
}

/* ---- L2 ------------------------------------------------------------------ */

/* Memory channels and their sub-partitions: L2 slices and DRAM channels. */
static int ws_gs_partitions(struct ws_gs_map *m)
{
    return ws_gs_uint(m, "-gpgpu_n_mem", 1, 4096, 8, &m->n_mem_src, &m->n_mem)
                       < 0
                   || ws_gs_uint(m, "-gpgpu_n_sub_partition_per_mchannel", 1,
                                 64, 1, &m->n_sub_src, &m->n_sub)
                          < 0
               ? -1
               : 0;
}

static int ws_gs_map_l2_geometry(struct ws_gs_map *m, const struct ws_gs_val *d,
                                 const struct ws_gpgpusim_cache *c)
{
    uint64_t slices = m->n_mem * m->n_sub;
    double size = (double)c->sets * (double)c->line * (double)c->assoc
                  * (double)slices;
    char why[600], geo[80];

    if (c->disabled)
        return ws_gpgpusim_err(m->err, d->o, 0,
                               "no L2 (expected an L2 "
                               "cache: warpsim always has one)");
    if (size > 1073741824.0)
        return ws_gpgpusim_err(m->err, d->o, c->off_geometry,
                               "%llu sets x "
                               "%llu B x %llu ways x %llu slices is %.4g "
                               "bytes of L2 (expected at most 1 GiB)",
                               (unsigned long long)c->sets,
                               (unsigned long long)c->line,
                               (unsigned long long)c->assoc,
                               (unsigned long long)slices, size);
    if (ws_gs_cache_policies(m, "l2", d->o, c) < 0)
        return -1;
    ws_gs_group(geo, sizeof geo, d->o, 0);
    snprintf(why, sizeof why, "%s %s x %s x %s sub-partitions", d->o->name, geo,
             m->n_mem_src.cite, m->n_sub_src.cite);
    if (ws_gs_set_size(m, "l2.size", d->o, c->off_geometry, (uint64_t)size, why)
        < 0)
        return -1;
    snprintf(why, sizeof why, "%s x %s", m->n_mem_src.cite, m->n_sub_src.cite);
    if (ws_gs_set_u(m, "l2.slices",
                    ws_gs_first(&m->n_mem_src, &m->n_sub_src, d), 0, slices,
                    why)
        < 0)
        return -1;
    if (ws_gs_line_sector(m, "l2", d->o, c, geo) < 0)
        return -1;
    snprintf(why, sizeof why, "%s %s: ways per sub-partition", d->o->name, geo);
    if (ws_gs_set_u(m, "l2.assoc", d->o, c->off_geometry, c->assoc, why) < 0)
        return -1;
    snprintf(why, sizeof why, "%s %s: MSHR entries per sub-partition",
             d->o->name, ws_gs_group(geo, sizeof geo, d->o, c->off_mshr));
    return ws_gs_set_u(m, "l2.mshrs", d->o, c->off_mshr, c->mshr_entries, why);
}

/* Each sub-partition's data port moves port bytes per L2 clock. */
static int ws_gs_map_l2_bandwidth(struct ws_gs_map *m,
                                  const struct ws_gs_val *d,
                                  const struct ws_gpgpusim_cache *c)
{
    uint64_t slices = m->n_mem * m->n_sub;
    double gbps = (double)slices * (double)c->port * m->clk[2] / 1000.0;
    char why[600];

    snprintf(why, sizeof why,
             "[RULE] %llu slices x %llu B port (%s) x L2 "
             "clock %.6g MHz (%s)",
             (unsigned long long)slices, (unsigned long long)c->port,
             d->o->name, m->clk[2],
             m->clk_src.o ? "-gpgpu_clock_domains" : "the base's core clock");
    return ws_gs_set_real(m, "l2.bandwidth", d->o, c->off_port, gbps, "GB/s",
                          why);
}

/* An L2 hit pays the L1 pipeline, then the ROP queue of the sub-partition;
 * GPGPU-Sim times both in core cycles. */
static int ws_gs_map_l2_latency(struct ws_gs_map *m)
{
    struct ws_gs_val l1, rop;
    uint64_t a, b;
    char why[600];

    if (ws_gs_uint(m, "-gpgpu_l1_latency", 1, 100000, 1, &l1, &a) < 0
        || ws_gs_uint(m, "-gpgpu_l2_rop_latency", 0, 100000, 85, &rop, &b) < 0)
        return -1;
    if (!l1.o && !rop.o)
        return 0;
    snprintf(why, sizeof why, "[RULE] %s + %s: load-to-use of an L2 hit",
             l1.cite, rop.cite);
    return ws_gs_set_u(m, "l2.latency", ws_gs_first(&rop, &l1, NULL), 0, a + b,
                       why);
}

static int ws_gs_map_l2_queues(struct ws_gs_map *m)
{
    struct ws_gs_val q, idx;
    uint64_t f[4], i;
    size_t n;
    static const char *const hash[] = {"linear", "xor", "xor",
                                       "linear", "xor", "xor"};
    static const char *const what[] = {"consecutive",
                                       "bitwise permutation",
                                       "IPOLY, approximated by "
                                       "warpsim's XOR hash",
                                       "custom (none is implemented)",
                                       "random, "
                                       "approximated by warpsim's XOR hash",
                                       "IPOLY modulo, approximated by "
                                       "warpsim's XOR hash"};
    char why[600];

    if (ws_gs_fetch(m, "-gpgpu_dram_partition_queues", "8:8:8:8", &q)) {
        if (ws_gpgpusim_uints(q.o, ':', 4, 4, 1, 65536, f, &n, m->err) < 0)
            return -1;
        ws_gs_note(m, "-gpgpu_dram_partition_queues fields 2 to 4 (L2 to "
                      "DRAM, DRAM to L2, L2 to interconnect): warpsim's "
                      "returns are not queued");
        snprintf(why, sizeof why, "%s: interconnect to L2, field 1", q.cite);
        if (ws_gs_set_u(m, "l2.input_queue", q.o, 0, f[0], why) < 0)
            return -1;
    }
    if (ws_gs_uint(m, "-gpgpu_memory_partition_indexing", 0, 5, 0, &idx, &i)
        < 0)
        return -1;
    if (!idx.o)
        return 0;
    snprintf(why, sizeof why, "%s: %s", idx.cite, what[i]);
    return ws_gs_set(m, "l2.hash", idx.o, 0, hash[i], "%s", why);
}

/* No -gpgpu_cache:dl2 but a number of slices: each slice as large as the
 * base's, since GPGPU-Sim's L2 is a cache per sub-partition. */
static int ws_gs_map_l2_slices(struct ws_gs_map *m)
{
    const struct ws_gpgpusim_opt *o = ws_gs_first(&m->n_mem_src, &m->n_sub_src,
                                                  NULL);
    uint64_t slices = m->n_mem * m->n_sub;
    uint64_t set = m->out.l2.line * m->out.l2.assoc;
    uint64_t sets = m->out.l2.size / m->out.l2.slices / set;
    char why[600];

    if (!o)
        return 0;
    snprintf(why, sizeof why, "%s x %s", m->n_mem_src.cite, m->n_sub_src.cite);
    if (ws_gs_set_u(m, "l2.slices", o, 0, slices, why) < 0)
        return -1;
    snprintf(why, sizeof why,
             "[RULE] no -gpgpu_cache:dl2: the %s's %llu "
             "sets of %llu ways per slice x %llu slices",
             m->base_name, (unsigned long long)(sets ? sets : 1),
             (unsigned long long)m->out.l2.assoc, (unsigned long long)slices);
    return ws_gs_set_size(m, "l2.size", o, 0, (sets ? sets : 1) * set * slices,
                          why);
}

int ws_gs_map_l2(struct ws_gs_map *m)
{
    struct ws_gs_val d;
    struct ws_gpgpusim_cache c;

    if (ws_gs_partitions(m) < 0 || ws_gs_map_l2_latency(m) < 0
        || ws_gs_map_l2_queues(m) < 0)
        return -1;
    if (!ws_gs_fetch(m, "-gpgpu_cache:dl2", "", &d))
        return ws_gs_map_l2_slices(m);
    if (ws_gpgpusim_cache(d.o, &c, m->err) < 0
        || ws_gs_map_l2_geometry(m, &d, &c) < 0)
        return -1;
    return ws_gs_map_l2_bandwidth(m, &d, &c);
}

/* ---- DRAM ---------------------------------------------------------------- */

/* The bus of one channel: chips x width x transfers per command clock. */
struct ws_gs_bus {
    struct ws_gs_val bl, width, chips, ratio;
    uint64_t n_bl, n_width, n_chips, n_ratio;
};

static int ws_gs_bus(struct ws_gs_map *m, struct ws_gs_bus *b)
{
    return ws_gs_uint(m, "-gpgpu_dram_burst_length", 1, 64, 4, &b->bl, &b->n_bl)
                       < 0
                   || ws_gs_uint(m, "-gpgpu_dram_buswidth", 1, 1024, 4,
                                 &b->width, &b->n_width)
                          < 0
                   || ws_gs_uint(m, "-gpgpu_n_mem_per_ctrlr", 1, 64, 1,
                                 &b->chips, &b->n_chips)
                          < 0
                   || ws_gs_uint(m, "-dram_data_command_freq_ratio", 1, 16, 2,
                                 &b->ratio, &b->n_ratio)
                          < 0
               ? -1
               : 0;
}

/* A burst in command clocks: whole, as GPGPU-Sim's BL/data_command_freq_ratio
 * divides two unsigned ints. */
static uint64_t ws_gs_burst_clocks(const struct ws_gs_bus *b)
{
    return b->n_bl / b->n_ratio;
}

static int ws_gs_map_dram_bus(struct ws_gs_map *m, const struct ws_gs_bus *b)
{
    char why[600];
    double gbps;

    if (m->n_mem_src.o
        && ws_gs_set_u(m, "dram.channels", m->n_mem_src.o, 0, m->n_mem,
                       m->n_mem_src.cite)
               < 0)
        return -1;
    if (m->clk_src.o) {
        snprintf(why, sizeof why,
                 "-gpgpu_clock_domains ...:%.6g (DRAM "
                 "command clock)",
                 m->clk[3]);
        if (ws_gs_set_real(m, "dram.clock", m->clk_src.o, 0, m->clk[3], "MHz",
                           why)
            < 0)
            return -1;
    }
    if (b->bl.o || b->width.o || b->chips.o) {
        snprintf(why, sizeof why, "%s x %s B x %s: GPGPU-Sim's DRAM atom",
                 b->bl.cite, b->width.cite, b->chips.cite);
        if (ws_gs_set_size(m, "dram.burst",
                           ws_gs_first(&b->bl, &b->width, &b->chips), 0,
                           b->n_bl * b->n_width * b->n_chips, why)
            < 0)
            return -1;
    }
    if (!m->n_mem_src.o && !b->width.o && !b->chips.o && !b->ratio.o)
        return 0;
    gbps = (double)m->n_mem * (double)(b->n_width * b->n_chips * b->n_ratio)
           * m->clk[3] / 1000.0;
    snprintf(why, sizeof why,
             "[RULE] %llu channels x %llu B x %llu chips x "
             "%llu (%s) x %.6g MHz",
             (unsigned long long)m->n_mem, (unsigned long long)b->n_width,
             (unsigned long long)b->n_chips, (unsigned long long)b->n_ratio,
             b->ratio.cite, m->clk[3]);
    return ws_gs_set_real(m, "dram.bandwidth",
                          ws_gs_first(&m->n_mem_src, &b->width, &b->ratio), 0,
                          gbps, "GB/s", why);
}

/* DRAM clocks of the command bus to ns. */
static int ws_gs_set_ns(struct ws_gs_map *m, const char *key,
                        const struct ws_gpgpusim_opt *o, double clocks,
                        const char *what)
{
    char why[600];

    snprintf(why, sizeof why, "%s: %.6g DRAM clocks at %.6g MHz", what, clocks,
             m->clk[3]);
    return ws_gs_set_real(m, key, o, 0, clocks * 1000.0 / m->clk[3], "ns", why);
}

static int ws_gs_map_dram_timing(struct ws_gs_map *m,
                                 const struct ws_gpgpusim_opt *o,
                                 const struct ws_gpgpusim_dram *d,
                                 const struct ws_gs_bus *b)
{
    struct ws_gs_val elim;
    int no_turn;
    double burst = (double)ws_gs_burst_clocks(b);
    double wtr = (double)(d->wl + ws_gs_burst_clocks(b) + d->cdlr);
    double rtw = (double)d->cl + burst + 2.0 - (double)d->wl;
    int groups = d->nbkgrp > 1 && d->ccdl > 0;
    char wtr_why[200], rtw_why[200];

    if (ws_gs_flag(m, "-dram_elimnate_rw_turnaround", 0, &elim, &no_turn) < 0)
        return -1;
    snprintf(wtr_why, sizeof wtr_why,
             "[RULE] GPGPU-Sim's tWTR = WL + "
             "BL/ratio + CDLR%s%s%s",
             elim.o ? " (" : "", elim.o ? elim.cite : "", elim.o ? ")" : "");
    snprintf(rtw_why, sizeof rtw_why,
             "[RULE] GPGPU-Sim's tRTW = CL + "
             "BL/ratio + 2 - WL%s%s%s",
             elim.o ? " (" : "", elim.o ? elim.cite : "", elim.o ? ")" : "");
    if (no_turn)
        wtr = rtw = 0;
    ws_gs_note(m,
               "-gpgpu_dram_timing_opt RRD, RC, WR, RTPL%s: "
               "activate spacing and write recovery are not warpsim keys",
               groups ? ", CCD" : "");
    if (ws_gs_set_u(m, "dram.banks", o, 0, d->nbk,
                    "-gpgpu_dram_timing_opt "
                    "nbk")
            < 0
        || ws_gs_set_u(m, "dram.bank_groups", o, 0, d->nbkgrp,
                       "-gpgpu_dram_timing_opt nbkgrp")
               < 0
        || ws_gs_set_ns(m, "dram.t_rcd", o, (double)d->rcd,
                        "-gpgpu_dram_timing_opt RCD")
               < 0
        || ws_gs_set_ns(m, "dram.t_rp", o, (double)d->rp,
                        "-gpgpu_dram_timing_opt RP")
               < 0
        || ws_gs_set_ns(m, "dram.t_ras", o, (double)d->ras,
                        "-gpgpu_dram_timing_opt RAS")
               < 0
        || ws_gs_set_ns(m, "dram.t_ccd_l", o,
                        (double)(groups ? d->ccdl : d->ccd),
                        groups ? "-gpgpu_dram_timing_opt CCDL"
                               : "-gpgpu_dram_timing_opt CCD (no bank groups)")
               < 0
        || ws_gs_set_ns(m, "dram.t_wtr", no_turn ? elim.o : o, wtr,
                        no_turn ? "-dram_elimnate_rw_turnaround 1" : wtr_why)
               < 0
        || ws_gs_set_ns(m, "dram.t_rtw", no_turn ? elim.o : o,
                        rtw < 0 ? 0 : rtw,
                        no_turn ? "-dram_elimnate_rw_turnaround 1" : rtw_why)
               < 0)
        return -1;
    return ws_gs_set_flag(m, "dram.banked", o, 1,
                          "[RULE] GPGPU-Sim always "
                          "simulates banks and rows");
}

/* A read that misses L2: the L2 hit's path, GPGPU-Sim's fixed DRAM
 * latency (core cycles), then an activate, the CAS latency and the burst
 * on the DRAM clock. */
static int ws_gs_map_dram_latency(struct ws_gs_map *m,
                                  const struct ws_gs_val *t,
                                  const struct ws_gpgpusim_dram *d,
                                  const struct ws_gs_bus *b)
{
    struct ws_gs_val lat;
    uint64_t fixed, clocks = d->rcd + d->cl + ws_gs_burst_clocks(b);
    double core = (double)clocks * m->clk[0] / m->clk[3];
    char why[600];

    if (ws_gs_uint(m, "-dram_latency", 0, 100000, 30, &lat, &fixed) < 0)
        return -1;
    if (!t->o) {
        if (lat.o) {
            lat.o->used = 0;
            lat.o->why = "translates with -gpgpu_dram_timing_opt only (the "
                         "activate and CAS latencies add to it); "
                         "dram.latency kept from the base";
        }
        return 0;
    }
    snprintf(why, sizeof why,
             "[RULE] l2.latency %u + %s + (RCD + CL + "
             "BL/ratio) %llu DRAM clocks in core cycles",
             m->out.l2.latency, lat.cite, (unsigned long long)clocks);
    return ws_gs_set_u(m, "dram.latency", ws_gs_first(&lat, t, NULL), 0,
                       m->out.l2.latency + fixed + (uint64_t)ceil(core), why);
}

static int ws_gs_map_dram_rows(struct ws_gs_map *m)
{
    struct ws_gs_val map, wq;
    unsigned bits;
    uint64_t f[3];
    size_t n, high;
    char why[600];

    if (ws_gs_fetch(m, "-gpgpu_mem_addr_mapping", "", &map)) {
        if (ws_gpgpusim_addr_map(map.o, &bits, m->err) < 0)
            return -1;
        snprintf(why, sizeof why,
                 "-gpgpu_mem_addr_mapping: %u column and "
                 "burst bits (C, S)",
                 bits);
        if (ws_gs_set_size(m, "dram.row_size", map.o, 0, 1ull << bits, why) < 0)
            return -1;
    }
    if (!ws_gs_fetch(m, "-dram_write_queue_size", "32:28:16", &wq)) {
        ws_gs_base_why(m, "dram.write_batch",
                       "no -dram_write_queue_size; "
                       "GPGPU-Sim's default 32:28:16 drains 28 to 16 too");
        return 0;
    }
    if (ws_gpgpusim_uints(wq.o, ':', 3, 3, 0, 65536, f, &n, m->err) < 0)
        return -1;
    high = strcspn(wq.o->value, ":") + 1;
    if (f[1] > f[0])
        return ws_gpgpusim_err(m->err, wq.o, high,
                               "high watermark %llu "
                               "above the queue's size %llu (expected "
                               "SIZE:HIGH:LOW with SIZE >= HIGH > LOW)",
                               (unsigned long long)f[1],
                               (unsigned long long)f[0]);
    if (f[1] <= f[2])
        return ws_gpgpusim_err(m->err, wq.o, high,
                               "high watermark %llu not "
                               "above low %llu (expected SIZE:HIGH:LOW with "
                               "SIZE >= HIGH > LOW)",
                               (unsigned long long)f[1],
                               (unsigned long long)f[2]);
    snprintf(why, sizeof why, "%s: drained from %llu to %llu", wq.cite,
             (unsigned long long)f[1], (unsigned long long)f[2]);
    return ws_gs_set_u(m, "dram.write_batch", wq.o, 0, f[1] - f[2], why);
}

int ws_gs_map_dram(struct ws_gs_map *m)
{
    struct ws_gs_bus b;
    struct ws_gs_val t;
    struct ws_gpgpusim_opt *o;
    struct ws_gpgpusim_dram d;

    if (ws_gs_bus(m, &b) < 0 || ws_gs_map_dram_bus(m, &b) < 0)
        return -1;
    memset(&d, 0, sizeof d);
    o = ws_gs_fetch(m, "-gpgpu_dram_timing_opt", "", &t);
    if (o && ws_gpgpusim_dram_timing(o, &d, m->err) < 0)
        return -1;
    if (o && d.nbk % m->n_sub != 0)
        return ws_gpgpusim_err(m->err, o, 0,
                               "%llu banks do not divide among "
                               "%llu sub-partitions (expected nbk a multiple "
                               "of -gpgpu_n_sub_partition_per_mchannel, as "
                               "GPGPU-Sim requires)",
                               (unsigned long long)d.nbk,
                               (unsigned long long)m->n_sub);
    if (o && ws_gs_map_dram_timing(m, o, &d, &b) < 0)
        return -1;
    if (!o)
        ws_gs_aside_name(m, "-dram_elimnate_rw_turnaround",
                         "applies to the "
                         "turnarounds of -gpgpu_dram_timing_opt, not given: "
                         "dram.t_wtr and dram.t_rtw kept from the base");
    ws_gs_base_why(m, "dram.t_rfc",
                   "GPGPU-Sim models no refresh (t_refi: 0 "
                   "turns it off here too)");
    ws_gs_base_why(m, "dram.t_refi", "GPGPU-Sim models no refresh");
    ws_gs_base_why(m, "dram.refresh_per_bank",
                   "GPGPU-Sim models no "
                   "refresh");
    if (ws_gs_map_dram_latency(m, &t, &d, &b) < 0)
        return -1;
    return ws_gs_map_dram_rows(m);
}

/* ---- interconnect ---------------------------------------------------------- */

/* GPGPU-Sim's built-in crossbar (-network_mode 2) moves one flit per
 * interconnect clock each way at an SM's port; booksim (mode 1) takes its
 * flit size from its own file. */
int ws_gs_map_icnt(struct ws_gs_map *m)
{
    struct ws_gs_val mode, flit;
    uint64_t nm, bytes;
    char why[600];

    if (ws_gs_uint(m, "-network_mode", 1, 3, 1, &mode, &nm) < 0
        || ws_gs_uint(m, "-icnt_flit_size", 1, 4096, 32, &flit, &bytes) < 0)
        return -1;
    ws_gs_base_why(m, "icnt.latency",
                   "GPGPU-Sim's crossbar has no latency "
                   "option; it lies inside l2.latency");
    if (nm != 2) {
        ws_gs_aside(&mode, "not the built-in crossbar (-network_mode 2): "
                           "booksim's network is described in its own file; "
                           "icnt.bandwidth_per_sm kept from the base");
        if (flit.o) {
            flit.o->used = 0;
            flit.o->why = "the flit of the built-in crossbar, which "
                          "-network_mode 1 (booksim) does not use";
        }
        return 0;
    }
    snprintf(why, sizeof why,
             "[RULE] %s x interconnect clock %.6g MHz "
             "(%s), a flit per clock at the SM's port",
             flit.cite, m->clk[1], mode.cite);
    return ws_gs_set_real(m, "icnt.bandwidth_per_sm",
                          ws_gs_first(&flit, &mode, NULL), 0,
                          bytes * m->clk[1] / 1000.0, "GB/s", why);
}
