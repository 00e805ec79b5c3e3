/*
 * ws_compare_plot: a comparison drawn (see ws_compare_plot.h).
 */
#include "ws_compare_plot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/ws_csv.h"
#include "ws_compare_text.h"
#include "ws_plot.h"

/* More metrics than a key can show legibly are drawn by family, the
 * unit before "__": "dram", "lts", "smsp", ... (and "time"). */
#define WS_CMP_PLOT_SERIES 12

static void ws_cmp_plot_row(FILE *f, const char *kernel, const char *series,
                            double x, double y)
{
    ws_csv_put(f, kernel);
    fputc(',', f);
    ws_csv_put(f, series);
    fprintf(f, ",%.17g,%.17g\n", x, y);
}

/* The points as a table (kernel, metric, measured, simulated); NULL when
 * nothing is positive (log axes) or out of memory (*n says which). */
static char *ws_cmp_plot_csv(const struct ws_compare *c, size_t *len, size_t *n)
{
    int by_family = c->nmetrics > WS_CMP_PLOT_SERIES;
    char *buf = NULL, label[160], fam[64];
    FILE *f = open_memstream(&buf, len);

    *n = 0;
    if (!f)
        return NULL;
    fputs("kernel,metric,measured,simulated\n", f);
    for (size_t p = 0; p < c->npairs; p++)
        for (size_t j = 0; j < c->nmetrics; j++) {
            const struct ws_compare_cell *cell = ws_compare_cell(c, p, j);
            const char *name = c->metrics[j].name;
            if (!(cell->sim > 0 && cell->meas > 0))
                continue;
            snprintf(fam, sizeof fam, "%.*s", (int)strcspn(name, "_."), name);
            ws_compare_label(label, sizeof label,
                             c->sim->kernels[c->pairs[p].sim].base,
                             c->pairs[p].launch);
            ws_cmp_plot_row(f, label, by_family ? fam : name, cell->meas,
                            cell->sim);
            (*n)++;
        }
    if (fclose(f) != 0 || *n == 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

char *ws_compare_svg(const struct ws_compare *c, struct ws_err *err)
{
    /* Points only: the metrics have nothing in common but their axis,
     * and a line from one to the next would draw a relation there is
     * none of. */
    struct ws_plot_spec spec = {
        .x = "measured",
        .y = "simulated",
        .series = "metric",
        .logx = 1,
        .logy = 1,
        .title = "simulated against measured, a point per kernel and "
                 "metric (log-log; on the line y = x they agree)",
        .parity = 1,
        .xlabel = "measured (each metric in its own unit)",
        .ylabel = "simulated (in the measured metric's unit)",
        .key = c->nmetrics > WS_CMP_PLOT_SERIES ? "metric family" : "metric"};
    struct ws_csv t;
    size_t len, n;
    char *text = ws_cmp_plot_csv(c, &len, &n), *svg;

    if (!text) {
        if (n)
            ws_err_oom(err);
        else
            ws_err_msg(err,
                       "nothing to draw on log axes (expected a metric "
                       "whose simulated and measured values are positive)");
        return NULL;
    }
    if (ws_csv_parse(&t, "compare plot", text, len, 0, 0, err) < 0) {
        free(text);
        err->internal = 1;
        return NULL;
    }
    svg = ws_plot_svg(&t, &spec, err);
    ws_csv_free(&t);
    free(text);
    return svg;
}
