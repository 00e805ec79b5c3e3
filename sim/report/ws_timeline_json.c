/*
 * ws_timeline_json: trace-event JSON writer (see ws_timeline_json.h).
 * Each event is built and serialised with jansson, one per line; keys are
 * the format's own, args few and short, because a warp-level timeline of
 * a small kernel is hundreds of thousands of events.
 */
#include "ws_timeline_json.h"

#include <jansson.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "util/ws_demangle.h"
#include "util/ws_utf8.h"

/* Times are written in ticks of 10 ps, five decimals of a microsecond:
 * a cycle stays apart from the next up to the schema's 100 GHz, and one
 * digit fewer than picoseconds on every ts and dur is near a megabyte in a
 * small kernel's warp timeline. */
#define WS_TLJ_TICKS_PER_US 100000
#define WS_TLJ_TICKS_PER_NS (WS_TLJ_TICKS_PER_US / 1000)

/* Fifteen significant digits print a time in whole ticks exactly (below
 * 10^10 us) and no further: 0.00057, not 0.00056999999999999998. */
#define WS_TLJ_FLAGS \
    (JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15))

/* ev may be NULL (out of memory while packing): nothing is written, so the
 * file stays valid JSON. */
static void ws_tlj_emit(struct ws_timeline_json *j, json_t *ev)
{
    if (!ev)
        return;
    fputs(j->written ? ",\n" : "\n", j->fp);
    json_dumpf(ev, j->fp, WS_TLJ_FLAGS);
    json_decref(ev);
    j->written++;
}

/* Cycle c in whole ticks at the SM clock. */
static int64_t ws_tlj_ticks(const struct ws_timeline_json *j, uint64_t c)
{
    return llround((double)c * WS_TLJ_TICKS_PER_US / j->core_mhz);
}

/* Microseconds, as written: an integer when whole, else the ticks'
 * decimal (WS_TLJ_FLAGS prints it without noise). */
static json_t *ws_tlj_us(int64_t ticks)
{
    if (ticks % WS_TLJ_TICKS_PER_US == 0)
        return json_integer(ticks / WS_TLJ_TICKS_PER_US);
    return json_real((double)ticks / WS_TLJ_TICKS_PER_US);
}

/* The nanosecond Perfetto makes of a time written as ws_tlj_us(ticks):
 * its importer rounds microseconds x 1000 to the nearest integer, in
 * doubles as here. */
static int64_t ws_tlj_perfetto_ns(int64_t ticks)
{
    return llround((double)ticks / WS_TLJ_TICKS_PER_US * 1000.0);
}

/* The stall reason's short name: Nsight Compute's (long_scoreboard, of
 * smsp__warps_issue_stalled_long_scoreboard.sum), else the counter's. */
static json_t *ws_tlj_stall_name(enum ws_ctr c)
{
    const char *name = ws_ctr_info(c)->name;
    const char *p = strstr(name, "stalled_");
    const char *dot;

    if (!p)
        return json_string(name);
    p += strlen("stalled_");
    dot = strchr(p, '.');
    return json_stringn(p, dot ? (size_t)(dot - p) : strlen(p));
}

static void ws_tlj_begin(void *ctx, double core_mhz, enum ws_tl_level level)
{
    struct ws_timeline_json *j = ctx;
    json_t *other = json_pack(
        "{s:s,s:f,s:s,s:s}", "time_unit", "us", "clock_mhz", core_mhz, "note",
        "ts and dur: SM cycles / clock_mhz; args.cycle: a span's first cycle",
        "level", level == WS_TL_LEVEL_CTA ? "cta" : "warp");
    json_t *legend = json_object();

    j->core_mhz = core_mhz;
    /* Stall spans are named by Nsight's reason; the legend says each. */
    for (int c = 0; c < WS_CTR_COUNT && other && legend; c++) {
        const struct ws_ctr_info *i = ws_ctr_info((enum ws_ctr)c);
        json_t *name;
        if (i->group != WS_GRP_STALL || !strstr(i->name, "stalled_"))
            continue;
        name = ws_tlj_stall_name((enum ws_ctr)c);
        if (name)
            json_object_set_new(legend, json_string_value(name),
                                json_string(i->what));
        json_decref(name);
    }
    if (other && legend)
        json_object_set(other, "stall_reasons", legend);
    fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":", j->fp);
    if (!other || json_dumpf(other, j->fp, WS_TLJ_FLAGS) < 0)
        fputs("{}", j->fp);
    fputs(",\"traceEvents\":[", j->fp);
    json_decref(legend);
    json_decref(other);
}

/* A metadata ("M") event: what names or sorts a process (tid < 0) or a
 * track. */
static void ws_tlj_meta(struct ws_timeline_json *j, const char *what,
                        uint32_t pid, int64_t tid, json_t *args)
{
    json_t *ev = json_pack("{s:s,s:s,s:I}", "name", what, "ph", "M", "pid",
                           (json_int_t)pid);

    if (ev && tid >= 0)
        json_object_set_new(ev, "tid", json_integer(tid));
    if (ev && args)
        json_object_set_new(ev, "args", args);
    else
        json_decref(args);
    ws_tlj_emit(j, ev);
}

static void ws_tlj_process(void *ctx, uint32_t pid, enum ws_tl_kind kind,
                           uint32_t index)
{
    char name[32];

    if (kind == WS_TL_KERNELS)
        snprintf(name, sizeof name, "kernels");
    else
        snprintf(name, sizeof name, "SM %u", index);
    ws_tlj_meta(ctx, "process_name", pid, -1, json_pack("{s:s}", "name", name));
    /* the kernels first, then the SMs by number (not by name: SM 10
     * would come before SM 2) */
    ws_tlj_meta(ctx, "process_sort_index", pid, -1,
                json_pack("{s:I}", "sort_index",
                          (json_int_t)(kind == WS_TL_KERNELS ? 0 : index + 1)));
}

static void ws_tlj_track(void *ctx, uint32_t pid, uint32_t tid,
                         enum ws_tl_kind kind, uint32_t index)
{
    char name[32];

    if (kind == WS_TL_KERNELS)
        snprintf(name, sizeof name, "launches");
    else if (kind == WS_TL_CTA_SLOT)
        snprintf(name, sizeof name, "CTA slot %u", index);
    else
        snprintf(name, sizeof name, "warp slot %u", index);
    ws_tlj_meta(ctx, "thread_name", pid, tid, json_pack("{s:s}", "name", name));
    ws_tlj_meta(ctx, "thread_sort_index", pid, tid,
                json_pack("{s:I}", "sort_index", (json_int_t)tid));
}

/* The span's name and args: the kernel always (its launch id; its name on
 * the kernel's and its CTAs' spans, once per CTA rather than per warp
 * span), the CTA and warp, the first instruction of an issue span, and
 * the first cycle. */
static json_t *ws_tlj_args(const struct ws_tl_span *s, json_t **name)
{
    json_t *a = json_pack("{s:I}", "kernel", (json_int_t)s->kernel_id);
    char pc[16], cta[48];

    if (!a)
        return NULL;
    switch (s->kind) {
    case WS_TL_KERNELS: {
        /* The launch's span reads as the kernel's demangled name; its
         * args keep the name as traced. */
        char *shown = ws_demangle(s->kernel);
        *name = ws_utf8_json_string(shown ? shown : s->kernel);
        free(shown);
        json_object_set_new(a, "kernel_name", ws_utf8_json_string(s->kernel));
        break;
    }
    case WS_TL_CTA_SLOT:
        snprintf(cta, sizeof cta, "CTA (%u,%u,%u)", s->ctaid[0], s->ctaid[1],
                 s->ctaid[2]);
        *name = json_string(cta);
        json_object_set_new(a, "kernel_name", ws_utf8_json_string(s->kernel));
        json_object_set_new(a, "cta", json_integer((json_int_t)s->cta));
        json_object_set_new(a, "ctaid",
                            json_pack("[I,I,I]", (json_int_t)s->ctaid[0],
                                      (json_int_t)s->ctaid[1],
                                      (json_int_t)s->ctaid[2]));
        break;
    case WS_TL_ISSUE:
    case WS_TL_STALL:
        *name = s->kind == WS_TL_ISSUE ? json_string("issue")
                                       : ws_tlj_stall_name(s->stall);
        json_object_set_new(a, "cta", json_integer((json_int_t)s->cta));
        json_object_set_new(a, "warp", json_integer(s->warp));
        if (s->kind == WS_TL_ISSUE) {
            snprintf(pc, sizeof pc, "0x%04x", s->pc);
            json_object_set_new(a, "pc", json_string(pc));
            if (s->op)
                json_object_set_new(a, "op", ws_utf8_json_string(s->op));
        }
        break;
    default:
        *name = json_string("?");
        break;
    }
    json_object_set_new(a, "cycle", json_integer((json_int_t)s->start));
    if (s->kind == WS_TL_KERNELS || s->kind == WS_TL_CTA_SLOT)
        json_object_set_new(a, "cycles", json_integer((json_int_t)s->dur));
    return a;
}

static void ws_tlj_span(void *ctx, const struct ws_tl_span *s)
{
    struct ws_timeline_json *j = ctx;
    int64_t start = ws_tlj_ticks(j, s->start);
    int64_t end = ws_tlj_ticks(j, s->start + s->dur);
    int64_t dur = end - start;
    /* Perfetto keeps nanoseconds: it rounds ts and dur each, and a span
     * whose rounded end passes the next span's rounded start is nested
     * into it or dropped.  So dur is cut, by under a nanosecond, to the
     * most that rounds no further than the end does (half a nanosecond
     * less one tick above it); the next span starts at this one's exact
     * end. */
    int64_t most = (ws_tlj_perfetto_ns(end) - ws_tlj_perfetto_ns(start))
                       * WS_TLJ_TICKS_PER_NS
                   + WS_TLJ_TICKS_PER_NS / 2 - 1;
    json_t *name = NULL, *args = ws_tlj_args(s, &name);

    if (dur > most)
        dur = most;
    if (!name || !args) {
        json_decref(name);
        json_decref(args);
        return;
    }
    ws_tlj_emit(j, json_pack("{s:o,s:s,s:o,s:o,s:I,s:I,s:o}", "name", name,
                             "ph", "X", "ts", ws_tlj_us(start), "dur",
                             ws_tlj_us(dur), "pid", (json_int_t)s->pid, "tid",
                             (json_int_t)s->tid, "args", args));
}

/* Cycle c in microseconds for the window's ends, which the command line
 * may set past any tick count (llround would overflow). */
static json_t *ws_tlj_window_us(const struct ws_timeline_json *j, uint64_t c)
{
    double us = (double)c / j->core_mhz;

    if (us < 1e10)
        return ws_tlj_us(ws_tlj_ticks(j, c));
    return json_real(us);
}

static void ws_tlj_end(void *ctx, uint64_t events, int truncated, uint64_t from,
                       uint64_t to)
{
    struct ws_timeline_json *j = ctx;
    json_t *us = json_pack("[o,o]", ws_tlj_window_us(j, from),
                           ws_tlj_window_us(j, to));

    /* printed, not packed: the window's end may pass json_int_t */
    fprintf(j->fp,
            "\n],\"metadata\":{\"events\":%llu,\"truncated\":%s,"
            "\"window\":[%llu,%llu],\"window_us\":",
            (unsigned long long)events, truncated ? "true" : "false",
            (unsigned long long)from, (unsigned long long)to);
    if (!us || json_dumpf(us, j->fp, WS_TLJ_FLAGS) < 0)
        fputs("null", j->fp);
    fputs("}}\n", j->fp);
    json_decref(us);
}

struct ws_timeline_writer ws_timeline_json_writer(struct ws_timeline_json *j,
                                                  FILE *fp)
{
    struct ws_timeline_writer w = {
        j, ws_tlj_begin, ws_tlj_process, ws_tlj_track, ws_tlj_span, ws_tlj_end};

    j->fp = fp;
    j->written = 0;
    j->core_mhz = 1.0;
    return w;
}
