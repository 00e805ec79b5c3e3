/*
 * Unit tests of workload expansion (sim/workload/ws_workload.c, ws_expand.c,
 * trace/ws_tracew.c).  Expected counts, masks and addresses are derived from the
 * CUDA sources' logic (traces/kernels/NAME/NAME.cu) and from where the
 * listings put their instructions, never from the expander itself; each
 * kernel is checked on its sm_80 and sm_90 listings.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "workload/ws_expand.h"
#include "workload/ws_expand_internal.h"
#include "trace/ws_async_op.h"
#include "trace/ws_opcode.h"
#include "trace/ws_traceg.h"
#include "trace/ws_tracew.h"
#include "ws_test.h"
#include "ws_wltest.h"

static const char *const saxpy_listings[] = {
    "traces/kernels/saxpy/saxpy.sm_80.sass",
    "traces/kernels/saxpy/saxpy.sm_90.nvdisasm"};
static const char *const reduce_listings[] = {
    "traces/kernels/reduce/reduce.sm_80.sass",
    "traces/kernels/reduce/reduce.sm_90.nvdisasm"};


/* Index after the n-th instruction with this base mnemonic (its length
 * from the start of the function, in instructions). */
static uint32_t upto(const struct ws_workload *w, const char *mnemonic, int n)
{
    const struct ws_sass_func *f = w->func;

    for (uint32_t i = 0; i < f->ninst; i++) {
        const char *op = ws_strtab_str(&w->sass.strs,
                                       w->sass.insts[f->first + i].op);
        if (ws_opcode_base_len(op) == strlen(mnemonic)
            && strncmp(op, mnemonic, strlen(mnemonic)) == 0 && --n == 0)
            return i + 1;
    }
    fail_msg("no %s", mnemonic);
    return 0;
}

/* ---- one element per thread: saxpy, STREAM copy and triad --------------
 * i = ctaid.x * threads + tid.x; threads with i >= n leave at the bounds
 * check, the others access base + 4 * i * stride in every buffer. */

struct elementwise {
    const char *workload, *listing;
    long n, threads, stride;
    int nbuf;
    uint64_t bases[3];
};

static void check_elementwise(const struct elementwise *e)
{
    char pn[32], pt[32], ps[32];
    const char *sets[] = {pn, pt, ps};
    struct ws_workload w;
    struct ws_expander x;
    struct ws_err err;
    const struct ws_cta_stream *cta;
    uint32_t to_exit, to_end;
    uint64_t warps = 0;

    snprintf(pn, sizeof pn, "n=%ld", e->n);
    snprintf(pt, sizeof pt, "threads=%ld", e->threads);
    snprintf(ps, sizeof ps, "stride=%ld", e->stride);
    load(&w, e->workload, sets, e->stride ? 3 : 2, e->listing);
    to_exit = upto(&w, "EXIT", 1);
    to_end = upto(&w, "EXIT", 2);
    ws_err_clear(&err);
    assert_int_equal(ws_expand_init(&x, &w, &err), 0);
    while (ws_expand_next(&x, &cta, &err) == 1) {
        for (uint32_t wi = 0; wi < cta->nwarps; wi++, warps++) {
            const struct ws_warp_stream *ws = &cta->warps[wi];
            long base = (long)cta->ctaid[0] * e->threads + wi * 32;
            long stride = e->stride ? e->stride : 1;
            uint32_t live = 0;
            for (int l = 0; l < 32; l++)
                if (base + l < e->n)
                    live |= 1u << l;
            assert_int_equal(ws->ninst, live ? to_end : to_exit);
            assert_int_equal(ws->inst[to_exit - 1].mask, ~live);
            for (uint32_t i = to_exit; live && i < ws->ninst; i++) {
                const struct ws_inst *in = &ws->inst[i];
                int last = 31 - __builtin_clz(live), found = 0;
                uint64_t off;
                if (!in->width)
                    continue;
                assert_int_equal(in->mask, live);
                off = 4ull * (uint64_t)(base + last) * (uint64_t)stride;
                for (int b = 0; b < e->nbuf; b++)
                    found |= cta->addrs[in->addr + (unsigned)last]
                             == e->bases[b] + off;
                assert_true(found);
            }
        }
    }
    assert_int_equal(warps, (uint64_t)((e->n + e->threads - 1) / e->threads)
                                * (uint64_t)(e->threads / 32));
    ws_expand_free(&x);
    ws_workload_free(&w);
}

static void test_saxpy(void **state)
{
    (void)state;
    for (int l = 0; l < 2; l++)
        for (long s = 1; s <= 16; s *= s == 1 ? 4 : 2) {
            struct elementwise e = {"traces/kernels/saxpy/workload.yaml",
                                    saxpy_listings[l],
                                    1000 + 333 * s,
                                    256,
                                    s,
                                    2,
                                    {0x7f0000000000ull, 0x7f1000000000ull}};
            check_elementwise(&e);
        }
}

static void test_stream(void **state)
{
    (void)state;
    for (int l = 0; l < 2; l++) {
        const char *listing = l ? "traces/kernels/stream/stream.sm_90.nvdisasm"
                                : "traces/kernels/stream/stream.sm_80.sass";
        struct elementwise copy = {
            "traces/kernels/stream/copy.yaml",     listing, 5000, 128, 0, 2,
            {0x7f0000000000ull, 0x7f1000000000ull}};
        struct elementwise triad = {"traces/kernels/stream/triad.yaml",
                                    listing,
                                    7777,
                                    256,
                                    0,
                                    3,
                                    {0x7f0000000000ull, 0x7f1000000000ull,
                                     0x7f2000000000ull}};
        check_elementwise(&copy);
        check_elementwise(&triad);
    }
}

/* ---- reduce: one loop trip per halving of the block, thread 0's warp adds
 * the atomic tail; trip k runs the body for threads t < threads >> (k + 1). */

static void check_reduce(const char *listing, long threads)
{
    char pt[32];
    const char *sets[] = {"n=5000", pt};
    struct ws_workload w;
    struct ws_expander x;
    struct ws_err err;
    const struct ws_cta_stream *cta;
    uint32_t loop_first, loop_len, prologue, tail;
    long trips = 0;

    snprintf(pt, sizeof pt, "threads=%ld", threads);
    for (long t = threads; t > 1; t /= 2)
        trips++;
    load(&w, "traces/kernels/reduce/workload.yaml", sets, 2, listing);
    /* Static shape of the listing: the loop closes at the second branch
     * and starts at its target; the first EXIT ends the other warps. */
    loop_len = upto(&w, "BRA", 2);
    loop_first = 0;
    {
        const struct ws_sass_inst *b =
            &w.sass.insts[w.func->first + loop_len - 1];
        uint64_t target = (uint64_t)w.sass.opnds[b->opnd].value;
        while (w.sass.insts[w.func->first + loop_first].pc != target)
            loop_first++;
    }
    prologue = loop_first;
    loop_len -= loop_first;
    tail = upto(&w, "EXIT", 2) - upto(&w, "EXIT", 1);
    ws_err_clear(&err);
    assert_int_equal(ws_expand_init(&x, &w, &err), 0);
    assert_int_equal(ws_expand_next(&x, &cta, &err), 1);
    for (uint32_t wi = 0; wi < cta->nwarps; wi++) {
        const struct ws_warp_stream *ws = &cta->warps[wi];
        uint32_t want = prologue + (uint32_t)trips * loop_len + 1
                        + (wi == 0 ? tail : 0);
        assert_int_equal(ws->ninst, want);
        for (long k = 0; k < trips; k++) {
            long s = threads >> (k + 1);
            uint32_t lanes = 0;
            const struct ws_inst *body = &ws->inst[prologue + k * loop_len];
            for (int l = 0; l < 32; l++)
                if ((long)wi * 32 + l < s)
                    lanes |= 1u << l;
            for (uint32_t i = 0; i < loop_len; i++)
                if (body[i].space == WS_SPACE_SHARED
                    && body[i].memop == WS_MEMOP_LOAD) {
                    assert_int_equal(body[i].mask, lanes);
                    if (lanes)
                        assert_true(cta->addrs[body[i].addr] % 4 == 0);
                }
        }
    }
    ws_expand_free(&x);
    ws_workload_free(&w);
}

static void test_reduce(void **state)
{
    (void)state;
    for (int l = 0; l < 2; l++)
        for (long t = 64; t <= 256; t *= 2)
            check_reduce(reduce_listings[l], t);
}

/* ---- pchase: j = next[j] hops times, next[j] = (j + stride) % elems ------ */

static void test_pchase(void **state)
{
    const char *listings[] = {"traces/kernels/pchase/pchase.sm_80.sass",
                              "traces/kernels/pchase/pchase.sm_90.nvdisasm"};

    (void)state;
    for (int l = 0; l < 2; l++) {
        const char *sets[] = {"hops=37", "elems=64", "stride=5"};
        struct ws_workload w;
        struct ws_expander x;
        struct ws_err err;
        const struct ws_cta_stream *cta;
        uint32_t close, first = 0, loads = 0;
        uint64_t j = 0;
        const struct ws_inst *in;
        load(&w, "traces/kernels/pchase/workload.yaml", sets, 3, listings[l]);
        close = upto(&w, "BRA", 2);
        {
            const struct ws_sass_inst *b =
                &w.sass.insts[w.func->first + close - 1];
            for (uint32_t o = 0; o < b->nopnd; o++)
                if (w.sass.opnds[b->opnd + o].kind == WS_OPND_TARGET)
                    while (w.sass.insts[w.func->first + first].pc
                           != (uint64_t)w.sass.opnds[b->opnd + o].value)
                        first++;
        }
        ws_err_clear(&err);
        assert_int_equal(ws_expand_init(&x, &w, &err), 0);
        assert_int_equal(ws_expand_next(&x, &cta, &err), 1);
        assert_int_equal(cta->warps[0].ninst,
                         first + 37 * (close - first)
                             + (upto(&w, "EXIT", 1) - close));
        for (uint32_t i = 0; i < cta->warps[0].ninst; i++) {
            in = &cta->warps[0].inst[i];
            if (in->memop != WS_MEMOP_LOAD || !in->width)
                continue;
            assert_int_equal(in->mask, 1);
            assert_true(cta->addrs[in->addr] == 0x7f0000000000ull + 4 * j);
            j = (j + 5) % 64;
            loads++;
        }
        assert_int_equal(loads, 37);
        ws_expand_free(&x);
        ws_workload_free(&w);
    }
}

/* ---- apsp: per CTA, each of the elems = sd*sd elements is staged twice
 * and updated once per kb step (1 + 2*sd shared reads), initialised,
 * and finally read and stored once; threads own e = tid + j*threads. */

static void check_apsp(const char *listing, long n, long sd, long threads)
{
    char pn[32], ps[32], pt[32];
    const char *sets[] = {pn, ps, pt};
    struct ws_workload w;
    struct ws_expander x;
    struct ws_err err;
    const struct ws_cta_stream *cta;
    uint64_t ldg = 0, lds = 0, sts = 0, stg = 0, ctas = 0;
    uint64_t elems = (uint64_t)(sd * sd), nb = (uint64_t)(n / sd);

    snprintf(pn, sizeof pn, "n=%ld", n);
    snprintf(ps, sizeof ps, "sd=%ld", sd);
    snprintf(pt, sizeof pt, "threads=%ld", threads);
    load(&w, "traces/kernels/apsp/workload.yaml", sets, 3, listing);
    ws_err_clear(&err);
    assert_int_equal(ws_expand_init(&x, &w, &err), 0);
    while (ws_expand_next(&x, &cta, &err) == 1) {
        int first_ldg = 1;
        ctas++;
        for (uint32_t wi = 0; wi < cta->nwarps; wi++)
            for (uint32_t i = 0; i < cta->warps[wi].ninst; i++) {
                const struct ws_inst *in = &cta->warps[wi].inst[i];
                unsigned lanes = (unsigned)__builtin_popcount(in->mask);
                if (!in->width)
                    continue;
                if (in->space == WS_SPACE_GLOBAL
                    && in->memop == WS_MEMOP_LOAD) {
                    /* Warp 0's first load: A(by, kb = 0), element 0. */
                    if (wi == 0 && first_ldg)
                        assert_true(cta->addrs[in->addr]
                                    == 0x7f0000000000ull
                                           + 4ull
                                                 * (cta->ctaid[1] * (uint64_t)sd
                                                    * (uint64_t)n));
                    first_ldg = 0;
                    ldg += lanes;
                }
                stg += in->space == WS_SPACE_GLOBAL
                               && in->memop == WS_MEMOP_STORE
                           ? lanes
                           : 0;
                lds += in->space == WS_SPACE_SHARED
                               && in->memop == WS_MEMOP_LOAD
                           ? lanes
                           : 0;
                sts += in->space == WS_SPACE_SHARED
                               && in->memop == WS_MEMOP_STORE
                           ? lanes
                           : 0;
            }
    }
    assert_int_equal(ctas, nb * nb);
    assert_int_equal(ldg, ctas * 2 * nb * elems);
    assert_int_equal(lds, ctas * (nb * elems * (1 + 2 * (uint64_t)sd) + elems));
    assert_int_equal(sts, ctas * (elems + 3 * nb * elems));
    assert_int_equal(stg, ctas * elems);
    ws_expand_free(&x);
    ws_workload_free(&w);
}

static void test_apsp(void **state)
{
    const char *listings[] = {"traces/kernels/apsp/apsp.sm_80.sass",
                              "traces/kernels/apsp/apsp.sm_90.nvdisasm"};

    (void)state;
    for (int l = 0; l < 2; l++) {
        check_apsp(listings[l], 64, 16, 64);
        check_apsp(listings[l], 64, 8, 96);  /* 64 elements, 96 threads */
        check_apsp(listings[l], 96, 16, 96); /* uneven ownership */
    }
}

/* ---- matmul (Unroll): per tile, each thread reads rows ty and ty + 8 of
 * As (2 x 16 doubles) and column tx of Bs (16 doubles) from shared memory,
 * and stores 2 + 2 doubles; the unrolled reads use opcode-pattern rules. */

static void test_matmul_unroll(void **state)
{
    const char *sets[] = {"n=64"};
    struct ws_workload w;
    struct ws_expander x;
    struct ws_err err;
    const struct ws_cta_stream *cta;
    uint64_t bytes_ld = 0, bytes_st = 0, threads = 0;
    uint64_t b_seen = 0, a_seen = 0;

    (void)state;
    load(&w, "traces/kernels/matmul/unroll.yaml", sets, 1, NULL);
    ws_err_clear(&err);
    assert_int_equal(ws_expand_init(&x, &w, &err), 0);
    while (ws_expand_next(&x, &cta, &err) == 1) {
        threads += 128;
        for (uint32_t wi = 0; wi < cta->nwarps; wi++)
            for (uint32_t i = 0; i < cta->warps[wi].ninst; i++) {
                const struct ws_inst *in = &cta->warps[wi].inst[i];
                unsigned lanes = (unsigned)__builtin_popcount(in->mask);
                uint64_t a;
                if (in->space != WS_SPACE_SHARED)
                    continue;
                if (in->memop == WS_MEMOP_STORE) {
                    bytes_st += (uint64_t)lanes * in->width;
                    continue;
                }
                bytes_ld += (uint64_t)lanes * in->width;
                if (cta->linear_id != 0 || wi != 0 || i > 200)
                    continue;
                /* Lane 0 of warp 0 is (tx, ty) = (0, 0), first tile:
                 * Bs[k][0] at 0x800 + 128k, As[0][k] and As[8][k] in
                 * 16-byte pairs at 16j and 0x400 + 16j. */
                a = cta->addrs[in->addr];
                if (in->width == 8) {
                    assert_true(a >= 0x800 && (a - 0x800) % 128 == 0);
                    b_seen |= 1ull << ((a - 0x800) / 128);
                } else {
                    assert_int_equal(in->width, 16);
                    assert_true(a % 16 == 0
                                && (a < 0x100 || (a >= 0x400 && a < 0x500)));
                    a_seen |= 1ull << ((a % 0x400) / 16 + (a >= 0x400 ? 8 : 0));
                }
            }
    }
    /* 4 tiles of 16 x 16 doubles along k for n = 64. */
    assert_int_equal(bytes_ld, threads * 4 * (2 * 16 + 16) * 8);
    assert_int_equal(bytes_st, threads * 4 * 4 * 8);
    assert_true(b_seen == 0xffff);
    assert_true(a_seen == 0xffff);
    ws_expand_free(&x);
    ws_workload_free(&w);
}

/* ---- matmul, all seven versions on both listings: per CTA (tile (by,
 * bx) of C) the global loads cover exactly rows by*16.. of A and columns
 * bx*16.. of B (once per element when tiled, 16 times in the baseline),
 * each C element is stored once, and the shared-memory reads per output
 * element follow the version's algorithm. */

struct mm_counts {
    uint64_t a_loads, b_loads, c_stores, sh_load_bytes, sh_stores;
};

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return x < y ? -1 : x > y;
}

static void mm_cta(const struct ws_cta_stream *cta, uint64_t n,
                   struct mm_counts *c, uint64_t *distinct, uint64_t *seen,
                   size_t cap)
{
    const uint64_t A = 0x7f0000000000ull, B = 0x7f1000000000ull,
                   C = 0x7f2000000000ull;
    uint64_t by = cta->ctaid[1], bx = cta->ctaid[0];
    size_t ns = 0;

    for (uint32_t wi = 0; wi < cta->nwarps; wi++)
        for (uint32_t i = 0; i < cta->warps[wi].ninst; i++) {
            const struct ws_inst *in = &cta->warps[wi].inst[i];
            unsigned lanes = (unsigned)__builtin_popcount(in->mask);
            if (!in->width || !lanes)
                continue;
            if (in->space == WS_SPACE_SHARED) {
                if (in->memop == WS_MEMOP_LOAD)
                    c->sh_load_bytes += (uint64_t)lanes * in->width;
                else
                    c->sh_stores += lanes;
                continue;
            }
            for (unsigned l = 0; l < lanes; l++) {
                uint64_t a = cta->addrs[in->addr + l], e;
                if (a >= C) {
                    e = (a - C) / 8;
                    assert_true(e / n / 16 == by && e % n / 16 == bx);
                    c->c_stores++;
                } else if (a >= B) {
                    e = (a - B) / 8;
                    assert_true(e % n / 16 == bx);
                    c->b_loads++;
                } else {
                    e = (a - A) / 8;
                    assert_true(e / n / 16 == by);
                    c->a_loads++;
                }
                if (a < C && ns < cap)
                    seen[ns++] = a;
            }
        }
    qsort(seen, ns, sizeof *seen, cmp_u64);
    for (size_t i = 0; i < ns; i++)
        *distinct += i == 0 || seen[i] != seen[i - 1];
}

static void check_matmul(const char *version, int l)
{
    static const char *const listings[] = {
        "traces/kernels/matmul/matmul.sm_80.sass",
        "traces/kernels/matmul/matmul.sm_90.nvdisasm",
        "traces/kernels/matmul/matmul.sm_90.sass"};
    const uint64_t n = 48, tiles = n / 16;
    char path[128];
    const char *sets[] = {"n=48"};
    struct ws_workload w;
    struct ws_expander x;
    struct ws_err err;
    const struct ws_cta_stream *cta;
    struct mm_counts c = {0, 0, 0, 0, 0};
    uint64_t distinct = 0, ctas = 0, *seen = malloc(200000 * sizeof *seen);
    int base = strcmp(version, "baseline") == 0;
    int two = !strcmp(version, "computeopt") || !strcmp(version, "unroll")
              || !strcmp(version, "prefetch");

    assert_non_null(seen);
    snprintf(path, sizeof path, "traces/kernels/matmul/%s.yaml", version);
    load(&w, path, sets, 1, listings[l]);
    ws_err_clear(&err);
    assert_int_equal(ws_expand_init(&x, &w, &err), 0);
    while (ws_expand_next(&x, &cta, &err) == 1) {
        ctas++;
        mm_cta(cta, n, &c, &distinct, seen, 200000);
    }
    assert_int_equal(ctas, tiles * tiles);
    assert_int_equal(c.c_stores, ctas * 256);
    /* Each CTA reads its 16 x n panel of A and n x 16 panel of B. */
    assert_int_equal(distinct, ctas * 2 * 16 * n);
    assert_int_equal(c.a_loads, ctas * 16 * n * (base ? 16 : 1));
    assert_int_equal(c.b_loads, ctas * 16 * n * (base ? 16 : 1));
    if (base) {
        assert_int_equal(c.sh_load_bytes, 0);
    } else {
        /* Per tile, each output element needs a row of As and a column
         * of Bs (16 + 16 doubles); two per thread share the Bs column. */
        uint64_t per_thread = two ? 2 * 16 + 16 : 2 * 16;
        uint64_t threads = two ? 128 : 256;
        assert_int_equal(c.sh_load_bytes,
                         ctas * tiles * threads * per_thread * 8);
        assert_int_equal(c.sh_stores, ctas * tiles * 512);
    }
    free(seen);
    ws_expand_free(&x);
    ws_workload_free(&w);
}

static void test_matmul(void **state)
{
    static const char *const versions[] = {"baseline",   "tiling",
                                           "coalescing", "nobankconflict",
                                           "computeopt", "unroll",
                                           "prefetch"};

    (void)state;
    /* sm_90 twice: cuobjdump and nvdisasm print the same code. */
    for (size_t v = 0; v < sizeof versions / sizeof versions[0]; v++)
        for (int l = 0; l < 3; l++)
            check_matmul(versions[v], l);
}

/* ---- trace gen: written and read back, the same stream ----------------- */

/* After the width, Accel-Sim's parser reads: nothing more for width 0;
 * mode 0, one address per active lane; mode 1, base and stride; mode 2,
 * base and popcount deltas, the last of which is the immediate (one fewer
 * deltas are written).  So every memory line carries exactly that many
 * tokens after its mode, and every line ends in the immediate. */
static void check_line_tail(const char *line, unsigned mask)
{
    char copy[4096], *tok, *save = NULL;
    unsigned n = 0, width = 0, mode = 0, nsrc = 0, ndst = 0, after = 0;
    unsigned lanes = (unsigned)__builtin_popcount(mask);

    snprintf(copy, sizeof copy, "%s", line);
    for (tok = strtok_r(copy, " \n", &save); tok;
         tok = strtok_r(NULL, " \n", &save), n++) {
        if (n == 2)
            ndst = (unsigned)atoi(tok);
        else if (n == 4 + ndst)
            nsrc = (unsigned)atoi(tok);
        else if (n == 5 + ndst + nsrc)
            width = (unsigned)atoi(tok);
        else if (n == 6 + ndst + nsrc && width)
            mode = (unsigned)atoi(tok);
        else if (n > 6 + ndst + nsrc || (n == 6 + ndst + nsrc && !width))
            after++;
    }
    if (!width)
        assert_int_equal(after, 1); /* the immediate */
    else if (mode == 0)
        assert_int_equal(after, lanes + 1);
    else if (mode == 1)
        assert_int_equal(after, 3);
    else
        assert_int_equal(after, lanes ? lanes + 1 : 1);
}

/* Every instruction line of a written trace stays inside what Accel-Sim's
 * parser reads: one destination register, at most four sources. */
static void check_line_limits(const char *path)
{
    FILE *fp = fopen(path, "r");
    char line[4096];
    unsigned checked = 0;

    assert_non_null(fp);
    while (fgets(line, sizeof line, fp)) {
        unsigned pc, mask, ndst, nsrc;
        char op[64];
        int used = 0;
        if (sscanf(line, "%x %x %u%n", &pc, &mask, &ndst, &used) != 3
            || strchr(line, '=') || line[0] == '#')
            continue;
        assert_true(ndst <= 1);
        for (unsigned i = 0; i < ndst; i++) {
            int more = 0;
            assert_int_equal(sscanf(line + used, " R%*u%n", &more), 0);
            used += more;
        }
        assert_int_equal(sscanf(line + used, " %63s %u", op, &nsrc), 2);
        assert_true(nsrc <= 4);
        check_line_tail(line, mask);
        checked++;
    }
    fclose(fp);
    assert_true(checked > 0);
}

/* Writes the expansion of workload (with sets, under listing) as a text
 * trace, reads it back and compares each instruction field by field. */
static void check_round_trip(const char *workload, const char **sets, int nsets,
                             const char *listing)
{
    char path[64];
    struct ws_workload w;
    struct ws_expander x;
    struct ws_traceg *r;
    struct ws_err err;
    const struct ws_cta_stream *a, *b;
    FILE *fp;

    snprintf(path, sizeof path, "/tmp/ws-test-roundtrip-%ld.traceg",
             (long)getpid());
    load(&w, workload, sets, nsets, listing);
    ws_err_clear(&err);
    assert_int_equal(ws_expand_init(&x, &w, &err), 0);
    fp = fopen(path, "w");
    assert_non_null(fp);
    ws_tracew_header(fp, &w.launch);
    while (ws_expand_next(&x, &a, &err) == 1)
        ws_tracew_cta(fp, a, &w.sass.strs);
    fclose(fp);
    ws_expand_free(&x);
    check_line_limits(path);
    assert_int_equal(ws_expand_init(&x, &w, &err), 0);
    assert_int_equal(ws_traceg_open(&r, path, NULL, &err), 0);
    while (ws_expand_next(&x, &a, &err) == 1) {
        assert_int_equal(ws_traceg_next_cta(r, &b, &err), 1);
        assert_memory_equal(a->ctaid, b->ctaid, sizeof a->ctaid);
        for (uint32_t wi = 0; wi < a->nwarps; wi++) {
            assert_int_equal(a->warps[wi].ninst, b->warps[wi].ninst);
            for (uint32_t i = 0; i < a->warps[wi].ninst; i++) {
                const struct ws_inst *p = &a->warps[wi].inst[i];
                const struct ws_inst *q = &b->warps[wi].inst[i];
                assert_int_equal(p->pc, q->pc);
                assert_int_equal(p->mask, q->mask);
                assert_string_equal(ws_strtab_str(&w.sass.strs, p->op),
                                    ws_strtab_str(ws_traceg_opcodes(r), q->op));
                assert_int_equal(p->cls, q->cls);
                assert_int_equal(p->width, q->width);
                assert_int_equal(p->space, q->space);
                assert_int_equal(p->ndst, q->ndst);
                assert_memory_equal(p->dst, q->dst, p->ndst);
                assert_int_equal(p->nsrc, q->nsrc);
                assert_memory_equal(p->src, q->src, p->nsrc);
                for (unsigned k = 0;
                     p->width && k < (unsigned)__builtin_popcount(p->mask); k++)
                    assert_true(a->addrs[p->addr + k] == b->addrs[q->addr + k]);
            }
        }
    }
    assert_int_equal(ws_traceg_next_cta(r, &b, &err), 0);
    ws_traceg_close(r);
    ws_expand_free(&x);
    ws_workload_free(&w);
    remove(path);
}

/* Listings with 64-bit address pairs ([R2.64]), IMAD.WIDE, vector and
 * shared loads, and fp64: each result's registers come back from the
 * opcode alone. */
static void test_round_trip(void **state)
{
    const char *saxpy[] = {"n=3000", "stride=8"};
    const char *mm[] = {"n=32"};
    const char *apsp[] = {"n=64", "sd=16", "threads=64"};
    const char *reduce[] = {"n=1000"};

    (void)state;
    check_round_trip("traces/kernels/saxpy/workload.yaml", saxpy, 2, NULL);
    check_round_trip("traces/kernels/saxpy/workload.yaml", saxpy, 2,
                     "traces/kernels/saxpy/saxpy.sm_90.sass");
    check_round_trip("traces/kernels/matmul/prefetch.yaml", mm, 1, NULL);
    check_round_trip("traces/kernels/matmul/tiling.yaml", mm, 1,
                     "traces/kernels/matmul/matmul.sm_90.nvdisasm");
    check_round_trip("traces/kernels/apsp/workload.yaml", apsp, 3, NULL);
    check_round_trip("traces/kernels/reduce/workload.yaml", reduce, 1,
                     "traces/kernels/reduce/reduce.sm_75.sass");
}

/* ---- malformed workloads -------------------------------------------------- */

static const char saxpy_head[] =
    "listing: ../traces/kernels/saxpy/saxpy.sm_80.sass\n"
    "params: {n: 100, stride: 1}\n"
    "launch: {grid: [1, 1, 1], block: [128, 1, 1]}\n"
    "buffers:\n  x: {base: 0x1000, size: \"4 * n\"}\n  y: {base: 0x100000, size: \"4 * n\"}\n"
    "let: {i: \"tid.x\"}\n";


static void expect_error(const char *body, long line, const char *want)
{
    char *text = malloc(sizeof saxpy_head + strlen(body));

    assert_non_null(text);
    strcpy(text, saxpy_head);
    strcat(text, body);
    expect_error_in(text, line, want, NULL);
    free(text);
}

static void test_bad_workloads(void **state)
{
    static const char mem[] = "memory: {\"LDG#1\": \"x + 4 * i\", \"LDG#2\": "
                              "\"y + 4 * i\", \"STG#1\": \"y + 4 * i\"}\n";
    char buf[1024];

    (void)state;
    snprintf(buf, sizeof buf, "when: {\"0x0999\": \"i >= n\"}\n%s", mem);
    expect_error(buf, 8, "no instruction '0x0999'");
    snprintf(buf, sizeof buf, "when: {\"EXIT#1\": \"j >= n\"}\n%s", mem);
    expect_error(buf, 8, "unbound name 'j'");
    expect_error(
        "when: {\"EXIT#1\": \"i >= n\"}\nmemory: {\"LDG#1\": \"x + 4 * i "
        "/ (i - i)\", \"LDG#2\": \"y\", \"STG#1\": \"y\"}\n",
        9, "division by zero");
    expect_error(
        "when: {\"EXIT#1\": \"i >= n\"}\nmemory: {\"LDG#1\": \"x + 4 * "
        "n\", \"LDG#2\": \"y\", \"STG#1\": \"y\"}\n",
        9, "lies outside every declared buffer");
    expect_error("when: {\"EXIT#1\": \"i >= n\"}\nmemory: {\"LDG#1\": \"x\"}\n",
                 1, "has no address");
    snprintf(buf, sizeof buf, "%s", mem);
    expect_error(buf, 1, "a guarded EXIT with no rule");
    snprintf(buf, sizeof buf, "when: {\"LDG#1\": \"1\"}\n%s", mem);
    expect_error(buf, 8, "not guarded by a predicate");
    snprintf(buf, sizeof buf,
             "colour: blue\nwhen: {\"EXIT#1\": \"i >= n\"}\n%s", mem);
    expect_error(buf, 8, "unknown workload key 'colour'");
    snprintf(buf, sizeof buf, "when: {\"EXIT#1\": \"i >= n +\"}\n%s", mem);
    expect_error(buf, 8, "expression ends early");
    snprintf(buf, sizeof buf,
             "when: {\"EXIT#1\": \"i >= n\"}\nmemory: "
             "{\"LDG.256*\": \"x\", \"LDG#1\": \"x\", \"LDG#2\": \"y\", "
             "\"STG#1\": \"y\"}\n");
    expect_error(buf, 9, "matches LDG.256*");
}

static const char saxpy_rules[] =
    "when: {\"EXIT#1\": \"i >= n\"}\n"
    "memory: {\"LDG#1\": \"x + 4 * i\", \"LDG#2\": \"y + 4 * i\", "
    "\"STG#1\": \"y + 4 * i\"}\n";

/* saxpy with this launch: line, the rest as in saxpy_head. */
static void expect_launch_error(const char *launch, long line, const char *want)
{
    char text[4096];

    snprintf(text, sizeof text,
             "listing: ../traces/kernels/saxpy/saxpy.sm_80.sass\n"
             "params: {n: 100, stride: 1}\n%s\nbuffers:\n"
             "  x: {base: 0x1000, size: \"4 * n\"}\n"
             "  y: {base: 0x100000, size: \"4 * n\"}\n"
             "let: {i: \"tid.x\"}\n%s",
             launch, saxpy_rules);
    expect_error_in(text, line, want, NULL);
}

/* grid and block: exactly three values, or one number for [n, 1, 1];
 * each dimension in CUDA's range, at its own column. */
static void test_bad_launches(void **state)
{
    (void)state;
    expect_launch_error("launch: {grid: [1, 1], block: [128, 1, 1]}", 3,
                        "grid has 2 values (expected [x, y, z], or one number");
    expect_launch_error("launch: {grid: [], block: [128, 1, 1]}", 3,
                        "grid has 0 values");
    expect_launch_error("launch: {grid: [1, 1, 1, 1], block: [128, 1, 1]}", 3,
                        "grid has more than 3 values");
    expect_launch_error("launch: {grid: {x: 1}, block: [128, 1, 1]}", 3,
                        "grid is a mapping");
    expect_launch_error("launch: {grid: [1, 1, 1], block: [128, 1]}", 3,
                        "block has 2 values");
    expect_launch_error("launch: {grid: [1, 0, 1], block: [128, 1, 1]}", 3,
                        "grid y of 0 is out of range (expected 1 to 65535)");
    expect_launch_error("launch: {grid: \"n - 200\", block: [128, 1, 1]}", 3,
                        "grid x of -100 is out of range");
    expect_launch_error("launch: {grid: [1, 1, 1], block: [128, 1, 65]}", 3,
                        "block z of 65 is out of range (expected 1 to 64)");
    expect_launch_error("launch: {grid: [1, 1, 1], block: [32, 32, 2]}", 3,
                        "block of 2048 threads");
    expect_launch_error("launch: {grid: [1, 1, 1], block: [128, 1, 1], "
                        "shared: -1}",
                        3, "shared of -1 is out of range");
    expect_launch_error("launch: {grid: [1, 1, 1], block: [128, 1, 1], "
                        "registers: 0}",
                        3, "registers of 0 is out of range");
    expect_launch_error("launch: {grid: [65535, 65535, 2], block: [128, 1, 1]}",
                        3,
                        "grid of 8589672450 CTAs is over the limit of "
                        "16777216 (expected at most --max-ctas CTAs; raise "
                        "it with --max-ctas N)");
    expect_launch_error("launch: [1, 1, 1]", 3, "launch: is not a mapping");
    /* One number is [n, 1, 1], as in a CUDA launch. */
    {
        const char *path = tmp_workload();
        FILE *fp = fopen(path, "w");
        struct ws_workload w;
        struct ws_err err;
        assert_non_null(fp);
        fputs("listing: ../traces/kernels/saxpy/saxpy.sm_80.sass\n"
              "params: {n: 100, stride: 1}\n"
              "launch: {grid: 3, block: 128}\n"
              "buffers:\n  x: {base: 0x1000, size: \"4 * n\"}\n"
              "  y: {base: 0x100000, size: \"4 * n\"}\n"
              "let: {i: \"tid.x\"}\n",
              fp);
        fputs(saxpy_rules, fp);
        fclose(fp);
        ws_err_clear(&err);
        assert_int_equal(ws_workload_load(&w, path, NULL, 0, NULL, NULL, &err),
                         0);
        assert_int_equal(w.launch.grid[0], 3);
        assert_int_equal(w.launch.grid[1], 1);
        assert_int_equal(w.launch.block[0], 128);
        assert_int_equal(w.launch.block[2], 1);
        ws_workload_free(&w);
        remove(path);
    }
}

static void test_bad_descriptions(void **state)
{
    char buf[2048];
    char *deep;

    (void)state;
    /* A literal trip count below 1 is wrong wherever the loop is; one
     * computed per lane is checked where a lane reaches the branch. */
    expect_error_in("listing: ../traces/kernels/pchase/pchase.sm_80.sass\n"
                    "launch: {grid: [1, 1, 1], block: [1, 1, 1]}\n"
                    "buffers: {next: {base: 0x1000, size: 1024}, out: "
                    "{base: 0x9000, size: 4}}\n"
                    "when: {\"BRA#1\": \"0\"}\n"
                    "loops: {\"BRA#2\": {counter: h, trips: \"-1\"}}\n"
                    "memory: {\"LDG#1\": \"next\", \"STG#1\": \"out\"}\n",
                    5, "loop trip count of -1 (expected at least 1", NULL);
    expect_error_in("listing: ../traces/kernels/pchase/pchase.sm_80.sass\n"
                    "params: {hops: 3}\n"
                    "launch: {grid: [1, 1, 1], block: [1, 1, 1]}\n"
                    "buffers: {next: {base: 0x1000, size: 1024}, out: "
                    "{base: 0x9000, size: 4}}\n"
                    "when: {\"BRA#1\": \"0\"}\n"
                    "loops: {\"BRA#2\": {counter: h, trips: \"hops - 5\"}}\n"
                    "memory: {\"LDG#1\": \"next\", \"STG#1\": \"out\"}\n",
                    6,
                    "loop trip count of -2 for lane 0 of warp 0, CTA (0,0,0)",
                    NULL);
    /* No listing: placed at the description's first key. */
    expect_error_in("# a workload\n\nlaunch: {grid: [1, 1, 1], block: [1, 1, "
                    "1]}\n",
                    3, "no listing:", NULL);
    expect_error_in("listing: \"\"\nlaunch: {grid: [1, 1, 1], block: [1, 1, "
                    "1]}\n",
                    1, "listing: is empty", NULL);
    /* A listing that cannot be read is placed at its name. */
    expect_error_in("\nlisting: no-such.sass\nlaunch: {grid: [1, 1, 1], "
                    "block: [1, 1, 1]}\n",
                    2, "no-such.sass: cannot open", NULL);
    expect_error_in("listing: [a, b]\n", 1, "listing: is not a name", NULL);
    snprintf(buf, sizeof buf, "%sloops: [1]\n", saxpy_rules);
    expect_error(buf, 10, "loops: is not a mapping");
    snprintf(buf, sizeof buf, "%sfunction: {a: 1}\n", saxpy_rules);
    expect_error(buf, 10, "function: is not a name");
    /* An empty section is an empty mapping. */
    snprintf(buf, sizeof buf, "%sloops:\n", saxpy_rules);
    {
        const char *path = tmp_workload();
        FILE *fp = fopen(path, "w");
        struct ws_workload w;
        struct ws_err err;
        assert_non_null(fp);
        fprintf(fp, "%s%s", saxpy_head, buf);
        fclose(fp);
        ws_err_clear(&err);
        assert_int_equal(ws_workload_load(&w, path, NULL, 0, NULL, NULL, &err),
                         0);
        ws_workload_free(&w);
        remove(path);
    }
    expect_error_in("listing: ../traces/kernels/saxpy/saxpy.sm_80.sass\n"
                    "params: {n: 100, stride: 1}\n"
                    "launch: {grid: [1, 1, 1], block: [128, 1, 1]}\n"
                    "buffers:\n  x: {base: -4096, size: \"4 * n\"}\n",
                    5, "buffer base is negative", NULL);
    expect_error_in("listing: ../traces/kernels/saxpy/saxpy.sm_80.sass\n"
                    "params: {n: 100, stride: 1}\n"
                    "launch: {grid: [1, 1, 1], block: [128, 1, 1]}\n"
                    "buffers:\n  x: {base: 0x7fffffffffff0000, size: "
                    "0x100000}\n",
                    5, "buffer ends past 2^63", NULL);
    /* Expression errors surface with the rule's position. */
    deep = malloc(20000 * 2 + 200);
    assert_non_null(deep);
    strcpy(deep, "when: {\"EXIT#1\": \"");
    for (int i = 0; i < 20000; i++)
        memcpy(deep + 18 + 2 * i, "- ", 3);
    strcat(deep, "i >= n\"}\n");
    strcat(deep, "memory: {\"LDG#1\": \"x\", \"LDG#2\": \"y\", \"STG#1\": "
                 "\"y\"}\n");
    expect_error(deep, 8, "expression nested too deeply");
    free(deep);
    snprintf(buf, sizeof buf,
             "when: {\"EXIT#1\": \"log2(i - i) > 0\"}\n"
             "memory: {\"LDG#1\": \"x\", \"LDG#2\": \"y\", \"STG#1\": "
             "\"y\"}\n");
    expect_error(buf, 8, "log2 of 0");
    snprintf(buf, sizeof buf,
             "when: {\"EXIT#1\": \"i >= n << 64\"}\n"
             "memory: {\"LDG#1\": \"x\", \"LDG#2\": \"y\", \"STG#1\": "
             "\"y\"}\n");
    expect_error(buf, 8, "shift by 64");
}

static const char endless[] =
    "listing: ../traces/kernels/reduce/reduce.sm_80.sass\n"
    "params: {n: 256}\nlaunch: {grid: [2, 1, 1], block: [256, 1, 1]}\n"
    "buffers: {x: {base: 0x1000, size: 1024}, out: {base: 0x9000, size: 4}}\n"
    "let: {s: \"1\"}\n"
    "when: {\"BRA#1\": \"0\", \"EXIT#1\": \"tid.x != 0\"}\n"
    "loops: {\"BRA#2\": {counter: k, trips: \"1 << 40\"}}\n"
    "memory: {\"LDG#1\": \"x\", \"STS#1\": \"0\", \"LDS#1\": \"0\", "
    "\"LDS#2\": \"0\", \"STS#2\": \"0\", \"LDS#3\": \"0\", \"RED#1\": \"out\"}\n";

/* The limits are the trace options' (--max-warp-insts, --max-insts), and
 * the messages say they are limits, naming the flag. */
static void test_limits(void **state)
{
    struct ws_trace_opts opts;

    (void)state;
    ws_trace_opts_default(&opts);
    opts.max_warp_insts = 5000;
    expect_error_in(endless, 1,
                    "warp 0 of CTA (0,0,0) ran past 5000 "
                    "instructions, the per-warp limit (expected fewer; raise "
                    "it with --max-warp-insts N)",
                    &opts);
    ws_trace_opts_default(&opts);
    opts.max_insts = 100000;
    expect_error_in(endless, 1,
                    "ran past 100000 warp instructions, the limit "
                    "(expected fewer; raise it with --max-insts N)",
                    &opts);
    ws_trace_opts_default(&opts);
    opts.max_ctas = 1;
    expect_error_in(endless, 3,
                    "grid of 2 CTAs is over the limit of 1 "
                    "(expected at most --max-ctas CTAs",
                    &opts);
}

/* A bounded loop of a million trips is not mistaken for an endless one
 * (the old fixed cap of 2^22 instructions per warp was). */
static void test_long_loop(void **state)
{
    const char *sets[] = {"hops=1000000", "elems=64", "stride=5"};
    struct ws_workload w;
    struct ws_expander x;
    struct ws_err err;
    const struct ws_cta_stream *cta;

    (void)state;
    load(&w, "traces/kernels/pchase/workload.yaml", sets, 3, NULL);
    ws_err_clear(&err);
    assert_int_equal(ws_expand_init(&x, &w, &err), 0);
    if (ws_expand_next(&x, &cta, &err) != 1)
        fail_msg("%s", err.text);
    assert_true(cta->warps[0].ninst > 4000000);
    assert_int_equal(ws_expand_next(&x, &cta, &err), 0);
    ws_expand_free(&x);
    ws_workload_free(&w);
}

/* ---- lanes evaluated together ---------------------------------------------
 * Lets are evaluated again only for lanes whose inputs moved, and a fault
 * found for a group of lanes is reported for the lowest failing lane. */

/* pchase's loop with a warp of 32 lanes, lane l running 1 + l % 4 trips:
 * e reads the counter, g reads e, and the store after the loop reads e
 * again once the counter is back at 0. */
static const char lanes_loop[] =
    "listing: ../traces/kernels/pchase/pchase.sm_80.sass\n"
    "params: {hops: 4}\n"
    "launch: {grid: [1, 1, 1], block: [32, 1, 1]}\n"
    "buffers: {next: {base: 0x1000, size: 1024}, out: {base: 0x9000, size: 128}}\n"
    "let: {e: \"h * 32 + tid.x + off\", g: \"4 * e\"}\n"
    "when: {\"BRA#1\": \"hops < 1\"}\n"
    "loops: {\"BRA#2\": {counter: h, trips: \"1 + tid.x % 4\"}}\n"
    "memory: {\"LDG#1\": \"next + g\", \"STG#1\": \"out + 4 * e\"}\n";

static void test_lets_follow_counters(void **state)
{
    const char *path = write_workload(lanes_loop);
    struct ws_workload w;
    struct ws_expander x;
    struct ws_err err;
    const struct ws_cta_stream *cta;
    const struct ws_warp_stream *ws;
    uint32_t trip = 0, stores = 0;

    (void)state;
    load(&w, path, NULL, 0, NULL);
    remove(path);
    ws_err_clear(&err);
    assert_int_equal(ws_expand_init(&x, &w, &err), 0);
    if (ws_expand_next(&x, &cta, &err) != 1)
        fail_msg("%s", err.text);
    ws = &cta->warps[0];
    for (uint32_t i = 0; i < ws->ninst; i++) {
        const struct ws_inst *in = &ws->inst[i];
        uint32_t k = 0, want = 0;
        if (!in->width)
            continue;
        if (in->memop == WS_MEMOP_LOAD) {
            for (uint32_t l = 0; l < 32; l++)
                if (1 + l % 4 > trip)
                    want |= 1u << l;
            assert_int_equal(in->mask, want);
            for (uint32_t l = 0; l < 32; l++)
                if (want >> l & 1)
                    assert_int_equal(cta->addrs[in->addr + k++],
                                     0x1000 + 4 * (trip * 32 + l));
            trip++;
        } else {
            assert_int_equal(in->mask, 0xffffffffu);
            for (uint32_t l = 0; l < 32; l++)
                assert_int_equal(cta->addrs[in->addr + l], 0x9000 + 4 * l);
            stores++;
        }
    }
    assert_int_equal(trip, 4);
    assert_int_equal(stores, 1);
    ws_expand_free(&x);
    ws_workload_free(&w);
}

static const char lanes_saxpy[] =
    "listing: ../traces/kernels/saxpy/saxpy.sm_80.sass\n"
    "params: {n: 100, stride: 1}\n"
    "launch: {grid: [1, 1, 1], block: [32, 1, 1]}\n"
    "buffers: {x: {base: 0x1000, size: 36}, y: {base: 0x100000, size: 400}}\n"
    "let: {i: \"tid.x\"%s}\n"
    "when: {\"EXIT#1\": \"i >= n\"}\n"
    "memory: {\"LDG#1\": \"%s\", \"LDG#2\": \"y\", \"STG#1\": \"y\"}\n";

static const char lanes_pchase[] =
    "listing: ../traces/kernels/pchase/pchase.sm_80.sass\n"
    "params: {hops: 4}\n"
    "launch: {grid: [1, 1, 1], block: [32, 1, 1]}\n"
    "buffers: {next: {base: 0x1000, size: 1024}, out: {base: 0x9000, size: 4}}\n"
    "let: {t: \"tid.x\"%s}\n"
    "when: {\"BRA#1\": \"hops < 1\"}\n"
    "loops: {\"BRA#2\": {counter: h, trips: \"%s\"}}\n"
    "memory: {\"LDG#1\": \"next\", \"STG#1\": \"out\"}\n";

/* Lane 9's address is the first outside x (36 bytes); whichever of that
 * and a fault comes in the lower lane is the error, as when lanes were
 * evaluated one after another. */
static void test_lane_errors(void **state)
{
    char text[2048];

    (void)state;
    snprintf(text, sizeof text, lanes_saxpy, "", "x + 4 * i + 0 / (12 - i)");
    expect_error_in(text, 7,
                    "address 4132 of lane 9 of warp 0, CTA (0,0,0) "
                    "lies outside every declared buffer",
                    NULL);
    snprintf(text, sizeof text, lanes_saxpy, "", "x + 4 * i + 0 / (3 - i)");
    expect_error_in(text, 7, "division by zero", NULL);
    /* Lanes in the same buffer share one search: the first is still made. */
    snprintf(text, sizeof text, lanes_saxpy, "", "1");
    expect_error_in(text, 7, "address 1 of lane 0 of warp 0", NULL);
    snprintf(text, sizeof text, lanes_saxpy, "", "x + 36 * (i / 31)");
    expect_error_in(text, 7, "address 4132 of lane 31 of warp 0", NULL);
    /* A let faults at its first use, even for a rule that does not read it. */
    snprintf(text, sizeof text, lanes_saxpy, ", d: \"1 / (i - 30)\"", "x");
    expect_error_in(text, 5, "division by zero", NULL);
    snprintf(text, sizeof text, lanes_pchase, "",
             "tid.x == 7 ? 0 : 1 + 0 / (20 - tid.x)");
    expect_error_in(text, 7,
                    "loop trip count of 0 for lane 7 of warp 0, "
                    "CTA (0,0,0)",
                    NULL);
    snprintf(text, sizeof text, lanes_pchase, "",
             "tid.x == 27 ? 0 : 1 + 0 / (20 - tid.x)");
    expect_error_in(text, 7, "division by zero", NULL);
    /* A let of the counter faults once the counter gets there. */
    snprintf(text, sizeof text, lanes_pchase, ", d: \"8 / (2 - h)\"", "hops");
    expect_error_in(text, 5, "division by zero", NULL);
}

/* ---- streamed expansion -------------------------------------------------- */

/* One warp's instructions and addresses, gathered whole. */
struct warp_copy {
    struct ws_inst *inst;
    uint64_t *addrs;
    size_t ninst, naddr;
};

static void copy_append(struct warp_copy *c, const struct ws_inst *in,
                        const uint64_t *addrs)
{
    unsigned lanes = in->width ? (unsigned)__builtin_popcount(in->mask) : 0;

    c->inst = realloc(c->inst, (c->ninst + 1) * sizeof *c->inst);
    c->addrs = realloc(c->addrs, (c->naddr + lanes + 1) * sizeof *c->addrs);
    assert_non_null(c->inst);
    assert_non_null(c->addrs);
    c->inst[c->ninst] = *in;
    c->inst[c->ninst].addr = (uint32_t)c->naddr;
    memcpy(c->addrs + c->naddr, addrs + in->addr, lanes * sizeof *addrs);
    c->ninst++;
    c->naddr += lanes;
}

/* The warps of the first `ctas` CTAs streamed, every warp of them open at
 * once and read round robin through a window of `win` instructions, are
 * the warps ws_expand_next hands out whole: the expander's lane values
 * pass from warp to warp between windows without a trace. */
static void check_streamed(const char *path, const char **sets, int nsets,
                           uint32_t ctas, size_t win)
{
    struct ws_workload w;
    struct ws_expander whole, part;
    const struct ws_cta_stream *cta;
    struct ws_err err;
    struct warp_copy a[64], b[64];
    struct ws_warp_reader r[64];
    struct ws_inst inst[8];
    uint64_t addrs[8 * 32];
    uint32_t nw, open = 0;

    ws_err_clear(&err);
    load(&w, path, sets, nsets, NULL);
    nw = ws_launch_warps_per_cta(&w.launch);
    assert_true(ctas * nw <= 64 && win <= 8);
    memset(a, 0, sizeof a);
    memset(b, 0, sizeof b);
    assert_int_equal(ws_expand_init(&whole, &w, &err), 0);
    assert_int_equal(ws_expand_init(&part, &w, &err), 0);
    for (uint32_t c = 0; c < ctas; c++) {
        assert_int_equal(ws_expand_next(&whole, &cta, &err), 1);
        for (uint32_t k = 0; k < nw; k++)
            for (uint32_t i = 0; i < cta->warps[k].ninst; i++)
                copy_append(&a[c * nw + k], &cta->warps[k].inst[i], cta->addrs);
        assert_int_equal(ws_expand_next_header(&part, &cta, &err), 1);
        for (uint32_t k = 0; k < nw; k++)
            assert_int_equal(ws_expand_warp_open(&part, cta, k, &r[open++],
                                                 &err),
                             0);
    }
    for (uint32_t done = 0; done < open;) {
        done = 0;
        for (uint32_t k = 0; k < open; k++) {
            long n = r[k].read ? r[k].read(r[k].ctx, inst, win, addrs,
                                           sizeof addrs / sizeof addrs[0], &err)
                               : 0;
            assert_true(n >= 0);
            for (long i = 0; i < n; i++)
                copy_append(&b[k], &inst[i], addrs);
            if (n == 0 && r[k].read) {
                r[k].close(r[k].ctx);
                r[k].read = NULL;
            }
            done += r[k].read == NULL;
        }
    }
    for (uint32_t k = 0; k < open; k++) {
        assert_int_equal(a[k].ninst, b[k].ninst);
        assert_int_equal(a[k].naddr, b[k].naddr);
        assert_memory_equal(a[k].inst, b[k].inst,
                            a[k].ninst * sizeof *a[k].inst);
        if (a[k].naddr)
            assert_memory_equal(a[k].addrs, b[k].addrs,
                                a[k].naddr * sizeof *a[k].addrs);
        free(a[k].inst);
        free(a[k].addrs);
        free(b[k].inst);
        free(b[k].addrs);
    }
    ws_expand_free(&whole);
    ws_expand_free(&part);
    ws_workload_free(&w);
}

static void test_streamed(void **state)
{
    const char *apsp[] = {"n=64", "threads=64"};
    const char *fma[] = {"iters=9", "blocks=2", "threads=96"};
    const char *saxpy[] = {"n=200", "threads=96", "stride=8"};

    (void)state;
    check_streamed("traces/kernels/apsp/workload.yaml", apsp, 2, 2, 5);
    check_streamed("traces/kernels/fma/workload.yaml", fma, 3, 2, 3);
    check_streamed("traces/kernels/saxpy/workload.yaml", saxpy, 3, 2, 1);
    check_streamed("traces/kernels/matmul/unroll.yaml", NULL, 0, 2, 7);
    check_streamed("traces/kernels/reduce/workload.yaml", NULL, 0, 2, 4);
    check_streamed("traces/kernels/pchase/workload.yaml", NULL, 0, 1, 8);
    {
        const char *gemm[] = {"M=256", "N=512", "K=256"};
        check_streamed("traces/kernels/hopper/gemm_tma_wgmma.yaml", gemm, 3, 2,
                       3);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_saxpy),
        cmocka_unit_test(test_stream),
        cmocka_unit_test(test_pchase),
        cmocka_unit_test(test_apsp),
        cmocka_unit_test(test_matmul_unroll),
        cmocka_unit_test(test_matmul),
        cmocka_unit_test(test_reduce),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_streamed),
        cmocka_unit_test(test_bad_workloads),
        cmocka_unit_test(test_bad_launches),
        cmocka_unit_test(test_bad_descriptions),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_long_loop),
        cmocka_unit_test(test_lets_follow_counters),
        cmocka_unit_test(test_lane_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
