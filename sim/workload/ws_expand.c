/*
 * ws_expand: workload expansion (see ws_expand.h).
 */
#include "ws_expand.h"
#include "ws_expand_internal.h"

#include <stdlib.h>
#include <string.h>

#include "util/ws_bits.h"
#include "util/ws_clones.h"
#include "util/ws_clip.h"
#include "util/ws_grow.h"
#include "trace/ws_opcode.h"
#include "trace/ws_opinfo.h"
#include "ws_expr_internal.h"

/* ---- static instruction templates ------------------------------------ */

static void ws_tmpl_reg(struct ws_inst *t, int reg, int dst)
{
    if (reg < 0 || reg >= WS_REG_RZ)
        return;
    if (dst && t->ndst < WS_INST_MAX_DST)
        t->dst[t->ndst++] = (uint8_t)reg;
    else if (!dst && t->nsrc < WS_TRACE_LINE_MAX_SRC)
        t->src[t->nsrc++] = (uint8_t)reg;
}

static void ws_tmpl_operands(const struct ws_workload *w,
                             const struct ws_sass_inst *in, struct ws_inst *t,
                             const char *op)
{
    int writes = t->memop != WS_MEMOP_STORE && t->memop != WS_MEMOP_REDUCTION
                 && t->cls != WS_OPC_BRANCH && t->cls != WS_OPC_BARRIER
                 && t->cls != WS_OPC_EXIT;

    for (uint32_t k = 0; k < in->nopnd; k++) {
        const struct ws_opnd *o = &w->sass.opnds[in->opnd + k];
        if (o->kind == WS_OPND_REG && k == 0 && writes) {
            unsigned n = ws_opinfo_result_regs(op, t->cls, t->memop,
                                               ws_opcode_width(op));
            for (unsigned r = 0; r < n; r++)
                ws_tmpl_reg(t, o->reg + (int)r, 1);
        } else if (o->kind == WS_OPND_REG) {
            ws_tmpl_reg(t, o->reg, 0);
        } else if (o->kind == WS_OPND_MEM) {
            /* [R2.64] names R2 only, as NVBit's tracer records it: the
             * pair's high half comes from the same producer. */
            ws_tmpl_reg(t, o->reg, 0);
        } else if (o->kind == WS_OPND_IMM) {
            t->imm = (int32_t)o->value;
        }
    }
}

static int ws_tmpl_build(struct ws_expander *x, struct ws_err *err)
{
    const struct ws_workload *w = x->w;
    const struct ws_sass_func *f = w->func;

    for (uint32_t i = 0; i < f->ninst; i++) {
        const struct ws_sass_inst *in = &w->sass.insts[f->first + i];
        const char *op = ws_strtab_str(&w->sass.strs, in->op);
        struct ws_inst *t = &x->tmpl[i];
        memset(t, 0, sizeof *t);
        t->pc = in->pc;
        t->op = in->op;
        t->cls = in->cls;
        t->memop = in->memop;
        t->flags = (uint8_t)(ws_opcode_semantics(op)
                             | (in->known ? 0u : (unsigned)WS_INST_UNKNOWN));
        if (ws_workload_rule(w, WS_RULE_MEMORY, i) || ws_workload_tma(w, i)) {
            t->width = (uint8_t)ws_opcode_width(op);
            t->space = in->cls == WS_OPC_SHARED  ? WS_SPACE_SHARED
                       : in->cls == WS_OPC_LOCAL ? WS_SPACE_LOCAL
                       : in->cls == WS_OPC_TEX   ? WS_SPACE_TEX
                                                 : WS_SPACE_GLOBAL;
        } else if (in->cls == WS_OPC_CONST) {
            t->space = WS_SPACE_CONST;
        }
        ws_tmpl_operands(w, in, t, op);
        x->mem_off[i] = 0;
        for (uint32_t k = 0; k < in->nopnd; k++)
            if (w->sass.opnds[in->opnd + k].kind == WS_OPND_MEM)
                x->mem_off[i] = w->sass.opnds[in->opnd + k].value;
        x->target[i] = UINT32_MAX;
        for (uint32_t k = 0; ws_workload_is_jump(w, in) && k < in->nopnd; k++) {
            const struct ws_opnd *o = &w->sass.opnds[in->opnd + k];
            if (o->kind != WS_OPND_TARGET)
                continue;
            for (uint32_t j = 0; j < f->ninst; j++)
                if (w->sass.insts[f->first + j].pc == (uint64_t)o->value)
                    x->target[i] = j;
        }
        if (x->target[i] == UINT32_MAX && in->cls == WS_OPC_BRANCH
            && (strncmp(op, "BRX", 3) == 0 || strncmp(op, "JMX", 3) == 0
                || strncmp(op, "CALL", 4) == 0 || strncmp(op, "RET", 3) == 0))
            return ws_err_at(err, w->path, w->line, w->col,
                             "%s at offset "
                             "0x%04x is an indirect branch or call (expected "
                             "direct branches only)",
                             op, in->pc);
    }
    return 0;
}

/* What every lane of every warp sees alike, for folding into the lane
 * programs: parameters, buffers, the launch's sizes. */
static void ws_prog_consts(const struct ws_workload *w,
                           struct ws_expr_consts *c)
{
    uint32_t f = w->nparams;

    memset(c, 0, sizeof *c);
    for (uint32_t i = 0; i < w->nparams; i++) {
        c->known[i] = 1;
        c->value[i] = w->param_value[i];
    }
    for (int k = 0; k < 3; k++) {
        c->known[f + WS_SLOT_NTID_X + k] = c->known[f + WS_SLOT_NCTAID_X + k] =
            1;
        c->value[f + WS_SLOT_NTID_X + k] = w->launch.block[k];
        c->value[f + WS_SLOT_NCTAID_X + k] = w->launch.grid[k];
    }
    for (uint32_t b = 0; b < w->nbuffers; b++) {
        c->known[w->buffers[b].slot] = 1;
        c->value[w->buffers[b].slot] = (int64_t)w->buffers[b].base;
    }
}

/* Let i reads what its expression names and what the lets it names read. */
static void ws_prog_deps(struct ws_expander *x, uint32_t i)
{
    const struct ws_workload *w = x->w;
    const struct ws_expr *e = &w->lets[i];

    for (uint32_t pc = 0; pc < e->nops; pc++) {
        if (e->ops[pc].code != OP_VAR)
            continue;
        x->slot_lets[e->ops[pc].arg] |= 1u << i;
        for (uint32_t j = 0; j < i; j++)
            if (w->let_slot[j] == e->ops[pc].arg)
                for (uint32_t s = 0; s < WS_EXPR_MAX_NAMES; s++)
                    if (x->slot_lets[s] >> j & 1)
                        x->slot_lets[s] |= 1u << i;
    }
}

static int ws_reads(const struct ws_expr *e, int slot)
{
    for (uint32_t pc = 0; pc < e->nops; pc++)
        if (e->ops[pc].code == OP_VAR && e->ops[pc].arg == slot)
            return 1;
    return 0;
}

/* A let whose program folded to a literal is known to the lets and rules
 * after it. */
static int ws_prog_build(struct ws_expander *x, struct ws_err *err)
{
    const struct ws_workload *w = x->w;
    int off = (int)w->nparams + WS_SLOT_OFF;
    struct ws_expr_consts c;

    ws_prog_consts(w, &c);
    for (uint32_t i = 0; i < w->nlets; i++) {
        int slot = w->let_slot[i];
        if (ws_expr_lanes_build(&x->let_prog[i], &w->lets[i], &c, err) < 0)
            return -1;
        c.known[slot] = (uint8_t)ws_expr_lanes_const(&x->let_prog[i],
                                                     &c.value[slot]);
        ws_prog_deps(x, i);
        x->reads_off |= ws_reads(&w->lets[i], off);
    }
    for (uint32_t r = 0; r < w->nrules; r++) {
        if (ws_expr_lanes_build(&x->rule_prog[r], &w->rules[r].expr, &c, err)
            < 0)
            return -1;
        x->reads_off |= ws_reads(&w->rules[r].expr, off);
    }
    return 0;
}

int ws_expand_init(struct ws_expander *x, const struct ws_workload *w,
                   struct ws_err *err)
{
    memset(x, 0, sizeof *x);
    x->w = w;
    x->max_total = w->opts.max_insts;
    x->ctas = ws_launch_ctas(&w->launch);
    x->tmpl = calloc(w->func->ninst, sizeof *x->tmpl);
    x->target = calloc(w->func->ninst, sizeof *x->target);
    x->mem_off = calloc(w->func->ninst, sizeof *x->mem_off);
    x->rule_prog = calloc(w->nrules + 1, sizeof *x->rule_prog);
    if (!x->tmpl || !x->target || !x->mem_off || !x->rule_prog) {
        ws_expand_free(x);
        return ws_err_oom(err);
    }
    if (ws_sass_ctrl_table(&w->sass, w->func, &x->ctrl) < 0) {
        ws_expand_free(x);
        return ws_err_oom(err);
    }
    if (ws_tmpl_build(x, err) < 0 || ws_prog_build(x, err) < 0) {
        ws_expand_free(x);
        return -1;
    }
    return 0;
}

void ws_expand_free(struct ws_expander *x)
{
    ws_expand_stream_free(x);
    if (x->main)
        return; /* a part's copy: ws_expand_stream_free took all it owns */
    for (uint32_t i = 0; x->w && i < x->w->nlets; i++)
        ws_expr_lanes_free(&x->let_prog[i]);
    for (uint32_t r = 0; x->w && x->rule_prog && r < x->w->nrules; r++)
        ws_expr_lanes_free(&x->rule_prog[r]);
    free(x->rule_prog);
    free(x->tmpl);
    free(x->target);
    free(x->mem_off);
    free(x->inst);
    free(x->addrs);
    ws_ctrl_table_free(&x->ctrl);
    memset(x, 0, sizeof *x);
}

/* ---- per-lane values ----------------------------------------------------- */

/* A new warp: its lanes' coordinates, the counters and the memory offset
 * at zero, every let out of date.  (The offset once carried over from the
 * warp expanded before; a warp's expansion now depends on that warp alone,
 * so warps can be expanded in any order: streamed, as the simulator
 * reaches them.) */
/* The slots no walk writes and no warp changes: parameters, buffers, the
 * launch's sizes and the lane number, set once per expander. */
static void ws_expand_consts(struct ws_expander *x)
{
    const struct ws_workload *w = x->w;
    const struct ws_launch *l = &w->launch;
    uint32_t f = w->nparams;

    for (uint32_t lane = 0; lane < WS_EXPR_LANES; lane++) {
        for (uint32_t p = 0; p < w->nparams; p++)
            x->vals[p][lane] = w->param_value[p];
        for (int k = 0; k < 3; k++) {
            x->vals[f + WS_SLOT_NTID_X + k][lane] = l->block[k];
            x->vals[f + WS_SLOT_NCTAID_X + k][lane] = l->grid[k];
        }
        x->vals[f + WS_SLOT_LANE][lane] = lane;
        for (uint32_t b = 0; b < w->nbuffers; b++)
            x->vals[w->buffers[b].slot][lane] = (int64_t)w->buffers[b].base;
    }
    x->consts_set = 1;
}

void ws_expand_warp_coords(struct ws_expander *x, uint32_t warp,
                           const uint32_t ctaid[3])
{
    const struct ws_workload *w = x->w;
    const struct ws_launch *l = &w->launch;
    uint32_t f = w->nparams;
    /* The first lane's coordinates by division, the others by counting
     * on: a switch of streamed warps comes with every window, and 96
     * divisions there cost more than the rest of the switch. */
    uint32_t tx = warp * 32 % l->block[0];
    uint32_t ty = warp * 32 / l->block[0] % l->block[1];
    uint32_t tz = warp * 32 / l->block[0] / l->block[1];

    if (!x->consts_set)
        ws_expand_consts(x);
    for (uint32_t lane = 0; lane < WS_EXPR_LANES; lane++) {
        x->vals[f + WS_SLOT_TID_X][lane] = tx;
        x->vals[f + WS_SLOT_TID_Y][lane] = ty;
        x->vals[f + WS_SLOT_TID_Z][lane] = tz;
        if (++tx == l->block[0]) {
            tx = 0;
            if (++ty == l->block[1]) {
                ty = 0;
                tz++;
            }
        }
        for (int k = 0; k < 3; k++)
            x->vals[f + WS_SLOT_CTAID_X + k][lane] = ctaid[k];
        x->vals[f + WS_SLOT_WARP][lane] = warp;
    }
}

void ws_expand_warp_init(struct ws_expander *x, uint32_t warp,
                         const uint32_t ctaid[3])
{
    const struct ws_workload *w = x->w;

    ws_expand_warp_coords(x, warp, ctaid);
    for (uint32_t c = 0; c < w->ncounters; c++)
        memset(x->vals[w->counters[c]], 0, sizeof x->vals[0]);
    memset(x->vals[w->nparams + WS_SLOT_OFF], 0, sizeof x->vals[0]);
    memset(x->let_valid, 0, sizeof x->let_valid);
}

/* A slot changed for some lanes: the lets that read it are out of date
 * there. */
void ws_expand_lets_stale(struct ws_expander *x, int slot, uint32_t lanes)
{
    for (uint32_t m = x->slot_lets[slot]; m; m &= m - 1)
        x->let_valid[__builtin_ctz(m)] &= ~lanes;
}

/* Brings the lets up to date for the lanes given, evaluating a let only
 * for the lanes whose inputs moved; returns the lanes for which one of
 * them faults.  All lets, not only those the rule reads: a lane evaluated
 * alone evaluates them all, and a let that faults is an error there. */
static uint32_t ws_lets_update(struct ws_expander *x, uint32_t lanes)
{
    const struct ws_workload *w = x->w;
    uint32_t bad = 0;

    for (uint32_t i = 0; i < w->nlets; i++) {
        uint32_t stale = lanes & ~x->let_valid[i];
        if (stale) {
            uint32_t f = ws_expr_lanes_eval(&x->let_prog[i], x->vals[0], stale,
                                            x->vals[w->let_slot[i]]);
            x->let_bad[i] = (x->let_bad[i] & ~stale) | f;
            x->let_valid[i] |= stale;
        }
        bad |= x->let_bad[i] & lanes;
    }
    return bad;
}

/* A rule's expression for the lanes given, into v; returns the lanes for
 * which it, or a let, faults (their v is meaningless). */
uint32_t ws_expand_rule_lanes(struct ws_expander *x, const struct ws_wl_rule *r,
                              uint32_t lanes, int64_t *v)
{
    uint32_t bad = ws_lets_update(x, lanes);

    return bad
           | ws_expr_lanes_eval(&x->rule_prog[r - x->w->rules], x->vals[0],
                                lanes, v);
}

/* Evaluates a rule's expression for one lane with the scalar interpreter,
 * lets first, for the message of a fault the lane programs found. */
static int ws_lane_eval(struct ws_expander *x, uint32_t lane,
                        const struct ws_expr *e, int64_t *out,
                        struct ws_err *err)
{
    const struct ws_workload *w = x->w;
    int64_t v[WS_EXPR_MAX_NAMES];

    for (uint32_t s = 0; s < w->names.n; s++)
        v[s] = x->vals[s][lane];
    for (uint32_t i = 0; i < w->nlets; i++)
        if (ws_expr_eval(&w->lets[i], v, &v[w->let_slot[i]], err) < 0)
            return -1;
    return ws_expr_eval(e, v, out, err);
}

/* Called for each lane in turn, lowest first: a lane the lane programs
 * found faulting is evaluated alone, which fails with the message, so the
 * error is the lowest failing lane's whether it faults or fails a check. */
int ws_expand_lane_check(struct ws_expander *x, uint32_t bad, uint32_t lane,
                         const struct ws_expr *e, int64_t *v,
                         struct ws_err *err)
{
    return bad >> lane & 1 ? ws_lane_eval(x, lane, e, v, err) : 0;
}

/* Lanes of `lanes` for which e is non-zero. */
static int ws_lane_mask(struct ws_expander *x, uint32_t lanes,
                        const struct ws_wl_rule *r, uint32_t *out,
                        struct ws_err *err)
{
    int64_t v[WS_EXPR_LANES];
    uint32_t bad = ws_expand_rule_lanes(x, r, lanes, v);

    *out = 0;
    for (uint32_t m = lanes; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m);
        if (ws_expand_lane_check(x, bad, l, &r->expr, &v[l], err) < 0)
            return -1;
        if (v[l])
            *out |= 1u << l;
    }
    return 0;
}

/* ---- emission ------------------------------------------------------------ */

/* The first bytes an access of t starting at a may have and stay inside
 * the buffer (or the shared allocation) that holds a: [*lo, *lo + *span].
 * 0 when no buffer holds it. */
static int ws_region(const struct ws_workload *w, const struct ws_inst *t,
                     int64_t a, uint64_t *lo, uint64_t *span)
{
    uint64_t u = (uint64_t)a, width = t->width ? t->width : 1;

    if (a < 0)
        return 0;
    if (t->space == WS_SPACE_SHARED) {
        const uint32_t *d = w->launch.cluster;
        /* A cluster-scope address: the rank in bits 24..31 (MAPA), the
         * offset in that CTA's allocation below. */
        uint64_t rank = u >> 24;
        if (rank && d[0] && rank < (uint64_t)d[0] * d[1] * d[2]) {
            *lo = rank << 24;
            *span = w->launch.shmem - width;
            return (u & 0xffffff) + width <= w->launch.shmem;
        }
        *lo = 0;
        *span = w->launch.shmem - width;
        return u + width <= w->launch.shmem;
    }
    for (uint32_t b = 0; b < w->nbuffers; b++)
        if (u >= w->buffers[b].base
            && u + width <= w->buffers[b].base + w->buffers[b].size) {
            *lo = w->buffers[b].base;
            *span = w->buffers[b].size - width;
            return 1;
        }
    return 0;
}

static int ws_addr_fail(struct ws_expander *x, const struct ws_wl_rule *r,
                        const struct ws_inst *in, uint32_t lane, int64_t a,
                        struct ws_err *err)
{
    return ws_err_at(err, r->expr.file, r->expr.line, r->expr.col,
                     "address "
                     "%lld of lane %u of warp %lld, CTA (%u,%u,%u) lies "
                     "outside every declared %s (expected an address inside "
                     "one of the workload's buffers)",
                     (long long)a, lane,
                     (long long)x->vals[x->w->nparams + WS_SLOT_WARP][lane],
                     x->cta.ctaid[0], x->cta.ctaid[1], x->cta.ctaid[2],
                     in->space == WS_SPACE_SHARED ? "shared allocation"
                                                  : "buffer");
}

/* Whether all 32 lanes' addresses lie in [lo, lo + span]: tested at once,
 * a fixed count the compiler makes vector code of, for a full warp. */
WS_CLONES static int ws_lanes_inside(const int64_t *a, uint64_t lo,
                                     uint64_t span)
{
    uint64_t outside = 0;

    for (uint32_t l = 0; l < WS_EXPR_LANES; l++)
        outside |= (uint64_t)a[l] - lo > span;
    return outside == 0;
}

/* A lane whose address lies in the region the last one hit needs no
 * search: a warp's lanes mostly touch one buffer, and a full warp's lanes
 * that all do are checked in one go.  The offset is stored only when an
 * expression reads it. */
static int ws_emit_addrs(struct ws_expander *x, uint32_t idx, uint32_t mask,
                         struct ws_inst *in, struct ws_err *err)
{
    const struct ws_wl_rule *r = ws_workload_rule(x->w, WS_RULE_MEMORY, idx);
    size_t n = (size_t)ws_popcount32(mask);
    int off = (int)x->w->nparams + WS_SLOT_OFF;
    uint64_t lo = 0, span = 0, *out;
    int64_t a[WS_EXPR_LANES];
    uint32_t bad;
    int hit = 0; /* [lo, lo + span] is a region */

    in->addr = (uint32_t)x->naddr;
    if (x->naddr + n > x->addr_cap
        && ws_grow((void **)&x->addrs, &x->addr_cap, x->naddr + n,
                   sizeof *x->addrs, 4096)
               < 0)
        return ws_err_oom(err);
    for (uint32_t m = x->reads_off ? mask : 0; m; m &= m - 1)
        x->vals[off][__builtin_ctz(m)] = x->mem_off[idx];
    ws_expand_lets_stale(x, off, mask);
    bad = ws_expand_rule_lanes(x, r, mask, a);
    out = x->addrs + x->naddr;
    if (mask == UINT32_MAX && !bad) {
        if (!ws_region(x->w, in, a[0], &lo, &span))
            return ws_addr_fail(x, r, in, 0, a[0], err);
        hit = 1;
        if (ws_lanes_inside(a, lo, span)) {
            memcpy(out, a, sizeof a);
            x->naddr += n;
            return 0;
        }
    }
    for (uint32_t m = mask; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m);
        if (bad && ws_expand_lane_check(x, bad, l, &r->expr, &a[l], err) < 0)
            return -1;
        if (!hit || (uint64_t)a[l] - lo > span) {
            if (!ws_region(x->w, in, a[l], &lo, &span))
                return ws_addr_fail(x, r, in, l, a[l], err);
            hit = 1;
        }
        *out++ = (uint64_t)a[l];
    }
    x->naddr += n;
    return 0;
}

static int ws_emit(struct ws_expander *x, uint32_t idx, uint32_t mask,
                   struct ws_err *err)
{
    struct ws_inst *in;

    /* The test saves a call per instruction; ws_grow makes it again. */
    if (x->ninst == x->inst_cap
        && ws_grow((void **)&x->inst, &x->inst_cap, x->ninst + 1,
                   sizeof *x->inst, 4096)
               < 0)
        return ws_err_oom(err);
    in = &x->inst[x->ninst++];
    x->total++;
    *in = x->tmpl[idx];
    in->mask = mask;
    if (!mask)
        return 0;
    if (x->w->tma_of[idx] >= 0)
        return ws_expand_box(x, idx, in, err);
    if (in->width && ws_emit_addrs(x, idx, mask, in, err) < 0)
        return -1;
    if (ws_workload_rule(x->w, WS_RULE_IMM, idx))
        return ws_expand_imm(x, idx, in, err);
    return 0;
}

/* ---- the walk of one warp ------------------------------------------------ */

void ws_paths_add(struct ws_paths *ps, uint32_t idx, uint32_t mask)
{
    if (!mask)
        return;
    for (uint32_t i = 0; i < ps->n; i++)
        if (ps->p[i].idx == idx) {
            ps->p[i].mask |= mask;
            return;
        }
    ps->p[ps->n].idx = idx;
    ps->p[ps->n].mask = mask;
    ps->n++;
}

/* Removes and returns the path at the lowest offset. */
static struct ws_path ws_paths_take(struct ws_paths *ps)
{
    uint32_t best = 0;
    struct ws_path p;

    for (uint32_t i = 1; i < ps->n; i++)
        if (ps->p[i].idx < ps->p[best].idx)
            best = i;
    p = ps->p[best];
    ps->p[best] = ps->p[--ps->n];
    return p;
}

/* A loop's closing branch for a whole warp whose lanes agree on their
 * trip count and counter (a uniform loop: nearly every loop, nearly
 * always), taken or left by all of them at once.  Whether they agree is
 * one pass of xors and ors over the 32 lanes, which the compiler
 * vectorises; a lane loop with branches was a tenth of a long FMA loop's
 * expansion.  0 when they do not agree, or some lane is inactive, faulted
 * or counts fewer than 1 trip: the lane by lane path, which names it. */
static int ws_loop_uniform(uint32_t exec, uint32_t bad, const int64_t *trips,
                           int64_t *k, uint32_t *cond)
{
    uint64_t differ = 0;
    int64_t next;

    if (exec != 0xffffffffu || bad || trips[0] < 1)
        return 0;
    for (uint32_t l = 0; l < WS_EXPR_LANES; l++)
        differ |= (uint64_t)(trips[l] ^ trips[0]) | (uint64_t)(k[l] ^ k[0]);
    if (differ)
        return 0;
    next = k[0] + 1 < trips[0] ? k[0] + 1 : 0;
    for (uint32_t l = 0; l < WS_EXPR_LANES; l++)
        k[l] = next;
    *cond = next ? exec : 0;
    return 1;
}

/* A loop's closing branch: taken by the lanes whose counter + 1 is below
 * their trip count, which advance their counter; the others leave the loop
 * and reset it. */
static int ws_loop(struct ws_expander *x, const struct ws_wl_rule *r,
                   uint32_t exec, uint32_t *cond, struct ws_err *err)
{
    int64_t trips[WS_EXPR_LANES], *k = x->vals[r->counter];
    uint32_t bad = ws_expand_rule_lanes(x, r, exec, trips);

    *cond = 0;
    if (ws_loop_uniform(exec, bad, trips, k, cond)) {
        ws_expand_lets_stale(x, r->counter, exec);
        return 0;
    }
    for (uint32_t m = exec; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m);
        if (ws_expand_lane_check(x, bad, l, &r->expr, &trips[l], err) < 0)
            return -1;
        if (trips[l] < 1)
            return ws_err_at(err, r->expr.file, r->expr.line, r->expr.col,
                             "loop trip count of %lld for lane %u of warp "
                             "%lld, CTA (%u,%u,%u) (expected at least 1: the "
                             "body has run once when its closing branch is "
                             "reached)",
                             (long long)trips[l], l,
                             (long long)
                                 x->vals[x->w->nparams + WS_SLOT_WARP][l],
                             x->cta.ctaid[0], x->cta.ctaid[1], x->cta.ctaid[2]);
        if (k[l] + 1 < trips[l]) {
            *cond |= 1u << l;
            ++k[l];
        } else {
            k[l] = 0;
        }
    }
    ws_expand_lets_stale(x, r->counter, exec);
    return 0;
}

/* The lanes of exec for which a guarded instruction's predicate holds;
 * for a loop branch also advances or resets the lanes' counters. */
static int ws_predicate(struct ws_expander *x, uint32_t idx, uint32_t exec,
                        uint32_t *cond, struct ws_err *err)
{
    const struct ws_workload *w = x->w;
    const struct ws_sass_inst *in = &w->sass.insts[w->func->first + idx];
    const struct ws_wl_rule *r;

    *cond = exec;
    if (in->guard == 7)
        *cond = in->guard_neg ? 0 : exec;
    else if ((r = ws_workload_rule(w, WS_RULE_WHEN, idx)))
        return ws_lane_mask(x, exec, r, cond, err);
    else if ((r = ws_workload_rule(w, WS_RULE_LOOP, idx)))
        return ws_loop(x, r, exec, cond, err);
    /* Any other guard predicates data only: taken as true for all lanes,
     * so the instruction runs with the warp's mask. */
    return 0;
}

/* One CTA's streams are held whole (the simulator takes a CTA at a time),
 * so its size is memory: the instruction limits alone allow a CTA of 32
 * warps of 2^24 instructions, 20 GB.  The bound also keeps its instruction
 * and address counts within the 32 bits of struct ws_cta_stream. */
#define WS_EXPAND_MAX_CTA_BYTES (UINT64_C(2) << 30)

/* Before one more instruction of a warp that has run n: the per-warp and
 * per-kernel limits, and the size of the CTA's streams. */
static int ws_expand_limits(struct ws_expander *x, uint32_t warp, size_t n,
                            struct ws_err *err)
{
    const struct ws_workload *w = x->w;
    uint64_t per_warp = w->opts.max_warp_insts;

    if (n >= per_warp)
        return ws_err_at(err, w->path, w->line, w->col,
                         "warp %u of CTA "
                         "(%u,%u,%u) ran past %llu instructions, the per-warp "
                         "limit (expected fewer; raise it with "
                         "--max-warp-insts N)",
                         warp, x->cta.ctaid[0], x->cta.ctaid[1],
                         x->cta.ctaid[2], (unsigned long long)per_warp);
    if (x->total >= x->max_total)
        return ws_expand_over_total(x, err);
    if (x->ninst * sizeof *x->inst + x->naddr * sizeof *x->addrs
        > WS_EXPAND_MAX_CTA_BYTES)
        return ws_err_at(err, w->path, w->line, w->col,
                         "CTA (%u,%u,%u) "
                         "expands to more than %llu MiB of instructions and "
                         "addresses (expected less per CTA: fewer loop trips "
                         "or threads per block, or a lower --max-warp-insts)",
                         x->cta.ctaid[0], x->cta.ctaid[1], x->cta.ctaid[2],
                         (unsigned long long)(WS_EXPAND_MAX_CTA_BYTES >> 20));
    return 0;
}

int ws_expand_over_total(const struct ws_expander *x, struct ws_err *err)
{
    const struct ws_workload *w = x->w;
    struct ws_clip q;

    return ws_err_at(err, w->path, w->line, w->col,
                     "kernel %s ran past "
                     "%llu warp instructions, the limit (expected fewer; "
                     "raise it with --max-insts N)",
                     ws_clip(&q, w->func->name),
                     (unsigned long long)w->opts.max_insts);
}

int ws_expand_walk(struct ws_expander *x, uint32_t warp, struct ws_paths *ps,
                   uint64_t *count, size_t inst_cap, size_t addr_cap,
                   struct ws_err *err)
{
    const struct ws_workload *w = x->w;
    const struct ws_sass_func *f = w->func;
    struct ws_clip q;

    while (ps->n > 0 && x->ninst < inst_cap
           && x->naddr + WS_WARP_SIZE <= addr_cap) {
        struct ws_path p = ws_paths_take(ps);
        const struct ws_inst *t;
        uint32_t cond;
        if (p.idx >= f->ninst)
            return ws_err_at(err, w->path, w->line, w->col,
                             "warp %u runs "
                             "past the end of %s (expected an EXIT on every "
                             "path)",
                             warp, ws_clip(&q, f->name));
        if (ws_expand_limits(x, warp, *count, err) < 0)
            return -1;
        t = &x->tmpl[p.idx];
        if (ws_predicate(x, p.idx, p.mask, &cond, err) < 0
            || ws_emit(x, p.idx, cond, err) < 0)
            return -1;
        ++*count;
        if (t->cls == WS_OPC_EXIT) {
            ws_paths_add(ps, p.idx + 1, p.mask & ~cond);
        } else if (x->target[p.idx] != UINT32_MAX) {
            ws_paths_add(ps, x->target[p.idx], cond);
            ws_paths_add(ps, p.idx + 1, p.mask & ~cond);
        } else {
            ws_paths_add(ps, p.idx + 1, p.mask);
        }
    }
    return 0;
}

/* A whole warp, into the CTA's buffers. */
static int ws_expand_warp(struct ws_expander *x, uint32_t warp, uint32_t lanes,
                          struct ws_err *err)
{
    struct ws_paths ps = {{{0, 0}}, 0};
    uint64_t count = 0;

    ws_paths_add(&ps, 0, lanes);
    return ws_expand_walk(x, warp, &ps, &count, SIZE_MAX, SIZE_MAX, err);
}

/* ---- CTAs ---------------------------------------------------------------- */

/* The kernel's size from its first CTA times the grid: a --param typo that
 * asks for 10^10 warp instructions is refused at once, not after the ten
 * minutes it takes to reach the limit.  Later CTAs may be smaller (a
 * partial last block, a divergent tail), so this can only overestimate
 * kernels whose first CTA is typical; the message says it is an estimate
 * and how to raise the limit. */
int ws_expand_estimate(const struct ws_expander *x, uint64_t cta0,
                       struct ws_err *err)
{
    const struct ws_workload *w = x->w;
    double est = (double)cta0 * (double)x->ctas;
    struct ws_clip q;

    if (est <= (double)w->opts.max_insts)
        return 0;
    return ws_err_at(err, w->path, w->line, w->col,
                     "kernel %s: CTA (0,0,0) "
                     "runs %llu warp instructions, so %llu CTAs come to about "
                     "%.3g (estimated from the first CTA), over the limit of "
                     "%llu (expected fewer; raise it with --max-insts N)",
                     ws_clip(&q, w->func->name), (unsigned long long)cta0,
                     (unsigned long long)x->ctas, est,
                     (unsigned long long)w->opts.max_insts);
}

/* With clusters, CTAs go out cluster by cluster (the timing model places a
 * cluster's CTAs as they come, together), ranks x fastest within one, as
 * %cluster_ctarank counts them. */
static void ws_expand_cluster_cta(struct ws_expander *x, uint64_t id)
{
    const struct ws_launch *l = &x->w->launch;
    const uint32_t *d = l->cluster;
    uint32_t size = d[0] * d[1] * d[2], r = (uint32_t)(id % size);
    uint64_t q = id / size;
    uint32_t n[3] = {l->grid[0] / d[0], l->grid[1] / d[1], l->grid[2] / d[2]};

    x->cta.has_cluster = 1;
    x->cta.cluster_id[0] = (uint32_t)(q % n[0]);
    x->cta.cluster_id[1] = (uint32_t)(q / n[0] % n[1]);
    x->cta.cluster_id[2] = (uint32_t)(q / n[0] / n[1]);
    x->cta.cluster_cta[0] = r % d[0];
    x->cta.cluster_cta[1] = r / d[0] % d[1];
    x->cta.cluster_cta[2] = r / d[0] / d[1];
    x->cta.cluster_rank = r;
    for (int k = 0; k < 3; k++)
        x->cta.ctaid[k] = x->cta.cluster_id[k] * d[k] + x->cta.cluster_cta[k];
    x->cta.linear_id = ((uint64_t)x->cta.ctaid[2] * l->grid[1]
                        + x->cta.ctaid[1])
                           * l->grid[0]
                       + x->cta.ctaid[0];
}

int ws_expand_take_cta(struct ws_expander *x)
{
    const struct ws_launch *l = &x->w->launch;
    uint64_t id = x->next_cta;

    if (id >= x->ctas)
        return 0;
    x->next_cta++;
    x->cta.ctaid[0] = (uint32_t)(id % l->grid[0]);
    x->cta.ctaid[1] = (uint32_t)(id / l->grid[0] % l->grid[1]);
    x->cta.ctaid[2] = (uint32_t)(id / l->grid[0] / l->grid[1]);
    x->cta.linear_id = id;
    if (l->cluster[0])
        ws_expand_cluster_cta(x, id);
    x->cta.nwarps = ws_launch_warps_per_cta(l);
    x->cta.warps = x->warps;
    return 1;
}

int ws_expand_next(void *ctx, const struct ws_cta_stream **cta,
                   struct ws_err *err)
{
    struct ws_expander *x = ctx;
    uint32_t threads = ws_launch_threads(&x->w->launch), nw;

    if (!ws_expand_take_cta(x))
        return 0;
    nw = x->cta.nwarps;
    x->ninst = x->naddr = 0;
    for (uint32_t w = 0; w < nw; w++) {
        x->cur = NULL;
        ws_expand_warp_init(x, w, x->cta.ctaid);
        x->first[w] = x->ninst;
        if (ws_expand_warp(x, w, ws_expand_lanes(threads, w), err) < 0)
            return -1;
        x->warps[w].ninst = (uint32_t)(x->ninst - x->first[w]);
    }
    if (x->cta.linear_id == 0 && ws_expand_estimate(x, x->ninst, err) < 0)
        return -1;
    for (uint32_t w = 0; w < nw; w++)
        x->warps[w].inst = x->inst + x->first[w];
    x->cta.addrs = x->addrs;
    x->cta.ninst = (uint32_t)x->ninst;
    x->cta.naddrs = (uint32_t)x->naddr;
    *cta = &x->cta;
    return 1;
}

struct ws_cta_source ws_expand_source(struct ws_expander *x)
{
    struct ws_cta_source src;

    memset(&src, 0, sizeof src);
    src.origin = x->w->path;
    src.ctx = x;
    src.launch = &x->w->launch;
    src.ops = &x->w->sass.strs;
    src.next = ws_expand_next;
    src.next_header = ws_expand_next_header;
    src.warp_open = ws_expand_warp_open;
    src.set_parts = ws_expand_set_parts;
    src.ctrl = x->ctrl.complete ? &x->ctrl : NULL;
    src.no_clusters = x->w->launch.cluster[0] == 0; /* ws_expand_next */
    return src;
}
