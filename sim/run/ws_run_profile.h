/*
 * ws_run_profile: the kernels of an input read through, without timing,
 * into the profiles the closed-form models take (model/ws_profile.h):
 * what `warpsim profile`, `warpsim model NAME TRACE` and `trace info`
 * are built on.  A kernel is read completely before it is handed on, and
 * one kernel's profile is held at a time.
 *
 * Leaves out: what is printed of a profile (report/), the models
 * themselves (model/), the simulation (ws_run.h).
 */
#ifndef WS_RUN_PROFILE_H
#define WS_RUN_PROFILE_H

#include <stddef.h>

#include "config/ws_config.h"
#include "input/ws_input.h"
#include "util/ws_err.h"
#include "ws_profile.h"

/* Reads kernel command i of in completely into a profile (initialised
 * here; on failure nothing needs freeing). */
int ws_run_profile_kernel(struct ws_input *in, size_t i,
                          const struct ws_gpu *gpu, struct ws_profile *p,
                          struct ws_err *err);

/* Called with each kernel's profile in launch order; warm: a command
 * (a copy or a kernel) came before it, so L2 is not cold.  The profile is
 * freed when it returns; a return below 0 stops the walk. */
typedef int (*ws_run_profile_fn)(void *ctx, const struct ws_profile *p,
                                 int warm, struct ws_err *err);

/* Profiles every kernel of in and hands each to each(ctx, ...). */
int ws_run_profile_each(struct ws_input *in, const struct ws_gpu *gpu,
                        ws_run_profile_fn each, void *ctx, struct ws_err *err);

/* A listing alone has instructions but no dynamic stream: the error, at
 * its first line, for a command that would verb it ("profile", "model");
 * 0 for any other input. */
int ws_run_refuse_static(const struct ws_input *in, const char *verb,
                         struct ws_err *err);

#endif
