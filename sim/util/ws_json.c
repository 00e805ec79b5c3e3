/*
 * ws_json: numbers for JSON output that may have no value (see ws_json.h).
 */
#include "ws_json.h"

#include <math.h>

json_t *ws_json_real(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}
