// streamlat.cu: per-access latency on an H100, unloaded and inside streams.
//
// Written to separate the hypotheses in validate/micro_sim/README.md.  At
// light load, the real grid-stride FP32 loops show three things:
//   - a lone load's trip is ~775 cycles where a one-thread chase takes 691;
//   - a second load in the trip adds ~95;
//   - a store adds ~94.
// Neither the existing measurements nor the simulator explain them.  Parts:
//
//   split    one thread chases a random cyclic permutation of 128-byte lines
//            (Sattolo) over 40 MiB, 256 MiB and 1 GiB and times every hop
//            with clock64: is DRAM latency bimodal (lines homed in the far
//            L2 partition slower), and by how much?          -> split.csv
//   stream   grid-stride FP32 loops, n = 2^25, 256 threads, 1/2/4/8 blocks
//            per SM, 5 timed launches each.  In every block, lane 0 of
//            warp 0 times its loads: clock64 before the load and after
//            the first use of the value, trips 64..127.  Variants:
//              load   acc += a[i]              one load, no store
//              copy   c[i] = a[i]              the store waits for the load
//              cpind  acc += a[i]; c[i] = 1    store independent of the load
//              dot    acc += a[i] * b[i]       two loads
//            -> stream.csv (bandwidth) and streamlat.csv (per-load samples)
//
// Leaves out: ncu counters (run.sh adds them when ncu is there), FP64,
// one-element-per-thread forms (../micro has them), anything above 64 warps
// per SM.
//
//   nvcc -O3 -arch=sm_90 -o streamlat streamlat.cu
//   ./streamlat run OUTDIR [split,stream]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#define CK(x)                                                                      \
    do {                                                                           \
        cudaError_t e_ = (x);                                                      \
        if (e_ != cudaSuccess) {                                                   \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
            exit(1);                                                               \
        }                                                                          \
    } while (0)

typedef unsigned long long u64;

static __device__ __forceinline__ u64 now()
{
    u64 t;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
    return t;
}

static FILE *open_csv(const char *dir, const char *name)
{
    std::string p = std::string(dir) + "/" + name;
    FILE *f = fopen(p.c_str(), "w");
    if (!f) {
        perror(p.c_str());
        exit(1);
    }
    return f;
}

// ------------------------------------------------------------------ split

__global__ void chase_samples(const u64 *start, long long warm, int nsamp, unsigned *lat,
                              unsigned *line, u64 *res)
{
    const u64 *p = start;
    for (long long k = 0; k < warm; k++)
        p = (const u64 *)*p;
    for (int k = 0; k < nsamp; k++) {
        u64 t0 = now();
        p = (const u64 *)*p;
        // The address depends on the load: the second stamp waits for it.
        if ((u64)p == 1)
            res[1] = 1;
        u64 t1 = now();
        lat[k] = (unsigned)(t1 - t0);
        line[k] = (unsigned)(((u64)p - (u64)start) / 128);
    }
    unsigned smid;
    asm("mov.u32 %0, %%smid;" : "=r"(smid));
    res[0] = (u64)p;
    res[4] = smid;
}

static void part_split(const char *dir)
{
    FILE *f = open_csv(dir, "split.csv");
    fprintf(f, "footprint_bytes,sample,cycles,line,smid\n");
    const long long MiB = 1 << 20;
    const int NS = 16384;
    unsigned *d_lat, *d_line;
    u64 *d_res;
    CK(cudaMalloc(&d_lat, NS * sizeof(unsigned)));
    CK(cudaMalloc(&d_line, NS * sizeof(unsigned)));
    CK(cudaMalloc(&d_res, 8 * sizeof(u64)));
    for (long long fp : {40 * MiB, 256 * MiB, 1024 * MiB}) {
        long long lines = fp / 128;
        std::vector<unsigned> next(lines);
        for (long long k = 0; k < lines; k++)
            next[k] = (unsigned)k;
        std::mt19937_64 rng(12345);
        for (long long k = lines - 1; k > 0; k--) {   // Sattolo: one cycle
            long long j = (long long)(rng() % (u64)k);
            std::swap(next[k], next[j]);
        }
        u64 *d_buf;
        CK(cudaMalloc(&d_buf, fp));
        std::vector<u64> host(lines * 16, 0);
        for (long long k = 0; k < lines; k++)
            host[k * 16] = (u64)(d_buf + (long long)next[k] * 16);
        CK(cudaMemcpy(d_buf, host.data(), fp, cudaMemcpyHostToDevice));
        chase_samples<<<1, 1>>>(d_buf, std::min(lines, 1LL << 20), NS, d_lat, d_line, d_res);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        std::vector<unsigned> lat(NS), line(NS);
        u64 h[8];
        CK(cudaMemcpy(lat.data(), d_lat, NS * sizeof(unsigned), cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(line.data(), d_line, NS * sizeof(unsigned), cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(h, d_res, sizeof h, cudaMemcpyDeviceToHost));
        for (int k = 0; k < NS; k++)
            fprintf(f, "%lld,%d,%u,%u,%u\n", fp, k, lat[k], line[k], (unsigned)h[4]);
        std::vector<unsigned> s = lat;
        std::sort(s.begin(), s.end());
        fprintf(stderr, "split %lld MiB (sm %u): p5 %u p25 %u p50 %u p75 %u p95 %u\n", fp / MiB,
                (unsigned)h[4], s[NS / 20], s[NS / 4], s[NS / 2], s[3 * NS / 4], s[19 * NS / 20]);
        CK(cudaFree(d_buf));
    }
    CK(cudaFree(d_lat));
    CK(cudaFree(d_line));
    CK(cudaFree(d_res));
    fclose(f);
}

// ----------------------------------------------------------------- stream

enum { V_LOAD, V_COPY, V_CPIND, V_DOT, NV };
static const char *vname[NV] = {"load", "copy", "cpind", "dot"};
static const int varrays[NV] = {1, 2, 2, 2};   // arrays moved per element

#define TRIP0 64
#define NTRIP 64

// One block's lane 0 of warp 0 records NTRIP latencies at lat[blockIdx.x *
// NTRIP ...]; everything else runs the plain loop.
template <int V>
__global__ void sl_kernel(const float *__restrict__ a, const float *__restrict__ b,
                          float *__restrict__ c, int n, unsigned *lat, float *sink)
{
    float acc = 0.f;
    int trip = 0;
    bool rec = threadIdx.x == 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += gridDim.x * blockDim.x, trip++) {
        u64 t0 = 0;
        if (rec)
            t0 = now();
        float v = a[i];
        if (V == V_DOT)
            v *= b[i];
        if (V == V_COPY)
            c[i] = v;
        else
            acc += v;
        if (V == V_CPIND)
            c[i] = 1.f;
        if (rec && trip >= TRIP0 && trip < TRIP0 + NTRIP) {
            if (v == -12345.f)      // the stamp after the value's first use
                sink[1] = v;
            lat[blockIdx.x * NTRIP + trip - TRIP0] = (unsigned)(now() - t0);
        }
    }
    if (acc == -12345.f)
        sink[0] = acc;
}

typedef void (*slk)(const float *, const float *, float *, int, unsigned *, float *);

static void part_stream(const char *dir, int sms)
{
    FILE *fs = open_csv(dir, "stream.csv");
    FILE *fl = open_csv(dir, "streamlat.csv");
    fprintf(fs, "variant,n,block,blocks_per_sm,grid,runs,median_us,min_us,max_us,GBps_median,"
                "lat_p10,lat_p50,lat_p90,lat_max\n");
    fprintf(fl, "variant,blocks_per_sm,block_id,trip,cycles\n");
    const int n = 1 << 25, threads = 256, runs = 5;
    slk kern[NV] = {sl_kernel<V_LOAD>, sl_kernel<V_COPY>, sl_kernel<V_CPIND>, sl_kernel<V_DOT>};
    float *a, *b, *c, *sink;
    unsigned *d_lat;
    CK(cudaMalloc(&a, n * sizeof(float)));
    CK(cudaMalloc(&b, n * sizeof(float)));
    CK(cudaMalloc(&c, n * sizeof(float)));
    CK(cudaMalloc(&sink, 16 * sizeof(float)));
    CK(cudaMemset(a, 0, n * sizeof(float)));
    CK(cudaMemset(b, 0, n * sizeof(float)));
    CK(cudaMalloc(&d_lat, (size_t)sms * 8 * NTRIP * sizeof(unsigned)));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    for (int v = 0; v < NV; v++)
        for (int mult : {1, 2, 4, 8}) {
            int grid = sms * mult;
            std::vector<float> us;
            kern[v]<<<grid, threads>>>(a, b, c, n, d_lat, sink);   // warm-up
            CK(cudaDeviceSynchronize());
            for (int r = 0; r < runs; r++) {
                CK(cudaEventRecord(e0));
                kern[v]<<<grid, threads>>>(a, b, c, n, d_lat, sink);
                CK(cudaEventRecord(e1));
                CK(cudaEventSynchronize(e1));
                float ms;
                CK(cudaEventElapsedTime(&ms, e0, e1));
                us.push_back(ms * 1000.f);
            }
            CK(cudaGetLastError());
            std::sort(us.begin(), us.end());
            std::vector<unsigned> lat((size_t)grid * NTRIP);
            CK(cudaMemcpy(lat.data(), d_lat, lat.size() * sizeof(unsigned),
                          cudaMemcpyDeviceToHost));
            for (int blk = 0; blk < grid; blk++)
                for (int t = 0; t < NTRIP; t++)
                    fprintf(fl, "%s,%d,%d,%d,%u\n", vname[v], mult, blk, TRIP0 + t,
                            lat[(size_t)blk * NTRIP + t]);
            std::vector<unsigned> s = lat;
            std::sort(s.begin(), s.end());
            size_t m = s.size();
            double med = us[runs / 2];
            double gbps = (double)varrays[v] * 4.0 * n / med / 1e3;
            fprintf(fs, "%s,%d,%d,%d,%d,%d,%.3f,%.3f,%.3f,%.1f,%u,%u,%u,%u\n", vname[v], n,
                    threads, mult, grid, runs, med, us[0], us[runs - 1], gbps, s[m / 10],
                    s[m / 2], s[9 * m / 10], s[m - 1]);
            fflush(fs);
            fprintf(stderr, "stream %s x%d: %.1f GB/s, load latency p10 %u p50 %u p90 %u\n",
                    vname[v], mult, gbps, s[m / 10], s[m / 2], s[9 * m / 10]);
        }
    fclose(fs);
    fclose(fl);
    CK(cudaFree(a));
    CK(cudaFree(b));
    CK(cudaFree(c));
    CK(cudaFree(sink));
    CK(cudaFree(d_lat));
}

int main(int argc, char **argv)
{
    if (argc < 3 || strcmp(argv[1], "run") != 0) {
        fprintf(stderr, "usage: %s run OUTDIR [split,stream]\n", argv[0]);
        return 2;
    }
    std::string parts = argc > 3 ? argv[3] : "split,stream";
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    fprintf(stderr, "%s, %d SMs\n", p.name, p.multiProcessorCount);
    if (parts.find("split") != std::string::npos)
        part_split(argv[2]);
    if (parts.find("stream") != std::string::npos)
        part_stream(argv[2], p.multiProcessorCount);
    return 0;
}
