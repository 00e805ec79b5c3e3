/*
 * ws_strtab: string interning (see ws_strtab.h).
 */
#include "ws_strtab.h"

#include <stdlib.h>
#include <string.h>

static uint32_t ws_strtab_hash(const char *s, size_t len)
{
    uint32_t h = 2166136261u;

    for (size_t i = 0; i < len; i++) {
        h ^= (uint8_t)s[i];
        h *= 16777619u;
    }
    return h;
}

void ws_strtab_init(struct ws_strtab *t)
{
    memset(t, 0, sizeof *t);
}

void ws_strtab_free(struct ws_strtab *t)
{
    for (uint32_t i = 0; i < t->count; i++)
        free(t->strs[i]);
    free(t->strs);
    free(t->slots);
    memset(t, 0, sizeof *t);
}

static uint32_t ws_strtab_slot(const struct ws_strtab *t, const char *s,
                               size_t len)
{
    uint32_t mask = t->nslots - 1;
    uint32_t i = ws_strtab_hash(s, len) & mask;

    for (;;) {
        uint32_t id = t->slots[i];
        if (id == 0)
            return i;
        id--;
        if (strncmp(t->strs[id], s, len) == 0 && t->strs[id][len] == '\0')
            return i;
        i = (i + 1) & mask;
    }
}

uint32_t ws_strtab_find(const struct ws_strtab *t, const char *s, size_t len)
{
    uint32_t slot;

    if (t->nslots == 0)
        return UINT32_MAX;
    slot = ws_strtab_slot(t, s, len);
    return t->slots[slot] ? t->slots[slot] - 1 : UINT32_MAX;
}

static int ws_strtab_grow(struct ws_strtab *t)
{
    uint32_t n = t->nslots ? t->nslots * 2 : 64;
    uint32_t *slots = calloc(n, sizeof *slots);
    struct ws_strtab grown = *t;

    if (!slots)
        return -1;
    grown.slots = slots;
    grown.nslots = n;
    for (uint32_t id = 0; id < t->count; id++) {
        const char *s = t->strs[id];
        slots[ws_strtab_slot(&grown, s, strlen(s))] = id + 1;
    }
    free(t->slots);
    t->slots = slots;
    t->nslots = n;
    return 0;
}

uint32_t ws_strtab_intern(struct ws_strtab *t, const char *s, size_t len)
{
    uint32_t id = ws_strtab_find(t, s, len);
    char *copy;

    if (id != UINT32_MAX)
        return id;
    if ((t->count + 1) * 2 > t->nslots && ws_strtab_grow(t) < 0)
        return UINT32_MAX;
    if (t->count == t->strs_cap) {
        uint32_t cap = t->strs_cap ? t->strs_cap * 2 : 32;
        char **strs = realloc(t->strs, cap * sizeof *strs);
        if (!strs)
            return UINT32_MAX;
        t->strs = strs;
        t->strs_cap = cap;
    }
    copy = malloc(len + 1);
    if (!copy)
        return UINT32_MAX;
    memcpy(copy, s, len);
    copy[len] = '\0';
    id = t->count++;
    t->strs[id] = copy;
    t->slots[ws_strtab_slot(t, s, len)] = id + 1;
    return id;
}

const char *ws_strtab_str(const struct ws_strtab *t, uint32_t id)
{
    return id < t->count ? t->strs[id] : "?";
}
