/*
 * ws_sass: listing reader (see ws_sass.h).
 *
 * Line kinds, recognised in this order:
 *   "code for sm_80", ".target sm_80", ".headerflags ...EF_CUDA_SM80..."
 *                               SM version of what follows
 *   "Function : name"           cuobjdump function start
 *   ".text.name:"               nvdisasm function start
 *   ".section ..." (not .text)  leaves the function (nvdisasm data sections)
 *   ".size name,(.L_x_9 - name)" nvdisasm: the label that ends function name
 *   ".L_x_3:"                   label for the next instruction
 *   "........"                  cuobjdump: the end of a function
 *   " Function name:" + "REG:n STACK:n SHARED:n LOCAL:n ..."
 *                               cuobjdump -res-usage block
 *   "<offset> [@P0] OP args ;"   an instruction; the offset is hex in a comment
 * Everything else (encoding comments, directives, banners) is skipped.
 * Branch targets are resolved after the whole file is read, so forward
 * labels work, and each must land on an instruction of its function.
 *
 * A listing cut short (a truncated download, "head -n") would otherwise
 * read as a shorter function, so each function must show its end before
 * the next one starts or the file ends: cuobjdump's row of dots, nvdisasm's
 * end label (the one its ".size" line names), or, for listings that lost
 * both, ptxas's closing "BRA" to itself after the last EXIT or RET.
 */
#include "ws_sass_internal.h"

#include <stdlib.h>
#include <string.h>

#include "util/ws_lines.h"
#include "util/ws_grow.h"
#include "util/ws_num.h"
#include "trace/ws_ctrl.h"
#include "trace/ws_opcode.h"
#include "ws_sass_operand.h"


static int ws_sass_data(struct ws_sass_parser *p, const char *q,
                        struct ws_err *err);
static int ws_sass_close_func(struct ws_sass_parser *p, struct ws_err *err);


static int ws_sass_fail(struct ws_sass_parser *p, long col, const char *what,
                        const char *expected, struct ws_err *err)
{
    return ws_err_at(err, p->s->path, p->in.lineno, col, "%s (expected %s)",
                     what, expected);
}

static char *ws_skip_blank(char *q)
{
    while (*q == ' ' || *q == '\t')
        q++;
    return q;
}

/* "sm_80" at q -> 80; 0 when absent. */
static uint32_t ws_sm_at(const char *q)
{
    uint32_t v = 0;
    size_t n = 0;

    if (!q)
        return 0;
    while (q[n] >= '0' && q[n] <= '9')
        n++;
    if (n == 0 || ws_num_u32(q, n, &v) < 0 || v > 199)
        return 0;
    return v;
}

static int ws_sass_new_func(struct ws_sass_parser *p, const char *name,
                            size_t len, struct ws_err *err)
{
    struct ws_sass *s = p->s;
    struct ws_sass_func *f;

    if (len == 0)
        return ws_sass_fail(p, 1, "function without a name",
                            "a mangled "
                            "kernel name",
                            err);
    if (p->sm == 0)
        return ws_sass_fail(p, 1, "function before any SM version",
                            "'code for sm_XX' or '.target sm_XX' first", err);
    if (p->in_func && ws_sass_close_func(p, err) < 0)
        return -1;
    if (ws_grow((void **)&s->funcs, &s->funcs_cap, s->nfuncs + 1,
                sizeof *s->funcs, 64)
        < 0)
        return ws_err_oom(err);
    f = &s->funcs[s->nfuncs];
    memset(f, 0, sizeof *f);
    f->name = malloc(len + 1);
    if (!f->name)
        return ws_err_oom(err);
    memcpy(f->name, name, len);
    f->name[len] = '\0';
    f->sm = p->sm;
    f->line = p->in.lineno;
    f->regs = f->shared = f->local = f->stack = -1;
    f->first = (uint32_t)s->ninsts;
    s->nfuncs++;
    p->in_func = 1;
    p->nwaiting = 0;
    p->func_ended = 0;
    p->end_label = UINT32_MAX;
    if (p->size_label != UINT32_MAX && strlen(p->size_name) == len
        && memcmp(p->size_name, name, len) == 0)
        p->end_label = p->size_label;
    p->size_label = UINT32_MAX;
    return 0;
}

static int ws_sass_label_def(struct ws_sass_parser *p, const char *name,
                             size_t len, struct ws_err *err)
{
    uint32_t id = ws_strtab_intern(&p->s->strs, name, len);

    if (id == UINT32_MAX)
        return ws_err_oom(err);
    if (id == p->end_label)
        p->func_ended = 1;
    if (p->nwaiting
        == (int)(sizeof p->waiting_labels / sizeof p->waiting_labels[0]))
        return ws_sass_fail(p, 1, "too many labels in a row",
                            "an "
                            "instruction after at most 64 labels",
                            err);
    p->waiting_lines[p->nwaiting] = p->in.lineno;
    p->waiting_labels[p->nwaiting++] = id;
    return 0;
}

static int ws_sass_bind_labels(struct ws_sass_parser *p, uint32_t pc,
                               struct ws_err *err)
{
    for (int i = 0; i < p->nwaiting; i++) {
        if (p->nlabels == WS_SASS_MAX_LABELS)
            return ws_sass_fail(p, 1, "too many labels",
                                "at most 4096 per "
                                "listing",
                                err);
        if (!p->labels) {
            p->labels = malloc(WS_SASS_MAX_LABELS * sizeof *p->labels);
            if (!p->labels)
                return ws_err_oom(err);
        }
        p->labels[p->nlabels].name = p->waiting_labels[i];
        p->labels[p->nlabels].pc = pc;
        p->labels[p->nlabels].func = p->s->nfuncs - 1;
        p->labels[p->nlabels].line = p->waiting_lines[i];
        p->nlabels++;
    }
    p->nwaiting = 0;
    return 0;
}

/* ---- statements ------------------------------------------------------- */

static int ws_is_target_op(const char *op, size_t blen)
{
    static const char *const names[] = {"BRA", "JMP", "CALL", "CAL", "JCAL",
                                        "SSY", "PBK", "PCNT", "BSSY"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strlen(names[i]) == blen && strncmp(op, names[i], blen) == 0)
            return 1;
    return 0;
}

static int ws_sass_guard(struct ws_sass_parser *p, char **q,
                         struct ws_sass_inst *in, long col0, const char *line,
                         struct ws_err *err)
{
    char *t = *q;
    struct ws_opnd o;
    const char *label, *why = NULL;
    size_t llen, n = 0;

    in->guard = -1;
    if (*t != '@')
        return 0;
    t++;
    while (t[n] && t[n] != ' ' && t[n] != '\t')
        n++;
    if (ws_sass_operand_parse(t, n, &o, &label, &llen, &why) < 0
        || (o.kind != WS_OPND_PRED && o.kind != WS_OPND_UPRED))
        return ws_sass_fail(p, col0 + (long)(*q - line),
                            "bad guard "
                            "predicate",
                            "@P0 to @P6, @PT, @!P0 or @UP0", err);
    in->guard = (int8_t)o.reg;
    in->guard_neg = o.invert;
    in->guard_uniform = o.kind == WS_OPND_UPRED;
    *q = ws_skip_blank(t + n);
    return 0;
}

static int ws_sass_opcode(struct ws_sass_parser *p, char **q,
                          struct ws_sass_inst *in, long col, struct ws_err *err)
{
    char *t = *q;
    size_t n = 0;
    struct ws_opcode_info info;
    uint32_t id;

    while (t[n] && t[n] != ' ' && t[n] != '\t' && t[n] != ';')
        n++;
    if (n == 0 || !(t[0] >= 'A' && t[0] <= 'Z'))
        return ws_sass_fail(p, col, "missing opcode",
                            "a SASS mnemonic such "
                            "as FFMA",
                            err);
    id = ws_strtab_intern(&p->s->strs, t, n);
    if (id == UINT32_MAX)
        return ws_err_oom(err);
    in->op = id;
    in->known = (uint8_t)ws_opcode_known(ws_strtab_str(&p->s->strs, id), p->sm,
                                         &info);
    in->cls = in->known ? info.cls : (uint8_t)p->opts.unknown_class;
    in->memop = in->known ? info.memop : WS_MEMOP_NONE;
    *q = ws_skip_blank(t + n);
    return 0;
}

static int ws_sass_add_operand(struct ws_sass_parser *p, char *t, size_t n,
                               int targets, long col, struct ws_err *err)
{
    struct ws_sass *s = p->s;
    struct ws_opnd *o;
    const char *label, *why = "?";

    while (n > 0 && (t[n - 1] == ' ' || t[n - 1] == '\t'))
        n--;
    if (ws_grow((void **)&s->opnds, &s->opnds_cap, s->nopnds + 1,
                sizeof *s->opnds, 64)
        < 0)
        return ws_err_oom(err);
    o = &s->opnds[s->nopnds];
    {
        size_t llen;
        if (ws_sass_operand_parse(t, n, o, &label, &llen, &why) < 0)
            return ws_err_at(err, s->path, p->in.lineno, col,
                             "bad operand "
                             "'%.*s': %s (expected a register, constant, "
                             "immediate or memory reference)",
                             (int)n, t, why);
        if (targets && o->kind == WS_OPND_IMM)
            o->kind = WS_OPND_TARGET;
        if (label) {
            struct ws_sass_pending *pd;
            if (ws_grow((void **)&p->pending, &p->pending_cap, p->npending + 1,
                        sizeof *p->pending, 64)
                < 0)
                return ws_err_oom(err);
            pd = &p->pending[p->npending++];
            pd->opnd = s->nopnds;
            pd->label = ws_strtab_intern(&s->strs, label, llen);
            pd->line = p->in.lineno;
            pd->func = s->nfuncs - 1;
        }
    }
    o->text = ws_strtab_intern(&s->strs, t, n);
    if (o->text == UINT32_MAX)
        return ws_err_oom(err);
    s->nopnds++;
    return 0;
}

static int ws_sass_operands(struct ws_sass_parser *p, char *q, char *end,
                            struct ws_sass_inst *in, const char *line,
                            struct ws_err *err)
{
    const char *op = ws_strtab_str(&p->s->strs, in->op);
    int targets = ws_is_target_op(op, ws_opcode_base_len(op));

    in->opnd = (uint32_t)p->s->nopnds;
    while (q < end) {
        char *c = q;
        int depth = 0;
        while (c < end && (depth > 0 || *c != ',')) {
            depth += *c == '[';
            depth -= *c == ']';
            c++;
        }
        if (in->nopnd == WS_SASS_MAX_OPNDS)
            return ws_sass_fail(p, (long)(q - line) + 1, "too many operands",
                                "at most 16", err);
        if (ws_sass_add_operand(p, q, (size_t)(c - q), targets,
                                (long)(q - line) + 1, err)
            < 0)
            return -1;
        in->nopnd++;
        q = c < end ? ws_skip_blank(c + 1) : end;
    }
    return 0;
}

static int ws_sass_instruction(struct ws_sass_parser *p, char *line,
                               char *pcstart, struct ws_err *err)
{
    struct ws_sass *s = p->s;
    struct ws_sass_inst in;
    char *close = strstr(pcstart + 2, "*/"); /* not the '*' of the opening */
    char *q, *semi;
    uint64_t pc;

    q = ws_skip_blank(close + 2);
    if (*q == '.')
        return ws_sass_data(p, q, err); /* data in an ELF section */
    if (!p->in_func)
        return ws_sass_fail(p, 1, "instruction outside a function",
                            "'Function : name' or '.text.name:' first", err);
    if (ws_num_hex(pcstart + 2, (size_t)(close - pcstart - 2), &pc) < 0
        || pc > UINT32_MAX)
        return ws_sass_fail(p, (long)(pcstart - line) + 1, "bad offset",
                            "a hexadecimal offset such as 0040", err);
    if (*q == '\0')
        return 0;
    while (*q == '{' || *q == '}')
        q = ws_skip_blank(q + 1); /* Kepler/Maxwell dual-issue braces */
    /* A statement ends at ';', or at the '}' closing a Maxwell dual-issue
     * pair, which cuobjdump prints without the ';'. */
    semi = strchr(q, ';');
    if (!semi)
        semi = strchr(q, '}');
    if (!semi)
        return ws_sass_fail(p, (long)(q - line) + 1, "statement without ';'",
                            "'OPCODE operands ;'", err);
    memset(&in, 0, sizeof in);
    in.pc = (uint32_t)pc;
    in.line = p->in.lineno;
    if (s->ninsts > s->funcs[s->nfuncs - 1].first
        && s->insts[s->ninsts - 1].pc >= in.pc)
        return ws_err_at(err, s->path, p->in.lineno, (long)(pcstart - line) + 1,
                         "offset 0x%x does not follow 0x%x (expected "
                         "increasing offsets)",
                         in.pc, s->insts[s->ninsts - 1].pc);
    if (ws_sass_guard(p, &q, &in, 1, line, err) < 0
        || ws_sass_opcode(p, &q, &in, (long)(q - line) + 1, err) < 0
        || ws_sass_operands(p, q, semi, &in, line, err) < 0
        || ws_sass_bind_labels(p, in.pc, err) < 0)
        return -1;
    if (ws_grow((void **)&s->insts, &s->insts_cap, s->ninsts + 1,
                sizeof *s->insts, 64)
        < 0)
        return ws_err_oom(err);
    s->insts[s->ninsts++] = in;
    s->funcs[s->nfuncs - 1].ninst++;
    p->hi_pending = strstr(semi, "/* 0x") != NULL;
    return 0;
}

/* An encoding comment (0x000fe20000000f00) on a line of its own: the
 * high word of the instruction before it, whose control bits sm_70+ keep
 * in bits 41..61.  Anything else there is a comment like any other. */
static void ws_sass_encoding(struct ws_sass_parser *p, const char *q)
{
    struct ws_sass *s = p->s;
    const char *h = q + 3, *close = strstr(q, "*/");
    uint64_t hi;

    if (!p->hi_pending || !close || !p->in_func || s->ninsts == 0)
        return;
    p->hi_pending = 0;
    while (close > h && close[-1] == ' ')
        close--;
    if (p->sm >= 70 && ws_num_hex(h, (size_t)(close - h), &hi) == 0)
        s->insts[s->ninsts - 1].ctrl = ws_ctrl_from_hi(hi);
}

/* ---- resource usage ---------------------------------------------------- */

static int ws_sass_res_field(const char *q, const char *key, int *out)
{
    const char *k = strstr(q, key);
    uint32_t v;
    size_t n = 0;

    *out = -1;
    if (!k)
        return 0;
    k += strlen(key);
    while (k[n] >= '0' && k[n] <= '9')
        n++;
    if (ws_num_u32(k, n, &v) < 0 || v > 0x7fffffff)
        return -1;
    *out = (int)v;
    return 0;
}

/* A new resource entry for function `name`, every field unknown (-1);
 * NULL when out of memory.  Several entries may name one function. */
static struct ws_sass_res *ws_sass_res_new(struct ws_sass_parser *p,
                                           const char *name, struct ws_err *err)
{
    struct ws_sass_res *r;

    if (ws_grow((void **)&p->res, &p->res_cap, p->nres + 1, sizeof *p->res, 64)
        < 0) {
        ws_err_oom(err);
        return NULL;
    }
    r = &p->res[p->nres++];
    snprintf(r->name, sizeof r->name, "%s", name);
    r->regs = r->shared = r->local = r->stack = -1;
    return r;
}

static int ws_sass_res_line(struct ws_sass_parser *p, const char *q,
                            struct ws_err *err)
{
    struct ws_sass_res *r = ws_sass_res_new(p, p->res_name, err);

    if (!r)
        return -1;
    if (ws_sass_res_field(q, "REG:", &r->regs) < 0
        || ws_sass_res_field(q, "SHARED:", &r->shared) < 0
        || ws_sass_res_field(q, "LOCAL:", &r->local) < 0
        || ws_sass_res_field(q, "STACK:", &r->stack) < 0)
        return ws_sass_fail(p, 1, "bad resource usage line",
                            "'REG:n "
                            "STACK:n SHARED:n LOCAL:n ...'",
                            err);
    p->res_name[0] = '\0';
    return 0;
}

/* nvdisasm prints register counts as data in .nv.info:
 *   //----- nvinfo : EIATTR_REGCOUNT
 *   .word index@(name)
 *   .word 0x0000000a
 * Every other data line is skipped. */
static int ws_sass_data(struct ws_sass_parser *p, const char *q,
                        struct ws_err *err)
{
    const char *at = strstr(q, "index@(");
    uint64_t v;

    if (p->regcount_state == 1 && at) {
        const char *end = strchr(at + 7, ')');
        if (end)
            snprintf(p->res_name, sizeof p->res_name, "%.*s",
                     (int)(end - at - 7), at + 7);
        p->regcount_state = end ? 2 : 0;
        return 0;
    }
    if (p->regcount_state == 2 && strncmp(q, ".word", 5) == 0) {
        const char *h = ws_skip_blank((char *)q + 5);
        struct ws_sass_res *r;
        p->regcount_state = 0;
        if (ws_num_hex(h, strcspn(h, " \t"), &v) < 0 || v > 255)
            return 0;
        if (!(r = ws_sass_res_new(p, p->res_name, err)))
            return -1;
        r->regs = (int)v;
        p->res_name[0] = '\0';
    }
    return 0;
}

static int ws_sass_shared(struct ws_sass_parser *p, const char *v,
                          struct ws_err *err)
{
    struct ws_sass_res *r;
    uint32_t bytes;
    const char *b = ws_skip_blank((char *)v);

    if (ws_num_u32(b, strcspn(b, " \t"), &bytes) < 0)
        return ws_sass_fail(p, 1, "bad .zero size", ".zero <bytes>", err);
    if (!(r = ws_sass_res_new(p, p->shared_name, err)))
        return -1;
    r->shared = (int)(bytes > 0x7fffffff ? 0x7fffffff : bytes);
    p->shared_name[0] = '\0';
    return 0;
}

/* ---- function ends ------------------------------------------------------ */

/* "........": cuobjdump closes every function with a row of dots. */
static int ws_is_dots(const char *q)
{
    size_t n = strspn(q, ".");

    return n >= 3 && q[n] == '\0';
}

/* nvdisasm names each function's end before its code, as
 * ".size name,(.L_x_9 - name)"; the function is complete once that label is
 * defined.  Other .size lines (data objects, plain numbers) are ignored. */
static int ws_sass_size_line(struct ws_sass_parser *p, const char *q,
                             struct ws_err *err)
{
    const char *name = ws_skip_blank((char *)q + 5), *label;
    size_t n = strcspn(name, ", \t"), ln;

    label = ws_skip_blank((char *)name + n);
    if (*label != ',' || n == 0 || n >= sizeof p->size_name)
        return 0;
    label = ws_skip_blank((char *)label + 1);
    if (*label != '(')
        return 0;
    label = ws_skip_blank((char *)label + 1);
    ln = strcspn(label, " \t-)");
    if (ln < 2 || label[0] != '.' || label[1] != 'L')
        return 0;
    memcpy(p->size_name, name, n);
    p->size_name[n] = '\0';
    p->size_label = ws_strtab_intern(&p->s->strs, label, ln);
    return p->size_label == UINT32_MAX ? ws_err_oom(err) : 0;
}

/* The offset a label reference of operand opnd (in function fi) lands on,
 * or -1.  Looked for from the end: the function being closed has the last
 * pending references and the last bound labels. */
static int64_t ws_sass_bound_target(const struct ws_sass_parser *p, size_t fi,
                                    size_t opnd)
{
    size_t d = p->npending;

    while (d > 0 && p->pending[d - 1].opnd > opnd)
        d--;
    if (d == 0 || p->pending[d - 1].opnd != opnd)
        return -1;
    for (size_t l = p->nlabels; l > 0 && p->labels[l - 1].func == fi; l--)
        if (p->labels[l - 1].name == p->pending[d - 1].label)
            return p->labels[l - 1].pc;
    return -1;
}

/* The function's last instruction other than padding NOPs is an unguarded
 * BRA to its own offset: the trap ptxas puts after a function's last EXIT
 * or RET.  The target is an offset (cuobjdump) or a label bound to the BRA
 * itself (nvdisasm). */
static int ws_sass_ends_in_trap(const struct ws_sass_parser *p,
                                const struct ws_sass_func *f)
{
    const struct ws_sass *s = p->s;
    const struct ws_sass_inst *in = NULL;

    for (uint32_t i = f->ninst; i-- > 0;) {
        const char *op = ws_strtab_str(&s->strs, s->insts[f->first + i].op);
        in = &s->insts[f->first + i];
        if (!(ws_opcode_base_len(op) == 3 && strncmp(op, "NOP", 3) == 0))
            break;
    }
    if (!in || (in->guard >= 0 && (in->guard != 7 || in->guard_neg))
        || strncmp(ws_strtab_str(&s->strs, in->op), "BRA", 3) != 0)
        return 0;
    for (uint32_t k = 0; k < in->nopnd; k++) {
        const struct ws_opnd *o = &s->opnds[in->opnd + k];
        if (o->kind == WS_OPND_TARGET)
            return (o->value >= 0
                        ? o->value
                        : ws_sass_bound_target(p, (size_t)(f - s->funcs),
                                               in->opnd + k))
                   == in->pc;
    }
    return 0;
}

/* Called when the current function ends: at the next function or data
 * section, or at the end of the file.  A function with no instructions is
 * left to the "has no instructions" check. */
static int ws_sass_close_func(struct ws_sass_parser *p, struct ws_err *err)
{
    const struct ws_sass_func *f = &p->s->funcs[p->s->nfuncs - 1];

    p->in_func = 0;
    if (p->func_ended || f->ninst == 0 || ws_sass_ends_in_trap(p, f))
        return 0;
    return ws_err_at(err, p->s->path, p->in.lineno, 1,
                     "function %s is cut "
                     "short after offset 0x%04x (expected the rest of it: a "
                     "function ends with a BRA to itself, then cuobjdump's "
                     "'.....' line or nvdisasm's end label)",
                     f->name, p->s->insts[f->first + f->ninst - 1].pc);
}

/* ---- lines ------------------------------------------------------------ */

static int ws_sass_header_line(struct ws_sass_parser *p, char *q,
                               struct ws_err *err)
{
    char *t;
    size_t n;

    if (ws_is_dots(q))
        p->func_ended |= p->in_func;
    else if (strncmp(q, ".size", 5) == 0 && (q[5] == ' ' || q[5] == '\t'))
        return ws_sass_size_line(p, q, err);
    else if (strncmp(q, "code for sm_", 12) == 0)
        p->sm = ws_sm_at(q + 12);
    else if (strncmp(q, ".target", 7) == 0 && (t = strstr(q, "sm_")))
        p->sm = ws_sm_at(t + 3);
    else if (strncmp(q, ".headerflags", 12) == 0
             && (t = strstr(q, "EF_CUDA_SM")) && p->sm == 0)
        p->sm = ws_sm_at(t + 10);
    else if (strncmp(q, "Function : ", 11) == 0) {
        t = ws_skip_blank(q + 11);
        n = strcspn(t, " \t");
        return ws_sass_new_func(p, t, n, err);
    } else if (strncmp(q, "Function ", 9) == 0 && q[strlen(q) - 1] == ':') {
        t = ws_skip_blank(q + 9);
        snprintf(p->res_name, sizeof p->res_name, "%.*s", (int)(strlen(t) - 1),
                 t);
    } else if (strncmp(q, "REG:", 4) == 0 && p->res_name[0]) {
        return ws_sass_res_line(p, q, err);
    } else if (strncmp(q, ".text.", 6) == 0 && q[strlen(q) - 1] == ':') {
        return ws_sass_new_func(p, q + 6, strlen(q) - 7, err);
    } else if (strncmp(q, ".section", 8) == 0 && (q[8] == ' ' || q[8] == '\t')
               && !strstr(q, ".text.")) {
        /* nvdisasm sizes static shared memory as .zero N in .nv.shared.NAME */
        t = strstr(q, ".nv.shared.");
        if (p->in_func && ws_sass_close_func(p, err) < 0)
            return -1;
        p->shared_name[0] = '\0';
        if (t && strncmp(t + 11, "reserved", 8) != 0)
            snprintf(p->shared_name, sizeof p->shared_name, "%.*s",
                     (int)strcspn(t + 11, ",\t "), t + 11);
    } else if (strncmp(q, ".zero", 5) == 0 && p->shared_name[0]) {
        return ws_sass_shared(p, q + 5, err);
    } else if (q[0] == '.' && q[1] == 'L' && q[strlen(q) - 1] == ':') {
        /* Data sections have labels of their own; only code labels count. */
        return p->in_func ? ws_sass_label_def(p, q, strlen(q) - 1, err) : 0;
    }
    return 0;
}

static int ws_sass_line(struct ws_sass_parser *p, char *line,
                        struct ws_err *err)
{
    char *q = ws_skip_blank(line);
    size_t n = strlen(q);

    while (n > 0 && (q[n - 1] == ' ' || q[n - 1] == '\t'))
        q[--n] = '\0';
    if (q[0] == '/' && q[1] == '/' && strstr(q, "EIATTR_REGCOUNT"))
        p->regcount_state = 1;
    if (n == 0 || (q[0] == '/' && q[1] == '/'))
        return 0;
    if (q[0] == '/' && q[1] == '*' && q[2] != ' ' && strstr(q + 2, "*/"))
        return ws_sass_instruction(p, line, q, err);
    if (strncmp(q, "/* 0x", 5) == 0) {
        ws_sass_encoding(p, q);
        return 0;
    }
    p->hi_pending = 0;
    return ws_sass_header_line(p, q, err);
}

/* ---- finishing ------------------------------------------------------- */

/* Finishing sorts and searches rather than scanning: a hostile listing of a
 * million branches must not cost a million scans of every label or every
 * instruction. */

/* Offsets within a function strictly increase (checked as they are read),
 * so a binary search finds one. */
static int ws_sass_run(struct ws_sass_parser *p, struct ws_err *err)
{
    char *line;
    size_t len;
    int rc;

    while ((rc = ws_lines_next(&p->in, &line, &len, err)) == 1)
        if (ws_sass_line(p, line, err) < 0)
            return -1;
    if (rc < 0 || (p->in_func && ws_sass_close_func(p, err) < 0))
        return -1;
    if (p->s->nfuncs == 0)
        return ws_err_at(err, p->s->path, p->in.lineno > 0 ? p->in.lineno : 1,
                         1,
                         "no function in the listing (expected cuobjdump "
                         "-sass or nvdisasm output)");
    for (size_t f = 0; f < p->s->nfuncs; f++)
        if (p->s->funcs[f].ninst == 0)
            return ws_err_at(err, p->s->path, p->s->funcs[f].line, 1,
                             "function %s has no instructions (expected "
                             "'/*0000*/ OPCODE ... ;' lines)",
                             p->s->funcs[f].name);
    if (ws_sass_resolve(p, err) < 0)
        return -1;
    return ws_sass_attach_res(p, err);
}

static int ws_sass_parse(struct ws_sass *s, struct ws_sass_parser *p,
                         struct ws_err *err)
{
    int rc = ws_sass_run(p, err);

    ws_lines_close(&p->in);
    free(p->labels);
    free(p->pending);
    free(p->res);
    if (rc < 0)
        ws_sass_free(s);
    return rc;
}

static int ws_sass_start(struct ws_sass *s, struct ws_sass_parser *p,
                         const char *name, const struct ws_trace_opts *opts,
                         struct ws_err *err)
{
    memset(s, 0, sizeof *s);
    memset(p, 0, sizeof *p);
    ws_strtab_init(&s->strs);
    p->s = s;
    p->end_label = p->size_label = UINT32_MAX;
    if (opts)
        p->opts = *opts;
    else
        ws_trace_opts_default(&p->opts);
    s->path = strdup(name);
    if (!s->path)
        return ws_err_oom(err);
    return 0;
}

int ws_sass_load(struct ws_sass *s, const char *path,
                 const struct ws_trace_opts *opts, struct ws_err *err)
{
    struct ws_sass_parser p;

    if (ws_sass_start(s, &p, path, opts, err) < 0
        || ws_lines_open(&p.in, s->path, err) < 0) {
        ws_sass_free(s);
        return -1;
    }
    return ws_sass_parse(s, &p, err);
}

int ws_sass_parse_mem(struct ws_sass *s, const char *name, const void *data,
                      size_t len, const struct ws_trace_opts *opts,
                      struct ws_err *err)
{
    struct ws_sass_parser p;

    if (ws_sass_start(s, &p, name, opts, err) < 0
        || ws_lines_open_mem(&p.in, s->path, data, len, err) < 0) {
        ws_sass_free(s);
        return -1;
    }
    return ws_sass_parse(s, &p, err);
}

void ws_sass_free(struct ws_sass *s)
{
    for (size_t f = 0; f < s->nfuncs; f++)
        free(s->funcs[f].name);
    free(s->funcs);
    free(s->insts);
    free(s->opnds);
    free(s->path);
    ws_strtab_free(&s->strs);
    memset(s, 0, sizeof *s);
}

const struct ws_sass_func *ws_sass_find(const struct ws_sass *s,
                                        const char *name)
{
    for (size_t f = 0; f < s->nfuncs; f++)
        if (strcmp(s->funcs[f].name, name) == 0)
            return &s->funcs[f];
    return NULL;
}

int ws_sass_sniff(const char *text, size_t len)
{
    static const char *const marks[] = {"code for sm_", "Function : ", ".text.",
                                        ".headerflags", "/*0000*/"};
    char buf[4097];

    if (len > 4096)
        len = 4096;
    memcpy(buf, text, len);
    buf[len] = '\0';
    for (size_t i = 0; i < len; i++)
        if (buf[i] == '\0')
            buf[i] = ' ';
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
        if (strstr(buf, marks[i]))
            return 1;
    return 0;
}
