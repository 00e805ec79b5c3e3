/*
 * ws_packfix: the packed-trace fixtures the .wst unit tests share
 * (test_pack.c, test_pack_layout.c, test_pack_changed.c): packing a
 * bundled trace into a temporary file, a pack loaded into memory with its
 * file header and first kernel header at hand, fields poked and the
 * checksum recomputed (so that damage reaches the checks behind it), and
 * reading every kernel through, whole or streamed, down to one error.
 *
 * Header-only (static inline), as the unit tests are one source each.
 */
#ifndef WS_PACKFIX_H
#define WS_PACKFIX_H

#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xxhash.h>

#include "input/ws_input.h"
#include "trace/ws_pack.h"
#include "ws_test.h"

/* Packs the trace at path into out (created or emptied). */
static inline void packfix_pack(const char *path, const char *out,
                                const struct ws_trace_opts *opts)
{
    struct ws_input_params ip;
    struct ws_pack_writer *w;
    struct ws_input *in;
    struct ws_err err;
    FILE *fp;
    int fd;

    memset(&ip, 0, sizeof ip);
    if (opts)
        ip.opts = *opts;
    else
        ws_trace_opts_default(&ip.opts);
    ws_err_clear(&err);
    fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    assert_true(fd >= 0);
    fp = fdopen(fd, "w");
    assert_non_null(fp);
    if (ws_input_open(&in, path, &ip, &err) < 0)
        fail_msg("%s", err.text);
    assert_int_equal(ws_pack_writer_new(&w, fp, out, &err), 0);
    for (size_t i = 0; i < ws_input_ncmds(in); i++) {
        const struct ws_cmd *c = ws_input_cmd(in, i);
        struct ws_input_kernel k;
        int rc;
        if (c->kind == WS_CMD_MEMCPY_HTOD) {
            assert_int_equal(ws_pack_write_memcpy(w, c->addr, c->bytes, &err),
                             0);
            continue;
        }
        assert_int_equal(ws_input_kernel_open(in, i, &k, &err), 0);
        rc = ws_pack_write_kernel(w, &k.src, &err);
        ws_input_kernel_close(&k);
        if (rc < 0)
            fail_msg("%s", err.text);
    }
    assert_int_equal(ws_pack_writer_finish(w, &err), 0);
    ws_pack_writer_free(w);
    assert_int_equal(fclose(fp), 0);
    ws_input_close(in);
}

/* Packs the trace at path into a new temporary file; returns its path
 * (static buffer). */
static inline const char *pack_to_tmp(const char *path,
                                      const struct ws_trace_opts *opts)
{
    static char tmp[64];

    snprintf(tmp, sizeof tmp, "/tmp/ws-test-pack-%ld.wst", (long)getpid());
    packfix_pack(path, tmp, opts);
    return tmp;
}

struct packed {
    char *buf;
    size_t len;
    struct ws_pack_header h;
    uint64_t k_off; /* the first kernel's header */
    struct ws_pack_kernel_hdr k;
};

/* The offset of kernel command n's header (0-based among kernels). */
static inline uint64_t packfix_kernel_at(const struct packed *f, uint32_t n)
{
    for (uint32_t i = 0; i < f->h.ncmds; i++) {
        struct ws_pack_cmd c;
        memcpy(&c, f->buf + f->h.cmd_off + (uint64_t)i * sizeof c, sizeof c);
        if (c.kind == WS_PACK_CMD_KERNEL && n-- == 0)
            return c.a;
    }
    fail_msg("no kernel");
    return 0;
}

static inline void load_packed(struct packed *f, const char *trace)
{
    const char *wst = pack_to_tmp(trace, NULL);

    f->buf = ws_test_read(wst, &f->len);
    unlink(wst);
    memcpy(&f->h, f->buf, sizeof f->h);
    f->k_off = packfix_kernel_at(f, 0);
    memcpy(&f->k, f->buf + f->k_off, sizeof f->k);
}

static inline void reseal(struct packed *f)
{
    uint64_t sum = XXH3_64bits(f->buf + 64, f->len - 64);

    memcpy(f->buf + offsetof(struct ws_pack_header, checksum), &sum,
           sizeof sum);
}

/* Little helpers for the field at byte off. */
static inline uint64_t packfix_get(const struct packed *f, uint64_t off,
                                   size_t size)
{
    uint64_t v = 0;

    if (size == 4) {
        uint32_t x;
        memcpy(&x, f->buf + off, 4);
        v = x;
    } else {
        memcpy(&v, f->buf + off, 8);
    }
    return v;
}

static inline void packfix_set(struct packed *f, uint64_t off, size_t size,
                               uint64_t v)
{
    if (size == 4) {
        uint32_t x = (uint32_t)v;
        memcpy(f->buf + off, &x, 4);
    } else {
        memcpy(f->buf + off, &v, 8);
    }
}

/* Every kernel of the pack read through, whole CTAs (streamed: CTA headers
 * and warp readers, a few records a read); the first error. */
static inline struct ws_err packfix_read(const void *buf, size_t len,
                                         const struct ws_trace_opts *opts,
                                         int streamed)
{
    struct ws_pack *p;
    struct ws_pack_reader *r;
    const struct ws_cta_stream *cta;
    struct ws_err err;

    ws_err_clear(&err);
    if (ws_pack_open_mem(&p, "t.wst", buf, len, &err) < 0)
        return err;
    for (size_t k = 0; !err.set && k < ws_pack_nkernels(p); k++) {
        if (ws_pack_reader_open(&r, p, k, opts, &err) < 0)
            break;
        while (!streamed && ws_pack_reader_next_cta(r, &cta, &err) == 1)
            ;
        while (streamed && ws_pack_reader_next_header(r, &cta, &err) == 1)
            for (uint32_t w = 0; !err.set && w < cta->nwarps; w++) {
                struct ws_warp_reader wr;
                struct ws_inst inst[4];
                uint64_t addrs[4 * 32];
                if (!cta->warps[w].ninst
                    || ws_pack_reader_warp_open(r, cta, w, &wr, &err) < 0)
                    continue;
                while (wr.read(wr.ctx, inst, 4, addrs, 4 * 32, &err) > 0)
                    ;
                wr.close(wr.ctx);
            }
        ws_pack_reader_close(r);
    }
    ws_pack_close(p);
    return err;
}

/* Opens the buffer and reads every kernel through, whole; the error. */
static inline struct ws_err read_all(const struct packed *f, size_t len,
                                     const struct ws_trace_opts *opts)
{
    return packfix_read(f->buf, len, opts, 0);
}

#endif
