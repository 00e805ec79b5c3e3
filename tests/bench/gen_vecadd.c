/*
 * gen_vecadd: writes the Accel-Sim trace of a 1M-element vector add for the
 * speed benchmark (8192 CTAs x 128 threads, 15 warp instructions per warp:
 * 491,520 warp instructions), the same SASS as traces/accelsim/vecadd.
 * About 25 MB of text, so it is generated at bench time, not committed.
 *   usage: gen_vecadd DIR [N]
 */
#include <stdio.h>
#include <stdlib.h>

static const unsigned long long A = 0x7f4a1e000000ull, B = 0x7f4a1e400000ull,
                                C = 0x7f4a1e800000ull;

static void gen_warp(FILE *f, unsigned long long base, unsigned long long n)
{
    unsigned live = 0;

    for (unsigned l = 0; l < 32; l++)
        if (base + l < n)
            live |= 1u << l;
    fprintf(f, "insts = %d\n", live ? 15 : 6);
    fprintf(f,
            "0000 ffffffff 1 R1 MOV 0 0\n0010 ffffffff 1 R6 S2R 0 0\n"
            "0020 ffffffff 1 R3 S2R 0 0\n0030 ffffffff 1 R6 IMAD 2 R6 R3 0\n"
            "0040 ffffffff 0 ISETP.GE.AND 1 R6 0\n"
            "0050 %08x 0 EXIT 0 0\n",
            ~live);
    if (!live)
        return;
    fprintf(f,
            "0060 %08x 1 R7 MOV 0 0\n0070 %08x 1 R2 IMAD.WIDE 2 R6 R7 0\n"
            "0080 %08x 1 R4 IMAD.WIDE 2 R6 R7 0\n",
            live, live, live);
    fprintf(f, "0090 %08x 1 R2 LDG.E.SYS 1 R2 4 1 0x%016llx 4\n", live,
            A + 4 * base);
    fprintf(f, "00a0 %08x 1 R5 LDG.E.SYS 1 R4 4 1 0x%016llx 4\n", live,
            B + 4 * base);
    fprintf(
        f,
        "00b0 %08x 1 R6 IMAD.WIDE 2 R6 R7 0\n00c0 %08x 1 R9 FADD 2 R2 R5 0\n",
        live, live);
    fprintf(f, "00d0 %08x 0 STG.E.SYS 2 R6 R9 4 1 0x%016llx 4\n", live,
            C + 4 * base);
    fprintf(f, "00e0 %08x 0 EXIT 0 0\n", live);
}

int main(int argc, char **argv)
{
    unsigned long long n = argc > 2 ? strtoull(argv[2], NULL, 10) : 1048576;
    unsigned long long ctas = (n + 127) / 128;
    char path[4096];
    FILE *f;

    if (argc < 2)
        return fprintf(stderr, "usage: gen_vecadd DIR [N]\n"), 2;
    snprintf(path, sizeof path, "%s/kernelslist.g", argv[1]);
    if (!(f = fopen(path, "w")))
        return perror(path), 1;
    fprintf(f,
            "MemcpyHtoD,0x%016llx,%llu\nMemcpyHtoD,0x%016llx,%llu\n"
            "kernel-1.traceg\n",
            A, 4 * n, B, 4 * n);
    fclose(f);
    snprintf(path, sizeof path, "%s/kernel-1.traceg", argv[1]);
    if (!(f = fopen(path, "w")))
        return perror(path), 1;
    fprintf(f,
            "-kernel name = _Z6vecAddPKfS0_Pfi\n-kernel id = 1\n"
            "-grid dim = (%llu,1,1)\n-block dim = (128,1,1)\n-shmem = 0\n"
            "-nregs = 10\n-binary version = 70\n-cuda stream id = 0\n"
            "-shmem base_addr = 0x00007f4a4c000000\n"
            "-local mem base_addr = 0x00007f4a4a000000\n"
            "-nvbit version = 1.5.5\n-accelsim tracer version = 4\n"
            "-enable lineinfo = 0\n\n#traces format = [line_num] PC mask "
            "dest_num [reg_dests] opcode src_num [reg_srcs] mem_width "
            "[adrrescompress?] [mem_addresses] [immediate]\n\n",
            ctas);
    for (unsigned long long c = 0; c < ctas; c++) {
        fprintf(f, "#BEGIN_TB\n\nthread block = %llu,0,0\n\n", c);
        for (unsigned w = 0; w < 4; w++) {
            fprintf(f, "warp = %u\n", w);
            gen_warp(f, c * 128 + w * 32, n);
        }
        fprintf(f, "\n#END_TB\n\n");
    }
    return fclose(f) == 0 ? 0 : 1;
}
