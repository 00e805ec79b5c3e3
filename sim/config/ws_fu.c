/*
 * ws_fu: names of the function units a sub-core owns and the map from an
 * opcode class to the unit that executes it (see enum ws_unit_kind).
 * Barriers and EXIT go through the branch unit; every memory class through
 * LD/ST, whose own latency is address generation only: the memory system
 * adds the rest.
 */
#include "trace/ws_opcode.h"
#include "ws_config.h"

static const char *const ws_unit_names[WS_UNIT_COUNT] = {"fp32",    "fp16",
                                                         "int",     "fp64",
                                                         "sfu",     "tensor",
                                                         "uniform", "misc",
                                                         "branch",  "ldst"};

const char *ws_unit_name(enum ws_unit_kind unit)
{
    return (unsigned)unit < WS_UNIT_COUNT ? ws_unit_names[unit] : "?";
}

enum ws_unit_kind ws_unit_for_class(int op_class)
{
    switch (op_class) {
    case WS_OPC_FP32:
        return WS_UNIT_FP32;
    case WS_OPC_FP16:
        return WS_UNIT_FP16;
    case WS_OPC_INT:
        return WS_UNIT_INT;
    case WS_OPC_FP64:
        return WS_UNIT_FP64;
    case WS_OPC_SFU:
        return WS_UNIT_SFU;
    case WS_OPC_TENSOR:
        return WS_UNIT_TENSOR;
    case WS_OPC_UNIFORM:
        return WS_UNIT_UNIFORM;
    case WS_OPC_BRANCH:
    case WS_OPC_BARRIER:
    case WS_OPC_EXIT:
        return WS_UNIT_BRANCH;
    case WS_OPC_GLOBAL:
    case WS_OPC_SHARED:
    case WS_OPC_LOCAL:
    case WS_OPC_CONST:
    case WS_OPC_TEX:
        return WS_UNIT_LDST;
    default:
        return WS_UNIT_MISC;
    }
}
