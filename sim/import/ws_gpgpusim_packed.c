/*
 * ws_gpgpusim_packed: the values GPGPU-Sim packs several fields into (see
 * ws_gpgpusim.h): cache descriptions, DRAM timings, the DRAM address map
 * and Accel-Sim's specialized units.
 *
 * Each reads its value as GPGPU-Sim's sscanf or option parser would, but
 * whole: a field GPGPU-Sim would leave unread (sscanf stops at the first
 * mismatch and keeps what it has) is an error here, reported at its own
 * column, and the combinations GPGPU-Sim asserts against (a write-back
 * cache allocating on fill, bank groups that do not divide the banks) are
 * errors rather than aborts.
 *
 * Leaves out: the tag arrays' set-index functions (a letter, kept for the
 * closing list) and the address map's channel and bank bits.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "ws_gpgpusim.h"
#include "ws_gpgpusim_int.h"
#include "util/ws_clip.h"

/* ---- packed cache descriptions ---------------------------------------- */

#define WS_GS_CACHE_FORM \
    "T:sets:line:assoc,R:W:A:WA:SI,M:entries:merge," \
    "missq:fifo,port, e.g. S:4:128:64,L:T:m:L:L," \
    "A:512:8,16:0,32"

struct ws_gs_cur {
    const struct ws_gpgpusim_opt *o;
    const char *s;
    size_t pos;
    struct ws_err *err;
};

static int ws_gs_cur_num(struct ws_gs_cur *c, const char *what, uint64_t lo,
                         uint64_t hi, uint64_t *v)
{
    size_t start = c->pos;
    const char *why;

    while (isdigit((unsigned char)c->s[c->pos]))
        c->pos++;
    if (ws_gs_decimal(c->s + start, c->pos - start, v, &why) < 0)
        return ws_gpgpusim_err(c->err, c->o, start, "%s %s (expected %s)", what,
                               c->pos == start ? "missing" : why,
                               WS_GS_CACHE_FORM);
    if (*v < lo || *v > hi)
        return ws_gpgpusim_err(c->err, c->o, start,
                               "%s %llu is out of range "
                               "(expected %llu to %llu)",
                               what, (unsigned long long)*v,
                               (unsigned long long)lo, (unsigned long long)hi);
    return 0;
}

static int ws_gs_cur_letter(struct ws_gs_cur *c, const char *what,
                            const char *allowed, const char *meaning, char *v)
{
    char ch = c->s[c->pos];

    if (ch == '\0' || !strchr(allowed, ch)
        || (c->s[c->pos + 1] != ':' && c->s[c->pos + 1] != ','
            && c->s[c->pos + 1] != '\0'))
        return ws_gpgpusim_err(c->err, c->o, c->pos,
                               "%s '%.1s' (expected "
                               "one letter of %s: %s)",
                               what, ch ? &c->s[c->pos] : "", allowed, meaning);
    *v = ch;
    c->pos++;
    return 0;
}

static int ws_gs_cur_sep(struct ws_gs_cur *c, char sep, const char *after)
{
    if (c->s[c->pos] != sep)
        return ws_gpgpusim_err(c->err, c->o, c->pos,
                               "'%c' missing after %s "
                               "(expected %s)",
                               sep, after, WS_GS_CACHE_FORM);
    c->pos++;
    return 0;
}

static int ws_gs_cache_geometry(struct ws_gs_cur *c,
                                struct ws_gpgpusim_cache *k)
{
    size_t line_at;

    if (isdigit((unsigned char)c->s[0])) {
        k->type = 'N'; /* GPGPU-Sim 3: no type letter */
    } else if (ws_gs_cur_letter(c, "cache type", "NS",
                                "N normal, S "
                                "sectored",
                                &k->type)
                   < 0
               || ws_gs_cur_sep(c, ':', "the cache type") < 0) {
        return -1;
    }
    k->off_geometry = c->pos;
    if (ws_gs_cur_num(c, "sets", 1, 1u << 24, &k->sets) < 0
        || ws_gs_cur_sep(c, ':', "the sets") < 0)
        return -1;
    line_at = c->pos;
    if (ws_gs_cur_num(c, "line size", 16, 4096, &k->line) < 0)
        return -1;
    if (k->line & (k->line - 1))
        return ws_gpgpusim_err(c->err, c->o, line_at,
                               "line size %llu "
                               "(expected a power of two)",
                               (unsigned long long)k->line);
    if (ws_gs_cur_sep(c, ':', "the line size") < 0
        || ws_gs_cur_num(c, "associativity", 1, 65536, &k->assoc) < 0)
        return -1;
    if (k->type == 'S' && k->line != 128)
        return ws_gpgpusim_err(c->err, c->o, k->off_geometry,
                               "a sectored "
                               "cache of %llu-byte lines (expected 128-byte "
                               "lines: GPGPU-Sim's sector caches hold four "
                               "32-byte sectors)",
                               (unsigned long long)k->line);
    return 0;
}

static int ws_gs_cache_policy(struct ws_gs_cur *c, struct ws_gpgpusim_cache *k,
                              int typed)
{
    k->off_policy = c->pos;
    if (ws_gs_cur_letter(c, "replacement", "LF", "L LRU, F FIFO", &k->repl) < 0
        || ws_gs_cur_sep(c, ':', "the replacement policy") < 0
        || ws_gs_cur_letter(c, "write policy", "RBTEL",
                            "R read-only, B "
                            "write-back, T write-through, E write-evict, L "
                            "local write-back global write-through",
                            &k->write)
               < 0
        || ws_gs_cur_sep(c, ':', "the write policy") < 0
        || ws_gs_cur_letter(c, "allocation", "mfs",
                            "m on miss, f on fill, "
                            "s streaming",
                            &k->alloc)
               < 0
        || ws_gs_cur_sep(c, ':', "the allocation policy") < 0
        || ws_gs_cur_letter(c, "write allocation", "NWFL",
                            "N none, W "
                            "write-allocate, F fetch-on-write, L lazy "
                            "fetch-on-read",
                            &k->write_alloc)
               < 0)
        return -1;
    /* The set-index letter came with GPGPU-Sim 3.2; the typed form has it
     * always. */
    if (typed || c->s[c->pos] == ':') {
        if (ws_gs_cur_sep(c, ':', "the write allocation policy") < 0
            || ws_gs_cur_letter(c, "set index function", "HPCLX",
                                "H Fermi "
                                "hash, P IPOLY, C custom, L linear, X XOR",
                                &k->set_index)
                   < 0)
            return -1;
    }
    if ((k->alloc == 'f' || k->alloc == 's') && k->write == 'B')
        return ws_gpgpusim_err(c->err, c->o, k->off_policy,
                               "a write-back "
                               "cache allocating on fill (expected m with B: "
                               "GPGPU-Sim refuses it, as it can deadlock)");
    if ((k->write_alloc == 'F' || k->write_alloc == 'L') && k->alloc != 'm')
        return ws_gpgpusim_err(c->err, c->o, k->off_policy,
                               "fetch-on-write "
                               "or lazy fetch-on-read with allocation on "
                               "fill (expected allocation m: GPGPU-Sim "
                               "refuses it)");
    return 0;
}

static int ws_gs_cache_queues(struct ws_gs_cur *c, struct ws_gpgpusim_cache *k)
{
    k->off_mshr = c->pos;
    if (ws_gs_cur_letter(c, "MSHR type", "FTAS",
                         "F texture FIFO, T sector "
                         "texture FIFO, A associative, S sector "
                         "associative",
                         &k->mshr_type)
            < 0
        || ws_gs_cur_sep(c, ':', "the MSHR type") < 0
        || ws_gs_cur_num(c, "MSHR entries", 1, 1u << 20, &k->mshr_entries) < 0
        || ws_gs_cur_sep(c, ':', "the MSHR entries") < 0
        || ws_gs_cur_num(c, "MSHR merge", 0, 1u << 20, &k->mshr_merge) < 0)
        return -1;
    if (c->s[c->pos] == '\0')
        return 0;
    if (ws_gs_cur_sep(c, ',', "the MSHR merge") < 0)
        return -1;
    k->off_queue = c->pos;
    if (ws_gs_cur_num(c, "miss queue", 0, 1u << 20, &k->miss_queue) < 0)
        return -1;
    k->has_miss_queue = 1;
    if (c->s[c->pos] == ':') {
        c->pos++;
        if (ws_gs_cur_num(c, "result FIFO", 0, 1u << 20, &k->result_fifo) < 0)
            return -1;
        k->has_fifo = 1;
    }
    if (c->s[c->pos] == ',') {
        c->pos++;
        k->off_port = c->pos;
        if (ws_gs_cur_num(c, "data port width", 1, 4096, &k->port) < 0)
            return -1;
        k->has_port = 1;
    }
    return 0;
}

int ws_gpgpusim_cache(const struct ws_gpgpusim_opt *o,
                      struct ws_gpgpusim_cache *k, struct ws_err *err)
{
    struct ws_gs_cur c = {o, o->value, 0, err};
    int typed = !isdigit((unsigned char)o->value[0]);

    memset(k, 0, sizeof *k);
    if (strcmp(o->value, "none") == 0) {
        k->disabled = 1;
        return 0;
    }
    if (ws_gs_cache_geometry(&c, k) < 0
        || ws_gs_cur_sep(&c, ',', "the associativity") < 0
        || ws_gs_cache_policy(&c, k, typed) < 0
        || ws_gs_cur_sep(&c, ',', "the policies") < 0
        || ws_gs_cache_queues(&c, k) < 0)
        return -1;
    if (c.s[c.pos] != '\0')
        return ws_gpgpusim_err(err, o, c.pos,
                               "unexpected '%.1s' after the "
                               "last field (expected %s)",
                               &c.s[c.pos], WS_GS_CACHE_FORM);
    if (!k->has_port)
        k->port = k->line; /* GPGPU-Sim's default */
    if (k->line % k->port != 0)
        return ws_gpgpusim_err(err, o, k->off_port,
                               "data port width %llu "
                               "does not divide the %llu-byte line (expected "
                               "a divisor of the line size)",
                               (unsigned long long)k->port,
                               (unsigned long long)k->line);
    return 0;
}

/* ---- DRAM timing ------------------------------------------------------ */

#define WS_GS_DRAM_FORM \
    "nbk=16:CCD=1:RRD=3:RCD=12:RAS=28:RP=12:RC=40:CL=12:" \
    "WL=2:CDLR=3:WR=10[:nbkgrp=4:CCDL=2:RTPL=3]"

static const char *const ws_gs_dram_names[] = {"nbk",  "CCD",  "RRD", "RCD",
                                               "RAS",  "RP",   "RC",  "CL",
                                               "WL",   "CDLR", "WR",  "nbkgrp",
                                               "CCDL", "RTPL"};
#define WS_GS_DRAM_N 14
#define WS_GS_DRAM_REQUIRED 11

static uint64_t *ws_gs_dram_field(struct ws_gpgpusim_dram *d, int i)
{
    uint64_t *f[WS_GS_DRAM_N] = {&d->nbk,  &d->ccd,  &d->rrd, &d->rcd,
                                 &d->ras,  &d->rp,   &d->rc,  &d->cl,
                                 &d->wl,   &d->cdlr, &d->wr,  &d->nbkgrp,
                                 &d->ccdl, &d->rtpl};
    return f[i];
}

static int ws_gs_dram_delim(char ch)
{
    return ch == '=' || ch == ':' || ch == ';' || ws_gs_blank(ch);
}

/* The next word of the named form, split at "=:;" and blanks as
 * option_parser_delimited_string splits it; 0 at the end. */
static int ws_gs_dram_word(const char *s, size_t *pos, size_t *start,
                           size_t *end)
{
    while (s[*pos] && ws_gs_dram_delim(s[*pos]))
        (*pos)++;
    if (!s[*pos])
        return 0;
    *start = *pos;
    while (s[*pos] && !ws_gs_dram_delim(s[*pos]))
        (*pos)++;
    *end = *pos;
    return 1;
}

static int ws_gs_dram_named(const struct ws_gpgpusim_opt *o,
                            struct ws_gpgpusim_dram *d, struct ws_err *err)
{
    const char *s = o->value;
    size_t pos = 0, ns, ne, vs, ve;
    int seen[WS_GS_DRAM_N] = {0};
    struct ws_clip q;

    while (ws_gs_dram_word(s, &pos, &ns, &ne)) {
        char name[WS_CLIP + 4];
        const char *why;
        int i, bad;
        snprintf(name, sizeof name, "%.*s",
                 (int)(ne - ns < WS_CLIP ? ne - ns : WS_CLIP), s + ns);
        for (i = 0; i < WS_GS_DRAM_N; i++)
            if (strcmp(name, ws_gs_dram_names[i]) == 0)
                break;
        if (i == WS_GS_DRAM_N)
            return ws_gpgpusim_err(err, o, ns,
                                   "unknown DRAM timing '%s' "
                                   "(expected names of %s)",
                                   ws_clip(&q, name), WS_GS_DRAM_FORM);
        if (!ws_gs_dram_word(s, &pos, &vs, &ve))
            return ws_gpgpusim_err(err, o, ne,
                                   "%s has no value (expected "
                                   "%s=N)",
                                   name, name);
        bad = ws_gs_decimal(s + vs, ve - vs, ws_gs_dram_field(d, i), &why) < 0;
        if (!bad && *ws_gs_dram_field(d, i) > 100000) {
            bad = 1;
            why = "too large";
        }
        if (bad)
            return ws_gpgpusim_err(err, o, vs,
                                   "%s: '%.*s' is %s (expected "
                                   "a whole number of DRAM clocks up to "
                                   "100000)",
                                   name,
                                   (int)(ve - vs < WS_CLIP ? ve - vs : WS_CLIP),
                                   s + vs, why);
        seen[i] = 1;
    }
    for (int i = 0; i < WS_GS_DRAM_REQUIRED; i++)
        if (!seen[i])
            return ws_gpgpusim_err(err, o, 0, "no %s (expected all of %s)",
                                   ws_gs_dram_names[i], WS_GS_DRAM_FORM);
    return 0;
}

int ws_gpgpusim_dram_timing(const struct ws_gpgpusim_opt *o,
                            struct ws_gpgpusim_dram *d, struct ws_err *err)
{
    uint64_t v[WS_GS_DRAM_N];
    size_t n;

    memset(d, 0, sizeof *d);
    /* Bank groups are off unless given: GPGPU-Sim's defaults. */
    d->nbkgrp = 1;
    if (strchr(o->value, '=')) {
        if (ws_gs_dram_named(o, d, err) < 0)
            return -1;
    } else {
        if (ws_gpgpusim_uints(o, ':', WS_GS_DRAM_REQUIRED, WS_GS_DRAM_N, 0,
                              100000, v, &n, err)
            < 0)
            return -1;
        for (size_t i = 0; i < n; i++)
            *ws_gs_dram_field(d, (int)i) = v[i];
    }
    if (d->nbk == 0 || d->nbk > 1024)
        return ws_gpgpusim_err(err, o, 0,
                               "nbk %llu banks (expected 1 to "
                               "1024)",
                               (unsigned long long)d->nbk);
    if (d->nbkgrp == 0 || d->nbk % d->nbkgrp != 0)
        return ws_gpgpusim_err(err, o, 0,
                               "nbkgrp %llu does not divide nbk "
                               "%llu (expected a divisor of the banks)",
                               (unsigned long long)d->nbkgrp,
                               (unsigned long long)d->nbk);
    return 0;
}

/* ---- address map and specialized units -------------------------------- */

int ws_gpgpusim_addr_map(const struct ws_gpgpusim_opt *o, unsigned *row_bits,
                         struct ws_err *err)
{
    const char *s = o->value, *semi = strchr(s, ';');
    size_t start = 0;
    unsigned bits = 0, positions = 0;

    /* "dramid@8;" places the channel bits; the letters follow it. */
    if (semi)
        start = (size_t)(semi - s) + 1;
    for (size_t i = start; s[i]; i++) {
        char ch = (char)toupper((unsigned char)s[i]);
        if (ch == '.' || ch == '|' || ch == ' ')
            continue;
        if (!strchr("DBRCS0", ch))
            return ws_gpgpusim_err(err, o, i,
                                   "'%c' in the address map "
                                   "(expected D, B, R, C, S or 0 per address "
                                   "bit, '.' or '|' between groups)",
                                   s[i]);
        bits += ch == 'C' || ch == 'S';
        positions++;
    }
    if (positions != 64)
        return ws_gpgpusim_err(err, o, start,
                               "%u address bits (expected 64 "
                               "letters, from bit 63 down to bit 0)",
                               positions);
    if (bits < 5 || bits > 20)
        return ws_gpgpusim_err(err, o, start,
                               "%u column and burst bits "
                               "(expected 5 to 20: a DRAM row of 32 bytes to "
                               "1 MiB)",
                               bits);
    *row_bits = bits;
    return 0;
}

int ws_gpgpusim_spec_unit(const struct ws_gpgpusim_opt *o,
                          struct ws_gpgpusim_spec *s, struct ws_err *err)
{
    uint64_t v[5];
    const char *p = o->value;
    size_t pos = 0, len = strlen(p);
    struct ws_clip q;

    memset(s, 0, sizeof *s);
    for (int i = 0; i < 5; i++) {
        const char *e = memchr(p + pos, ',', len - pos), *why;
        if (!e || ws_gs_decimal(p + pos, (size_t)(e - p) - pos, &v[i], &why) < 0
            || v[i] > 100000)
            return ws_gpgpusim_err(err, o, pos,
                                   "'%s' (expected enabled,"
                                   "units,max latency,ID_OC width,OC_EX "
                                   "width,NAME such as 1,4,4,4,4,BRA)",
                                   ws_clip(&q, p));
        pos = (size_t)(e - p) + 1;
    }
    if (v[0] > 1)
        return ws_gpgpusim_err(err, o, 0, "enabled %llu (expected 0 or 1)",
                               (unsigned long long)v[0]);
    if (len - pos == 0 || len - pos >= sizeof s->name
        || strpbrk(p + pos, " \t,"))
        return ws_gpgpusim_err(err, o, pos,
                               "unit name '%s' (expected one "
                               "word of at most %zu letters, such as BRA)",
                               ws_clip(&q, p + pos), sizeof s->name - 1);
    s->enabled = (int)v[0];
    s->units = v[1];
    s->max_latency = v[2];
    s->id_oc = v[3];
    s->oc_ex = v[4];
    memcpy(s->name, p + pos, len - pos + 1);
    return 0;
}
