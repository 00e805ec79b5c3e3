/*
 * ws_traceg_internal: what the parts of the Accel-Sim reader share
 * (ws_traceg.c: CTA blocks and the public API; ws_traceg_header.c: the
 * "-key = value" header; ws_traceg_inst.c: instruction lines;
 * ws_traceg_hopper.c: the fields Accel-Sim 2.0 added for Hopper), and the
 * field cursor the two line parsers share.  Not for use outside sim/trace.
 *
 * Leaves out: anything a caller of the reader sees (ws_traceg.h).
 */
#ifndef WS_TRACEG_INTERNAL_H
#define WS_TRACEG_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "util/ws_lines.h"
#include "util/ws_num.h"
#include "ws_opinfo.h"
#include "ws_traceg.h"

/* A CTA larger than this is refused rather than allowed to exhaust memory:
 * 2^25 instructions is far beyond any real CTA and keeps a corrupt
 * "insts = " claim from turning into a multi-gigabyte allocation. */
#define WS_TRACEG_MAX_CTA_INSTS (1u << 25)
/* Likewise for lane addresses: 2^26 of them (512 MiB) is far beyond any
 * real CTA, and an .xz of repeated 32-address lines is small enough to be
 * a cheap way of asking for tens of gigabytes. */
#define WS_TRACEG_MAX_CTA_ADDRS (1u << 26)
#define WS_TRACEG_MAX_TOKENS 96

/* The last opcode texts seen, by a hash of length and end characters: a
 * trace repeats a few dozen opcodes, so most lines find theirs here with
 * one short compare instead of hashing it into the string table. */
#define WS_TRACEG_OPCACHE 64

struct ws_opcache_entry {
    const char *text; /* the interned string; NULL when empty */
    uint32_t len, id;
};

/* Instruction lines without addresses seen last, by a hash of their first
 * 16 bytes, with what they parsed to: a kernel repeats the same line in
 * every warp that runs it, so most such lines are found here and copied
 * rather than parsed.  What a line parses to depends on its text alone
 * except before tracer version 3, whose lines must match their block. */
#define WS_TRACEG_LINECACHE 256
#define WS_TRACEG_LINECACHE_TEXT 64

struct ws_linecache_entry {
    uint32_t len; /* 0 when empty */
    char text[WS_TRACEG_LINECACHE_TEXT];
    struct ws_inst inst;
};

/* Where a warp stands in a spin loop that the tracer marked with the
 * REPLAY_START / REPLAY_END pseudo-instructions (ws_traceg_hopper.c says
 * what is kept).  One warp's region at a time: the markers never span
 * warps, and a region that a warp's lines leave open ends with them. */
struct ws_traceg_replay {
    uint64_t cta;      /* ctas_read when the region opened */
    uint32_t warp;     /* the warp it belongs to */
    uint32_t first_pc; /* the loop's head: its first instruction */
    uint32_t last_pc;  /* the largest PC of the first iteration */
    uint8_t active;    /* inside a region */
    uint8_t started;   /* first_pc is known */
    uint8_t known;     /* a wait of the first iteration has its parity */
    uint8_t repeating; /* dropping the iterations after the first */
};

struct ws_traceg {
    struct ws_lines lines;
    struct ws_trace_opts opts;
    struct ws_launch launch;
    struct ws_strtab ops;
    struct ws_opinfo *opinfo; /* by op id, derived at first sight */
    size_t opinfo_cap;
    struct ws_opcache_entry opcache[WS_TRACEG_OPCACHE];
    struct ws_linecache_entry linecache[WS_TRACEG_LINECACHE];
    struct ws_inst *inst;
    size_t ninst, inst_cap;
    uint64_t *addrs;
    size_t naddr, addr_cap;
    struct ws_warp_stream *warps;
    size_t *warp_first; /* pool index of each warp's first inst */
    uint8_t *warp_seen;
    uint8_t *cta_seen; /* one bit per CTA of the grid */
    uint64_t ctas_read;
    uint64_t insts_total; /* warp instructions announced so far */
    int begin_pending;    /* the header ended at "#BEGIN_TB" */
    struct ws_cta_stream cta;
    int finished;
    /* Accel-Sim 2.0 (ws_traceg_hopper.c): the marker opcodes' ids plus one
     * (0 until seen), the open spin-loop region, and whether the line just
     * parsed gave a wait's parity from its register values. */
    uint32_t replay_op[2];
    struct ws_traceg_replay replay;
    int parity_known;
};

const char *ws_traceg_name(const struct ws_traceg *r);
int ws_traceg_fail(struct ws_traceg *r, struct ws_err *err, long col,
                   const char *what, const char *expected);
char *ws_traceg_trim(char *s);

/* The same for a line of known length, which it updates: no strlen. */
char *ws_traceg_trim_len(char *s, size_t *len);

/* "x,y,z" (parens 0) or "(x,y,z)" (parens 1) of decimal numbers below 2^32,
 * blanks allowed around each part; -1 on anything else. */
int ws_traceg_parse_u32s(const char *v, uint32_t out[3], int parens);

/* Reads the header up to its first '#' line (normally "#traces format")
 * into r->launch. */
int ws_traceg_read_header(struct ws_traceg *r, struct ws_err *err);

/* Parses one instruction line, len bytes, of warp `warp` into *in
 * (addresses go to r->addrs).  The line is read, not modified.  0 for an
 * instruction of the stream, 1 for a line that is not one (a spin-loop
 * marker, or a repeat of a loop the simulator re-times; nothing of it is
 * kept), -1 on error. */
int ws_traceg_parse_inst(struct ws_traceg *r, const char *line, size_t len,
                         uint32_t warp, struct ws_inst *in, struct ws_err *err);

/* ---- the field cursor (ws_traceg_inst.c, ws_traceg_hopper.c) ---------- */

/* A cursor over the blank-separated fields of one line. */
struct ws_cur {
    const char *line;
    const char *p; /* just past the field taken last */
    const char *s; /* the field taken last */
    size_t len;
    int n; /* fields taken */
};

/* The bytes that end a field: blank, tab, and the NUL that ends the line. */
extern const uint8_t ws_traceg_field_end[256];
/* A hexadecimal digit's value plus one; 0 for any other byte. */
extern const uint8_t ws_traceg_hex1[256];

/* Where the next field starts, or the line's NUL when there is none. */
static inline const char *ws_cur_skip(const struct ws_cur *c)
{
    const char *p = c->p;

    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

/* Takes the field from s, whose bytes before p are known to belong to it. */
static inline void ws_cur_end(struct ws_cur *c, const char *s, const char *p)
{
    while (!ws_traceg_field_end[(uint8_t)*p])
        p++;
    c->s = s;
    c->len = (size_t)(p - s);
    c->p = p;
    c->n++;
}

/* 1 and the next field, or 0 at the end of the line. */
static inline int ws_cur_take(struct ws_cur *c)
{
    const char *p = ws_cur_skip(c);

    if (*p == '\0')
        return 0;
    ws_cur_end(c, p, p);
    return 1;
}

static inline long ws_cur_col(const struct ws_cur *c)
{
    return (long)(c->s - c->line) + 1;
}

/* The next field, or an error naming what was expected there. */
static inline int ws_cur_next(struct ws_traceg *r, struct ws_cur *c,
                              const char *expected, struct ws_err *err)
{
    if (ws_cur_take(c))
        return 0;
    return ws_err_at(err, ws_traceg_name(r), r->lines.lineno,
                     c->n ? ws_cur_col(c) + (long)c->len : 1,
                     "instruction line ends early (expected %s)", expected);
}

/* "bad WHAT 'FIELD' (expected ...)" at the field taken last; -1. */
int ws_traceg_cur_bad(struct ws_traceg *r, const struct ws_cur *c,
                      const char *what, const char *expected,
                      struct ws_err *err);

/* The field taken last is s[0..len): 1 when it is the word w. */
static inline int ws_cur_is(const struct ws_cur *c, const char *w, size_t n)
{
    return c->len == n && memcmp(c->s, w, n) == 0;
}

/* [0x]hex of at most 16 digits after leading zeros; -1 on anything else. */
int ws_traceg_hex64(const char *s, size_t len, uint64_t *out);

/* The next field as a decimal number below 2^32, converted in the pass
 * that finds its end; a field of ten digits or more goes to ws_num_u32. */
static inline int ws_field_dec32(struct ws_traceg *r, struct ws_cur *c,
                                 const char *what, uint32_t *out,
                                 struct ws_err *err)
{
    const char *s = ws_cur_skip(c), *p = s;
    uint32_t v = 0;
    unsigned d;

    if (*s == '\0')
        return ws_cur_next(r, c, what, err);
    while (p - s < 9 && (d = (unsigned)((uint8_t)*p - '0')) <= 9) {
        v = v * 10 + d;
        p++;
    }
    ws_cur_end(c, s, p);
    if (c->s + c->len != p ? ws_num_u32(c->s, c->len, &v) < 0 : p == s)
        return ws_traceg_cur_bad(r, c, what, "a decimal number", err);
    *out = v;
    return 0;
}

/* The next field as [0x]hex, converted in the pass that finds its end; a
 * field of more than 16 digits (leading zeros, or too large) or with other
 * bytes in it goes to ws_traceg_hex64 for the verdict. */
static inline int ws_field_hex(struct ws_traceg *r, struct ws_cur *c,
                               const char *what, uint64_t *out,
                               struct ws_err *err)
{
    const char *s = ws_cur_skip(c), *d = s, *p;
    uint64_t v = 0;
    unsigned x;

    if (*s == '\0')
        return ws_cur_next(r, c, what, err);
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        d = s + 2;
    for (p = d; (x = ws_traceg_hex1[(uint8_t)*p]) != 0; p++)
        v = (v << 4) | (x - 1);
    ws_cur_end(c, s, p);
    if (c->s + c->len != p || p - d > 16 || p == d)
        return ws_traceg_hex64(c->s, c->len, out) < 0
                   ? ws_traceg_cur_bad(r, c, what, "a hexadecimal number", err)
                   : 0;
    *out = v;
    return 0;
}

/* The next field as a signed decimal number. */
int ws_traceg_field_signed(struct ws_traceg *r, struct ws_cur *c,
                           const char *what, int64_t *out, struct ws_err *err);

/* The trailing immediate, the field taken last, into *imm (see
 * ws_traceg_inst.c for the range accepted). */
int ws_traceg_parse_imm(struct ws_traceg *r, const struct ws_cur *c,
                        int32_t *imm, struct ws_err *err);

/* *a + step, or an error at the field taken last when the sum leaves the
 * 64-bit address space; lane names the address in the message. */
int ws_traceg_step_addr(struct ws_traceg *r, const struct ws_cur *c,
                        uint64_t *a, int64_t step, unsigned lane,
                        struct ws_err *err);

/* Appends a to the CTA's address pool, within its limit. */
int ws_traceg_push_addr(struct ws_traceg *r, uint64_t a, struct ws_err *err);

/* ---- Accel-Sim 2.0 fields (ws_traceg_hopper.c) ------------------------- */

/* Tracer versions: 6 is Accel-Sim 2.0's, with register values. */
#define WS_TRACEG_VERSION_MAX 6

/* Register values of a version-6 line, as far as the reader uses them:
 * the first active lane's value of the second source register, the one
 * that carries an mbarrier instruction's count, bytes or parity. */
struct ws_traceg_vals {
    int have; /* "Val" and a second source register */
    uint64_t src1;
};

/* A GMMA's commit-group flag, read and checked (0 or 1) but not kept. */
int ws_traceg_gmma_commit(struct ws_traceg *r, struct ws_cur *c,
                          struct ws_err *err);

/* A version-6 TMA / bulk-copy address block, from the field after the
 * memory width, turned into a box in the address pool: in->addr, in->mask
 * (WS_BOX_MASK, or 0 when it moves nothing) and in->width. */
int ws_traceg_tma_block(struct ws_traceg *r, struct ws_cur *c,
                        struct ws_inst *in, struct ws_err *err);

/* What follows the addresses on a version-6 line: [imm [imm2]]
 * [Val values | NoVal] and the end of the line.  nsrc and ndst are the
 * registers the line listed (uniform and predicate ones included).
 * Sets in->imm and, for mbarrier instructions with values, replaces it
 * with what the register says. */
int ws_traceg_v6_tail(struct ws_traceg *r, struct ws_cur *c, struct ws_inst *in,
                      unsigned ndst, unsigned nsrc, struct ws_err *err);

/* A line that starts with its opcode's text: a bare REPLAY_START /
 * REPLAY_END.  1 when it is one (and was applied), 0 when not. */
int ws_traceg_replay_bare(struct ws_traceg *r, const char *line, size_t len,
                          uint32_t warp);

/* Records opcode id's text if it is a replay marker (first sight). */
void ws_traceg_replay_note(struct ws_traceg *r, uint32_t id, const char *s,
                           size_t len);

/* After instruction in of warp was read: 0 to keep it, 1 when it is a
 * marker or a repeat that is dropped. */
int ws_traceg_replay_step(struct ws_traceg *r, uint32_t warp,
                          const struct ws_inst *in);

#endif
