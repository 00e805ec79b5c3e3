/*
 * ws_kname: the base name of a kernel, so that a simulated kernel and a
 * measured one can be paired whatever form each tool writes its name in.
 *
 * Traces (and so warpsim's --json) and Accel-Sim logs carry the mangled
 * name, "_Z4apspPKfPfii"; Nsight Compute prints it demangled with its
 * parameters, "apsp(const float *, float *, int, int)", or for a template
 * with its return type, "void ns::reduce<256>(float *)".  Both come down
 * to the qualified function name without template arguments or
 * parameters: "apsp", "ns::reduce".  A name in neither form (an extern "C"
 * kernel, "vecAdd") is its own base name.
 *
 * The demangler reads the Itanium C++ ABI's <name> production (section
 * 5.1.5 of the ABI: source names, nested names, std:: and the other
 * standard abbreviations, internal linkage 'L'), skipping template
 * arguments with a reader of the common <type> forms.
 *
 * Leaves out: local names (a kernel is never local), constructors,
 * operators, lambdas and expressions in template arguments: when the
 * reader meets one, it keeps the components read so far, and when there
 * is none, the whole name is its own base name.
 */
#ifndef WS_KNAME_H
#define WS_KNAME_H

/* The base name of name (malloc'd), or NULL when out of memory. */
char *ws_kname_base(const char *name);

#endif
