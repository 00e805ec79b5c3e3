/*
 * ws_yaml: libyaml events -> struct ws_ynode tree (see ws_yaml.h).
 *
 * File names live in a small list of strings that the tree's nodes point
 * into; the list is freed with the tree.  Each node holds one reference via
 * its root, so "file" pointers stay valid after ws_yaml_merge mixes nodes
 * from a base config and its child.
 */
#include "ws_yaml.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

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
    struct ws_err *err;
};

static int ws_ybad(struct ws_ybuild *b, const yaml_event_t *ev,
                   const char *what)
{
    return ws_err_at(b->err, b->file, (long)ev->start_mark.line + 1,
                     (long)ev->start_mark.column + 1, "%s", what);
}

static int ws_ynext(struct ws_ybuild *b, yaml_event_t *ev)
{
    if (!yaml_parser_parse(&b->parser, ev)) {
        const yaml_mark_t *m = &b->parser.problem_mark;
        return ws_err_at(b->err, b->file, (long)m->line + 1,
                         (long)m->column + 1, "YAML syntax: %s (expected "
                         "'key: value' lines)", b->parser.problem ?
                         b->parser.problem : "parse error");
    }
    return 0;
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

static int ws_ymapping(struct ws_ybuild *b, struct ws_ynode *map);
static int ws_ysequence(struct ws_ybuild *b, struct ws_ynode *seq);

/* Turns the event just read into a node (scalar, mapping or list). */
static int ws_yvalue_from(struct ws_ybuild *b, yaml_event_t ev,
                          struct ws_ynode **out)
{
    struct ws_ynode *n;
    int rc = 0;

    switch (ev.type) {
    case YAML_SCALAR_EVENT:
        n = ws_ynode_new(WS_YNODE_SCALAR, b->file, &ev);
        if (n) {
            n->value = strndup((const char *)ev.data.scalar.value,
                               ev.data.scalar.length);
            /* Point at the text, not at its opening quote. */
            if (ev.data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE
                || ev.data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE)
                n->col++;
        }
        if (!n || !n->value)
            rc = ws_err_oom(b->err);
        break;
    case YAML_MAPPING_START_EVENT:
        n = ws_ynode_new(WS_YNODE_MAP, b->file, &ev);
        if (!n)
            rc = ws_err_oom(b->err);
        else
            rc = ws_ymapping(b, n);
        break;
    case YAML_SEQUENCE_START_EVENT:
        n = ws_ynode_new(WS_YNODE_SEQ, b->file, &ev);
        if (!n)
            rc = ws_err_oom(b->err);
        else
            rc = ws_ysequence(b, n);
        break;
    case YAML_ALIAS_EVENT:
        n = NULL;
        rc = ws_ybad(b, &ev, "YAML aliases are not supported (expected a "
                     "plain value)");
        break;
    default:
        n = NULL;
        rc = ws_ybad(b, &ev, "unexpected YAML (expected a value, a mapping "
                     "or a list)");
        break;
    }
    yaml_event_delete(&ev);
    *out = n;
    return rc;
}

/* Reads the value after a key into a new node. */
static int ws_yvalue(struct ws_ybuild *b, struct ws_ynode **out)
{
    yaml_event_t ev;

    *out = NULL;
    if (ws_ynext(b, &ev) < 0)
        return -1;
    return ws_yvalue_from(b, ev, out);
}

/* One item of a list: 1 at the end of the list. */
static int ws_yitem(struct ws_ybuild *b, struct ws_ynode **out)
{
    yaml_event_t ev;

    *out = NULL;
    if (ws_ynext(b, &ev) < 0)
        return -1;
    if (ev.type == YAML_SEQUENCE_END_EVENT) {
        yaml_event_delete(&ev);
        return 1;
    }
    return ws_yvalue_from(b, ev, out);
}

/* Items until the end of the sequence; the event loop of ws_yvalue reads
 * one item per call, so the end is detected by peeking at the parser. */
static int ws_ysequence(struct ws_ybuild *b, struct ws_ynode *seq)
{
    struct ws_ynode *tail = NULL;
    unsigned index = 0;

    for (;;) {
        struct ws_ynode *item = NULL;
        char key[16];
        int rc = ws_yitem(b, &item);
        if (rc == 1)
            return 0;
        if (rc < 0) {
            ws_yaml_free(item);
            return -1;
        }
        snprintf(key, sizeof key, "%u", index++);
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

static int ws_ykey(struct ws_ybuild *b, struct ws_ynode *map,
                   struct ws_ynode **tail, const yaml_event_t *kev)
{
    const char *key = (const char *)kev->data.scalar.value;
    struct ws_ynode *v = NULL;

    if (ws_yaml_get(map, key))
        return ws_err_at(b->err, b->file, (long)kev->start_mark.line + 1,
                         (long)kev->start_mark.column + 1, "duplicate key "
                         "'%s' (expected each key once per mapping)", key);
    if (ws_yvalue(b, &v) < 0) {
        ws_yaml_free(v);
        return -1;
    }
    v->key = strndup(key, kev->data.scalar.length);
    if (!v->key) {
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

static int ws_ymapping(struct ws_ybuild *b, struct ws_ynode *map)
{
    struct ws_ynode *tail = NULL;

    for (;;) {
        yaml_event_t ev;
        int rc;
        if (ws_ynext(b, &ev) < 0)
            return -1;
        if (ev.type == YAML_MAPPING_END_EVENT) {
            yaml_event_delete(&ev);
            return 0;
        }
        if (ev.type != YAML_SCALAR_EVENT)
            rc = ws_ybad(b, &ev, "a key must be a plain word (expected "
                         "'key: value')");
        else
            rc = ws_ykey(b, map, &tail, &ev);
        yaml_event_delete(&ev);
        if (rc < 0)
            return -1;
    }
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
            rc = ws_ybad(b, &ev, "the config is not a mapping (expected "
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
    if (ws_ymapping(b, *root) < 0)
        return -1;
    for (;;) {
        if (ws_ynext(b, &ev) < 0)
            return -1;
        if (ev.type == YAML_STREAM_END_EVENT) {
            yaml_event_delete(&ev);
            return 0;
        }
        if (ev.type == YAML_DOCUMENT_START_EVENT) {
            rc = ws_ybad(b, &ev, "a second YAML document (expected one "
                         "config per file)");
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
    int rc;

    *root = NULL;
    if (memchr(text, '\0', len))
        return ws_err_at(err, file, 1, 1, "binary data in a config file "
                         "(expected YAML text)");
    b.file = ws_yaml_name(file);
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

void ws_yaml_merge(struct ws_ynode *dst, struct ws_ynode *src)
{
    struct ws_ynode *n = src->child;

    src->child = NULL;
    while (n) {
        struct ws_ynode *next = n->next;
        struct ws_ynode *old = ws_yaml_get(dst, n->key);
        n->next = NULL;
        if (old && old->kind == WS_YNODE_MAP && n->kind == WS_YNODE_MAP) {
            ws_yaml_merge(old, n);
        } else {
            if (old)
                ws_yaml_remove(dst, n->key);
            ws_yaml_append(dst, n);
        }
        n = next;
    }
    ws_yaml_free(src);
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
            node = calloc(1, sizeof *node);
            if (!node || !(node->value = strndup(value, strlen(value)))) {
                free(node);
                free(key);
                return -1;
            }
            node->kind = WS_YNODE_SCALAR;
            node->key = key;
            node->file = ws_yaml_name(file);
            node->line = node->key_line = line;
            node->col = node->key_col = col;
            ws_yaml_append(map, node);
            return 0;
        }
        if (node && node->kind != WS_YNODE_MAP) {
            free(key);
            return -1;
        }
        if (!node) {
            node = calloc(1, sizeof *node);
            if (!node) {
                free(key);
                return -1;
            }
            node->kind = WS_YNODE_MAP;
            node->key = key;
            node->file = ws_yaml_name(file);
            node->line = node->key_line = line;
            node->col = node->key_col = col;
            ws_yaml_append(map, node);
        } else {
            free(key);
        }
        map = node;
        p = dot + 1;
    }
}
