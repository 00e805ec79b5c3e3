/*
 * ws_cacheline: line-aligned, line-padded allocation (see ws_cacheline.h).
 */
/* MAP_ANONYMOUS is not POSIX (every Unix has it, under that name or
 * MAP_ANON). */
#define _DEFAULT_SOURCE
#include "ws_cacheline.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Blocks past this come straight from mmap: pages the kernel zeroes when
 * first touched.  Neither aligned_alloc with memset nor calloc: the memset
 * touches every page, and calloc, once a freed block has raised glibc's
 * mmap threshold (the latency probes' simulators free theirs before the
 * run's own is set up), takes them from the heap and clears them too.
 * Untouched, the parts a run never uses (warp slots past its occupancy,
 * the CTA slots' mbarrier tables outside Hopper kernels, the SMs a small
 * grid leaves idle) cost no page at all: the memset was 20 MB and a
 * third of a small kernel's run. */
#define WS_LINES_MAP (32u * 1024)

/* Under AddressSanitizer every block is calloc's: the sanitizer watches
 * the heap's bounds, not a mapping's. */
#if defined(__SANITIZE_ADDRESS__)
#define WS_LINES_MAP_OK 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define WS_LINES_MAP_OK 0
#endif
#endif
#ifndef WS_LINES_MAP_OK
#define WS_LINES_MAP_OK 1
#endif

/* Below the aligned start, in the line before it: the block's own start
 * and, for a mapping, its length (0: calloc's). */
struct ws_lines_head {
    void *raw;
    size_t mapped;
};

void *ws_calloc_lines(size_t n, size_t size)
{
    struct ws_lines_head head = {NULL, 0};
    size_t bytes, total;
    uintptr_t at;

    if (size && n > SIZE_MAX / size)
        return NULL;
    bytes = n * size;
    if (bytes > SIZE_MAX - 3 * WS_CACHELINE)
        return NULL;
    bytes = (bytes + WS_CACHELINE - 1) / WS_CACHELINE * WS_CACHELINE;
    if (!bytes)
        bytes = WS_CACHELINE;
    /* two lines more than asked: the head below the start, and the
     * rounding up to a line, whatever calloc's own alignment (a block at
     * 56 past a line, on a calloc that aligns to 8 only, starts 72 in) */
    total = bytes + 2 * WS_CACHELINE;
    if (WS_LINES_MAP_OK && total >= WS_LINES_MAP) {
        head.raw = mmap(NULL, total, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (head.raw == MAP_FAILED)
            return NULL;
        head.mapped = total;
    } else if (!(head.raw = calloc(1, total))) {
        return NULL;
    }
    at = ((uintptr_t)head.raw + sizeof head + WS_CACHELINE - 1) / WS_CACHELINE
         * WS_CACHELINE;
    memcpy((char *)at - sizeof head, &head, sizeof head);
    return (void *)at;
}

void ws_free_lines(void *p)
{
    struct ws_lines_head head;

    if (!p)
        return;
    memcpy(&head, (char *)p - sizeof head, sizeof head);
    if (head.mapped)
        munmap(head.raw, head.mapped);
    else
        free(head.raw);
}
