/*
 * ws_cfg_embedded: the configs/ folder compiled into the binary (generated
 * by sim/config/embed_configs.cmake), so "--gpu v100" and the default config
 * work without the source tree.
 */
#ifndef WS_CFG_EMBEDDED_H
#define WS_CFG_EMBEDDED_H

#include <stddef.h>

struct ws_cfg_embedded {
    const char *name; /* file name, e.g. "v100.yaml"; NULL ends the table */
    const char *text;
    size_t len;
};

extern const struct ws_cfg_embedded ws_cfg_embedded_files[];

#endif
