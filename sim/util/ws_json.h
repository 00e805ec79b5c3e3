/*
 * ws_json: numbers for JSON output that may have no value.
 *
 * JSON has no NaN or infinity, and jansson's json_real returns NULL for
 * them, which json_object_set_new turns into a silently missing key and
 * json_pack into no object at all.  A metric that could not be computed
 * (no runs, no loads, a ratio over zero) is written as null instead, so
 * a reader finds every key and can tell "none" from a number.
 *
 * Leaves out: strings (ws_utf8.h makes those safe).
 */
#ifndef WS_JSON_H
#define WS_JSON_H

#include <jansson.h>

/* json_real(v), or JSON null when v is not finite. */
json_t *ws_json_real(double v);

#endif
