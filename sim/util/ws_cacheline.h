/*
 * ws_cacheline: memory in whole cache lines of its own, for data that one
 * thread writes while other threads write what lies beside it (the SMs
 * and the parts of a cycle's own work run side by side: timing/ws_par.h).
 * Two threads' data in one line would move the line between their cores
 * at every write ("false sharing"), which on a 16-core host cost more
 * than a second thread gained.
 *
 * Leaves out: asking the machine its line size.  64 bytes is x86-64's and
 * most Arm cores'; on a machine with longer lines neighbours may share
 * one again, which costs speed, never a result.
 */
#ifndef WS_CACHELINE_H
#define WS_CACHELINE_H

#include <stddef.h>

#define WS_CACHELINE 64

/* n zeroed elements of size bytes, starting on a line and filling whole
 * lines; ws_free_lines frees it.  NULL when memory runs out or n * size
 * overflows. */
void *ws_calloc_lines(size_t n, size_t size);
/* Frees what ws_calloc_lines gave (NULL: nothing). */
void ws_free_lines(void *p);

#endif
