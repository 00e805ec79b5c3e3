// fma: FP32 throughput.  Each thread runs four independent chains of
// fused multiply-adds, iters trips of a loop kept rolled, so that every
// sub-core always has an FFMA ready: the kernel does nothing but occupy
// the FP32 units.  It is the microbenchmark the TMM scale factor is
// calibrated on (validate/calibrate_tmm.sh): TMM's work term T1/P is
// meant to hold exactly when the cores are the only limit.
__global__ void fma(float *out, int iters)
{
    float a = threadIdx.x, b = a + 1.0f, c = a + 2.0f, d = a + 3.0f;
    const float m = 0.9999f, k = 0.5f;
#pragma unroll 1
    for (int i = 0; i < iters; i++) {
        a = a * m + k;
        b = b * m + k;
        c = c * m + k;
        d = d * m + k;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = a + b + c + d;
}
