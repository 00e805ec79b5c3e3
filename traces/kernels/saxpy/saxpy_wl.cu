// saxpy as Wang & Lou stride it (their section 3.2): only x is strided,
// y[i] = a * x[i * stride] + y[i].  At stride 4 a warp's x load spans
// 4 x 128-byte blocks while y stays coalesced: a third of saxpy.cu's
// strided traffic, which strides x and y alike.
__global__ void saxpy_wl(int n, int stride, float a, const float *x,
                         float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i * stride] + y[i];
}
