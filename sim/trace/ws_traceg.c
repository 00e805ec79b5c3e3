/*
 * ws_traceg: Accel-Sim kernel trace reader (see ws_traceg.h).
 *
 * The body is a small state machine over lines:
 *   outside a CTA:  "#BEGIN_TB" (other '#' lines are comments)
 *   CTA header:     "thread block = x,y,z", optional Hopper cluster lines
 *   warps:          "warp = w", "insts = n", then exactly n instruction lines
 *   end:            "#END_TB" returns the CTA
 * Instruction lines are split into tokens in place; each field is checked
 * with its column so that a bad trace is reported where it went wrong.
 */
#include "ws_traceg.h"

#include <stdlib.h>
#include <string.h>

#include "../util/ws_lines.h"
#include "../util/ws_num.h"
#include "ws_opcode.h"

/* A CTA larger than this is refused rather than allowed to exhaust memory:
 * 2^25 instructions is far beyond any real CTA and keeps a corrupt
 * "insts = " claim from turning into a multi-gigabyte allocation. */
#define WS_TRACEG_MAX_CTA_INSTS (1u << 25)
#define WS_TRACEG_MAX_TOKENS 96

/* Generic LD/ST addresses are classified by window.  The tracer gives each
 * window's base but not its size; 16 MiB holds any SM's shared memory and the
 * local window is taken to run up to the shared one when it sits below it. */
#define WS_TRACEG_SHARED_WINDOW (16ull << 20)

struct ws_tok {
    char *s;
    size_t len;
    long col;
};

struct ws_opinfo {
    uint8_t cls, memop, known;
};

struct ws_traceg {
    struct ws_lines lines;
    struct ws_trace_opts opts;
    struct ws_launch launch;
    struct ws_strtab ops;
    struct ws_opinfo *opinfo;        /* by op id */
    size_t opinfo_cap;
    struct ws_inst *inst;
    size_t ninst, inst_cap;
    uint64_t *addrs;
    size_t naddr, addr_cap;
    struct ws_warp_stream *warps;
    size_t *warp_first;              /* pool index of each warp's first inst */
    uint8_t *warp_seen;
    struct ws_cta_stream cta;
    int finished;
};

struct ws_tokens {
    struct ws_tok t[WS_TRACEG_MAX_TOKENS];
    int n, i;
};

void ws_trace_opts_default(struct ws_trace_opts *opts)
{
    opts->unknown_class = WS_OPC_MISC;
    opts->allow_unknown_keys = 0;
}

const char *ws_space_name(enum ws_space space)
{
    static const char *const names[WS_SPACE_COUNT] = {
        "none", "global", "shared", "local", "const", "tex"
    };
    return (unsigned)space < WS_SPACE_COUNT ? names[space] : "?";
}

static const char *ws_traceg_name(const struct ws_traceg *r)
{
    return r->lines.name;
}

static int ws_traceg_fail(struct ws_traceg *r, struct ws_err *err, long col,
                          const char *what, const char *expected)
{
    return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, col, "%s "
                     "(expected %s)", what, expected);
}

static int ws_tokenize(struct ws_traceg *r, struct ws_tokens *tk, char *line,
                       struct ws_err *err)
{
    char *p = line;

    tk->n = 0;
    tk->i = 0;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '\0')
            return 0;
        if (tk->n == WS_TRACEG_MAX_TOKENS)
            return ws_traceg_fail(r, err, p - line + 1, "too many fields on "
                                  "an instruction line", "at most 32 "
                                  "addresses and the fixed fields");
        tk->t[tk->n].s = p;
        tk->t[tk->n].col = p - line + 1;
        while (*p && *p != ' ' && *p != '\t')
            p++;
        tk->t[tk->n].len = (size_t)(p - tk->t[tk->n].s);
        tk->n++;
        if (*p)
            *p++ = '\0';
    }
}

/* The next token, or an error naming what was expected there. */
static struct ws_tok *ws_tok_next(struct ws_traceg *r, struct ws_tokens *tk,
                                  const char *expected, struct ws_err *err)
{
    if (tk->i < tk->n)
        return &tk->t[tk->i++];
    ws_err_at(err, ws_traceg_name(r), r->lines.lineno,
              tk->n ? tk->t[tk->n - 1].col + (long)tk->t[tk->n - 1].len : 1,
              "instruction line ends early (expected %s)", expected);
    return NULL;
}

static int ws_tok_dec32(struct ws_traceg *r, struct ws_tokens *tk,
                        const char *what, uint32_t *out, struct ws_err *err)
{
    struct ws_tok *t = ws_tok_next(r, tk, what, err);

    if (!t)
        return -1;
    if (ws_num_u32(t->s, t->len, out) < 0)
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, t->col,
                         "bad %s '%s' (expected a decimal number)", what, t->s);
    return 0;
}

static int ws_tok_hex(struct ws_traceg *r, struct ws_tokens *tk,
                      const char *what, uint64_t *out, struct ws_err *err)
{
    struct ws_tok *t = ws_tok_next(r, tk, what, err);

    if (!t)
        return -1;
    if (ws_num_hex(t->s, t->len, out) < 0)
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, t->col,
                         "bad %s '%s' (expected a hexadecimal number)", what,
                         t->s);
    return 0;
}

static int ws_tok_signed(struct ws_traceg *r, struct ws_tokens *tk,
                         const char *what, int64_t *out, struct ws_err *err)
{
    struct ws_tok *t = ws_tok_next(r, tk, what, err);

    if (!t)
        return -1;
    if (ws_num_i64(t->s, t->len, out) < 0)
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, t->col,
                         "bad %s '%s' (expected a signed decimal number)",
                         what, t->s);
    return 0;
}

/* ---- header ---------------------------------------------------------- */

static int ws_parse_dim3(const char *v, uint32_t out[3])
{
    char extra;
    unsigned long long a, b, c;

    if (sscanf(v, " (%llu,%llu,%llu)%c", &a, &b, &c, &extra) != 3)
        return -1;
    if (a == 0 || b == 0 || c == 0 || a > UINT32_MAX || b > UINT32_MAX
        || c > UINT32_MAX)
        return -1;
    out[0] = (uint32_t)a;
    out[1] = (uint32_t)b;
    out[2] = (uint32_t)c;
    return 0;
}

static char *ws_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);

    if (p)
        memcpy(p, s, n);
    return p;
}

enum ws_hkey {
    WS_HK_NAME, WS_HK_ID, WS_HK_GRID, WS_HK_BLOCK, WS_HK_SHMEM, WS_HK_NREGS,
    WS_HK_BINARY, WS_HK_STREAM, WS_HK_SHMEM_BASE, WS_HK_LOCAL_BASE,
    WS_HK_NVBIT, WS_HK_TRACER, WS_HK_LINEINFO, WS_HK_CLUSTER, WS_HK_COUNT
};

static const char *const ws_hkey_names[WS_HK_COUNT] = {
    "kernel name", "kernel id", "grid dim", "block dim", "shmem", "nregs",
    "binary version", "cuda stream id", "shmem base_addr",
    "local mem base_addr", "nvbit version", "accelsim tracer version",
    "enable lineinfo", "cluster dim"
};

static int ws_header_value(struct ws_traceg *r, enum ws_hkey key,
                           const char *v, long col, struct ws_err *err)
{
    struct ws_launch *l = &r->launch;
    uint64_t u = 0;
    uint32_t dim[3];
    size_t n = strlen(v);
    int is_hex = key == WS_HK_SHMEM_BASE || key == WS_HK_LOCAL_BASE;

    switch (key) {
    case WS_HK_NAME:
        if (n == 0)
            return ws_traceg_fail(r, err, col, "empty kernel name",
                                  "a function name");
        free(l->name);
        l->name = ws_strdup(v);
        return l->name ? 0 : ws_err_oom(err);
    case WS_HK_NVBIT:
        free(l->nvbit_version);
        l->nvbit_version = ws_strdup(v);
        return l->nvbit_version ? 0 : ws_err_oom(err);
    case WS_HK_GRID:
    case WS_HK_BLOCK:
    case WS_HK_CLUSTER:
        if (ws_parse_dim3(v, dim) < 0)
            return ws_traceg_fail(r, err, col, "bad dimensions",
                                  "(x,y,z) with positive integers");
        if (key == WS_HK_GRID)
            memcpy(l->grid, dim, sizeof dim);
        else if (key == WS_HK_BLOCK)
            memcpy(l->block, dim, sizeof dim);
        return 0;
    default:
        break;
    }
    if ((is_hex ? ws_num_hex(v, n, &u) : ws_num_u64(v, n, &u)) < 0)
        return ws_traceg_fail(r, err, col, "bad header value", is_hex ?
                              "a hexadecimal address" : "a decimal number");
    switch (key) {
    case WS_HK_ID: l->id = (uint32_t)(u > UINT32_MAX ? UINT32_MAX : u); break;
    case WS_HK_SHMEM:
        if (u > (4u << 20))
            return ws_traceg_fail(r, err, col, "shared memory per CTA out of "
                                  "range", "at most 4 MiB");
        l->shmem = (uint32_t)u;
        break;
    case WS_HK_NREGS:
        if (u > 255)
            return ws_traceg_fail(r, err, col, "registers per thread out of "
                                  "range", "0 to 255");
        l->nregs = (uint32_t)u;
        break;
    case WS_HK_BINARY:
        if (u < 10 || u > 199)
            return ws_traceg_fail(r, err, col, "SM version out of range",
                                  "a version such as 70, 80 or 90");
        l->sm_version = (uint32_t)u;
        break;
    case WS_HK_STREAM: l->stream_id = u; break;
    case WS_HK_SHMEM_BASE: l->shmem_base = u; break;
    case WS_HK_LOCAL_BASE: l->local_base = u; break;
    case WS_HK_TRACER:
        if (u < 3 || u > 5)
            return ws_traceg_fail(r, err, col, "unsupported tracer version",
                                  "3, 4 or 5; older traces have no such line");
        l->trace_version = (uint32_t)u;
        break;
    case WS_HK_LINEINFO:
        if (u > 1)
            return ws_traceg_fail(r, err, col, "bad lineinfo flag", "0 or 1");
        l->lineinfo = (int)u;
        break;
    default:
        break;
    }
    return 0;
}

static char *ws_trim(char *s)
{
    char *e;

    while (*s == ' ' || *s == '\t')
        s++;
    e = s + strlen(s);
    while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
        *--e = '\0';
    return s;
}

static int ws_header_line(struct ws_traceg *r, char *line, unsigned *seen,
                          struct ws_err *err)
{
    char *eq = strchr(line, '=');
    char *key, *val;

    if (!eq)
        return ws_traceg_fail(r, err, 1, "header line without '='",
                              "'-key = value'");
    *eq = '\0';
    key = ws_trim(line + 1);
    val = ws_trim(eq + 1);
    for (int k = 0; k < WS_HK_COUNT; k++) {
        if (strcmp(key, ws_hkey_names[k]) == 0) {
            *seen |= 1u << k;
            return ws_header_value(r, (enum ws_hkey)k, val,
                                   (long)(val - line) + 1, err);
        }
    }
    if (r->opts.allow_unknown_keys)
        return 0;
    return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, 2,
                     "unknown header key '%s' (expected a key of "
                     "reference/trace-format.md section 2, such as 'grid "
                     "dim'; --allow-unknown-keys skips it)", key);
}

static int ws_header_check(struct ws_traceg *r, unsigned seen,
                           struct ws_err *err)
{
    static const enum ws_hkey required[] = {
        WS_HK_NAME, WS_HK_GRID, WS_HK_BLOCK, WS_HK_SHMEM, WS_HK_NREGS,
        WS_HK_BINARY
    };
    const struct ws_launch *l = &r->launch;

    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
        if (!(seen & (1u << required[i])))
            return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, 1,
                             "header has no '-%s' line (expected it before "
                             "the instruction stream)",
                             ws_hkey_names[required[i]]);
    if (ws_launch_threads(l) > 1024 || l->block[0] > 1024 || l->block[1] > 1024
        || l->block[2] > 64)
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, 1,
                         "block (%u,%u,%u) has more threads than CUDA allows "
                         "(expected at most 1024 threads, z at most 64)",
                         l->block[0], l->block[1], l->block[2]);
    if (l->grid[1] > 65535 || l->grid[2] > 65535 || l->grid[0] > 0x7fffffffu)
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, 1,
                         "grid (%u,%u,%u) is larger than CUDA allows "
                         "(expected x < 2^31, y and z <= 65535)",
                         l->grid[0], l->grid[1], l->grid[2]);
    return 0;
}

static int ws_traceg_read_header(struct ws_traceg *r, struct ws_err *err)
{
    unsigned seen = 0;
    char *line;
    size_t len;
    int rc;

    while ((rc = ws_lines_next(&r->lines, &line, &len, err)) == 1) {
        char *p = ws_trim(line);
        if (*p == '\0')
            continue;
        if (*p == '#')
            return ws_header_check(r, seen, err);
        if (*p != '-')
            return ws_traceg_fail(r, err, (long)(p - line) + 1, "unexpected "
                                  "text in the kernel header", "'-key = "
                                  "value' lines, then '#traces format'");
        if (ws_header_line(r, p, &seen, err) < 0)
            return -1;
    }
    if (rc < 0)
        return -1;
    return ws_err_at(err, ws_traceg_name(r), r->lines.lineno + 1, 1,
                     "file ends inside the kernel header (expected "
                     "'#traces format' and the instruction stream)");
}

/* ---- pools ------------------------------------------------------------ */

static int ws_grow(void **p, size_t *cap, size_t need, size_t elem)
{
    size_t n = *cap ? *cap : 1024;
    void *q;

    if (need <= *cap)
        return 0;
    while (n < need)
        n *= 2;
    q = realloc(*p, n * elem);
    if (!q)
        return -1;
    *p = q;
    *cap = n;
    return 0;
}

static struct ws_opinfo *ws_traceg_opinfo(struct ws_traceg *r, uint32_t id)
{
    if (id >= r->opinfo_cap) {
        size_t old = r->opinfo_cap;
        if (ws_grow((void **)&r->opinfo, &r->opinfo_cap, (size_t)id + 1,
                    sizeof *r->opinfo) < 0)
            return NULL;
        memset(r->opinfo + old, 0, (r->opinfo_cap - old) * sizeof *r->opinfo);
    }
    return &r->opinfo[id];
}

/* ---- instruction lines ---------------------------------------------- */

static int ws_tok_reg(struct ws_traceg *r, struct ws_tok *t, int *reg,
                      struct ws_err *err)
{
    uint32_t n;

    if (t->len == 2 && t->s[0] == 'R' && t->s[1] == 'Z') {
        *reg = WS_REG_RZ;
        return 0;
    }
    /* Uniform registers are not general-register dependencies; some tracer
     * builds list them, so they are accepted and dropped. */
    if (t->len > 2 && t->s[0] == 'U' && t->s[1] == 'R'
        && ws_num_u32(t->s + 2, t->len - 2, &n) == 0) {
        *reg = -1;
        return 0;
    }
    if (t->len < 2 || t->s[0] != 'R' || ws_num_u32(t->s + 1, t->len - 1, &n) < 0
        || n > 255)
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, t->col,
                         "bad register '%s' (expected R0 to R255 or RZ)", t->s);
    *reg = (int)n;
    return 0;
}

static int ws_parse_regs(struct ws_traceg *r, struct ws_tokens *tk,
                         uint8_t *regs, uint8_t *count, unsigned max,
                         const char *what, struct ws_err *err)
{
    uint32_t n;
    struct ws_tok *t;

    if (ws_tok_dec32(r, tk, what, &n, err) < 0)
        return -1;
    if (n > max)
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno,
                         tk->t[tk->i - 1].col, "%u %s (expected at most %u)",
                         n, what, max);
    *count = 0;
    for (uint32_t i = 0; i < n; i++) {
        int reg = -1;
        if (!(t = ws_tok_next(r, tk, "a register", err))
            || ws_tok_reg(r, t, &reg, err) < 0)
            return -1;
        if (reg >= 0 && reg != WS_REG_RZ)
            regs[(*count)++] = (uint8_t)reg;
    }
    return 0;
}

static int ws_parse_opcode(struct ws_traceg *r, struct ws_tokens *tk,
                           struct ws_inst *in, struct ws_err *err)
{
    struct ws_tok *t = ws_tok_next(r, tk, "an opcode", err);
    struct ws_opinfo *info;
    uint32_t id;

    if (!t)
        return -1;
    if (!((t->s[0] >= 'A' && t->s[0] <= 'Z') || t->s[0] == '_'))
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, t->col,
                         "bad opcode '%s' (expected a SASS mnemonic such as "
                         "FFMA or LDG.E)", t->s);
    id = ws_strtab_intern(&r->ops, t->s, t->len);
    if (id == UINT32_MAX || !(info = ws_traceg_opinfo(r, id)))
        return ws_err_oom(err);
    if (!info->known) {
        struct ws_opcode_info oi;
        info->known = ws_opcode_lookup(t->s, ws_opcode_base_len(t->s),
                                       r->launch.sm_version, &oi) ? 1 : 2;
        if (info->known == 1) {
            info->cls = oi.cls;
            info->memop = oi.memop;
        } else {
            info->cls = (uint8_t)r->opts.unknown_class;
            info->memop = WS_MEMOP_NONE;
        }
    }
    in->op = id;
    in->cls = info->cls;
    in->memop = info->memop;
    if (info->known == 2)
        in->flags |= WS_INST_UNKNOWN;
    if (strncmp(t->s, "UTMA", 4) == 0 || strncmp(t->s, "UBLK", 4) == 0)
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, t->col,
                         "bulk-copy instruction '%s' is not supported "
                         "(expected a trace without TMA transfers)", t->s);
    return 0;
}

/* Wide loads name one register but write 2 or 4; LDSM .x2/.x4 likewise. */
static void ws_widen_dst(struct ws_traceg *r, struct ws_inst *in)
{
    const char *op = ws_strtab_str(&r->ops, in->op);
    unsigned regs = in->width > 4 ? in->width / 4u : 1u;

    if (in->ndst != 1 || (in->memop != WS_MEMOP_LOAD
                          && in->memop != WS_MEMOP_ATOMIC))
        return;
    if (strncmp(op, "LDSM", 4) == 0)
        regs = strstr(op, ".4") ? 4u : strstr(op, ".2") ? 2u : 1u;
    if (regs > WS_INST_MAX_DST)
        regs = WS_INST_MAX_DST;
    for (unsigned i = 1; i < regs && in->dst[0] + i < WS_REG_RZ; i++)
        in->dst[in->ndst++] = (uint8_t)(in->dst[0] + i);
}

static int ws_push_addr(struct ws_traceg *r, uint64_t a, struct ws_err *err)
{
    if (ws_grow((void **)&r->addrs, &r->addr_cap, r->naddr + 1,
                sizeof *r->addrs) < 0)
        return ws_err_oom(err);
    r->addrs[r->naddr++] = a;
    return 0;
}

static int ws_parse_addrs(struct ws_traceg *r, struct ws_tokens *tk,
                          struct ws_inst *in, struct ws_err *err)
{
    unsigned active = (unsigned)__builtin_popcount(in->mask);
    uint32_t mode;
    uint64_t base;
    int64_t step;

    if (ws_tok_dec32(r, tk, "address mode", &mode, err) < 0)
        return -1;
    if (mode > 2 || (mode == 2 && r->launch.trace_version < 3))
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno,
                         tk->t[tk->i - 1].col, "unknown address mode %u "
                         "(expected %s)", mode, r->launch.trace_version < 3 ?
                         "0 or 1 before tracer version 3" : "0, 1 or 2");
    in->addr = (uint32_t)r->naddr;
    if (mode == 0) {
        for (unsigned k = 0; k < active; k++)
            if (ws_tok_hex(r, tk, "lane address", &base, err) < 0
                || ws_push_addr(r, base, err) < 0)
                return -1;
        return 0;
    }
    if (ws_tok_hex(r, tk, "base address", &base, err) < 0)
        return -1;
    if (mode == 1) {
        /* Stride applies per active lane in order; the tracer only uses
         * this mode when the active lanes form one run. */
        if (ws_tok_signed(r, tk, "stride", &step, err) < 0)
            return -1;
        for (unsigned k = 0; k < active; k++)
            if (ws_push_addr(r, base + (uint64_t)step * k, err) < 0)
                return -1;
        return 0;
    }
    /* Mode 2: exactly popcount - 1 deltas, each from the previous active
     * lane.  Reading popcount of them (as the reference parser does) would
     * swallow the trailing immediate. */
    if (active > 0 && ws_push_addr(r, base, err) < 0)
        return -1;
    for (unsigned k = 1; k < active; k++) {
        if (ws_tok_signed(r, tk, "address delta", &step, err) < 0)
            return -1;
        base += (uint64_t)step;
        if (ws_push_addr(r, base, err) < 0)
            return -1;
    }
    return 0;
}

static void ws_classify_space(struct ws_traceg *r, struct ws_inst *in)
{
    const struct ws_launch *l = &r->launch;
    const char *op;
    size_t blen;

    switch (in->cls) {
    case WS_OPC_SHARED: in->space = WS_SPACE_SHARED; return;
    case WS_OPC_LOCAL: in->space = WS_SPACE_LOCAL; return;
    case WS_OPC_CONST: in->space = WS_SPACE_CONST; return;
    case WS_OPC_TEX: in->space = WS_SPACE_TEX; return;
    case WS_OPC_GLOBAL: break;
    default:
        in->space = in->width ? WS_SPACE_GLOBAL : WS_SPACE_NONE;
        return;
    }
    in->space = WS_SPACE_GLOBAL;
    op = ws_strtab_str(&r->ops, in->op);
    blen = ws_opcode_base_len(op);
    if (!((blen == 2 && (strncmp(op, "LD", 2) == 0 || strncmp(op, "ST", 2) == 0))
          || (blen == 4 && strncmp(op, "ATOM", 4) == 0)
          || (blen == 3 && strncmp(op, "RED", 3) == 0)))
        return;
    in->flags |= WS_INST_GENERIC;
    if (in->mask == 0 || in->width == 0)
        return;
    {
        uint64_t a = r->addrs[in->addr];
        uint64_t local_end = l->shmem_base > l->local_base
                             ? l->shmem_base : l->local_base + WS_TRACEG_SHARED_WINDOW;
        if (l->shmem_base && a >= l->shmem_base
            && a - l->shmem_base < WS_TRACEG_SHARED_WINDOW)
            in->space = WS_SPACE_SHARED;
        else if (l->local_base && a >= l->local_base && a < local_end)
            in->space = WS_SPACE_LOCAL;
    }
}

static int ws_parse_inst(struct ws_traceg *r, char *line, uint32_t warp,
                         struct ws_inst *in, struct ws_err *err)
{
    struct ws_tokens tk;
    uint64_t pc, mask;
    uint32_t width, v;

    memset(in, 0, sizeof *in);
    if (ws_tokenize(r, &tk, line, err) < 0)
        return -1;
    if (r->launch.trace_version < 3) {
        const char *what[4] = {"block x", "block y", "block z", "warp id"};
        uint32_t want[4] = {r->cta.ctaid[0], r->cta.ctaid[1], r->cta.ctaid[2],
                            warp};
        for (int k = 0; k < 4; k++) {
            if (ws_tok_dec32(r, &tk, what[k], &v, err) < 0)
                return -1;
            if (v != want[k])
                return ws_err_at(err, ws_traceg_name(r), r->lines.lineno,
                                 tk.t[tk.i - 1].col, "%s %u disagrees with "
                                 "the enclosing block (expected %u)", what[k],
                                 v, want[k]);
        }
    }
    if (r->launch.lineinfo && ws_tok_dec32(r, &tk, "source line", &v, err) < 0)
        return -1;
    if (ws_tok_hex(r, &tk, "PC", &pc, err) < 0)
        return -1;
    if (pc > UINT32_MAX)
        return ws_traceg_fail(r, err, tk.t[tk.i - 1].col, "PC out of range",
                              "a function offset below 4 GiB");
    in->pc = (uint32_t)pc;
    if (ws_tok_hex(r, &tk, "active mask", &mask, err) < 0)
        return -1;
    if (tk.t[tk.i - 1].len > 10 || mask > UINT32_MAX)
        return ws_traceg_fail(r, err, tk.t[tk.i - 1].col, "active mask wider "
                              "than a warp", "8 hexadecimal digits");
    in->mask = (uint32_t)mask;
    if (ws_parse_regs(r, &tk, in->dst, &in->ndst, WS_INST_MAX_DST,
                      "destination registers", err) < 0
        || ws_parse_opcode(r, &tk, in, err) < 0
        || ws_parse_regs(r, &tk, in->src, &in->nsrc, WS_INST_MAX_SRC,
                         "source registers", err) < 0
        || ws_tok_dec32(r, &tk, "memory width", &width, err) < 0)
        return -1;
    if (width > 0) {
        if (width > 64)
            return ws_traceg_fail(r, err, tk.t[tk.i - 1].col, "memory width "
                                  "out of range", "0 to 16 bytes per lane");
        in->width = (uint8_t)ws_opcode_width(ws_strtab_str(&r->ops, in->op));
        if (ws_parse_addrs(r, &tk, in, err) < 0)
            return -1;
    }
    ws_classify_space(r, in);
    ws_widen_dst(r, in);
    if (tk.i < tk.n && r->launch.trace_version >= 4) {
        int64_t imm;
        if (ws_tok_signed(r, &tk, "immediate", &imm, err) < 0)
            return -1;
        in->imm = (int32_t)imm;
    }
    if (tk.i < tk.n)
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno,
                         tk.t[tk.i].col, "unexpected '%s' after the "
                         "instruction (expected the end of the line; as many "
                         "addresses as active lanes)", tk.t[tk.i].s);
    return 0;
}

/* ---- CTA blocks -------------------------------------------------------- */

static int ws_keyline(const char *p, const char *key, const char **val)
{
    size_t n = strlen(key);

    if (strncmp(p, key, n) != 0)
        return 0;
    p += n;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p != '=')
        return 0;
    p++;
    while (*p == ' ' || *p == '\t')
        p++;
    *val = p;
    return 1;
}

static int ws_parse_triple(const char *v, uint32_t out[3])
{
    char extra;
    unsigned long long a, b, c;

    if (sscanf(v, "%llu , %llu , %llu %c", &a, &b, &c, &extra) != 3
        || a > UINT32_MAX || b > UINT32_MAX || c > UINT32_MAX)
        return -1;
    out[0] = (uint32_t)a;
    out[1] = (uint32_t)b;
    out[2] = (uint32_t)c;
    return 0;
}

enum ws_warp_phase {
    WS_WARP_NONE,      /* no warp yet, or the last one is complete */
    WS_WARP_NAMED,     /* "warp = w" read, "insts = n" not yet */
    WS_WARP_BODY       /* reading its n instruction lines */
};

struct ws_cta_state {
    enum ws_warp_phase phase;
    uint32_t warp;
    uint32_t want, got;   /* instructions announced and read for this warp */
};

static int ws_close_warp(struct ws_traceg *r, struct ws_cta_state *st,
                         struct ws_err *err)
{
    if (st->phase == WS_WARP_NAMED)
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, 1,
                         "warp %u has no 'insts =' line (expected 'insts = n' "
                         "after 'warp = %u')", st->warp, st->warp);
    if (st->phase == WS_WARP_BODY && st->got != st->want)
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, 1,
                         "warp %u has %u instruction lines (expected %u from "
                         "its 'insts =' line)", st->warp, st->got, st->want);
    if (st->phase == WS_WARP_BODY)
        r->warps[st->warp].ninst = st->got;
    st->phase = WS_WARP_NONE;
    return 0;
}

static int ws_cta_begin(struct ws_traceg *r, const char *v, struct ws_err *err)
{
    const struct ws_launch *l = &r->launch;
    uint32_t *id = r->cta.ctaid;

    if (ws_parse_triple(v, id) < 0)
        return ws_traceg_fail(r, err, 1, "bad thread block line",
                              "'thread block = x,y,z'");
    if (id[0] >= l->grid[0] || id[1] >= l->grid[1] || id[2] >= l->grid[2])
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, 1,
                         "thread block (%u,%u,%u) lies outside the grid "
                         "(expected indices below (%u,%u,%u))", id[0], id[1],
                         id[2], l->grid[0], l->grid[1], l->grid[2]);
    r->cta.linear_id = ((uint64_t)id[2] * l->grid[1] + id[1]) * l->grid[0]
                       + id[0];
    return 0;
}

static int ws_warp_begin(struct ws_traceg *r, struct ws_cta_state *st,
                         const char *v, struct ws_err *err)
{
    if (ws_close_warp(r, st, err) < 0)
        return -1;
    if (ws_num_u32(v, strlen(v), &st->warp) < 0)
        return ws_traceg_fail(r, err, 1, "bad warp line", "'warp = n'");
    if (st->warp >= r->cta.nwarps)
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, 1, "warp "
                         "%u does not exist (expected 0 to %u for a block of "
                         "%u threads)", st->warp, r->cta.nwarps - 1,
                         ws_launch_threads(&r->launch));
    if (r->warp_seen[st->warp])
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, 1, "warp "
                         "%u appears twice in this block (expected each warp "
                         "once)", st->warp);
    r->warp_seen[st->warp] = 1;
    st->phase = WS_WARP_NAMED;
    return 0;
}

static int ws_insts_begin(struct ws_traceg *r, struct ws_cta_state *st,
                          const char *v, struct ws_err *err)
{
    if (st->phase != WS_WARP_NAMED)
        return ws_traceg_fail(r, err, 1, "'insts =' without a 'warp =' line",
                              "'warp = n' first");
    if (ws_num_u32(v, strlen(v), &st->want) < 0)
        return ws_traceg_fail(r, err, 1, "bad instruction count",
                              "'insts = n' with n below 2^32");
    if (st->want > WS_TRACEG_MAX_CTA_INSTS - r->ninst)
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, 1,
                         "insts = %u makes the block larger than %u "
                         "instructions (expected a real warp length)",
                         st->want, WS_TRACEG_MAX_CTA_INSTS);
    st->phase = WS_WARP_BODY;
    st->got = 0;
    r->warp_first[st->warp] = r->ninst;
    return 0;
}

static int ws_inst_line(struct ws_traceg *r, struct ws_cta_state *st,
                        char *line, struct ws_err *err)
{
    if (st->phase != WS_WARP_BODY)
        return ws_traceg_fail(r, err, 1, "instruction line outside a warp",
                              "'warp = n' and 'insts = n' first");
    if (st->got == st->want)
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, 1,
                         "more instruction lines than warp %u's 'insts = %u' "
                         "(expected 'warp =' or '#END_TB')", st->warp,
                         st->want);
    if (ws_grow((void **)&r->inst, &r->inst_cap, r->ninst + 1,
                sizeof *r->inst) < 0)
        return ws_err_oom(err);
    if (ws_parse_inst(r, line, st->warp, &r->inst[r->ninst], err) < 0)
        return -1;
    r->ninst++;
    st->got++;
    return 0;
}

static void ws_cta_reset(struct ws_traceg *r)
{
    r->ninst = 0;
    r->naddr = 0;
    r->cta.has_cluster = 0;
    for (uint32_t w = 0; w < r->cta.nwarps; w++) {
        r->warps[w].ninst = 0;
        r->warps[w].inst = NULL;
        r->warp_seen[w] = 0;
        r->warp_first[w] = 0;
    }
}

static void ws_cta_finish(struct ws_traceg *r)
{
    for (uint32_t w = 0; w < r->cta.nwarps; w++)
        r->warps[w].inst = r->warps[w].ninst ? r->inst + r->warp_first[w]
                                             : NULL;
    r->cta.warps = r->warps;
    r->cta.addrs = r->addrs;
}

static int ws_cta_cluster(struct ws_traceg *r, const char *p,
                          struct ws_err *err)
{
    const char *v;

    r->cta.has_cluster = 1;
    if (ws_keyline(p, "cluster id", &v))
        return ws_parse_triple(v, r->cta.cluster_id) < 0 ? ws_traceg_fail(
            r, err, 1, "bad cluster id line", "'cluster id = x,y,z'") : 0;
    if (ws_keyline(p, "cluster cta", &v))
        return ws_parse_triple(v, r->cta.cluster_cta) < 0 ? ws_traceg_fail(
            r, err, 1, "bad cluster cta line", "'cluster cta = x,y,z'") : 0;
    if (ws_keyline(p, "cluster rank", &v))
        return ws_num_u32(v, strlen(v), &r->cta.cluster_rank) < 0
               ? ws_traceg_fail(r, err, 1, "bad cluster rank line",
                                "'cluster rank = n'") : 0;
    return ws_traceg_fail(r, err, 1, "unknown cluster line", "'cluster id', "
                          "'cluster cta' or 'cluster rank'");
}

/* One line inside "#BEGIN_TB ... #END_TB".  Returns 1 at "#END_TB".  Key
 * lines are recognised before instruction lines so that a short warp is
 * reported as a count mismatch, not as a bad PC "warp". */
static int ws_cta_line(struct ws_traceg *r, struct ws_cta_state *st,
                       char *p, int *have_block, struct ws_err *err)
{
    const char *v;

    if (strncmp(p, "#END_TB", 7) == 0) {
        if (!*have_block)
            return ws_traceg_fail(r, err, 1, "'#END_TB' before a thread "
                                  "block line", "'thread block = x,y,z'");
        return ws_close_warp(r, st, err) < 0 ? -1 : 1;
    }
    if (strncmp(p, "#BEGIN_TB", 9) == 0)
        return ws_traceg_fail(r, err, 1, "'#BEGIN_TB' inside a thread block",
                              "'#END_TB' first");
    if (*p == '#')
        return ws_traceg_fail(r, err, 1, "'#' line inside a thread block",
                              "warps and their instructions");
    if (ws_keyline(p, "thread block", &v)) {
        if (*have_block)
            return ws_traceg_fail(r, err, 1, "second thread block line",
                                  "one per '#BEGIN_TB'");
        *have_block = 1;
        return ws_cta_begin(r, v, err);
    }
    if (!*have_block)
        return ws_traceg_fail(r, err, 1, "block content before its 'thread "
                              "block' line", "'thread block = x,y,z'");
    if (strncmp(p, "cluster ", 8) == 0)
        return ws_cta_cluster(r, p, err);
    if (ws_keyline(p, "warp", &v))
        return ws_warp_begin(r, st, v, err);
    if (ws_keyline(p, "insts", &v))
        return ws_insts_begin(r, st, v, err);
    return ws_inst_line(r, st, p, err);
}

int ws_traceg_next_cta(struct ws_traceg *r, const struct ws_cta_stream **cta,
                       struct ws_err *err)
{
    struct ws_cta_state st = {WS_WARP_NONE, 0, 0, 0};
    int in_block = 0, have_block = 0, rc;
    char *line;
    size_t len;

    if (r->finished)
        return 0;
    ws_cta_reset(r);
    while ((rc = ws_lines_next(&r->lines, &line, &len, err)) == 1) {
        char *p = ws_trim(line);
        if (*p == '\0')
            continue;
        if (!in_block) {
            if (strncmp(p, "#BEGIN_TB", 9) == 0) {
                in_block = 1;
                continue;
            }
            if (*p == '#')
                continue;
            return ws_traceg_fail(r, err, (long)(p - line) + 1, "text "
                                  "outside a thread block", "'#BEGIN_TB'");
        }
        rc = ws_cta_line(r, &st, p, &have_block, err);
        if (rc < 0)
            return -1;
        if (rc == 1) {
            ws_cta_finish(r);
            *cta = &r->cta;
            return 1;
        }
    }
    if (rc < 0)
        return -1;
    r->finished = 1;
    if (in_block)
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno + 1, 1,
                         "file ends inside a thread block (expected "
                         "%s'#END_TB')", st.phase == WS_WARP_BODY &&
                         st.got < st.want ? "the rest of the warp's "
                         "instructions and " : "");
    return 0;
}

/* ---- open / close ---------------------------------------------------- */

static int ws_traceg_setup(struct ws_traceg *r, struct ws_err *err)
{
    uint32_t nw;

    if (ws_traceg_read_header(r, err) < 0)
        return -1;
    nw = ws_launch_warps_per_cta(&r->launch);
    r->cta.nwarps = nw;
    r->warps = calloc(nw, sizeof *r->warps);
    r->warp_first = calloc(nw, sizeof *r->warp_first);
    r->warp_seen = calloc(nw, 1);
    if (!r->warps || !r->warp_first || !r->warp_seen)
        return ws_err_oom(err);
    return 0;
}

static struct ws_traceg *ws_traceg_new(const struct ws_trace_opts *opts)
{
    struct ws_traceg *r = calloc(1, sizeof *r);

    if (!r)
        return NULL;
    if (opts)
        r->opts = *opts;
    else
        ws_trace_opts_default(&r->opts);
    ws_strtab_init(&r->ops);
    return r;
}

int ws_traceg_open(struct ws_traceg **out, const char *path,
                   const struct ws_trace_opts *opts, struct ws_err *err)
{
    struct ws_traceg *r = ws_traceg_new(opts);

    *out = NULL;
    if (!r)
        return ws_err_oom(err);
    if (ws_lines_open(&r->lines, path, err) < 0) {
        free(r);
        return -1;
    }
    if (ws_traceg_setup(r, err) < 0) {
        ws_traceg_close(r);
        return -1;
    }
    *out = r;
    return 0;
}

int ws_traceg_open_mem(struct ws_traceg **out, const char *name,
                       const void *data, size_t len,
                       const struct ws_trace_opts *opts, struct ws_err *err)
{
    struct ws_traceg *r = ws_traceg_new(opts);

    *out = NULL;
    if (!r)
        return ws_err_oom(err);
    if (ws_lines_open_mem(&r->lines, name, data, len, err) < 0) {
        free(r);
        return -1;
    }
    if (ws_traceg_setup(r, err) < 0) {
        ws_traceg_close(r);
        return -1;
    }
    *out = r;
    return 0;
}

const struct ws_launch *ws_traceg_launch(const struct ws_traceg *r)
{
    return &r->launch;
}

const struct ws_strtab *ws_traceg_opcodes(const struct ws_traceg *r)
{
    return &r->ops;
}

size_t ws_traceg_footprint(const struct ws_traceg *r)
{
    return r->inst_cap * sizeof *r->inst + r->addr_cap * sizeof *r->addrs
           + r->opinfo_cap * sizeof *r->opinfo;
}

void ws_traceg_close(struct ws_traceg *r)
{
    if (!r)
        return;
    ws_lines_close(&r->lines);
    ws_strtab_free(&r->ops);
    free(r->launch.name);
    free(r->launch.nvbit_version);
    free(r->opinfo);
    free(r->inst);
    free(r->addrs);
    free(r->warps);
    free(r->warp_first);
    free(r->warp_seen);
    free(r);
}
