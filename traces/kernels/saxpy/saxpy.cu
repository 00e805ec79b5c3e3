// saxpy with a stride: y[i*stride] = a * x[i*stride] + y[i*stride].
// Stride 1 is coalesced; strides 4, 8 and 16 spread a warp's accesses over
// 4, 8 and 16 times the sectors, as in Wang & Lou's experiment.
__global__ void saxpy(int n, int stride, float a, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i * stride] = a * x[i * stride] + y[i * stride];
}
