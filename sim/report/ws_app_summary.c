/*
 * ws_app_summary: kernels grouped by name (see ws_app_summary.h).
 */
#include "ws_app_summary.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "util/ws_demangle.h"
#include "util/ws_utf8.h"
#include "ws_compare_fmt.h"

/* A name's column in the text table; longer names end in "...". */
#define WS_APP_NAME_WIDTH 64

struct ws_app_row {
    const char *name; /* as traced: the key */
    size_t launches;
    uint64_t cycles, inst;
};

struct ws_app {
    struct ws_app_row *rows;
    size_t nrows;
    uint64_t kernel_cycles;
};

static int ws_app_row_cmp(const void *a, const void *b)
{
    const struct ws_app_row *p = a, *q = b;

    if (p->cycles != q->cycles)
        return p->cycles > q->cycles ? -1 : 1;
    return strcmp(p->name, q->name);
}

static int ws_app_name_cmp(const void *a, const void *b)
{
    return strcmp(((const struct ws_app_row *)a)->name,
                  ((const struct ws_app_row *)b)->name);
}

/* Rows by name, busiest first; -1 when out of memory.  A row per launch,
 * sorted by name and folded: an application of many launches of many
 * kernels costs n log n, not launches times names. */
static int ws_app_build(const struct ws_run_report *r, struct ws_app *a)
{
    memset(a, 0, sizeof *a);
    a->rows = calloc(r->nkernels ? r->nkernels : 1, sizeof *a->rows);
    if (!a->rows)
        return -1;
    for (size_t i = 0; i < r->nkernels; i++) {
        const struct ws_kernel_stats *k = &r->kernels[i];
        a->rows[i] = (struct ws_app_row){k->name, 1, k->ctr.v[WS_CTR_CYCLES],
                                         k->ctr.v[WS_CTR_INST]};
        a->kernel_cycles += k->ctr.v[WS_CTR_CYCLES];
    }
    qsort(a->rows, r->nkernels, sizeof *a->rows, ws_app_name_cmp);
    for (size_t i = 0; i < r->nkernels; i++) {
        struct ws_app_row *w = &a->rows[a->nrows];
        if (a->nrows && strcmp(w[-1].name, a->rows[i].name) == 0) {
            w[-1].launches++;
            w[-1].cycles += a->rows[i].cycles;
            w[-1].inst += a->rows[i].inst;
        } else {
            *w = a->rows[i];
            a->nrows++;
        }
    }
    qsort(a->rows, a->nrows, sizeof *a->rows, ws_app_row_cmp);
    return 0;
}

/* Kernels run one after another, so the run's span less the kernels' is
 * the time between them; never negative, should a source overlap them. */
static uint64_t ws_app_between(const struct ws_run_report *r,
                               const struct ws_app *a)
{
    return r->total_cycles > a->kernel_cycles
               ? r->total_cycles - a->kernel_cycles
               : 0;
}

static double ws_app_share(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* The name, control characters escaped (a name is input text and goes
 * to a terminal), cut at a character boundary to the column. */
static void ws_app_text_name(FILE *out, const char *name, int mangled)
{
    char *shown = mangled ? NULL : ws_demangle(name);
    const char *s = shown ? shown : name;
    size_t n = strlen(s), cut = n;

    if (n > WS_APP_NAME_WIDTH) {
        cut = WS_APP_NAME_WIDTH - 3;
        while (cut > 0 && ((unsigned char)s[cut] & 0xc0) == 0x80)
            cut--;
    }
    for (size_t i = 0; i < cut; i++)
        ws_compare_fmt_put_char(out, (unsigned char)s[i]);
    fputs(cut < n ? "...\n" : "\n", out);
    free(shown);
}

void ws_app_summary_text(FILE *out, const struct ws_run_report *r)
{
    struct ws_app a;
    uint64_t between;

    if (r->nkernels < 2 || ws_app_build(r, &a) < 0)
        return;
    between = ws_app_between(r, &a);
    fprintf(out,
            "\napplication: %zu kernels, %zu by name; kernels %llu cycles "
            "(%.1f%%), between them (launch overheads) %llu cycles "
            "(%.1f%%)\n",
            r->nkernels, a.nrows, (unsigned long long)a.kernel_cycles,
            ws_app_share(a.kernel_cycles, r->total_cycles),
            (unsigned long long)between,
            ws_app_share(between, r->total_cycles));
    fprintf(out, "   share       cycles  launches   mean cycles  kernel\n");
    for (size_t i = 0; i < a.nrows; i++) {
        const struct ws_app_row *w = &a.rows[i];
        fprintf(out, "  %5.1f%% %12llu %9zu %13.1f  ",
                ws_app_share(w->cycles, r->total_cycles),
                (unsigned long long)w->cycles, w->launches,
                (double)w->cycles / (double)w->launches);
        ws_app_text_name(out, w->name, r->mangled);
    }
    free(a.rows);
}

static json_t *ws_app_json_row(const struct ws_app_row *w, uint64_t total)
{
    json_t *o = json_object();
    char *shown = ws_demangle(w->name);

    json_object_set_new(o, "name", ws_utf8_json_string(w->name));
    json_object_set_new(o, "demangled",
                        shown ? ws_utf8_json_string(shown) : json_null());
    free(shown);
    json_object_set_new(o, "launches", json_integer((json_int_t)w->launches));
    json_object_set_new(o, "cycles", json_integer((json_int_t)w->cycles));
    json_object_set_new(o, "share_pct",
                        json_real(ws_app_share(w->cycles, total)));
    json_object_set_new(o, "mean_cycles",
                        json_real((double)w->cycles / (double)w->launches));
    json_object_set_new(o, "warp_instructions",
                        json_integer((json_int_t)w->inst));
    return o;
}

json_t *ws_app_summary_json(const struct ws_run_report *r)
{
    struct ws_app a;
    json_t *o, *rows;

    if (ws_app_build(r, &a) < 0)
        return NULL;
    o = json_object();
    rows = json_array();
    json_object_set_new(o, "kernel_cycles",
                        json_integer((json_int_t)a.kernel_cycles));
    json_object_set_new(o, "between_kernels_cycles",
                        json_integer((json_int_t)ws_app_between(r, &a)));
    for (size_t i = 0; i < a.nrows; i++)
        json_array_append_new(rows,
                              ws_app_json_row(&a.rows[i], r->total_cycles));
    json_object_set_new(o, "by_name", rows);
    free(a.rows);
    return o;
}
