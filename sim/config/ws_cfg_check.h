/*
 * ws_cfg_check: rules that relate several config keys, run after every value
 * has been parsed on its own (ws_cfg_schema.c checks single values).
 *
 * Leaves out: rules that need a kernel (a CTA larger than the SM is the
 * dispatcher's error, not the config's).
 */
#ifndef WS_CFG_CHECK_H
#define WS_CFG_CHECK_H

#include "../util/ws_err.h"
#include "ws_config.h"

/* Where a key's value came from; file NULL when it was never set. */
struct ws_cfg_loc {
    const char *file;
    long line, col;
};

/* Fills defaults of optional keys, then checks consistency.  locs is indexed
 * like the schema table; top names the config for keys that no file set. */
int ws_cfg_check(struct ws_gpu *gpu, const struct ws_cfg_loc *locs,
                 const char *top, struct ws_err *err);

#endif
