/*
 * ws_sweep_file: what the sweep file's reader (ws_sweep_file.c) and its
 * axis reader (ws_sweep_axis.c) share: checks of YAML nodes whose messages
 * name the sweep file's words, and the GPU's resolution beside the file.
 *
 * Leaves out: the sweep itself (ws_sweep.h).
 */
#ifndef WS_SWEEP_FILE_H
#define WS_SWEEP_FILE_H

#include "util/ws_err.h"
#include "util/ws_yaml.h"
#include "ws_sweep.h"

/* fmt with two %s filled by a and b, malloc'd; NULL when out of memory. */
char *ws_sweep_printf(const char *fmt, const char *a, const char *b);

/* A GPU is a file beside the sweep file when one exists there, else a
 * built-in name (or a path the config loader resolves itself). */
char *ws_sweep_resolve_gpu(const char *sweep_path, const char *gpu);

/* n must be one value (what: what it should be). */
int ws_sweep_scalar(const struct ws_ynode *n, const char *what,
                    struct ws_err *err);

/* An item of a list must be one value (the YAML key of an item is its
 * index, which the user never wrote: the message names the list). */
int ws_sweep_item(const struct ws_ynode *n, const char *list, const char *what,
                  struct ws_err *err);

/* Reads axis n (its key the axis's name) into s->axes[s->naxes]. */
int ws_sweep_axis(struct ws_sweep *s, const struct ws_ynode *n,
                  struct ws_err *err);

#endif
