// matmul: C = A * B for n x n doubles (n a multiple of 16), in the seven
// incremental versions of Islam et al.'s Matmult study.  Block (bx, by) of
// 16 x 16 threads computes the 16 x 16 tile (by, bx) of C, except
// computeopt, unroll and prefetch, whose 16 x 8 blocks compute two
// elements per thread.
#define T 16

// 1. baseline: every operand straight from global memory.
__global__ void baseline(const double *A, const double *B, double *C, int n)
{
    int row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;
    double sum = 0.0;
#pragma unroll 1
    for (int k = 0; k < n; k++)
        sum += A[row * n + k] * B[k * n + col];
    C[row * n + col] = sum;
}

// 2. tiling: 16 x 16 tiles of A and B staged in shared memory.  The
//    straightforward mapping puts threadIdx.x along rows, so each warp's
//    global loads stride by a row (uncoalesced).
__global__ void tiling(const double *A, const double *B, double *C, int n)
{
    __shared__ double As[T][T], Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T + tx, col = blockIdx.x * T + ty;
    double sum = 0.0;
#pragma unroll 1
    for (int t = 0; t < n / T; t++) {
        As[tx][ty] = A[row * n + t * T + ty];
        Bs[tx][ty] = B[(t * T + tx) * n + col];
        __syncthreads();
#pragma unroll 1
        for (int k = 0; k < T; k++)
            sum += As[tx][k] * Bs[k][ty];
        __syncthreads();
    }
    C[row * n + col] = sum;
}

// 3. coalescing: threadIdx.x along the contiguous dimension for every
//    global access; B's tile is stored transposed (column-major), which
//    makes its shared-memory stores conflict.
__global__ void coalescing(const double *A, const double *B, double *C, int n)
{
    __shared__ double As[T][T], Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
    double sum = 0.0;
#pragma unroll 1
    for (int t = 0; t < n / T; t++) {
        As[ty][tx] = A[row * n + t * T + tx];
        Bs[tx][ty] = B[(t * T + ty) * n + col];
        __syncthreads();
#pragma unroll 1
        for (int k = 0; k < T; k++)
            sum += As[ty][k] * Bs[tx][k];
        __syncthreads();
    }
    C[row * n + col] = sum;
}

// 4. nobankconflict: coalescing with B's tile padded by one column, so the
//    transposed store hits 16 different banks.
__global__ void nobankconflict(const double *A, const double *B, double *C, int n)
{
    __shared__ double As[T][T], Bs[T][T + 1];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
    double sum = 0.0;
#pragma unroll 1
    for (int t = 0; t < n / T; t++) {
        As[ty][tx] = A[row * n + t * T + tx];
        Bs[tx][ty] = B[(t * T + ty) * n + col];
        __syncthreads();
#pragma unroll 1
        for (int k = 0; k < T; k++)
            sum += As[ty][k] * Bs[tx][k];
        __syncthreads();
    }
    C[row * n + col] = sum;
}

// 5. computeopt: 16 x 8 threads, each computing rows ty and ty + 8 of its
//    column, so every B element read from shared memory feeds two FMAs.
__global__ void computeopt(const double *A, const double *B, double *C, int n)
{
    __shared__ double As[T][T], Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
    double s0 = 0.0, s1 = 0.0;
#pragma unroll 1
    for (int t = 0; t < n / T; t++) {
        As[ty][tx] = A[row * n + t * T + tx];
        As[ty + 8][tx] = A[(row + 8) * n + t * T + tx];
        Bs[ty][tx] = B[(t * T + ty) * n + col];
        Bs[ty + 8][tx] = B[(t * T + ty + 8) * n + col];
        __syncthreads();
#pragma unroll 1
        for (int k = 0; k < T; k++) {
            double b = Bs[k][tx];
            s0 += As[ty][k] * b;
            s1 += As[ty + 8][k] * b;
        }
        __syncthreads();
    }
    C[row * n + col] = s0;
    C[(row + 8) * n + col] = s1;
}

// 6. unroll: computeopt with the k loop fully unrolled.
__global__ void unroll(const double *A, const double *B, double *C, int n)
{
    __shared__ double As[T][T], Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
    double s0 = 0.0, s1 = 0.0;
#pragma unroll 1
    for (int t = 0; t < n / T; t++) {
        As[ty][tx] = A[row * n + t * T + tx];
        As[ty + 8][tx] = A[(row + 8) * n + t * T + tx];
        Bs[ty][tx] = B[(t * T + ty) * n + col];
        Bs[ty + 8][tx] = B[(t * T + ty + 8) * n + col];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < T; k++) {
            double b = Bs[k][tx];
            s0 += As[ty][k] * b;
            s1 += As[ty + 8][k] * b;
        }
        __syncthreads();
    }
    C[row * n + col] = s0;
    C[(row + 8) * n + col] = s1;
}

// 7. prefetch: unroll with the next tiles loaded into registers while the
//    current ones are multiplied (software pipelining).
__global__ void prefetch(const double *A, const double *B, double *C, int n)
{
    __shared__ double As[T][T], Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
    double s0 = 0.0, s1 = 0.0;
    double a0 = A[row * n + tx], a1 = A[(row + 8) * n + tx];
    double b0 = B[ty * n + col], b1 = B[(ty + 8) * n + col];
#pragma unroll 1
    for (int t = 0; t < n / T; t++) {
        As[ty][tx] = a0;
        As[ty + 8][tx] = a1;
        Bs[ty][tx] = b0;
        Bs[ty + 8][tx] = b1;
        __syncthreads();
        if (t + 1 < n / T) {
            a0 = A[row * n + (t + 1) * T + tx];
            a1 = A[(row + 8) * n + (t + 1) * T + tx];
            b0 = B[((t + 1) * T + ty) * n + col];
            b1 = B[((t + 1) * T + ty + 8) * n + col];
        }
#pragma unroll
        for (int k = 0; k < T; k++) {
            double b = Bs[k][tx];
            s0 += As[ty][k] * b;
            s1 += As[ty + 8][k] * b;
        }
        __syncthreads();
    }
    C[row * n + col] = s0;
    C[(row + 8) * n + col] = s1;
}
