/*
 * ws_clones: a function built twice, for AVX2 and for the baseline x86-64
 * ISA, the loader picking the copy the CPU runs (a GNU ifunc, through gcc's
 * and clang's target_clones), for the loops over a warp's 32 lanes that
 * wider vectors pay on.  Integer arithmetic either way: the same values
 * from either copy.
 *
 * WS_CLONES goes on the function; what it calls in its loops must be
 * WS_FORCE_INLINE, since a called function runs its baseline code.  Only
 * where the toolchain has ifuncs (x86-64 Linux, gcc or clang); elsewhere
 * one copy.  Clang 14 emits a cloned function's dispatcher only for calls
 * from its own file: clone static functions.
 *
 * Leaves out: any other ISA level; the baseline copy is what the build's
 * flags make.
 */
#ifndef WS_CLONES_H
#define WS_CLONES_H

#if defined(__x86_64__) && defined(__GNUC__) && defined(__linux__)
#define WS_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define WS_CLONES
#endif
#ifdef __GNUC__
#define WS_FORCE_INLINE inline __attribute__((always_inline))
#else
#define WS_FORCE_INLINE inline
#endif

#endif
