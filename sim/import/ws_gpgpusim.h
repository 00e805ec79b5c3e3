/*
 * ws_gpgpusim: GPU descriptions written for GPGPU-Sim and Accel-Sim
 * (gpgpusim.config, trace.config) read and translated into a warpsim config
 * ("warpsim config import").
 *
 * Two halves:
 *   - the reader (ws_gpgpusim_parse.c) takes GPGPU-Sim's option syntax as
 *     its option_parser.cc does: whitespace-separated "-name value" pairs,
 *     '#' to the end of a line a comment, a value in double quotes running
 *     over blanks and lines, later occurrences replacing earlier ones, a
 *     second file read after the first; and the packed values the
 *     translation needs (cache strings, DRAM timings, lists, the address
 *     map, specialized units).  Every value keeps where each of its bytes
 *     came from, so a bad field is reported at its own line and column.
 *   - the translation (ws_gpgpusim_map.c, with the table of known options
 *     in ws_gpgpusim_known.c) fills every warpsim key from the options that
 *     describe it, a built-in config standing in for what GPGPU-Sim has no
 *     option for; writes the YAML with a comment naming each value's
 *     source; lists, with the reason, every option it read that no key's
 *     comment names (no warpsim equivalent, or nothing to qualify without
 *     the options it goes with), so the output accounts for every option;
 *     and loads the result through the normal config loader before handing
 *     it back, so what it returns is a config warpsim accepts.
 *
 * Leaves out: the -config FILE option (an option file naming another),
 * PTX-mode-only options (listed, not translated), and the interconnect
 * file of -inter_config_file (booksim's own syntax).
 */
#ifndef WS_GPGPUSIM_H
#define WS_GPGPUSIM_H

#include <stddef.h>
#include <stdint.h>

#include "util/ws_err.h"

/* An option file larger than this is not a GPU description. */
#define WS_GPGPUSIM_MAX_FILE (1u << 20)

/* Where value[off..] starts in the file: a quoted value spanning lines is
 * several pieces joined by one blank, as GPGPU-Sim joins them. */
struct ws_gpgpusim_piece {
    size_t off;
    long line, col;
};

struct ws_gpgpusim_opt {
    char *name;       /* with its dash: "-gpgpu_n_mem" */
    char *value;      /* quotes removed */
    const char *file; /* owned by struct ws_gpgpusim */
    long line, col;   /* of the name */
    struct ws_gpgpusim_piece *piece;
    size_t npiece;
    size_t seq;      /* order read, across files */
    int last;        /* no later occurrence replaces it */
    int used;        /* a translation rule read it */
    const char *why; /* set by a rule that looked at it and had
                                   no use for it (static text) */
};

#define WS_GPGPUSIM_MAX_FILES 4

struct ws_gpgpusim {
    struct ws_gpgpusim_opt *opt;
    size_t n, cap;
    struct ws_gpgpusim_opt **order; /* by name, then seq; NULL until
                                        a lookup needs it */
    char *files[WS_GPGPUSIM_MAX_FILES];
    int nfiles;
};

void ws_gpgpusim_init(struct ws_gpgpusim *g);
void ws_gpgpusim_free(struct ws_gpgpusim *g);

/* Adds the options of text (len bytes, named file in messages); options
 * read later replace earlier ones of the same name.  0, or -1 with a
 * positioned error (binary data, an unterminated quote, a name without a
 * value, a word where a name belongs). */
int ws_gpgpusim_parse(struct ws_gpgpusim *g, const char *file, const char *text,
                      size_t len, struct ws_err *err);

/* ws_gpgpusim_parse of the file at path (a regular file of at most
 * WS_GPGPUSIM_MAX_FILE bytes); a file that cannot be read is an unplaced
 * error for the caller to place. */
int ws_gpgpusim_read(struct ws_gpgpusim *g, const char *path,
                     struct ws_err *err);

/* The occurrence of name that counts (the last), or NULL; get marks it
 * used, peek does not. */
struct ws_gpgpusim_opt *ws_gpgpusim_get(struct ws_gpgpusim *g,
                                        const char *name);
struct ws_gpgpusim_opt *ws_gpgpusim_peek(struct ws_gpgpusim *g,
                                         const char *name);

/* The file position of value byte off. */
void ws_gpgpusim_pos(const struct ws_gpgpusim_opt *o, size_t off, long *line,
                     long *col);

/* An error at value byte off of o: "file:line:col: -name: message". */
int ws_gpgpusim_err(struct ws_err *err, const struct ws_gpgpusim_opt *o,
                    size_t off, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* ---- values ---------------------------------------------------------- */

/* A whole number (decimal, or 0x hex as GPGPU-Sim reads it) from lo to
 * hi; what names it in messages. */
int ws_gpgpusim_uint(const struct ws_gpgpusim_opt *o, uint64_t lo, uint64_t hi,
                     uint64_t *v, struct ws_err *err);

/* 0 or 1, as GPGPU-Sim's boolean options require. */
int ws_gpgpusim_bool(const struct ws_gpgpusim_opt *o, int *v,
                     struct ws_err *err);

/* min_n to max_n whole numbers from lo to hi separated by sep. */
int ws_gpgpusim_uints(const struct ws_gpgpusim_opt *o, char sep, size_t min_n,
                      size_t max_n, uint64_t lo, uint64_t hi, uint64_t *v,
                      size_t *n, struct ws_err *err);

/* Exactly n positive decimal numbers (1132.0) up to hi separated by sep. */
int ws_gpgpusim_reals(const struct ws_gpgpusim_opt *o, char sep, size_t n,
                      double hi, double *v, struct ws_err *err);

/* A packed cache description, GPGPU-Sim 4 / Accel-Sim
 *   T:sets:line:assoc,R:W:A:WA:SI,M:entries:merge[,missq[:fifo][,port]]
 * (T N or S), the older forms without T and with 4 or 5 policy letters,
 * or "none". */
struct ws_gpgpusim_cache {
    int disabled; /* "none" */
    char type;    /* 'N' normal, 'S' sectored */
    uint64_t sets, line, assoc;
    char repl, write, alloc, write_alloc, set_index; /* 0: not given */
    char mshr_type;
    uint64_t mshr_entries, mshr_merge;
    int has_miss_queue, has_fifo, has_port;
    uint64_t miss_queue, result_fifo, port; /* port: line when absent */
    size_t off_geometry, off_policy, off_mshr, off_queue, off_port;
};

int ws_gpgpusim_cache(const struct ws_gpgpusim_opt *o,
                      struct ws_gpgpusim_cache *c, struct ws_err *err);

/* -gpgpu_dram_timing_opt, named ("nbk=16:CCD=1:...") or positional (the
 * legacy "nbk:CCD:RRD:RCD:RAS:RP:RC:CL:WL:CDLR:WR[:nbkgrp:CCDL:RTPL]"), in
 * DRAM command clocks. */
struct ws_gpgpusim_dram {
    uint64_t nbk, ccd, rrd, rcd, ras, rp, rc, cl, wl, cdlr, wr;
    uint64_t nbkgrp, ccdl, rtpl;
};

int ws_gpgpusim_dram_timing(const struct ws_gpgpusim_opt *o,
                            struct ws_gpgpusim_dram *d, struct ws_err *err);

/* -gpgpu_mem_addr_mapping: the bits of the address inside one DRAM row
 * (column and burst letters) of its 64 positions. */
int ws_gpgpusim_addr_map(const struct ws_gpgpusim_opt *o, unsigned *row_bits,
                         struct ws_err *err);

/* -specialized_unit_N: enabled,units,max latency,ID_OC width,OC_EX
 * width,NAME. */
struct ws_gpgpusim_spec {
    int enabled;
    uint64_t units, max_latency, id_oc, oc_ex;
    char name[16];
};

int ws_gpgpusim_spec_unit(const struct ws_gpgpusim_opt *o,
                          struct ws_gpgpusim_spec *s, struct ws_err *err);

/* ---- known options (ws_gpgpusim_known.c) ----------------------------- */

enum ws_gpgpusim_type {
    WS_GS_TEXT, /* any text (a string or a packed value) */
    WS_GS_UINT,
    WS_GS_INT,
    WS_GS_BOOL,
    WS_GS_REAL
};

struct ws_gpgpusim_known {
    const char *name;
    enum ws_gpgpusim_type type;
    /* Why it has no warpsim equivalent; NULL for options a translation
     * rule reads (they get a reason there when a rule sets them aside). */
    const char *why;
};

/* The entry for name, or NULL for an option this importer does not know
 * (names with a numbered suffix, -specialized_unit_7, match their family). */
const struct ws_gpgpusim_known *ws_gpgpusim_known(const char *name);

/* ---- translation (ws_gpgpusim_map.c) --------------------------------- */

struct ws_gpgpusim_import {
    const char *config; /* gpgpusim.config path */
    const char *trace;  /* trace.config path, or NULL */
    const char *base;   /* built-in or file for keys GPGPU-Sim lacks;
                                   NULL: the built-in nearest sm_version */
};

/* Reads the files, translates and validates.  On success *yaml is the
 * config as text (malloc'd, NUL-terminated) and 0 is returned; on failure
 * -1 with one positioned error, nothing allocated.  A file without
 * options, gpgpusim.config or trace.config, is an error. */
int ws_gpgpusim_import(const struct ws_gpgpusim_import *in, char **yaml,
                       struct ws_err *err);

/* The translation of options already read into g (tests and the fuzz
 * target use it on text); base as above. */
int ws_gpgpusim_translate(struct ws_gpgpusim *g, const char *base, char **yaml,
                          struct ws_err *err);

#endif
