/*
 * ws_model_tmm: the TMM model joined to block scheduling, after Ma,
 * Chamberlain & Agrawal, "Performance Modeling for Highly-threaded
 * Many-core GPUs" (ASAP 2014): the asymptotic time T_P of the Threaded
 * Many-core Memory model (eq 1), the active blocks per SM (eq 4), the
 * scheduling factor f_sched (eq 3) and the combined model (eq 8), times one
 * scale factor calibrated per GPU config.
 *
 * Eq 8 is a proportionality, so the cycles mean something only once
 * `scale` is calibrated; before that, compare shapes (the zigzag in B_r with
 * period B_a * SMs, Fig. 1 of the paper).
 *
 * Every term is in the paper's unit, TMM's time steps (an operation takes
 * one, a global access L), and `scale` turns the larger of eq 8 and the
 * span into cycles.  The span is not in eq 8 (footnote 5 drops it: the
 * paper's algorithms have T_inf << T1/P); it is kept as eq 1's lower
 * bound, once per pass of blocks, and a run it binds is outside the
 * model's domain.  Its domain is also "many waves": eq 8 with f_sched is
 * how the authors fit runtimes of launches many times the GPU's size.
 *
 * Leaves out: the caching factor f_cache (eq 2), which the paper folds into
 * M (transactions after coalescing and caching); the algorithm-specific
 * expansions of T1 and M (eqs 9-15); where the parameters come from
 * (ws_model_params.c).
 */
#include "ws_model.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "ws_model_params.h"

/* The limits of eq 4, in the paper's order; B_a names the first that
 * reaches the minimum when two tie. */
enum {
    WS_TMM_SMEM,
    WS_TMM_REGS,
    WS_TMM_BLOCKS,
    WS_TMM_THREADS,
    WS_TMM_NLIM
};

static const char *const ws_model_tmm_limit_name[WS_TMM_NLIM] = {
    "shared memory", "registers", "the block limit", "threads"};

/* Every input is a count, a size or a latency: finite and not negative. */
static int ws_model_tmm_valid(const struct ws_tmm_params *p,
                              struct ws_model_result *r)
{
    const struct {
        const char *name;
        double v;
    } in[] = {
        {"t1", p->t1},
        {"t_inf", p->t_inf},
        {"m", p->m},
        {"l", p->l},
        {"t", p->t},
        {"p", p->p},
        {"q", p->q},
        {"z", p->z},
        {"s_b", p->s_b},
        {"r", p->r},
        {"r_t", p->r_t},
        {"t_r", p->t_r},
        {"b_r", p->b_r},
        {"b_max", p->b_max},
        {"t_max_mp", p->t_max_mp},
        {"reg_unit", p->reg_unit},
        {"smem_unit", p->smem_unit},
        {"scale", p->scale},
    };

    for (size_t i = 0; i < sizeof in / sizeof in[0]; i++)
        if (!isfinite(in[i].v) || in[i].v < 0)
            return ws_model_skip(r,
                                 "%s = %g: must be finite and not "
                                 "negative",
                                 in[i].name, in[i].v);
    return 1;
}

/* The divisors of eqs 1, 3, 4 and 8 (S_B is one only when positive). */
static int ws_model_tmm_divisors(const struct ws_tmm_params *p,
                                 struct ws_model_result *r)
{
    if (p->p == 0 || p->q == 0)
        return ws_model_skip(r, "no cores (P = %g, Q = %g)", p->p, p->q);
    if (p->t == 0)
        return ws_model_skip(r, "no threads per core (T = 0): eq 1 "
                                "divides by T");
    if (p->t_r == 0)
        return ws_model_skip(r, "no threads per block (T_r = 0): eq 4 "
                                "divides by T_r");
    if (p->r_t == 0)
        return ws_model_skip(r, "no registers per thread (R_T = 0): eq 4 "
                                "divides by R_T * T_r");
    if (p->b_r == 0)
        return ws_model_skip(r, "no blocks requested (B_r = 0): eq 3 "
                                "divides by B_r");
    return 1;
}

static double ws_model_tmm_round_up(double v, double unit)
{
    return unit > 0 ? ceil(v / unit) * unit : v;
}

/* The four limits of eq 4.  Registers are handed to a warp a granule at a
 * time (R_T x 32 rounded up to reg_unit), and shared memory likewise: the
 * paper's eq 4 has no granules, and without them it overcounts (matmul
 * prefetch on V100: 11 blocks by the bare formula, 10 fit). */
static void ws_model_tmm_limits(const struct ws_tmm_params *p,
                                double c[WS_TMM_NLIM])
{
    double warps = ceil(p->t_r / 32);
    double regs = p->reg_unit > 0
                      ? ws_model_tmm_round_up(p->r_t * 32, p->reg_unit) * warps
                      : p->r_t * p->t_r;

    c[WS_TMM_SMEM] = p->s_b > 0 ? floor(
                         p->z / ws_model_tmm_round_up(p->s_b, p->smem_unit))
                                : INFINITY;
    c[WS_TMM_REGS] = floor(p->r / regs);
    c[WS_TMM_BLOCKS] = floor(p->b_max);
    c[WS_TMM_THREADS] = floor(p->t_max_mp / p->t_r);
}

/* Active blocks per SM (eq 4):
 *   B_a = min(floor(Z/S_B), floor(R/(R_T*T_r)), floor(B_max/(P/Q)),
 *             floor(T_maxMP/T_r))
 * except that B_max here is the config's per-SM block limit, not divided
 * by the SM count as the paper prints it.  The shared-memory limit applies
 * only to a block that asks for shared memory. */
static double ws_model_tmm_least(const double c[WS_TMM_NLIM], int *lim)
{
    double ba = INFINITY;

    *lim = WS_TMM_SMEM;
    for (int i = 0; i < WS_TMM_NLIM; i++)
        if (c[i] < ba) {
            ba = c[i];
            *lim = i;
        }
    return ba;
}

double ws_model_tmm_blocks(const struct ws_tmm_params *p, int *lim)
{
    double c[WS_TMM_NLIM];

    if (p->r_t <= 0 || p->t_r <= 0) {
        *lim = WS_TMM_REGS;
        return 0;
    }
    ws_model_tmm_limits(p, c);
    return ws_model_tmm_least(c, lim);
}

/* B_a with each limit among the intermediates; R_T and T_r are checked
 * positive before. */
static double ws_model_tmm_active(const struct ws_tmm_params *p,
                                  struct ws_model_result *r, int *lim)
{
    double c[WS_TMM_NLIM], ba;

    ws_model_tmm_limits(p, c);
    ba = ws_model_tmm_least(c, lim);
    if (p->s_b > 0)
        ws_model_var(r, "B_a_smem", c[WS_TMM_SMEM]);
    ws_model_var(r, "B_a_regs", c[WS_TMM_REGS]);
    ws_model_var(r, "B_a_max", c[WS_TMM_BLOCKS]);
    ws_model_var(r, "B_a_threads", c[WS_TMM_THREADS]);
    ws_model_var(r, "B_a", ba);
    return ba;
}

/* Why B_a is 0: one block does not fit on an SM. */
static int ws_model_tmm_no_fit(const struct ws_tmm_params *p,
                               struct ws_model_result *r, int lim)
{
    switch (lim) {
    case WS_TMM_SMEM:
        return ws_model_skip(r,
                             "B_a = 0: a block's %g bytes of shared "
                             "memory exceed the SM's %g",
                             p->s_b, p->z);
    case WS_TMM_REGS:
        return ws_model_skip(r,
                             "B_a = 0: a block's %g registers exceed "
                             "the SM's %g",
                             p->r_t * p->t_r, p->r);
    case WS_TMM_BLOCKS:
        return ws_model_skip(r, "B_a = 0: the SM's block limit is %g",
                             p->b_max);
    default:
        return ws_model_skip(r,
                             "B_a = 0: a block's %g threads exceed the "
                             "SM's %g",
                             p->t_r, p->t_max_mp);
    }
}

/* ceil() for a ratio of integers computed in floating point: a quotient
 * that should be exact (B_r a multiple of B_a * SMs) but lands a few ulps
 * above the integer must not cost a whole extra pass.  Blocks requested
 * take one pass at least. */
static double ws_model_tmm_ceil(double x)
{
    return fmax(1.0, ceil(x - 1e-9 * fmax(1.0, x)));
}

/* The name of the term that binds the prediction. */
static const char *ws_model_tmm_term(double work, double mem, double span,
                                     double eq8)
{
    if (span > eq8)
        return "span T_inf";
    return work >= mem ? "work T1/P" : "memory M*L/(T*P)";
}

/* Many waves, and the span not binding: eq 8 as its authors fit it. */
static void ws_model_tmm_domain(struct ws_model_result *r, double passes,
                                double span, double eq8)
{
    if (passes < 2)
        ws_model_domain(r, 0,
                        "%g pass%s of blocks over the SMs: eq 8 is "
                        "fitted to launches of many waves (expected 2 or "
                        "more)",
                        passes, passes == 1 ? "" : "es");
    else if (span > eq8)
        ws_model_domain(r, 0,
                        "the span binds: eq 8 assumes T_inf << T1/P "
                        "(footnote 5)");
    else
        ws_model_domain(r, 1, "many waves, span not binding");
}

int ws_model_tmm(const struct ws_tmm_params *p, struct ws_model_result *r)
{
    double ba, sms, work, mem, tp, passes, fsched, factor, eq8, span;
    int lim;

    ws_model_begin(r, "tmm");
    if (!ws_model_tmm_valid(p, r) || !ws_model_tmm_divisors(p, r))
        return 0;
    ba = ws_model_tmm_active(p, r, &lim);
    if (ba < 1)
        return ws_model_tmm_no_fit(p, r, lim);

    /* The number of SMs is P/Q (eq 3's "P/Q is the number of
     * multiprocessors"). */
    sms = p->p / p->q;
    ws_model_var(r, "SMs", sms);

    /* Eq 1: T_P = max(T1/P, T_inf, M*L/(T*P)), each a lower bound. */
    work = p->t1 / p->p;
    mem = p->m * p->l / (p->t * p->p);
    tp = fmax(fmax(work, p->t_inf), mem);
    ws_model_var(r, "T1/P", work);
    ws_model_var(r, "T_inf", p->t_inf);
    ws_model_var(r, "M*L/(T*P)", mem);
    ws_model_var(r, "T_P", tp);

    /* Eq 3: f_sched = ceil(B_r/(B_a*P/Q)) * B_a*P/Q / B_r.  The ceiling is
     * the number of passes of B_a blocks over every SM; the same count is
     * eq 8's ceil(Q*B_r/(B_a*P)). */
    passes = ws_model_tmm_ceil(p->b_r / (ba * sms));
    fsched = passes * ba * sms / p->b_r;
    ws_model_var(r, "passes", passes);
    ws_model_var(r, "f_sched", fsched);

    /* Eq 8, as printed:
     *   Time ~ max(T1, ML/T) * ceil(Q*B_r/(B_a*P)) * B_a/(Q*B_r)
     * which is eq 7, max(T1/P, ML/(T*P)) * f_sched, with the 1/P moved from
     * the max into the factor: eq8_factor = f_sched / P, and eq8 is in time
     * steps per core like T_P.  The span (eq 1's T_inf, which eq 8 drops)
     * is kept as a lower bound once per pass: a thread's chain is not
     * shortened by idle SMs, and each pass's blocks run their own. */
    factor = passes * ba / (p->q * p->b_r);
    eq8 = fmax(p->t1, p->m * p->l / p->t) * factor;
    span = p->t_inf * passes;
    ws_model_var(r, "eq8_factor", factor);
    ws_model_var(r, "eq8", eq8);
    ws_model_var(r, "span_passes", span);
    ws_model_var(r, "scale", p->scale);
    ws_model_tmm_domain(r, passes, span, eq8);

    snprintf(r->regime, sizeof r->regime, "%s; B_a = %g, limited by %s",
             ws_model_tmm_term(work, mem, span, eq8), ba,
             ws_model_tmm_limit_name[lim]);
    if (p->scale == 0)
        return ws_model_skip(r, "no calibrated scale factor (scale = 0): "
                                "eq 8 is a proportionality");
    r->cycles = p->scale * fmax(eq8, span);
    return 1;
}

/* ---- The model for the table (ws_model_def.h) ---- */

#define TMM(f) offsetof(struct ws_tmm_params, f)
static const struct ws_model_field ws_model_tmm_inputs[] = {
    {"t1", TMM(t1), "T1, work: thread instructions"},
    {"t_inf", TMM(t_inf), "T_inf, span: longest chain, time steps"},
    {"m", TMM(m), "M, global memory transactions"},
    {"l", TMM(l), "L, memory latency, time steps (cycles)"},
    {"t", TMM(t), "T, threads per core: B_a x T_r / Q"},
    {"p", TMM(p), "P, cores"},
    {"q", TMM(q), "Q, cores per SM"},
    {"z", TMM(z), "Z, shared memory per SM, bytes"},
    {"s_b", TMM(s_b), "S_B, shared memory per block, bytes"},
    {"r", TMM(r), "R, registers per SM"},
    {"r_t", TMM(r_t), "R_T, registers per thread"},
    {"t_r", TMM(t_r), "T_r, threads per block"},
    {"b_r", TMM(b_r), "B_r, requested blocks"},
    {"b_max", TMM(b_max), "block limit per SM"},
    {"t_max_mp", TMM(t_max_mp), "thread limit per SM"},
    {"reg_unit", TMM(reg_unit), "registers per warp granule (0: none)"},
    {"smem_unit", TMM(smem_unit), "shared memory granule, bytes (0: none)"},
    {"scale", TMM(scale), "cycles per TMM time unit"},
};

_Static_assert(sizeof(struct ws_tmm_params) <= sizeof(union ws_model_params),
               "TMM's inputs fit the buffer every model shares");

static void ws_model_tmm_derive(const struct ws_profile *p,
                                const struct ws_gpu *g, int l2_may_be_warm,
                                union ws_model_params *out)
{
    struct ws_tmm_params in;

    memset(&in, 0, sizeof in);
    ws_model_params_tmm(p, g, &in);
    memcpy(out, &in, sizeof in);
}

static int ws_model_tmm_evaluate(const union ws_model_params *in,
                                 struct ws_model_result *r)
{
    struct ws_tmm_params p;

    memcpy(&p, in, sizeof p);
    return ws_model_tmm(&p, r);
}

const struct ws_model_def ws_model_tmm_def = {
    .name = "tmm",
    .what = "Ma, Chamberlain & Agrawal's TMM with f_sched (ASAP 2014)",
    .bound = 0,
    .fields = ws_model_tmm_inputs,
    .nfields = (int)(sizeof ws_model_tmm_inputs
                     / sizeof ws_model_tmm_inputs[0]),
    .derive = ws_model_tmm_derive,
    .evaluate = ws_model_tmm_evaluate,
};
