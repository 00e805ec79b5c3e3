/*
 * ws_cfg_check: rules that relate several config keys, run after every value
 * has been parsed on its own (ws_cfg_schema.c checks single values).
 *
 * Leaves out: rules that need a kernel (a CTA larger than the SM is the
 * dispatcher's error, not the config's).
 */
#ifndef WS_CFG_CHECK_H
#define WS_CFG_CHECK_H

#include "util/ws_err.h"
#include "ws_config.h"

/* Fills defaults of optional keys, then checks consistency; errors are
 * reported at gpu->loc of the key responsible. */
int ws_cfg_check(struct ws_gpu *gpu, struct ws_err *err);

#endif
