// gemm_cluster: gemm_tma_wgmma with thread-block clusters of 2 CTAs and TMA
// multicast (sm_90a only), written with inline PTX (see hopper_common.cuh;
// no CUTLASS, no cute).
//
//   C (M x N, fp16, row-major) = A (M x K, fp16, K-major) * B (N x K, fp16,
//   K-major)^T, accumulated in fp32.
//
// __cluster_dims__(2, 1, 1): the two CTAs of a cluster are neighbours along
// N (blockIdx.x = 2c and 2c + 1), so they need the same 128 x 64 A tile at
// every K step.  Each CTA loads one half of it (64 x 64, rows 64 * rank ..)
// with cp.async.bulk.tensor ... .multicast::cluster and cta mask 0b11, so
// the half lands in both CTAs' shared memory (same offset) and completes
// 8 KB of transaction bytes on both CTAs' full[s] barriers; B (256 x 64) is
// per CTA, loaded without multicast.  So each full[s] still expects 48 KB
// per phase (8 KB own A half + 8 KB peer's A half + 32 KB B).
// Because the peer writes into this CTA's stage s, a producer may only
// refill stage s once the consumers of BOTH CTAs have released it: empty[s]
// counts 16 arrivals (8 consumer warps x 2 CTAs), and each consumer warp
// releases a stage by arriving on its own CTA's empty[s] (lane 0) and on
// the peer's (lane 1), both through mapa + mbarrier.arrive.shared::cluster.
// barrier.cluster.arrive/wait pairs at the start (.relaxed arrive after
// fence.mbarrier_init: every barrier of both CTAs initialised before any
// multicast or remote arrive) and at the end (release/acquire)
// so that neither CTA exits while the peer may still write into its shared
// memory or arrive on its barriers.
//
// Everything else as gemm_tma_wgmma: tile 128 x 256 x 64, 4 stages, 128-byte
// swizzle, 384 threads = producer warpgroup (setmaxnreg.dec 40, one elected
// thread issues the TMA loads) + 2 consumer warpgroups (setmaxnreg.inc 232,
// 4 x wgmma m64n256k16 per K tile, wait_group 1), epilogue with plain
// st.global of fp16 pairs.
//
// Launch: grid (N / 256, M / 128) with N / 256 even (the cluster shape is
// compiled in, so an ordinary <<<>>> launch forms the clusters), block 384,
// dynamic shared memory GEMM2_SMEM = 4 x 48 KB + 64 B + 1 KB alignment
// slack = 197,696 bytes (1 CTA per SM).  Tensor maps: A rows = M, cols = K,
// box 64 x 64 (half an A tile); B rows = N, cols = K, box 256 x 64; both
// CU_TENSOR_MAP_SWIZZLE_128B.
//
// Left out: as gemm_tma_wgmma (tile-multiple shapes only, non-persistent,
// no CTA rasterisation, no split-K, no alpha/beta, no TMA store); B is not
// multicast (a 2 x 1 cluster shares only A); no cluster-size other than 2.
//
// Build (device code only, as regen.sh does):
//   nvcc -cubin -arch=sm_90a -O3 gemm_cluster.cu
// Host program (optional; times 4096^3 and checks a sample on an H100):
//   nvcc -gencode arch=compute_90a,code=sm_90a -O3 -DHOPPER_HOST_MAIN
//        gemm_cluster.cu -o gemm_cluster
// (not plain -arch=sm_90a: nvcc 13 then also embeds compute_90 PTX, which
// ptxas rejects for wgmma and setmaxnreg)
#include "hopper_common.cuh"

namespace gemm2 {
constexpr int BM = 128, BN = 256, BK = 64, STAGES = 4;
constexpr int CLUSTER = 2;
constexpr int THREADS = 384;
constexpr int A_BYTES = BM * BK * 2;                 // 16 KB (two 8 KB halves)
constexpr int A_HALF_BYTES = A_BYTES / CLUSTER;      // what one CTA multicasts
constexpr int B_BYTES = BN * BK * 2;                 // 32 KB
constexpr int STAGE_BYTES = A_BYTES + B_BYTES;       // 48 KB, the expect_tx count
constexpr int BAR_BYTES = 2 * STAGES * 8;
constexpr int SMEM = STAGES * STAGE_BYTES + BAR_BYTES + 1024;
constexpr int CONSUMER_WARPS = 8;
static_assert(SMEM <= 227 * 1024, "pipeline does not fit in shared memory");
}  // namespace gemm2

#define GEMM2_SMEM (gemm2::SMEM)

__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(gemm2::THREADS, 1)
gemm_cluster(const __grid_constant__ CUtensorMap tmA, const __grid_constant__ CUtensorMap tmB,
             __half *__restrict__ C, int M, int N, int K)
{
    using namespace gemm2;
    extern __shared__ uint8_t smem_raw[];
    // The same layout in both CTAs: multicast and mapa rely on equal offsets.
    const uint32_t base = (smem_u32(smem_raw) + 1023) & ~1023u;
    const uint32_t sA = base;
    const uint32_t sB = base + STAGES * A_BYTES;
    const uint32_t full = base + STAGES * STAGE_BYTES;
    const uint32_t empty = full + STAGES * 8;

    const int wg = threadIdx.x / 128;
    const int thread_in_wg = threadIdx.x % 128;
    const int warp_in_wg = thread_in_wg / 32;
    const int lane = threadIdx.x % 32;
    const uint32_t rank = cluster_ctarank();      // 0 or 1 (== blockIdx.x % 2)
    const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
    const int ktiles = K / BK;

    if (threadIdx.x == 0) {
        tma_prefetch_desc(&tmA);
        tma_prefetch_desc(&tmB);
        for (int s = 0; s < STAGES; ++s) {
            mbar_init(full + 8 * s, 1);
            mbar_init(empty + 8 * s, CONSUMER_WARPS * CLUSTER);
        }
        fence_mbar_init();
    }
    // Both CTAs' barriers exist before anyone multicasts or arrives remotely
    // (fence.mbarrier_init released them, so the arrive can be relaxed).
    cluster_arrive_relaxed();
    cluster_wait();

    if (wg == 0) {
        // ---------------- producer warpgroup ----------------
        setmaxnreg_dec<40>();
        if (warp_in_wg == 0 && elect_one()) {
            const uint16_t both = (1u << CLUSTER) - 1;
            int stage = 0;
            uint32_t phase = 0;
            for (int kt = 0; kt < ktiles; ++kt) {
                // Both CTAs' consumers have released this stage.
                mbar_wait(empty + 8 * stage, phase ^ 1);
                mbar_arrive_expect_tx(full + 8 * stage, STAGE_BYTES);
                // My half of A, to my CTA and the peer.
                tma_load_2d_multicast(sA + stage * A_BYTES + rank * A_HALF_BYTES, &tmA,
                                      full + 8 * stage, kt * BK, m0 + 64 * rank, both);
                // My own B.
                tma_load_2d(sB + stage * B_BYTES, &tmB, full + 8 * stage, kt * BK, n0);
                if (++stage == STAGES) {
                    stage = 0;
                    phase ^= 1;
                }
            }
        }
        __syncwarp();
    } else {
        // ---------------- consumer warpgroups ----------------
        setmaxnreg_inc<232>();
        const int cw = wg - 1;
        float acc[128];
#pragma unroll
        for (int i = 0; i < 128; ++i) acc[i] = 0.0f;

        int stage = 0, prev = 0;
        uint32_t phase = 0;
        for (int kt = 0; kt < ktiles; ++kt) {
            mbar_wait(full + 8 * stage, phase);
            const uint64_t da = make_desc_sw128(sA + stage * A_BYTES + cw * 64 * 128);
            const uint64_t db = make_desc_sw128(sB + stage * B_BYTES);
            wgmma_fence();
#pragma unroll
            for (int k = 0; k < BK / 16; ++k)
                wgmma_m64n256k16_f32_f16(acc, da + 2 * k, db + 2 * k, 1);
            wgmma_commit();
            wgmma_wait<1>();
            // Release the previous K tile's stage in both CTAs: lane r
            // arrives on CTA r's empty barrier.
            if (kt > 0 && lane < CLUSTER)
                mbar_arrive_cluster(mapa_shared(empty + 8 * prev, lane));
            prev = stage;
            if (++stage == STAGES) {
                stage = 0;
                phase ^= 1;
            }
        }
        wgmma_wait<0>();

        store_acc_64x256(acc, C, N, m0 + 64 * cw, n0, thread_in_wg);
    }

    // Neither CTA leaves while its peer may still multicast into it or
    // arrive on its barriers.
    cluster_arrive();
    cluster_wait();
}

#ifdef HOPPER_HOST_MAIN
int main(int argc, char **argv)
{
    const int M = argc > 1 ? atoi(argv[1]) : 4096;
    const int N = argc > 2 ? atoi(argv[2]) : 4096;
    const int K = argc > 3 ? atoi(argv[3]) : 4096;
    if (M % 128 || N % 512 || K % 64) {
        fprintf(stderr, "M, N, K must be multiples of 128, 512 (two 256-wide CTAs), 64\n");
        return 2;
    }
    HOPPER_CHECK(cudaFuncSetAttribute(gemm_cluster, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      GEMM2_SMEM));
    return hopper_gemm_main("gemm_cluster", M, N, K, [&](__half *A, __half *B, __half *C) {
        static CUtensorMap tmA, tmB;
        static bool made = false;
        if (!made) {
            tmA = hopper_make_tmap_kmajor_f16(A, M, K, 64);    // half an A tile per CTA
            tmB = hopper_make_tmap_kmajor_f16(B, N, K, 256);
            made = true;
        }
        gemm_cluster<<<dim3(N / 256, M / 128), 384, GEMM2_SMEM>>>(tmA, tmB, C, M, N, K);
    });
}
#endif
