/*
 * bench: speed and memory of "warpsim run" on the workloads the speed
 * issue names: the generated 1M-element vector add as an Accel-Sim text
 * trace (and, when warpsim can pack traces, as a packed .wst), the bundled
 * apsp and matmul workloads at their defaults, and a long loop (the fma
 * microbenchmark at 28,000 trips: 10^8 warp instructions, 2 x 10^5 per
 * warp) whose memory must not grow with the length of its warps; the
 * same trace compressed with xz and with zstd (read directly: decoding
 * should not bound the run); and one kernel of 10^9 warp instructions
 * (the fma loop at 280,000 trips, run once: minutes).  Every row says the
 * simulator's thread count (run --threads): apsp, matmul and the long fma
 * loop run again on two threads, with their speed-up over one beside
 * them, and a last row measures what this machine allows two threads at
 * all for this work: two one-thread runs of apsp at once against one
 * after the other.
 *
 * With a baseline warpsim (BASELINE, e.g. a build of the landed main),
 * every one-thread row runs it too, in the same run, and prints the
 * ratio: speed claims are ratios taken side by side.
 *
 * "bench --scaling WARPSIM SOURCE_DIR WORKDIR [N...]" measures instead
 * how one kernel's run scales with --threads (1 2 4 8 16 by default, for a
 * machine with that many cores): apsp on V100 and on H100, matmul and a
 * shorter fma loop, each at every thread count, with the speed-up over one
 * thread and whether the JSON report is byte for byte the one-thread one
 * (it must be: the parallel scheme is deterministic).
 *
 * Each case runs three times; the best wall time and the largest peak RSS
 * of warpsim's own process (wait4) are reported, with rates derived from
 * warpsim's JSON report.  For the text trace, `trace info` of the same
 * trace (which parses it and simulates nothing) gives the share of the
 * run that is parsing.
 *   usage: bench WARPSIM GEN_VECADD SOURCE_DIR WORKDIR [BASELINE]
 * Figures are this machine's; nothing here asserts a time.
 */
/* wait4, the one call that gives one child's peak RSS, is BSD, not POSIX. */
#define _DEFAULT_SOURCE
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define BENCH_RUNS 3
#define BENCH_MAX_ARGS 16

/* Runs per case, the best kept; one for the longest. */
static int bench_runs = BENCH_RUNS;

/* The warpsim to compare with, NULL for none. */
static const char *bench_baseline;

struct bench_result {
    double wall;
    long maxrss_kb;
    long long insts, cycles;
};

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Starts argv with stdout to /dev/null; its pid, or -1. */
static pid_t spawn(char *const argv[])
{
    pid_t pid;

    fflush(stdout); /* the child would write what is buffered again */
    pid = fork();
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stdout))
            _exit(127);
        execvp(argv[0], argv);
        _exit(127);
    }
    return pid;
}

/* Runs argv with stdout to /dev/null; wall time and that child's peak RSS. */
static int run(char *const argv[], double *wall, long *maxrss)
{
    struct rusage ru;
    double t0 = now();
    int status;
    pid_t pid = spawn(argv);

    if (pid < 0 || wait4(pid, &status, 0, &ru) < 0)
        return -1;
    *wall = now() - t0;
    *maxrss = ru.ru_maxrss;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

static int read_report(const char *path, struct bench_result *r)
{
    json_error_t e;
    json_t *root = json_load_file(path, 0, &e), *ks;
    size_t i;
    json_t *k;

    if (!root)
        return fprintf(stderr, "%s: %s\n", path, e.text), -1;
    r->insts = 0;
    ks = json_object_get(root, "kernels");
    json_array_foreach(ks, i, k)
    {
        json_t *v = json_object_get(json_object_get(json_object_get(k,
                                                                    "counters"),
                                                    "smsp__inst_executed.sum"),
                                    "value");
        r->insts += json_integer_value(v);
    }
    r->cycles = json_integer_value(json_object_get(root, "total_cycles"));
    json_decref(root);
    return r->insts > 0 ? 0 : -1;
}

/* Best of BENCH_RUNS of argv; when json is not NULL, the report it writes
 * gives the counts. */
static int best_of(char *const argv[], const char *json,
                   struct bench_result *best)
{
    double wall;
    long rss;

    best->wall = 1e30;
    best->maxrss_kb = 0;
    best->insts = best->cycles = 0;
    for (int i = 0; i < bench_runs; i++) {
        if (run(argv, &wall, &rss) < 0)
            return fprintf(stderr, "bench: %s %s failed\n", argv[0], argv[1]),
                   -1;
        if (wall < best->wall)
            best->wall = wall;
        if (rss > best->maxrss_kb)
            best->maxrss_kb = rss;
    }
    return json ? read_report(json, best) : 0;
}

static void print_row_threads(const char *name, int threads,
                              const struct bench_result *r, const char *note)
{
    printf("  %-24s %7d %12lld %8.3f %14.0f %16.0f %10.1f  %s\n", name, threads,
           r->insts, r->wall, r->insts / r->wall, r->cycles / r->wall,
           r->maxrss_kb / 1024.0, note);
}

static void print_row(const char *name, const struct bench_result *r,
                      const char *note)
{
    print_row_threads(name, 1, r, note);
}

/* The report a run named name writes: WORK/NAME.json. */
static void bench_json(char *buf, size_t cap, const char *work,
                       const char *name)
{
    snprintf(buf, cap, "%s/%s.json", work, name);
}

/* warpsim run [extra...] INPUT --json WORK/NAME.json */
static int bench_run(const char *warpsim, const char *work, const char *name,
                     const char *input, const char *const *extra,
                     struct bench_result *r)
{
    char json[4200];
    char *argv[BENCH_MAX_ARGS];
    int n = 0;

    bench_json(json, sizeof json, work, name);
    argv[n++] = (char *)warpsim;
    argv[n++] = "run";
    for (; extra && *extra && n < BENCH_MAX_ARGS - 5; extra++)
        argv[n++] = (char *)*extra;
    argv[n++] = "--json";
    argv[n++] = json;
    argv[n++] = (char *)input;
    argv[n] = NULL;
    return best_of(argv, json, r);
}

/* The baseline on the same input, when there is one: " B x baseline"
 * appended to note (its wall time over this build's). */
static int bench_vs_baseline(const char *work, const char *name,
                             const char *input, const char *const *extra,
                             const struct bench_result *r, char *note,
                             size_t cap)
{
    struct bench_result b;
    char bname[128];
    size_t len = strlen(note);

    if (!bench_baseline)
        return 0;
    snprintf(bname, sizeof bname, "%s-baseline", name);
    if (bench_run(bench_baseline, work, bname, input, extra, &b) < 0)
        return -1;
    snprintf(note + len, cap - len, "%s%.2fx baseline", len ? "; " : "",
             b.wall / r->wall);
    return 0;
}

/* bench_run with extra and "--threads N", its report named NAME-tN. */
static int bench_run_threads(const char *warpsim, const char *work,
                             const char *name, const char *input,
                             const char *const *extra, int threads,
                             struct bench_result *r)
{
    const char *args[BENCH_MAX_ARGS];
    char tname[128], tn[16];
    int n = 0;

    for (; extra && extra[n] && n < BENCH_MAX_ARGS - 8; n++)
        args[n] = extra[n];
    snprintf(tn, sizeof tn, "%d", threads);
    args[n++] = "--threads";
    args[n++] = tn;
    args[n] = NULL;
    snprintf(tname, sizeof tname, "%s-t%d", name, threads);
    return bench_run(warpsim, work, tname, input, args, r);
}

/* One workload on one thread (against the baseline too) and, when
 * threads > 1, again on that many. */
static int bench_case(const char *warpsim, const char *work, const char *row,
                      const char *name, const char *input,
                      const char *const *extra, const char *note0, int threads)
{
    struct bench_result one, many;
    char note[256];

    snprintf(note, sizeof note, "%s", note0);
    if (bench_run(warpsim, work, name, input, extra, &one) < 0
        || bench_vs_baseline(work, name, input, extra, &one, note, sizeof note)
               < 0)
        return -1;
    print_row(row, &one, note);
    if (threads < 2)
        return 0;
    if (bench_run_threads(warpsim, work, name, input, extra, threads, &many)
        < 0)
        return -1;
    snprintf(note, sizeof note, "%.2fx one thread", one.wall / many.wall);
    print_row_threads(row, threads, &many, note);
    return 0;
}

/* ---- what this machine allows two threads ----------------------------- */

/* Two runs of apsp on one thread each, at once, against one after the
 * other: what two threads can gain here for this very work.  A virtual
 * machine's two CPUs may share a core or a cache, or one may be busy with
 * someone else's work; then this is well below 2x, and no simulator's
 * threads beat it. */
static int bench_ceiling(const char *warpsim, const char *apsp)
{
    char *argv[] = {(char *)warpsim, "run", (char *)apsp, NULL};
    double wall, seq = 0, t0;
    long rss;
    int status;
    pid_t a, b;

    for (int i = 0; i < 2; i++) {
        if (run(argv, &wall, &rss) < 0)
            return -1;
        seq += wall;
    }
    t0 = now();
    a = spawn(argv);
    b = spawn(argv);
    if (a < 0 || b < 0 || waitpid(a, &status, 0) < 0
        || waitpid(b, &status, 0) < 0)
        return -1;
    wall = now() - t0;
    printf("  %-24s %7d %12s %8.3f %14s %16s %10s  %.2fx one after the "
           "other: what two threads can give here\n",
           "machine: 2 apsp at once", 2, "-", wall, "-", "-", "-", seq / wall);
    return 0;
}

/* The vector add: generated, run as text, parsed alone, packed and run. */
static int bench_vecadd(const char *warpsim, const char *gen, const char *work)
{
    char dir[4096], packed[4200], nbuf[32] = "1048576";
    char *gen_argv[] = {(char *)gen, dir, nbuf, NULL};
    char *info_argv[] = {(char *)warpsim, "trace", "info", dir, NULL};
    char *pack_argv[] = {(char *)warpsim, "trace", "pack", dir, "-o",
                         packed,          NULL};
    struct bench_result text, parse, wst;
    char note[256];
    double wall;
    long rss;

    snprintf(dir, sizeof dir, "%s/vecadd-1M", work);
    snprintf(packed, sizeof packed, "%s/vecadd-1M.wst", work);
    mkdir(dir, 0755);
    if (run(gen_argv, &wall, &rss) < 0)
        return fprintf(stderr, "bench: %s failed\n", gen), -1;
    if (bench_run(warpsim, work, "vecadd-text", dir, NULL, &text) < 0
        || best_of(info_argv, NULL, &parse) < 0)
        return -1;
    snprintf(note, sizeof note, "parsing (trace info) %.3f s, %.0f %%",
             parse.wall, 100.0 * parse.wall / text.wall);
    if (bench_vs_baseline(work, "vecadd-text", dir, NULL, &text, note,
                          sizeof note)
        < 0)
        return -1;
    print_row("vecadd 1M, text trace", &text, note);
    if (run(pack_argv, &wall, &rss) < 0) {
        printf("  %-24s (this warpsim cannot pack traces)\n",
               "vecadd 1M, packed .wst");
        return 0;
    }
    if (bench_run(warpsim, work, "vecadd-wst", packed, NULL, &wst) < 0)
        return -1;
    print_row("vecadd 1M, packed .wst", &wst, "");
    return 0;
}

/* The generated trace compressed by the named program (xz or zstd) into
 * its own folder, its kernelslist naming the compressed file, and run. */
static int bench_compressed(const char *warpsim, const char *work,
                            const char *tool, const char *ext)
{
    char src[4200], dir[4096], dst[4400], list[4400], name[64], row[64];
    char *argv[] = {(char *)tool, "-q", "-k", "-f", "-T1",
                    src,          "-o", dst,  NULL};
    char *xz_argv[] = {(char *)tool, "-q", "-k", "-f", "-T1", src, NULL};
    struct bench_result r;
    double wall;
    long rss;
    FILE *f;

    snprintf(src, sizeof src, "%s/vecadd-1M/kernel-1.traceg", work);
    snprintf(dir, sizeof dir, "%s/vecadd-1M-%s", work, ext);
    snprintf(dst, sizeof dst, "%s/kernel-1.traceg.%s", dir, ext);
    snprintf(list, sizeof list, "%s/kernelslist.g", dir);
    snprintf(row, sizeof row, "vecadd 1M, text .%s", ext);
    mkdir(dir, 0755);
    if (strcmp(ext, "xz") == 0) {
        /* xz writes beside its input: moved into the folder after */
        char moved[4300];
        snprintf(moved, sizeof moved, "%s.xz", src);
        if (run(xz_argv, &wall, &rss) < 0 || rename(moved, dst) != 0)
            return printf("  %-24s (no %s program here)\n", row, tool), 0;
    } else if (run(argv, &wall, &rss) < 0)
        return printf("  %-24s (no %s program here)\n", row, tool), 0;
    f = fopen(list, "w");
    if (!f)
        return -1;
    fprintf(f, "kernel-1.traceg.%s\n", ext);
    fclose(f);
    snprintf(name, sizeof name, "vecadd-%s", ext);
    if (bench_run(warpsim, work, name, dir, NULL, &r) < 0)
        return -1;
    print_row(row, &r, "");
    return 0;
}

/* ---- scaling with --threads ------------------------------------------ */

/* 1 when files a and b hold the same bytes, 0 when not, -1 on error. */
static int same_bytes(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    int ca, cb, same = -1;

    if (fa && fb) {
        do {
            ca = getc(fa);
            cb = getc(fb);
        } while (ca == cb && ca != EOF);
        same = ca == cb;
    }
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    return same;
}

/* One workload at every thread count of threads[0..n); threads[0] is the
 * reference the others are compared with. */
static int bench_scale(const char *warpsim, const char *work, const char *row,
                       const char *name, const char *input,
                       const char *const *extra, const int *threads, int n)
{
    static const char *const same[] = {"UNREADABLE", "DIFFERS", "same"};
    struct bench_result r, ref = {0};
    char sname[128], tname[160], json[4200], ref_json[4200], note[64];

    snprintf(sname, sizeof sname, "%s-scale", name);
    for (int i = 0; i < n; i++) {
        if (bench_run_threads(warpsim, work, sname, input, extra, threads[i],
                              &r)
            < 0)
            return -1;
        snprintf(tname, sizeof tname, "%s-t%d", sname, threads[i]);
        bench_json(json, sizeof json, work, tname);
        if (i == 0) {
            ref = r;
            snprintf(ref_json, sizeof ref_json, "%s", json);
        }
        snprintf(note, sizeof note, "%.2fx %d thread%s; JSON %s",
                 ref.wall / r.wall, threads[0], threads[0] == 1 ? "" : "s",
                 same[same_bytes(ref_json, json) + 1]);
        print_row_threads(row, threads[i], &r, note);
    }
    return 0;
}

/* The bundled workloads the bench runs, under src. */
static void bench_inputs(const char *src, char *apsp, char *matmul, char *fma,
                         size_t cap)
{
    snprintf(apsp, cap, "%s/traces/kernels/apsp/workload.yaml", src);
    snprintf(matmul, cap, "%s/traces/kernels/matmul/baseline.yaml", src);
    snprintf(fma, cap, "%s/traces/kernels/fma/workload.yaml", src);
}

static void bench_header(void)
{
    printf("  %-24s %7s %12s %8s %14s %16s %10s\n", "workload", "threads",
           "warp insts", "wall s", "warp insts/s", "sim cycles/s", "RSS MB");
}

static int bench_scaling(int argc, char **argv)
{
    const char *warpsim = argv[2], *src = argv[3], *work = argv[4];
    const char *const h100[] = {"-g", "h100", NULL};
    const char *const fma_args[] = {"-p", "iters=5600", "-p", "blocks=64",
                                    NULL};
    int threads[32] = {1, 2, 4, 8, 16}, n = 5;
    char apsp[4096], matmul[4096], fma[4096];

    if (argc > 5 + 32)
        return fprintf(stderr, "bench: at most 32 thread counts\n"), 2;
    if (argc > 5) {
        n = 0;
        for (int i = 5; i < argc; i++) {
            char *end;
            long v = strtol(argv[i], &end, 10);
            if (end == argv[i] || *end || v < 1 || v > 4096)
                return fprintf(stderr,
                               "bench: bad thread count %s, expected 1 to "
                               "4096\n",
                               argv[i]),
                       2;
            threads[n++] = (int)v;
        }
    }
    bench_inputs(src, apsp, matmul, fma, sizeof apsp);
    printf("warpsim run --threads N, best of %d runs on this machine "
           "(%ld cores online)\n",
           BENCH_RUNS, sysconf(_SC_NPROCESSORS_ONLN));
    bench_header();
    if (bench_scale(warpsim, work, "apsp (defaults), V100", "apsp", apsp, NULL,
                    threads, n)
            < 0
        || bench_scale(warpsim, work, "apsp (defaults), H100", "apsp-h100",
                       apsp, h100, threads, n)
               < 0
        || bench_scale(warpsim, work, "matmul baseline", "matmul", matmul, NULL,
                       threads, n)
               < 0
        || bench_scale(warpsim, work, "fma, 5600 trips", "fma", fma, fma_args,
                       threads, n)
               < 0)
        return 1;
    return 0;
}

int main(int argc, char **argv)
{
    const char *warpsim, *gen, *src, *work;
    char apsp[4096], matmul[4096], fma[4096];
    const char *const long_args[] = {"-p", "iters=28000", "-p", "blocks=64",
                                     NULL};
    const char *const giga_args[] = {"-p",        "iters=280000", "-p",
                                     "blocks=64", "--max-insts",  "2000000000",
                                     NULL};
    struct bench_result r;

    if (argc >= 5 && strcmp(argv[1], "--scaling") == 0)
        return bench_scaling(argc, argv);
    if (argc != 5 && argc != 6)
        return fprintf(stderr, "usage: bench WARPSIM GEN_VECADD SOURCE_DIR "
                               "WORKDIR [BASELINE]\n"
                               "       bench --scaling WARPSIM SOURCE_DIR "
                               "WORKDIR [THREADS...]\n"),
               2;
    if (argc == 6 && argv[5][0])
        bench_baseline = argv[5];
    warpsim = argv[1];
    gen = argv[2];
    src = argv[3];
    work = argv[4];
    bench_inputs(src, apsp, matmul, fma, sizeof apsp);
    printf("warpsim run, V100 config, best of %d runs on this machine%s%s\n",
           BENCH_RUNS, bench_baseline ? "; baseline " : "",
           bench_baseline ? bench_baseline : "");
    bench_header();
    if (bench_vecadd(warpsim, gen, work) < 0
        || bench_compressed(warpsim, work, "xz", "xz") < 0
        || bench_compressed(warpsim, work, "zstd", "zst") < 0)
        return 1;
    if (bench_case(warpsim, work, "apsp (defaults)", "apsp", apsp, NULL, "", 2)
            < 0
        || bench_case(warpsim, work, "matmul baseline", "matmul", matmul, NULL,
                      "", 2)
               < 0
        || bench_case(warpsim, work, "fma, 28000 trips", "fma-long", fma,
                      long_args, "10^8 insts, 2x10^5 per warp", 2)
               < 0)
        return 1;
    bench_runs = 1;
    if (bench_run(warpsim, work, "fma-1e9", fma, giga_args, &r) < 0)
        return 1;
    print_row("fma, 280000 trips", &r, "10^9 insts, run once");
    if (bench_ceiling(warpsim, apsp) < 0)
        return 1;
    printf("  targets (speed issue 26): >= 10 M warp insts/s on apsp, "
           "matmul, fma;\n  >= 5 M/s on the vecadd text trace; decoding "
           "never the bound\n");
    return 0;
}
