/*
 * ws_info: the data behind "warpsim trace info" and its two renderings,
 * text for people and JSON (jansson) for scripts.
 *
 * Leaves out: reading inputs (run/ws_run_trace.c) and counting
 * (model/ws_profile).
 */
#ifndef WS_INFO_H
#define WS_INFO_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

#include "listing/ws_sass.h"
#include "ws_profile.h"

#define WS_INFO_SCHEMA_VERSION 1

struct ws_info_trace {
    const char *input;
    const char *gpu_name;
    struct ws_profile *kernels;
    size_t nkernels;
    uint64_t memcpy_count, memcpy_bytes;
};

void ws_info_print_trace(FILE *out, const struct ws_info_trace *t);
char *ws_info_json_trace(const struct ws_info_trace *t);

void ws_info_print_listing(FILE *out, const char *input,
                           const struct ws_sass *s);
char *ws_info_json_listing(const char *input, const struct ws_sass *s);

/* Shared by both JSON forms: the versioned top object, and its text with a
 * final newline (NULL on out of memory). */
json_t *ws_info_json_header(const char *kind, const char *input);
char *ws_info_json_finish(json_t *root);

#endif
