/*
 * ws_opcode: the mnemonic table and the width rule (see ws_opcode.h).
 *
 * Classes follow reference section 5 and the NVIDIA CUDA binary utilities
 * instruction-set tables.  SM ranges are the architectures that print the
 * mnemonic: pre-Volta-only forms (IADD, XMAD, SSY...) end at 69, Volta-on
 * forms start at 70, Turing's uniform datapath at 75, Ampere's LDGSTS and
 * DMMA at 80, Hopper's GMMA, REDG, cluster barriers, TMA (UTMA*, UBLK*)
 * and mbarriers (SYNCS) at 90: every mnemonic of the sm_90a listings under
 * traces/kernels/hopper/ is here.  SYNCS is a shared-memory class (its
 * operand is the mbarrier's address); UTMACCTL (descriptor prefetch) and
 * UTMACMDFLUSH move no data the simulator times.  The table is
 * kept sorted by name then SM range so lookup is a binary search; a unit test
 * checks that order.
 */
#include "ws_opcode.h"

#include <string.h>

#include "ws_async_op.h"
#include "ws_trace.h"

struct ws_opcode_entry {
    const char *name;
    unsigned sm_min, sm_max;
    enum ws_op_class cls;
    enum ws_mem_op memop;
};

static const struct ws_opcode_entry ws_opcode_table[] = {
    {"ACQBULK", 90, 999, WS_OPC_MISC, WS_MEMOP_NONE},
    {"ARRIVES", 30, 999, WS_OPC_SHARED, WS_MEMOP_NONE},
    {"ATOM", 30, 999, WS_OPC_GLOBAL, WS_MEMOP_ATOMIC},
    {"ATOMG", 30, 999, WS_OPC_GLOBAL, WS_MEMOP_ATOMIC},
    {"ATOMS", 30, 999, WS_OPC_SHARED, WS_MEMOP_ATOMIC},
    {"B2R", 30, 999, WS_OPC_MISC, WS_MEMOP_NONE},
    {"BAR", 30, 999, WS_OPC_BARRIER, WS_MEMOP_NONE},
    {"BFE", 30, 69, WS_OPC_INT, WS_MEMOP_NONE},
    {"BFI", 30, 69, WS_OPC_INT, WS_MEMOP_NONE},
    {"BGMMA", 90, 999, WS_OPC_TENSOR, WS_MEMOP_NONE},
    {"BMMA", 72, 999, WS_OPC_TENSOR, WS_MEMOP_NONE},
    {"BMOV", 30, 999, WS_OPC_MISC, WS_MEMOP_NONE},
    {"BMSK", 30, 999, WS_OPC_INT, WS_MEMOP_NONE},
    {"BPT", 30, 999, WS_OPC_MISC, WS_MEMOP_NONE},
    {"BRA", 30, 999, WS_OPC_BRANCH, WS_MEMOP_NONE},
    {"BREAK", 30, 999, WS_OPC_BRANCH, WS_MEMOP_NONE},
    {"BREV", 30, 999, WS_OPC_INT, WS_MEMOP_NONE},
    {"BRK", 30, 69, WS_OPC_BRANCH, WS_MEMOP_NONE},
    {"BRX", 30, 999, WS_OPC_BRANCH, WS_MEMOP_NONE},
    {"BSSY", 30, 999, WS_OPC_BRANCH, WS_MEMOP_NONE},
    {"BSYNC", 30, 999, WS_OPC_BRANCH, WS_MEMOP_NONE},
    {"CAL", 30, 69, WS_OPC_BRANCH, WS_MEMOP_NONE},
    {"CALL", 30, 999, WS_OPC_BRANCH, WS_MEMOP_NONE},
    {"CCTL", 30, 999, WS_OPC_MISC, WS_MEMOP_NONE},
    {"CCTLL", 30, 999, WS_OPC_MISC, WS_MEMOP_NONE},
    {"CGAERRBAR", 90, 999, WS_OPC_BARRIER, WS_MEMOP_NONE},
    {"CONT", 30, 69, WS_OPC_BRANCH, WS_MEMOP_NONE},
    {"CS2R", 30, 999, WS_OPC_MISC, WS_MEMOP_NONE},
    {"CSET", 30, 69, WS_OPC_MISC, WS_MEMOP_NONE},
    {"CSETP", 30, 69, WS_OPC_MISC, WS_MEMOP_NONE},
    {"DADD", 30, 999, WS_OPC_FP64, WS_MEMOP_NONE},
    {"DEPBAR", 30, 999, WS_OPC_MISC, WS_MEMOP_NONE},
    {"DFMA", 30, 999, WS_OPC_FP64, WS_MEMOP_NONE},
    {"DMMA", 80, 999, WS_OPC_TENSOR, WS_MEMOP_NONE},
    {"DMNMX", 30, 999, WS_OPC_FP64, WS_MEMOP_NONE},
    {"DMUL", 30, 999, WS_OPC_FP64, WS_MEMOP_NONE},
    {"DSET", 30, 999, WS_OPC_FP64, WS_MEMOP_NONE},
    {"DSETP", 30, 999, WS_OPC_FP64, WS_MEMOP_NONE},
    {"ELECT", 30, 999, WS_OPC_MISC, WS_MEMOP_NONE},
    {"ERRBAR", 30, 999, WS_OPC_BARRIER, WS_MEMOP_NONE},
    {"EXIT", 30, 999, WS_OPC_EXIT, WS_MEMOP_NONE},
    {"F2F", 30, 999, WS_OPC_MISC, WS_MEMOP_NONE},
    {"F2FP", 30, 999, WS_OPC_MISC, WS_MEMOP_NONE},
    {"F2I", 30, 999, WS_OPC_MISC, WS_MEMOP_NONE},
    {"F2IP", 30, 999, WS_OPC_MISC, WS_MEMOP_NONE},
    {"FADD", 30, 999, WS_OPC_FP32, WS_MEMOP_NONE},
    {"FADD32I", 30, 999, WS_OPC_FP32, WS_MEMOP_NONE},
    {"FCHK", 30, 999, WS_OPC_FP32, WS_MEMOP_NONE},
    {"FCMP", 30, 999, WS_OPC_FP32, WS_MEMOP_NONE},
    {"FENCE", 90, 999, WS_OPC_BARRIER, WS_MEMOP_NONE},
    {"FFMA", 30, 999, WS_OPC_FP32, WS_MEMOP_NONE},
    {"FFMA32I", 30, 999, WS_OPC_FP32, WS_MEMOP_NONE},
    {"FLO", 30, 999, WS_OPC_INT, WS_MEMOP_NONE},
    {"FMNMX", 30, 999, WS_OPC_FP32, WS_MEMOP_NONE},
    {"FMUL", 30, 999, WS_OPC_FP32, WS_MEMOP_NONE},
    {"FMUL32I", 30, 999, WS_OPC_FP32, WS_MEMOP_NONE},
    {"FRND", 30, 999, WS_OPC_FP32, WS_MEMOP_NONE},
    {"FSEL", 30, 999, WS_OPC_FP32, WS_MEMOP_NONE},
    {"FSET", 30, 999, WS_OPC_FP32, WS_MEMOP_NONE},
    {"FSETP", 30, 999, WS_OPC_FP32, WS_MEMOP_NONE},
    {"FSWZADD", 30, 999, WS_OPC_FP32, WS_MEMOP_NONE},
    {"GETLMEMBASE", 30, 999, WS_OPC_MISC, WS_MEMOP_NONE},
    {"HADD2", 53, 999, WS_OPC_FP16, WS_MEMOP_NONE},
    {"HADD2_32I", 53, 999, WS_OPC_FP16, WS_MEMOP_NONE},
    {"HFMA2", 53, 999, WS_OPC_FP16, WS_MEMOP_NONE},
    {"HFMA2_32I", 53, 999, WS_OPC_FP16, WS_MEMOP_NONE},
    {"HGMMA", 90, 999, WS_OPC_TENSOR, WS_MEMOP_NONE},
    {"HMMA", 70, 999, WS_OPC_TENSOR, WS_MEMOP_NONE},
    {"HMNMX2", 80, 999, WS_OPC_FP16, WS_MEMOP_NONE},
    {"HMUL2", 53, 999, WS_OPC_FP16, WS_MEMOP_NONE},
    {"HMUL2_32I", 53, 999, WS_OPC_FP16, WS_MEMOP_NONE},
    {"HSET2", 53, 999, WS_OPC_FP16, WS_MEMOP_NONE},
    {"HSETP2", 53, 999, WS_OPC_FP16, WS_MEMOP_NONE},
    {"I2F", 30, 999, WS_OPC_MISC, WS_MEMOP_NONE},
    {"I2FP", 30, 999, WS_OPC_MISC, WS_MEMOP_NONE},
    {"I2I", 30, 999, WS_OPC_MISC, WS_MEMOP_NONE},
    {"IABS", 30, 999, WS_OPC_INT, WS_MEMOP_NONE},
    {"IADD", 30, 69, WS_OPC_INT, WS_MEMOP_NONE},
    {"IADD3", 30, 999, WS_OPC_INT, WS_MEMOP_NONE},
    {"IADD32I", 30, 69, WS_OPC_INT, WS_MEMOP_NONE},
    {"ICMP", 30, 999, WS_OPC_INT, WS_MEMOP_NONE},
    {"IDP", 30, 999, WS_OPC_INT, WS_MEMOP_NONE},
    {"IGMMA", 90, 999, WS_OPC_TENSOR, WS_MEMOP_NONE},
    {"IMAD", 30, 999, WS_OPC_INT, WS_MEMOP_NONE},
    {"IMAD32I", 30, 999, WS_OPC_INT, WS_MEMOP_NONE},
    {"IMADSP", 30, 69, WS_OPC_INT, WS_MEMOP_NONE},
    {"IMMA", 72, 999, WS_OPC_TENSOR, WS_MEMOP_NONE},
    {"IMNMX", 30, 999, WS_OPC_INT, WS_MEMOP_NONE},
    {"IMNMX3", 90, 999, WS_OPC_INT, WS_MEMOP_NONE},
    {"IMUL", 30, 69, WS_OPC_INT, WS_MEMOP_NONE},
    {"IMUL32I", 30, 999, WS_OPC_INT, WS_MEMOP_NONE},
    {"ISCADD", 30, 69, WS_OPC_INT, WS_MEMOP_NONE},
    {"ISCADD32I", 30, 999, WS_OPC_INT, WS_MEMOP_NONE},
    {"ISET", 30, 999, WS_OPC_INT, WS_MEMOP_NONE},
    {"ISETP", 30, 999, WS_OPC_INT, WS_MEMOP_NONE},
    {"JCAL", 30, 69, WS_OPC_BRANCH, WS_MEMOP_NONE},
    {"JMP", 30, 999, WS_OPC_BRANCH, WS_MEMOP_NONE},
    {"JMX", 30, 999, WS_OPC_BRANCH, WS_MEMOP_NONE},
    {"KIL", 30, 69, WS_OPC_EXIT, WS_MEMOP_NONE},
    {"LD", 30, 999, WS_OPC_GLOBAL, WS_MEMOP_LOAD},
    {"LDC", 30, 999, WS_OPC_CONST, WS_MEMOP_LOAD},
    {"LDG", 30, 999, WS_OPC_GLOBAL, WS_MEMOP_LOAD},
    {"LDGDEPBAR", 30, 999, WS_OPC_MISC, WS_MEMOP_NONE},
    {"LDGSTS", 80, 999, WS_OPC_GLOBAL, WS_MEMOP_ASYNC_COPY},
    {"LDL", 30, 999, WS_OPC_LOCAL, WS_MEMOP_LOAD},
    {"LDS", 30, 999, WS_OPC_SHARED, WS_MEMOP_LOAD},
    {"LDSM", 75, 999, WS_OPC_SHARED, WS_MEMOP_LOAD},
    {"LEA", 30, 999, WS_OPC_INT, WS_MEMOP_NONE},
    {"LEPC", 30, 999, WS_OPC_MISC, WS_MEMOP_NONE},
    {"LOP", 30, 69, WS_OPC_INT, WS_MEMOP_NONE},
    {"LOP3", 30, 999, WS_OPC_INT, WS_MEMOP_NONE},
    {"LOP32I", 30, 69, WS_OPC_INT, WS_MEMOP_NONE},
    {"MAPA", 90, 999, WS_OPC_INT, WS_MEMOP_NONE},
    {"MATCH", 30, 999, WS_OPC_MISC, WS_MEMOP_NONE},
    {"MEMBAR", 30, 999, WS_OPC_BARRIER, WS_MEMOP_NONE},
    {"MOV", 30, 999, WS_OPC_MISC, WS_MEMOP_NONE},
    {"MOV32I", 30, 999, WS_OPC_MISC, WS_MEMOP_NONE},
    {"MUFU", 30, 999, WS_OPC_SFU, WS_MEMOP_NONE},
    {"NOP", 30, 999, WS_OPC_MISC, WS_MEMOP_NONE},
    {"P2R", 30, 999, WS_OPC_MISC, WS_MEMOP_NONE},
    {"PBK", 30, 69, WS_OPC_BRANCH, WS_MEMOP_NONE},
    {"PCNT", 30, 69, WS_OPC_BRANCH, WS_MEMOP_NONE},
    {"PLOP3", 30, 999, WS_OPC_INT, WS_MEMOP_NONE},
    {"PMTRIG", 30, 999, WS_OPC_MISC, WS_MEMOP_NONE},
    {"POPC", 30, 999, WS_OPC_INT, WS_MEMOP_NONE},
    {"PREEXIT", 90, 999, WS_OPC_MISC, WS_MEMOP_NONE},
    {"PRET", 30, 69, WS_OPC_BRANCH, WS_MEMOP_NONE},
    {"PRMT", 30, 999, WS_OPC_INT, WS_MEMOP_NONE},
    {"PSETP", 30, 999, WS_OPC_INT, WS_MEMOP_NONE},
    {"QGMMA", 90, 999, WS_OPC_TENSOR, WS_MEMOP_NONE},
    {"R2P", 30, 999, WS_OPC_MISC, WS_MEMOP_NONE},
    {"R2UR", 75, 999, WS_OPC_UNIFORM, WS_MEMOP_NONE},
    {"RED", 30, 999, WS_OPC_GLOBAL, WS_MEMOP_REDUCTION},
    {"REDG", 90, 999, WS_OPC_GLOBAL, WS_MEMOP_REDUCTION},
    {"REDUX", 80, 999, WS_OPC_MISC, WS_MEMOP_NONE},
    {"RET", 30, 999, WS_OPC_BRANCH, WS_MEMOP_NONE},
    {"RRO", 30, 69, WS_OPC_SFU, WS_MEMOP_NONE},
    {"S2R", 30, 999, WS_OPC_MISC, WS_MEMOP_NONE},
    {"S2UR", 75, 999, WS_OPC_UNIFORM, WS_MEMOP_NONE},
    {"SEL", 30, 999, WS_OPC_INT, WS_MEMOP_NONE},
    {"SETLMEMBASE", 30, 999, WS_OPC_MISC, WS_MEMOP_NONE},
    {"SGXT", 30, 999, WS_OPC_INT, WS_MEMOP_NONE},
    {"SHF", 30, 999, WS_OPC_INT, WS_MEMOP_NONE},
    {"SHFL", 30, 999, WS_OPC_MISC, WS_MEMOP_NONE},
    {"SHL", 30, 69, WS_OPC_INT, WS_MEMOP_NONE},
    {"SHR", 30, 69, WS_OPC_INT, WS_MEMOP_NONE},
    {"SSY", 30, 69, WS_OPC_BRANCH, WS_MEMOP_NONE},
    {"ST", 30, 999, WS_OPC_GLOBAL, WS_MEMOP_STORE},
    {"STG", 30, 999, WS_OPC_GLOBAL, WS_MEMOP_STORE},
    {"STL", 30, 999, WS_OPC_LOCAL, WS_MEMOP_STORE},
    {"STS", 30, 999, WS_OPC_SHARED, WS_MEMOP_STORE},
    {"STSM", 90, 999, WS_OPC_SHARED, WS_MEMOP_STORE},
    {"SUATOM", 30, 999, WS_OPC_TEX, WS_MEMOP_ATOMIC},
    {"SULD", 30, 999, WS_OPC_TEX, WS_MEMOP_LOAD},
    {"SURED", 30, 999, WS_OPC_TEX, WS_MEMOP_REDUCTION},
    {"SUST", 30, 999, WS_OPC_TEX, WS_MEMOP_STORE},
    {"SYNC", 30, 69, WS_OPC_BRANCH, WS_MEMOP_NONE},
    {"SYNCS", 90, 999, WS_OPC_SHARED, WS_MEMOP_ATOMIC},
    {"TEX", 30, 999, WS_OPC_TEX, WS_MEMOP_LOAD},
    {"TEXS", 30, 999, WS_OPC_TEX, WS_MEMOP_LOAD},
    {"TLD", 30, 999, WS_OPC_TEX, WS_MEMOP_LOAD},
    {"TLD4", 30, 999, WS_OPC_TEX, WS_MEMOP_LOAD},
    {"TLD4S", 30, 999, WS_OPC_TEX, WS_MEMOP_LOAD},
    {"TLDS", 30, 999, WS_OPC_TEX, WS_MEMOP_LOAD},
    {"TMML", 30, 999, WS_OPC_TEX, WS_MEMOP_LOAD},
    {"TXD", 30, 999, WS_OPC_TEX, WS_MEMOP_LOAD},
    {"TXQ", 30, 999, WS_OPC_TEX, WS_MEMOP_LOAD},
    {"UBLKCP", 90, 999, WS_OPC_GLOBAL, WS_MEMOP_LOAD},
    {"UBLKPF", 90, 999, WS_OPC_GLOBAL, WS_MEMOP_LOAD},
    {"UBLKRED", 90, 999, WS_OPC_GLOBAL, WS_MEMOP_REDUCTION},
    {"UBMSK", 75, 999, WS_OPC_UNIFORM, WS_MEMOP_NONE},
    {"UBREV", 75, 999, WS_OPC_UNIFORM, WS_MEMOP_NONE},
    {"UCGABAR_ARV", 90, 999, WS_OPC_BARRIER, WS_MEMOP_NONE},
    {"UCGABAR_WAIT", 90, 999, WS_OPC_BARRIER, WS_MEMOP_NONE},
    {"UCLEA", 75, 999, WS_OPC_UNIFORM, WS_MEMOP_NONE},
    {"UFLO", 75, 999, WS_OPC_UNIFORM, WS_MEMOP_NONE},
    {"UIABS", 75, 999, WS_OPC_UNIFORM, WS_MEMOP_NONE},
    {"UIADD3", 75, 999, WS_OPC_UNIFORM, WS_MEMOP_NONE},
    {"UIMAD", 75, 999, WS_OPC_UNIFORM, WS_MEMOP_NONE},
    {"UIMNMX", 75, 999, WS_OPC_UNIFORM, WS_MEMOP_NONE},
    {"UISETP", 75, 999, WS_OPC_UNIFORM, WS_MEMOP_NONE},
    {"ULDC", 75, 999, WS_OPC_UNIFORM, WS_MEMOP_NONE},
    {"ULEA", 75, 999, WS_OPC_UNIFORM, WS_MEMOP_NONE},
    {"ULOP", 75, 999, WS_OPC_UNIFORM, WS_MEMOP_NONE},
    {"ULOP3", 75, 999, WS_OPC_UNIFORM, WS_MEMOP_NONE},
    {"ULOP32I", 75, 999, WS_OPC_UNIFORM, WS_MEMOP_NONE},
    {"UMOV", 75, 999, WS_OPC_UNIFORM, WS_MEMOP_NONE},
    {"UP2UR", 75, 999, WS_OPC_UNIFORM, WS_MEMOP_NONE},
    {"UPLOP3", 75, 999, WS_OPC_UNIFORM, WS_MEMOP_NONE},
    {"UPOPC", 75, 999, WS_OPC_UNIFORM, WS_MEMOP_NONE},
    {"UPRMT", 75, 999, WS_OPC_UNIFORM, WS_MEMOP_NONE},
    {"UPSETP", 75, 999, WS_OPC_UNIFORM, WS_MEMOP_NONE},
    {"USEL", 75, 999, WS_OPC_UNIFORM, WS_MEMOP_NONE},
    {"USETMAXREG", 75, 999, WS_OPC_UNIFORM, WS_MEMOP_NONE},
    {"USETSHMSZ", 90, 999, WS_OPC_UNIFORM, WS_MEMOP_NONE},
    {"USGXT", 75, 999, WS_OPC_UNIFORM, WS_MEMOP_NONE},
    {"USHF", 75, 999, WS_OPC_UNIFORM, WS_MEMOP_NONE},
    {"UTMACCTL", 90, 999, WS_OPC_MISC, WS_MEMOP_NONE},
    {"UTMACMDFLUSH", 90, 999, WS_OPC_MISC, WS_MEMOP_NONE},
    {"UTMALDG", 90, 999, WS_OPC_GLOBAL, WS_MEMOP_LOAD},
    {"UTMAPF", 90, 999, WS_OPC_GLOBAL, WS_MEMOP_LOAD},
    {"UTMAREDG", 90, 999, WS_OPC_GLOBAL, WS_MEMOP_REDUCTION},
    {"UTMASTG", 90, 999, WS_OPC_GLOBAL, WS_MEMOP_STORE},
    {"VABSDIFF", 30, 999, WS_OPC_INT, WS_MEMOP_NONE},
    {"VABSDIFF4", 30, 999, WS_OPC_INT, WS_MEMOP_NONE},
    {"VIADD", 90, 999, WS_OPC_INT, WS_MEMOP_NONE},
    {"VIMNMX", 90, 999, WS_OPC_INT, WS_MEMOP_NONE},
    {"VIMNMX3", 90, 999, WS_OPC_INT, WS_MEMOP_NONE},
    {"VMNMX", 30, 69, WS_OPC_INT, WS_MEMOP_NONE},
    {"VOTE", 30, 999, WS_OPC_MISC, WS_MEMOP_NONE},
    {"VOTEU", 75, 999, WS_OPC_UNIFORM, WS_MEMOP_NONE},
    {"WARPGROUP", 90, 999, WS_OPC_BARRIER, WS_MEMOP_NONE},
    {"WARPSYNC", 30, 999, WS_OPC_BRANCH, WS_MEMOP_NONE},
    {"XMAD", 50, 62, WS_OPC_INT, WS_MEMOP_NONE},
    {"YIELD", 30, 999, WS_OPC_BRANCH, WS_MEMOP_NONE},
};

#define WS_OPCODE_COUNT (sizeof ws_opcode_table / sizeof ws_opcode_table[0])

static int ws_opcode_cmp(const char *base, size_t len, const char *name)
{
    int c = strncmp(base, name, len);

    if (c != 0)
        return c;
    return name[len] == '\0' ? 0 : -1;
}

int ws_opcode_lookup(const char *base, size_t len, unsigned sm,
                     struct ws_opcode_info *info)
{
    size_t lo = 0, hi = WS_OPCODE_COUNT;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ws_opcode_cmp(base, len, ws_opcode_table[mid].name) > 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; i < WS_OPCODE_COUNT; i++) {
        const struct ws_opcode_entry *e = &ws_opcode_table[i];
        if (ws_opcode_cmp(base, len, e->name) != 0)
            break;
        if (sm >= e->sm_min && sm <= e->sm_max) {
            info->cls = (uint8_t)e->cls;
            info->memop = (uint8_t)e->memop;
            return 1;
        }
    }
    return 0;
}

int ws_opcode_known(const char *op, unsigned sm, struct ws_opcode_info *info)
{
    struct ws_async_op a;

    return ws_opcode_lookup(op, ws_opcode_base_len(op), sm, info)
           && ws_async_op_decode(op, &a) == 0;
}

size_t ws_opcode_base_len(const char *opcode)
{
    const char *dot = strchr(opcode, '.');

    return dot ? (size_t)(dot - opcode) : strlen(opcode);
}

unsigned ws_opcode_width(const char *opcode)
{
    const char *p = strchr(opcode, '.');

    while (p) {
        const char *mod = p + 1;
        size_t n;
        p = strchr(mod, '.');
        n = p ? (size_t)(p - mod) : strlen(mod);
        if ((n == 2 && strncmp(mod, "64", 2) == 0))
            return 8;
        if (n == 3 && strncmp(mod, "128", 3) == 0)
            return 16;
        if (n == 2
            && (strncmp(mod, "U8", 2) == 0 || strncmp(mod, "S8", 2) == 0))
            return 1;
        if (n == 3
            && (strncmp(mod, "U16", 3) == 0 || strncmp(mod, "S16", 3) == 0))
            return 2;
        if (n == 2 && strncmp(mod, "32", 2) == 0)
            return 4;
    }
    return 4;
}

const char *const ws_opcode_class_names[WS_OPC_COUNT] = {
    "fp32",    "fp16",  "int",    "fp64",    "sfu",  "tensor",
    "uniform", "misc",  "branch", "barrier", "exit", "global",
    "shared",  "local", "const",  "tex"};

const char *ws_opcode_class_name(enum ws_op_class cls)
{
    return (unsigned)cls < WS_OPC_COUNT ? ws_opcode_class_names[cls] : "?";
}

int ws_opcode_class_parse(const char *name)
{
    for (int i = 0; i < WS_OPC_COUNT; i++)
        if (strcmp(name, ws_opcode_class_names[i]) == 0)
            return i;
    return -1;
}

int ws_opcode_class_is_memory(enum ws_op_class cls)
{
    return cls >= WS_OPC_GLOBAL && cls <= WS_OPC_TEX;
}

int ws_opcode_table_check(void)
{
    for (size_t i = 1; i < WS_OPCODE_COUNT; i++) {
        const struct ws_opcode_entry *a = &ws_opcode_table[i - 1];
        const struct ws_opcode_entry *b = &ws_opcode_table[i];
        int c = strcmp(a->name, b->name);
        if (c > 0 || (c == 0 && a->sm_max >= b->sm_min))
            return -1;
    }
    return 0;
}

unsigned ws_opcode_semantics(const char *op)
{
    size_t blen = ws_opcode_base_len(op);
    struct ws_async_op a;

    if (ws_async_op_decode(op, &a) == 0 && a.kind != WS_ASYNC_NONE)
        return WS_INST_ASYNC
               | (a.kind == WS_ASYNC_WG_WAIT ? (unsigned)WS_INST_WG_WAIT : 0u);

    /* BAR.ARV only arrives; BAR.SYNC, BAR.RED and a bare BAR wait. */
    if (blen == 3 && strncmp(op, "BAR", 3) == 0)
        return strstr(op, ".ARV") ? 0u : (unsigned)WS_INST_BAR_SYNC;
    if ((blen == 6 && strncmp(op, "MEMBAR", 6) == 0)
        || (blen == 5 && strncmp(op, "FENCE", 5) == 0))
        return WS_INST_FENCE;
    if (blen == 9 && strncmp(op, "LDGDEPBAR", 9) == 0)
        return WS_INST_ASYNC_COMMIT;
    if (blen == 6 && strncmp(op, "DEPBAR", 6) == 0)
        return WS_INST_ASYNC_WAIT;
    return 0;
}
