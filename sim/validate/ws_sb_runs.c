/*
 * ws_sb_runs: the scoreboard's runs from the studies' results tables (see
 * ws_sb.h).
 */
#include "ws_sb.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- models, by their columns ------------------------------------------ */

static int ws_sb_model_index(struct ws_sb *sb, const char *name, int bound)
{
    for (size_t i = 0; i < sb->nmodels; i++)
        if (strcmp(sb->model[i].name, name) == 0)
            return (int)i;
    if (sb->nmodels == WS_SB_MAX_MODELS || strlen(name) >= 48)
        return -1;
    snprintf(sb->model[sb->nmodels].name, 48, "%s", name);
    sb->model[sb->nmodels].bound = bound;
    return (int)sb->nmodels++;
}

/* Every NAME_cycles column that has a NAME_domain beside it is a model; a
 * bound says so in its domain cells ("bound: ..."). */
static void ws_sb_find_models(struct ws_sb *sb, const struct ws_csv *t)
{
    for (size_t c = 0; c < t->ncols; c++) {
        const char *h = t->header[c];
        size_t len = strlen(h);
        char name[64], dom[80];
        long dc;
        if (len <= 7 || len - 7 >= sizeof name
            || strcmp(h + len - 7, "_cycles") != 0)
            continue;
        snprintf(name, sizeof name, "%.*s", (int)(len - 7), h);
        snprintf(dom, sizeof dom, "%s_domain", name);
        dc = ws_csv_col(t, dom);
        if (dc < 0)
            continue;
        ws_sb_model_index(sb, name,
                          t->nrows > 0
                              && strncmp(ws_csv_cell(t, 0, (size_t)dc),
                                         "bound:", 6)
                                     == 0);
    }
}

static const char *ws_sb_cell_named(const struct ws_csv *t, size_t row,
                                    const char *model, const char *what)
{
    char col[96];
    long c;

    snprintf(col, sizeof col, "%s_%s", model, what);
    c = ws_csv_col(t, col);
    return c < 0 ? "" : ws_csv_cell(t, row, (size_t)c);
}

static void ws_sb_read_pred(const struct ws_sb *sb, struct ws_sb_run *r)
{
    for (size_t m = 0; m < sb->nmodels; m++) {
        const char *name = sb->model[m].name;
        struct ws_sb_pred *p = &r->pred[m];
        double v;
        p->cycles = ws_csv_num_text(ws_sb_cell_named(r->t, r->row, name,
                                                     "cycles"),
                                    &v)
                                == 0
                            && v > 0
                        ? v
                        : NAN;
        p->in_domain = strncmp(ws_sb_cell_named(r->t, r->row, name, "domain"),
                               "out:", 4)
                       != 0;
        p->terms = ws_sb_cell_named(r->t, r->row, name, "terms");
        p->elast = ws_sb_cell_named(r->t, r->row, name, "elasticity");
    }
}

double ws_sb_cell_var(const char *cell, const char *name)
{
    size_t len = strlen(name);
    const char *p = cell;

    while (p && *p) {
        if (strncmp(p, name, len) == 0 && p[len] == '=')
            return strtod(p + len + 1, NULL);
        p = strchr(p, ' ');
        if (p)
            p++;
    }
    return NAN;
}

/* ---- the simulation's bottleneck ---------------------------------------- */

const char *const ws_sb_bottlenecks[] = {
    "DRAM bandwidth",
    "memory latency",
    "memory throughput (MSHRs full)",
    "shared memory",
    "dependency latency",
    "pipe throughput",
    "issue",
    "barrier",
    "drain and tail",
    "no stalls",
};
const size_t ws_sb_nbottlenecks = sizeof ws_sb_bottlenecks
                                  / sizeof ws_sb_bottlenecks[0];

/* The stall reason whose warp-cycles are the largest share names the
 * bottleneck (classes 1-8, in the order of ws_sb_bottlenecks), unless
 * DRAM runs at 60 % of its peak or more: then bandwidth binds whatever
 * the warps wait as. */
static const enum ws_ctr ws_sb_stalls[] = {
    WS_CTR_STALL_MEM_DEP, WS_CTR_STALL_MSHR,      WS_CTR_STALL_SHORT_DEP,
    WS_CTR_STALL_ALU_DEP, WS_CTR_STALL_UNIT_BUSY, WS_CTR_STALL_NOT_SELECTED,
    WS_CTR_STALL_BARRIER, WS_CTR_STALL_DRAINED,
};

static const char *ws_sb_bottleneck(const struct ws_csv *t, size_t row)
{
    const int nstalls = (int)(sizeof ws_sb_stalls / sizeof ws_sb_stalls[0]);
    double best = 0, dram = ws_csv_value(t, row, "dram_pct_of_peak");
    int at = -1;

    if (dram >= WS_SB_DRAM_BOUND_PCT)
        return ws_sb_bottlenecks[0];
    for (int i = 0; i < nstalls; i++) {
        double v = ws_csv_value(t, row, ws_ctr_info(ws_sb_stalls[i])->name);
        if (v > best) {
            best = v;
            at = i;
        }
    }
    return ws_sb_bottlenecks[at < 0 ? nstalls + 1 : at + 1];
}

/* The model terms the simulation measured, from the counters' columns
 * (ws_terms.h's definitions, as a run's report takes them); waves are not
 * read, for the table has no occupancy. */
static void ws_sb_terms_measured(const struct ws_csv *t, size_t row,
                                 double term[WS_TERM_COUNT])
{
    double v[WS_CTR_COUNT];

    for (int c = 0; c < WS_CTR_COUNT; c++)
        v[c] = ws_csv_value(t, row, ws_ctr_info((enum ws_ctr)c)->name);
    ws_terms_from_counters(v, NAN, term);
}

/* ---- the runs ------------------------------------------------------------ */

/* "saxpy stride=8 threads=64": the run's sweep and axis values. */
static void ws_sb_describe(const struct ws_csv *t, size_t row,
                           const char *sweep, char *out, size_t cap)
{
    size_t o = (size_t)snprintf(out, cap, "%s", sweep);

    for (size_t c = 0; c < t->ncols && o < cap; c++)
        if (strncmp(t->header[c], "param.", 6) == 0
            || strncmp(t->header[c], "set.", 4) == 0
            || strcmp(t->header[c], "gpu") == 0)
            o += (size_t)snprintf(out + o, cap - o, " %s=%s",
                                  strchr(t->header[c], '.')
                                      ? strchr(t->header[c], '.') + 1
                                      : t->header[c],
                                  ws_csv_cell(t, row, c));
}

/* A table's study (its folder) and sweep (its file stem), in buf: only
 * the path's last two parts are kept, so a long output folder (-o) does
 * not cut them off. */
static void ws_sb_names(const char *path, char *buf, size_t cap,
                        const char **study, const char **sweep)
{
    const char *tail = path, *p;
    char *slash, *dot;
    int parts = 0;

    for (p = path + strlen(path); p > path; p--)
        if (p[-1] == '/' && ++parts == 2) {
            tail = p;
            break;
        }
    snprintf(buf, cap, "%s", tail);
    dot = strrchr(buf, '.');
    if (dot && strcmp(dot, ".csv") == 0)
        *dot = '\0';
    slash = strrchr(buf, '/');
    *sweep = slash ? slash + 1 : buf;
    if (slash) {
        *slash = '\0';
        slash = strrchr(buf, '/');
        *study = slash ? slash + 1 : buf;
    } else {
        *study = "";
    }
}

/* ---- the hardware's time -------------------------------------------------- */

/* Every "k=v" of a measured case's params is the run's param.k. */
static int ws_sb_same_params(const char *params, const struct ws_csv *t,
                             size_t row)
{
    char buf[256], *save = NULL;

    snprintf(buf, sizeof buf, "%s", params);
    for (char *tok = strtok_r(buf, " ", &save); tok;
         tok = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(tok, '='), col[96];
        double want, got;
        if (!eq)
            return 0;
        *eq = '\0';
        snprintf(col, sizeof col, "param.%s", tok);
        got = ws_csv_value(t, row, col);
        if (ws_csv_num_text(eq + 1, &want) < 0 || !(got == want))
            return 0;
    }
    return 1;
}

/* The measured time of the case a run of kernel `kernel` is, less the
 * empty launch's (what an event-timed launch costs that no simulation
 * has): the cold median (L2 flushed first, as a simulation starts) where
 * taken, else the warm one.  NaN when no case matches. */
static double ws_sb_measured(const struct ws_csv *m, const char *kernel,
                             const struct ws_csv *t, size_t row)
{
    double empty = 0, found = NAN;
    long kc = ws_csv_col(m, "kernel"), pc = ws_csv_col(m, "params");

    if (kc < 0 || pc < 0)
        return NAN;
    for (size_t r = 0; r < m->nrows; r++) {
        const char *k = ws_csv_cell(m, r, (size_t)kc);
        double cold = ws_csv_value(m, r, "cold_median_us");
        double warm = ws_csv_value(m, r, "median_us");
        if (strcmp(k, "empty_kernel") == 0)
            empty = warm;
        else if (isnan(found) && strcmp(k, kernel) == 0
                 && ws_sb_same_params(ws_csv_cell(m, r, (size_t)pc), t, row))
            found = isnan(cold) ? warm : cold;
    }
    return found - empty > 0 ? found - empty : NAN;
}

static int ws_sb_table(struct ws_sb *sb, const struct ws_csv *t,
                       const struct ws_csv *measured, struct ws_err *err)
{
    const char *study, *sweep;
    char *buf;

    if (sb->nnames == sizeof sb->names / sizeof sb->names[0])
        return ws_err_msg(err,
                          "more than %zu tables for the scoreboard "
                          "(expected the studies' sweeps)",
                          sb->nnames);
    buf = sb->names[sb->nnames++];
    ws_sb_names(t->name, buf, sizeof sb->names[0], &study, &sweep);
    if (strncmp(sweep, "hw_", 3) == 0)
        study = "measured cases (H100)";
    if (strncmp(sweep, "est_", 4) == 0) {
        if (sb->nest < sizeof sb->est / sizeof sb->est[0])
            sb->est[sb->nest++] = t;
        return 0;
    }
    if (ws_csv_col(t, "cycles") < 0)
        return ws_csv_no_col(t, "cycles", err);
    for (size_t r = 0; r < t->nrows; r++) {
        struct ws_sb_run *run = &sb->run[sb->nruns];
        double sim = ws_csv_value(t, r, "cycles");
        if (!ws_csv_row_ok(t, r) || !(sim > 0))
            continue;
        memset(run, 0, sizeof *run);
        run->study = study;
        run->sweep = sweep;
        run->t = t;
        run->row = r;
        run->sim = sim;
        run->sim_us = ws_csv_value(t, r, "time_us");
        run->bottleneck = ws_sb_bottleneck(t, r);
        ws_sb_terms_measured(t, r, run->term);
        run->hw_us = measured && strncmp(sweep, "hw_", 3) == 0
                         ? ws_sb_measured(measured, sweep + 3, t, r)
                         : NAN;
        ws_sb_describe(t, r, sweep, run->what, sizeof run->what);
        ws_sb_read_pred(sb, run);
        sb->nruns++;
    }
    return 0;
}

int ws_sb_collect(struct ws_sb *sb, const struct ws_csv *const *t, size_t n,
                  const struct ws_csv *measured, struct ws_err *err)
{
    size_t cap = 0;

    memset(sb, 0, sizeof *sb);
    for (size_t i = 0; i < n; i++) {
        cap += t[i]->nrows;
        ws_sb_find_models(sb, t[i]);
    }
    sb->run = calloc(cap + 1, sizeof *sb->run);
    if (!sb->run)
        return ws_err_oom(err);
    for (size_t i = 0; i < n; i++)
        if (ws_sb_table(sb, t[i], measured, err) < 0)
            return -1;
    return 0;
}

void ws_sb_free(struct ws_sb *sb)
{
    free(sb->run);
    memset(sb, 0, sizeof *sb);
}
