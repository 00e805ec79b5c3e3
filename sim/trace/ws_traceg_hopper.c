/*
 * ws_traceg_hopper: the fields Accel-Sim 2.0 (trace version 6, the Hopper
 * release) added to an instruction line, read the way its parser reads
 * them (accel-sim/accel-sim-framework, PR #553:
 * gpu-simulator/trace-parser/trace_parser.cc, inst_trace_t::
 * parse_from_string; the SYNCS operands as trace_driven.cc's
 * parseSASSInstruction takes them):
 *
 *   ... OPCODE nsrc [Rs..] [commit]      commit: any GMMA opcode, 0 or 1
 *   width TMA-block | width [mode addresses]
 *   [imm [imm2]] [Val values | NoVal]
 *
 *   TMA-block (UTMALDG UTMASTG UTMAPF UTMAREDG UBLKCP UBLKPF UBLKRED):
 *     mbar(hex) multicast(0|1) [cta_mask(hex)] bytes oob_bytes mode
 *     mode 3: count addr(hex) * count
 *     mode 4: base(hex) count delta(dec) * (count - 1)
 *   values, one group per listed destination then source register:
 *     1 value(hex)  (uniform)  |  32 value(hex) * 32  (per lane)
 *
 * A GMMA's commit flag is checked and dropped: the timing model closes a
 * commit group at WARPGROUP.ARRIVE / WARPGROUP.DEPBAR (timing/ws_async.h),
 * because a trace made from a listing has no flag, and both kinds of input
 * must time alike.
 *
 * A TMA's transfers become the box every other input gives
 * (trace/ws_async_op.h), so the rest of warpsim sees one form: the
 * addresses, sorted, must be rows of one size at one pitch (row bytes =
 * bytes / count when that divides, else the pitch), optionally repeated
 * as planes at one plane pitch; contiguous rows are joined into rows of up
 * to 4 KiB.  The mbarrier's 32-bit shared address, and the SYNCS lanes'
 * addresses below 4 GiB, take the high half of the launch's shared base,
 * so that the two name one barrier whichever form the tracer wrote.
 *
 * Register values set the immediate the timing model reads: SYNCS.EXCH
 * (mbarrier.init) the arrival count from the second source, which holds
 * (0x100000 - count) << 1 in its low word; SYNCS.ARRIVE...TRANS64 with a
 * byte register (plain, .RED, .A0TR, .A1TR) its expected bytes; PHASECHK
 * 2 | parity.  Without values the immediate stays as traced and a wait is
 * replayed as recorded.
 *
 * Spin loops (tracer SPINLOCK_HANDLING_MODE=2) come between the
 * pseudo-instructions REPLAY_START and REPLAY_END, written as a line of
 * their own or as the opcode of a line; they are never instructions.
 * Inside, a loop's iterations are told apart by its head (the first PC)
 * coming round again.  When a wait of the first iteration has its parity,
 * the simulator times that wait itself, so the later iterations (until
 * REPLAY_END, or a PC outside the first iteration's range) are dropped;
 * otherwise every line is kept and the loop is replayed as recorded.
 *
 * Leaves out: imm2 (checked, not kept), per-lane differences
 * in a register value (the first active lane's is used), BAR's values.
 */
#include "ws_traceg_internal.h"

#include <stdlib.h>
#include <string.h>

#include "util/ws_u64set.h"
#include "ws_async_op.h"

/* A box row may be at most 256 elements of 16 bytes (ws_box_unpack). */
#define WS_TMA_ROW_MAX 4096u

/* ---- GMMA ---------------------------------------------------------------- */

int ws_traceg_gmma_commit(struct ws_traceg *r, struct ws_cur *c,
                          struct ws_err *err)
{
    uint32_t v = 0;

    if (ws_field_dec32(r, c, "GMMA commit-group flag", &v, err) < 0)
        return -1;
    if (v > 1)
        return ws_traceg_cur_bad(r, c, "GMMA commit-group flag", "0 or 1", err);
    return 0;
}

/* ---- TMA: transfers to a box ------------------------------------------- */

/* Rows per plane: 1 + the index of the first gap that differs from the
 * first one (n when none does). */
static uint32_t ws_tma_run(const uint64_t *a, uint32_t n, uint64_t pitch)
{
    uint32_t i = 1;

    while (i + 1 < n && a[i + 1] - a[i] == pitch)
        i++;
    return i + 1 < n ? i + 1 : n;
}

/* Every plane the same rows as the first, one plane pitch apart. */
static int ws_tma_planes_match(const uint64_t *a, uint32_t n, uint32_t rows,
                               uint64_t pitch, uint64_t plane_pitch)
{
    for (uint32_t i = 1; i < n; i++) {
        uint64_t want = i % rows ? pitch : plane_pitch;
        uint64_t from = i % rows ? a[i - 1] : a[i - rows];
        if (a[i] - from != want)
            return 0;
    }
    return 1;
}

/* Re-cuts a plane that is one contiguous run (a single row, or rows at a
 * pitch of their size) into the widest rows of at most 4 KiB that divide
 * it: fewer, fuller line requests for the copy engine, the same bytes. */
static void ws_tma_join_rows(struct ws_box *b)
{
    uint64_t plane = (uint64_t)b->row_bytes * b->rows;
    uint32_t w = WS_TMA_ROW_MAX;

    if (b->rows > 1 && b->pitch != b->row_bytes)
        return;
    while (w > 1 && plane % w != 0)
        w--;
    b->row_bytes = w;
    b->rows = (uint32_t)(plane / w);
    b->pitch = w;
    if (b->rows == 1 && b->planes > 1) {
        b->rows = b->planes;
        b->pitch = b->plane_pitch;
        b->planes = 1;
        b->plane_pitch = 0;
    }
}

/* The box of n sorted transfer addresses moving bytes in all; -1 when
 * they are not rows at a constant pitch (in planes at a constant pitch). */
static int ws_tma_box(const uint64_t *a, uint32_t n, uint32_t bytes,
                      struct ws_box *b)
{
    uint64_t pitch = n > 1 ? a[1] - a[0] : 0, row;
    uint32_t rows;

    memset(b, 0, sizeof *b);
    if (n > 1 && pitch == 0)
        return -1;
    rows = n > 1 ? ws_tma_run(a, n, pitch) : 1;
    row = bytes % n == 0 && bytes ? bytes / n : pitch;
    if (row == 0 || (n > 1 && row > pitch) || n % rows != 0)
        return -1;
    b->base = a[0];
    b->row_bytes = (uint32_t)row;
    b->rows = rows;
    b->pitch = n > 1 ? pitch : row;
    b->planes = n / rows;
    if (b->planes > 1) {
        b->plane_pitch = a[rows] - a[0];
        if (b->plane_pitch < (rows - 1) * pitch + row
            || !ws_tma_planes_match(a, n, rows, pitch, b->plane_pitch))
            return -1;
    }
    ws_tma_join_rows(b);
    return 0;
}

/* The transfer addresses of modes 3 and 4 into the pool; *n their count. */
static int ws_tma_addrs(struct ws_traceg *r, struct ws_cur *c, uint32_t mode,
                        uint32_t *n, struct ws_err *err)
{
    uint64_t a = 0;
    int64_t step;

    if (mode == 4 && ws_field_hex(r, c, "TMA base address", &a, err) < 0)
        return -1;
    if (ws_field_dec32(r, c, "TMA transfer count", n, err) < 0)
        return -1;
    if (*n > WS_BOX_MAX_BYTES)
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, ws_cur_col(c),
                         "%u TMA transfers (expected at most %u, one box)", *n,
                         WS_BOX_MAX_BYTES);
    for (uint32_t k = 0; k < *n; k++) {
        if (mode == 3
            && ws_field_hex(r, c, "TMA transfer address", &a, err) < 0)
            return -1;
        if (mode == 4 && k > 0
            && (ws_traceg_field_signed(r, c, "TMA address delta", &step, err)
                    < 0
                || ws_traceg_step_addr(r, c, &a, step, k, err) < 0))
            return -1;
        if (ws_traceg_push_addr(r, a, err) < 0)
            return -1;
    }
    return 0;
}

/* A 32-bit shared address with the high half of the shared window's. */
static uint64_t ws_shared_generic(const struct ws_traceg *r, uint64_t a)
{
    if (r->launch.shmem_base == 0 || a > UINT32_MAX)
        return a;
    return (r->launch.shmem_base & ~(uint64_t)UINT32_MAX) | a;
}

/* The box words in place of the n transfers at in->addr. */
static int ws_tma_place(struct ws_traceg *r, long col, struct ws_inst *in,
                        uint32_t n, uint32_t bytes, const struct ws_box *head,
                        struct ws_err *err)
{
    uint64_t *a = r->addrs + in->addr;
    struct ws_box box, check, *b = &box;
    uint64_t words[WS_BOX_WORDS];

    ws_u64_sort(a, n);
    if (ws_tma_box(a, n, bytes, b) < 0)
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, col,
                         "TMA addresses that are not a box (expected rows "
                         "at a constant pitch)");
    b->mbar = head->mbar;
    b->multicast = head->multicast;
    b->fill = head->fill;
    ws_box_pack(b, words);
    if (ws_box_unpack(words, WS_BOX_MAX_BYTES, &check) < 0)
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, col,
                         "TMA box of %u rows of %u bytes in %u planes is "
                         "over the limits (expected at most %u bytes, rows "
                         "of at most %u bytes)",
                         b->rows, b->row_bytes, b->planes, WS_BOX_MAX_BYTES,
                         WS_TMA_ROW_MAX);
    while (r->naddr < (size_t)in->addr + WS_BOX_WORDS)
        if (ws_traceg_push_addr(r, 0, err) < 0)
            return -1;
    r->naddr = (size_t)in->addr + WS_BOX_WORDS;
    memcpy(r->addrs + in->addr, words, sizeof words);
    in->mask = WS_BOX_MASK;
    in->width = 4;
    return 0;
}

/* mbar multicast [cta_mask] bytes oob_bytes, into *b and *bytes. */
static int ws_tma_head(struct ws_traceg *r, struct ws_cur *c, struct ws_box *b,
                       uint32_t *bytes, struct ws_err *err)
{
    uint64_t mbar = 0, ctas = 0;
    uint32_t mc = 0, oob = 0;

    if (ws_field_hex(r, c, "TMA mbarrier address", &mbar, err) < 0
        || ws_field_dec32(r, c, "TMA multicast flag", &mc, err) < 0)
        return -1;
    if (mc > 1)
        return ws_traceg_cur_bad(r, c, "TMA multicast flag", "0 or 1", err);
    if (mc && ws_field_hex(r, c, "TMA multicast CTA mask", &ctas, err) < 0)
        return -1;
    if (ctas > 0xffff)
        return ws_traceg_cur_bad(r, c, "TMA multicast CTA mask",
                                 "at most 16 CTAs, 4 hexadecimal digits", err);
    if (ws_field_dec32(r, c, "TMA byte count", bytes, err) < 0
        || ws_field_dec32(r, c, "TMA out-of-bounds byte count", &oob, err) < 0)
        return -1;
    if (oob > WS_BOX_MAX_BYTES)
        return ws_traceg_cur_bad(r, c, "TMA out-of-bounds byte count",
                                 "at most a box's bytes", err);
    b->mbar = ws_shared_generic(r, mbar);
    b->multicast = (uint16_t)ctas;
    b->fill = oob;
    return 0;
}

int ws_traceg_tma_block(struct ws_traceg *r, struct ws_cur *c,
                        struct ws_inst *in, struct ws_err *err)
{
    struct ws_box head;
    uint32_t bytes = 0, mode = 0, n = 0;
    long col;

    memset(&head, 0, sizeof head);
    if (ws_tma_head(r, c, &head, &bytes, err) < 0
        || ws_field_dec32(r, c, "TMA address mode", &mode, err) < 0)
        return -1;
    if (mode != 3 && mode != 4)
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, ws_cur_col(c),
                         "unknown TMA address mode %u (expected 3, a list, "
                         "or 4, a base and deltas)",
                         mode);
    col = ws_cur_col(c);
    in->addr = (uint32_t)r->naddr;
    if (ws_tma_addrs(r, c, mode, &n, err) < 0)
        return -1;
    if (in->mask == 0 || n == 0) {
        /* Predicated off, or nothing to move: issued, no box. */
        r->naddr = in->addr;
        in->addr = 0; /* no access: as the text reader leaves it */
        in->mask = 0;
        in->width = 0;
        return 0;
    }
    return ws_tma_place(r, col, in, n, bytes, &head, err);
}

/* ---- register values and the immediates -------------------------------- */

/* One register's values: "1 v" or "32 v0 .. v31"; *v the first active
 * lane's (lane 0 when none is). */
static int ws_reg_values(struct ws_traceg *r, struct ws_cur *c, uint32_t mask,
                         uint64_t *v, struct ws_err *err)
{
    uint32_t n = 0;
    unsigned first = mask ? (unsigned)__builtin_ctz(mask) : 0;
    uint64_t x = 0;

    if (ws_field_dec32(r, c, "register value count", &n, err) < 0)
        return -1;
    if (n != 1 && n != 32)
        return ws_traceg_cur_bad(r, c, "register value count",
                                 "1 (one value) or 32 (one per lane)", err);
    for (uint32_t k = 0; k < n; k++) {
        if (ws_field_hex(r, c, "register value", &x, err) < 0)
            return -1;
        if (k == 0 || k == first)
            *v = x;
    }
    return 0;
}

static int ws_prefix(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

/* SYNCS.ARRIVE forms whose second source holds transaction bytes: the
 * plain expect_tx (TRANS64, TRANS64.RED) and .A0TR / .A1TR. */
static int ws_arrive_has_bytes(const char *op)
{
    const char *v = strstr(op + strlen("SYNCS.ARRIVE"), ".A");

    return !v || (v[2] != '\0' && v[3] == 'T' && v[4] == 'R');
}

/* The immediate an mbarrier instruction's register value gives. */
static int ws_syncs_imm(struct ws_traceg *r, long col, struct ws_inst *in,
                        uint64_t v, struct ws_err *err)
{
    const char *op = ws_strtab_str(&r->ops, in->op);
    uint32_t lo = (uint32_t)v, n;

    if (ws_prefix(op, "SYNCS.EXCH")) {
        n = 0x100000u - (lo >> 1);
        if (n == 0 || n >= 0x100000u)
            return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, col,
                             "SYNCS.EXCH count register 0x%llx holds no "
                             "arrival count (expected (0x100000 - count) "
                             "<< 1 in its low word, count 1 to 2^20 - 1)",
                             (unsigned long long)v);
        in->imm = (int32_t)n;
    } else if (ws_prefix(op, "SYNCS.ARRIVE") && ws_arrive_has_bytes(op))
        in->imm = lo > INT32_MAX ? INT32_MAX : (int32_t)lo;
    else if (ws_prefix(op, "SYNCS.PHASECHK")) {
        in->imm = 2 | (int32_t)(lo & 1u);
        r->parity_known = 1;
    }
    return 0;
}

/* "Val" and its groups; vals->src1 when the line lists a second source. */
static int ws_parse_vals(struct ws_traceg *r, struct ws_cur *c,
                         const struct ws_inst *in, unsigned ndst, unsigned nsrc,
                         struct ws_traceg_vals *vals, struct ws_err *err)
{
    uint64_t v = 0;

    for (unsigned i = 0; i < ndst + nsrc; i++) {
        if (ws_reg_values(r, c, in->mask, &v, err) < 0)
            return -1;
        if (i == ndst + 1) {
            vals->have = 1;
            vals->src1 = v;
        }
    }
    return 0;
}

/* SYNCS lanes' shared addresses in the form the TMA's mbarrier takes. */
static void ws_syncs_addrs(struct ws_traceg *r, const struct ws_inst *in)
{
    unsigned n = (unsigned)__builtin_popcount(in->mask);

    if (in->width == 0 || !ws_prefix(ws_strtab_str(&r->ops, in->op), "SYNCS."))
        return;
    for (unsigned k = 0; k < n; k++)
        r->addrs[in->addr + k] = ws_shared_generic(r, r->addrs[in->addr + k]);
}

static int ws_v6_unexpected(struct ws_traceg *r, const struct ws_cur *c,
                            struct ws_err *err)
{
    return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, ws_cur_col(c),
                     "unexpected '%.*s' after the instruction (expected "
                     "the immediates, then 'Val' and register values or "
                     "'NoVal', then the end of the line)",
                     (int)c->len, c->s);
}

static int ws_is_number(const struct ws_cur *c)
{
    return (c->s[0] >= '0' && c->s[0] <= '9') || c->s[0] == '-';
}

int ws_traceg_v6_tail(struct ws_traceg *r, struct ws_cur *c, struct ws_inst *in,
                      unsigned ndst, unsigned nsrc, struct ws_err *err)
{
    struct ws_traceg_vals vals = {0, 0};
    int32_t imm2 = 0;
    long col;

    ws_syncs_addrs(r, in);
    if (!ws_cur_take(c))
        return 0;
    if (ws_is_number(c)) {
        if (ws_traceg_parse_imm(r, c, &in->imm, err) < 0)
            return -1;
        if (!ws_cur_take(c))
            return 0;
        if (ws_is_number(c)) {
            if (ws_traceg_parse_imm(r, c, &imm2, err) < 0)
                return -1;
            if (!ws_cur_take(c))
                return 0;
        }
    }
    col = ws_cur_col(c);
    if (ws_cur_is(c, "Val", 3)) {
        if (ws_parse_vals(r, c, in, ndst, nsrc, &vals, err) < 0)
            return -1;
        if (vals.have && ws_syncs_imm(r, col, in, vals.src1, err) < 0)
            return -1;
    } else if (!ws_cur_is(c, "NoVal", 5))
        return ws_v6_unexpected(r, c, err);
    return ws_cur_take(c) ? ws_v6_unexpected(r, c, err) : 0;
}

/* ---- spin-loop markers ------------------------------------------------- */

static const char ws_replay_start[] = "REPLAY_START";
static const char ws_replay_end[] = "REPLAY_END";

void ws_traceg_replay_note(struct ws_traceg *r, uint32_t id, const char *s,
                           size_t len)
{
    if (len == sizeof ws_replay_start - 1
        && memcmp(s, ws_replay_start, len) == 0)
        r->replay_op[0] = id + 1;
    else if (len == sizeof ws_replay_end - 1
             && memcmp(s, ws_replay_end, len) == 0)
        r->replay_op[1] = id + 1;
}

static void ws_replay_open(struct ws_traceg *r, uint32_t warp)
{
    memset(&r->replay, 0, sizeof r->replay);
    r->replay.cta = r->ctas_read;
    r->replay.warp = warp;
    r->replay.active = 1;
}

int ws_traceg_replay_bare(struct ws_traceg *r, const char *line, size_t len,
                          uint32_t warp)
{
    size_t n = 0;

    while (n < len && line[n] != ' ' && line[n] != '\t')
        n++;
    for (size_t k = n; k < len; k++)
        if (line[k] != ' ' && line[k] != '\t')
            return 0; /* not bare: read as an instruction line */
    if (n == sizeof ws_replay_start - 1
        && memcmp(line, ws_replay_start, n) == 0) {
        ws_replay_open(r, warp);
        return 1;
    }
    if (n == sizeof ws_replay_end - 1 && memcmp(line, ws_replay_end, n) == 0) {
        r->replay.active = 0;
        return 1;
    }
    return 0;
}

/* Inside a region, before the loop's head comes round again. */
static int ws_replay_first(struct ws_traceg *r, const struct ws_inst *in)
{
    struct ws_traceg_replay *p = &r->replay;

    if (!p->started) {
        p->started = 1;
        p->first_pc = p->last_pc = in->pc;
    } else if (in->pc == p->first_pc) {
        /* The second iteration: dropped when the wait is re-timed, else
         * the loop is replayed as recorded and nothing more is decided. */
        if (p->known)
            return p->repeating = 1;
        p->active = 0;
        return 0;
    } else if (in->pc > p->last_pc)
        p->last_pc = in->pc;
    if (r->parity_known)
        p->known = 1;
    return 0;
}

int ws_traceg_replay_step(struct ws_traceg *r, uint32_t warp,
                          const struct ws_inst *in)
{
    struct ws_traceg_replay *p = &r->replay;

    if (in->op + 1 == r->replay_op[0]) {
        ws_replay_open(r, warp);
        return 1;
    }
    if (in->op + 1 == r->replay_op[1]) {
        p->active = 0;
        return 1;
    }
    if (!p->active)
        return 0;
    if (p->cta != r->ctas_read || p->warp != warp) {
        p->active = 0; /* the last warp's region was never closed */
        return 0;
    }
    if (!p->repeating)
        return ws_replay_first(r, in);
    if (in->pc >= p->first_pc && in->pc <= p->last_pc)
        return 1;
    p->active = 0; /* the loop was left without REPLAY_END */
    return 0;
}
