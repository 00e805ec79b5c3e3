// apsp: one step of all-pairs shortest paths by repeated min-plus squaring
// (Ma, Chamberlain & Agrawal, eq 9): C[i][j] = min_k A[i][k] + A[k][j].  Block (bx, by)
// computes the sd x sd sub-block (by, bx) of C; for each of the n / sd
// sub-blocks along k its threads stage A(by, kb) and A(kb, bx) in shared
// memory, then update their elements' running minima (kept in shared
// memory, so threads per block and sd vary independently).  Loops are not
// unrolled, so the SASS keeps the source's loop structure.
extern __shared__ float sh[];

__global__ void apsp(const float *A, float *C, int n, int sd)
{
    float *As = sh, *Bs = sh + sd * sd, *Cs = sh + 2 * sd * sd;
    int elems = sd * sd, nb = n / sd;
#pragma unroll 1
    for (int e = threadIdx.x; e < elems; e += blockDim.x)
        Cs[e] = 1e30f;
#pragma unroll 1
    for (int kb = 0; kb < nb; kb++) {
#pragma unroll 1
        for (int e = threadIdx.x; e < elems; e += blockDim.x) {
            int r = e / sd, c = e % sd;
            As[e] = A[(blockIdx.y * sd + r) * n + kb * sd + c];
            Bs[e] = A[(kb * sd + r) * n + blockIdx.x * sd + c];
        }
        __syncthreads();
#pragma unroll 1
        for (int e = threadIdx.x; e < elems; e += blockDim.x) {
            int r = e / sd, c = e % sd;
            float m = Cs[e];
#pragma unroll 1
            for (int k = 0; k < sd; k++)
                m = fminf(m, As[r * sd + k] + Bs[k * sd + c]);
            Cs[e] = m;
        }
        __syncthreads();
    }
#pragma unroll 1
    for (int e = threadIdx.x; e < elems; e += blockDim.x) {
        int r = e / sd, c = e % sd;
        C[(blockIdx.y * sd + r) * n + blockIdx.x * sd + c] = Cs[e];
    }
}
