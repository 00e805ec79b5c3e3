/*
 * ws_timeline: trace-event JSON writer (see ws_timeline.h).  Each event is
 * built and serialised with jansson, one per line, so the file is valid
 * JSON however the run ends.
 */
#include "ws_timeline.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "util/ws_utf8.h"

/* ev may be NULL (out of memory while packing): nothing is written, so the
 * file stays valid JSON. */
static void ws_tl_emit(struct ws_timeline *tl, json_t *ev)
{
    if (!ev)
        return;
    if (tl->events >= tl->max_events) {
        tl->truncated = 1;
        json_decref(ev);
        return;
    }
    fputs(tl->events ? ",\n" : "\n", tl->fp);
    json_dumpf(ev, tl->fp, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(ev);
    tl->events++;
}

/* A complete ("X") event clipped to the window; dropped when outside. */
static void ws_tl_span(struct ws_timeline *tl, const char *name, uint32_t pid,
                       uint32_t tid, uint64_t start, uint64_t end)
{
    if (end <= tl->from || start >= tl->to)
        return;
    if (start < tl->from)
        start = tl->from;
    if (end > tl->to)
        end = tl->to;
    ws_tl_emit(tl, json_pack("{s:s,s:s,s:I,s:I,s:I,s:I}", "name", name,
                             "ph", "X", "ts", (json_int_t)start,
                             "dur", (json_int_t)(end - start),
                             "pid", (json_int_t)pid, "tid", (json_int_t)tid));
}

int ws_timeline_open(struct ws_timeline *tl, FILE *fp,
                     const struct ws_gpu *gpu, uint64_t from, uint64_t to,
                     uint64_t max_events, struct ws_err *err)
{
    size_t n = (size_t)gpu->sm.count * gpu->sm.max_warps;

    memset(tl, 0, sizeof *tl);
    tl->from = from;
    tl->to = to;
    tl->max_events = max_events;
    tl->nwarps = gpu->sm.max_warps;
    tl->run_start = calloc(n, sizeof *tl->run_start);
    tl->run_end = calloc(n, sizeof *tl->run_end);
    if (!tl->run_start || !tl->run_end)
        return ws_err_oom(err);
    tl->fp = fp;
    fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"time_unit\":"
          "\"SM cycle\"},\"traceEvents\":[", tl->fp);
    return 0;
}

void ws_timeline_kernel(struct ws_timeline *tl, const char *name, uint64_t t)
{
    if (t < tl->from || t >= tl->to)
        return;
    /* A kernel name is input text: "o" takes a sanitised string, since
     * json_pack fails on invalid UTF-8. */
    ws_tl_emit(tl, json_pack("{s:o,s:s,s:I,s:s,s:I,s:I}", "name",
                             ws_utf8_json_string(name),
                             "ph", "i", "ts", (json_int_t)t, "s", "g",
                             "pid", (json_int_t)0, "tid", (json_int_t)0));
}

void ws_timeline_close(struct ws_timeline *tl)
{
    fprintf(tl->fp, "\n],\"metadata\":{\"events\":%llu,\"truncated\":%s,"
            "\"window\":[%llu,%llu]}}\n", (unsigned long long)tl->events,
            tl->truncated ? "true" : "false", (unsigned long long)tl->from,
            (unsigned long long)tl->to);
    tl->fp = NULL;
    free(tl->run_start);
    free(tl->run_end);
}

static void ws_tl_flush_warp(struct ws_timeline *tl, uint32_t sm, uint32_t w)
{
    size_t i = (size_t)sm * tl->nwarps + w;

    if (tl->run_end[i] > tl->run_start[i])
        ws_tl_span(tl, "issue", sm, WS_TL_WARP_TRACK + w, tl->run_start[i],
                   tl->run_end[i]);
    tl->run_start[i] = tl->run_end[i] = 0;
}

void ws_timeline_cta(struct ws_timeline *tl, uint32_t sm, uint32_t slot,
                     const uint32_t ctaid[3], uint64_t start, uint64_t end,
                     const uint32_t *warp_slots, uint32_t nwarps)
{
    char name[64];

    snprintf(name, sizeof name, "CTA (%u,%u,%u)", ctaid[0], ctaid[1],
             ctaid[2]);
    ws_tl_span(tl, name, sm, slot, start, end);
    for (uint32_t i = 0; i < nwarps; i++)
        ws_tl_flush_warp(tl, sm, warp_slots[i]);
}

void ws_timeline_issue(struct ws_timeline *tl, uint32_t sm, uint32_t warp,
                       uint64_t t)
{
    size_t i = (size_t)sm * tl->nwarps + warp;

    if (tl->run_end[i] == t && t > 0) {
        tl->run_end[i] = t + 1;
        return;
    }
    ws_tl_flush_warp(tl, sm, warp);
    tl->run_start[i] = t;
    tl->run_end[i] = t + 1;
}

void ws_timeline_stall(struct ws_timeline *tl, uint32_t sm, uint32_t warp,
                       enum ws_ctr reason, uint64_t start, uint64_t end)
{
    ws_tl_flush_warp(tl, sm, warp);
    ws_tl_span(tl, ws_ctr_info(reason)->what, sm, WS_TL_WARP_TRACK + warp,
               start, end);
}
