/*
 * Unit tests of workload descriptions for Hopper kernels
 * (sim/workload/ws_workload_tma.c, ws_expand_async.c): TMA boxes built from
 * tensors and coordinates, clipped to the tensor with the rest as fill,
 * mbarrier immediates, cluster launches, and every malformed rule.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/ws_async_op.h"
#include "trace/ws_opcode.h"
#include "workload/ws_expand.h"
#include "workload/ws_expand_internal.h"
#include "ws_test.h"
#include "ws_wltest.h"

/* ---- Hopper: TMA boxes and mbarrier immediates ---------------------------
 * traces/kernels/hopper/gemm_tma_wgmma.yaml, edited in memory: A is M x K
 * and B is N x K fp16, K innermost (hopper_make_tmap_kmajor_f16); the
 * producer (warp 0, lane 0) loads box A (64 x 128) at (kt * 64, ctaid.y *
 * 128) and box B (64 x 256) at (kt * 64, ctaid.x * 256) onto full[kt % 4] =
 * 0x400 + 0x30000 + 8 * (kt % 4) (gemm_tma_wgmma.cu's layout). */

#define HOPPER_WL "traces/kernels/hopper/gemm_tma_wgmma.yaml"
#define HOPPER_A 0x7f0000000000ull
#define HOPPER_B 0x7f1000000000ull
#define HOPPER_FULL (0x400u + 0x30000u)

/* The bundled description with `from` (which must occur once) replaced by
 * `to`, its listing named from tests/; the caller frees it. */
static char *hopper_text(const char *from, const char *to)
{
    FILE *fp = fopen(HOPPER_WL, "r");
    char *text = calloc(1, 1 << 16), *out = calloc(1, 1 << 16), *at;
    size_t n;

    assert_non_null(fp);
    assert_non_null(text);
    assert_non_null(out);
    n = fread(text, 1, (1 << 16) - 1, fp);
    fclose(fp);
    text[n] = '\0';
    at = strstr(text, "listing: ");
    assert_non_null(at);
    memcpy(out, text, (size_t)(at - text));
    strcat(out, "listing: ../traces/kernels/hopper/");
    strcat(out, at + strlen("listing: "));
    free(text);
    if (from) {
        char *tail;
        at = strstr(out, from);
        assert_non_null(at);
        assert_null(strstr(at + 1, from));
        tail = strdup(at + strlen(from));
        assert_non_null(tail);
        strcpy(at, to);
        strcat(at, tail);
        free(tail);
    }
    return out;
}

/* The 1-based line of the first `needle` in text. */
static long line_of(const char *text, const char *needle)
{
    const char *at = strstr(text, needle);
    long line = 1;

    assert_non_null(at);
    for (const char *p = text; p < at; p++)
        line += *p == '\n';
    return line;
}

/* The k-th (from 1) instruction of a warp whose opcode starts with op. */
static const struct ws_inst *nth_op(const struct ws_workload *w,
                                    const struct ws_warp_stream *ws,
                                    const char *op, int k)
{
    for (uint32_t i = 0; i < ws->ninst; i++)
        if (strncmp(ws_strtab_str(&w->sass.strs, ws->inst[i].op), op,
                    strlen(op))
                == 0
            && --k == 0)
            return &ws->inst[i];
    fail_msg("no %s", op);
    return NULL;
}

static void expect_box(const struct ws_cta_stream *cta,
                       const struct ws_inst *in, uint64_t base,
                       uint32_t row_bytes, uint32_t rows, uint64_t pitch,
                       uint64_t mbar)
{
    const uint64_t *a = cta->addrs + in->addr;
    struct ws_box b;

    assert_int_equal(in->mask, WS_BOX_MASK);
    assert_int_equal(in->width, 4);
    assert_int_equal(ws_box_unpack(a, WS_BOX_MAX_BYTES, &b), 0);
    assert_int_equal(b.base, base);
    assert_int_equal(b.row_bytes, row_bytes);
    assert_int_equal(b.rows, rows);
    assert_int_equal(b.pitch, pitch);
    assert_int_equal(b.mbar, mbar);
    assert_int_equal(b.planes, 1);
    assert_int_equal(b.multicast, 0);
}

/* Expands text with M = N = 256 and K = 128 (grid 1 x 2, two K tiles)
 * into w, x; returns CTA (0, 1). */
static const struct ws_cta_stream *
hopper_cta1(struct ws_workload *w, struct ws_expander *x, const char *text)
{
    const char *sets[] = {"M=256", "N=256", "K=128"};
    const char *path = write_workload(text);
    const struct ws_cta_stream *cta;
    struct ws_err err;

    load(w, path, sets, 3, NULL);
    remove(path);
    ws_err_clear(&err);
    assert_int_equal(ws_expand_init(x, w, &err), 0);
    assert_int_equal(ws_expand_next(x, &cta, &err), 1);
    assert_int_equal(ws_expand_next(x, &cta, &err), 1);
    assert_int_equal(cta->ctaid[1], 1);
    return cta;
}

static void test_hopper_boxes(void **state)
{
    char *text = hopper_text(NULL, NULL);
    struct ws_workload w;
    struct ws_expander x;
    const struct ws_cta_stream *cta;
    const struct ws_warp_stream *prod, *cons;
    const uint64_t arow = 2 * 128; /* bytes per row of A and B: K fp16 */

    (void)state;
    cta = hopper_cta1(&w, &x, text);
    prod = &cta->warps[0];
    cons = &cta->warps[4];
    /* K tile 0 onto full[0], tile 1 onto full[1]; A rows from 128. */
    expect_box(cta, nth_op(&w, prod, "UTMALDG", 1), HOPPER_A + 128 * arow, 128,
               128, arow, HOPPER_FULL);
    expect_box(cta, nth_op(&w, prod, "UTMALDG", 2), HOPPER_B, 128, 256, arow,
               HOPPER_FULL);
    expect_box(cta, nth_op(&w, prod, "UTMALDG", 3), HOPPER_A + 128 * arow + 128,
               128, 128, arow, HOPPER_FULL + 8);
    /* mbarrier.init: full[s] counts 1, empty[s] 8 consumer warps. */
    assert_int_equal(nth_op(&w, prod, "SYNCS.EXCH", 1)->imm, 1);
    assert_int_equal(nth_op(&w, prod, "SYNCS.EXCH", 2)->imm, 8);
    assert_int_equal(cta->addrs[nth_op(&w, prod, "SYNCS.EXCH", 2)->addr],
                     HOPPER_FULL + 0x20);
    /* arrive.expect_tx of the 48 KB stage; waits: the producer's on
     * empty[s] with parity 1 (passes at once), the consumers' on full[s]
     * with parity 0, both known (bit 1). */
    assert_int_equal(nth_op(&w, prod, "SYNCS.ARRIVE", 1)->imm, 49152);
    assert_int_equal(nth_op(&w, prod, "SYNCS.PHASECHK", 1)->imm, 3);
    assert_int_equal(nth_op(&w, cons, "SYNCS.PHASECHK", 1)->imm, 2);
    assert_int_equal(cta->addrs[nth_op(&w, cons, "SYNCS.PHASECHK", 2)->addr],
                     HOPPER_FULL + 8);
    /* The consumer's release of stage 0, in K tile 1, by lane 0 only. */
    assert_int_equal(nth_op(&w, cons, "SYNCS.ARRIVE", 1)->mask, 0);
    assert_int_equal(nth_op(&w, cons, "SYNCS.ARRIVE", 2)->mask, 1);
    assert_int_equal(cta->addrs[nth_op(&w, cons, "SYNCS.ARRIVE", 2)->addr],
                     HOPPER_FULL + 0x20);
    ws_expand_free(&x);
    ws_workload_free(&w);
    free(text);
}

/* A tensor smaller than the boxes: out-of-bounds rows and columns move
 * nothing, and a box wholly outside predicates the copy off. */
static void test_hopper_clip(void **state)
{
    char *text = hopper_text("dims: [\"K\", \"M\"]", "dims: [96, 200]");
    char *none = hopper_text("dims: [\"K\", \"N\"]", "dims: [64, \"N\"]");
    struct ws_workload w;
    struct ws_expander x;
    const struct ws_cta_stream *cta;

    (void)state;
    cta = hopper_cta1(&w, &x, text);
    /* CTA y 1: rows 128..199 of 200; tile 1: columns 64..95 of 96. */
    expect_box(cta, nth_op(&w, &cta->warps[0], "UTMALDG", 1),
               HOPPER_A + 128 * 192, 128, 72, 192, HOPPER_FULL);
    expect_box(cta, nth_op(&w, &cta->warps[0], "UTMALDG", 3),
               HOPPER_A + 128 * 192 + 128, 64, 72, 192, HOPPER_FULL + 8);
    ws_expand_free(&x);
    ws_workload_free(&w);
    cta = hopper_cta1(&w, &x, none);
    /* B's K is 64: tile 1's box starts past it. */
    expect_box(cta, nth_op(&w, &cta->warps[0], "UTMALDG", 2), HOPPER_B, 128,
               256, 128, HOPPER_FULL);
    {
        /* Wholly outside: nothing read, the whole box filled (its bytes
         * still complete the mbarrier). */
        const struct ws_inst *in = nth_op(&w, &cta->warps[0], "UTMALDG", 4);
        struct ws_box b;
        assert_int_equal(in->mask, WS_BOX_MASK);
        assert_int_equal(ws_box_unpack(cta->addrs + in->addr, WS_BOX_MAX_BYTES,
                                       &b),
                         0);
        assert_int_equal(ws_box_bytes(&b), 0);
        assert_int_equal(b.fill, 2 * 64 * 256);
    }
    ws_expand_free(&x);
    ws_workload_free(&w);
    free(text);
    free(none);
}

/* One edit of the bundled description, expecting an error at the line of
 * `at` (in the edited text) containing want. */
static void expect_hopper_error(const char *from, const char *to,
                                const char *at, const char *want)
{
    char *text = hopper_text(from, to);

    expect_error_in(text, line_of(text, at), want, NULL);
    free(text);
}

static void test_hopper_errors(void **state)
{
    (void)state;
    /* Like a memory instruction without an address, at the top. */
    expect_hopper_error("  \"UTMALDG#2\":", "  \"UTMALDG#9\":", "\"UTMALDG#9\"",
                        "no instruction 'UTMALDG#9'");
    expect_hopper_error("  \"UTMALDG#2\":", "  # \"UTMALDG#2\":", "listing:",
                        "UTMALDG.2D at offset 0x1860 is a bulk copy with no "
                        "box (expected a tma rule naming its tensor and "
                        "coordinates)");
    expect_hopper_error("  \"STG.E*\"", "  \"UTMALDG#1\": \"A\"\n  \"STG.E*\"",
                        "\"UTMALDG#1\": \"A\"",
                        "is a bulk copy (expected a tma");
    expect_hopper_error("{tx: \"2 * (128 + 256) * 64\"}", "{count: \"1\"}",
                        "{count: \"1\"}",
                        "SYNCS.ARRIVE.TRANS64#2 is not an mbarrier instruction "
                        "that takes a count (expected SYNCS.EXCH");
    expect_hopper_error("{tx: \"2 * (128 + 256) * 64\"}", "{tx: \"1 << 20\"}",
                        "{tx: \"1 << 20\"}",
                        "transaction bytes of 1048576 for lane 0 of warp 0");
    expect_hopper_error("elem: 2, dims: [\"K\", \"N\"], box: [64, 256]",
                        "elem: 8, dims: [\"K\", \"N\"], box: [256, 256]",
                        "box: [256, 256]", "box of 524288 bytes");
    expect_hopper_error("box: [64, 256]", "box: [64, 256, 4]",
                        "box: [64, 256, 4]", "box and dims differ");
    expect_hopper_error("{tensor: B,", "{tensor: C,", "{tensor: C,",
                        "no tensor 'C'");
    expect_hopper_error("coords: [\"kp * 64\", \"ctaid.x * 256\"]",
                        "coords: [\"kp * 64\"]", "coords: [\"kp * 64\"]",
                        "1 coordinate for a 2-D tensor");
    expect_hopper_error("mbar: \"full + 8 * (kp % 4)\"}\n  \"UTMALDG#2\"",
                        "mbar: \"full + 4\"}\n  \"UTMALDG#2\"",
                        "mbar: \"full + 4\"",
                        "mbarrier address of 197636 for lane 0 of warp 0");
    expect_hopper_error("dims: [\"K\", \"N\"]", "dims: [\"K\", \"2 * N\"]",
                        "B: {buffer: B", "tensor extends past the end");
}

/* launch: cluster: [2, 1, 1] (gemm_cluster.yaml): CTAs go out cluster by
 * cluster, each with its cluster's id and its rank; a grid that does not
 * tile into clusters is refused. */
static void test_hopper_cluster(void **state)
{
    const char *sets[] = {"M=256", "N=1024", "K=64"};
    const char *odd[] = {"N=256"};
    struct ws_workload w;
    struct ws_expander x;
    const struct ws_cta_stream *cta;
    struct ws_err err;
    uint32_t n = 0;

    (void)state;
    load(&w, "traces/kernels/hopper/gemm_cluster.yaml", sets, 3, NULL);
    assert_int_equal(w.launch.cluster[0], 2);
    assert_int_equal(w.launch.cluster[1], 1);
    ws_err_clear(&err);
    assert_int_equal(ws_expand_init(&x, &w, &err), 0);
    while (ws_expand_next(&x, &cta, &err) == 1) {
        assert_true(cta->has_cluster);
        assert_int_equal(cta->ctaid[0], n % 4);
        assert_int_equal(cta->ctaid[1], n / 4);
        assert_int_equal(cta->cluster_rank, cta->ctaid[0] % 2);
        assert_int_equal(cta->cluster_id[0], cta->ctaid[0] / 2);
        assert_int_equal(cta->cluster_id[1], cta->ctaid[1]);
        n++;
    }
    assert_int_equal(n, 8);
    ws_expand_free(&x);
    ws_workload_free(&w);
    ws_err_clear(&err);
    assert_int_equal(ws_workload_load(&w,
                                      "traces/kernels/hopper/"
                                      "gemm_cluster.yaml",
                                      odd, 1, NULL, NULL, &err),
                     -1);
    assert_non_null(strstr(err.text, "grid x of 1 is not a multiple of the "
                                     "cluster's 2"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hopper_boxes),
        cmocka_unit_test(test_hopper_clip),
        cmocka_unit_test(test_hopper_errors),
        cmocka_unit_test(test_hopper_cluster),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
