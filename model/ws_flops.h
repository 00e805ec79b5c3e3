/*
 * ws_flops: how many arithmetic operations one SASS instruction performs,
 * and on which pipe's peak they count, for the roofline's compute roofs
 * and the quantitative roofline's operation mix.
 *
 * Per lane for the SIMT pipes (an FFMA is two operations, an HFMA2 four:
 * two packed halves, each a multiply and an add), per warp instruction for
 * the tensor pipe, whose shape fixes the work (HMMA.16816 is an
 * m16n8k16 multiply-accumulate: 2 x 16 x 8 x 16 = 4096 operations).
 *
 * Leaves out: SFU operations (MUFU: transcendental approximations are not
 * counted as FLOPs by Nsight either), integer arithmetic outside the tensor
 * pipe, conversions and comparisons beyond one operation each.
 */
#ifndef WS_FLOPS_H
#define WS_FLOPS_H

enum ws_flop_kind {
    WS_FLOP_NONE,
    WS_FLOP_FP32,
    WS_FLOP_FP16,
    WS_FLOP_FP64,
    WS_FLOP_TENSOR,
    WS_FLOP_KINDS
};

struct ws_flops {
    enum ws_flop_kind kind;
    double per_lane; /* SIMT pipes: operations per active lane */
    double per_warp; /* tensor pipe: operations per instruction */
    int fma;         /* a fused multiply-add (E_mix counts them) */
};

/* What the instruction with mnemonic op (with its modifiers, e.g.
 * "HMMA.16816.F32") of opcode class cls (enum ws_op_class) computes. */
void ws_flops_of(const char *op, int cls, struct ws_flops *out);

/* The m, n, k of a tensor mnemonic's shape ("HMMA.16816", "IMMA.8816",
 * "HGMMA.64x128x16"): 1 when read, 0 for a form without a shape. */
int ws_flops_mma_shape(const char *op, unsigned *m, unsigned *n, unsigned *k);

#endif
