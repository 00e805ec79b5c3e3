/*
 * ws_expr_lanes: expressions built for one launch and evaluated for the 32
 * lanes of a warp at once (see ws_expr.h).
 *
 * Building specialises: a name known for the whole launch becomes a
 * literal, an operation whose operands are all literals is folded (unless
 * it faults: then it stays, and faults when it runs, so the error is the
 * same), a ?: or && whose condition folded keeps only the arm taken, a
 * literal operand goes into its operation (one pass over the lanes instead
 * of two), and division or remainder by a positive power of two becomes a
 * shift.  Workloads
 * divide by parameters (a tile size, a row length) in their addresses, and
 * a 64-bit division costs as much as the rest of the expression.
 *
 * The interpreter runs each operation over all 32 lanes, so the dispatch
 * is paid once per operation rather than once per lane, in loops simple
 * enough for the compiler to vectorise, and it is built for AVX2 beside
 * the baseline ISA (ws_clones.h): a workload's addresses are most of its
 * expansion.  Lanes part at ?:, && and ||: the
 * lanes that jump are parked at the target (jumps only go forward) and
 * rejoin when the interpreter gets there; while some lanes are parked,
 * results are stored for the running lanes only, since a parked lane may
 * hold a value in the same stack slot.  Every operation is total: a lane
 * that faults gets some value and its bit in the result, nothing more.
 *
 * Leaves out: messages.  A faulting lane is evaluated again by ws_expr_eval,
 * which names the operator at fault: two sets of messages would drift.
 */
#include "ws_expr.h"
#include "ws_expr_internal.h"
#include "util/ws_clones.h"

#include <stdlib.h>
#include <string.h>

#define WS_LANES WS_EXPR_LANES

/* ---- building ------------------------------------------------------------ */

struct ws_lbuild {
    struct ws_expr_lanes *p;
    /* Per stack depth: the index in p->ops of the literal that pushed the
     * value there, or -1 when it is not known while building. */
    int32_t lit[WS_EXPR_STACK + 1];
    uint32_t *arrive; /* per operation of e: jumps emitted to it */
    int live;         /* lanes fall through to the next operation */
};

static void ws_lemit(struct ws_lbuild *b, uint8_t code, unsigned sp,
                     int64_t arg)
{
    struct ws_expr_lop *op = &b->p->ops[b->p->nops++];

    op->code = code;
    op->sp = (uint8_t)sp;
    op->arg = arg;
    if (code == OP_JZ || code == OP_JNZ || code == OP_JMP)
        b->arrive[arg]++;
    if (code == OP_JMP)
        b->live = 0;
}

/* The value at depth d, known, and pushed by the last n'th operation
 * emitted (n = 1: the last): only then can that literal be taken away. */
static int ws_lknown(const struct ws_lbuild *b, unsigned d, uint32_t n,
                     int64_t *v)
{
    int32_t at = b->lit[d];

    if (at < 0 || (uint32_t)at + n != b->p->nops)
        return 0;
    *v = b->p->ops[at].arg;
    return 1;
}

static int ws_pow2(int64_t v, int64_t *log)
{
    if (v <= 0 || (v & (v - 1)) != 0)
        return 0;
    *log = 63 - __builtin_clzll((uint64_t)v);
    return 1;
}

static int ws_commutes(uint8_t code)
{
    return code == OP_ADD || code == OP_MUL || code == OP_BAND || code == OP_BOR
           || code == OP_BXOR || code == OP_EQ || code == OP_NE
           || code == OP_MIN || code == OP_MAX;
}

/* Takes away the literal at q, under the operations emitted since, which
 * then run one stack slot lower.  No jump lands among them: a target
 * would have made the literal unknown. */
static int64_t ws_lunder(struct ws_lbuild *b, uint32_t q)
{
    struct ws_expr_lanes *p = b->p;
    /* q is a literal emitted earlier (b->lit[]); the analyser loses it.
     * NOLINTNEXTLINE(clang-analyzer-core.uninitialized.Assign) */
    int64_t v = p->ops[q].arg;

    memmove(&p->ops[q], &p->ops[q + 1], (p->nops - q - 1) * sizeof *p->ops);
    p->nops--;
    for (uint32_t i = q; i < p->nops; i++)
        p->ops[i].sp--;
    return v;
}

/* A binary operation at depth d (both operands on the stack).  A literal
 * operand goes into the operation, the left one only where the order
 * does not matter (the same result, the same faults). */
static void ws_lbinary(struct ws_lbuild *b, uint8_t code, unsigned d)
{
    int64_t x, y, r, k;

    if (ws_lknown(b, d - 2, 2, &x) && ws_lknown(b, d - 1, 1, &y)
        && ws_expr_binary(code, x, y, &r) == WS_EV_OK) {
        b->p->nops--;
        b->p->ops[b->p->nops - 1].arg = r;
        return;
    }
    if (ws_lknown(b, d - 1, 1, &y)) {
        b->lit[d - 2] = -1;
        b->p->nops--;
        if ((code == OP_DIV || code == OP_MOD) && ws_pow2(y, &k))
            ws_lemit(b, code == OP_DIV ? OP_DIV_P2 : OP_MOD_P2, d - 1, k);
        else
            ws_lemit(b, (uint8_t)(code | WS_OP_IMM), d - 1, y);
        return;
    }
    if (ws_commutes(code) && b->lit[d - 2] >= 0) {
        x = ws_lunder(b, (uint32_t)b->lit[d - 2]);
        b->lit[d - 2] = -1;
        ws_lemit(b, (uint8_t)(code | WS_OP_IMM), d - 1, x);
        return;
    }
    b->lit[d - 2] = -1;
    ws_lemit(b, code, d, 0);
}

/* One operation of e at depth d.  Jumps keep e's targets for now. */
static void ws_lop(struct ws_lbuild *b, const struct ws_expr_op *op,
                   const struct ws_expr_consts *c)
{
    unsigned d = op->depth;
    int64_t v;

    switch (op->code) {
    case OP_LIT:
    case OP_VAR:
        if (op->code == OP_VAR && !c->known[op->arg]) {
            b->lit[d] = -1;
            ws_lemit(b, OP_VAR, d, op->arg);
            return;
        }
        b->lit[d] = (int32_t)b->p->nops;
        ws_lemit(b, OP_LIT, d,
                 op->code == OP_LIT ? op->arg : c->value[op->arg]);
        return;
    case OP_NEG:
    case OP_NOT:
    case OP_BNOT:
    case OP_ABS:
    case OP_LOG2:
    case OP_BOOL:
        if (ws_lknown(b, d - 1, 1, &v) && ws_expr_unary(op->code, &v) == 0) {
            b->p->ops[b->p->nops - 1].arg = v;
            return;
        }
        b->lit[d - 1] = -1;
        ws_lemit(b, op->code, d, 0);
        return;
    case OP_JZ:
    case OP_JNZ:
        if (ws_lknown(b, d - 1, 1, &v)) {
            b->p->nops--;
            if ((op->code == OP_JZ) == (v == 0))
                ws_lemit(b, OP_JMP, d - 1, op->arg);
            return;
        }
        ws_lemit(b, op->code, d, op->arg);
        return;
    case OP_JMP:
        ws_lemit(b, OP_JMP, d, op->arg);
        return;
    default:
        ws_lbinary(b, op->code, d);
        return;
    }
}

static int ws_is_jump(uint8_t code)
{
    return code == OP_JZ || code == OP_JNZ || code == OP_JMP;
}

/* Entering e's operation pc: a jump just emitted to pc is dropped (the
 * lanes would fall through anyway), and when jumps emitted earlier land
 * here, nothing on the stack is known any more (lanes came by other ways),
 * so no folding reaches back across pc.  Afterwards b->live says whether
 * any lane gets here: after a jump always taken, none do until a target. */
static void ws_lenter(struct ws_lbuild *b, uint32_t pc)
{
    struct ws_expr_lanes *p = b->p;

    if (p->nops > 0 && p->ops[p->nops - 1].code == OP_JMP
        && p->ops[p->nops - 1].arg == (int64_t)pc) {
        p->nops--;
        b->arrive[pc]--;
        b->live = 1;
    }
    if (b->arrive[pc] == 0)
        return;
    for (unsigned d = 0; d <= WS_EXPR_STACK; d++)
        b->lit[d] = -1;
    b->live = 1;
}

/* A literal the evaluation reads as a row: a push, or a binary
 * operation's right operand (the division by a power of two keeps its
 * shift in arg, not a literal). */
static int ws_lop_literal(const struct ws_expr_lop *op)
{
    return op->code == OP_LIT || (op->code & WS_OP_IMM);
}

/* Each literal's row of lanes (ws_expr_lanes.rows). */
static int ws_lrows(struct ws_expr_lanes *p)
{
    uint32_t n = 0;

    for (uint32_t i = 0; i < p->nops; i++)
        n += (uint32_t)ws_lop_literal(&p->ops[i]);
    p->rows = malloc((n ? n : 1) * sizeof *p->rows);
    if (!p->rows)
        return -1;
    n = 0;
    for (uint32_t i = 0; i < p->nops; i++) {
        if (!ws_lop_literal(&p->ops[i]))
            continue;
        p->ops[i].row = n;
        for (int l = 0; l < WS_LANES; l++)
            p->rows[n][l] = p->ops[i].arg;
        n++;
    }
    return 0;
}

/* Jumps keep e's targets until the end, then take the places where those
 * operations went (map).  A target's place is where its first operation
 * went, which folding never moves: it only rewrites what was emitted since
 * the last target. */
int ws_expr_lanes_build(struct ws_expr_lanes *p, const struct ws_expr *e,
                        const struct ws_expr_consts *c, struct ws_err *err)
{
    struct ws_lbuild b;
    uint32_t *map = malloc((e->nops + 1) * sizeof *map);

    p->nops = p->depth = 0;
    p->rows = NULL;
    p->ops = malloc((e->nops + 1) * sizeof *p->ops);
    b.arrive = calloc(e->nops + 1, sizeof *b.arrive);
    if (!map || !b.arrive || !p->ops) {
        free(map);
        free(b.arrive);
        ws_expr_lanes_free(p);
        return ws_err_oom(err);
    }
    b.p = p;
    b.live = 1;
    for (uint32_t pc = 0; pc <= e->nops; pc++) {
        ws_lenter(&b, pc);
        map[pc] = p->nops;
        if (pc < e->nops && b.live && e->ops[pc].depth != WS_EXPR_UNREACHED)
            ws_lop(&b, &e->ops[pc], c);
    }
    p->depth = 1;
    for (uint32_t i = 0; i < p->nops; i++) {
        const struct ws_expr_lop *op = &p->ops[i];
        unsigned need = op->code == OP_LIT || op->code == OP_VAR ? op->sp + 1u
                                                                 : op->sp;
        if (ws_is_jump(op->code))
            p->ops[i].arg = map[op->arg];
        if (need > p->depth)
            p->depth = need;
    }
    free(map);
    free(b.arrive);
    if (ws_lrows(p) < 0) {
        ws_expr_lanes_free(p);
        return ws_err_oom(err);
    }
    return 0;
}

void ws_expr_lanes_free(struct ws_expr_lanes *p)
{
    free(p->ops);
    free(p->rows);
    p->ops = NULL;
    p->rows = NULL;
    p->nops = p->depth = 0;
}

int ws_expr_lanes_const(const struct ws_expr_lanes *p, int64_t *v)
{
    if (p->nops != 1 || p->ops[0].code != OP_LIT)
        return 0;
    *v = p->ops[0].arg;
    return 1;
}

/* ---- evaluation ---------------------------------------------------------- */

/* Which lanes run: m as a bit mask and as a word per lane, -1 or 0, that
 * the loops AND with what they compute (for the compiler, a mask beats a
 * test). */
struct ws_lanes_run {
    uint32_t m;
    int64_t mk[WS_LANES];
};

static WS_FORCE_INLINE void ws_lanes_run(struct ws_lanes_run *run, uint32_t m)
{
    run->m = m;
    if (m == 0xffffffffu) {
        memset(run->mk, 0xff, sizeof run->mk);
        return;
    }
    for (int l = 0; l < WS_LANES; l++)
        run->mk[l] = -(int64_t)(m >> l & 1);
}

/* Lanes of m whose value is zero. */
static WS_FORCE_INLINE uint32_t ws_lanes_zero(const int64_t *a, uint32_t m)
{
    uint32_t z = 0;

    for (int l = 0; l < WS_LANES; l++)
        z |= (uint32_t)(a[l] == 0) << l;
    return z & m;
}

/* Lanes of m whose t is negative.  A fault is rare: the loops below only
 * OR each running lane's t into one word, and this finds the lanes when
 * that word says one faulted. */
static WS_FORCE_INLINE uint32_t ws_lanes_neg(const int64_t *t, uint32_t m)
{
    uint32_t f = 0;

    for (int l = 0; l < WS_LANES; l++)
        f |= (uint32_t)(t[l] < 0) << l;
    return f & m;
}

/* The result into dst for the running lanes; when every lane the
 * evaluation started with is running, the others hold nothing worth
 * keeping. */
static WS_FORCE_INLINE void ws_lanes_store(int64_t *dst, const int64_t *r,
                                           uint32_t m, int all)
{
    if (all) {
        memcpy(dst, r, WS_LANES * sizeof *dst);
        return;
    }
    /* r is a computed slot: the program was checked to push before it
     * reads.  NOLINTBEGIN(clang-analyzer-core.uninitialized.Assign) */
    for (int l = 0; l < WS_LANES; l++)
        if (m >> l & 1)
            dst[l] = r[l];
    /* NOLINTEND(clang-analyzer-core.uninitialized.Assign) */
}

/* Unsigned arithmetic wraps where signed would be undefined; the sign of
 * t then says which lanes overflowed. */
static WS_FORCE_INLINE int64_t ws_lanes_addsub(
    uint8_t code, const int64_t *restrict a, const int64_t *restrict b,
    int64_t *restrict r, int64_t *restrict t, const int64_t *mk)
{
    int64_t any = 0;

    if (code == OP_ADD) {
        for (int l = 0; l < WS_LANES; l++) {
            int64_t s = (int64_t)((uint64_t)a[l] + (uint64_t)b[l]);
            r[l] = s;
            t[l] = (a[l] ^ s) & (b[l] ^ s);
            any |= t[l] & mk[l];
        }
    } else {
        for (int l = 0; l < WS_LANES; l++) {
            int64_t s = (int64_t)((uint64_t)a[l] - (uint64_t)b[l]);
            r[l] = s;
            t[l] = (a[l] ^ b[l]) & (a[l] ^ s);
            any |= t[l] & mk[l];
        }
    }
    return any;
}

/* Factors that fit in 32 bits cannot overflow 64, and that test and the
 * wrapping product vectorise; a lane with a larger factor sends the whole
 * operation through the checked multiply. */
static WS_FORCE_INLINE int64_t ws_lanes_mul(const int64_t *restrict a,
                                            const int64_t *restrict b,
                                            int64_t *restrict r,
                                            int64_t *restrict t,
                                            const int64_t *mk)
{
    uint64_t wide = 0;
    int64_t any = 0;

    for (int l = 0; l < WS_LANES; l++) {
        wide |= (((uint64_t)a[l] + UINT64_C(0x80000000))
                 | ((uint64_t)b[l] + UINT64_C(0x80000000)))
                & (uint64_t)mk[l];
        r[l] = (int64_t)((uint64_t)a[l] * (uint64_t)b[l]);
    }
    if (wide >> 32 == 0)
        return 0;
    for (int l = 0; l < WS_LANES; l++) {
        t[l] = -(int64_t)__builtin_mul_overflow(a[l], b[l], &r[l]);
        any |= t[l] & mk[l];
    }
    return any;
}

/* Only the running lanes divide: a division costs more than the loop, and
 * a parked or idle lane may hold a zero. */
static WS_FORCE_INLINE int64_t ws_lanes_divide(uint8_t code,
                                               const int64_t *restrict a,
                                               const int64_t *restrict b,
                                               int64_t *restrict r,
                                               int64_t *restrict t, uint32_t m)
{
    int64_t any = 0;

    for (int l = 0; l < WS_LANES; l++) {
        r[l] = t[l] = 0;
        if (!(m >> l & 1))
            continue;
        if (b[l] == 0 || (a[l] == INT64_MIN && b[l] == -1))
            any = t[l] = -1;
        else
            r[l] = code == OP_DIV ? a[l] / b[l] : a[l] % b[l];
    }
    return any;
}

/* Counts outside 0 to 63 fault; the shift itself uses the low six bits so
 * that it stays defined for them. */
static WS_FORCE_INLINE int64_t ws_lanes_shift(
    uint8_t code, const int64_t *restrict a, const int64_t *restrict b,
    int64_t *restrict r, int64_t *restrict t, const int64_t *mk)
{
    int64_t any = 0;

    for (int l = 0; l < WS_LANES; l++) {
        int c = (int)(b[l] & 63);
        int bad = b[l] < 0 || b[l] > 63;
        if (code == OP_SHR) {
            r[l] = a[l] >> c;
        } else {
            r[l] = (int64_t)((uint64_t)a[l] << c);
            bad |= r[l] >> c != a[l];
        }
        t[l] = -(int64_t)bad;
        any |= t[l] & mk[l];
    }
    return any;
}

/* The operations that cannot fault. */
static WS_FORCE_INLINE void ws_lanes_total(uint8_t code,
                                           const int64_t *restrict a,
                                           const int64_t *restrict b,
                                           int64_t *restrict r)
{
    int l;

    switch (code) {
    case OP_LT:
        for (l = 0; l < WS_LANES; l++)
            r[l] = a[l] < b[l];
        break;
    case OP_LE:
        for (l = 0; l < WS_LANES; l++)
            r[l] = a[l] <= b[l];
        break;
    case OP_GT:
        for (l = 0; l < WS_LANES; l++)
            r[l] = a[l] > b[l];
        break;
    case OP_GE:
        for (l = 0; l < WS_LANES; l++)
            r[l] = a[l] >= b[l];
        break;
    case OP_EQ:
        for (l = 0; l < WS_LANES; l++)
            r[l] = a[l] == b[l];
        break;
    case OP_NE:
        for (l = 0; l < WS_LANES; l++)
            r[l] = a[l] != b[l];
        break;
    case OP_BAND:
        for (l = 0; l < WS_LANES; l++)
            r[l] = a[l] & b[l];
        break;
    case OP_BXOR:
        for (l = 0; l < WS_LANES; l++)
            r[l] = a[l] ^ b[l];
        break;
    case OP_BOR:
        for (l = 0; l < WS_LANES; l++)
            r[l] = a[l] | b[l];
        break;
    case OP_MIN:
        for (l = 0; l < WS_LANES; l++)
            r[l] = a[l] < b[l] ? a[l] : b[l];
        break;
    default: /* OP_MAX */
        for (l = 0; l < WS_LANES; l++)
            r[l] = a[l] > b[l] ? a[l] : b[l];
        break;
    }
}

/* Lanes of m that faulted. */
static WS_FORCE_INLINE uint32_t ws_lanes_binary(uint8_t code,
                                                const int64_t *restrict a,
                                                const int64_t *restrict b,
                                                int64_t *restrict r,
                                                const struct ws_lanes_run *run)
{
    int64_t t[WS_LANES], any = 0;

    switch (code) {
    case OP_ADD:
    case OP_SUB:
        any = ws_lanes_addsub(code, a, b, r, t, run->mk);
        break;
    case OP_MUL:
        any = ws_lanes_mul(a, b, r, t, run->mk);
        break;
    case OP_DIV:
    case OP_MOD:
        any = ws_lanes_divide(code, a, b, r, t, run->m);
        break;
    case OP_SHL:
    case OP_SHR:
        any = ws_lanes_shift(code, a, b, r, t, run->mk);
        break;
    default:
        ws_lanes_total(code, a, b, r);
        break;
    }
    return any < 0 ? ws_lanes_neg(t, run->m) : 0;
}

/* -INT64_MIN and abs(INT64_MIN) do not fit (the one value whose negation
 * keeps the sign bit); log2 wants a positive value (a | (a - 1) has the
 * sign bit for 0 and below). */
static WS_FORCE_INLINE uint32_t ws_lanes_unary(uint8_t code,
                                               const int64_t *restrict a,
                                               int64_t *restrict r,
                                               const struct ws_lanes_run *run)
{
    int64_t t[WS_LANES], any = 0;
    int l;

    switch (code) {
    case OP_NEG:
    case OP_ABS:
        for (l = 0; l < WS_LANES; l++) {
            int64_t n = (int64_t)(0 - (uint64_t)a[l]);
            r[l] = code == OP_NEG || a[l] < 0 ? n : a[l];
            t[l] = a[l] & n;
            any |= t[l] & run->mk[l];
        }
        break;
    case OP_NOT:
        for (l = 0; l < WS_LANES; l++)
            r[l] = a[l] == 0;
        break;
    case OP_BNOT:
        for (l = 0; l < WS_LANES; l++)
            r[l] = ~a[l];
        break;
    case OP_BOOL:
        for (l = 0; l < WS_LANES; l++)
            r[l] = a[l] != 0;
        break;
    default: /* OP_LOG2 */
        for (l = 0; l < WS_LANES; l++) {
            r[l] = a[l] > 0 ? 63 - __builtin_clzll((uint64_t)a[l]) : -1;
            t[l] = a[l] | (int64_t)((uint64_t)a[l] - 1);
            any |= t[l] & run->mk[l];
        }
        break;
    }
    return any < 0 ? ws_lanes_neg(t, run->m) : 0;
}

/* a / 2^k rounds toward zero as C's division does: a negative dividend is
 * biased by 2^k - 1 before the arithmetic shift.  The remainder then takes
 * the dividend's sign, as C's does. */
static WS_FORCE_INLINE void ws_lanes_pow2(uint8_t code,
                                          const int64_t *restrict a, int64_t k,
                                          int64_t *restrict r)
{
    int64_t low = (int64_t)((UINT64_C(1) << k) - 1);

    for (int l = 0; l < WS_LANES; l++) {
        /* gcc and clang shift a negative value arithmetically, as the
         * comment above needs. */
        /* cppcheck-suppress shiftTooManyBitsSigned */
        int64_t q = (a[l] + ((a[l] >> 63) & low)) >> k;
        r[l] = code == OP_DIV_P2 ? q : a[l] - (int64_t)((uint64_t)q << k);
    }
}

/* A jump: the lanes of the run that take it are parked at its target. */
static WS_FORCE_INLINE void ws_lanes_jump(const struct ws_expr_lop *op,
                                          const int64_t *top,
                                          struct ws_lanes_run *run,
                                          uint32_t *parked)
{
    uint32_t go = run->m;

    if (op->code != OP_JMP) {
        go = ws_lanes_zero(top, run->m);
        if (op->code == OP_JNZ)
            go = run->m & ~go;
    }
    parked[op->arg] |= go;
    if (go)
        ws_lanes_run(run, run->m & ~go);
}

/* The stack is what each slot reads (st) beside the buffer it owns (own),
 * with one buffer more, the spare (r).  A push with every lane running
 * reads the variable's or the literal's row where it lies, without a
 * copy; an operation with every lane running computes into the spare,
 * which then becomes its slot's own buffer, so that no result is copied
 * either.  With lanes parked, a slot is written lane by lane into its own
 * buffer, whatever the slot read before: lanes are parked only inside an
 * arm (of ?:, && or ||), an arm writes only slots it pushed itself, and
 * every lane pushes a slot on its own path before it reads it, so the
 * buffer's other lanes are either written by the other arm before they
 * are read or never read. */
WS_CLONES static uint32_t ws_lanes_eval(const struct ws_expr_lanes *p,
                                        const int64_t *vals, uint32_t mask,
                                        int64_t *out)
{
    int64_t buf[WS_EXPR_STACK + 1][WS_LANES];
    const int64_t *st[WS_EXPR_STACK];
    int64_t *own[WS_EXPR_STACK], *r = buf[WS_EXPR_STACK];
    uint32_t parked[WS_EXPR_MAX_OPS + 1];
    uint32_t faults = 0;
    struct ws_lanes_run run;

    /* slot 0 always: the result is read from it (depth >= 1) */
    st[0] = own[0] = buf[0];
    for (uint32_t i = 1; i < p->depth; i++)
        st[i] = own[i] = buf[i];
    memset(parked, 0, (p->nops + 1) * sizeof *parked);
    ws_lanes_run(&run, mask);
    for (uint32_t pc = 0; pc < p->nops; pc++) {
        const struct ws_expr_lop *op = &p->ops[pc];
        const int64_t *b;
        uint32_t d;
        if (parked[pc])
            ws_lanes_run(&run, run.m | parked[pc]);
        if (!run.m)
            continue;
        switch (op->code) {
        case OP_JZ:
        case OP_JNZ:
        case OP_JMP:
            /* JMP reads no value: at depth 0 there is no top */
            ws_lanes_jump(op, op->code == OP_JMP ? NULL : st[op->sp - 1], &run,
                          parked);
            continue;
        case OP_LIT:
        case OP_VAR:
            d = op->sp;
            b = op->code == OP_LIT ? p->rows[op->row]
                                   : vals + op->arg * WS_LANES;
            if (run.m == mask) {
                st[d] = b;
            } else {
                st[d] = own[d];
                ws_lanes_store(own[d], b, run.m, 0);
            }
            continue;
        case OP_NEG:
        case OP_NOT:
        case OP_BNOT:
        case OP_ABS:
        case OP_LOG2:
        case OP_BOOL:
            d = op->sp - 1u;
            faults |= ws_lanes_unary(op->code, st[d], r, &run);
            break;
        case OP_DIV_P2:
        case OP_MOD_P2:
            d = op->sp - 1u;
            ws_lanes_pow2(op->code, st[d], op->arg, r);
            break;
        default:
            if (op->code & WS_OP_IMM) {
                d = op->sp - 1u;
                b = p->rows[op->row];
            } else {
                d = op->sp - 2u;
                b = st[op->sp - 1];
            }
            faults |= ws_lanes_binary((uint8_t)(op->code & ~WS_OP_IMM), st[d],
                                      b, r, &run);
            break;
        }
        if (run.m == mask) {
            int64_t *was = own[d];
            st[d] = own[d] = r;
            r = was;
        } else {
            st[d] = own[d];
            ws_lanes_store(own[d], r, run.m, 0);
        }
    }
    ws_lanes_store(out, st[0], mask, mask == 0xffffffffu);
    return faults;
}

/* Outside the clones (ws_clones.h: clang 14). */
uint32_t ws_expr_lanes_eval(const struct ws_expr_lanes *p, const int64_t *vals,
                            uint32_t mask, int64_t *out)
{
    return ws_lanes_eval(p, vals, mask, out);
}
