/*
 * ws_traceg_internal: what the three parts of the Accel-Sim reader share
 * (ws_traceg.c: CTA blocks and the public API; ws_traceg_header.c: the
 * "-key = value" header; ws_traceg_inst.c: instruction lines).  Not for use
 * outside sim/trace.
 */
#ifndef WS_TRACEG_INTERNAL_H
#define WS_TRACEG_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "util/ws_lines.h"
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
 * (addresses go to r->addrs).  The line is read, not modified. */
int ws_traceg_parse_inst(struct ws_traceg *r, const char *line, size_t len,
                         uint32_t warp, struct ws_inst *in, struct ws_err *err);

#endif
