// STREAM copy and triad: one element per thread, the bandwidth kernels.
__global__ void copy(const float *a, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i];
}

__global__ void triad(float *a, const float *b, const float *c, float s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] = b[i] + s * c[i];
}
