/*
 * ws_timeline_json: trace-event JSON writer (see ws_timeline_json.h).
 * Each event is built and serialised with jansson, one per line.
 */
#include "ws_timeline_json.h"

#include <jansson.h>

#include "util/ws_utf8.h"

/* ev may be NULL (out of memory while packing): nothing is written, so the
 * file stays valid JSON. */
static void ws_tlj_emit(struct ws_timeline_json *j, json_t *ev)
{
    if (!ev)
        return;
    fputs(j->written ? ",\n" : "\n", j->fp);
    json_dumpf(ev, j->fp, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(ev);
    j->written++;
}

static void ws_tlj_begin(void *ctx)
{
    struct ws_timeline_json *j = ctx;

    fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"time_unit\":"
          "\"SM cycle\"},\"traceEvents\":[",
          j->fp);
}

static void ws_tlj_span(void *ctx, const char *name, uint32_t pid, uint32_t tid,
                        uint64_t start, uint64_t dur)
{
    ws_tlj_emit(ctx,
                json_pack("{s:s,s:s,s:I,s:I,s:I,s:I}", "name", name, "ph", "X",
                          "ts", (json_int_t)start, "dur", (json_int_t)dur,
                          "pid", (json_int_t)pid, "tid", (json_int_t)tid));
}

static void ws_tlj_mark(void *ctx, const char *name, uint64_t t)
{
    /* A kernel name is input text: "o" takes a sanitised string, since
     * json_pack fails on invalid UTF-8. */
    ws_tlj_emit(ctx, json_pack("{s:o,s:s,s:I,s:s,s:I,s:I}", "name",
                               ws_utf8_json_string(name), "ph", "i", "ts",
                               (json_int_t)t, "s", "g", "pid", (json_int_t)0,
                               "tid", (json_int_t)0));
}

static void ws_tlj_end(void *ctx, uint64_t events, int truncated, uint64_t from,
                       uint64_t to)
{
    struct ws_timeline_json *j = ctx;

    fprintf(j->fp,
            "\n],\"metadata\":{\"events\":%llu,\"truncated\":%s,"
            "\"window\":[%llu,%llu]}}\n",
            (unsigned long long)events, truncated ? "true" : "false",
            (unsigned long long)from, (unsigned long long)to);
}

struct ws_timeline_writer ws_timeline_json_writer(struct ws_timeline_json *j,
                                                  FILE *fp)
{
    struct ws_timeline_writer w = {j, ws_tlj_begin, ws_tlj_span, ws_tlj_mark,
                                   ws_tlj_end};

    j->fp = fp;
    j->written = 0;
    return w;
}
