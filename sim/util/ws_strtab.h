/*
 * ws_strtab: interned strings with small integer ids.
 *
 * Traces repeat a few hundred distinct opcode strings millions of times; the
 * readers intern each one once and carry a 32-bit id in every instruction,
 * so instruction records stay fixed-size and comparisons are integer ones.
 * Open addressing with linear probing, FNV-1a hash, table doubled at half
 * load.  Ids are dense (0, 1, 2, ...) in first-seen order, which keeps every
 * listing built from them deterministic.
 *
 * Leaves out: removal.
 */
#ifndef WS_STRTAB_H
#define WS_STRTAB_H

#include <stddef.h>
#include <stdint.h>

struct ws_strtab {
    char **strs; /* id -> string */
    uint32_t count, strs_cap;
    uint32_t *slots; /* hash slot -> id + 1, 0 = empty */
    uint32_t nslots;
};

void ws_strtab_init(struct ws_strtab *t);
void ws_strtab_free(struct ws_strtab *t);

/* The id of s[0..len), added if new; UINT32_MAX when out of memory. */
uint32_t ws_strtab_intern(struct ws_strtab *t, const char *s, size_t len);

/* The id of s[0..len), or UINT32_MAX when it was never interned. */
uint32_t ws_strtab_find(const struct ws_strtab *t, const char *s, size_t len);

const char *ws_strtab_str(const struct ws_strtab *t, uint32_t id);

#endif
