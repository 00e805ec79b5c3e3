// micro.cu: memory-system microbenchmarks on a real GPU (written for the
// H100 SXM5), ground truth for calibrating warpsim's memory model.
//
// Build:  nvcc -O3 -arch=sm_90 -o micro micro.cu        (run.sh does this)
// Run:    micro props                 device properties, "key: value" lines
//         micro run OUTDIR [PARTS]    PARTS: comma-separated, of stream,latency,
//                                     carveout,split,span,splitsm (default the
//                                     first four); CSVs go to OUTDIR, progress
//                                     to stderr.  MICRO_DEADLINE_S (default 240)
//                                     bounds the run: a latency point whose
//                                     estimated time would pass it is skipped
//                                     (logged, and a row with check=skipped).
//
// What it measures:
//  stream.csv   BabelStream's five kernels (copy c=a, mul b=s*c, add c=a+b,
//               triad a=b+s*c, dot sum(a*b) with a block reduction into one
//               partial sum per block) in FP32 and FP64 at 2^25 and 2^28
//               elements per array, as grid-stride loops with grids of
//               SMs x {1,2,4,8,16} blocks of {256,512,1024} threads, and as
//               the one-element-per-thread form (what traces/kernels/stream
//               does) with 256 and 1024 threads.  Each configuration: 3
//               warm-up launches, then 25 launches each between its own
//               cudaEvent pair, each queued behind a ~100 us one-thread spin
//               kernel so that the host's launch delay stays out of the
//               events.  GB/s counts bytes read + written per BabelStream
//               (copy, mul, dot 2 arrays; add, triad 3), best (min time) and
//               median.  Values are checked at the end of each size/precision.
//  latency.csv  one thread chasing 64-bit pointers, one per 128-byte line,
//               in the order of a random cyclic permutation of all the
//               footprint's lines (Sattolo; defeats any prefetch, visits
//               every line), footprints 8 KiB .. 1 GiB; plain loads
//               (LDG.E.64: cached in L1) and __ldcg (ld.global.cg: L1
//               bypassed); in the same launch a warm-up pass over every line,
//               then max(4 x lines, 200k) timed hops: clock64() and
//               %globaltimer around the timed loop give cycles/hop, ns/hop
//               and the SM clock; the event time of the whole launch against
//               clock64() over the whole launch gives the clock a second
//               way.  Also the project's pchase pattern: a sequential chain
//               of 32-byte steps, at 16 KiB and 8 MiB.
//  carveout.csv the plain-load random chase over 8..288 KiB (8 KiB steps),
//               one thread, after cudaFuncSetAttribute(...,
//               PreferredSharedMemoryCarveout, C) for C in default (-1), 0,
//               25, 50, 75, 100 %, and a launch with 200 KiB of dynamic
//               shared memory (MaxDynamicSharedMemorySize raised): where
//               cycles/hop leaves the L1 plateau is the L1 the driver gave.
//               Each configuration is its own kernel instance.
//  split.csv    per-hop latency samples (clock64 around each dependent load,
//               a shared store of the loaded value between them so that the
//               second clock read waits for the load) over warm random chains
//               of 16 KiB, 4, 16 and 40 MiB, from one SM: the distribution
//               shows L2 near / far partition hits.  The samples include a
//               fixed overhead (the shared store and clock reads): compare
//               with the 16 KiB (L1) row.
//  span.csv     (second device run, MICRO_PARTS=span,splitsm) test=span:
//               4096 or 16384 nodes (512 KiB / 2 MiB of lines, L2-resident),
//               one at a random line of each equal chunk of a 1 MiB .. 1 GiB
//               span, chased in random order with ld.global.cg: the price of
//               touching many pages (TLB reach) without leaving L2;
//               test=dense: the random chase at 16..64 MiB in 2-4 MiB steps.
//  split_sm.csv per-hop samples as split.csv, taken at the same time from
//               up to 8 chosen SMs over one warm 4 MiB and one 40 MiB chain,
//               so that each line's latency can be compared between SMs.
//
// What it leaves out: clocks are not locked (the GPU runs at the boost it
// picks; every row records the clock it saw); one thread, one SM for all
// latency numbers (no loaded latency, no SM-to-SM spread beyond split.csv's
// smid); only loads (no store or atomic latency); only the pages cudaMalloc
// gives (no page-size study); the dot kernel's time excludes the
// host's sum of the partials (BabelStream's includes a copy of them back);
// stream timing is per launch, not BabelStream's loop of all five kernels.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <cmath>
#include <ctime>
#include <string>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

#define CK(call)                                                              \
    do {                                                                      \
        cudaError_t e_ = (call);                                              \
        if (e_ != cudaSuccess) {                                              \
            fprintf(stderr, "CUDA error %s at %s:%d: %s\n",                   \
                    cudaGetErrorName(e_), __FILE__, __LINE__,                 \
                    cudaGetErrorString(e_));                                  \
            exit(1);                                                          \
        }                                                                     \
    } while (0)

// ---------------------------------------------------------------- helpers

__global__ void spin_wait(long long cycles)
{
    long long c0 = clock64();
    while (clock64() - c0 < cycles) {
    }
}

__device__ __forceinline__ unsigned long long gtimer()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
    return t;
}

__device__ __forceinline__ long long clk()
{
    long long t;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
    return t;
}

__device__ __forceinline__ unsigned smid()
{
    unsigned s;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    return s;
}

__global__ void clockprobe(unsigned long long spin, unsigned long long *out)
{
    unsigned long long t0 = gtimer();
    long long c0 = clk(), c1;
    do {
        c1 = clk();
    } while ((unsigned long long)(c1 - c0) < spin);
    unsigned long long t1 = gtimer();
    out[0] = (unsigned long long)(c1 - c0);
    out[1] = t1 - t0;
}

static unsigned long long *probe_buf;

static double probe_mhz(unsigned long long spin = 4000000ULL) // ~2 ms
{
    clockprobe<<<1, 1>>>(spin, probe_buf);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    unsigned long long h[2];
    CK(cudaMemcpy(h, probe_buf, sizeof h, cudaMemcpyDeviceToHost));
    return h[1] ? (double)h[0] * 1000.0 / (double)h[1] : 0.0;
}

static const long long SPIN_CYCLES = 200000; // ~100 us at 1980 MHz

static double now_s()
{
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double T0, DEADLINE;
static double elapsed() { return now_s() - T0; }

static FILE *open_csv(const char *dir, const char *name)
{
    std::string p = std::string(dir) + "/" + name;
    FILE *f = fopen(p.c_str(), "w");
    if (!f) {
        fprintf(stderr, "cannot write %s\n", p.c_str());
        exit(1);
    }
    return f;
}

static double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// ---------------------------------------------------------------- stream

template <class T> __global__ void k_init(T *a, T *b, T *c, T va, T vb, T vc, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        a[i] = va;
        b[i] = vb;
        c[i] = vc;
    }
}

// Grid-stride forms (BabelStream's kernels).
template <class T> __global__ void g_copy(const T *__restrict__ a, T *__restrict__ c, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        c[i] = a[i];
}
template <class T> __global__ void g_mul(T *__restrict__ b, const T *__restrict__ c, T s, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        b[i] = s * c[i];
}
template <class T>
__global__ void g_add(const T *__restrict__ a, const T *__restrict__ b, T *__restrict__ c, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        c[i] = a[i] + b[i];
}
template <class T>
__global__ void g_triad(T *__restrict__ a, const T *__restrict__ b, const T *__restrict__ c, T s,
                        int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        a[i] = b[i] + s * c[i];
}

template <class T> __device__ __forceinline__ void block_sum_store(T v, T *sums)
{
    extern __shared__ unsigned char smraw[];
    T *sm = (T *)smraw;
    int t = threadIdx.x;
    sm[t] = v;
    for (int off = blockDim.x / 2; off > 0; off /= 2) {
        __syncthreads();
        if (t < off)
            sm[t] += sm[t + off];
    }
    if (t == 0)
        sums[blockIdx.x] = sm[0];
}

template <class T>
__global__ void g_dot(const T *__restrict__ a, const T *__restrict__ b, T *__restrict__ sums, int n)
{
    T s = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        s += a[i] * b[i];
    block_sum_store(s, sums);
}

// One element per thread (the project's stream.cu form).
template <class T> __global__ void s_copy(const T *__restrict__ a, T *__restrict__ c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i];
}
template <class T> __global__ void s_mul(T *__restrict__ b, const T *__restrict__ c, T s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        b[i] = s * c[i];
}
template <class T>
__global__ void s_add(const T *__restrict__ a, const T *__restrict__ b, T *__restrict__ c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}
template <class T>
__global__ void s_triad(T *__restrict__ a, const T *__restrict__ b, const T *__restrict__ c, T s,
                        int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] = b[i] + s * c[i];
}
template <class T>
__global__ void s_dot(const T *__restrict__ a, const T *__restrict__ b, T *__restrict__ sums, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    T s = i < n ? a[i] * b[i] : (T)0;
    block_sum_store(s, sums);
}

static const char *KNAMES[5] = {"copy", "mul", "add", "triad", "dot"};
static const int KARRAYS[5] = {2, 2, 3, 3, 2};

template <class T>
static void launch_kernel(int k, bool simple, int grid, int block, T *a, T *b, T *c, T *sums,
                          T s, int n)
{
    size_t sh = block * sizeof(T);
    if (!simple) {
        switch (k) {
        case 0: g_copy<T><<<grid, block>>>(a, c, n); break;
        case 1: g_mul<T><<<grid, block>>>(b, c, s, n); break;
        case 2: g_add<T><<<grid, block>>>(a, b, c, n); break;
        case 3: g_triad<T><<<grid, block>>>(a, b, c, s, n); break;
        case 4: g_dot<T><<<grid, block, sh>>>(a, b, sums, n); break;
        }
    } else {
        switch (k) {
        case 0: s_copy<T><<<grid, block>>>(a, c, n); break;
        case 1: s_mul<T><<<grid, block>>>(b, c, s, n); break;
        case 2: s_add<T><<<grid, block>>>(a, b, c, n); break;
        case 3: s_triad<T><<<grid, block>>>(a, b, c, s, n); break;
        case 4: s_dot<T><<<grid, block, sh>>>(a, b, sums, n); break;
        }
    }
}

struct Cfg {
    bool simple;
    int block, mult; // grid = SMs * mult (grid-stride) or ceil(n / block)
};

static const double PEAK_GBPS = 3352.0; // 2 x 2619 MHz x 640 B (H100 SXM5 80GB)

template <class T>
static void stream_one(FILE *f, const char *prec, int n, int sms, void *va, void *vb, void *vc,
                       void *vsums, cudaEvent_t e0, cudaEvent_t e1)
{
    T *a = (T *)va, *b = (T *)vb, *c = (T *)vc, *sums = (T *)vsums;
    const T startA = (T)0.1, startB = (T)0.2, startC = (T)0.0, scalar = (T)0.4;
    k_init<T><<<sms * 8, 256>>>(a, b, c, startA, startB, startC, n);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<Cfg> cfgs;
    for (int bl : {256, 512, 1024})
        for (int m : {1, 2, 4, 8, 16})
            cfgs.push_back({false, bl, m});
    cfgs.push_back({true, 256, 0});
    cfgs.push_back({true, 1024, 0});
    const int WARM = 3, NT = 25;
    double dot_result = 0;
    int dot_grid_last = 0;
    for (int k = 0; k < 5; k++) {
        double bytes = (double)KARRAYS[k] * n * sizeof(T);
        double best_med = 1e30;
        std::string best_cfg;
        for (const Cfg &cf : cfgs) {
            int grid = cf.simple ? (int)(((long long)n + cf.block - 1) / cf.block) : sms * cf.mult;
            for (int w = 0; w < WARM; w++)
                launch_kernel<T>(k, cf.simple, grid, cf.block, a, b, c, sums, scalar, n);
            CK(cudaGetLastError());
            CK(cudaDeviceSynchronize());
            std::vector<double> t;
            for (int r = 0; r < NT; r++) {
                spin_wait<<<1, 1>>>(SPIN_CYCLES);
                CK(cudaEventRecord(e0));
                launch_kernel<T>(k, cf.simple, grid, cf.block, a, b, c, sums, scalar, n);
                CK(cudaEventRecord(e1));
                CK(cudaEventSynchronize(e1));
                CK(cudaGetLastError());
                float ms = 0;
                CK(cudaEventElapsedTime(&ms, e0, e1));
                t.push_back(ms * 1000.0);
            }
            std::string chk = "-";
            if (k == 4) {
                // Sum the partials of this configuration's last launch.
                std::vector<T> h(grid);
                CK(cudaMemcpy(h.data(), sums, grid * sizeof(T), cudaMemcpyDeviceToHost));
                double s = 0;
                for (T x : h)
                    s += (double)x;
                dot_result = s;
                dot_grid_last = grid;
                // a = 0.096, b = 0.04 after triad (see below).
                T ea = (T)0.1, eb, ec;
                ec = ea;
                eb = scalar * ec;
                ec = ea + eb;
                ea = eb + scalar * ec;
                double want = (double)n * (double)ea * (double)eb;
                double rel = fabs(s - want) / want;
                chk = rel < (sizeof(T) == 4 ? 1e-3 : 1e-8) ? "ok" : "dot_rel_err_" + std::to_string(rel);
            }
            double mn = *std::min_element(t.begin(), t.end());
            double mx = *std::max_element(t.begin(), t.end());
            double md = median(t);
            char cfgname[64];
            snprintf(cfgname, sizeof cfgname, "%s_b%d_g%d", cf.simple ? "simple" : "gridstride",
                     cf.block, grid);
            if (md < best_med) {
                best_med = md;
                best_cfg = cfgname;
            }
            fprintf(f, "%s,%d,%s,%s,%d,%d,%d,%d,%.0f,%.3f,%.3f,%.3f,%.1f,%.1f,%.2f,%.2f,%s\n",
                    prec, n, KNAMES[k], cf.simple ? "simple" : "gridstride", cf.block,
                    cf.simple ? 0 : cf.mult, grid, NT, bytes, mn, md, mx, bytes / mn / 1e3,
                    bytes / md / 1e3, 100.0 * bytes / mn / 1e3 / PEAK_GBPS,
                    100.0 * bytes / md / 1e3 / PEAK_GBPS, chk.c_str());
            fflush(f);
        }
        fprintf(stderr, "[micro +%.0fs] stream %s n=%d %s: best median %.2f us = %.1f GB/s (%s), clock %.0f MHz\n",
                elapsed(), prec, n, KNAMES[k], best_med, bytes / best_med / 1e3, best_cfg.c_str(),
                probe_mhz());
    }
    // Check the arrays: c = a; b = s c; c = a + b; a = b + s c, each idempotent.
    T ea = startA, eb, ec;
    ec = ea;
    eb = scalar * ec;
    ec = ea + eb;
    ea = eb + scalar * ec;
    int bad = 0;
    for (long long idx : {0LL, (long long)n / 3, (long long)n - 1}) {
        T h[3];
        CK(cudaMemcpy(&h[0], a + idx, sizeof(T), cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(&h[1], b + idx, sizeof(T), cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(&h[2], c + idx, sizeof(T), cudaMemcpyDeviceToHost));
        T w[3] = {ea, eb, ec};
        for (int j = 0; j < 3; j++)
            if (fabs((double)h[j] - (double)w[j]) > 1e-6 * fabs((double)w[j]))
                bad++;
    }
    fprintf(stderr, "[micro +%.0fs] stream %s n=%d check arrays: %s (a %.6g b %.6g c %.6g); dot %.9g over %d partials\n",
            elapsed(), prec, n, bad ? "BAD" : "ok", (double)ea, (double)eb, (double)ec,
            dot_result, dot_grid_last);
    fprintf(f, "# check %s n=%d arrays %s\n", prec, n, bad ? "BAD" : "ok");
    fflush(f);
}

static void part_stream(const char *dir, int sms)
{
    FILE *f = open_csv(dir, "stream.csv");
    fprintf(f, "prec,n,kernel,variant,block,grid_mult,grid,runs,bytes,min_us,median_us,max_us,"
               "best_GBps,median_GBps,best_pct_peak,median_pct_peak,check\n");
    const int NMAX = 1 << 28;
    void *a, *b, *c, *sums;
    CK(cudaMalloc(&a, (size_t)NMAX * 8));
    CK(cudaMalloc(&b, (size_t)NMAX * 8));
    CK(cudaMalloc(&c, (size_t)NMAX * 8));
    CK(cudaMalloc(&sums, (size_t)(NMAX / 256 + 1) * 8));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    for (int n : {1 << 25, 1 << 28}) {
        stream_one<float>(f, "fp32", n, sms, a, b, c, sums, e0, e1);
        stream_one<double>(f, "fp64", n, sms, a, b, c, sums, e0, e1);
    }
    CK(cudaEventDestroy(e0));
    CK(cudaEventDestroy(e1));
    CK(cudaFree(a));
    CK(cudaFree(b));
    CK(cudaFree(c));
    CK(cudaFree(sums));
    fclose(f);
}

// ---------------------------------------------------------------- chase

// Each node is a 64-bit pointer to the next node.  CG = 0: ld.global.ca
// (__ldca; what a plain global load compiles to on sm_90, LDG.E.64, cached in
// L1); CG = 1: ld.global.cg (__ldcg; LDG.E.64.STRONG.GPU, L1 bypassed).  The
// intrinsics keep the load a global one: a plain *p through a loaded pointer
// would be a generic LD.
template <int CG>
__device__ __forceinline__ const unsigned long long *hop(const unsigned long long *p)
{
    if (CG)
        return (const unsigned long long *)__ldcg(p);
    return (const unsigned long long *)__ldca(p);
}

// res: [0] final pointer, [1] cycles timed loop, [2] ns timed loop (globaltimer),
//      [3] cycles whole kernel, [4] smid
template <int CG>
__global__ void chase(const unsigned long long *start, long long warm, long long hops,
                      unsigned long long *res)
{
    long long ck0 = clk();
    const unsigned long long *p = start;
#pragma unroll 1
    for (long long h = 0; h < warm; h += 8) {
#pragma unroll
        for (int u = 0; u < 8; u++)
            p = hop<CG>(p);
    }
    // The warm-up's last load must land before the clock starts.
    if ((unsigned long long)p == 1ull)
        res[5] = 1;
    unsigned long long g0 = gtimer();
    long long c0 = clk();
#pragma unroll 1
    for (long long h = 0; h < hops; h += 8) {
#pragma unroll
        for (int u = 0; u < 8; u++)
            p = hop<CG>(p);
    }
    if ((unsigned long long)p == 1ull)
        res[5] = 1;
    long long c1 = clk();
    unsigned long long g1 = gtimer();
    res[0] = (unsigned long long)p;
    res[1] = (unsigned long long)(c1 - c0);
    res[2] = g1 - g0;
    res[3] = (unsigned long long)(c1 - ck0);
    res[4] = smid();
}

// Carveout study: the same chase, one kernel instance per configuration.
template <int ID>
__global__ void chase_co(const unsigned long long *start, long long warm, long long hops,
                         unsigned long long *res)
{
    // Dynamic shared memory (the dyn200KiB launch) is reserved, not used.
    const unsigned long long *p = start;
#pragma unroll 1
    for (long long h = 0; h < warm; h += 8) {
#pragma unroll
        for (int u = 0; u < 8; u++)
            p = hop<0>(p);
    }
    if ((unsigned long long)p == 1ull)
        res[5] = 1;
    long long c0 = clk();
#pragma unroll 1
    for (long long h = 0; h < hops; h += 8) {
#pragma unroll
        for (int u = 0; u < 8; u++)
            p = hop<0>(p);
    }
    if ((unsigned long long)p == 1ull)
        res[5] = 2;
    long long c1 = clk();
    res[0] = (unsigned long long)p;
    res[1] = (unsigned long long)(c1 - c0);
    res[4] = smid();
}

// Per-hop samples: clock, load, shared store of the loaded value (waits for
// it), clock.
__global__ void chase_samples(const unsigned long long *start, long long warm, int nsamp,
                              unsigned *lat, unsigned *line_off, unsigned long long *res)
{
    __shared__ volatile unsigned long long sink[1];
    const unsigned long long *p = start;
#pragma unroll 1
    for (long long h = 0; h < warm; h++)
        p = hop<0>(p);
    sink[0] = (unsigned long long)p;
#pragma unroll 1
    for (int k = 0; k < nsamp; k++) {
        unsigned off = (unsigned)(((const char *)p - (const char *)start) >> 7);
        long long t0 = clk();
        p = hop<0>(p);
        sink[0] = (unsigned long long)p;
        long long t1 = clk();
        lat[k] = (unsigned)(t1 - t0);
        line_off[k] = off;
    }
    res[0] = (unsigned long long)p;
    res[4] = smid();
}

// buf[line * stride_words] = &buf[next[line] * stride_words]
__global__ void build_chain(unsigned long long *buf, const unsigned *next, long long lines,
                            int stride_words)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < lines;
         i += (long long)gridDim.x * blockDim.x)
        buf[i * stride_words] = (unsigned long long)(buf + (long long)next[i] * stride_words);
}

static unsigned long long rng = 0x9E3779B97F4A7C15ull;
static inline unsigned long long xrand()
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static unsigned *d_next;        // device permutation, max lines
static unsigned long long *d_buf; // chase buffer
static unsigned long long *d_res;
static const size_t BUF_BYTES = 1ull << 30;

// Random single cycle over `lines` nodes of `stride` bytes (Sattolo), or the
// sequential one (next = i + 1) if !random.
static void make_chain(long long lines, int stride_bytes, bool random)
{
    std::vector<unsigned> perm(lines), next(lines);
    for (long long i = 0; i < lines; i++)
        perm[i] = (unsigned)i;
    if (random)
        for (long long i = lines - 1; i > 0; i--) {
            long long j = (long long)(xrand() % (unsigned long long)i); // j < i: one cycle
            std::swap(perm[i], perm[j]);
        }
    // perm as a cycle order: perm[0] -> perm[1] -> ... -> perm[lines-1] -> perm[0]
    for (long long i = 0; i < lines; i++)
        next[perm[i]] = perm[(i + 1) % lines];
    CK(cudaMemcpy(d_next, next.data(), lines * sizeof(unsigned), cudaMemcpyHostToDevice));
    build_chain<<<1024, 256>>>(d_buf, d_next, lines, stride_bytes / 8);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
}

static long long round8(long long x) { return (x + 7) / 8 * 8; }

struct ChaseResult {
    double cycles_per_hop, ns_per_hop, mhz_gt, event_ms, mhz_event;
    unsigned sm;
    bool ok;
};

static ChaseResult run_chase(int cg, long long warm, long long hops, cudaEvent_t e0, cudaEvent_t e1)
{
    spin_wait<<<1, 1>>>(SPIN_CYCLES);
    CK(cudaEventRecord(e0));
    if (cg)
        chase<1><<<1, 1>>>(d_buf, warm, hops, d_res);
    else
        chase<0><<<1, 1>>>(d_buf, warm, hops, d_res);
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    CK(cudaGetLastError());
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    unsigned long long h[6];
    CK(cudaMemcpy(h, d_res, sizeof h, cudaMemcpyDeviceToHost));
    ChaseResult r;
    r.cycles_per_hop = (double)h[1] / hops;
    r.ns_per_hop = (double)h[2] / hops;
    r.mhz_gt = h[2] ? (double)h[1] * 1e3 / (double)h[2] : 0;
    r.event_ms = ms;
    r.mhz_event = (double)h[3] / (ms * 1e3);
    r.sm = (unsigned)h[4];
    // The chain is one cycle through all nodes: after any number of hops the
    // pointer is a node of the buffer.
    r.ok = h[0] >= (unsigned long long)d_buf && h[0] < (unsigned long long)d_buf + BUF_BYTES;
    return r;
}

static void part_latency(const char *dir)
{
    FILE *f = open_csv(dir, "latency.csv");
    fprintf(f, "pattern,load,footprint_bytes,node_stride,nodes,warm_hops,hops,reps,cycles_per_hop,"
               "ns_per_hop,sm_mhz_globaltimer,event_ms,sm_mhz_event,cycles_per_hop_min,"
               "cycles_per_hop_max,smid,check\n");
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    const long long KiB = 1024, MiB = 1024 * KiB;
    std::vector<long long> fps = {8 * KiB,   16 * KiB,  32 * KiB,  64 * KiB,  128 * KiB,
                                  192 * KiB, 256 * KiB, 512 * KiB, 1 * MiB,   2 * MiB,
                                  4 * MiB,   8 * MiB,   16 * MiB,  24 * MiB,  32 * MiB,
                                  40 * MiB,  48 * MiB,  64 * MiB,  128 * MiB, 256 * MiB,
                                  1024 * MiB};
    struct Pt {
        const char *pattern;
        long long fp;
        int stride;
        bool random;
    };
    std::vector<Pt> pts;
    for (long long fp : fps)
        pts.push_back({"random", fp, 128, true});
    pts.push_back({"seq32", 16 * KiB, 32, false});
    pts.push_back({"seq32", 8 * MiB, 32, false});
    // Both load kinds on each chain (built once).
    for (const Pt &pt : pts) {
        long long nodes = pt.fp / pt.stride;
        long long hops = round8(std::max(4 * nodes, 200000LL));
        long long warm = round8(nodes);
        int reps = pt.fp <= 8 * MiB ? 3 : 1;
        make_chain(nodes, pt.stride, pt.random);
        for (int cg = 0; cg < 2; cg++) {
            // Estimate at 700 ns/hop beyond L2, 300 ns within, 50 ns in L1 size.
            double est_ns = pt.fp > 40 * MiB ? 700 : pt.fp > 256 * KiB ? 300 : 50;
            double est = reps * (warm + hops) * est_ns * 1e-9;
            if (elapsed() + est > DEADLINE) {
                fprintf(stderr, "[micro +%.0fs] SKIP latency %s %s %lld B (est %.1f s past deadline)\n",
                        elapsed(), pt.pattern, cg ? "cg" : "ca", pt.fp, est);
                fprintf(f, "%s,%s,%lld,%d,%lld,%lld,%lld,0,,,,,,,,,skipped\n", pt.pattern,
                        cg ? "cg" : "ca", pt.fp, pt.stride, nodes, warm, hops);
                fflush(f);
                continue;
            }
            std::vector<ChaseResult> rs;
            for (int r = 0; r < reps; r++)
                rs.push_back(run_chase(cg, warm, hops, e0, e1));
            std::sort(rs.begin(), rs.end(), [](const ChaseResult &x, const ChaseResult &y) {
                return x.cycles_per_hop < y.cycles_per_hop;
            });
            const ChaseResult &m = rs[rs.size() / 2];
            bool ok = true;
            for (auto &x : rs)
                ok = ok && x.ok;
            fprintf(f, "%s,%s,%lld,%d,%lld,%lld,%lld,%d,%.3f,%.3f,%.1f,%.3f,%.1f,%.3f,%.3f,%u,%s\n",
                    pt.pattern, cg ? "cg" : "ca", pt.fp, pt.stride, nodes, warm, hops, reps,
                    m.cycles_per_hop, m.ns_per_hop, m.mhz_gt, m.event_ms, m.mhz_event,
                    rs.front().cycles_per_hop, rs.back().cycles_per_hop, m.sm, ok ? "ok" : "BAD");
            fflush(f);
            fprintf(stderr, "[micro +%.0fs] latency %s %s %lld KiB: %.1f cycles = %.2f ns/hop (%.0f MHz gt, %.0f MHz ev, sm %u)\n",
                    elapsed(), pt.pattern, cg ? "cg" : "ca", pt.fp / KiB, m.cycles_per_hop,
                    m.ns_per_hop, m.mhz_gt, m.mhz_event, m.sm);
        }
    }
    CK(cudaEventDestroy(e0));
    CK(cudaEventDestroy(e1));
    fclose(f);
}

// ---------------------------------------------------------------- carveout

typedef void (*CoKernel)(const unsigned long long *, long long, long long, unsigned long long *);

static void part_carveout(const char *dir)
{
    FILE *f = open_csv(dir, "carveout.csv");
    fprintf(f, "config,carveout_pct,dyn_shared_bytes,attr_carveout,attr_maxdyn,footprint_bytes,"
               "lines,warm_hops,hops,cycles_per_hop,smid,check\n");
    struct Co {
        const char *name;
        CoKernel k;
        int carve;   // -2: leave untouched
        int dyn;
    };
    std::vector<Co> cos = {
        {"default", chase_co<0>, -2, 0},   {"carve0", chase_co<1>, 0, 0},
        {"carve25", chase_co<2>, 25, 0},   {"carve50", chase_co<3>, 50, 0},
        {"carve75", chase_co<4>, 75, 0},   {"carve100", chase_co<5>, 100, 0},
        {"dyn200KiB", chase_co<6>, -2, 200 * 1024},
    };
    for (Co &c : cos) {
        if (c.carve >= -1)
            CK(cudaFuncSetAttribute((const void *)c.k, cudaFuncAttributePreferredSharedMemoryCarveout,
                                    c.carve));
        if (c.dyn > 48 * 1024)
            CK(cudaFuncSetAttribute((const void *)c.k, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    c.dyn));
    }
    const long long KiB = 1024;
    // Footprint-major so that each chain is built once.
    for (long long fp = 8 * KiB; fp <= 288 * KiB; fp += 8 * KiB) {
        long long lines = fp / 128;
        long long hops = round8(std::max(4 * lines, 100000LL));
        long long warm = round8(2 * lines);
        make_chain(lines, 128, true);
        std::string summary;
        for (Co &c : cos) {
            cudaFuncAttributes fa;
            CK(cudaFuncGetAttributes(&fa, (const void *)c.k));
            // Two launches; the second is recorded (the first settles the config).
            unsigned long long h[6];
            for (int r = 0; r < 2; r++) {
                c.k<<<1, 1, c.dyn>>>(d_buf, warm, hops, d_res);
                CK(cudaGetLastError());
                CK(cudaDeviceSynchronize());
            }
            CK(cudaMemcpy(h, d_res, sizeof h, cudaMemcpyDeviceToHost));
            bool ok = h[0] >= (unsigned long long)d_buf && h[0] < (unsigned long long)d_buf + BUF_BYTES;
            double cph = (double)h[1] / hops;
            fprintf(f, "%s,%d,%d,%d,%d,%lld,%lld,%lld,%lld,%.3f,%u,%s\n", c.name,
                    c.carve < -1 ? -1 : c.carve, c.dyn, fa.preferredShmemCarveout,
                    fa.maxDynamicSharedSizeBytes, fp, lines, warm, hops, cph, (unsigned)h[4],
                    ok ? "ok" : "BAD");
            char b[64];
            snprintf(b, sizeof b, " %s=%.0f", c.name, cph);
            summary += b;
        }
        fflush(f);
        fprintf(stderr, "[micro +%.0fs] carveout %lld KiB:%s\n", elapsed(), fp / KiB, summary.c_str());
    }
    fclose(f);
}

// ---------------------------------------------------------------- split

static void part_split(const char *dir)
{
    FILE *f = open_csv(dir, "split.csv");
    fprintf(f, "footprint_bytes,sample,cycles,line,smid\n");
    const long long KiB = 1024, MiB = 1024 * KiB;
    const int NS = 8192;
    unsigned *d_lat, *d_line;
    CK(cudaMalloc(&d_lat, NS * sizeof(unsigned)));
    CK(cudaMalloc(&d_line, NS * sizeof(unsigned)));
    for (long long fp : {16 * KiB, 4 * MiB, 16 * MiB, 40 * MiB}) {
        long long lines = fp / 128;
        make_chain(lines, 128, true);
        chase_samples<<<1, 1>>>(d_buf, 2 * lines, NS, d_lat, d_line, d_res);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        std::vector<unsigned> lat(NS), line(NS);
        unsigned long long h[6];
        CK(cudaMemcpy(lat.data(), d_lat, NS * sizeof(unsigned), cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(line.data(), d_line, NS * sizeof(unsigned), cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(h, d_res, sizeof h, cudaMemcpyDeviceToHost));
        for (int k = 0; k < NS; k++)
            fprintf(f, "%lld,%d,%u,%u,%u\n", fp, k, lat[k], line[k], (unsigned)h[4]);
        fflush(f);
        std::vector<unsigned> s = lat;
        std::sort(s.begin(), s.end());
        fprintf(stderr, "[micro +%.0fs] split %lld KiB (sm %u): p5 %u p25 %u p50 %u p75 %u p95 %u cycles\n",
                elapsed(), fp / KiB, (unsigned)h[4], s[NS / 20], s[NS / 4], s[NS / 2],
                s[3 * NS / 4], s[19 * NS / 20]);
    }
    CK(cudaFree(d_lat));
    CK(cudaFree(d_line));
    fclose(f);
}

// ---------------------------------------------------------------- run 2

// buf[pos[i] * 16] = &buf[pos[next[i]] * 16]: nodes at arbitrary lines.
__global__ void build_chain_pos(unsigned long long *buf, const unsigned *pos, const unsigned *next,
                                int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        buf[(long long)pos[i] * 16] = (unsigned long long)(buf + (long long)pos[next[i]] * 16);
}

// span.csv, test=span: `lines` nodes, one at a random line of each of
// `lines` equal chunks of a span (the data stay small, the pages many), in
// random cyclic order, chased with ld.global.cg (L2 hits): the cost of
// spreading over pages (TLB reach).  test=dense: the plain random chase at
// footprints between 16 and 64 MiB in 2-4 MiB steps (the L2 knees).
static void part_span(const char *dir)
{
    FILE *f = open_csv(dir, "span.csv");
    fprintf(f, "test,load,span_bytes,nodes,data_bytes,warm_hops,hops,cycles_per_hop,ns_per_hop,"
               "sm_mhz_globaltimer,smid,check\n");
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    const long long MiB = 1 << 20;
    unsigned *d_pos;
    CK(cudaMalloc(&d_pos, 65536 * sizeof(unsigned)));
    for (int n : {4096, 16384}) {
        for (long long span : {1 * MiB, 2 * MiB, 4 * MiB, 8 * MiB, 16 * MiB, 24 * MiB, 32 * MiB,
                               48 * MiB, 64 * MiB, 128 * MiB, 256 * MiB, 512 * MiB, 1024 * MiB}) {
            long long chunk = span / 128 / n; // lines per chunk
            if (chunk < 1)
                continue;
            std::vector<unsigned> pos(n), perm(n), next(n);
            for (int i = 0; i < n; i++) {
                pos[i] = (unsigned)(i * chunk + (long long)(xrand() % (unsigned long long)chunk));
                perm[i] = i;
            }
            for (int i = n - 1; i > 0; i--)
                std::swap(perm[i], perm[xrand() % (unsigned long long)i]);
            for (int i = 0; i < n; i++)
                next[perm[i]] = perm[(i + 1) % n];
            CK(cudaMemcpy(d_pos, pos.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
            CK(cudaMemcpy(d_next, next.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
            build_chain_pos<<<64, 256>>>(d_buf, d_pos, d_next, n);
            CK(cudaGetLastError());
            CK(cudaDeviceSynchronize());
            // Chase from node pos[0] (line 0 need not be a node).
            long long hops = 200000, warm = round8(2LL * n);
            unsigned long long *start = d_buf + (long long)pos[0] * 16;
            unsigned long long h[6];
            spin_wait<<<1, 1>>>(SPIN_CYCLES);
            chase<1><<<1, 1>>>(start, warm, hops, d_res);
            CK(cudaGetLastError());
            CK(cudaDeviceSynchronize());
            CK(cudaMemcpy(h, d_res, sizeof h, cudaMemcpyDeviceToHost));
            bool ok = h[0] >= (unsigned long long)d_buf && h[0] < (unsigned long long)d_buf + BUF_BYTES;
            double cph = (double)h[1] / hops;
            fprintf(f, "span,cg,%lld,%d,%d,%lld,%lld,%.3f,%.3f,%.1f,%u,%s\n", span, n, n * 128, warm,
                    hops, cph, (double)h[2] / hops, h[2] ? h[1] * 1e3 / h[2] : 0.0,
                    (unsigned)h[4], ok ? "ok" : "BAD");
            fflush(f);
            fprintf(stderr, "[micro +%.0fs] span %d nodes over %lld MiB: %.1f cycles/hop\n", elapsed(),
                    n, span / MiB, cph);
        }
    }
    CK(cudaFree(d_pos));
    for (long long fpm : {16, 18, 20, 22, 24, 26, 28, 30, 32, 36, 40, 44, 48, 52, 56, 60, 64}) {
        long long fp = fpm * MiB, nodes = fp / 128;
        long long hops = round8(std::max(4 * nodes, 200000LL)), warm = round8(nodes);
        make_chain(nodes, 128, true);
        ChaseResult r = run_chase(0, warm, hops, e0, e1);
        fprintf(f, "dense,ca,%lld,%lld,%lld,%lld,%lld,%.3f,%.3f,%.1f,%u,%s\n", fp, nodes, fp, warm,
                hops, r.cycles_per_hop, r.ns_per_hop, r.mhz_gt, r.sm, r.ok ? "ok" : "BAD");
        fflush(f);
        fprintf(stderr, "[micro +%.0fs] dense %lld MiB: %.1f cycles/hop\n", elapsed(), fpm,
                r.cycles_per_hop);
    }
    CK(cudaEventDestroy(e0));
    CK(cudaEventDestroy(e1));
    fclose(f);
}

// split_sm.csv: the per-hop samples of chase_samples, taken at once from up
// to 8 chosen SMs over the same warm chain (same line order), so that a
// line's latency can be compared between SMs: lines fast from one SM and
// slow from another are near / far by partition.
__global__ void chase_samples_sm(const unsigned long long *start, long long warm, int nsamp,
                                 const int *want, int nwant, int *claimed, unsigned *lat,
                                 unsigned *line_off, int *slot_sm)
{
    unsigned s = smid();
    int slot = -1;
    for (int i = 0; i < nwant; i++)
        if (want[i] == (int)s && atomicCAS(&claimed[i], 0, 1) == 0)
            slot = i;
    if (slot < 0)
        return;
    slot_sm[slot] = (int)s;
    __shared__ volatile unsigned long long sink[1];
    const unsigned long long *p = start;
#pragma unroll 1
    for (long long h = 0; h < warm; h++)
        p = hop<0>(p);
    sink[0] = (unsigned long long)p;
#pragma unroll 1
    for (int k = 0; k < nsamp; k++) {
        unsigned off = (unsigned)(((const char *)p - (const char *)start) >> 7);
        long long t0 = clk();
        p = hop<0>(p);
        sink[0] = (unsigned long long)p;
        long long t1 = clk();
        lat[slot * nsamp + k] = (unsigned)(t1 - t0);
        line_off[slot * nsamp + k] = off;
    }
}

static void part_split_sm(const char *dir, int sms)
{
    FILE *f = open_csv(dir, "split_sm.csv");
    fprintf(f, "footprint_bytes,sample,cycles,line,smid\n");
    const int NS = 4096, NW = 8;
    int want_h[NW] = {0, 1, 16, 33, 50, 66, 100, sms - 1};
    int *want, *claimed, *slot_sm;
    unsigned *lat, *line;
    CK(cudaMalloc(&want, NW * sizeof(int)));
    CK(cudaMalloc(&claimed, NW * sizeof(int)));
    CK(cudaMalloc(&slot_sm, NW * sizeof(int)));
    CK(cudaMalloc(&lat, NW * NS * sizeof(unsigned)));
    CK(cudaMalloc(&line, NW * NS * sizeof(unsigned)));
    CK(cudaMemcpy(want, want_h, sizeof want_h, cudaMemcpyHostToDevice));
    for (long long fp : {4LL << 20, 40LL << 20}) {
        long long lines = fp / 128;
        make_chain(lines, 128, true);
        CK(cudaMemset(claimed, 0, NW * sizeof(int)));
        CK(cudaMemset(slot_sm, 0xff, NW * sizeof(int)));
        // A grid of 4 blocks per SM (one thread each): every SM gets one.
        chase_samples_sm<<<sms * 4, 1>>>(d_buf, 2 * lines, NS, want, NW, claimed, lat, line, slot_sm);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        std::vector<unsigned> hl(NW * NS), hn(NW * NS);
        int hs[NW];
        CK(cudaMemcpy(hl.data(), lat, hl.size() * 4, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(hn.data(), line, hn.size() * 4, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(hs, slot_sm, sizeof hs, cudaMemcpyDeviceToHost));
        for (int w = 0; w < NW; w++) {
            if (hs[w] < 0)
                continue;
            for (int k = 0; k < NS; k++)
                fprintf(f, "%lld,%d,%u,%u,%d\n", fp, k, hl[w * NS + k], hn[w * NS + k], hs[w]);
            std::vector<unsigned> s(hl.begin() + w * NS, hl.begin() + (w + 1) * NS);
            std::sort(s.begin(), s.end());
            fprintf(stderr, "[micro +%.0fs] split_sm %lld MiB sm %d: p10 %u p50 %u p90 %u\n",
                    elapsed(), fp >> 20, hs[w], s[NS / 10], s[NS / 2], s[9 * NS / 10]);
        }
        fflush(f);
    }
    cudaFree(want);
    cudaFree(claimed);
    cudaFree(slot_sm);
    cudaFree(lat);
    cudaFree(line);
    fclose(f);
}

// ---------------------------------------------------------------- props

static int attr(cudaDeviceAttr a)
{
    int v = -1;
    if (cudaDeviceGetAttribute(&v, a, 0) != cudaSuccess)
        return -1;
    return v;
}

static int mode_props()
{
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    int drv = 0, rt = 0;
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    int clk = attr(cudaDevAttrClockRate), mclk = attr(cudaDevAttrMemoryClockRate),
        bus = attr(cudaDevAttrGlobalMemoryBusWidth);
    printf("name: %s\n", p.name);
    printf("compute_capability: %d.%d\n", p.major, p.minor);
    printf("driver_version: %d\nruntime_version: %d\n", drv, rt);
    printf("multiProcessorCount: %d\n", p.multiProcessorCount);
    printf("clockRate_kHz: %d\n", clk);
    printf("memoryClockRate_kHz: %d\n", mclk);
    printf("memoryBusWidth_bits: %d\n", bus);
    printf("peak_dram_GBps_from_props: %.1f\n", 2.0 * mclk * 1e3 * (bus / 8.0) / 1e9);
    printf("l2CacheSize_bytes: %d\n", p.l2CacheSize);
    printf("persistingL2CacheMaxSize_bytes: %d\n", p.persistingL2CacheMaxSize);
    printf("totalGlobalMem_bytes: %zu\n", p.totalGlobalMem);
    printf("sharedMemPerMultiprocessor_bytes: %zu\n", p.sharedMemPerMultiprocessor);
    printf("sharedMemPerBlock_bytes: %zu\n", p.sharedMemPerBlock);
    printf("sharedMemPerBlockOptin_bytes: %zu\n", p.sharedMemPerBlockOptin);
    printf("reservedSharedMemPerBlock_bytes: %zu\n", p.reservedSharedMemPerBlock);
    printf("regsPerMultiprocessor: %d\n", p.regsPerMultiprocessor);
    printf("maxThreadsPerMultiProcessor: %d\n", p.maxThreadsPerMultiProcessor);
    printf("maxBlocksPerMultiProcessor: %d\n", p.maxBlocksPerMultiProcessor);
    printf("l1_global_caching_supported: %d\n", p.globalL1CacheSupported);
    printf("eccEnabled: %d\n", p.ECCEnabled);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "props"))
        return mode_props();
    if (argc < 3 || strcmp(argv[1], "run")) {
        fprintf(stderr, "usage: %s props | run OUTDIR [stream,latency,carveout,split,span,splitsm]\n", argv[0]);
        return 2;
    }
    const char *dir = argv[2];
    std::string parts = argc > 3 ? argv[3] : "stream,latency,carveout,split";
    T0 = now_s();
    DEADLINE = getenv("MICRO_DEADLINE_S") ? atof(getenv("MICRO_DEADLINE_S")) : 240.0;
    int sms = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    CK(cudaMalloc(&probe_buf, 2 * sizeof(unsigned long long)));
    for (int i = 0; i < 20; i++)
        probe_mhz();
    fprintf(stderr, "[micro +%.0fs] start: %d SMs, clock probe %.1f MHz, deadline %.0f s\n",
            elapsed(), sms, probe_mhz(), DEADLINE);
    auto has = [&](const char *name) {
        return ("," + parts + ",").find(std::string(",") + name + ",") != std::string::npos;
    };
    if (has("stream"))
        part_stream(dir, sms);
    fprintf(stderr, "[micro +%.0fs] clock probe %.1f MHz\n", elapsed(), probe_mhz());
    CK(cudaMalloc(&d_buf, BUF_BYTES));
    CK(cudaMalloc(&d_next, (BUF_BYTES / 32) * sizeof(unsigned)));
    CK(cudaMalloc(&d_res, 8 * sizeof(unsigned long long)));
    if (has("carveout"))
        part_carveout(dir);
    if (has("split"))
        part_split(dir);
    if (has("latency"))
        part_latency(dir);
    // Second device run (not in the default set): MICRO_PARTS=span,splitsm
    if (has("span"))
        part_span(dir);
    if (has("splitsm"))
        part_split_sm(dir, sms);
    fprintf(stderr, "[micro +%.0fs] done, clock probe %.1f MHz\n", elapsed(), probe_mhz());
    return 0;
}
