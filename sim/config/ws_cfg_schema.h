/*
 * ws_cfg_schema: the list of config keys, their types and limits, and the
 * conversion between a key's text and its field in struct ws_gpu.
 *
 * One table drives loading, validation of single values, "config show" and
 * the "did you mean" hint for misspelt keys, so a new field is one row here
 * plus its place in struct ws_gpu.
 *
 * Leaves out: rules that relate several keys (ws_cfg_check.c).
 */
#ifndef WS_CFG_SCHEMA_H
#define WS_CFG_SCHEMA_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ws_config.h"

enum ws_ktype {
    WS_KT_STRING,
    WS_KT_COUNT,   /* uint32_t, plain integer */
    WS_KT_CYCLES,  /* uint32_t, integer with optional "cycles" */
    WS_KT_SIZE,    /* uint64_t bytes */
    WS_KT_FREQ,    /* double MHz */
    WS_KT_BW,      /* double GB/s */
    WS_KT_TIME,    /* double ns */
    WS_KT_REAL,    /* double, a plain number */
    WS_KT_BOOL,    /* int */
    WS_KT_ENUM,    /* an int-sized enum, by the names in the row's table */
    WS_KT_SIZES,   /* sm.carveout[] + ncarveouts: "0, 8KiB, 16KiB" */
    WS_KT_CARVEOUT /* uint64_t bytes, or "auto" (WS_CARVEOUT_AUTO) */
};

enum {
    WS_KF_POW2 = 1,     /* the hardware indexes with it: power of two */
    WS_KF_OPTIONAL = 2, /* may be absent; 0 / default then */
    WS_KF_ZERO_OK = 4,  /* 0 is meaningful (e.g. "no unified SRAM") */
    WS_KF_IF_SET = 8    /* a unit the part may lack (wgmma, TMA): written
                           out only when not 0 */
};

/* An enum key's values: a new enum key is one of these plus a schema row.
 * Parsing accepts exactly the names; an error lists them all. */
struct ws_cfg_enum {
    const char *const *names; /* the text of each value, in enum order */
    int count;                /* the enum's size: names[0..count) */
    const char *what;         /* NULL, or a phrase the error's list follows
                                 * ("an opcode class") */
};

struct ws_key {
    const char *path;
    enum ws_ktype type;
    size_t off;
    const struct ws_cfg_enum *names; /* WS_KT_ENUM only, else NULL */
    double min, max; /* numeric limits, inclusive; strings: max is
                           * the longest text in bytes */
    unsigned flags;
};

size_t ws_cfg_key_count(void);
const struct ws_key *ws_cfg_key(size_t i);
/* Index of path in the table, or -1. */
long ws_cfg_key_find(const char *path);
/* 1 when path names a group of keys ("l2", "units.fp32"). */
int ws_cfg_key_is_group(const char *path);
/* How many groups (dotted prefixes: "l1." in "l1.size") path shares with
 * prev (NULL: none), with *rest the part of path after them: the mapping
 * headers a YAML writer still owes before path's key. */
int ws_cfg_key_common_groups(const char *prev, const char *path,
                             const char **rest);
/* The closest key to a misspelt path, or NULL when nothing is close. */
const char *ws_cfg_key_suggest(const char *path);

/* Parses text into the key's field of gpu.  Returns 0, or -1 with *expected
 * set to a description of what the value should look like. */
int ws_cfg_key_parse(const struct ws_key *k, struct ws_gpu *gpu,
                     const char *text, const char **expected);

/* Writes the key's value from gpu in the form ws_cfg_key_parse reads. */
void ws_cfg_key_format(const struct ws_key *k, const struct ws_gpu *gpu,
                       char *buf, size_t cap);

/* The key's value from gpu as a number in its base unit (count, cycles,
 * bytes, MHz, GB/s, 0/1 for booleans): 0, or -1 for keys that hold names
 * (strings, enums). */
/* 1 when k is a WS_KF_IF_SET key left at 0: config show, import and the
 * external-model contract leave it out, so that parts without the unit
 * read as before it existed. */
int ws_cfg_key_absent(const struct ws_key *k, const struct ws_gpu *gpu);

int ws_cfg_key_number(const struct ws_key *k, const struct ws_gpu *gpu,
                      double *v);

#endif
