// loaded.cu: the H100 memory system under load, ground truth for calibrating
// warpsim's queueing model (loaded latency, memory-level parallelism, DRAM
// efficiency by access pattern, L2 bandwidth).
//
// Build:  nvcc -O3 -arch=sm_90 -o loaded loaded.cu         (run.sh does this)
// Run:    loaded props                 device properties, "key: value" lines
//         loaded run OUTDIR [PARTS]    PARTS: comma-separated of mlp,pattern,l2bw
//                                      (default all three); CSVs to OUTDIR,
//                                      progress to stderr.  LOADED_DEADLINE_S
//                                      (default 200) bounds the run: points
//                                      that would start after it are skipped
//                                      (logged, row with check=skipped).
//         loaded ncuprobe              one launch of a few representative
//                                      cases, for `ncu -k regex:...` (DRAM and
//                                      L2 sectors actually moved, L2 hit rate)
//
// What it measures:
//  mlp.csv     Little's-law curve.  Independent pointer chases run at once,
//              one block per SM (1 SM, or all SMs; 62 generator warps = two
//              blocks per SM).  In each block warp 0, lane 0 is the PROBE (one
//              chain, one load at a time: the latency of a single load under
//              the load the others make) and warps 1..W are GENERATORS with L
//              lanes active (1 or 32) and K chains per thread (1, 2, 4, 8):
//              W*L*K + 1 loads outstanding per SM.  All chains are points of
//              ONE random cyclic permutation (Sattolo) of a buffer's nodes,
//              spread evenly along the cycle, so every chaser walks its own
//              random sequence of lines.  Two buffers: "dram", 2 GiB with one
//              node per 128-byte line (16 Mi nodes, 40x the L2); "l2", 16 MiB
//              with one node per 32-byte sector (512 Ki nodes; pre-read by
//              every SM before each launch so that it sits in L2; before a
//              "dram" launch 256 MiB of another buffer is read instead).
//              Loads are ld.global.cg (L1 bypassed).  Fixed time window: thread
//              (0,0) stamps %globaltimer, every thread waits for the stamp,
//              warms up until stamp + 1 ms and counts rounds until stamp +
//              5 ms; clock64 and %globaltimer around the counted part give
//              cycles per hop (probe) / per round of K loads (generators, the
//              slowest of the warp's loads) and each thread's rate; bandwidth
//              = sum of rates x 32 B (each hop reads one sector).  3 launches
//              per point, the median-bandwidth one reported.  Then a subset
//              with cudaLimitMaxL2FetchGranularity = 32 (default 64).
//              Dynamic shared memory (120 KiB; 100 KiB for two blocks per SM)
//              is reserved, unused, so that no SM can hold another block; the
//              SM ids seen are recorded.
//  pattern.csv DRAM bandwidth by access pattern, 16-byte ld.global.cg loads
//              (st.global.v4 stores), grid-stride (SMs x 4 blocks x 512
//              threads, 4 loads in flight per thread), over a 4 GiB array read
//              exactly once per launch: units of U bytes read whole, laid out
//              (a) strided: consecutive units S bytes apart, in S/U passes
//              (pass p reads offset p*U of every S-byte block, so every unit
//              is read once and nothing is re-read while in L2), (b) random:
//              units in the order of a bijective hash of the unit index (each
//              unit exactly once).  Also write-only and copy (4 GiB -> 4 GiB)
//              sequential, random writes, random reads over 1, 2 and 8 GiB,
//              and a subset with cudaLimitMaxL2FetchGranularity = 32.
//              useful = bytes the kernel reads/writes; sector = 32-byte
//              sectors touched x 32 (differs only for U = 16).
//  l2bw.csv    read bandwidth with the footprint inside L2: F = 2..48 MiB
//              (and 64, 128 MiB for DRAM), all SMs, 16-byte ld.global.cg,
//              about 4 GiB read per launch.  "drift": every thread walks the
//              footprint with a grid stride and wraps, so each SM reads all
//              of it over the launch; "fixed": after each sweep every thread
//              returns to its start (each SM keeps to its own slice).
//              "sms_l2" / "sms_dram": one block of 1024 threads on each of
//              1..132 SMs, 16 MiB / 2 GiB footprint.
//
// Every timed launch is queued behind a ~100 us one-thread spin kernel (so
// the events time the kernel, not the host's launch), 1 warm-up launch, then
// `runs` launches each between its own cudaEvent pair; median and best kept.
// The SM clock is probed (clock64 vs %globaltimer and vs cudaEvents) before
// and after each part.  Clocks are not locked.
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

typedef unsigned long long u64;

// ---------------------------------------------------------------- helpers

__global__ void spin_wait(long long cycles)
{
    long long c0 = clock64();
    while (clock64() - c0 < cycles) {
    }
}

__device__ __forceinline__ u64 gtimer()
{
    u64 t;
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

__global__ void clockprobe(u64 spin, u64 *out)
{
    u64 t0 = gtimer();
    long long c0 = clk(), c1;
    do {
        c1 = clk();
    } while ((u64)(c1 - c0) < spin);
    u64 t1 = gtimer();
    out[0] = (u64)(c1 - c0);
    out[1] = t1 - t0;
}

static u64 *probe_buf;
static cudaEvent_t E0, E1;
static const long long SPIN_CYCLES = 200000; // ~100 us at 1980 MHz
static const double PEAK_GBPS = 3352.0;      // 2 x 2619 MHz x 640 B (H100 SXM5 80GB)

struct Probe {
    double mhz_gt, mhz_ev;
};

// clock64 against %globaltimer inside the kernel, and against the launch's
// cudaEvent time (~10 ms spin).
static Probe probe(u64 spin = 20000000ULL)
{
    CK(cudaEventRecord(E0));
    clockprobe<<<1, 1>>>(spin, probe_buf);
    CK(cudaEventRecord(E1));
    CK(cudaEventSynchronize(E1));
    CK(cudaGetLastError());
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, E0, E1));
    u64 h[2];
    CK(cudaMemcpy(h, probe_buf, sizeof h, cudaMemcpyDeviceToHost));
    Probe p;
    p.mhz_gt = h[1] ? (double)h[0] * 1000.0 / (double)h[1] : 0.0;
    p.mhz_ev = ms > 0 ? (double)h[0] / (ms * 1000.0) : 0.0;
    return p;
}

static double now_s()
{
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double T0, DEADLINE;
static double elapsed() { return now_s() - T0; }

static void log_probe(const char *what)
{
    Probe p = probe();
    fprintf(stderr, "[loaded +%.1fs] clock probe %s: %.1f MHz (clock64/globaltimer), %.1f MHz (clock64/cudaEvent)\n",
            elapsed(), what, p.mhz_gt, p.mhz_ev);
}

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

static u64 rng = 0x9E3779B97F4A7C15ull;
static inline u64 xrand()
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

// Reads `bytes` with ld.global.cg from every block (grid-stride within the
// block): puts a buffer in L2 (each SM touches all of it) or, on another
// buffer, evicts what the previous point left there.
__global__ void touch(const uint4 *__restrict__ p, long long n16, u64 *sink)
{
    uint32_t acc = 0;
#pragma unroll 4
    for (long long i = threadIdx.x; i < n16; i += blockDim.x) {
        uint4 v = __ldcg(p + i);
        acc ^= v.x ^ v.w;
    }
    if (acc == 0x9E3779B9u)
        sink[0] = acc;
}

// Grid-stride read of `n16` pieces (each read once): the L2 flush.
__global__ void sweep(const uint4 *__restrict__ p, long long n16, u64 *sink)
{
    uint32_t acc = 0;
#pragma unroll 4
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n16;
         i += (long long)gridDim.x * blockDim.x) {
        uint4 v = __ldcg(p + i);
        acc ^= v.x ^ v.w;
    }
    if (acc == 0x9E3779B9u)
        sink[0] = acc;
}

// ---------------------------------------------------------------- mlp

// buf[i * stride_words] = &buf[next[i] * stride_words]
__global__ void build_chain(u64 *buf, const unsigned *next, long long nodes, int stride_words)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < nodes;
         i += (long long)gridDim.x * blockDim.x)
        buf[i * stride_words] = (u64)(buf + (long long)next[i] * stride_words);
}

// K independent chases in a fixed time window.  Chunks of 4 rounds (each
// round: one dependent load per chain) until %globaltimer passes t_start
// (warm-up), then counted chunks until it passes t_end.  o: [0] cycles of
// the counted part, [1] its ns, [2] rounds | smid << 32, [3] 1 if every final
// pointer is a node of the buffer.
template <int K>
__device__ __forceinline__ void win_chase(const u64 *__restrict__ starts, u64 t_start, u64 t_end,
                                          u64 lo, u64 hi, u64 *__restrict__ o)
{
    const u64 *p[K];
#pragma unroll
    for (int k = 0; k < K; k++)
        p[k] = (const u64 *)starts[k];
#pragma unroll 1
    do {
#pragma unroll
        for (int u = 0; u < 4; u++)
#pragma unroll
            for (int k = 0; k < K; k++)
                p[k] = (const u64 *)__ldcg(p[k]);
    } while (gtimer() < t_start);
    // The warm-up's loads must land before the clock starts.
    u64 x = 0;
#pragma unroll
    for (int k = 0; k < K; k++)
        x ^= (u64)p[k];
    if (x == 1ull)
        o[3] = 7;
    // c0 and g0 go to memory, not registers, across the loop (K = 8 would
    // otherwise spill under the 32-register bound).
    u64 g0 = gtimer();
    long long c0 = clk();
    o[0] = (u64)c0;
    o[1] = g0;
    unsigned n = 0;
#pragma unroll 1
    do {
#pragma unroll
        for (int u = 0; u < 4; u++)
#pragma unroll
            for (int k = 0; k < K; k++)
                p[k] = (const u64 *)__ldcg(p[k]);
        n += 4;
    } while (gtimer() < t_end);
    x = 0;
#pragma unroll
    for (int k = 0; k < K; k++)
        x ^= (u64)p[k];
    if (x == 1ull)
        o[3] = 7;
    long long c1 = clk();
    u64 g1 = gtimer();
    bool ok = true;
#pragma unroll
    for (int k = 0; k < K; k++)
        ok = ok && (u64)p[k] >= lo && (u64)p[k] < hi;
    o[0] = (u64)c1 - o[0];
    o[1] = g1 - o[1];
    o[2] = (u64)n | ((u64)smid() << 32);
    o[3] = ok ? 1 : 0;
}

// Warp 0 of each block: the probe, lane 0 only, one chain (its latency is
// the unqueued-by-its-own-warp latency of one load under the load the others
// make).  Warps 1..: generators, `lanes` lanes each with K chains.  Thread
// (0,0) stamps `base` (zeroed by the host); every thread waits for it, so
// all windows are [base + warm_ns, base + warm_ns + win_ns] (all blocks are
// resident: at most one or two per SM).
// K = 8 is given 64 registers (one block per SM only: it is not run with
// 62 generator warps), the others 32 (two blocks of 1024 threads per SM).
template <int K>
__global__ void __launch_bounds__(1024, K == 8 ? 1 : 2)
    chase_win(const u64 *__restrict__ starts, const u64 *__restrict__ pstarts, int lanes,
              u64 warm_ns, u64 win_ns, u64 lo, u64 hi, u64 *__restrict__ out, u64 *__restrict__ pout,
              u64 *base)
{
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        atomicExch(base, gtimer());
    }
    u64 b, t_enter = gtimer();
    while ((b = *(volatile u64 *)base) == 0) {
        if (gtimer() - t_enter > 50000000ull) { // never expected: fall back to own time
            b = t_enter;
            break;
        }
    }
    u64 t_start = b + warm_ns, t_end = t_start + win_ns;
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    if (warp == 0) {
        if (lane == 0)
            win_chase<1>(pstarts + blockIdx.x, t_start, t_end, lo, hi, pout + blockIdx.x * 4);
        return;
    }
    if (lane >= lanes)
        return;
    int gw = (blockDim.x >> 5) - 1;
    long long tid = ((long long)blockIdx.x * gw + (warp - 1)) * lanes + lane;
    win_chase<K>(starts + tid * K, t_start, t_end, lo, hi, out + tid * 4);
}

typedef void (*WinKernel)(const u64 *, const u64 *, int, u64, u64, u64, u64, u64 *, u64 *, u64 *);
static WinKernel win_kernel(int K)
{
    switch (K) {
    case 1: return chase_win<1>;
    case 2: return chase_win<2>;
    case 4: return chase_win<4>;
    default: return chase_win<8>;
    }
}

struct Chain {
    const char *name;
    u64 *buf;
    long long bytes, nodes;
    int node_bytes;
    std::vector<unsigned> order; // the cycle: order[0] -> order[1] -> ... -> order[0]
};

static void make_chain(Chain &c, unsigned *d_next)
{
    long long n = c.nodes;
    c.order.resize(n);
    for (long long i = 0; i < n; i++)
        c.order[i] = (unsigned)i;
    for (long long i = n - 1; i > 0; i--) { // Sattolo: j < i gives one cycle
        long long j = (long long)(xrand() % (u64)i);
        std::swap(c.order[i], c.order[j]);
    }
    std::vector<unsigned> next(n);
    for (long long i = 0; i < n; i++)
        next[c.order[i]] = c.order[(i + 1) % n];
    CK(cudaMemcpy(d_next, next.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
    build_chain<<<1024, 256>>>(c.buf, d_next, n, c.node_bytes / 8);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
}

struct MlpPt {
    int sms, bps, warps, lanes, K; // warps: generator warps per SM; bps: blocks per SM
};

struct MlpRes {
    double probe_lat, probe_min, probe_max;               // cycles per hop of the probes
    double gen_mean, gen_p10, gen_p50, gen_p90, gen_max;  // cycles per round of the generators
    double bw, mhz, ev_ms;
    long long loads;
    int sms_used, max_blocks_sm;
    bool ok;
};

static u64 *d_sink, *d_base;
static int L2_FETCH_GRAN = -1; // cudaLimitMaxL2FetchGranularity in force

struct MlpBufs {
    u64 *starts, *pstarts, *out, *pout;
    std::vector<u64> h_out, h_pout, h_starts;
};

static void mlp_bufs(MlpBufs &m, int nsm)
{
    long long maxthr = (long long)nsm * 2048;
    CK(cudaMalloc(&m.starts, maxthr * 8 * sizeof(u64)));
    CK(cudaMalloc(&m.pstarts, nsm * 2 * sizeof(u64)));
    CK(cudaMalloc(&m.out, maxthr * 4 * sizeof(u64)));
    CK(cudaMalloc(&m.pout, nsm * 2 * 4 * sizeof(u64)));
    m.h_out.resize(maxthr * 4);
    m.h_pout.resize(nsm * 2 * 4);
    for (int K : {1, 2, 4, 8})
        CK(cudaFuncSetAttribute((const void *)win_kernel(K), cudaFuncAttributeMaxDynamicSharedMemorySize,
                                120 * 1024));
}

// Chaser i of C + P starts at position i * N / (C + P) of the cycle; the
// last P are the probes.
static void mlp_starts(MlpBufs &m, const Chain &c, long long C, long long P)
{
    long long tot = C + P;
    m.h_starts.resize(tot);
    for (long long i = 0; i < tot; i++)
        m.h_starts[i] = (u64)(c.buf + (u64)c.order[(u64)i * c.nodes / tot] * (c.node_bytes / 8));
    if (C)
        CK(cudaMemcpy(m.starts, m.h_starts.data(), C * sizeof(u64), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(m.pstarts, m.h_starts.data() + C, P * sizeof(u64), cudaMemcpyHostToDevice));
}

static void mlp_launch(MlpBufs &m, const Chain &c, const MlpPt &pt, u64 warm_ns, u64 win_ns)
{
    int blocks = pt.sms * pt.bps;
    int gw = pt.warps / pt.bps;
    size_t shm = pt.bps == 1 ? 120 * 1024 : 100 * 1024;
    CK(cudaMemsetAsync(d_base, 0, sizeof(u64)));
    win_kernel(pt.K)<<<blocks, (gw + 1) * 32, shm>>>(m.starts, m.pstarts, pt.lanes, warm_ns, win_ns,
                                                      (u64)c.buf, (u64)c.buf + c.bytes, m.out, m.pout,
                                                      d_base);
}

static double pct(std::vector<double> &v, double q)
{
    if (v.empty())
        return 0;
    size_t i = (size_t)std::min((double)v.size() - 1, std::floor(q * (v.size() - 1) + 0.5));
    return v[i];
}

static MlpRes mlp_once(MlpBufs &m, const Chain &c, const MlpPt &pt, const uint4 *flush,
                       long long flush_bytes, u64 warm_ns, u64 win_ns, int nsm_total)
{
    int blocks = pt.sms * pt.bps;
    int gw = pt.warps / pt.bps;
    long long nthr = (long long)blocks * gw * pt.lanes;
    // Before the launch: the L2 buffer is read by every SM (into L2); for the
    // DRAM one, 256 MiB of another buffer evicts what the last point left.
    if (c.bytes < flush_bytes)
        touch<<<nsm_total, 1024>>>((const uint4 *)c.buf, c.bytes / 16, d_sink);
    else
        sweep<<<nsm_total * 4, 512>>>(flush, flush_bytes / 16, d_sink);
    CK(cudaGetLastError());
    spin_wait<<<1, 1>>>(SPIN_CYCLES);
    CK(cudaEventRecord(E0));
    mlp_launch(m, c, pt, warm_ns, win_ns);
    CK(cudaEventRecord(E1));
    CK(cudaEventSynchronize(E1));
    CK(cudaGetLastError());
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, E0, E1));
    if (nthr)
        CK(cudaMemcpy(m.h_out.data(), m.out, nthr * 4 * sizeof(u64), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(m.h_pout.data(), m.pout, blocks * 4 * sizeof(u64), cudaMemcpyDeviceToHost));
    MlpRes r;
    r.ok = true;
    r.ev_ms = ms;
    double sum_rate = 0, sum_cyc = 0, sum_ns = 0;
    long long loads = 0;
    std::vector<double> gl, pl;
    std::vector<int> per_sm(1024, 0);
    for (int b = 0; b < blocks; b++) {
        const u64 *o = &m.h_pout[b * 4];
        double cyc = (double)o[0], ns = (double)o[1];
        unsigned n = (unsigned)(o[2] & 0xffffffffu);
        per_sm[(o[2] >> 32) & 1023]++;
        pl.push_back(n ? cyc / n : 0);
        if (ns > 0)
            sum_rate += n * 32.0 / ns;
        loads += n;
        sum_cyc += cyc;
        sum_ns += ns;
        r.ok = r.ok && o[3] == 1;
    }
    for (long long t = 0; t < nthr; t++) {
        const u64 *o = &m.h_out[t * 4];
        double cyc = (double)o[0], ns = (double)o[1];
        unsigned n = (unsigned)(o[2] & 0xffffffffu);
        gl.push_back(n ? cyc / n : 0);
        if (ns > 0)
            sum_rate += (double)pt.K * n * 32.0 / ns; // GB/s = B/ns
        loads += (long long)pt.K * n;
        sum_cyc += cyc;
        sum_ns += ns;
        r.ok = r.ok && o[3] == 1;
    }
    std::sort(pl.begin(), pl.end());
    std::sort(gl.begin(), gl.end());
    double s = 0;
    for (double x : pl)
        s += x;
    r.probe_lat = s / pl.size();
    r.probe_min = pl.front();
    r.probe_max = pl.back();
    s = 0;
    for (double x : gl)
        s += x;
    r.gen_mean = gl.empty() ? 0 : s / gl.size();
    r.gen_p10 = pct(gl, 0.1);
    r.gen_p50 = pct(gl, 0.5);
    r.gen_p90 = pct(gl, 0.9);
    r.gen_max = gl.empty() ? 0 : gl.back();
    r.bw = sum_rate;
    r.loads = loads;
    r.mhz = sum_ns > 0 ? sum_cyc * 1e3 / sum_ns : 0;
    r.sms_used = 0;
    r.max_blocks_sm = 0;
    for (int sm = 0; sm < 1024; sm++) {
        if (per_sm[sm])
            r.sms_used++;
        r.max_blocks_sm = std::max(r.max_blocks_sm, per_sm[sm]);
    }
    return r;
}

static FILE *mlp_csv(const char *dir)
{
    FILE *f = open_csv(dir, "mlp.csv");
    fprintf(f, "chain,footprint_bytes,node_bytes,l2_fetch_gran,sms,blocks_per_sm,gen_warps_per_sm,lanes,"
               "chains_per_thread,outstanding_per_sm,outstanding_total,warm_us,window_us,reps,"
               "probe_lat_cycles,probe_lat_ns,probe_lat_min_sm,probe_lat_max_sm,probe_lat_rep_min,"
               "probe_lat_rep_max,gen_round_cycles_mean,gen_round_p10,gen_round_p50,gen_round_p90,"
               "gen_round_max,bw_sector_GBps,pct_peak,sectors_per_clk_per_sm,little_outstanding_per_sm,"
               "sm_mhz,event_ms,sms_used,max_blocks_per_sm,check\n");
    return f;
}

static void mlp_point(FILE *f, MlpBufs &m, const Chain &c, const MlpPt &pt, const uint4 *flush,
                      long long flush_bytes, int nsm, int reps)
{
    const u64 WARM_NS = 1000000, WIN_NS = 4000000;
    long long per_sm = (long long)pt.warps * pt.lanes * pt.K + pt.bps;
    long long C = (long long)pt.sms * pt.warps * pt.lanes * pt.K, P = (long long)pt.sms * pt.bps;
    if (elapsed() + reps * 0.012 > DEADLINE) {
        fprintf(stderr, "[loaded +%.1fs] SKIP mlp %s sms=%d warps=%d lanes=%d K=%d (deadline)\n", elapsed(),
                c.name, pt.sms, pt.warps, pt.lanes, pt.K);
        fprintf(f, "%s,%lld,%d,%d,%d,%d,%d,%d,%d,%lld,%lld,,,0,,,,,,,,,,,,,,,,,,,,skipped\n", c.name, c.bytes,
                c.node_bytes, L2_FETCH_GRAN, pt.sms, pt.bps, pt.warps, pt.lanes, pt.K, per_sm, C + P);
        return;
    }
    mlp_starts(m, c, C, P);
    std::vector<MlpRes> rs;
    for (int r = 0; r < reps; r++)
        rs.push_back(mlp_once(m, c, pt, flush, flush_bytes, WARM_NS, WIN_NS, nsm));
    double pmin = 1e30, pmax = 0;
    bool ok = true;
    for (auto &x : rs) {
        pmin = std::min(pmin, x.probe_lat);
        pmax = std::max(pmax, x.probe_lat);
        ok = ok && x.ok;
    }
    std::sort(rs.begin(), rs.end(), [](const MlpRes &a, const MlpRes &b) { return a.bw < b.bw; });
    const MlpRes &x = rs[rs.size() / 2]; // the median-bandwidth launch
    double lat_ns = x.mhz > 0 ? x.probe_lat * 1e3 / x.mhz : 0;
    double spc = x.bw / 32.0 / (x.mhz * 1e-3) / pt.sms; // sectors per SM clock per SM
    double little = x.bw * lat_ns / 32.0 / pt.sms;
    bool gen = pt.warps > 0;
    char gbuf[256] = ",,,,";
    if (gen)
        snprintf(gbuf, sizeof gbuf, "%.1f,%.1f,%.1f,%.1f,%.1f", x.gen_mean, x.gen_p10, x.gen_p50, x.gen_p90,
                 x.gen_max);
    fprintf(f, "%s,%lld,%d,%d,%d,%d,%d,%d,%d,%lld,%lld,%.0f,%.0f,%d,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%s,%.1f,%.2f,"
               "%.3f,%.1f,%.1f,%.3f,%d,%d,%s\n",
            c.name, c.bytes, c.node_bytes, L2_FETCH_GRAN, pt.sms, pt.bps, pt.warps, gen ? pt.lanes : 0,
            gen ? pt.K : 0, per_sm, C + P, WARM_NS / 1e3, WIN_NS / 1e3, reps, x.probe_lat, lat_ns, x.probe_min,
            x.probe_max, pmin, pmax, gbuf, x.bw, 100.0 * x.bw / PEAK_GBPS, spc, little, x.mhz, x.ev_ms,
            x.sms_used, x.max_blocks_sm, ok ? "ok" : "BAD");
    fflush(f);
    fprintf(stderr, "[loaded +%.1fs] mlp %-4s g%-3d sms=%3d W=%2d L=%2d K=%d out/SM=%4lld: probe %7.1f cyc, gen p50 %7.1f, %7.1f GB/s (%.3f sec/clk/SM), little %.0f/SM, %.0f MHz, %d SMs, %s\n",
            elapsed(), c.name, L2_FETCH_GRAN, pt.sms, pt.warps, pt.lanes, pt.K, per_sm, x.probe_lat, x.gen_p50,
            x.bw, spc, little, x.mhz, x.sms_used, ok ? "ok" : "BAD");
}

static std::vector<MlpPt> mlp_points(int nsm)
{
    std::vector<MlpPt> pts;
    for (int sms : {nsm, 1}) {
        pts.push_back({sms, 1, 0, 1, 1}); // probe alone
        for (int lanes : {1, 32})
            for (int warps : {1, 2, 4, 8, 16, 31, 62})
                for (int K : {1, 2, 4, 8}) {
                    if (warps == 62 && (sms == 1 || K == 8))
                        continue; // two blocks could land on two SMs; K = 8 fits one block per SM
                    if ((long long)warps * lanes * K > 2048)
                        continue;
                    pts.push_back({sms, warps == 62 ? 2 : 1, warps, lanes, K});
                }
    }
    return pts;
}

static void part_mlp(const char *dir, int nsm, Chain &dram, Chain &l2, const uint4 *flush,
                     long long flush_bytes, MlpBufs &m, FILE *f)
{
    for (Chain *cp : {&dram, &l2})
        for (const MlpPt &pt : mlp_points(nsm))
            mlp_point(f, m, *cp, pt, flush, flush_bytes, nsm, 3);
    (void)dir;
}

// ---------------------------------------------------------------- patterns

struct Pat {
    const char *name;
    int op;         // 0 read, 1 write, 2 copy
    int random;     // 0 strided, 1 random (bijective hash of the unit index)
    long long U, S; // unit bytes, stride bytes (strided)
    long long array; // array bytes read (0: the default, 4 GiB)
};

static inline int ilog2(u64 x)
{
    int l = 0;
    while ((1ull << l) < x)
        l++;
    return l;
}

// Unit u -> byte offset.  Strided: pass = u >> lm, i = u & (m - 1), offset =
// i * S + pass * U.  Random: a bijection on `bits` bits (odd multiplies and
// xorshifts), times U.
struct Map {
    int random, lm, ls, lu, bits;
    u64 mask;
};

__host__ __device__ __forceinline__ u64 unit_off(const Map &m, u64 u)
{
    if (m.random) {
        u64 x = (u + 0x2545F4914F6CDD1Dull) & m.mask;
        x = (x * 0x9E3779B97F4A7C15ull) & m.mask;
        x ^= x >> ((m.bits + 1) / 2);
        x = (x * 0xBF58476D1CE4E5B9ull) & m.mask;
        x ^= x >> ((m.bits + 2) / 3);
        x = (x * 0x94D049BB133111EBull) & m.mask;
        x ^= x >> ((m.bits + 1) / 2);
        return x << m.lu;
    }
    u64 pass = u >> m.lm, i = u & ((1ull << m.lm) - 1);
    return (i << m.ls) + (pass << m.lu);
}

// Pieces of 16 B: piece q = unit (q >> (lu - 4)) + sub-piece (q & (g - 1)).
template <int OP>
__global__ void __launch_bounds__(512, 4)
    pat_kernel(const uint4 *__restrict__ src, uint4 *__restrict__ dst, u64 npieces, Map m, u64 *sink)
{
    // 4 pieces in flight per thread (2 for copy: 2 loads + 2 stores, no spills)
    constexpr int UN = OP == 2 ? 2 : 4;
    const u64 T = (u64)gridDim.x * blockDim.x;
    u64 q = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    int lg = m.lu - 4;
    u64 gm = (1ull << lg) - 1;
    uint32_t acc = 0;
    for (; q < npieces; q += UN * T) {
        u64 off[UN];
        bool in[UN];
#pragma unroll
        for (int j = 0; j < UN; j++) {
            u64 qq = q + j * T;
            in[j] = qq < npieces;
            off[j] = (unit_off(m, qq >> lg) >> 4) + (qq & gm);
        }
        if (OP == 0) {
            uint4 v[4];
#pragma unroll
            for (int j = 0; j < 4; j++)
                if (in[j])
                    v[j] = __ldcg(src + off[j]);
#pragma unroll
            for (int j = 0; j < 4; j++)
                if (in[j])
                    acc ^= v[j].x ^ v[j].w;
        } else if (OP == 1) {
#pragma unroll
            for (int j = 0; j < 4; j++)
                if (in[j])
                    dst[off[j]] = make_uint4((unsigned)off[j], 1u, 2u, (unsigned)(off[j] >> 32));
        } else {
            uint4 v[UN];
#pragma unroll
            for (int j = 0; j < UN; j++)
                if (in[j])
                    v[j] = __ldcg(src + off[j]);
#pragma unroll
            for (int j = 0; j < UN; j++)
                if (in[j])
                    dst[off[j]] = v[j];
        }
    }
    if (acc == 0x9E3779B9u)
        sink[1] = acc;
}

__global__ void init_array(uint4 *a, u64 n16, unsigned salt)
{
    for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < n16; i += (u64)gridDim.x * blockDim.x)
        a[i] = make_uint4((unsigned)i, (unsigned)(i >> 32) ^ salt, (unsigned)i * 2654435761u, salt);
}

static Map make_map(const Pat &p, u64 array_bytes)
{
    Map m;
    m.random = p.random;
    m.lu = ilog2(p.U);
    m.ls = ilog2(p.S);
    m.lm = ilog2(array_bytes / p.S); // units per pass
    m.bits = ilog2(array_bytes / p.U);
    m.mask = (1ull << m.bits) - 1;
    return m;
}

static void launch_pat(const Pat &p, const Map &m, int grid, const uint4 *src, uint4 *dst, u64 npieces)
{
    if (p.op == 0)
        pat_kernel<0><<<grid, 512>>>(src, dst, npieces, m, d_sink);
    else if (p.op == 1)
        pat_kernel<1><<<grid, 512>>>(src, dst, npieces, m, d_sink);
    else
        pat_kernel<2><<<grid, 512>>>(src, dst, npieces, m, d_sink);
}

static std::vector<Pat> patterns()
{
    const long long KiB = 1024, GiB = 1ll << 30;
    return {
        {"seq", 0, 0, 16, 16, 0},
        {"sector_s64", 0, 0, 32, 64, 0},
        {"sector_s128", 0, 0, 32, 128, 0},
        {"sector_s256", 0, 0, 32, 256, 0},
        {"line_s256", 0, 0, 128, 256, 0},
        {"line_s512", 0, 0, 128, 512, 0},
        {"line_s1K", 0, 0, 128, 1 * KiB, 0},
        {"line_s2K", 0, 0, 128, 2 * KiB, 0},
        {"line_s4K", 0, 0, 128, 4 * KiB, 0},
        {"line_s16K", 0, 0, 128, 16 * KiB, 0},
        {"line_s64K", 0, 0, 128, 64 * KiB, 0},
        {"rand16", 0, 1, 16, 16, 0},
        {"rand32", 0, 1, 32, 32, 0},
        {"rand64", 0, 1, 64, 64, 0},
        {"rand128", 0, 1, 128, 128, 0},
        {"rand256", 0, 1, 256, 256, 0},
        {"rand512", 0, 1, 512, 512, 0},
        {"rand1K", 0, 1, 1 * KiB, 1 * KiB, 0},
        {"rand4K", 0, 1, 4 * KiB, 4 * KiB, 0},
        {"write_seq", 1, 0, 16, 16, 0},
        {"write_rand32", 1, 1, 32, 32, 0},
        {"write_rand128", 1, 1, 128, 128, 0},
        {"copy_seq", 2, 0, 16, 16, 0},
        // the array size (pages touched) for random accesses
        {"seq", 0, 0, 16, 16, 8 * GiB},
        {"rand32", 0, 1, 32, 32, 1 * GiB},
        {"rand32", 0, 1, 32, 32, 2 * GiB},
        {"rand32", 0, 1, 32, 32, 8 * GiB},
        {"rand64", 0, 1, 64, 64, 1 * GiB},
        {"rand128", 0, 1, 128, 128, 1 * GiB},
        {"rand128", 0, 1, 128, 128, 2 * GiB},
        {"rand128", 0, 1, 128, 128, 8 * GiB},
    };
}

// The subset rerun with cudaLimitMaxL2FetchGranularity = 32.
static std::vector<Pat> patterns_gran()
{
    std::vector<Pat> v;
    for (const Pat &p : patterns())
        if (p.array == 0 && (!strcmp(p.name, "seq") || !strcmp(p.name, "sector_s128") ||
                             !strcmp(p.name, "sector_s64") || !strcmp(p.name, "rand16") ||
                             !strcmp(p.name, "rand32") || !strcmp(p.name, "rand64") ||
                             !strcmp(p.name, "rand128") || !strcmp(p.name, "write_rand32")))
            v.push_back(p);
    return v;
}

static FILE *pattern_csv(const char *dir)
{
    FILE *f = open_csv(dir, "pattern.csv");
    fprintf(f, "pattern,op,unit_bytes,stride_bytes,array_bytes,l2_fetch_gran,units,useful_bytes,sector_bytes,"
               "grid,block,runs,min_us,median_us,max_us,useful_GBps,sector_GBps,pct_peak_sector,"
               "best_sector_GBps,check\n");
    return f;
}

static void part_pattern(FILE *f, int nsm, uint4 *A, uint4 *B, u64 def_bytes, const std::vector<Pat> &pats)
{
    const int RUNS = 7;
    int grid = nsm * 4;
    for (const Pat &p : pats) {
        u64 bytes = p.array ? (u64)p.array : def_bytes;
        u64 npieces = bytes / 16;
        if (elapsed() + 1.0 > DEADLINE) {
            fprintf(stderr, "[loaded +%.1fs] SKIP pattern %s (deadline)\n", elapsed(), p.name);
            fprintf(f, "%s,%d,%lld,%lld,%llu,%d,,,,,,0,,,,,,,,skipped\n", p.name, p.op, p.U, p.S,
                    (unsigned long long)bytes, L2_FETCH_GRAN);
            continue;
        }
        Map m = make_map(p, bytes);
        launch_pat(p, m, grid, A, B, npieces);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        std::vector<double> t;
        for (int r = 0; r < RUNS; r++) {
            spin_wait<<<1, 1>>>(SPIN_CYCLES);
            CK(cudaEventRecord(E0));
            launch_pat(p, m, grid, A, B, npieces);
            CK(cudaEventRecord(E1));
            CK(cudaEventSynchronize(E1));
            CK(cudaGetLastError());
            float ms = 0;
            CK(cudaEventElapsedTime(&ms, E0, E1));
            t.push_back(ms * 1e3);
        }
        std::string chk = "ok";
        if (p.op == 2) {
            // copy: sample B against A
            for (u64 idx : {(u64)0, npieces / 3 + 5, npieces - 1}) {
                uint4 a, b;
                CK(cudaMemcpy(&a, A + idx, 16, cudaMemcpyDeviceToHost));
                CK(cudaMemcpy(&b, B + idx, 16, cudaMemcpyDeviceToHost));
                if (memcmp(&a, &b, 16))
                    chk = "copy_mismatch";
            }
        }
        double useful = (double)bytes * (p.op == 2 ? 2 : 1);
        double sector = useful * (p.U < 32 && p.op != 2 && p.random ? 32.0 / p.U : 1.0);
        double md = median(t), mn = *std::min_element(t.begin(), t.end()),
               mx = *std::max_element(t.begin(), t.end());
        fprintf(f, "%s,%s,%lld,%lld,%llu,%d,%llu,%.0f,%.0f,%d,512,%d,%.2f,%.2f,%.2f,%.1f,%.1f,%.1f,%.1f,%s\n",
                p.name, p.op == 0 ? "read" : p.op == 1 ? "write" : "copy", p.U, p.S,
                (unsigned long long)bytes, L2_FETCH_GRAN, (unsigned long long)(bytes / p.U), useful, sector, grid, RUNS,
                mn, md, mx, useful / md / 1e3, sector / md / 1e3, 100.0 * sector / md / 1e3 / PEAK_GBPS,
                sector / mn / 1e3, chk.c_str());
        fflush(f);
        fprintf(stderr, "[loaded +%.1fs] pattern %-14s %5llu MiB g%d: median %8.1f us, useful %7.1f GB/s, sector %7.1f GB/s (%.1f %%), %s\n",
                elapsed(), p.name, (unsigned long long)(bytes >> 20), L2_FETCH_GRAN, md, useful / md / 1e3, sector / md / 1e3,
                100.0 * sector / md / 1e3 / PEAK_GBPS, chk.c_str());
    }
}

// ---------------------------------------------------------------- l2bw

// Each thread keeps 4 pieces (tid + j*T, wrapped at npieces) and advances
// them by 4*T pieces (mod npieces) per step.  drift (fixed = 0): they keep
// advancing, so over the launch every SM reads all of the footprint; fixed:
// after `sf` steps (one sweep of the footprint by the whole grid) they go
// back to their start, so each thread (and SM) re-reads its own slice.
__global__ void __launch_bounds__(1024, 2)
    l2_read(const uint4 *__restrict__ p, u64 npieces, u64 steps, int fixed, u64 sf, u64 *sink)
{
    const u64 T = (u64)gridDim.x * blockDim.x;
    u64 tid = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    u64 a[4], a0[4];
#pragma unroll
    for (int j = 0; j < 4; j++) {
        a[j] = (tid + j * T) % npieces;
        a0[j] = a[j];
    }
    u64 adv = (4 * T) % npieces;
    uint32_t acc = 0;
    u64 c = 0;
#pragma unroll 1
    for (u64 s = 0; s < steps; s++) {
        uint4 v[4];
#pragma unroll
        for (int j = 0; j < 4; j++)
            v[j] = __ldcg(p + a[j]);
#pragma unroll
        for (int j = 0; j < 4; j++) {
            acc ^= v[j].x ^ v[j].w;
            a[j] += adv;
            if (a[j] >= npieces)
                a[j] -= npieces;
        }
        if (fixed && ++c == sf) {
            c = 0;
#pragma unroll
            for (int j = 0; j < 4; j++)
                a[j] = a0[j];
        }
    }
    if (acc == 0x9E3779B9u)
        sink[2] = acc;
}

// One l2_read configuration: warm-up launch, then RUNS timed launches.
static void l2bw_case(FILE *f, const char *variant, u64 F, int sms, int grid, int block, size_t shm,
                      u64 traffic, int fixed, const uint4 *A, int nsm_active)
{
    const int RUNS = 7;
    const u64 MiB = 1ull << 20;
    if (elapsed() + 0.5 > DEADLINE) {
        fprintf(stderr, "[loaded +%.1fs] SKIP l2bw %s %llu MiB sms=%d (deadline)\n", elapsed(), variant,
                (unsigned long long)(F / MiB), sms);
        fprintf(f, "%s,%llu,%d,%d,%d,,,0,,,,,,,,skipped\n", variant, (unsigned long long)F, sms, grid, block);
        return;
    }
    Probe pr = probe(2000000ULL);
    u64 T = (u64)grid * block;
    u64 np = F / 16;
    u64 steps = std::max<u64>(1, traffic / 16 / (4 * T));
    u64 sf = std::max<u64>(1, (np + 4 * T - 1) / (4 * T));
    u64 bytes = steps * 4 * T * 16;
    auto launch = [&]() { l2_read<<<grid, block, shm>>>(A, np, steps, fixed, sf, d_sink); };
    launch();
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<double> t;
    for (int r = 0; r < RUNS; r++) {
        spin_wait<<<1, 1>>>(SPIN_CYCLES);
        CK(cudaEventRecord(E0));
        launch();
        CK(cudaEventRecord(E1));
        CK(cudaEventSynchronize(E1));
        CK(cudaGetLastError());
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, E0, E1));
        t.push_back(ms * 1e3);
    }
    double md = median(t), mn = *std::min_element(t.begin(), t.end()), mx = *std::max_element(t.begin(), t.end());
    double gbs = bytes / md / 1e3;
    double bpc = gbs * 1e9 / (pr.mhz_gt * 1e6) / nsm_active;
    fprintf(f, "%s,%llu,%d,%d,%d,%llu,%llu,%d,%.2f,%.2f,%.2f,%.1f,%.1f,%.1f,%.2f,ok\n", variant,
            (unsigned long long)F, sms, grid, block, (unsigned long long)(T / sms), (unsigned long long)bytes, RUNS,
            mn, md, mx, gbs, bytes / mn / 1e3, pr.mhz_gt, bpc);
    fflush(f);
    fprintf(stderr, "[loaded +%.1fs] l2bw %-8s %5llu MiB sms=%3d: median %8.1f us = %7.1f GB/s (best %7.1f), %.2f B/clk/SM at %.0f MHz\n",
            elapsed(), variant, (unsigned long long)(F / MiB), sms, md, gbs, bytes / mn / 1e3, bpc, pr.mhz_gt);
}

static void part_l2bw(const char *dir, int nsm, const uint4 *A)
{
    FILE *f = open_csv(dir, "l2bw.csv");
    fprintf(f, "variant,footprint_bytes,sms,grid,block,threads_per_sm,bytes_per_launch,runs,min_us,median_us,"
               "max_us,GBps_median,GBps_best,sm_mhz,bytes_per_clk_per_sm,check\n");
    const u64 MiB = 1ull << 20;
    const u64 TRAFFIC = 4ull << 30;
    // All SMs, 4 blocks of 512 per SM, footprints through and past L2.
    for (u64 F : {2 * MiB, 4 * MiB, 8 * MiB, 12 * MiB, 16 * MiB, 20 * MiB, 24 * MiB, 28 * MiB, 32 * MiB,
                  36 * MiB, 40 * MiB, 44 * MiB, 48 * MiB, 64 * MiB, 128 * MiB})
        for (int fixed = 0; fixed < 2; fixed++)
            l2bw_case(f, fixed ? "fixed" : "drift", F, nsm, nsm * 4, 512, 0, TRAFFIC, fixed, A, nsm);
    // SM-count sweep: one block of 1024 per SM (120 KiB of shared memory
    // reserved so that no SM takes two), 16 MiB (L2) and 2 GiB (DRAM).
    CK(cudaFuncSetAttribute((const void *)l2_read, cudaFuncAttributeMaxDynamicSharedMemorySize, 120 * 1024));
    for (u64 F : {16 * MiB, 2048 * MiB})
        for (int sms : {1, 2, 4, 8, 16, 24, 33, 48, 66, 99, 132}) {
            if (sms > nsm)
                continue;
            l2bw_case(f, F < 64 * MiB ? "sms_l2" : "sms_dram", F, sms, sms, 1024, 120 * 1024,
                      std::min<u64>(TRAFFIC, (u64)sms * 128 * MiB), 0, A, sms);
        }
    fclose(f);
}

// cudaLimitMaxL2FetchGranularity (a hint); -1 if it cannot be read.
static int get_gran()
{
    size_t g = 0;
    cudaError_t e = cudaDeviceGetLimit(&g, cudaLimitMaxL2FetchGranularity);
    if (e != cudaSuccess) {
        fprintf(stderr, "cudaDeviceGetLimit(MaxL2FetchGranularity): %s\n", cudaGetErrorString(e));
        cudaGetLastError();
        return -1;
    }
    return (int)g;
}

static void set_gran(int g)
{
    cudaError_t e = cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, (size_t)(g < 0 ? 64 : g));
    if (e != cudaSuccess) {
        fprintf(stderr, "cudaDeviceSetLimit(MaxL2FetchGranularity, %d): %s\n", g, cudaGetErrorString(e));
        cudaGetLastError();
    }
    L2_FETCH_GRAN = get_gran();
    fprintf(stderr, "[loaded +%.1fs] cudaLimitMaxL2FetchGranularity set to %d, reads back %d\n", elapsed(), g,
            L2_FETCH_GRAN);
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
    printf("totalGlobalMem_bytes: %zu\n", p.totalGlobalMem);
    printf("sharedMemPerMultiprocessor_bytes: %zu\n", p.sharedMemPerMultiprocessor);
    printf("sharedMemPerBlockOptin_bytes: %zu\n", p.sharedMemPerBlockOptin);
    printf("regsPerMultiprocessor: %d\n", p.regsPerMultiprocessor);
    printf("maxThreadsPerMultiProcessor: %d\n", p.maxThreadsPerMultiProcessor);
    printf("eccEnabled: %d\n", p.ECCEnabled);
    for (int K : {1, 2, 4, 8}) {
        cudaFuncAttributes fa;
        CK(cudaFuncGetAttributes(&fa, (const void *)win_kernel(K)));
        printf("chase_win<%d>_regs: %d\n", K, fa.numRegs);
    }
    printf("cudaLimitMaxL2FetchGranularity_default: %d\n", get_gran());
    cudaFuncAttributes fa;
    CK(cudaFuncGetAttributes(&fa, (const void *)pat_kernel<0>));
    printf("pat_kernel<read>_regs: %d\n", fa.numRegs);
    CK(cudaFuncGetAttributes(&fa, (const void *)l2_read));
    printf("l2_read_regs: %d\n", fa.numRegs);
    return 0;
}

// ---------------------------------------------------------------- main

static void setup_chains(Chain &dram, Chain &l2)
{
    const u64 MiB = 1ull << 20;
    dram.name = "dram";
    dram.bytes = 2048 * MiB;
    dram.node_bytes = 128;
    dram.nodes = dram.bytes / 128;
    l2.name = "l2";
    l2.bytes = 16 * MiB;
    l2.node_bytes = 32;
    l2.nodes = l2.bytes / 32;
    CK(cudaMalloc(&dram.buf, dram.bytes));
    CK(cudaMalloc(&l2.buf, l2.bytes));
    unsigned *d_next;
    CK(cudaMalloc(&d_next, dram.nodes * sizeof(unsigned)));
    double t = now_s();
    make_chain(dram, d_next);
    make_chain(l2, d_next);
    CK(cudaFree(d_next));
    fprintf(stderr, "[loaded +%.1fs] chains built (%.1f s): dram %lld nodes of %d B, l2 %lld nodes of %d B\n",
            elapsed(), now_s() - t, dram.nodes, dram.node_bytes, l2.nodes, l2.node_bytes);
}

// One launch each of a few cases, for ncu (run.sh filters kernels by name);
// stdout lists them in launch order (= ncu's ID order).
static int mode_ncuprobe()
{
    T0 = now_s();
    DEADLINE = 1e9;
    int nsm = 0;
    CK(cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, 0));
    CK(cudaMalloc(&d_sink, 8 * sizeof(u64)));
    CK(cudaMalloc(&d_base, sizeof(u64)));
    CK(cudaEventCreate(&E0));
    CK(cudaEventCreate(&E1));
    int gran0 = get_gran();
    L2_FETCH_GRAN = gran0;
    const u64 GiB = 1ull << 30;
    u64 bytes = 1 * GiB;
    uint4 *A, *B;
    CK(cudaMalloc(&A, bytes));
    CK(cudaMalloc(&B, bytes));
    init_array<<<nsm * 8, 512>>>(A, bytes / 16, 0x1234u);
    init_array<<<nsm * 8, 512>>>(B, bytes / 16, 0x5678u);
    CK(cudaDeviceSynchronize());
    int id = 0;
    auto pats = [&](std::vector<const char *> want) {
        for (const char *w : want)
            for (const Pat &p : patterns())
                if (!strcmp(p.name, w) && p.array == 0) {
                    printf("ncu_id,%d,pattern,%s,array_bytes,%llu,l2_fetch_gran,%d\n", id++, p.name,
                           (unsigned long long)bytes, L2_FETCH_GRAN);
                    launch_pat(p, make_map(p, bytes), nsm * 4, A, B, bytes / 16);
                    CK(cudaGetLastError());
                    CK(cudaDeviceSynchronize());
                }
    };
    pats({"seq", "sector_s128", "line_s1K", "line_s64K", "rand16", "rand32", "rand64", "rand128", "rand512",
          "write_seq", "write_rand32", "copy_seq"});
    set_gran(32);
    pats({"sector_s128", "rand16", "rand32", "rand64"});
    set_gran(gran0);
    for (u64 F : {16ull << 20, 32ull << 20}) {
        u64 np = F / 16, T = (u64)nsm * 4 * 512;
        u64 steps = (1ull << 30) / 16 / (4 * T);
        sweep<<<nsm * 4, 512>>>(A, (long long)np, d_sink); // into L2 (not profiled: -k filter)
        CK(cudaDeviceSynchronize());
        printf("ncu_id,%d,l2bw_drift,%llu,bytes,%llu\n", id++, (unsigned long long)F,
               (unsigned long long)(steps * 4 * T * 16));
        l2_read<<<nsm * 4, 512>>>(A, np, steps, 0, 1, d_sink);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
    }
    CK(cudaFree(A));
    CK(cudaFree(B));
    Chain dram, l2;
    setup_chains(dram, l2);
    MlpBufs m;
    mlp_bufs(m, nsm);
    struct P {
        Chain *c;
        MlpPt pt;
        int gran;
    } ps[] = {{&dram, {nsm, 1, 0, 1, 1}, gran0},   {&dram, {nsm, 1, 8, 32, 1}, gran0},
              {&dram, {nsm, 1, 16, 32, 2}, gran0}, {&dram, {nsm, 1, 16, 32, 2}, 32},
              {&l2, {nsm, 1, 0, 1, 1}, gran0},     {&l2, {nsm, 1, 16, 32, 2}, gran0}};
    const u64 WARM_NS = 200000, WIN_NS = 1000000;
    for (auto &x : ps) {
        Chain &c = *x.c;
        if (x.gran != L2_FETCH_GRAN)
            set_gran(x.gran);
        long long C = (long long)x.pt.sms * x.pt.warps * x.pt.lanes * x.pt.K, P = x.pt.sms;
        mlp_starts(m, c, C, P);
        if (c.bytes < (256ll << 20))
            touch<<<nsm, 1024>>>((const uint4 *)c.buf, c.bytes / 16, d_sink);
        CK(cudaDeviceSynchronize());
        printf("ncu_id,%d,mlp,%s,l2_fetch_gran,%d,sms,%d,gen_warps,%d,lanes,%d,K,%d,warm_us,%.0f,window_us,%.0f\n",
               id++, c.name, L2_FETCH_GRAN, x.pt.sms, x.pt.warps, x.pt.lanes, x.pt.K, WARM_NS / 1e3, WIN_NS / 1e3);
        mlp_launch(m, c, x.pt, WARM_NS, WIN_NS);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        // loads actually made (for per-load ratios)
        long long nthr = (long long)x.pt.sms * x.pt.warps * x.pt.lanes, loads = 0;
        if (nthr)
            CK(cudaMemcpy(m.h_out.data(), m.out, nthr * 32, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(m.h_pout.data(), m.pout, P * 32, cudaMemcpyDeviceToHost));
        for (long long t = 0; t < nthr; t++)
            loads += (long long)x.pt.K * (m.h_out[t * 4 + 2] & 0xffffffffu);
        for (long long t = 0; t < P; t++)
            loads += (long long)(m.h_pout[t * 4 + 2] & 0xffffffffu);
        printf("ncu_id,%d,counted_loads_in_window,%lld\n", id - 1, loads);
    }
    set_gran(gran0);
    fflush(stdout);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "props"))
        return mode_props();
    if (argc > 1 && !strcmp(argv[1], "ncuprobe"))
        return mode_ncuprobe();
    if (argc < 3 || strcmp(argv[1], "run")) {
        fprintf(stderr, "usage: %s props | ncuprobe | run OUTDIR [mlp,pattern,l2bw]\n", argv[0]);
        return 2;
    }
    const char *dir = argv[2];
    std::string parts = argc > 3 ? argv[3] : "mlp,pattern,l2bw";
    auto has = [&](const char *name) {
        return ("," + parts + ",").find(std::string(",") + name + ",") != std::string::npos;
    };
    T0 = now_s();
    DEADLINE = getenv("LOADED_DEADLINE_S") ? atof(getenv("LOADED_DEADLINE_S")) : 200.0;
    int nsm = 0;
    CK(cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, 0));
    CK(cudaMalloc(&probe_buf, 2 * sizeof(u64)));
    CK(cudaMalloc(&d_sink, 8 * sizeof(u64)));
    CK(cudaMalloc(&d_base, sizeof(u64)));
    CK(cudaEventCreate(&E0));
    CK(cudaEventCreate(&E1));
    for (int i = 0; i < 5; i++)
        probe(2000000ULL);
    int gran0 = get_gran();
    L2_FETCH_GRAN = gran0;
    fprintf(stderr, "[loaded +%.1fs] start: %d SMs, deadline %.0f s, cudaLimitMaxL2FetchGranularity %d\n",
            elapsed(), nsm, DEADLINE, gran0);
    log_probe("start");

    const u64 GiB = 1ull << 30;
    const u64 A_BYTES = 8 * GiB, PAT_BYTES = 4 * GiB;
    uint4 *A, *B;
    CK(cudaMalloc(&A, A_BYTES));
    CK(cudaMalloc(&B, PAT_BYTES));
    init_array<<<nsm * 8, 512>>>(A, A_BYTES / 16, 0x1234u);
    init_array<<<nsm * 8, 512>>>(B, PAT_BYTES / 16, 0x5678u);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    if (has("pattern")) {
        FILE *f = pattern_csv(dir);
        part_pattern(f, nsm, A, B, PAT_BYTES, patterns());
        set_gran(32);
        part_pattern(f, nsm, A, B, PAT_BYTES, patterns_gran());
        set_gran(gran0);
        fclose(f);
        log_probe("after pattern");
    }
    if (has("l2bw")) {
        part_l2bw(dir, nsm, A);
        log_probe("after l2bw");
    }
    if (has("mlp")) {
        Chain dram, l2;
        setup_chains(dram, l2);
        MlpBufs m;
        mlp_bufs(m, nsm);
        FILE *f = mlp_csv(dir);
        // The flush buffer for DRAM points: 256 MiB of A (any data).
        part_mlp(dir, nsm, dram, l2, A, 256ll << 20, m, f);
        set_gran(32);
        for (MlpPt pt : {MlpPt{nsm, 1, 0, 1, 1}, MlpPt{nsm, 1, 4, 32, 1}, MlpPt{nsm, 1, 8, 32, 1},
                         MlpPt{nsm, 1, 16, 32, 2}, MlpPt{nsm, 1, 31, 32, 2}, MlpPt{1, 1, 0, 1, 1},
                         MlpPt{1, 1, 31, 32, 2}})
            mlp_point(f, m, dram, pt, A, 256ll << 20, nsm, 3);
        set_gran(gran0);
        fclose(f);
        log_probe("after mlp");
    }
    fprintf(stderr, "[loaded +%.1fs] done\n", elapsed());
    return 0;
}
