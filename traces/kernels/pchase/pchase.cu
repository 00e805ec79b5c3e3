// pchase: one thread follows a chain of indices, each load's address
// depending on the previous load; with next[j] = (j + stride) % elems the
// footprint (elems * 4 bytes) decides whether hops hit L1, L2 or DRAM.
__global__ void pchase(const unsigned *next, unsigned *out, int hops)
{
    unsigned j = 0;
#pragma unroll 1
    for (int h = 0; h < hops; h++)
        j = next[j];
    out[0] = j;
}
