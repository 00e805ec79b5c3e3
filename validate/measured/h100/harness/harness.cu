// harness.cu: launches warpsim's bundled kernels (traces/kernels/*/*.cu) on
// a real GPU with the grids, blocks, parameters and buffer contents of their
// workload YAMLs, and times them, so the simulator has ground truth.
//
// Build (measure.sh does this):  nvcc -O3 -arch=sm_90 -o harness harness.cu
//
// Modes:
//   harness props        device properties, one "key: value" a line
//   harness list         the cases, one a line: name group kernel grid block params
//   harness time [SUB]   times every case (or those whose name contains SUB,
//                        or the one named NAME if SUB is =NAME; no CSV header
//                        if HARNESS_NO_HEADER is set):
//                        3 warm-up launches, then the median and minimum of
//                        >= 20 launches each timed with its own cudaEvent pair
//                        (caches warm from the previous launch: "warm");
//                        default workloads are also timed "cold", with a
//                        256 MiB read before each launch that evicts L2.
//                        Before each timed launch a one-thread kernel spins
//                        ~100 us (no memory traffic), so the event pair and
//                        the launch are queued behind it and the events time
//                        the GPU, not the host's launch latency.  After
//                        each case a one-thread probe kernel reads clock64()
//                        against %globaltimer to give the SM clock it ran at.
//                        One CSV row per case on stdout.
//   harness ncu-default  launches each default workload (plus the saxpy
//                        stride points) exactly once, for ncu; prints the
//                        launch order (ncu's ID column) as CSV on stdout.
//   harness ncu-extra    the same for the sweep points (pchase footprints,
//                        large stream, larger matmul/apsp/fma/reduce).
//
// What it leaves out: no correctness claim beyond the per-case check column
// (a CPU reference for apsp, matmul, reduce, saxpy, stream, vecadd and the
// pointer chase's final index); no host/device copies are timed; launch
// overhead is inside every event-timed number (see the `empty` case, the
// floor); the pchase ns/hop is the raw median divided by hops (launch
// overhead not subtracted); nothing controls clocks here (the GPU runs at
// whatever boost it chooses; the sm_mhz column is what the probe saw).
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <cmath>
#include <string>
#include <vector>
#include <functional>
#include <algorithm>
#include <cuda_runtime.h>

// The project's kernels, unchanged, in the global namespace so that their
// mangled names are the ones the workloads and listings use.
#include "../../../../traces/kernels/apsp/apsp.cu"
#include "../../../../traces/kernels/fma/fma.cu"
#include "../../../../traces/kernels/pchase/pchase.cu"
#include "../../../../traces/kernels/reduce/reduce.cu"
#include "../../../../traces/kernels/saxpy/saxpy.cu"
#include "../../../../traces/kernels/stream/stream.cu"
#include "../../../../traces/kernels/vecadd/vecadd.cu"
#include "../../../../traces/kernels/matmul/matmul.cu"
#undef T   // matmul.cu's tile size macro

// Harness-only kernels (never profiled by ncu: not launched in ncu modes).
__global__ void empty_kernel() {}

__global__ void l2flush(const float4 *buf, size_t n4, float *sink)
{
    float s = 0.0f;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n4;
         i += (size_t)gridDim.x * blockDim.x) {
        float4 v = buf[i];
        s += v.x + v.y + v.z + v.w;
    }
    if (s == 12345.678f)
        *sink = s;
}

// Keeps the GPU busy (no memory traffic) while the host queues the event
// and the launch behind it, so that the events time the kernel and not the
// host's launch latency.
__global__ void spin_wait(long long cycles)
{
    long long c0 = clock64();
    while (clock64() - c0 < cycles) {
    }
}

__global__ void clockprobe(unsigned long long spin, unsigned long long *out)
{
    unsigned long long t0, t1;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    long long c0 = clock64(), c1;
    do {
        c1 = clock64();
    } while ((unsigned long long)(c1 - c0) < spin);
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
    out[0] = (unsigned long long)(c1 - c0);
    out[1] = t1 - t0;
}

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

template <class X> static X *dalloc(size_t count)
{
    X *p = nullptr;
    CK(cudaMalloc(&p, count * sizeof(X)));
    return p;
}

template <class X> static void up(X *d, const std::vector<X> &h)
{
    CK(cudaMemcpy(d, h.data(), h.size() * sizeof(X), cudaMemcpyHostToDevice));
}

template <class X> static std::vector<X> down(const X *d, size_t count)
{
    std::vector<X> h(count);
    CK(cudaMemcpy(h.data(), d, count * sizeof(X), cudaMemcpyDeviceToHost));
    return h;
}

// A prepared case: buffers allocated and initialised.
struct Bench {
    dim3 grid, block;
    std::function<void()> launch;        // one launch, asynchronous
    std::function<void()> reset;         // restore inputs before the check
    std::function<std::string()> check;  // "ok" or what is wrong
    std::function<void()> release;
    double bytes = 0;   // useful bytes per launch (program view), 0 if none
    long long hops = 0; // pchase
};

struct Case {
    std::string name, kernel, params;
    int group;        // 0: default workload (cold timing, ncu-default); 1: sweep
    int ntimed;       // timed launches
    std::function<Bench()> make;
    bool ncu;         // profiled in its ncu mode
};

static std::string fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static std::string fmt(const char *f, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, f);
    vsnprintf(buf, sizeof buf, f, ap);
    va_end(ap);
    return buf;
}

static unsigned rng_state = 12345u;
static float frand() // in [1, 2): no zeros, no denormals
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return 1.0f + (rng_state >> 8) * (1.0f / 16777216.0f);
}

// ---------------------------------------------------------------- cases

// apsp/workload.yaml: grid (n/sd, n/sd), block threads, shared 12*sd*sd.
static Bench make_apsp(int n, int sd, int threads)
{
    Bench b;
    size_t nn = (size_t)n * n;
    std::vector<float> hA(nn);
    for (auto &v : hA)
        v = frand();
    float *A = dalloc<float>(nn), *C = dalloc<float>(nn);
    up(A, hA);
    b.grid = dim3(n / sd, n / sd, 1);
    b.block = dim3(threads, 1, 1);
    size_t shmem = 12 * (size_t)sd * sd;
    if (shmem > 48 * 1024)
        CK(cudaFuncSetAttribute(apsp, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shmem));
    dim3 g = b.grid, bl = b.block;
    b.launch = [=] { apsp<<<g, bl, shmem>>>(A, C, n, sd); };
    b.check = [=]() -> std::string {
        std::vector<float> hC = down(C, nn);
        // Rows checked: all for n <= 256, a sample otherwise.
        int step = n <= 256 ? 1 : n / 16;
        for (int i = 0; i < n; i += step)
            for (int j = 0; j < n; j++) {
                float m = 1e30f;
                for (int k = 0; k < n; k++)
                    m = fminf(m, hA[(size_t)i * n + k] + hA[(size_t)k * n + j]);
                if (m != hC[(size_t)i * n + j])
                    return fmt("C[%d][%d]=%g want %g", i, j, hC[(size_t)i * n + j], m);
            }
        return "ok";
    };
    b.release = [=] { cudaFree(A); cudaFree(C); };
    b.bytes = 0;
    return b;
}

// fma/workload.yaml: grid blocks, block threads.
static Bench make_fma(int iters, int blocks, int threads)
{
    Bench b;
    size_t cnt = (size_t)blocks * threads;
    float *out = dalloc<float>(cnt);
    b.grid = dim3(blocks, 1, 1);
    b.block = dim3(threads, 1, 1);
    dim3 g = b.grid, bl = b.block;
    b.launch = [=] { fma<<<g, bl>>>(out, iters); };
    b.check = [=]() -> std::string {
        std::vector<float> h = down(out, cnt);
        for (size_t i = 0; i < cnt; i++)
            if (!std::isfinite(h[i]))
                return fmt("out[%zu] not finite", i);
        return "ok";
    };
    b.release = [=] { cudaFree(out); };
    return b;
}

typedef void (*MatmulKernel)(const double *, const double *, double *, int);

// matmul/*.yaml: grid (n/16, n/16), block 16x16 or 16x8.
static Bench make_matmul(MatmulKernel kern, int by, int n)
{
    Bench b;
    size_t nn = (size_t)n * n;
    std::vector<double> hA(nn), hB(nn);
    for (size_t i = 0; i < nn; i++) {
        hA[i] = frand() - 1.5;
        hB[i] = frand() - 1.5;
    }
    double *A = dalloc<double>(nn), *B = dalloc<double>(nn), *C = dalloc<double>(nn);
    up(A, hA);
    up(B, hB);
    b.grid = dim3(n / 16, n / 16, 1);
    b.block = dim3(16, by, 1);
    dim3 g = b.grid, bl = b.block;
    b.launch = [=] { kern<<<g, bl>>>(A, B, C, n); };
    b.check = [=]() -> std::string {
        std::vector<double> hC = down(C, nn);
        int step = n <= 128 ? 1 : 37;   // all elements, or a sample
        for (size_t e = 0; e < nn; e += step) {
            size_t i = e / n, j = e % n;
            double s = 0;
            for (int k = 0; k < n; k++)
                s += hA[i * n + k] * hB[(size_t)k * n + j];
            if (fabs(s - hC[e]) > 1e-9 * (1 + fabs(s)))
                return fmt("C[%zu][%zu]=%.17g want %.17g", i, j, hC[e], s);
        }
        return "ok";
    };
    b.release = [=] { cudaFree(A); cudaFree(B); cudaFree(C); };
    return b;
}

// pchase/workload.yaml: one thread; next[j] = (j + stride) % elems, the
// chain the workload's rule next + 4 * ((h * stride) % elems) implies.
static Bench make_pchase(long long hops, long long elems, long long stride)
{
    Bench b;
    std::vector<unsigned> h(elems);
    for (long long j = 0; j < elems; j++)
        h[j] = (unsigned)((j + stride) % elems);
    unsigned *next = dalloc<unsigned>(elems), *out = dalloc<unsigned>(1);
    up(next, h);
    b.grid = dim3(1, 1, 1);
    b.block = dim3(1, 1, 1);
    int ih = (int)hops;
    b.launch = [=] { pchase<<<1, 1>>>(next, out, ih); };
    b.check = [=]() -> std::string {
        unsigned got = down(out, 1)[0];
        unsigned want = (unsigned)((hops * stride) % elems);
        return got == want ? std::string("ok") : fmt("out=%u want %u", got, want);
    };
    b.release = [=] { cudaFree(next); cudaFree(out); };
    b.hops = hops;
    b.bytes = 0;
    return b;
}

// reduce/workload.yaml: grid ceil(n/threads), block threads; x = 1.
static Bench make_reduce(int n, int threads)
{
    Bench b;
    float *x = dalloc<float>(n), *out = dalloc<float>(1);
    up(x, std::vector<float>(n, 1.0f));
    CK(cudaMemcpy(out, std::vector<float>(1, 0.0f).data(), 4, cudaMemcpyHostToDevice));
    b.grid = dim3((n + threads - 1) / threads, 1, 1);
    b.block = dim3(threads, 1, 1);
    dim3 g = b.grid, bl = b.block;
    b.launch = [=] { reduce<<<g, bl>>>(x, out, n); };
    b.reset = [=] { up(out, std::vector<float>(1, 0.0f)); };
    b.check = [=]() -> std::string {
        float got = down(out, 1)[0];
        return got == (float)n ? std::string("ok") : fmt("out=%g want %d", got, n);
    };
    b.release = [=] { cudaFree(x); cudaFree(out); };
    b.bytes = 4.0 * n;
    return b;
}

// saxpy/workload.yaml: grid ceil(n/threads); x, y of 4 * n * stride bytes.
static Bench make_saxpy(int n, int stride, int threads)
{
    Bench b;
    size_t cnt = (size_t)n * stride;
    float *x = dalloc<float>(cnt), *y = dalloc<float>(cnt);
    up(x, std::vector<float>(cnt, 1.0f));
    up(y, std::vector<float>(cnt, 2.0f));
    b.grid = dim3((n + threads - 1) / threads, 1, 1);
    b.block = dim3(threads, 1, 1);
    dim3 g = b.grid, bl = b.block;
    b.launch = [=] { saxpy<<<g, bl>>>(n, stride, 2.0f, x, y); };
    b.reset = [=] { up(y, std::vector<float>(cnt, 2.0f)); };
    b.check = [=]() -> std::string {
        std::vector<float> h = down(y, cnt);
        for (size_t i = 0; i < cnt; i++) {
            float want = (i % stride == 0 && i / stride < (size_t)n) ? 4.0f : 2.0f;
            if (h[i] != want)
                return fmt("y[%zu]=%g want %g", i, h[i], want);
        }
        return "ok";
    };
    b.release = [=] { cudaFree(x); cudaFree(y); };
    b.bytes = 12.0 * n;   // x read, y read, y written (useful bytes)
    return b;
}

// stream/copy.yaml and triad.yaml: grid ceil(n/threads).
static Bench make_copy(long long n, int threads)
{
    Bench b;
    float *a = dalloc<float>(n), *c = dalloc<float>(n);
    std::vector<float> h(n);
    for (long long i = 0; i < n; i++)
        h[i] = (float)(i & 0xffff);
    up(a, h);
    b.grid = dim3((unsigned)((n + threads - 1) / threads), 1, 1);
    b.block = dim3(threads, 1, 1);
    dim3 g = b.grid, bl = b.block;
    int in = (int)n;
    b.launch = [=] { copy<<<g, bl>>>(a, c, in); };
    b.check = [=]() -> std::string {
        std::vector<float> r = down(c, n);
        for (long long i = 0; i < n; i++)
            if (r[i] != (float)(i & 0xffff))
                return fmt("c[%lld]=%g", i, r[i]);
        return "ok";
    };
    b.release = [=] { cudaFree(a); cudaFree(c); };
    b.bytes = 8.0 * n;
    return b;
}

static Bench make_triad(long long n, int threads)
{
    Bench b;
    float *a = dalloc<float>(n), *bb = dalloc<float>(n), *c = dalloc<float>(n);
    up(bb, std::vector<float>(n, 1.0f));
    up(c, std::vector<float>(n, 2.0f));
    b.grid = dim3((unsigned)((n + threads - 1) / threads), 1, 1);
    b.block = dim3(threads, 1, 1);
    dim3 g = b.grid, bl = b.block;
    int in = (int)n;
    b.launch = [=] { triad<<<g, bl>>>(a, bb, c, 3.0f, in); };
    b.check = [=]() -> std::string {
        std::vector<float> r = down(a, n);
        for (long long i = 0; i < n; i++)
            if (r[i] != 7.0f)
                return fmt("a[%lld]=%g", i, r[i]);
        return "ok";
    };
    b.release = [=] { cudaFree(a); cudaFree(bb); cudaFree(c); };
    b.bytes = 12.0 * n;
    return b;
}

// vecadd: traces/accelsim/vecadd (n = 4010: 16040-byte buffers, grid 32,
// block 128) and the speed benchmark's 1M elements (tests/bench/gen_vecadd.c).
static Bench make_vecadd(int n, int threads)
{
    Bench b;
    float *a = dalloc<float>(n), *bb = dalloc<float>(n), *c = dalloc<float>(n);
    up(a, std::vector<float>(n, 1.0f));
    up(bb, std::vector<float>(n, 2.0f));
    b.grid = dim3((n + threads - 1) / threads, 1, 1);
    b.block = dim3(threads, 1, 1);
    dim3 g = b.grid, bl = b.block;
    b.launch = [=] { vecAdd<<<g, bl>>>(a, bb, c, n); };
    b.check = [=]() -> std::string {
        std::vector<float> r = down(c, n);
        for (int i = 0; i < n; i++)
            if (r[i] != 3.0f)
                return fmt("c[%d]=%g", i, r[i]);
        return "ok";
    };
    b.release = [=] { cudaFree(a); cudaFree(bb); cudaFree(c); };
    b.bytes = 12.0 * n;
    return b;
}

static Bench make_empty()
{
    Bench b;
    b.grid = dim3(1, 1, 1);
    b.block = dim3(1, 1, 1);
    b.launch = [] { empty_kernel<<<1, 1>>>(); };
    return b;
}

static std::vector<Case> all_cases()
{
    std::vector<Case> v;
    auto add = [&](std::string name, std::string kernel, std::string params, int group,
                   int ntimed, std::function<Bench()> make) {
        v.push_back(Case{name, kernel, params, group, ntimed, make, true});
    };
    // Sweep points too slow to replay under ncu (GiB buffers saved and
    // restored every pass, or seconds per pass).
    auto no_ncu = [&] { v.back().ncu = false; };
    const int NT = 25;

    // ---- default workloads (params: of each YAML) ----
    add("apsp", "apsp", "n=256 sd=16 threads=64", 0, NT, [] { return make_apsp(256, 16, 64); });
    add("fma", "fma", "iters=32 blocks=1024 threads=256", 0, NT, [] { return make_fma(32, 1024, 256); });
    struct MM { const char *name; MatmulKernel k; int by; };
    const MM mms[] = {{"baseline", baseline, 16},     {"tiling", tiling, 16},
                      {"coalescing", coalescing, 16}, {"nobankconflict", nobankconflict, 16},
                      {"computeopt", computeopt, 8},  {"unroll", unroll, 8},
                      {"prefetch", prefetch, 8}};
    for (const MM &m : mms) {
        MatmulKernel k = m.k;
        int by = m.by;
        add(std::string("matmul_") + m.name, m.name, "n=128", 0, NT,
            [=] { return make_matmul(k, by, 128); });
    }
    add("pchase", "pchase", "hops=256 elems=262144 stride=32", 0, NT,
        [] { return make_pchase(256, 262144, 32); });
    add("reduce", "reduce", "n=100000 threads=256", 0, NT, [] { return make_reduce(100000, 256); });
    for (int s : {1, 4, 8, 16})
        add(fmt("saxpy_s%d", s), "saxpy", fmt("n=65536 stride=%d threads=256", s), 0, NT,
            [=] { return make_saxpy(65536, s, 256); });
    for (int s : {1, 4, 8, 16})
        add(fmt("saxpy_n1M_s%d", s), "saxpy", fmt("n=1048576 stride=%d threads=256", s), 0, NT,
            [=] { return make_saxpy(1048576, s, 256); });
    add("stream_copy", "copy", "n=1048576 threads=256", 0, NT, [] { return make_copy(1048576, 256); });
    add("stream_triad", "triad", "n=1048576 threads=256", 0, NT, [] { return make_triad(1048576, 256); });
    add("vecadd", "vecAdd", "n=4010 threads=128", 0, NT, [] { return make_vecadd(4010, 128); });
    add("vecadd_1M", "vecAdd", "n=1048576 threads=128", 0, NT, [] { return make_vecadd(1048576, 128); });

    // ---- sweep points ----
    // pchase footprints (stride 32 = 128 B, as the workload): 16 KiB in L1,
    // 8 MiB in L2, 512 MiB beyond it.  1M hops: 8192 passes over the L1
    // chain, 16 over the L2 one, and 128 MiB of the DRAM one per launch
    // (more than L2 holds, so no launch finds the previous one's lines).
    add("pchase_16KiB", "pchase", "hops=1048576 elems=4096 stride=32", 1, NT,
        [] { return make_pchase(1 << 20, 4096, 32); });
    add("pchase_8MiB", "pchase", "hops=1048576 elems=2097152 stride=32", 1, NT,
        [] { return make_pchase(1 << 20, 2097152, 32); });
    add("pchase_512MiB", "pchase", "hops=1048576 elems=134217728 stride=32", 1, 20,
        [] { return make_pchase(1 << 20, 134217728, 32); });
    // Not a workload rule: every hop 2 MiB + 128 B on, a new page each hop
    // (cycle of 4M hops; 512K hops = 64 MiB of lines per launch).
    add("pchase_512MiB_pagestride", "pchase", "hops=524288 elems=134217728 stride=524320", 1, 20,
        [] { return make_pchase(1 << 19, 134217728, 524320); });
    no_ncu();
    // stream at sizes well beyond L2 (50 MB): achieved DRAM bandwidth.
    for (long long n : {1LL << 24, 1LL << 26, 1LL << 28}) {
        add(fmt("stream_copy_%lldM", n >> 20), "copy", fmt("n=%lld threads=256", n), 1, NT,
            [=] { return make_copy(n, 256); });
        add(fmt("stream_triad_%lldM", n >> 20), "triad", fmt("n=%lld threads=256", n), 1, NT,
            [=] { return make_triad(n, 256); });
        if (n > (1LL << 26)) {
            no_ncu();
            v[v.size() - 2].ncu = false;
        }
    }
    // fma: long enough that launch overhead vanishes (FP32 peak).
    add("fma_iters4096", "fma", "iters=4096 blocks=1024 threads=256", 1, NT,
        [] { return make_fma(4096, 1024, 256); });
    add("fma_iters4096_b8448", "fma", "iters=4096 blocks=8448 threads=256", 1, NT,
        [] { return make_fma(4096, 8448, 256); });
    // Islam et al.'s variants at a size that fills the GPU.
    for (const MM &m : mms) {
        MatmulKernel k = m.k;
        int by = m.by;
        add(std::string("matmul_") + m.name + "_n1024", m.name, "n=1024", 1, NT,
            [=] { return make_matmul(k, by, 1024); });
    }
    // Ma et al.: sub-block size and threads per block.
    for (int sd : {16, 32})
        for (int th : {64, 256})
            add(fmt("apsp_n1024_sd%d_t%d", sd, th), "apsp", fmt("n=1024 sd=%d threads=%d", sd, th),
                1, NT, [=] { return make_apsp(1024, sd, th); });
    add("reduce_16M", "reduce", "n=16777216 threads=256", 1, NT,
        [] { return make_reduce(16777216, 256); });
    // Launch + event floor.
    add("empty", "empty_kernel", "", 1, NT, [] { return make_empty(); });
    no_ncu();
    return v;
}

// ---------------------------------------------------------------- timing

static unsigned long long *probe_buf;

static double probe_mhz()
{
    clockprobe<<<1, 1>>>(10000000ULL, probe_buf);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    unsigned long long h[2];
    CK(cudaMemcpy(h, probe_buf, sizeof h, cudaMemcpyDeviceToHost));
    return h[1] ? (double)h[0] * 1000.0 / (double)h[1] : 0.0;
}

static float *flush_buf, *flush_sink;
static const size_t FLUSH_FLOATS = 64ull << 20;   // 256 MiB

static void flush_l2()
{
    l2flush<<<132 * 8, 256>>>((const float4 *)flush_buf, FLUSH_FLOATS / 4, flush_sink);
}

struct Stat { double median, min; };

static const long long SPIN_CYCLES = 200000;   // ~100 us at 1980 MHz

static Stat time_launches(Bench &b, int warm, int n, bool cold)
{
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    for (int i = 0; i < warm; i++) {
        if (cold)
            flush_l2();
        b.launch();
    }
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<double> t;
    for (int i = 0; i < n; i++) {
        if (cold)
            flush_l2();
        spin_wait<<<1, 1>>>(SPIN_CYCLES);
        CK(cudaEventRecord(e0));
        b.launch();
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        CK(cudaGetLastError());
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        t.push_back(ms * 1000.0);
    }
    CK(cudaEventDestroy(e0));
    CK(cudaEventDestroy(e1));
    std::sort(t.begin(), t.end());
    double med = t.size() % 2 ? t[t.size() / 2] : 0.5 * (t[t.size() / 2 - 1] + t[t.size() / 2]);
    return Stat{med, t[0]};
}

static std::string d3(dim3 d) { return fmt("%ux%ux%u", d.x, d.y, d.z); }

static std::string run_check(Bench &b)
{
    if (!b.check)
        return "-";
    if (b.reset)
        b.reset();
    b.launch();
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::string s = b.check();
    for (char &c : s)
        if (c == ',')
            c = ';';
    return s;
}

static int mode_time(const char *sub)
{
    if (!getenv("HARNESS_NO_HEADER"))
        printf("case,kernel,grid,block,params,median_us,min_us,cold_median_us,cold_min_us,"
               "ntimed,bytes,GBps,hops,ns_per_hop,cycles_per_hop,cold_ns_per_hop,sm_mhz,check\n");
    fflush(stdout);
    probe_buf = dalloc<unsigned long long>(2);
    flush_buf = dalloc<float>(FLUSH_FLOATS);
    flush_sink = dalloc<float>(1);
    CK(cudaMemset(flush_buf, 0, FLUSH_FLOATS * sizeof(float)));
    // Warm the clocks up before anything is timed.
    for (int i = 0; i < 20; i++)
        probe_mhz();
    fprintf(stderr, "clock probe at start: %.1f MHz\n", probe_mhz());
    for (Case &c : all_cases()) {
        // SUB: a substring of the case name, or =NAME for that case alone.
        if (sub && (sub[0] == '=' ? c.name != sub + 1 : !strstr(c.name.c_str(), sub)))
            continue;
        fprintf(stderr, "timing %s ...\n", c.name.c_str());
        Bench b = c.make();
        CK(cudaDeviceSynchronize());
        std::string chk = run_check(b);
        double mhz0 = probe_mhz();
        Stat w = time_launches(b, 3, c.ntimed, false);
        Stat cold{NAN, NAN};
        if (c.group == 0)
            cold = time_launches(b, 3, c.ntimed, true);
        double mhz = 0.5 * (mhz0 + probe_mhz());
        std::string bytes = "", gbps = "", hops = "", nsh = "", cyh = "", cnsh = "";
        if (b.bytes > 0) {
            bytes = fmt("%.0f", b.bytes);
            gbps = fmt("%.2f", b.bytes / (w.median * 1e3));
        }
        if (b.hops > 0) {
            hops = fmt("%lld", b.hops);
            double ns = w.median * 1e3 / b.hops;
            nsh = fmt("%.3f", ns);
            cyh = fmt("%.2f", ns * mhz / 1e3);
            if (c.group == 0)
                cnsh = fmt("%.3f", cold.median * 1e3 / b.hops);
        }
        printf("%s,%s,%s,%s,%s,%.3f,%.3f,%s,%s,%d,%s,%s,%s,%s,%s,%s,%.1f,%s\n", c.name.c_str(),
               c.kernel.c_str(), d3(b.grid).c_str(), d3(b.block).c_str(), c.params.c_str(),
               w.median, w.min, c.group == 0 ? fmt("%.3f", cold.median).c_str() : "",
               c.group == 0 ? fmt("%.3f", cold.min).c_str() : "", c.ntimed, bytes.c_str(),
               gbps.c_str(), hops.c_str(), nsh.c_str(), cyh.c_str(), cnsh.c_str(), mhz,
               chk.c_str());
        fflush(stdout);
        if (b.release)
            b.release();
        CK(cudaDeviceSynchronize());
    }
    fprintf(stderr, "clock probe at end: %.1f MHz\n", probe_mhz());
    return 0;
}

// One launch per case, nothing else launched: ncu's ID n is the n-th row.
static int mode_ncu(int group)
{
    printf("ncu_id,case,kernel,grid,block,params,check\n");
    int id = 0;
    for (Case &c : all_cases()) {
        if (c.group != group || !c.ncu)
            continue;
        fprintf(stderr, "profiling %s ...\n", c.name.c_str());
        Bench b = c.make();
        CK(cudaDeviceSynchronize());
        std::string chk = run_check(b);   // the one launch ncu sees
        printf("%d,%s,%s,%s,%s,%s,%s\n", id++, c.name.c_str(), c.kernel.c_str(),
               d3(b.grid).c_str(), d3(b.block).c_str(), c.params.c_str(), chk.c_str());
        fflush(stdout);
        if (b.release)
            b.release();
        CK(cudaDeviceSynchronize());
    }
    return 0;
}

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
    // DDR: two transfers per memory clock.
    printf("peak_dram_GBps_from_props: %.1f\n", 2.0 * mclk * 1e3 * (bus / 8.0) / 1e9);
    printf("l2CacheSize_bytes: %d\n", p.l2CacheSize);
    printf("persistingL2CacheMaxSize_bytes: %d\n", p.persistingL2CacheMaxSize);
    printf("totalGlobalMem_bytes: %zu\n", p.totalGlobalMem);
    printf("sharedMemPerMultiprocessor_bytes: %zu\n", p.sharedMemPerMultiprocessor);
    printf("sharedMemPerBlock_bytes: %zu\n", p.sharedMemPerBlock);
    printf("sharedMemPerBlockOptin_bytes: %zu\n", p.sharedMemPerBlockOptin);
    printf("regsPerMultiprocessor: %d\n", p.regsPerMultiprocessor);
    printf("regsPerBlock: %d\n", p.regsPerBlock);
    printf("maxThreadsPerMultiProcessor: %d\n", p.maxThreadsPerMultiProcessor);
    printf("maxBlocksPerMultiProcessor: %d\n", p.maxBlocksPerMultiProcessor);
    printf("warpSize: %d\n", p.warpSize);
    printf("l1_global_caching_supported: %d\n", p.globalL1CacheSupported);
    printf("eccEnabled: %d\n", p.ECCEnabled);
    printf("pciBusID: %d\n", p.pciBusID);
    return 0;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "time";
    if (!strcmp(mode, "list")) {
        for (Case &c : all_cases())
            printf("%s %d %s %s %s\n", c.name.c_str(), c.group, c.ncu ? "ncu" : "-",
                   c.kernel.c_str(), c.params.c_str());
        return 0;
    }
    if (!strcmp(mode, "props"))
        return mode_props();
    if (!strcmp(mode, "time"))
        return mode_time(argc > 2 ? argv[2] : nullptr);
    if (!strcmp(mode, "ncu-default"))
        return mode_ncu(0);
    if (!strcmp(mode, "ncu-extra"))
        return mode_ncu(1);
    fprintf(stderr, "usage: %s props|list|time [SUB]|ncu-default|ncu-extra\n", argv[0]);
    return 2;
}
