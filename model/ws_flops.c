/*
 * ws_flops: operations per SASS instruction (see ws_flops.h).
 */
#include "ws_flops.h"

#include <stdlib.h>
#include <string.h>

#include "trace/ws_opcode.h"

static int ws_flops_prefix(const char *op, const char *p)
{
    return strncmp(op, p, strlen(p)) == 0;
}

/* Reads an unsigned decimal at *s, moving *s past it; 0 when none. */
static unsigned ws_flops_num(const char **s)
{
    char *end;
    unsigned long v = strtoul(*s, &end, 10);

    if (end == *s || v > 4096)
        return 0;
    *s = end;
    return (unsigned)v;
}

/* The packed shapes of HMMA/IMMA/DMMA/BMMA: "16816" is m16 n8 k16, "1688"
 * m16 n8 k8, "884" m8 n8 k4, "8816" m8 n8 k16, "16832" m16 n8 k32.  Every
 * shape NVIDIA ships has m 16 or 8 and n 8, so the digits split there. */
static int ws_flops_packed_shape(const char *s, unsigned *m, unsigned *n,
                                 unsigned *k)
{
    size_t len = strspn(s, "0123456789");
    char digits[8];
    const char *rest;

    if (len < 3 || len >= sizeof digits)
        return 0;
    memcpy(digits, s, len);
    digits[len] = '\0';
    if (strncmp(digits, "168", 3) == 0)
        *m = 16, rest = digits + 3;
    else if (strncmp(digits, "88", 2) == 0)
        *m = 8, rest = digits + 2;
    else
        return 0;
    *n = 8;
    *k = ws_flops_num(&rest);
    return *k > 0 && *rest == '\0';
}

int ws_flops_mma_shape(const char *op, unsigned *m, unsigned *n, unsigned *k)
{
    const char *dot = strchr(op, '.');

    if (!dot)
        return 0;
    dot++;
    /* Hopper's warpgroup forms spell the shape out: "64x128x16". */
    if (strchr(dot, 'x') && strchr(dot, 'x') < dot + strcspn(dot, ".")) {
        const char *s = dot;
        *m = ws_flops_num(&s);
        if (*s++ != 'x')
            return 0;
        *n = ws_flops_num(&s);
        if (*s++ != 'x')
            return 0;
        *k = ws_flops_num(&s);
        return *m && *n && *k;
    }
    return ws_flops_packed_shape(dot, m, n, k);
}

/* A tensor instruction's operations: 2mnk for the warp-wide shapes; a
 * warpgroup form (HGMMA and kin) is issued by each of its four warps, so
 * a quarter of its 2mnk counts per instruction. */
static double ws_flops_tensor(const char *op)
{
    unsigned m, n, k;
    double work;

    if (!ws_flops_mma_shape(op, &m, &n, &k))
        return 0;
    work = 2.0 * m * n * k;
    if (strstr(op, "GMMA"))
        work /= 4;
    return work;
}

void ws_flops_of(const char *op, int cls, struct ws_flops *out)
{
    memset(out, 0, sizeof *out);
    switch (cls) {
    case WS_OPC_FP32:
        out->kind = WS_FLOP_FP32;
        out->fma = ws_flops_prefix(op, "FFMA");
        out->per_lane = out->fma ? 2 : 1;
        break;
    case WS_OPC_FP16:
        /* The "2" forms work on two packed halves per lane. */
        out->kind = WS_FLOP_FP16;
        out->fma = ws_flops_prefix(op, "HFMA");
        out->per_lane = (out->fma ? 2 : 1)
                        * (strchr(op, '2') && !ws_flops_prefix(op, "HSET") ? 2
                                                                           : 1);
        break;
    case WS_OPC_FP64:
        out->kind = WS_FLOP_FP64;
        out->fma = ws_flops_prefix(op, "DFMA");
        out->per_lane = out->fma ? 2 : 1;
        break;
    case WS_OPC_TENSOR:
        out->kind = WS_FLOP_TENSOR;
        out->per_warp = ws_flops_tensor(op);
        break;
    default:
        break;
    }
}
