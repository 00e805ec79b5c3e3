// hopper_common.cuh: the inline-PTX wrappers shared by gemm_tma_wgmma.cu and
// gemm_cluster.cu (sm_90a only: wgmma and setmaxnreg need the "a" target).
//
// Nothing here comes from CUTLASS or cute; every wrapper is one or two PTX
// instructions, named after them, so the SASS each one becomes is easy to
// find in the listings:
//   mbarrier.init / try_wait.parity / arrive(.expect_tx)   -> SYNCS.*
//   cp.async.bulk.tensor.2d (.multicast::cluster)          -> UTMALDG.2D (.MULTICAST)
//   wgmma.fence / mma_async / commit_group / wait_group    -> WARPGROUP.ARRIVE, HGMMA, WARPGROUP.DEPBAR
//   setmaxnreg.inc / .dec                                  -> USETMAXREG.TRY_ALLOC / .DEALLOC
//   prefetch.tensormap                                     -> UTMACCTL.PF
//   elect.sync                                             -> ELECT
//   barrier.cluster.arrive / wait                          -> UCGABAR_ARV / UCGABAR_WAIT (+ MEMBAR,
//                                                             ERRBAR, CGAERRBAR, CCTL.IVALL for the
//                                                             release / acquire forms)
//   mapa.shared::cluster                                   -> PRMT (rank into the address)
// (as nvcc 13.0 compiles them: see the .sm_90a.sass listings beside this file)
//
// Operand layouts: A is M x K and B is N x K, both K-major ("TN" GEMM: C =
// A * B^T in row-major terms), fp16, loaded by TMA into shared memory with
// the 128-byte swizzle; a 64-element (128-byte) K slice of each row is one
// swizzle row, eight rows make one 1024-byte swizzle atom.  C is M x N
// row-major fp16, accumulated in fp32.
#pragma once

#include <cuda.h>          // CUtensorMap, cuTensorMapEncodeTiled's types
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <stdint.h>

#define HOPPER_DEVICE __device__ __forceinline__

// ---------------------------------------------------------------------------
// Addresses
// ---------------------------------------------------------------------------

// A generic pointer into this CTA's shared memory as a shared::cta address.
HOPPER_DEVICE uint32_t smem_u32(const void *p)
{
    return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// ---------------------------------------------------------------------------
// mbarriers (64-bit, in shared memory)
// ---------------------------------------------------------------------------

HOPPER_DEVICE void mbar_init(uint32_t bar, uint32_t count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(bar), "r"(count) : "memory");
}

// Makes the initialised barriers visible to the async proxy (TMA) and to the
// other CTAs of the cluster; follow it with a CTA or cluster barrier.
HOPPER_DEVICE void fence_mbar_init()
{
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

// One arrival plus "expect this many transaction bytes in the current phase":
// the phase completes when all arrivals are in and the TMA loads that name
// this barrier have delivered that many bytes (complete_tx).
HOPPER_DEVICE void mbar_arrive_expect_tx(uint32_t bar, uint32_t bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                 :: "r"(bar), "r"(bytes) : "memory");
}

// A plain arrival on a barrier of this CTA.
HOPPER_DEVICE void mbar_arrive(uint32_t bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(bar) : "memory");
}

// An arrival on a barrier anywhere in the cluster (address from mapa).
// Default (.release.cta) semantics, as CUTLASS's ClusterBarrier::arrive
// uses: the consumer only read the stage (through wgmma, already complete),
// so nothing needs publishing; ".release.cluster" would add MEMBAR.ALL.GPU,
// ERRBAR and CGAERRBAR in front of every release.
HOPPER_DEVICE void mbar_arrive_cluster(uint32_t cluster_bar)
{
    asm volatile("mbarrier.arrive.shared::cluster.b64 _, [%0];" :: "r"(cluster_bar) : "memory");
}

// True once the phase with the given parity has completed.  A freshly
// initialised barrier is in phase 0, and the phase "before" it (parity 1)
// counts as complete, which is how a producer's first wait on an "empty"
// barrier passes at once.
HOPPER_DEVICE bool mbar_try_wait(uint32_t bar, uint32_t parity)
{
    uint32_t ok;
    asm volatile("{\n\t"
                 ".reg .pred p;\n\t"
                 "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
                 "selp.u32 %0, 1, 0, p;\n\t"
                 "}"
                 : "=r"(ok) : "r"(bar), "r"(parity) : "memory");
    return ok != 0;
}

// Spin until that phase has completed (try_wait itself blocks for a
// hardware-chosen time before it gives up, so this loop rarely turns).
HOPPER_DEVICE void mbar_wait(uint32_t bar, uint32_t parity)
{
    while (!mbar_try_wait(bar, parity)) {
    }
}

// ---------------------------------------------------------------------------
// TMA (cp.async.bulk.tensor)
// ---------------------------------------------------------------------------

// Pulls the descriptor into the TMA unit's cache before the first load.
HOPPER_DEVICE void tma_prefetch_desc(const CUtensorMap *map)
{
    asm volatile("prefetch.tensormap [%0];" :: "l"(reinterpret_cast<uint64_t>(map)) : "memory");
}

// Loads the box at (c0 = inner / K coordinate, c1 = outer / row coordinate)
// into this CTA's shared memory at dst, completing tx bytes on bar.
HOPPER_DEVICE void tma_load_2d(uint32_t dst, const CUtensorMap *map, uint32_t bar,
                               int32_t c0, int32_t c1)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%3, %4}], [%2];"
                 :: "r"(dst), "l"(reinterpret_cast<uint64_t>(map)), "r"(bar), "r"(c0), "r"(c1)
                 : "memory");
}

// The same box delivered to every CTA of the cluster named in cta_mask, at
// the same shared-memory offset in each, each completing tx bytes on its
// own barrier at the same offset as bar.
HOPPER_DEVICE void tma_load_2d_multicast(uint32_t dst, const CUtensorMap *map, uint32_t bar,
                                         int32_t c0, int32_t c1, uint16_t cta_mask)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
                 ".multicast::cluster [%0], [%1, {%3, %4}], [%2], %5;"
                 :: "r"(dst), "l"(reinterpret_cast<uint64_t>(map)), "r"(bar), "r"(c0), "r"(c1),
                    "h"(cta_mask)
                 : "memory");
}

// ---------------------------------------------------------------------------
// Clusters
// ---------------------------------------------------------------------------

HOPPER_DEVICE uint32_t cluster_ctarank()
{
    uint32_t r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    return r;
}

// The address of the same shared::cta offset in CTA `rank` of the cluster.
HOPPER_DEVICE uint32_t mapa_shared(uint32_t addr, uint32_t rank)
{
    uint32_t r;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(addr), "r"(rank));
    return r;
}

// Arrive without ordering earlier memory accesses: enough after
// fence.mbarrier_init, which already released the barrier initialisation.
HOPPER_DEVICE void cluster_arrive_relaxed()
{
    asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
}

HOPPER_DEVICE void cluster_arrive()
{
    asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
}

HOPPER_DEVICE void cluster_wait()
{
    asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
}

// ---------------------------------------------------------------------------
// Warp-level helpers
// ---------------------------------------------------------------------------

// One lane of the (fully active) warp gets true.
HOPPER_DEVICE bool elect_one()
{
    uint32_t pred;
    asm volatile("{\n\t"
                 ".reg .pred p;\n\t"
                 "elect.sync _|p, 0xffffffff;\n\t"
                 "selp.u32 %0, 1, 0, p;\n\t"
                 "}"
                 : "=r"(pred));
    return pred != 0;
}

// Register reallocation between warpgroups (all 128 threads execute it).
template <int N> HOPPER_DEVICE void setmaxnreg_dec()
{
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" :: "n"(N));
}

template <int N> HOPPER_DEVICE void setmaxnreg_inc()
{
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" :: "n"(N));
}

// ---------------------------------------------------------------------------
// wgmma
// ---------------------------------------------------------------------------

// Orders this warpgroup's earlier register and shared-memory accesses before
// the wgmma.mma_async that follow.
HOPPER_DEVICE void wgmma_fence()
{
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
}

HOPPER_DEVICE void wgmma_commit()
{
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
}

// Waits until at most N committed groups are still pending.
template <int N> HOPPER_DEVICE void wgmma_wait()
{
    asm volatile("wgmma.wait_group.sync.aligned %0;" :: "n"(N) : "memory");
}

// Shared-memory matrix descriptor for a K-major operand tile stored with the
// 128-byte swizzle (what TMA writes with CU_TENSOR_MAP_SWIZZLE_128B and a
// 64 x fp16 inner box):
//   bits  0-13  start address >> 4
//   bits 16-29  leading-dimension byte offset >> 4 (unused for swizzled
//               K-major; 1 by convention)
//   bits 32-45  stride-dimension byte offset >> 4: 1024 B from one group of
//               8 rows to the next
//   bits 49-51  base offset (0: tiles are 1024-byte aligned)
//   bits 62-63  layout: 1 = 128-byte swizzle
// Stepping K by 16 fp16 inside the 128-byte row adds 32 bytes, i.e. 2, to
// the start-address field (the swizzle is applied to the final address).
HOPPER_DEVICE uint64_t make_desc_sw128(uint32_t smem_addr)
{
    uint64_t d = 0;
    d |= static_cast<uint64_t>((smem_addr & 0x3FFFF) >> 4);
    d |= static_cast<uint64_t>(1) << 16;
    d |= static_cast<uint64_t>(1024 >> 4) << 32;
    d |= static_cast<uint64_t>(1) << 62;
    return d;
}

// D(64 x 256, f32) += A(64 x 16, f16, smem desc) * B(256 x 16, f16, smem
// desc)^T, both K-major (no transpose); scale_d = 0 overwrites D instead of
// accumulating into it (used for the first k-step).  Thread t of the
// warpgroup (warp w = t / 32, lane l) holds, for i in 0..127,
//   d[i] = D[16 w + l / 4 + 8 ((i / 2) % 2)][8 (i / 4) + 2 (l % 4) + i % 2].
HOPPER_DEVICE void wgmma_m64n256k16_f32_f16(float (&d)[128], uint64_t desc_a, uint64_t desc_b,
                                           int scale_d)
{
    asm volatile(
        "{\n"
        ".reg .pred p;\n"
        "setp.ne.b32 p, %130, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16\n"
        "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
        " %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31,"
        " %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47,"
        " %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63,"
        " %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79,"
        " %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95,"
        " %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111,"
        " %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127},"
        " %128, %129, p, 1, 1, 0, 0;\n"
        "}\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
          "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
          "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
          "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
          "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
          "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
          "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
          "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
          "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
          "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
          "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
          "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
          "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
          "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),
          "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
          "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
        : "l"(desc_a), "l"(desc_b), "r"(scale_d));
}

// ---------------------------------------------------------------------------
// Epilogue: the 64 x 256 fp32 accumulator of one consumer warpgroup to C
// (row-major fp16, ldc elements per row) with plain 32-bit st.global, two
// fp16 per store.  Row r0 + 16 w + l / 4 (+ 8), columns c0 + 8 j + 2 (l % 4).
// ---------------------------------------------------------------------------
HOPPER_DEVICE void store_acc_64x256(const float (&acc)[128], __half *C, int ldc,
                                    int r0, int c0, int thread_in_wg)
{
    const int warp = thread_in_wg / 32, lane = thread_in_wg % 32;
    const int row = r0 + 16 * warp + lane / 4;
    const int col = c0 + 2 * (lane % 4);
    __half2 *top = reinterpret_cast<__half2 *>(C + static_cast<size_t>(row) * ldc + col);
    __half2 *bot = reinterpret_cast<__half2 *>(C + static_cast<size_t>(row + 8) * ldc + col);
#pragma unroll
    for (int j = 0; j < 32; ++j) {
        top[4 * j] = __floats2half2_rn(acc[4 * j + 0], acc[4 * j + 1]);
        bot[4 * j] = __floats2half2_rn(acc[4 * j + 2], acc[4 * j + 3]);
    }
}

// ---------------------------------------------------------------------------
// Host side: a 2-D K-major fp16 tensor map (rows x cols, cols contiguous)
// with a box_rows x 64 box and the 128-byte swizzle.  The driver entry point
// is fetched through the runtime, so no -lcuda is needed.  Only with
// -DHOPPER_HOST_MAIN (the cubins regen.sh makes do not need it).
// ---------------------------------------------------------------------------
#ifdef HOPPER_HOST_MAIN
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef CUresult (*hopper_encode_tiled_fn)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *,
                                           const cuuint64_t *, const cuuint64_t *,
                                           const cuuint32_t *, const cuuint32_t *,
                                           CUtensorMapInterleave, CUtensorMapSwizzle,
                                           CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

static inline CUtensorMap hopper_make_tmap_kmajor_f16(const __half *base, uint64_t rows,
                                                      uint64_t cols, uint32_t box_rows)
{
    static hopper_encode_tiled_fn encode = nullptr;
    if (!encode) {
        cudaDriverEntryPointQueryResult q;
        void *fn = nullptr;
        if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000,
                                             cudaEnableDefault, &q) != cudaSuccess ||
            q != cudaDriverEntryPointSuccess || !fn) {
            fprintf(stderr, "cuTensorMapEncodeTiled not available\n");
            exit(1);
        }
        encode = reinterpret_cast<hopper_encode_tiled_fn>(fn);
    }
    CUtensorMap map;
    cuuint64_t dims[2] = {cols, rows};
    cuuint64_t strides[1] = {cols * sizeof(__half)};   // bytes, dimension 1
    cuuint32_t box[2] = {64, box_rows};                 // 64 fp16 = 128 bytes inner
    cuuint32_t estr[2] = {1, 1};
    CUresult r = encode(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, const_cast<__half *>(base),
                        dims, strides, box, estr, CU_TENSOR_MAP_INTERLEAVE_NONE,
                        CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                        CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) {
        fprintf(stderr, "cuTensorMapEncodeTiled failed (%d)\n", static_cast<int>(r));
        exit(1);
    }
    return map;
}

#define HOPPER_CHECK(x)                                                                     \
    do {                                                                                    \
        cudaError_t e_ = (x);                                                               \
        if (e_ != cudaSuccess) {                                                            \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
            exit(1);                                                                        \
        }                                                                                   \
    } while (0)

// Fills A (M x K) and B (N x K) with small values, runs `launch` a few times,
// reports TFLOP/s and checks a sample of C against a double-precision
// reference.  Returns the process exit status.
template <typename Launch>
static int hopper_gemm_main(const char *name, int M, int N, int K, Launch launch)
{
    const size_t na = static_cast<size_t>(M) * K, nb = static_cast<size_t>(N) * K,
                 nc = static_cast<size_t>(M) * N;
    __half *hA = static_cast<__half *>(malloc(na * sizeof(__half)));
    __half *hB = static_cast<__half *>(malloc(nb * sizeof(__half)));
    __half *hC = static_cast<__half *>(malloc(nc * sizeof(__half)));
    for (size_t i = 0; i < na; ++i) hA[i] = __float2half(static_cast<float>((i * 7 + 3) % 17) / 16.0f - 0.5f);
    for (size_t i = 0; i < nb; ++i) hB[i] = __float2half(static_cast<float>((i * 5 + 1) % 13) / 12.0f - 0.5f);
    __half *dA, *dB, *dC;
    HOPPER_CHECK(cudaMalloc(&dA, na * sizeof(__half)));
    HOPPER_CHECK(cudaMalloc(&dB, nb * sizeof(__half)));
    HOPPER_CHECK(cudaMalloc(&dC, nc * sizeof(__half)));
    HOPPER_CHECK(cudaMemcpy(dA, hA, na * sizeof(__half), cudaMemcpyHostToDevice));
    HOPPER_CHECK(cudaMemcpy(dB, hB, nb * sizeof(__half), cudaMemcpyHostToDevice));
    HOPPER_CHECK(cudaMemset(dC, 0, nc * sizeof(__half)));

    launch(dA, dB, dC);                                   // warm-up
    HOPPER_CHECK(cudaGetLastError());
    HOPPER_CHECK(cudaDeviceSynchronize());
    cudaEvent_t t0, t1;
    HOPPER_CHECK(cudaEventCreate(&t0));
    HOPPER_CHECK(cudaEventCreate(&t1));
    const int iters = 20;
    HOPPER_CHECK(cudaEventRecord(t0));
    for (int i = 0; i < iters; ++i) launch(dA, dB, dC);
    HOPPER_CHECK(cudaEventRecord(t1));
    HOPPER_CHECK(cudaEventSynchronize(t1));
    float ms = 0;
    HOPPER_CHECK(cudaEventElapsedTime(&ms, t0, t1));
    ms /= iters;
    printf("%s: M=%d N=%d K=%d  %.3f ms  %.1f TFLOP/s\n", name, M, N, K, ms,
           2.0 * M * N * K / (ms * 1e-3) / 1e12);

    HOPPER_CHECK(cudaMemcpy(hC, dC, nc * sizeof(__half), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int s = 0; s < 4096; ++s) {
        const int i = static_cast<int>((static_cast<size_t>(s) * 2654435761u) % M);
        const int j = static_cast<int>((static_cast<size_t>(s) * 40503u + 17) % N);
        double ref = 0;
        for (int k = 0; k < K; ++k)
            ref += static_cast<double>(__half2float(hA[static_cast<size_t>(i) * K + k])) *
                   static_cast<double>(__half2float(hB[static_cast<size_t>(j) * K + k]));
        const double got = __half2float(hC[static_cast<size_t>(i) * N + j]);
        if (fabs(got - ref) > 1e-2 * fabs(ref) + 0.5) {
            if (bad < 8) printf("  C[%d][%d] = %g, expected %g\n", i, j, got, ref);
            ++bad;
        }
    }
    printf("%s: %s (%d of 4096 sampled elements off)\n", name, bad ? "FAILED" : "ok", bad);
    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
    free(hA);
    free(hB);
    free(hC);
    return bad ? 1 : 0;
}
#endif  // HOPPER_HOST_MAIN
