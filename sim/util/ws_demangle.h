/*
 * ws_demangle: a kernel's C++ name as a person reads it
 * ("_Z6vecAddPKfS0_Pfi" -> "vecAdd(float const*, float const*, float*,
 * int)"), by the Itanium C++ ABI's own demangler, __cxa_demangle from the
 * C++ runtime the toolchain ships (libstdc++): rewriting a demangler would
 * be a second, worse copy of one every system already has.
 *
 * The demangler runs in a child process, bounded in time and output
 * (ws_demangle.c says why): a name whose demangled form would pass
 * WS_DEMANGLE_MAX bytes is kept as traced.
 *
 * Leaves out: shortening long template names (the caller's layout
 * decides).
 */
#ifndef WS_DEMANGLE_H
#define WS_DEMANGLE_H

#define WS_DEMANGLE_MAX 4096

/* The demangled name, malloc'd; a copy of name where it is not a
 * mangled C++ name (a C kernel, "vecadd") or too long; NULL only when out
 * of memory. */
char *ws_demangle(const char *name);

#endif
