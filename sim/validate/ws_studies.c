/*
 * ws_studies: the one table of `warpsim validate`'s studies (ws_study.h):
 * each study's name, its line of help, its sweeps, its analysis and its
 * chart.  The help, the check of study names and the study runner
 * (run/ws_study_run.c) read it; a study is its file plus a row here.
 *
 * Leaves out: the analyses (ws_study_NAME.c), running them.
 */
#include <string.h>

#include "ws_study.h"

static const struct ws_study_def ws_studies[] = {
    {"saxpy",
     "saxpy on TITAN X against MWP/CWP and MWP/CWP+L2 (seed 000)",
     {"saxpy_paper", "saxpy"},
     ws_study_saxpy,
     NULL},
    {"apsp",
     "APSP on GTX 480: the B_r zigzag, eq 15's fit, section V "
     "(seed 004)",
     {"apsp_br", "apsp_t", "apsp_ba", "apsp_anomaly"},
     ws_study_apsp,
     WS_STUDY_CHART_APSP},
    {"levels",
     "chase latency per level and STREAM bandwidth, every config",
     {"levels_chase", "levels_copy", "levels_triad"},
     ws_study_levels,
     NULL},
    {"matmul",
     "the 7 matmul variants on V100: ts, ul, score, RSM (seed 001)",
     {"matmul_baseline", "matmul_tiling", "matmul_coalescing",
      "matmul_nobankconflict", "matmul_computeopt", "matmul_unroll",
      "matmul_prefetch"},
     ws_study_matmul,
     WS_STUDY_CHART_MATMUL},
    {"hardware",
     "the simulation against the bundled kernels timed on an H100",
     {"hw_saxpy", "hw_copy", "hw_triad", "hw_fma", "hw_baseline", "hw_tiling",
      "hw_coalescing", "hw_nobankconflict", "hw_computeopt", "hw_unroll",
      "hw_prefetch", "hw_apsp", "hw_pchase", "hw_reduce"},
     ws_study_hardware,
     NULL},
    {"scoreboard",
     "every model against the simulation in its domain and "
     "outside it, against the H100 where measured, over the runs above",
     {"saxpy/saxpy_paper",
      "saxpy/saxpy",
      "apsp/apsp_br",
      "apsp/apsp_t",
      "apsp/apsp_ba",
      "levels/levels_chase",
      "levels/levels_copy",
      "levels/levels_triad",
      "matmul/matmul_baseline",
      "matmul/matmul_tiling",
      "matmul/matmul_coalescing",
      "matmul/matmul_nobankconflict",
      "matmul/matmul_computeopt",
      "matmul/matmul_unroll",
      "matmul/matmul_prefetch",
      "hardware/hw_saxpy",
      "hardware/hw_copy",
      "hardware/hw_triad",
      "hardware/hw_fma",
      "hardware/hw_baseline",
      "hardware/hw_tiling",
      "hardware/hw_coalescing",
      "hardware/hw_nobankconflict",
      "hardware/hw_computeopt",
      "hardware/hw_unroll",
      "hardware/hw_prefetch",
      "hardware/hw_apsp",
      "hardware/hw_pchase",
      "hardware/hw_reduce",
      "est_copy",
      "est_matmul",
      "est_saxpy"},
     ws_study_scoreboard,
     NULL},
    {"quadrant",
     "one kernel across the GPUs against its intensity (the "
     "blog seed's quadrant-split view)",
     {"quadrant"},
     ws_study_quadrant,
     WS_STUDY_CHART_QUADRANT},
};

size_t ws_study_count(void)
{
    return sizeof ws_studies / sizeof ws_studies[0];
}

const struct ws_study_def *ws_study_at(size_t i)
{
    return i < ws_study_count() ? &ws_studies[i] : NULL;
}

const struct ws_study_def *ws_study_find(const char *name)
{
    for (size_t i = 0; i < ws_study_count(); i++)
        if (strcmp(ws_studies[i].name, name) == 0)
            return &ws_studies[i];
    return NULL;
}
