/*
 * ws_bits: bit counting on the simulator's hot paths.
 *
 * __builtin_popcount compiles to a call into libgcc unless the target is
 * told the CPU has POPCNT, which a portable build cannot assume; counting a
 * lane mask inline (the SWAR sum of bit pairs, nibbles, bytes) costs a
 * dozen instructions and no call.  Every instruction issued counts one.
 *
 * Leaves out: 64-bit masks (not on hot paths).
 */
#ifndef WS_BITS_H
#define WS_BITS_H

#include <stdint.h>

static inline unsigned ws_popcount32(uint32_t v)
{
    /* A full warp's mask, most instructions' in most kernels: one
     * well-predicted compare instead of the sum. */
    if (v == UINT32_MAX)
        return 32;
    v = v - ((v >> 1) & 0x55555555u);
    v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
    v = (v + (v >> 4)) & 0x0f0f0f0fu;
    return (v * 0x01010101u) >> 24;
}

#endif
