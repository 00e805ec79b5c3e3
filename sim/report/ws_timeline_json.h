/*
 * ws_timeline_json: the timeline as a Chrome / Perfetto trace-event JSON
 * file, for ui.perfetto.dev or chrome://tracing: a struct
 * ws_timeline_writer (stats/ws_timeline.h) over a FILE.  Time stamps are
 * microseconds at the SM clock, as the format defines them, with the
 * cycles in each event's args; processes and tracks are named ("SM 12",
 * "warp slot 17") and sorted by number.  Each event is one line, so a file
 * cut short by a failed run is easy to read back.
 *
 * Leaves out: what the events are (the recorder's business) and where the
 * file goes (the command's).
 */
#ifndef WS_TIMELINE_JSON_H
#define WS_TIMELINE_JSON_H

#include <stdint.h>
#include <stdio.h>

#include "stats/ws_timeline.h"

struct ws_timeline_json {
    FILE *fp;
    uint64_t written;
    double core_mhz; /* cycles to microseconds */
};

/* A writer onto fp, which the caller opened and closes (and checks for
 * write errors); j must outlive the timeline. */
struct ws_timeline_writer ws_timeline_json_writer(struct ws_timeline_json *j,
                                                  FILE *fp);

#endif
