/*
 * ws_study: what every study's report shares (see ws_study.h).
 */
#include "ws_study.h"

#include <stdlib.h>
#include <string.h>

void ws_study_out_free(struct ws_study_out *o)
{
    free(o->report);
    free(o->points);
    free(o->chart);
    json_decref(o->summary);
    memset(o, 0, sizeof *o);
}
