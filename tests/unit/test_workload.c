/*
 * Unit tests of workload expansion (sim/trace/ws_workload.c, ws_expand.c,
 * ws_tracew.c).  Expected counts, masks and addresses are derived from the
 * CUDA sources' logic (traces/kernels/NAME/NAME.cu) and from where the
 * listings put their instructions, never from the expander itself; each
 * kernel is checked on its sm_80 and sm_90 listings.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/ws_expand.h"
#include "trace/ws_opcode.h"
#include "trace/ws_traceg.h"
#include "trace/ws_tracew.h"
#include "ws_test.h"

static const char *const saxpy_listings[] = {
    "traces/kernels/saxpy/saxpy.sm_80.sass",
    "traces/kernels/saxpy/saxpy.sm_90.nvdisasm"
};
static const char *const reduce_listings[] = {
    "traces/kernels/reduce/reduce.sm_80.sass",
    "traces/kernels/reduce/reduce.sm_90.nvdisasm"
};

static void load(struct ws_workload *w, const char *path, const char **sets,
                 int nsets, const char *listing)
{
    struct ws_err err;

    ws_err_clear(&err);
    if (ws_workload_load(w, path, sets, nsets, listing, NULL, &err) < 0)
        fail_msg("%s", err.text);
}

/* Index after the n-th instruction with this base mnemonic (its length
 * from the start of the function, in instructions). */
static uint32_t upto(const struct ws_workload *w, const char *mnemonic, int n)
{
    const struct ws_sass_func *f = w->func;

    for (uint32_t i = 0; i < f->ninst; i++) {
        const char *op = ws_strtab_str(&w->sass.strs, w->sass.insts[f->first + i].op);
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
                                    saxpy_listings[l], 1000 + 333 * s, 256, s,
                                    2, {0x7f0000000000ull, 0x7f1000000000ull}};
            check_elementwise(&e);
        }
}

static void test_stream(void **state)
{
    (void)state;
    for (int l = 0; l < 2; l++) {
        const char *listing = l ? "traces/kernels/stream/stream.sm_90.nvdisasm"
                                : "traces/kernels/stream/stream.sm_80.sass";
        struct elementwise copy = {"traces/kernels/stream/copy.yaml", listing,
                                   5000, 128, 0, 2,
                                   {0x7f0000000000ull, 0x7f1000000000ull}};
        struct elementwise triad = {"traces/kernels/stream/triad.yaml",
                                    listing, 7777, 256, 0, 3,
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
        const struct ws_sass_inst *b = &w.sass.insts[w.func->first + loop_len - 1];
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
                if (body[i].space == WS_SPACE_SHARED && body[i].memop == WS_MEMOP_LOAD) {
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
            const struct ws_sass_inst *b = &w.sass.insts[w.func->first + close - 1];
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
                if (in->space == WS_SPACE_GLOBAL && in->memop == WS_MEMOP_LOAD) {
                    /* Warp 0's first load: A(by, kb = 0), element 0. */
                    if (wi == 0 && first_ldg)
                        assert_true(cta->addrs[in->addr] == 0x7f0000000000ull
                                    + 4ull * (cta->ctaid[1] * (uint64_t)sd
                                              * (uint64_t)n));
                    first_ldg = 0;
                    ldg += lanes;
                }
                stg += in->space == WS_SPACE_GLOBAL && in->memop == WS_MEMOP_STORE
                       ? lanes : 0;
                lds += in->space == WS_SPACE_SHARED && in->memop == WS_MEMOP_LOAD
                       ? lanes : 0;
                sts += in->space == WS_SPACE_SHARED && in->memop == WS_MEMOP_STORE
                       ? lanes : 0;
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
        check_apsp(listings[l], 64, 8, 96);     /* 64 elements, 96 threads */
        check_apsp(listings[l], 96, 16, 96);    /* uneven ownership */
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
                    assert_true(a % 16 == 0 && (a < 0x100 || (a >= 0x400 && a < 0x500)));
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
        "traces/kernels/matmul/matmul.sm_90.sass"
    };
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
        assert_int_equal(c.sh_load_bytes, ctas * tiles * threads * per_thread * 8);
        assert_int_equal(c.sh_stores, ctas * tiles * 512);
    }
    free(seen);
    ws_expand_free(&x);
    ws_workload_free(&w);
}

static void test_matmul(void **state)
{
    static const char *const versions[] = {
        "baseline", "tiling", "coalescing", "nobankconflict", "computeopt",
        "unroll", "prefetch"
    };

    (void)state;
    /* sm_90 twice: cuobjdump and nvdisasm print the same code. */
    for (size_t v = 0; v < sizeof versions / sizeof versions[0]; v++)
        for (int l = 0; l < 3; l++)
            check_matmul(versions[v], l);
}

/* ---- trace gen: written and read back, the same stream ----------------- */

static void test_round_trip(void **state)
{
    const char *sets[] = {"n=3000", "stride=8"};
    const char *path = "/tmp/ws-test-roundtrip.traceg";
    struct ws_workload w;
    struct ws_expander x;
    struct ws_traceg *r;
    struct ws_err err;
    const struct ws_cta_stream *a, *b;
    FILE *fp;

    (void)state;
    load(&w, "traces/kernels/saxpy/workload.yaml", sets, 2, NULL);
    ws_err_clear(&err);
    assert_int_equal(ws_expand_init(&x, &w, &err), 0);
    fp = fopen(path, "w");
    assert_non_null(fp);
    ws_tracew_header(fp, &w.launch);
    while (ws_expand_next(&x, &a, &err) == 1)
        ws_tracew_cta(fp, a, &w.sass.strs);
    fclose(fp);
    ws_expand_free(&x);
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
                for (unsigned k = 0; p->width && k < (unsigned)__builtin_popcount(p->mask); k++)
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

/* ---- malformed workloads -------------------------------------------------- */

static const char saxpy_head[] =
    "listing: ../traces/kernels/saxpy/saxpy.sm_80.sass\n"
    "params: {n: 100, stride: 1}\n"
    "launch: {grid: [1, 1, 1], block: [128, 1, 1]}\n"
    "buffers:\n  x: {base: 0x1000, size: \"4 * n\"}\n  y: {base: 0x100000, size: \"4 * n\"}\n"
    "let: {i: \"tid.x\"}\n";

static void expect_error(const char *body, long line, const char *want)
{
    const char *path = "tests/ws-test-bad-workload.yaml";
    FILE *fp = fopen(path, "w");
    struct ws_workload w;
    struct ws_expander x;
    struct ws_err err;
    const struct ws_cta_stream *cta;
    int rc;

    assert_non_null(fp);
    fputs(saxpy_head, fp);
    fputs(body, fp);
    fclose(fp);
    ws_err_clear(&err);
    rc = ws_workload_load(&w, path, NULL, 0, NULL, NULL, &err);
    if (rc == 0) {
        assert_int_equal(ws_expand_init(&x, &w, &err), 0);
        while ((rc = ws_expand_next(&x, &cta, &err)) == 1)
            ;
        ws_expand_free(&x);
        ws_workload_free(&w);
    }
    remove(path);
    if (rc != -1)
        fail_msg("no error, expected '%s'", want);
    ws_test_err(&err, path, line, want);
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
    expect_error("when: {\"EXIT#1\": \"i >= n\"}\nmemory: {\"LDG#1\": \"x + 4 * i "
                 "/ (i - i)\", \"LDG#2\": \"y\", \"STG#1\": \"y\"}\n", 9,
                 "division by zero");
    expect_error("when: {\"EXIT#1\": \"i >= n\"}\nmemory: {\"LDG#1\": \"x + 4 * "
                 "n\", \"LDG#2\": \"y\", \"STG#1\": \"y\"}\n", 9,
                 "lies outside every declared buffer");
    expect_error("when: {\"EXIT#1\": \"i >= n\"}\nmemory: {\"LDG#1\": \"x\"}\n",
                 1, "has no address");
    snprintf(buf, sizeof buf, "%s", mem);
    expect_error(buf, 1, "a guarded EXIT with no rule");
    snprintf(buf, sizeof buf, "when: {\"LDG#1\": \"1\"}\n%s", mem);
    expect_error(buf, 8, "not guarded by a predicate");
    snprintf(buf, sizeof buf, "colour: blue\nwhen: {\"EXIT#1\": \"i >= n\"}\n%s", mem);
    expect_error(buf, 8, "unknown workload key 'colour'");
    snprintf(buf, sizeof buf, "when: {\"EXIT#1\": \"i >= n +\"}\n%s", mem);
    expect_error(buf, 8, "expression ends early");
    snprintf(buf, sizeof buf, "when: {\"EXIT#1\": \"i >= n\"}\nmemory: "
             "{\"LDG.256*\": \"x\", \"LDG#1\": \"x\", \"LDG#2\": \"y\", "
             "\"STG#1\": \"y\"}\n");
    expect_error(buf, 9, "matches LDG.256*");
}

static void test_endless_loop(void **state)
{
    const char *path = "tests/ws-test-loop.yaml";
    FILE *fp = fopen(path, "w");
    struct ws_workload w;
    struct ws_expander x;
    struct ws_err err;
    const struct ws_cta_stream *cta;

    (void)state;
    assert_non_null(fp);
    fputs("listing: ../traces/kernels/reduce/reduce.sm_80.sass\n"
          "params: {n: 256}\nlaunch: {grid: [1, 1, 1], block: [256, 1, 1]}\n"
          "buffers: {x: {base: 0x1000, size: 1024}, out: {base: 0x9000, size: 4}}\n"
          "let: {s: \"1\"}\n"
          "when: {\"BRA#1\": \"0\", \"EXIT#1\": \"tid.x != 0\"}\n"
          "loops: {\"BRA#2\": {counter: k, trips: \"1 << 40\"}}\n"
          "memory: {\"LDG#1\": \"x\", \"STS#1\": \"0\", \"LDS#1\": \"0\", "
          "\"LDS#2\": \"0\", \"STS#2\": \"0\", \"LDS#3\": \"0\", \"RED#1\": \"out\"}\n",
          fp);
    fclose(fp);
    ws_err_clear(&err);
    assert_int_equal(ws_workload_load(&w, path, NULL, 0, NULL, NULL, &err), 0);
    assert_int_equal(ws_expand_init(&x, &w, &err), 0);
    assert_int_equal(ws_expand_next(&x, &cta, &err), -1);
    assert_non_null(strstr(err.text, "a loop that never ends"));
    ws_expand_free(&x);
    ws_workload_free(&w);
    remove(path);
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
        cmocka_unit_test(test_bad_workloads),
        cmocka_unit_test(test_endless_loop),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
