/*
 * ws_u64set: a set of 64-bit values kept as bitmaps of 2^15 consecutive
 * values (4 KiB each), found through an open-addressing table keyed by the
 * value's high bits.  The kernel profile keeps in one the distinct sectors
 * (by sector number) a kernel touches, to count compulsory misses and
 * reuse: a program's sectors come in runs, so a megabyte of footprint
 * costs one 4 KiB page and a lookup touches one table slot and one bit,
 * where a hash set of single values cost eight bytes (and a cache miss)
 * per sector.
 *
 * Also the sort of plain arrays of such values.
 *
 * Leaves out: removal, iteration (counting differences is what is asked).
 */
#ifndef WS_U64SET_H
#define WS_U64SET_H

#include <stddef.h>
#include <stdint.h>

#define WS_U64SET_PAGE_BITS 15

struct ws_u64set_page {
    uint64_t key; /* value >> WS_U64SET_PAGE_BITS */
    uint64_t bits[(1u << WS_U64SET_PAGE_BITS) / 64];
};

struct ws_u64set {
    struct ws_u64set_page *pages;
    size_t npages, page_cap;
    uint32_t *slot; /* page index + 1; 0 marks an empty slot */
    size_t cap;
    size_t n;    /* values in the set */
    size_t last; /* the page of the previous lookup + 1 */
};

void ws_u64set_init(struct ws_u64set *s);
void ws_u64set_free(struct ws_u64set *s);

/* 1 when v was added, 0 when it was there, -1 when out of memory. */
int ws_u64set_add(struct ws_u64set *s, uint64_t v);

/* 1 when v is in the set. */
int ws_u64set_has(const struct ws_u64set *s, uint64_t v);

/* Values of a that are not in b. */
uint64_t ws_u64set_count_not_in(const struct ws_u64set *a,
                                const struct ws_u64set *b);

/* Sorts n values ascending: the lists of 64-bit values that are not sets
 * (GPGPU-Sim's bank-index bits, a TMA transfer's addresses). */
void ws_u64_sort(uint64_t *v, size_t n);

#endif
