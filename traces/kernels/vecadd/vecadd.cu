// vecadd: c[i] = a[i] + b[i], one thread per element.
// The streaming kernel of the speed benchmark and of the bundled Accel-Sim
// trace traces/accelsim/vecadd (which follows this source's SASS).
__global__ void vecAdd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}
