/*
 * ws_traceg_inst: one instruction line of an Accel-Sim trace:
 *   [tb_x tb_y tb_z warp] [line] PC mask ndst [Rd..] OPCODE nsrc [Rs..]
 *   width [mode addresses...] [immediate]
 * split into tokens in place and checked field by field with its column.
 * Also classifies the opcode (cached per interned opcode), the address space
 * of generic accesses, and widens wide-load destinations.
 */
#include "ws_traceg_internal.h"

#include <stdlib.h>
#include <string.h>

#include "util/ws_grow.h"
#include "util/ws_num.h"
#include "ws_opcode.h"

struct ws_tokens {
    struct ws_tok t[WS_TRACEG_MAX_TOKENS];
    int n, i;
};

static int ws_tokenize(struct ws_traceg *r, struct ws_tokens *tk, char *line,
                       struct ws_err *err)
{
    char *p = line;

    tk->n = 0;
    tk->i = 0;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '\0')
            return 0;
        if (tk->n == WS_TRACEG_MAX_TOKENS)
            return ws_traceg_fail(r, err, p - line + 1, "too many fields on "
                                  "an instruction line", "at most 32 "
                                  "addresses and the fixed fields");
        tk->t[tk->n].s = p;
        tk->t[tk->n].col = p - line + 1;
        while (*p && *p != ' ' && *p != '\t')
            p++;
        tk->t[tk->n].len = (size_t)(p - tk->t[tk->n].s);
        tk->n++;
        if (*p)
            *p++ = '\0';
    }
}

/* The next token, or an error naming what was expected there. */
static struct ws_tok *ws_tok_next(struct ws_traceg *r, struct ws_tokens *tk,
                                  const char *expected, struct ws_err *err)
{
    if (tk->i < tk->n)
        return &tk->t[tk->i++];
    ws_err_at(err, ws_traceg_name(r), r->lines.lineno,
              tk->n ? tk->t[tk->n - 1].col + (long)tk->t[tk->n - 1].len : 1,
              "instruction line ends early (expected %s)", expected);
    return NULL;
}

static int ws_tok_dec32(struct ws_traceg *r, struct ws_tokens *tk,
                        const char *what, uint32_t *out, struct ws_err *err)
{
    struct ws_tok *t = ws_tok_next(r, tk, what, err);

    if (!t)
        return -1;
    if (ws_num_u32(t->s, t->len, out) < 0)
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, t->col,
                         "bad %s '%s' (expected a decimal number)", what, t->s);
    return 0;
}

static int ws_tok_hex(struct ws_traceg *r, struct ws_tokens *tk,
                      const char *what, uint64_t *out, struct ws_err *err)
{
    struct ws_tok *t = ws_tok_next(r, tk, what, err);

    if (!t)
        return -1;
    if (ws_num_hex(t->s, t->len, out) < 0)
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, t->col,
                         "bad %s '%s' (expected a hexadecimal number)", what,
                         t->s);
    return 0;
}

static int ws_tok_signed(struct ws_traceg *r, struct ws_tokens *tk,
                         const char *what, int64_t *out, struct ws_err *err)
{
    struct ws_tok *t = ws_tok_next(r, tk, what, err);

    if (!t)
        return -1;
    if (ws_num_i64(t->s, t->len, out) < 0)
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, t->col,
                         "bad %s '%s' (expected a signed decimal number)",
                         what, t->s);
    return 0;
}

/* ---- pools ------------------------------------------------------------ */


static struct ws_opinfo *ws_traceg_opinfo(struct ws_traceg *r, uint32_t id)
{
    if (id >= r->opinfo_cap) {
        size_t old = r->opinfo_cap;
        if (ws_grow((void **)&r->opinfo, &r->opinfo_cap, (size_t)id + 1,
                    sizeof *r->opinfo, 1024) < 0)
            return NULL;
        memset(r->opinfo + old, 0, (r->opinfo_cap - old) * sizeof *r->opinfo);
    }
    return &r->opinfo[id];
}

/* ---- instruction lines ---------------------------------------------- */

static int ws_tok_reg(struct ws_traceg *r, struct ws_tok *t, int *reg,
                      struct ws_err *err)
{
    uint32_t n;

    if (t->len == 2 && t->s[0] == 'R' && t->s[1] == 'Z') {
        *reg = WS_REG_RZ;
        return 0;
    }
    /* Uniform registers are not general-register dependencies; some tracer
     * builds list them, so they are accepted and dropped. */
    if (t->len > 2 && t->s[0] == 'U' && t->s[1] == 'R'
        && ws_num_u32(t->s + 2, t->len - 2, &n) == 0) {
        *reg = -1;
        return 0;
    }
    if (t->len < 2 || t->s[0] != 'R' || ws_num_u32(t->s + 1, t->len - 1, &n) < 0
        || n > 255)
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, t->col,
                         "bad register '%s' (expected R0 to R255 or RZ)", t->s);
    *reg = (int)n;
    return 0;
}

static int ws_parse_regs(struct ws_traceg *r, struct ws_tokens *tk,
                         uint8_t *regs, uint8_t *count, unsigned max,
                         const char *what, struct ws_err *err)
{
    uint32_t n;
    struct ws_tok *t;

    if (ws_tok_dec32(r, tk, what, &n, err) < 0)
        return -1;
    if (n > max)
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno,
                         tk->t[tk->i - 1].col, "%u %s (expected at most %u)",
                         n, what, max);
    *count = 0;
    for (uint32_t i = 0; i < n; i++) {
        int reg = -1;
        if (!(t = ws_tok_next(r, tk, "a register", err))
            || ws_tok_reg(r, t, &reg, err) < 0)
            return -1;
        if (reg >= 0 && reg != WS_REG_RZ)
            regs[(*count)++] = (uint8_t)reg;
    }
    return 0;
}

static int ws_parse_opcode(struct ws_traceg *r, struct ws_tokens *tk,
                           struct ws_inst *in, struct ws_err *err)
{
    struct ws_tok *t = ws_tok_next(r, tk, "an opcode", err);
    struct ws_opinfo *info;
    uint32_t id;

    if (!t)
        return -1;
    if (!((t->s[0] >= 'A' && t->s[0] <= 'Z') || t->s[0] == '_'))
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, t->col,
                         "bad opcode '%s' (expected a SASS mnemonic such as "
                         "FFMA or LDG.E)", t->s);
    id = ws_strtab_intern(&r->ops, t->s, t->len);
    if (id == UINT32_MAX || !(info = ws_traceg_opinfo(r, id)))
        return ws_err_oom(err);
    if (!info->known) {
        struct ws_opcode_info oi;
        info->known = ws_opcode_lookup(t->s, ws_opcode_base_len(t->s),
                                       r->launch.sm_version, &oi) ? 1 : 2;
        info->flags = (uint8_t)ws_opcode_semantics(ws_strtab_str(&r->ops, id));
        if (info->known == 1) {
            info->cls = oi.cls;
            info->memop = oi.memop;
        } else {
            info->cls = (uint8_t)r->opts.unknown_class;
            info->memop = WS_MEMOP_NONE;
        }
    }
    in->op = id;
    in->cls = info->cls;
    in->memop = info->memop;
    in->flags |= info->flags;
    if (info->known == 2)
        in->flags |= WS_INST_UNKNOWN;
    if (strncmp(t->s, "UTMA", 4) == 0 || strncmp(t->s, "UBLK", 4) == 0)
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, t->col,
                         "bulk-copy instruction '%s' is not supported "
                         "(expected a trace without TMA transfers)", t->s);
    return 0;
}

/* Wide loads name one register but write 2 or 4; LDSM .x2/.x4 likewise. */
static void ws_widen_dst(struct ws_traceg *r, struct ws_inst *in)
{
    const char *op = ws_strtab_str(&r->ops, in->op);
    unsigned regs = in->width > 4 ? in->width / 4u : 1u;

    if (in->ndst != 1 || (in->memop != WS_MEMOP_LOAD
                          && in->memop != WS_MEMOP_ATOMIC))
        return;
    if (strncmp(op, "LDSM", 4) == 0)
        regs = strstr(op, ".4") ? 4u : strstr(op, ".2") ? 2u : 1u;
    if (regs > WS_INST_MAX_DST)
        regs = WS_INST_MAX_DST;
    for (unsigned i = 1; i < regs && in->dst[0] + i < WS_REG_RZ; i++)
        in->dst[in->ndst++] = (uint8_t)(in->dst[0] + i);
}

static int ws_push_addr(struct ws_traceg *r, uint64_t a, struct ws_err *err)
{
    if (r->naddr == WS_TRACEG_MAX_CTA_ADDRS)
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, 1, "block "
                         "holds more than %u lane addresses (expected a real "
                         "CTA's memory accesses)", WS_TRACEG_MAX_CTA_ADDRS);
    if (ws_grow((void **)&r->addrs, &r->addr_cap, r->naddr + 1,
                sizeof *r->addrs, 1024) < 0)
        return ws_err_oom(err);
    r->addrs[r->naddr++] = a;
    return 0;
}

/* *a + step, or an error at the step's token when the sum leaves the 64-bit
 * address space: a wrapped address would be a plausible-looking lie. */
static int ws_step_addr(struct ws_traceg *r, const struct ws_tok *t,
                        uint64_t *a, int64_t step, unsigned lane,
                        struct ws_err *err)
{
    uint64_t mag = step < 0 ? (uint64_t)0 - (uint64_t)step : (uint64_t)step;

    if (step < 0 ? mag > *a : mag > UINT64_MAX - *a)
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, t->col,
                         "address of active lane %u wraps %s (expected "
                         "addresses between 0 and 2^64 - 1)", lane,
                         step < 0 ? "below 0" : "past 2^64");
    *a = step < 0 ? *a - mag : *a + mag;
    return 0;
}

static int ws_parse_addrs(struct ws_traceg *r, struct ws_tokens *tk,
                          struct ws_inst *in, struct ws_err *err)
{
    unsigned active = (unsigned)__builtin_popcount(in->mask);
    uint32_t mode;
    uint64_t base;
    int64_t step;

    if (ws_tok_dec32(r, tk, "address mode", &mode, err) < 0)
        return -1;
    if (mode > 2 || (mode == 2 && r->launch.trace_version < 3))
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno,
                         tk->t[tk->i - 1].col, "unknown address mode %u "
                         "(expected %s)", mode, r->launch.trace_version < 3 ?
                         "0 or 1 before tracer version 3" : "0, 1 or 2");
    in->addr = (uint32_t)r->naddr;
    if (mode == 0) {
        for (unsigned k = 0; k < active; k++)
            if (ws_tok_hex(r, tk, "lane address", &base, err) < 0
                || ws_push_addr(r, base, err) < 0)
                return -1;
        return 0;
    }
    if (ws_tok_hex(r, tk, "base address", &base, err) < 0)
        return -1;
    if (mode == 1) {
        /* Stride applies per active lane in order; the tracer only uses
         * this mode when the active lanes form one run. */
        if (ws_tok_signed(r, tk, "stride", &step, err) < 0)
            return -1;
        for (unsigned k = 0; k < active; k++)
            if ((k > 0 && ws_step_addr(r, &tk->t[tk->i - 1], &base, step, k,
                                       err) < 0)
                || ws_push_addr(r, base, err) < 0)
                return -1;
        return 0;
    }
    /* Mode 2: exactly popcount - 1 deltas, each from the previous active
     * lane.  Reading popcount of them (as the reference parser does) would
     * swallow the trailing immediate. */
    if (active > 0 && ws_push_addr(r, base, err) < 0)
        return -1;
    for (unsigned k = 1; k < active; k++) {
        if (ws_tok_signed(r, tk, "address delta", &step, err) < 0
            || ws_step_addr(r, &tk->t[tk->i - 1], &base, step, k, err) < 0
            || ws_push_addr(r, base, err) < 0)
            return -1;
    }
    return 0;
}

static void ws_classify_space(struct ws_traceg *r, struct ws_inst *in)
{
    const struct ws_launch *l = &r->launch;
    const char *op;
    size_t blen;

    switch (in->cls) {
    case WS_OPC_SHARED: in->space = WS_SPACE_SHARED; return;
    case WS_OPC_LOCAL: in->space = WS_SPACE_LOCAL; return;
    case WS_OPC_CONST: in->space = WS_SPACE_CONST; return;
    case WS_OPC_TEX: in->space = WS_SPACE_TEX; return;
    case WS_OPC_GLOBAL: break;
    default:
        in->space = in->width ? WS_SPACE_GLOBAL : WS_SPACE_NONE;
        return;
    }
    in->space = WS_SPACE_GLOBAL;
    op = ws_strtab_str(&r->ops, in->op);
    blen = ws_opcode_base_len(op);
    if (!((blen == 2 && (strncmp(op, "LD", 2) == 0 || strncmp(op, "ST", 2) == 0))
          || (blen == 4 && strncmp(op, "ATOM", 4) == 0)
          || (blen == 3 && strncmp(op, "RED", 3) == 0)))
        return;
    in->flags |= WS_INST_GENERIC;
    if (in->mask == 0 || in->width == 0)
        return;
    {
        uint64_t a = r->addrs[in->addr];
        uint64_t local_end = l->shmem_base > l->local_base
                             ? l->shmem_base : l->local_base + WS_TRACEG_SHARED_WINDOW;
        if (l->shmem_base && a >= l->shmem_base
            && a - l->shmem_base < WS_TRACEG_SHARED_WINDOW)
            in->space = WS_SPACE_SHARED;
        else if (l->local_base && a >= l->local_base && a < local_end)
            in->space = WS_SPACE_LOCAL;
    }
}

/* The trailing immediate.  Tracers print it as a C int ("%d") or as the
 * operand's 64-bit unsigned value, so anything from -2^63 to 2^64 - 1 is
 * accepted and its low 32 bits kept as a signed value, which is what the
 * "%d" tracers wrote and all that DEPBAR's count needs. */
static int ws_parse_imm(struct ws_traceg *r, struct ws_tokens *tk,
                        int32_t *imm, struct ws_err *err)
{
    struct ws_tok *t = ws_tok_next(r, tk, "immediate", err);
    uint64_t u = 0;
    int64_t v = 0;
    uint32_t lo;

    if (!t)
        return -1;
    if (t->s[0] == '-' ? ws_num_i64(t->s, t->len, &v) < 0
                       : ws_num_u64(t->s, t->len, &u) < 0)
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, t->col,
                         "bad immediate '%s' (expected a decimal number)",
                         t->s);
    if (t->s[0] == '-')
        u = (uint64_t)v;
    lo = (uint32_t)u;
    *imm = lo <= INT32_MAX ? (int32_t)lo : -(int32_t)(UINT32_MAX - lo) - 1;
    return 0;
}

int ws_traceg_parse_inst(struct ws_traceg *r, char *line, uint32_t warp,
                         struct ws_inst *in, struct ws_err *err)
{
    struct ws_tokens tk;
    uint64_t pc, mask;
    uint32_t width, v;

    memset(in, 0, sizeof *in);
    if (ws_tokenize(r, &tk, line, err) < 0)
        return -1;
    if (r->launch.trace_version < 3) {
        const char *what[4] = {"block x", "block y", "block z", "warp id"};
        uint32_t want[4] = {r->cta.ctaid[0], r->cta.ctaid[1], r->cta.ctaid[2],
                            warp};
        for (int k = 0; k < 4; k++) {
            if (ws_tok_dec32(r, &tk, what[k], &v, err) < 0)
                return -1;
            if (v != want[k])
                return ws_err_at(err, ws_traceg_name(r), r->lines.lineno,
                                 tk.t[tk.i - 1].col, "%s %u disagrees with "
                                 "the enclosing block (expected %u)", what[k],
                                 v, want[k]);
        }
    }
    if (r->launch.lineinfo && ws_tok_dec32(r, &tk, "source line", &v, err) < 0)
        return -1;
    if (ws_tok_hex(r, &tk, "PC", &pc, err) < 0)
        return -1;
    if (pc > UINT32_MAX)
        return ws_traceg_fail(r, err, tk.t[tk.i - 1].col, "PC out of range",
                              "a function offset below 4 GiB");
    in->pc = (uint32_t)pc;
    if (ws_tok_hex(r, &tk, "active mask", &mask, err) < 0)
        return -1;
    if (tk.t[tk.i - 1].len > 10 || mask > UINT32_MAX)
        return ws_traceg_fail(r, err, tk.t[tk.i - 1].col, "active mask wider "
                              "than a warp", "8 hexadecimal digits");
    in->mask = (uint32_t)mask;
    if (ws_parse_regs(r, &tk, in->dst, &in->ndst, WS_INST_MAX_DST,
                      "destination registers", err) < 0
        || ws_parse_opcode(r, &tk, in, err) < 0
        || ws_parse_regs(r, &tk, in->src, &in->nsrc, WS_INST_MAX_SRC,
                         "source registers", err) < 0
        || ws_tok_dec32(r, &tk, "memory width", &width, err) < 0)
        return -1;
    if (width > 0) {
        if (width > 64)
            return ws_traceg_fail(r, err, tk.t[tk.i - 1].col, "memory width "
                                  "out of range", "0 to 16 bytes per lane");
        in->width = (uint8_t)ws_opcode_width(ws_strtab_str(&r->ops, in->op));
        if (ws_parse_addrs(r, &tk, in, err) < 0)
            return -1;
    }
    ws_classify_space(r, in);
    ws_widen_dst(r, in);
    if (tk.i < tk.n && r->launch.trace_version >= 4
        && ws_parse_imm(r, &tk, &in->imm, err) < 0)
        return -1;
    if (tk.i < tk.n)
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno,
                         tk.t[tk.i].col, "unexpected '%s' after the "
                         "instruction (expected the end of the line; as many "
                         "addresses as active lanes)", tk.t[tk.i].s);
    return 0;
}

