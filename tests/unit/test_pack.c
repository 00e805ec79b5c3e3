/*
 * Unit tests of the packed trace (sim/trace/ws_pack.c, ws_packr*.c): every
 * bundled Accel-Sim trace packed and read back equal, CTA by CTA and
 * address by address, to the text reader's stream and served from the
 * mapping; a pack read under another unknown_opcode_class corrected to
 * what the text gives; the limits; and corrupt files (checksum, size,
 * magic, and damage behind a valid checksum) as one error each.  The
 * layout's invariants have their own tests (test_pack_layout.c), and so
 * has a file that changes while it is read (test_pack_changed.c).
 */
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xxhash.h>

#include "input/ws_input.h"
#include "trace/ws_opcode.h"
#include "trace/ws_pack.h"
#include "ws_packfix.h"
#include "ws_test.h"

static void same_cta(const struct ws_cta_stream *a,
                     const struct ws_cta_stream *b)
{
    assert_memory_equal(a->ctaid, b->ctaid, sizeof a->ctaid);
    assert_int_equal(a->linear_id, b->linear_id);
    assert_int_equal(a->has_cluster, b->has_cluster);
    if (a->has_cluster) {
        assert_memory_equal(a->cluster_id, b->cluster_id, sizeof a->cluster_id);
        assert_memory_equal(a->cluster_cta, b->cluster_cta,
                            sizeof a->cluster_cta);
        assert_int_equal(a->cluster_rank, b->cluster_rank);
    }
    assert_int_equal(a->nwarps, b->nwarps);
    assert_int_equal(a->ninst, b->ninst);
    assert_int_equal(a->naddrs, b->naddrs);
    for (uint32_t w = 0; w < a->nwarps; w++) {
        const struct ws_warp_stream *x = &a->warps[w], *y = &b->warps[w];
        assert_int_equal(x->ninst, y->ninst);
        if (x->ninst)
            assert_memory_equal(x->inst, y->inst, x->ninst * sizeof *x->inst);
        for (uint32_t i = 0; i < x->ninst; i++) {
            const struct ws_inst *in = &x->inst[i];
            unsigned lanes = (unsigned)__builtin_popcount(in->mask);
            if (in->width && lanes)
                assert_memory_equal(a->addrs + in->addr, b->addrs + in->addr,
                                    lanes * sizeof *a->addrs);
        }
    }
}

/* Reads kernel k of the pack and of the text input side by side; returns
 * the CTAs served from a corrected copy. */
static uint64_t compare_kernel(struct ws_input *text, size_t cmd,
                               const struct ws_pack *p, size_t k,
                               const struct ws_trace_opts *opts)
{
    struct ws_input_kernel tk;
    struct ws_pack_reader *r;
    const struct ws_cta_stream *a, *b;
    struct ws_err err;
    uint64_t mapped, copied, ctas = 0;
    int ra, rb;

    ws_err_clear(&err);
    assert_int_equal(ws_input_kernel_open(text, cmd, &tk, &err), 0);
    if (ws_pack_reader_open(&r, p, k, opts, &err) < 0)
        fail_msg("%s", err.text);
    assert_string_equal(ws_pack_reader_launch(r)->name, tk.src.launch->name);
    assert_int_equal(ws_pack_reader_launch(r)->sm_version,
                     tk.src.launch->sm_version);
    for (;;) {
        ra = tk.src.next(tk.src.ctx, &a, &err);
        rb = ws_pack_reader_next_cta(r, &b, &err);
        assert_int_equal(ra, rb);
        if (ra != 1)
            break;
        same_cta(a, b);
        ctas++;
    }
    assert_int_equal(ra, 0);
    /* The text reader interns as it reads: equal once both are through. */
    assert_int_equal(ws_pack_reader_opcodes(r)->count, tk.src.ops->count);
    ws_pack_reader_counts(r, &mapped, &copied);
    assert_int_equal(mapped + copied, ctas);
    ws_pack_reader_close(r);
    ws_input_kernel_close(&tk);
    return copied;
}

/* Packs path and checks every kernel and command against the text;
 * returns the CTAs served from a copy. */
static uint64_t roundtrip(const char *path, const struct ws_trace_opts *read)
{
    const char *wst = pack_to_tmp(path, NULL);
    struct ws_input_params ip;
    struct ws_input *text;
    struct ws_pack *p;
    struct ws_cmdlist list;
    struct ws_err err;
    uint64_t copied = 0;
    size_t k = 0;

    memset(&ip, 0, sizeof ip);
    if (read)
        ip.opts = *read;
    else
        ws_trace_opts_default(&ip.opts);
    ws_err_clear(&err);
    assert_int_equal(ws_input_open(&text, path, &ip, &err), 0);
    if (ws_pack_open(&p, wst, &err) < 0)
        fail_msg("%s", err.text);
    assert_int_equal(ws_pack_commands(p, &list, &err), 0);
    assert_int_equal(list.n, ws_input_ncmds(text));
    assert_int_equal(list.nkernels, ws_input_nkernels(text));
    for (size_t i = 0; i < list.n; i++) {
        const struct ws_cmd *c = ws_input_cmd(text, i);
        assert_int_equal(list.cmds[i].kind, c->kind);
        if (list.cmds[i].kind == WS_CMD_MEMCPY_HTOD) {
            assert_int_equal(list.cmds[i].addr, c->addr);
            assert_int_equal(list.cmds[i].bytes, c->bytes);
            continue;
        }
        copied += compare_kernel(text, i, p, k++, &ip.opts);
    }
    ws_kernelslist_free(&list);
    ws_pack_close(p);
    ws_input_close(text);
    unlink(wst);
    return copied;
}

static void test_bundled_roundtrip(void **state)
{
    static const char *const traces[] = {
        "traces/accelsim/vecadd",
        "traces/accelsim/multi",
        "traces/accelsim/hopper",
        "traces/accelsim/legacy",
        "traces/accelsim/saxpy_stride8",
        "traces/accelsim/multi/kernel-2.traceg.xz"};

    (void)state;
    for (size_t i = 0; i < sizeof traces / sizeof traces[0]; i++)
        assert_int_equal(roundtrip(traces[i], NULL), 0);
}

/* The class of an unknown mnemonic is a config key: a pack read under
 * another one is corrected, CTA by CTA, to what the text would give. */
static void test_unknown_class(void **state)
{
    struct ws_trace_opts opts;

    (void)state;
    ws_trace_opts_default(&opts);
    opts.unknown_class = WS_OPC_SFU;
    assert_true(roundtrip("tests/data/bad/unknownop.traceg", &opts) > 0);
    assert_int_equal(roundtrip("tests/data/bad/unknownop.traceg", NULL), 0);
}

/* ---- corrupt files ------------------------------------------------------ */

static void test_corrupt_header(void **state)
{
    struct packed f;
    struct ws_err err;

    (void)state;
    load_packed(&f, "traces/accelsim/legacy");
    err = read_all(&f, f.len, NULL);
    assert_false(err.set);
    f.buf[f.len / 2] ^= 1;
    err = read_all(&f, f.len, NULL);
    ws_test_err(&err, "t.wst", 1,
                "checksum mismatch (expected an intact "
                "file; repack it)");
    f.buf[f.len / 2] ^= 1;
    err = read_all(&f, f.len - 8, NULL);
    ws_test_err(&err, "t.wst", 1, "its header says");
    err = read_all(&f, 40, NULL);
    ws_test_err(&err, "t.wst", 1, "file ends at byte 40");
    f.buf[0] = 'X';
    err = read_all(&f, f.len, NULL);
    ws_test_err(&err, "t.wst", 1, "not a .wst");
    free(f.buf);
}

/* Damage a writer never makes, behind a valid checksum. */
static void test_corrupt_body(void **state)
{
    struct packed f;
    struct ws_err err;
    uint64_t cta0;
    struct ws_pack_cta c;
    struct ws_inst in;

    (void)state;
    load_packed(&f, "traces/accelsim/legacy");
    memcpy(&cta0, f.buf + f.k.ctas_off, sizeof cta0);
    memcpy(&c, f.buf + cta0, sizeof c);

    /* Instructions past the end of the file. */
    {
        uint64_t bad = f.len - 8;
        memcpy(f.buf + cta0 + offsetof(struct ws_pack_cta, inst_off), &bad,
               sizeof bad);
        reseal(&f);
        err = read_all(&f, f.len, NULL);
        ws_test_err(&err, "t.wst", 1, "inst_off is");
        memcpy(f.buf + cta0, &c, sizeof c);
    }
    /* An opcode index past the table. */
    memcpy(&in, f.buf + c.inst_off, sizeof in);
    {
        struct ws_inst bad = in;
        bad.op = 1000;
        memcpy(f.buf + c.inst_off, &bad, sizeof bad);
        reseal(&f);
        err = read_all(&f, f.len, NULL);
        ws_test_err(&err, "t.wst", 1, "instruction 0 unsound");
    }
    /* A class that disagrees with the opcode: served from a copy, right. */
    {
        struct ws_inst bad = in;
        struct ws_pack *p;
        struct ws_pack_reader *r;
        const struct ws_cta_stream *cta;
        uint64_t mapped, copied;
        bad.cls = (uint8_t)(in.cls == WS_OPC_FP64 ? WS_OPC_INT : WS_OPC_FP64);
        memcpy(f.buf + c.inst_off, &bad, sizeof bad);
        reseal(&f);
        ws_err_clear(&err);
        assert_int_equal(ws_pack_open_mem(&p, "t.wst", f.buf, f.len, &err), 0);
        assert_int_equal(ws_pack_reader_open(&r, p, 0, NULL, &err), 0);
        assert_int_equal(ws_pack_reader_next_cta(r, &cta, &err), 1);
        ws_pack_reader_counts(r, &mapped, &copied);
        assert_int_equal(copied, 1);
        for (uint32_t w = 0; w < cta->nwarps; w++)
            if (cta->warps[w].ninst && cta->warps[w].inst[0].pc == in.pc)
                assert_int_equal(cta->warps[w].inst[0].cls, in.cls);
        ws_pack_reader_close(r);
        ws_pack_close(p);
    }
    free(f.buf);
}

static void test_limits(void **state)
{
    struct packed f;
    struct ws_trace_opts opts;
    struct ws_err err;

    (void)state;
    load_packed(&f, "traces/accelsim/vecadd");
    ws_trace_opts_default(&opts);
    opts.max_warp_insts = 2;
    err = read_all(&f, f.len, &opts);
    ws_test_err(&err, "t.wst", 1, "--max-warp-insts");
    ws_trace_opts_default(&opts);
    opts.max_insts = 10;
    err = read_all(&f, f.len, &opts);
    ws_test_err(&err, "t.wst", 1, "--max-insts");
    ws_trace_opts_default(&opts);
    opts.max_ctas = 1;
    err = read_all(&f, f.len, &opts);
    ws_test_err(&err, "t.wst", 1, "--max-ctas");
    free(f.buf);
}

/* A .wst is recognised by its magic whatever its name. */
static void test_detect(void **state)
{
    const char *wst = pack_to_tmp("traces/accelsim/legacy", NULL);
    enum ws_input_kind kind;
    char *list = NULL;
    struct ws_err err;

    (void)state;
    ws_err_clear(&err);
    assert_true(ws_pack_sniff(wst));
    assert_false(ws_pack_sniff("traces/accelsim/legacy/kernel-1.traceg"));
    assert_int_equal(ws_input_detect(wst, &list, &kind, &err), 0);
    assert_int_equal(kind, WS_INPUT_PACK);
    unlink(wst);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bundled_roundtrip),
        cmocka_unit_test(test_unknown_class),
        cmocka_unit_test(test_corrupt_header),
        cmocka_unit_test(test_corrupt_body),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_detect),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
