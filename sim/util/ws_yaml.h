/*
 * ws_yaml: a YAML document as a small tree of mappings and scalars, each node
 * carrying its file, line and column.
 *
 * libyaml's event parser does the YAML; this file keeps what GPU configs and
 * workload descriptions use (mappings, sequences, scalars) and turns
 * everything else (aliases, duplicate keys, several documents) into one
 * positioned error, so callers can report "file:line:col" for any value
 * they dislike.
 *
 * Leaves out: anchors, tags, multi-document streams, nesting deeper than
 * WS_YAML_MAX_DEPTH, keys longer than WS_YAML_MAX_KEY.
 */
#ifndef WS_YAML_H
#define WS_YAML_H

#include <stddef.h>

#include "ws_err.h"

/* Levels of nested mappings and lists, the root mapping being level 1:
 * the tree is built and walked by recursion, and a config or a workload
 * needs four or five. */
#define WS_YAML_MAX_DEPTH 32
/* Bytes of a mapping key: messages quote keys whole. */
#define WS_YAML_MAX_KEY 256

enum ws_ynode_kind {
    WS_YNODE_MAP,
    WS_YNODE_SCALAR,
    WS_YNODE_SEQ /* items are children keyed "0", "1", ... */
};

struct ws_ynode {
    enum ws_ynode_kind kind;
    char *key;              /* NULL for the root */
    char *value;            /* scalars only */
    const char *file;       /* owned by the document (see ws_ydoc) */
    long line, col;         /* of the value */
    long key_line, key_col; /* of the key */
    struct ws_ynode *child; /* first entry of a mapping */
    struct ws_ynode *next;  /* next entry of the parent mapping */
};

/* Parses text into *root (a mapping).  file is copied and used in messages
 * and in every node. */
int ws_yaml_parse(struct ws_ynode **root, const char *file, const char *text,
                  size_t len, struct ws_err *err);

void ws_yaml_free(struct ws_ynode *node);

struct ws_ynode *ws_yaml_get(const struct ws_ynode *map, const char *key);

/* Moves every entry of src into dst: scalars replace, mappings merge
 * recursively; a replaced entry moves to the end.  src is consumed, also
 * on failure (-1: out of memory, dst then partly merged but valid). */
int ws_yaml_merge(struct ws_ynode *dst, struct ws_ynode *src);

/* Creates or replaces the scalar at a dotted path ("l2.size"), creating
 * intermediate mappings.  -1 when a path element is a scalar already or on
 * out of memory. */
int ws_yaml_set(struct ws_ynode *root, const char *path, const char *value,
                const char *file, long line, long col);

/* Removes and frees one entry of a mapping. */
void ws_yaml_remove(struct ws_ynode *map, const char *key);

#endif
