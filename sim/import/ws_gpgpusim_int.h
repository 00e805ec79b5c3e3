/*
 * ws_gpgpusim_int: what the files of the importer share: the record of
 * each warpsim key being filled (its value lives in a struct ws_gpu, its
 * comment and the option responsible here), the helpers that set a key
 * from an option, and the reader's number helpers.  Private to
 * sim/import/ws_gpgpusim_*.c.
 *
 * Leaves out: the rules themselves (ws_gpgpusim_map.c, _mem.c) and the
 * YAML text and its validation (ws_gpgpusim_yaml.c).
 */
#ifndef WS_GPGPUSIM_INT_H
#define WS_GPGPUSIM_INT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "config/ws_config.h"
#include "ws_gpgpusim.h"

/* One key of the output: from the base config until a rule sets it. */
struct ws_gs_key {
    int set;                           /* 0: the base config's value */
    char why[400];                     /* the YAML comment */
    const struct ws_gpgpusim_opt *opt; /* the option responsible, or NULL */
    size_t off;                        /* its value byte responsible */
    long out_line;                     /* line of the YAML it is on */
};

/* An option value as a rule cites it: present, or GPGPU-Sim's default. */
struct ws_gs_val {
    struct ws_gpgpusim_opt *o; /* NULL: absent */
    char cite[112];            /* "-gpgpu_n_mem 32" or
                                           "-gpgpu_n_mem default 8" */
};

struct ws_gs_map {
    struct ws_gpgpusim *g;
    struct ws_err *err;
    struct ws_gpu out;      /* the base config, then the input */
    char base_name[64];     /* as the comments name it */
    const char *first_file; /* for errors at no option */
    struct ws_gs_key key[WS_CFG_MAX_KEYS];
    char *notes; /* closing-list lines, '\n' ended */
    size_t notes_len, notes_cap;
    int oom;
    /* Values several rules read. */
    double clk[4]; /* core, icnt, L2, DRAM in MHz */
    struct ws_gs_val clk_src;
    uint64_t sched; /* warp schedulers per SM */
    struct ws_gs_val sched_src;
    uint64_t n_mem, n_sub;
    struct ws_gs_val n_mem_src, n_sub_src;
    uint64_t tensor_avail; /* -gpgpu_tensor_core_avail */
    struct ws_gs_val tensor_avail_src;
};

/* Sets key (a schema path) from value text, with the comment fmt; o/off
 * name the option responsible (NULL for a rule).  A value the schema
 * refuses is an error at o. */
int ws_gs_set(struct ws_gs_map *m, const char *key,
              const struct ws_gpgpusim_opt *o, size_t off, const char *value,
              const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* ---- the reader's helpers (ws_gpgpusim_parse.c) ---- */

/* A blank between words: space, tab, CR, VT, FF. */
int ws_gs_blank(char c);

/* A decimal field s[0..n), without the leading zero GPGPU-Sim reads as
 * octal: 0, or -1 with *why saying what is wrong. */
int ws_gs_decimal(const char *s, size_t n, uint64_t *v, const char **why);

/* ---- reading options (ws_gpgpusim_map.c) ---- */

/* The option name if given (marked used), citing it either way; def is
 * GPGPU-Sim's default, cited when it is absent. */
struct ws_gpgpusim_opt *ws_gs_fetch(struct ws_gs_map *m, const char *name,
                                    const char *def, struct ws_gs_val *v);

/* A whole number from lo to hi, def when absent. */
int ws_gs_uint(struct ws_gs_map *m, const char *name, uint64_t lo, uint64_t hi,
               uint64_t def, struct ws_gs_val *v, uint64_t *out);

/* A 0/1 switch, def when absent. */
int ws_gs_flag(struct ws_gs_map *m, const char *name, int def,
               struct ws_gs_val *v, int *out);

/* A packed option: the given one, or GPGPU-Sim's default text as a
 * stand-in option in *stand (placed at the input's first line). */
struct ws_gpgpusim_opt *ws_gs_packed(struct ws_gs_map *m, const char *name,
                                     const char *def, struct ws_gs_val *v,
                                     struct ws_gpgpusim_opt *stand);

/* An option a rule read and then set aside, no key naming it: it goes to
 * the closing list with why (static text).  The value form does nothing
 * when the option is absent; the name form is for an option no rule
 * fetched. */
void ws_gs_aside(struct ws_gs_val *v, const char *why);
void ws_gs_aside_name(struct ws_gs_map *m, const char *name, const char *why);

/* The first of up to three values that was given, to blame. */
const struct ws_gpgpusim_opt *ws_gs_first(const struct ws_gs_val *a,
                                          const struct ws_gs_val *b,
                                          const struct ws_gs_val *c);

/* ws_gs_set of a count, a size in bytes, a real with its unit (rounded to
 * a thousandth), a boolean. */
int ws_gs_set_u(struct ws_gs_map *m, const char *key,
                const struct ws_gpgpusim_opt *o, size_t off, uint64_t v,
                const char *why);
int ws_gs_set_size(struct ws_gs_map *m, const char *key,
                   const struct ws_gpgpusim_opt *o, size_t off, uint64_t bytes,
                   const char *why);
int ws_gs_set_real(struct ws_gs_map *m, const char *key,
                   const struct ws_gpgpusim_opt *o, size_t off, double v,
                   const char *unit, const char *why);
int ws_gs_set_flag(struct ws_gs_map *m, const char *key,
                   const struct ws_gpgpusim_opt *o, int v, const char *why);

/* A key that is one whole-number option as given; absent: the base's. */
int ws_gs_map_plain(struct ws_gs_map *m, const char *key, const char *name,
                    uint64_t lo, uint64_t hi);

/* A base key's comment, after "[BASE name]" (the value stays). */
void ws_gs_base_why(struct ws_gs_map *m, const char *key, const char *why);

/* ---- the memory rules (ws_gpgpusim_mem.c) ---- */

int ws_gs_map_l1(struct ws_gs_map *m);
int ws_gs_map_l2(struct ws_gs_map *m);
int ws_gs_map_dram(struct ws_gs_map *m);
int ws_gs_map_icnt(struct ws_gs_map *m);

/* ---- the YAML (ws_gpgpusim_yaml.c) ---- */

/* Appends a line to the closing list of what has no equivalent. */
void ws_gs_note(struct ws_gs_map *m, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Option text as a comment may quote it: printable ASCII, cut short. */
void ws_gs_quote(char *buf, size_t cap, const char *text, size_t max);

/* Whether key i is written (the carveout list only when there is one). */
int ws_gs_key_shown(const struct ws_gs_map *m, size_t i);

/* Writes the YAML of m (every key, comments, the closing list) into a
 * malloc'd string, recording each key's line.  Every option read is named
 * in it: by a key's comment, a line of the notes, or the closing list,
 * which takes any option no comment names. */
int ws_gs_write(struct ws_gs_map *m, char **yaml);

/* Loads yaml through the config loader; a refusal becomes an error at the
 * option that produced the key refused. */
int ws_gs_validate(struct ws_gs_map *m, const char *yaml);

/* The translation rules (ws_gpgpusim_map.c): fills m->out and m->key
 * from m->g. */
int ws_gs_map_all(struct ws_gs_map *m);

#endif
