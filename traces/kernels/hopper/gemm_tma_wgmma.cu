// gemm_tma_wgmma: a warp-specialised Hopper GEMM in the style of CUTLASS's
// "KernelTmaWarpSpecialized" (sm_90a only), written with inline PTX (see
// hopper_common.cuh; no CUTLASS, no cute).
//
//   C (M x N, fp16, row-major) = A (M x K, fp16, K-major) * B (N x K, fp16,
//   K-major)^T, accumulated in fp32.
//
// Tile 128 x 256 x 64 per CTA, 4-stage shared-memory pipeline, 128-byte
// swizzle.  384 threads = 3 warpgroups:
//   warpgroup 0  producer: setmaxnreg.dec to 40; one elected thread of its
//                first warp loops over the K tiles: wait "empty[s]", arm
//                "full[s]" with arrive.expect_tx(48 KB), issue two TMA loads
//                (A 128 x 64, B 256 x 64) that complete_tx on full[s].
//   warpgroups 1, 2  consumers: setmaxnreg.inc to 232; each owns 64 rows of
//                the tile: wait full[s], wgmma.fence, 4 x wgmma m64n256k16
//                (one per 16-wide K step), commit_group, wait_group 1 (the
//                previous K tile's group is done), then release that
//                tile's stage by one arrive per warp on its empty barrier.
//   Epilogue: each consumer thread converts its 128 fp32 accumulators to
//   fp16 pairs and stores them with plain st.global (32-bit, STG.E); no
//   stmatrix, no TMA store.
// Barriers: full[s] count 1 (+ 48 KB of transaction bytes), empty[s] count
// 8 (the 8 consumer warps); phases flip each time the stage index wraps.
//
// Launch: grid (N / 256, M / 128), block 384, non-persistent, dynamic shared
// memory GEMM1_SMEM = 4 x (16 KB + 32 KB) + 64 B of barriers + 1 KB of
// alignment slack = 197,696 bytes (needs cudaFuncAttributeMaxDynamicShared-
// MemorySize; 1 CTA per SM).  Tensor maps: A rows = M, cols = K, box 128 x 64;
// B rows = N, cols = K, box 256 x 64; both CU_TENSOR_MAP_SWIZZLE_128B.
//
// Left out: M, N, K must be multiples of 128, 256 and 64 (no residue
// handling, no TMA OOB predication); no persistent tile scheduler, no
// rasterisation/swizzle of the CTA order, no split-K, no alpha/beta, no
// epilogue overlap with the next tile's mainloop, no FP8.
//
// Build (device code only, as regen.sh does):
//   nvcc -cubin -arch=sm_90a -O3 gemm_tma_wgmma.cu
// Host program (optional; times 4096^3 and checks a sample on an H100):
//   nvcc -gencode arch=compute_90a,code=sm_90a -O3 -DHOPPER_HOST_MAIN
//        gemm_tma_wgmma.cu -o gemm_tma_wgmma
// (not plain -arch=sm_90a: nvcc 13 then also embeds compute_90 PTX, which
// ptxas rejects for wgmma and setmaxnreg)
#include "hopper_common.cuh"

namespace gemm1 {
constexpr int BM = 128, BN = 256, BK = 64, STAGES = 4;
constexpr int THREADS = 384;
constexpr int A_BYTES = BM * BK * 2;                 // 16 KB
constexpr int B_BYTES = BN * BK * 2;                 // 32 KB
constexpr int STAGE_BYTES = A_BYTES + B_BYTES;       // 48 KB, the expect_tx count
constexpr int BAR_BYTES = 2 * STAGES * 8;            // full[4], empty[4]
constexpr int SMEM = STAGES * STAGE_BYTES + BAR_BYTES + 1024;
constexpr int CONSUMER_WARPS = 8;
static_assert(SMEM <= 227 * 1024, "pipeline does not fit in shared memory");
}  // namespace gemm1

#define GEMM1_SMEM (gemm1::SMEM)

__global__ void __launch_bounds__(gemm1::THREADS, 1)
gemm_tma_wgmma(const __grid_constant__ CUtensorMap tmA, const __grid_constant__ CUtensorMap tmB,
               __half *__restrict__ C, int M, int N, int K)
{
    using namespace gemm1;
    extern __shared__ uint8_t smem_raw[];
    // Tiles must sit on 1024-byte boundaries for the 128-byte swizzle.
    const uint32_t base = (smem_u32(smem_raw) + 1023) & ~1023u;
    const uint32_t sA = base;                              // STAGES x 16 KB
    const uint32_t sB = base + STAGES * A_BYTES;           // STAGES x 32 KB
    const uint32_t full = base + STAGES * STAGE_BYTES;     // STAGES x 8 B
    const uint32_t empty = full + STAGES * 8;              // STAGES x 8 B

    const int wg = threadIdx.x / 128;
    const int thread_in_wg = threadIdx.x % 128;
    const int warp_in_wg = thread_in_wg / 32;
    const int lane = threadIdx.x % 32;
    const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
    const int ktiles = K / BK;

    if (threadIdx.x == 0) {
        tma_prefetch_desc(&tmA);
        tma_prefetch_desc(&tmB);
        for (int s = 0; s < STAGES; ++s) {
            mbar_init(full + 8 * s, 1);
            mbar_init(empty + 8 * s, CONSUMER_WARPS);
        }
        fence_mbar_init();
    }
    __syncthreads();

    if (wg == 0) {
        // ---------------- producer warpgroup ----------------
        setmaxnreg_dec<40>();
        if (warp_in_wg == 0 && elect_one()) {
            int stage = 0;
            uint32_t phase = 0;
            for (int kt = 0; kt < ktiles; ++kt) {
                mbar_wait(empty + 8 * stage, phase ^ 1);   // consumers freed it
                mbar_arrive_expect_tx(full + 8 * stage, STAGE_BYTES);
                tma_load_2d(sA + stage * A_BYTES, &tmA, full + 8 * stage, kt * BK, m0);
                tma_load_2d(sB + stage * B_BYTES, &tmB, full + 8 * stage, kt * BK, n0);
                if (++stage == STAGES) {
                    stage = 0;
                    phase ^= 1;
                }
            }
        }
    } else {
        // ---------------- consumer warpgroups ----------------
        setmaxnreg_inc<232>();
        const int cw = wg - 1;                    // rows 64 * cw .. 64 * cw + 63
        float acc[128];
#pragma unroll
        for (int i = 0; i < 128; ++i) acc[i] = 0.0f;

        int stage = 0, prev = 0;
        uint32_t phase = 0;
        for (int kt = 0; kt < ktiles; ++kt) {
            mbar_wait(full + 8 * stage, phase);   // TMA bytes have landed
            const uint64_t da = make_desc_sw128(sA + stage * A_BYTES + cw * 64 * 128);
            const uint64_t db = make_desc_sw128(sB + stage * B_BYTES);
            wgmma_fence();
#pragma unroll
            for (int k = 0; k < BK / 16; ++k)     // +32 bytes per K step = +2 in the descriptor
                wgmma_m64n256k16_f32_f16(acc, da + 2 * k, db + 2 * k, 1);
            wgmma_commit();
            // Keep one group in flight: once at most one is pending, the
            // previous K tile's wgmmas have finished reading their stage.
            wgmma_wait<1>();
            if (kt > 0 && lane == 0) mbar_arrive(empty + 8 * prev);
            prev = stage;
            if (++stage == STAGES) {
                stage = 0;
                phase ^= 1;
            }
        }
        wgmma_wait<0>();
        // (The last stage is not released: the producer has nothing left to load.)

        store_acc_64x256(acc, C, N, m0 + 64 * cw, n0, thread_in_wg);
    }
}

#ifdef HOPPER_HOST_MAIN
int main(int argc, char **argv)
{
    const int M = argc > 1 ? atoi(argv[1]) : 4096;
    const int N = argc > 2 ? atoi(argv[2]) : 4096;
    const int K = argc > 3 ? atoi(argv[3]) : 4096;
    if (M % 128 || N % 256 || K % 64) {
        fprintf(stderr, "M, N, K must be multiples of 128, 256, 64\n");
        return 2;
    }
    HOPPER_CHECK(cudaFuncSetAttribute(gemm_tma_wgmma, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      GEMM1_SMEM));
    return hopper_gemm_main("gemm_tma_wgmma", M, N, K, [&](__half *A, __half *B, __half *C) {
        static CUtensorMap tmA, tmB;
        static bool made = false;
        if (!made) {
            tmA = hopper_make_tmap_kmajor_f16(A, M, K, 128);
            tmB = hopper_make_tmap_kmajor_f16(B, N, K, 256);
            made = true;
        }
        gemm_tma_wgmma<<<dim3(N / 256, M / 128), 384, GEMM1_SMEM>>>(tmA, tmB, C, M, N, K);
    });
}
#endif
