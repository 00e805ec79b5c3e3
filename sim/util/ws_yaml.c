/*
 * ws_yaml: libyaml events -> struct ws_ynode tree (see ws_yaml.h).
 *
 * File names live in a list of strings that the tree's nodes point into,
 * kept for the whole process (never freed with a tree), so "file" pointers
 * stay valid after ws_yaml_merge mixes nodes from a base config and its
 * child, and in error positions kept after the tree is gone (struct
 * ws_gpu's key positions).
 */
#include "ws_yaml.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "ws_clip.h"

/* File names outlive merges, so they are kept for the process: a config run
 * opens a handful of files at most. */
struct ws_yname {
    struct ws_yname *next;
    char name[];
};

static struct ws_yname *ws_ynames;

static const char *ws_yaml_name(const char *file)
{
    struct ws_yname *n;

    for (n = ws_ynames; n; n = n->next)
        if (strcmp(n->name, file) == 0)
            return n->name;
    n = malloc(sizeof *n + strlen(file) + 1);
    if (!n)
        return "?";
    strcpy(n->name, file);
    n->next = ws_ynames;
    ws_ynames = n;
    return n->name;
}


void ws_yaml_free(struct ws_ynode *node)
{
    while (node) {
        struct ws_ynode *next = node->next;
        ws_yaml_free(node->child);
        free(node->key);
        free(node->value);
        free(node);
        node = next;
    }
}

struct ws_ybuild {
    yaml_parser_t parser;
    const char *file;
    const char *text; /* the input, for reader errors' positions */
    size_t len;
    struct ws_err *err;
};

static int ws_ybad(struct ws_ybuild *b, const yaml_event_t *ev,
                   const char *what)
{
    return ws_err_at(b->err, b->file, (long)ev->start_mark.line + 1,
                     (long)ev->start_mark.column + 1, "%s", what);
}

/* libyaml's reader (bad UTF-8, control characters) reports a byte offset,
 * not a mark: the line and column (in characters) are counted here. */
static void ws_ytext_pos(const char *text, size_t end, long *line, long *col)
{
    *line = 1;
    *col = 1;
    for (size_t i = 0; i < end; i++) {
        if (text[i] == '\n') {
            ++*line;
            *col = 1;
        } else if (((unsigned char)text[i] & 0xc0) != 0x80) {
            ++*col;
        }
    }
}

static int ws_ynext(struct ws_ybuild *b, yaml_event_t *ev)
{
    long line, col;

    if (yaml_parser_parse(&b->parser, ev))
        return 0;
    if (b->parser.error == YAML_READER_ERROR) {
        ws_ytext_pos(b->text,
                     b->parser.problem_offset < b->len
                         ? b->parser.problem_offset
                         : b->len,
                     &line, &col);
    } else {
        line = (long)b->parser.problem_mark.line + 1;
        col = (long)b->parser.problem_mark.column + 1;
    }
    return ws_err_at(b->err, b->file, line, col,
                     "YAML syntax: %s (expected "
                     "'key: value' lines)",
                     b->parser.problem ? b->parser.problem : "parse error");
}

static struct ws_ynode *ws_ynode_new(enum ws_ynode_kind kind, const char *file,
                                     const yaml_event_t *ev)
{
    struct ws_ynode *n = calloc(1, sizeof *n);

    if (!n)
        return NULL;
    n->kind = kind;
    n->file = file;
    n->line = (long)ev->start_mark.line + 1;
    n->col = (long)ev->start_mark.column + 1;
    return n;
}

/* ---- an index of a mapping's keys ---------------------------------------
 * A 1 MiB file holds 100 000 keys: checking each new key against the
 * mapping's list, or merging one long mapping into another entry by entry,
 * would take seconds.  A small open-addressing table keeps both linear. */

struct ws_yindex {
    struct ws_ynode **slot;
    size_t cap, n; /* cap: 0 or a power of two */
};

static size_t ws_yhash(const char *s)
{
    size_t h = 2166136261u; /* FNV-1a */

    while (*s)
        h = (h ^ (unsigned char)*s++) * 16777619u;
    return h;
}

static struct ws_ynode **ws_yindex_slot(const struct ws_yindex *ix,
                                        const char *key)
{
    size_t i = ws_yhash(key) & (ix->cap - 1);

    while (ix->slot[i] && strcmp(ix->slot[i]->key, key) != 0)
        i = (i + 1) & (ix->cap - 1);
    return &ix->slot[i];
}

static int ws_yindex_grow(struct ws_yindex *ix)
{
    struct ws_ynode **old = ix->slot;
    size_t old_cap = ix->cap;

    /* An array of pointers: sizeof *ix->slot is a pointer's size.
     * NOLINTNEXTLINE(bugprone-sizeof-expression) */
    ix->slot = calloc(old_cap ? old_cap * 2 : 16, sizeof *ix->slot);
    if (!ix->slot) {
        ix->slot = old;
        return -1;
    }
    ix->cap = old_cap ? old_cap * 2 : 16;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i])
            *ws_yindex_slot(ix, old[i]->key) = old[i];
    free(old);
    return 0;
}

static struct ws_ynode *ws_yindex_get(const struct ws_yindex *ix,
                                      const char *key)
{
    return ix->cap ? *ws_yindex_slot(ix, key) : NULL;
}

/* Adds n, replacing the entry of the same key; -1 when out of memory. */
static int ws_yindex_put(struct ws_yindex *ix, struct ws_ynode *n)
{
    struct ws_ynode **s;

    if ((ix->n + 1) * 2 > ix->cap && ws_yindex_grow(ix) < 0)
        return -1;
    s = ws_yindex_slot(ix, n->key);
    if (!*s)
        ix->n++;
    *s = n;
    return 0;
}

/* ---- building the tree --------------------------------------------------- */

static int ws_ymapping(struct ws_ybuild *b, struct ws_ynode *map, int depth);
static int ws_ysequence(struct ws_ybuild *b, struct ws_ynode *seq, int depth);

static int ws_yscalar(struct ws_ybuild *b, const yaml_event_t *ev,
                      struct ws_ynode **out)
{
    struct ws_ynode *n;

    /* "\0" in a quoted scalar would silently cut the value short. */
    if (memchr(ev->data.scalar.value, '\0', ev->data.scalar.length))
        return ws_ybad(b, ev, "a NUL character in a value (expected text)");
    n = *out = ws_ynode_new(WS_YNODE_SCALAR, b->file, ev);
    if (!n)
        return ws_err_oom(b->err);
    n->value = strndup((const char *)ev->data.scalar.value,
                       ev->data.scalar.length);
    if (!n->value)
        return ws_err_oom(b->err);
    /* Point at the text, not at its opening quote. */
    if (ev->data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE
        || ev->data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE)
        n->col++;
    return 0;
}

/* A mapping or a list at nesting level depth (the root mapping is 1).  The
 * tree is built, freed, merged and walked by recursion, one level per
 * nesting: a file of 50 000 '[' would overflow the stack, and no config or
 * workload needs more than a handful of levels. */
static int ws_ycollection(struct ws_ybuild *b, const yaml_event_t *ev,
                          enum ws_ynode_kind kind, int depth,
                          struct ws_ynode **out)
{
    if (depth > WS_YAML_MAX_DEPTH)
        return ws_err_at(b->err, b->file, (long)ev->start_mark.line + 1,
                         (long)ev->start_mark.column + 1,
                         "nested too deeply "
                         "(expected at most %d levels of mappings and lists)",
                         WS_YAML_MAX_DEPTH);
    *out = ws_ynode_new(kind, b->file, ev);
    if (!*out)
        return ws_err_oom(b->err);
    return kind == WS_YNODE_MAP ? ws_ymapping(b, *out, depth)
                                : ws_ysequence(b, *out, depth);
}

/* Turns the event just read into a node (scalar, mapping or list) at
 * nesting level depth; consumes the event. */
static int ws_yvalue_from(struct ws_ybuild *b, yaml_event_t ev,
                          struct ws_ynode **out, int depth)
{
    int rc;

    *out = NULL;
    switch (ev.type) {
    case YAML_SCALAR_EVENT:
        rc = ws_yscalar(b, &ev, out);
        break;
    case YAML_MAPPING_START_EVENT:
        rc = ws_ycollection(b, &ev, WS_YNODE_MAP, depth, out);
        break;
    case YAML_SEQUENCE_START_EVENT:
        rc = ws_ycollection(b, &ev, WS_YNODE_SEQ, depth, out);
        break;
    case YAML_ALIAS_EVENT:
        rc = ws_ybad(b, &ev,
                     "YAML aliases are not supported (expected a "
                     "plain value)");
        break;
    default:
        rc = ws_ybad(b, &ev,
                     "unexpected YAML (expected a value, a mapping "
                     "or a list)");
        break;
    }
    yaml_event_delete(&ev);
    return rc;
}

/* Reads the value after a key into a new node. */
static int ws_yvalue(struct ws_ybuild *b, struct ws_ynode **out, int depth)
{
    yaml_event_t ev;

    *out = NULL;
    if (ws_ynext(b, &ev) < 0)
        return -1;
    return ws_yvalue_from(b, ev, out, depth);
}

/* One item of a list: 1 at the end of the list. */
static int ws_yitem(struct ws_ybuild *b, struct ws_ynode **out, int depth)
{
    yaml_event_t ev;

    *out = NULL;
    if (ws_ynext(b, &ev) < 0)
        return -1;
    if (ev.type == YAML_SEQUENCE_END_EVENT) {
        yaml_event_delete(&ev);
        return 1;
    }
    return ws_yvalue_from(b, ev, out, depth);
}

/* Items until the end of the sequence; the event loop of ws_yvalue reads
 * one item per call, so the end is detected by peeking at the parser. */
static int ws_ysequence(struct ws_ybuild *b, struct ws_ynode *seq, int depth)
{
    struct ws_ynode *tail = NULL;
    unsigned long index = 0;

    for (;;) {
        struct ws_ynode *item = NULL;
        char key[24];
        int rc = ws_yitem(b, &item, depth + 1);
        if (rc == 1)
            return 0;
        if (rc < 0) {
            ws_yaml_free(item);
            return -1;
        }
        snprintf(key, sizeof key, "%lu", index++);
        /* rc 0 comes with an item: every failure returns -1 through the
         * ws_err functions, which the analyser cannot see into.
         * NOLINTNEXTLINE(clang-analyzer-core.NullDereference) */
        item->key = strdup(key);
        if (!item->key) {
            ws_yaml_free(item);
            return ws_err_oom(b->err);
        }
        item->key_line = item->line;
        item->key_col = item->col;
        if (tail)
            tail->next = item;
        else
            seq->child = item;
        tail = item;
    }
}

/* One "key: value" entry, appended at *tail and indexed in ix. */
static int ws_ykey(struct ws_ybuild *b, struct ws_ynode *map,
                   struct ws_ynode **tail, struct ws_yindex *ix,
                   const yaml_event_t *kev, int depth)
{
    const char *key = (const char *)kev->data.scalar.value;
    struct ws_ynode *v = NULL;

    if (memchr(key, '\0', kev->data.scalar.length))
        return ws_ybad(b, kev,
                       "a NUL character in a key (expected a plain "
                       "word)");
    /* Messages quote keys whole; no config or workload key comes near. */
    if (kev->data.scalar.length > WS_YAML_MAX_KEY)
        return ws_err_at(b->err, b->file, (long)kev->start_mark.line + 1,
                         (long)kev->start_mark.column + 1,
                         "a key of %zu "
                         "bytes (expected at most %d)",
                         kev->data.scalar.length, WS_YAML_MAX_KEY);
    if (ws_yindex_get(ix, key)) {
        struct ws_clip q;
        return ws_err_at(b->err, b->file, (long)kev->start_mark.line + 1,
                         (long)kev->start_mark.column + 1,
                         "duplicate key "
                         "'%s' (expected each key once per mapping)",
                         ws_clip(&q, key));
    }
    if (ws_yvalue(b, &v, depth + 1) < 0) {
        ws_yaml_free(v);
        return -1;
    }
    v->key = strndup(key, kev->data.scalar.length);
    if (!v->key || ws_yindex_put(ix, v) < 0) {
        ws_yaml_free(v);
        return ws_err_oom(b->err);
    }
    v->key_line = (long)kev->start_mark.line + 1;
    v->key_col = (long)kev->start_mark.column + 1;
    if (*tail)
        (*tail)->next = v;
    else
        map->child = v;
    *tail = v;
    return 0;
}

static int ws_ymapping(struct ws_ybuild *b, struct ws_ynode *map, int depth)
{
    struct ws_ynode *tail = NULL;
    struct ws_yindex ix = {NULL, 0, 0};
    int rc = 0;

    while (rc == 0) {
        yaml_event_t ev;
        if (ws_ynext(b, &ev) < 0) {
            rc = -1;
            break;
        }
        if (ev.type == YAML_MAPPING_END_EVENT) {
            yaml_event_delete(&ev);
            break;
        }
        if (ev.type != YAML_SCALAR_EVENT)
            rc = ws_ybad(b, &ev,
                         "a key must be a plain word (expected "
                         "'key: value')");
        else
            rc = ws_ykey(b, map, &tail, &ix, &ev, depth);
        yaml_event_delete(&ev);
    }
    free(ix.slot);
    return rc;
}

/* Expects the event sequence of one document whose root is a mapping. */
static int ws_ydocument(struct ws_ybuild *b, struct ws_ynode **root)
{
    yaml_event_t ev;
    int rc;

    for (;;) {
        if (ws_ynext(b, &ev) < 0)
            return -1;
        if (ev.type == YAML_MAPPING_START_EVENT)
            break;
        if (ev.type == YAML_STREAM_END_EVENT || ev.type == YAML_SCALAR_EVENT
            || ev.type == YAML_SEQUENCE_START_EVENT
            || ev.type == YAML_DOCUMENT_END_EVENT) {
            rc = ws_ybad(b, &ev,
                         ev.type == YAML_STREAM_END_EVENT
                             ? "the file is empty (expected 'key: value' lines)"
                             : "the file is not a YAML mapping (expected "
                               "'key: value' lines)");
            yaml_event_delete(&ev);
            return rc;
        }
        yaml_event_delete(&ev);
    }
    *root = ws_ynode_new(WS_YNODE_MAP, b->file, &ev);
    yaml_event_delete(&ev);
    if (!*root)
        return ws_err_oom(b->err);
    if (ws_ymapping(b, *root, 1) < 0)
        return -1;
    for (;;) {
        if (ws_ynext(b, &ev) < 0)
            return -1;
        if (ev.type == YAML_STREAM_END_EVENT) {
            yaml_event_delete(&ev);
            return 0;
        }
        if (ev.type == YAML_DOCUMENT_START_EVENT) {
            rc = ws_ybad(b, &ev,
                         "a second YAML document (expected one "
                         "document per file)");
            yaml_event_delete(&ev);
            return rc;
        }
        yaml_event_delete(&ev);
    }
}

int ws_yaml_parse(struct ws_ynode **root, const char *file, const char *text,
                  size_t len, struct ws_err *err)
{
    struct ws_ybuild b;
    const char *nul = memchr(text, '\0', len);
    long line, col;
    int rc;

    *root = NULL;
    if (nul) {
        ws_ytext_pos(text, (size_t)(nul - text), &line, &col);
        return ws_err_at(err, file, line, col,
                         "binary data (a NUL byte) in "
                         "a YAML file (expected text)");
    }
    b.file = ws_yaml_name(file);
    b.text = text;
    b.len = len;
    b.err = err;
    if (!yaml_parser_initialize(&b.parser))
        return ws_err_oom(err);
    yaml_parser_set_input_string(&b.parser, (const unsigned char *)text, len);
    rc = ws_ydocument(&b, root);
    yaml_parser_delete(&b.parser);
    if (rc < 0) {
        ws_yaml_free(*root);
        *root = NULL;
    }
    return rc;
}

struct ws_ynode *ws_yaml_get(const struct ws_ynode *map, const char *key)
{
    for (struct ws_ynode *n = map->child; n; n = n->next)
        if (strcmp(n->key, key) == 0)
            return n;
    return NULL;
}

void ws_yaml_remove(struct ws_ynode *map, const char *key)
{
    struct ws_ynode **pp = &map->child;

    while (*pp) {
        if (strcmp((*pp)->key, key) == 0) {
            struct ws_ynode *dead = *pp;
            *pp = dead->next;
            dead->next = NULL;
            ws_yaml_free(dead);
            return;
        }
        pp = &(*pp)->next;
    }
}

static void ws_yaml_append(struct ws_ynode *map, struct ws_ynode *n)
{
    struct ws_ynode **pp = &map->child;

    while (*pp)
        pp = &(*pp)->next;
    n->next = NULL;
    *pp = n;
}

/* Indexes every entry of map; -1 when out of memory. */
static int ws_yindex_of(struct ws_yindex *ix, const struct ws_ynode *map)
{
    for (struct ws_ynode *n = map->child; n; n = n->next)
        if (ws_yindex_put(ix, n) < 0)
            return -1;
    return 0;
}

/* Frees the entries of map whose key the index now gives to another node
 * (replaced by the merge), then appends the replacements in their order. */
static void ws_yaml_splice(struct ws_ynode *map, const struct ws_yindex *ix,
                           struct ws_ynode *fresh)
{
    struct ws_ynode **pp = &map->child;

    while (*pp) {
        struct ws_ynode *n = *pp;
        if (ws_yindex_get(ix, n->key) != n) {
            *pp = n->next;
            n->next = NULL;
            ws_yaml_free(n);
        } else {
            pp = &n->next;
        }
    }
    *pp = fresh;
}

/* As if each entry of src in turn replaced dst's entry of that key (or
 * merged into it, both being mappings) and moved to the end, but in one
 * pass over both lists. */
int ws_yaml_merge(struct ws_ynode *dst, struct ws_ynode *src)
{
    struct ws_yindex ix = {NULL, 0, 0};
    struct ws_ynode *n = src->child, *fresh = NULL, **tail = &fresh;
    int rc = 0;

    src->child = NULL;
    if (ws_yindex_of(&ix, dst) < 0) {
        free(ix.slot);
        ws_yaml_free(n);
        ws_yaml_free(src);
        return -1;
    }
    while (n) {
        struct ws_ynode *next = n->next;
        struct ws_ynode *old = ws_yindex_get(&ix, n->key);
        n->next = NULL;
        if (rc < 0) {
            ws_yaml_free(n);
        } else if (old && old->kind == WS_YNODE_MAP
                   && n->kind == WS_YNODE_MAP) {
            rc = ws_yaml_merge(old, n);
        } else if (ws_yindex_put(&ix, n) < 0) {
            ws_yaml_free(n);
            rc = -1;
        } else {
            *tail = n;
            tail = &n->next;
        }
        n = next;
    }
    ws_yaml_splice(dst, &ix, fresh);
    free(ix.slot);
    ws_yaml_free(src);
    return rc;
}

/* A new entry of map under key (taken over; freed on failure), placed at
 * the --set that made it; value NULL makes a mapping. */
static struct ws_ynode *ws_yaml_add(struct ws_ynode *map, char *key,
                                    const char *value, const char *file,
                                    long line, long col)
{
    struct ws_ynode *node = calloc(1, sizeof *node);

    if (!node || (value && !(node->value = strdup(value)))) {
        free(node);
        free(key);
        return NULL;
    }
    node->kind = value ? WS_YNODE_SCALAR : WS_YNODE_MAP;
    node->key = key;
    node->file = ws_yaml_name(file);
    node->line = node->key_line = line;
    node->col = node->key_col = col;
    ws_yaml_append(map, node);
    return node;
}

int ws_yaml_set(struct ws_ynode *root, const char *path, const char *value,
                const char *file, long line, long col)
{
    struct ws_ynode *map = root;
    const char *p = path;

    for (;;) {
        const char *dot = strchr(p, '.');
        size_t n = dot ? (size_t)(dot - p) : strlen(p);
        char *key = strndup(p, n);
        struct ws_ynode *node;
        if (!key)
            return -1;
        node = ws_yaml_get(map, key);
        if (!dot) {
            if (node && node->kind == WS_YNODE_MAP) {
                free(key);
                return -1;
            }
            if (node)
                ws_yaml_remove(map, key);
            return ws_yaml_add(map, key, value, file, line, col) ? 0 : -1;
        }
        if (node && node->kind != WS_YNODE_MAP) {
            free(key);
            return -1;
        }
        if (!node)
            node = ws_yaml_add(map, key, NULL, file, line, col);
        else
            free(key);
        if (!node)
            return -1;
        map = node;
        p = dot + 1;
    }
}
