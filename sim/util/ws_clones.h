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
 * Leaves out: any other ISA level (the baseline copy is what the build's
 * flags make); sanitizer builds, which get one copy.
 */
#ifndef WS_CLONES_H
#define WS_CLONES_H

/* Not under the sanitizers: their runtimes are not up yet when the
 * loader runs an ifunc's resolver, which ThreadSanitizer's instrumented
 * resolver then crashes on. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define WS_CLONES_OFF 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define WS_CLONES_OFF 1
#endif
#endif

#if defined(__x86_64__) && defined(__GNUC__) && defined(__linux__) \
    && !defined(WS_CLONES_OFF)
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
