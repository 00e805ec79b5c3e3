/*
 * ws_tracefix: what the trace reader's unit tests share: a header for
 * traces written in a test, and a reader opened on one with its error.
 */
#ifndef WS_TRACEFIX_H
#define WS_TRACEFIX_H

#include <string.h>

#include "trace/ws_traceg.h"
#include "ws_test.h"

#define HDR(ver, extra) \
    "-kernel name = k\n-kernel id = 1\n-grid dim = (2,1,1)\n" \
    "-block dim = (64,1,1)\n-shmem = 0\n-nregs = 16\n-binary version = 70\n" \
    "-cuda stream id = 0\n-shmem base_addr = 0x00007f0000000000\n" \
    "-local mem base_addr = 0x00007e0000000000\n-nvbit version = 1.5.5\n" ver \
        extra "\n#traces format = whatever\n\n"

struct trace_fixture {
    struct ws_traceg *r;
    struct ws_err err;
};

static inline int open_text(struct trace_fixture *f, const char *text)
{
    ws_err_clear(&f->err);
    return ws_traceg_open_mem(&f->r, "t.traceg", text, strlen(text), NULL,
                              &f->err);
}

static inline const struct ws_cta_stream *next_cta(struct trace_fixture *f)
{
    const struct ws_cta_stream *cta = NULL;
    int rc = ws_traceg_next_cta(f->r, &cta, &f->err);

    if (rc != 1)
        fail_msg("expected a CTA, got %d: %s", rc, f->err.text);
    return cta;
}

static inline const char *opname(struct trace_fixture *f,
                                 const struct ws_inst *in)
{
    return ws_strtab_str(ws_traceg_opcodes(f->r), in->op);
}


struct bad_case {
    const char *body; /* after a version-4 header and "#BEGIN_TB" */
    long line;        /* expected line, 0 = don't check */
    const char *want;
};

#define V4 HDR("-accelsim tracer version = 4\n", "-enable lineinfo = 0\n")
#define TB "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\n"

/* Each case opens, then reads CTAs until the error it must give: the
 * expected text at the expected line of t.traceg. */
static inline void expect_bad_lines(const struct bad_case *cases, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        struct trace_fixture f;
        const struct ws_cta_stream *cta;
        int rc;
        assert_int_equal(open_text(&f, cases[i].body), 0);
        while ((rc = ws_traceg_next_cta(f.r, &cta, &f.err)) == 1)
            ;
        if (rc != -1)
            fail_msg("case %zu: no error, expected '%s'", i, cases[i].want);
        ws_test_err(&f.err, "t.traceg", cases[i].line, cases[i].want);
        ws_traceg_close(f.r);
    }
}

#endif
