/*
 * ws_traceg_inst: one instruction line of an Accel-Sim trace:
 *   [tb_x tb_y tb_z warp] [line] PC mask ndst [Rd..] OPCODE nsrc [Rs..]
 *   width [mode addresses...] [immediate]
 * read field by field and checked with each field's column (version 6,
 * Accel-Sim 2.0, adds fields that ws_traceg_hopper.c reads).  Also
 * classifies the instruction (ws_opinfo, derived once per distinct opcode
 * text) and widens a destination named by its first register
 * (ws_opinfo_widen).
 *
 * This is the reader's hot loop, one call per warp instruction, so the line
 * is read where it lies and taken apart once: fields are never copied or cut
 * into strings (a message quotes a field by its length), numbers short
 * enough not to overflow skip the overflow checks, and an opcode is first
 * looked for among the texts seen last before the string table is asked.
 * Before any of that, a line without addresses that was parsed lately (the
 * same instruction in another warp) is found in the line cache and its
 * result copied; only a line that parsed cleanly is kept there.
 *
 * A line of more than WS_TRACEG_MAX_TOKENS fields is reported as such,
 * whatever else is wrong with it.  No valid line before version 6 comes
 * near that count (54 fields at most), so the count is taken only once a
 * line has failed; version 6 lines may be far longer and are not counted.
 */
#include "ws_traceg_internal.h"

#include <stdlib.h>
#include <string.h>

#include "util/ws_grow.h"
#include "util/ws_num.h"
#include "ws_async_op.h"
#include "ws_opcode.h"

/* ---- fields ------------------------------------------------------------ */

const uint8_t ws_traceg_field_end[256] = {[0] = 1, [' '] = 1, ['\t'] = 1};

const uint8_t ws_traceg_hex1[256] = {
    ['0'] = 1,  ['1'] = 2,  ['2'] = 3,  ['3'] = 4,  ['4'] = 5,  ['5'] = 6,
    ['6'] = 7,  ['7'] = 8,  ['8'] = 9,  ['9'] = 10, ['a'] = 11, ['b'] = 12,
    ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16, ['A'] = 11, ['B'] = 12,
    ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16};

int ws_traceg_cur_bad(struct ws_traceg *r, const struct ws_cur *c,
                      const char *what, const char *expected,
                      struct ws_err *err)
{
    return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, ws_cur_col(c),
                     "bad %s '%.*s' (expected %s)", what, (int)c->len, c->s,
                     expected);
}

/* ws_num_u32, with the usual short field inline: nine digits cannot
 * overflow. */
static inline int ws_dec32(const char *s, size_t len, uint32_t *out)
{
    uint32_t v = 0;

    if (len == 0 || len > 9)
        return ws_num_u32(s, len, out);
    for (size_t i = 0; i < len; i++) {
        unsigned d = (unsigned)((uint8_t)s[i] - '0');
        if (d > 9)
            return -1;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

/* ws_num_u64 likewise: nineteen digits cannot overflow. */
static int ws_dec64(const char *s, size_t len, uint64_t *out)
{
    uint64_t v = 0;

    if (len == 0 || len > 19)
        return ws_num_u64(s, len, out);
    for (size_t i = 0; i < len; i++) {
        unsigned d = (unsigned)((uint8_t)s[i] - '0');
        if (d > 9)
            return -1;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

/* ws_num_hex by table: [0x]hex of at most 16 digits after leading zeros. */
int ws_traceg_hex64(const char *s, size_t len, uint64_t *out)
{
    uint64_t v = 0;

    if (len >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        s += 2;
        len -= 2;
    }
    if (len == 0)
        return -1;
    while (len > 16 && s[0] == '0') {
        s++;
        len--;
    }
    if (len > 16)
        return -1;
    for (size_t i = 0; i < len; i++) {
        unsigned d = ws_traceg_hex1[(uint8_t)s[i]];
        if (d == 0)
            return -1;
        v = (v << 4) | (d - 1);
    }
    *out = v;
    return 0;
}

int ws_traceg_field_signed(struct ws_traceg *r, struct ws_cur *c,
                           const char *what, int64_t *out, struct ws_err *err)
{
    if (ws_cur_next(r, c, what, err) < 0)
        return -1;
    if (ws_num_i64(c->s, c->len, out) < 0)
        return ws_traceg_cur_bad(r, c, what, "a signed decimal number", err);
    return 0;
}

/* ---- opcodes ---------------------------------------------------------- */

/* The opcode's info, filled in the first time its id is seen; NULL when
 * out of memory. */
static struct ws_opinfo *ws_traceg_opinfo(struct ws_traceg *r, uint32_t id)
{
    if (id >= r->opinfo_cap) {
        size_t old = r->opinfo_cap;
        if (ws_grow((void **)&r->opinfo, &r->opinfo_cap, (size_t)id + 1,
                    sizeof *r->opinfo, 1024)
            < 0)
            return NULL;
        memset(r->opinfo + old, 0, (r->opinfo_cap - old) * sizeof *r->opinfo);
    }
    if (!r->opinfo[id].known)
        ws_opinfo_derive(&r->opinfo[id], ws_strtab_str(&r->ops, id),
                         r->launch.sm_version, r->opts.unknown_class);
    return &r->opinfo[id];
}

/* The interned id of s[0..len), looked for among the texts seen last
 * first; UINT32_MAX when out of memory. */
static uint32_t ws_opcode_id(struct ws_traceg *r, const char *s, size_t len)
{
    uint32_t h = ((uint32_t)len * 31u + (uint8_t)s[0] * 7u
                  + (uint8_t)s[len / 2] * 13u + (uint8_t)s[len - 1])
                 & (WS_TRACEG_OPCACHE - 1);
    struct ws_opcache_entry *e = &r->opcache[h];
    uint32_t id;

    if (e->len == len) {
        /* A loop, not memcmp: opcodes are a few bytes, shorter than the
         * call. */
        size_t i = 0;
        while (i < len && e->text[i] == s[i])
            i++;
        if (i == len)
            return e->id;
    }
    id = ws_strtab_intern(&r->ops, s, len);
    if (id != UINT32_MAX) {
        e->text = ws_strtab_str(&r->ops, id);
        e->len = (uint32_t)len;
        e->id = id;
    }
    return id;
}

static const struct ws_opinfo *ws_parse_opcode(struct ws_traceg *r,
                                               struct ws_cur *c,
                                               struct ws_inst *in,
                                               struct ws_err *err)
{
    struct ws_opinfo *info;
    uint32_t id;

    if (ws_cur_next(r, c, "an opcode", err) < 0)
        return NULL;
    if (!((c->s[0] >= 'A' && c->s[0] <= 'Z') || c->s[0] == '_')) {
        ws_traceg_cur_bad(r, c, "opcode",
                          "a SASS mnemonic such as FFMA or LDG.E", err);
        return NULL;
    }
    id = ws_opcode_id(r, c->s, c->len);
    if (id == UINT32_MAX || !(info = ws_traceg_opinfo(r, id))) {
        ws_err_oom(err);
        return NULL;
    }
    if (c->s[0] == 'R')
        ws_traceg_replay_note(r, id, c->s, c->len);
    in->op = id;
    return info;
}

/* ---- registers -------------------------------------------------------- */

/* A version-6 register that is not a general one: predicate, uniform
 * predicate, URZ. */
static int ws_reg_other(const char *s, size_t len)
{
    uint32_t n;

    if (len >= 2 && s[0] == 'U' && s[1] != 'R') {
        s++;
        len--;
    } else if (len == 3 && s[0] == 'U' && s[1] == 'R' && s[2] == 'Z')
        return 1;
    if (len < 2 || s[0] != 'P')
        return 0;
    return (len == 2 && s[1] == 'T')
           || (ws_dec32(s + 1, len - 1, &n) == 0 && n < 8);
}

/* The register field taken last: R0..R255 (*reg), RZ (WS_REG_RZ) or a
 * uniform register (-1). */
static int ws_reg_text(struct ws_traceg *r, const struct ws_cur *c, int *reg,
                       struct ws_err *err)
{
    const char *s = c->s;
    size_t len = c->len;
    uint32_t n;

    if (len == 2 && s[0] == 'R' && s[1] == 'Z') {
        *reg = WS_REG_RZ;
        return 0;
    }
    /* Uniform registers are not general-register dependencies; some tracer
     * builds list them, so they are accepted and dropped. */
    if (len > 2 && s[0] == 'U' && s[1] == 'R'
        && ws_dec32(s + 2, len - 2, &n) == 0) {
        *reg = -1;
        return 0;
    }
    /* Accel-Sim 2.0 lists every operand register, predicates (P0..P6, PT,
     * UP0..UP6, UPT) and URZ included; none is a general register. */
    if (r->launch.trace_version >= 6 && ws_reg_other(s, len)) {
        *reg = -1;
        return 0;
    }
    if (len < 2 || s[0] != 'R' || ws_dec32(s + 1, len - 1, &n) < 0 || n > 255)
        return ws_traceg_cur_bad(r, c, "register", "R0 to R255 or RZ", err);
    *reg = (int)n;
    return 0;
}

/* The next field as a register, "R" and one to three digits read in the
 * pass that finds its end; anything else goes to ws_reg_text. */
static inline int ws_field_reg(struct ws_traceg *r, struct ws_cur *c, int *reg,
                               struct ws_err *err)
{
    const char *s = ws_cur_skip(c), *p = s + 1;
    unsigned n = 0, d;

    if (*s == '\0')
        return ws_cur_next(r, c, "a register", err);
    if (s[0] == 'R') {
        while (p - s < 4 && (d = (unsigned)((uint8_t)*p - '0')) <= 9) {
            n = n * 10 + d;
            p++;
        }
        if (p > s + 1 && ws_traceg_field_end[(uint8_t)*p] && n <= 255) {
            ws_cur_end(c, s, p);
            *reg = (int)n;
            return 0;
        }
    }
    ws_cur_end(c, s, s);
    return ws_reg_text(r, c, reg, err);
}

/* The register list: its count, then the registers; the general ones go
 * to regs[*count], and *listed says how many the line named. */
static int ws_parse_regs(struct ws_traceg *r, struct ws_cur *c, uint8_t *regs,
                         uint8_t *count, unsigned *listed, unsigned max,
                         const char *what, struct ws_err *err)
{
    uint32_t n = 0;

    if (ws_field_dec32(r, c, what, &n, err) < 0)
        return -1;
    if (n > max)
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, ws_cur_col(c),
                         "%u %s (expected at most %u)", n, what, max);
    *count = 0;
    *listed = n;
    for (uint32_t i = 0; i < n; i++) {
        int reg = -1;
        if (ws_field_reg(r, c, &reg, err) < 0)
            return -1;
        if (reg >= 0 && reg != WS_REG_RZ)
            regs[(*count)++] = (uint8_t)reg;
    }
    return 0;
}

/* ---- addresses -------------------------------------------------------- */

int ws_traceg_push_addr(struct ws_traceg *r, uint64_t a, struct ws_err *err)
{
    if (r->naddr == WS_TRACEG_MAX_CTA_ADDRS)
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, 1,
                         "block "
                         "holds more than %u lane addresses (expected a real "
                         "CTA's memory accesses)",
                         WS_TRACEG_MAX_CTA_ADDRS);
    if (r->naddr == r->addr_cap
        && ws_grow((void **)&r->addrs, &r->addr_cap, r->naddr + 1,
                   sizeof *r->addrs, 1024)
               < 0)
        return ws_err_oom(err);
    r->addrs[r->naddr++] = a;
    return 0;
}

/* *a + step, or an error at the step's field when the sum leaves the
 * 64-bit address space: a wrapped address would be a plausible-looking
 * lie. */
int ws_traceg_step_addr(struct ws_traceg *r, const struct ws_cur *c,
                        uint64_t *a, int64_t step, unsigned lane,
                        struct ws_err *err)
{
    uint64_t mag = step < 0 ? (uint64_t)0 - (uint64_t)step : (uint64_t)step;

    if (step < 0 ? mag > *a : mag > UINT64_MAX - *a)
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, ws_cur_col(c),
                         "address of active lane %u wraps %s "
                         "(expected addresses between 0 and 2^64 - 1)",
                         lane, step < 0 ? "below 0" : "past 2^64");
    *a = step < 0 ? *a - mag : *a + mag;
    return 0;
}

/* Mode 1: base + k * step for active lane k.  The usual case goes in one
 * loop: room for every lane, and the last address in range, which puts
 * each one before it in range too.  Otherwise lane by lane, so that a
 * wrap or the block's limit is reported where it happens. */
static int ws_stride_addrs(struct ws_traceg *r, const struct ws_cur *c,
                           uint64_t base, int64_t step, unsigned active,
                           struct ws_err *err)
{
    uint64_t mag = step < 0 ? (uint64_t)0 - (uint64_t)step : (uint64_t)step;
    uint64_t room = step < 0 ? base : UINT64_MAX - base;

    if (active > 1 && r->addr_cap - r->naddr >= active
        && WS_TRACEG_MAX_CTA_ADDRS - r->naddr >= active
        && mag <= room / (active - 1)) {
        uint64_t *a = r->addrs + r->naddr;
        for (unsigned k = 0; k < active; k++)
            a[k] = base + (uint64_t)step * k; /* modulo 2^64, exact here */
        r->naddr += active;
        return 0;
    }
    for (unsigned k = 0; k < active; k++)
        if ((k > 0 && ws_traceg_step_addr(r, c, &base, step, k, err) < 0)
            || ws_traceg_push_addr(r, base, err) < 0)
            return -1;
    return 0;
}

static int ws_parse_addrs(struct ws_traceg *r, struct ws_cur *c,
                          struct ws_inst *in, struct ws_err *err)
{
    unsigned active = (unsigned)__builtin_popcount(in->mask);
    uint32_t mode = 0;
    uint64_t base = 0;
    int64_t step;

    if (ws_field_dec32(r, c, "address mode", &mode, err) < 0)
        return -1;
    if (mode > 2 || (mode == 2 && r->launch.trace_version < 3))
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, ws_cur_col(c),
                         "unknown address mode %u (expected "
                         "%s)",
                         mode,
                         r->launch.trace_version < 3
                             ? "0 or 1 before tracer version 3"
                             : "0, 1 or 2");
    in->addr = (uint32_t)r->naddr;
    if (mode == 0) {
        for (unsigned k = 0; k < active; k++)
            if (ws_field_hex(r, c, "lane address", &base, err) < 0
                || ws_traceg_push_addr(r, base, err) < 0)
                return -1;
        return 0;
    }
    if (ws_field_hex(r, c, "base address", &base, err) < 0)
        return -1;
    if (mode == 1) {
        /* Stride applies per active lane in order; the tracer only uses
         * this mode when the active lanes form one run. */
        if (ws_traceg_field_signed(r, c, "stride", &step, err) < 0)
            return -1;
        return ws_stride_addrs(r, c, base, step, active, err);
    }
    /* Mode 2: exactly popcount - 1 deltas, each from the previous active
     * lane.  Reading popcount of them (as the reference parser does) would
     * swallow the trailing immediate. */
    if (active > 0 && ws_traceg_push_addr(r, base, err) < 0)
        return -1;
    for (unsigned k = 1; k < active; k++) {
        if (ws_traceg_field_signed(r, c, "address delta", &step, err) < 0
            || ws_traceg_step_addr(r, c, &base, step, k, err) < 0
            || ws_traceg_push_addr(r, base, err) < 0)
            return -1;
    }
    return 0;
}

/* ---- the line --------------------------------------------------------- */

/* The trailing immediate, the field taken last.  Tracers print it as a C
 * int ("%d") or as the operand's 64-bit unsigned value, so anything from
 * -2^63 to 2^64 - 1 is accepted and its low 32 bits kept as a signed
 * value, which is what the "%d" tracers wrote and all that DEPBAR's count
 * needs. */
int ws_traceg_parse_imm(struct ws_traceg *r, const struct ws_cur *c,
                        int32_t *imm, struct ws_err *err)
{
    uint64_t u = 0;
    int64_t v = 0;
    uint32_t lo;

    if (c->s[0] == '-' ? ws_num_i64(c->s, c->len, &v) < 0
                       : ws_dec64(c->s, c->len, &u) < 0)
        return ws_traceg_cur_bad(r, c, "immediate", "a decimal number", err);
    if (c->s[0] == '-')
        u = (uint64_t)v;
    lo = (uint32_t)u;
    *imm = lo <= INT32_MAX ? (int32_t)lo : -(int32_t)(UINT32_MAX - lo) - 1;
    return 0;
}

/* Before tracer version 3 each line repeats its block and warp. */
static int ws_parse_legacy_prefix(struct ws_traceg *r, struct ws_cur *c,
                                  uint32_t warp, struct ws_err *err)
{
    static const char *const what[4] = {"block x", "block y", "block z",
                                        "warp id"};
    uint32_t want[4] = {r->cta.ctaid[0], r->cta.ctaid[1], r->cta.ctaid[2],
                        warp};
    uint32_t v = 0;

    for (int k = 0; k < 4; k++) {
        if (ws_field_dec32(r, c, what[k], &v, err) < 0)
            return -1;
        if (v != want[k])
            return ws_err_at(err, ws_traceg_name(r), r->lines.lineno,
                             ws_cur_col(c),
                             "%s %u disagrees with the "
                             "enclosing block (expected %u)",
                             what[k], v, want[k]);
    }
    return 0;
}

static int ws_parse_pc_mask(struct ws_traceg *r, struct ws_cur *c,
                            struct ws_inst *in, struct ws_err *err)
{
    uint64_t pc = 0, mask = 0;

    if (ws_field_hex(r, c, "PC", &pc, err) < 0)
        return -1;
    if (pc > UINT32_MAX)
        return ws_traceg_fail(r, err, ws_cur_col(c), "PC out of range",
                              "a function offset below 4 GiB");
    in->pc = (uint32_t)pc;
    if (ws_field_hex(r, c, "active mask", &mask, err) < 0)
        return -1;
    if (c->len > 10 || mask > UINT32_MAX)
        return ws_traceg_fail(r, err, ws_cur_col(c),
                              "active mask wider "
                              "than a warp",
                              "8 hexadecimal digits");
    in->mask = (uint32_t)mask;
    return 0;
}

/* A bulk copy (UTMALDG, UBLKCP...) names its box as WS_BOX_WORDS
 * addresses of the low lanes (trace/ws_async_op.h), as `trace gen`
 * writes it; anything else cannot be timed. */
static int ws_check_box(struct ws_traceg *r, const struct ws_cur *c,
                        const struct ws_inst *in, struct ws_err *err)
{
    struct ws_box b;

    if (in->mask == 0)
        return 0;
    if (in->mask == WS_BOX_MASK && in->width != 0
        && ws_box_unpack(r->addrs + in->addr, WS_BOX_MAX_BYTES, &b) == 0)
        return 0;
    return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, ws_cur_col(c),
                     "bulk-copy instruction '%s' without a box (expected "
                     "mask %08x and its %d box words as addresses, as "
                     "`warpsim trace gen` writes them)",
                     ws_strtab_str(&r->ops, in->op), WS_BOX_MASK, WS_BOX_WORDS);
}

/* Accel-Sim 2.0's TMA opcodes (its parser's list, matched anywhere in
 * the text as it does): UTMACCTL and UTMACMDFLUSH are not copies. */
static int ws_is_tma_v6(const char *op)
{
    static const char *const tma[] = {"UTMALDG",  "UTMASTG", "UTMAPF",
                                      "UTMAREDG", "UBLKCP",  "UBLKPF",
                                      "UBLKRED"};

    for (size_t i = 0; i < sizeof tma / sizeof tma[0]; i++)
        if (strstr(op, tma[i]))
            return 1;
    return 0;
}

/* "GMMA" anywhere in the opcode field taken last, as the reference tests. */
static int ws_is_gmma(const char *s, size_t len)
{
    for (size_t i = 0; i + 4 <= len; i++)
        if (s[i] == 'G' && memcmp(s + i, "GMMA", 4) == 0)
            return 1;
    return 0;
}

/* The memory width and what follows it: lane addresses, or from version 6
 * a TMA block. */
static int ws_parse_mem(struct ws_traceg *r, struct ws_cur *c,
                        const struct ws_opinfo *info, struct ws_inst *in,
                        struct ws_err *err)
{
    uint32_t width = 0;

    if (ws_field_dec32(r, c, "memory width", &width, err) < 0)
        return -1;
    if (r->launch.trace_version >= 6 && info->bulk
        && ws_is_tma_v6(ws_strtab_str(&r->ops, in->op)))
        return ws_traceg_tma_block(r, c, in, err);
    if (width > 0) {
        if (width > 64)
            return ws_traceg_fail(r, err, ws_cur_col(c),
                                  "memory width "
                                  "out of range",
                                  "0 to 16 bytes per lane");
        in->width = info->width;
        if (ws_parse_addrs(r, c, in, err) < 0)
            return -1;
    }
    /* Version 6 names its copies above; before it, a copy is `trace gen`'s
     * box form. */
    if (info->bulk && r->launch.trace_version < 6
        && ws_check_box(r, c, in, err) < 0)
        return -1;
    return 0;
}

/* What follows the addresses before version 6: [immediate]. */
static int ws_parse_tail(struct ws_traceg *r, struct ws_cur *c,
                         struct ws_inst *in, struct ws_err *err)
{
    if (!ws_cur_take(c))
        return 0;
    if (r->launch.trace_version >= 4) {
        if (ws_traceg_parse_imm(r, c, &in->imm, err) < 0)
            return -1;
        if (!ws_cur_take(c))
            return 0;
    }
    return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, ws_cur_col(c),
                     "unexpected '%.*s' after the instruction (expected the "
                     "end of the line; as many addresses as active lanes)",
                     (int)c->len, c->s);
}

static int ws_parse_fields(struct ws_traceg *r, struct ws_cur *c, uint32_t warp,
                           struct ws_inst *in, struct ws_err *err)
{
    const struct ws_opinfo *info;
    unsigned ndst = 0, nsrc = 0;
    uint32_t v = 0;
    int gmma;

    if (r->launch.trace_version < 3
        && ws_parse_legacy_prefix(r, c, warp, err) < 0)
        return -1;
    if (r->launch.lineinfo && ws_field_dec32(r, c, "source line", &v, err) < 0)
        return -1;
    if (ws_parse_pc_mask(r, c, in, err) < 0
        || ws_parse_regs(r, c, in->dst, &in->ndst, &ndst, WS_INST_MAX_DST,
                         "destination registers", err)
               < 0
        || !(info = ws_parse_opcode(r, c, in, err)))
        return -1;
    gmma = r->launch.trace_version >= 6 && ws_is_gmma(c->s, c->len);
    if (ws_parse_regs(r, c, in->src, &in->nsrc, &nsrc, WS_INST_MAX_SRC,
                      "source registers", err)
            < 0
        || (gmma && ws_traceg_gmma_commit(r, c, err) < 0)
        || ws_parse_mem(r, c, info, in, err) < 0)
        return -1;
    ws_opinfo_apply(info, &r->launch, r->addrs, in);
    ws_opinfo_widen(info, in);
    if (r->launch.trace_version >= 6)
        return ws_traceg_v6_tail(r, c, in, ndst, nsrc, err);
    return ws_parse_tail(r, c, in, err);
}

/* A failed line with too many fields is reported as that, the first thing
 * wrong with it when fields are counted before they are read. */
static void ws_check_field_count(struct ws_traceg *r, const char *line,
                                 struct ws_err *err)
{
    struct ws_cur c = {line, line, line, 0, 0};

    while (c.n <= WS_TRACEG_MAX_TOKENS && ws_cur_take(&c))
        ;
    if (c.n <= WS_TRACEG_MAX_TOKENS)
        return;
    ws_err_clear(err);
    ws_traceg_fail(r, err, ws_cur_col(&c),
                   "too many fields on an "
                   "instruction line",
                   "at most 32 addresses and the fixed "
                   "fields");
}

/* The line's cache entry, or NULL for a line the cache does not take. */
static struct ws_linecache_entry *
ws_linecache_slot(struct ws_traceg *r, const char *line, size_t len)
{
    uint64_t a, b;

    if (len < 16 || len > WS_TRACEG_LINECACHE_TEXT
        || r->launch.trace_version < 3)
        return NULL;
    memcpy(&a, line, sizeof a);
    memcpy(&b, line + 8, sizeof b);
    a = (a * 0x9e3779b97f4a7c15ull) ^ (b * 0xc2b2ae3d27d4eb4full) ^ len;
    return &r->linecache[(a >> 40) & (WS_TRACEG_LINECACHE - 1)];
}

/* 0 to keep instruction in, or 1 (its addresses given back) when it is
 * not one of the stream: a marker, or a spin-loop repeat. */
static int ws_replay_filter(struct ws_traceg *r, uint32_t warp,
                            const struct ws_inst *in, size_t naddr)
{
    if (!r->replay.active && in->op + 1 != r->replay_op[0]
        && in->op + 1 != r->replay_op[1])
        return 0;
    if (!ws_traceg_replay_step(r, warp, in))
        return 0;
    r->naddr = naddr;
    return 1;
}

int ws_traceg_parse_inst(struct ws_traceg *r, const char *line, size_t len,
                         uint32_t warp, struct ws_inst *in, struct ws_err *err)
{
    struct ws_linecache_entry *e = ws_linecache_slot(r, line, len);
    struct ws_cur c = {line, line, line, 0, 0};
    size_t naddr = r->naddr;

    r->parity_known = 0;
    if (line[0] == 'R' && ws_traceg_replay_bare(r, line, len, warp))
        return 1;
    if (e && e->len == len && memcmp(e->text, line, len) == 0) {
        *in = e->inst;
        return ws_replay_filter(r, warp, in, naddr);
    }
    memset(in, 0, sizeof *in);
    if (ws_parse_fields(r, &c, warp, in, err) < 0) {
        /* Version 6 lines may be long (TMA lists, 32 values a register). */
        if (r->launch.trace_version < 6)
            ws_check_field_count(r, line, err);
        return -1;
    }
    if (e && in->width == 0) {
        e->len = (uint32_t)len;
        memcpy(e->text, line, len);
        e->inst = *in;
    }
    return ws_replay_filter(r, warp, in, naddr);
}
