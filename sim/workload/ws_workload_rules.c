/*
 * ws_workload_rules: the per-instruction half of a workload description:
 * naming an instruction of the listing (an offset, MNEMONIC#n or
 * OPCODE.MODIFIERS#n, or alternatives for other SM versions), and
 * compiling its rules (when:, loops:, memory:, mbarriers:, and opcode
 * patterns such as "LDS.128*") against the instruction they govern; then
 * checking that every instruction that needs a rule has one.  The rest of
 * the description (parameters, launch, buffers, lets, the listing itself)
 * is ws_workload.c's; tensors: and tma: are ws_workload_tma.c's.
 *
 * mbarriers: {NAME: {count|tx|parity: expr}} sets the immediate of a SYNCS
 * instruction (timing/ws_async.h): count, the arrivals per phase, for
 * SYNCS.EXCH (mbarrier.init); tx, the transaction bytes an arrive expects,
 * for SYNCS.ARRIVE; parity, the phase parity waited for, for
 * SYNCS.PHASECHK (imm 2 | parity).  Without a rule the listing's
 * immediate stays (0 in nvcc's SYNCS forms): count 1, no bytes, and a
 * wait of unknown parity, which the simulator replays as traced (it does
 * not wait).
 */
#include "ws_workload_internal.h"

#include <stdlib.h>
#include <string.h>

#include "trace/ws_async_op.h"
#include "trace/ws_opcode.h"
#include "util/ws_clip.h"
#include "util/ws_num.h"

/* An opcode pattern "LDS.128" matches LDS.128 and LDS.128.anything. */
static int ws_wl_pattern_match(const char *pattern, size_t len, const char *op)
{
    return strncmp(op, pattern, len) == 0
           && (op[len] == '\0' || op[len] == '.');
}

/* Index of the instruction one name (key[0..len)) designates, or -1. */
static long ws_wl_lookup(const struct ws_workload *w, const char *key,
                         size_t len)
{
    const struct ws_sass_func *f = w->func;
    const char *hash = memchr(key, '#', len);
    uint64_t v;

    if (len > 2 && strncmp(key, "0x", 2) == 0
        && ws_num_hex(key, len, &v) == 0) {
        for (uint32_t i = 0; i < f->ninst; i++)
            if (w->sass.insts[f->first + i].pc == v)
                return (long)i;
        return -1;
    }
    if (!hash || ws_num_u64(hash + 1, len - (size_t)(hash + 1 - key), &v) < 0
        || v == 0)
        return -2;
    for (uint32_t i = 0; i < f->ninst; i++) {
        const char *op = ws_strtab_str(&w->sass.strs,
                                       w->sass.insts[f->first + i].op);
        if (hash > key && ws_wl_pattern_match(key, (size_t)(hash - key), op)
            && --v == 0)
            return (long)i;
    }
    return -1;
}

/* Names: "0x00a0", "LDG#2", or alternatives "RED#1|REDG#1" for mnemonics
 * that differ between SM versions (the first that exists wins). */
int ws_wl_find_inst(struct ws_wl_ctx *c, const struct ws_ynode *n,
                    uint32_t *out)
{
    const char *key;
    struct ws_clip q;
    long found = -1;

    /* Every alternative must be a well-formed name, even after the one
     * that is found: "LDG#1|" is a typo, not a choice. */
    for (key = n->key;; key++) {
        size_t len = strcspn(key, "|");
        long i = len ? ws_wl_lookup(c->w, key, len) : -2;
        if (i == -2)
            return ws_err_at(c->err, n->file, n->key_line, n->key_col,
                             "bad "
                             "instruction name '%.*s' (expected an offset "
                             "such as 0x00a0 or MNEMONIC#n such as LDG#2)",
                             (int)len, key);
        if (i >= 0 && found < 0)
            found = i;
        key += len;
        if (!*key)
            break;
    }
    if (found >= 0) {
        *out = (uint32_t)found;
        return 0;
    }
    return ws_err_at(c->err, n->file, n->key_line, n->key_col,
                     "no "
                     "instruction '%s' in %s (expected an offset or a "
                     "mnemonic occurrence that the listing has)",
                     n->key, ws_clip(&q, c->w->func->name));
}

/* A jump: BRA or JMP with a target.  BSSY, SSY, PBK and PCNT also name an
 * offset, but only to say where paths reconverge; they do not jump. */
int ws_workload_is_jump(const struct ws_workload *w,
                        const struct ws_sass_inst *in)
{
    const char *op = ws_strtab_str(&w->sass.strs, in->op);
    size_t blen = ws_opcode_base_len(op);

    if (!((blen == 3 && strncmp(op, "BRA", 3) == 0)
          || (blen == 3 && strncmp(op, "JMP", 3) == 0)))
        return 0;
    for (uint32_t k = 0; k < in->nopnd; k++)
        if (w->sass.opnds[in->opnd + k].kind == WS_OPND_TARGET)
            return 1;
    return 0;
}

/* Guarded by a predicate other than PT (whose value the listing knows). */
static int ws_is_conditional(const struct ws_sass_inst *in)
{
    return in->guard >= 0 && in->guard != 7;
}

/* The asynchronous kind of a listing's instruction (WS_ASYNC_NONE for
 * the others). */
static enum ws_async_kind ws_wl_async_kind(const struct ws_workload *w,
                                           const struct ws_sass_inst *in)
{
    struct ws_async_op a;

    if (ws_async_op_decode(ws_strtab_str(&w->sass.strs, in->op), &a) < 0)
        return WS_ASYNC_NONE;
    return (enum ws_async_kind)a.kind;
}

int ws_wl_is_bulk(const struct ws_workload *w, const struct ws_sass_inst *in)
{
    enum ws_async_kind k = ws_wl_async_kind(w, in);

    return k == WS_ASYNC_BULK_LOAD || k == WS_ASYNC_BULK_STORE
           || k == WS_ASYNC_BULK_PREFETCH;
}

/* Takes lane addresses: a bulk copy takes a box (tma:) instead. */
static int ws_is_memory(const struct ws_workload *w,
                        const struct ws_sass_inst *in)
{
    return (in->cls == WS_OPC_GLOBAL || in->cls == WS_OPC_SHARED
            || in->cls == WS_OPC_LOCAL || in->cls == WS_OPC_TEX)
           && !ws_wl_is_bulk(w, in);
}

/* mbarriers: entries are {count|tx|parity: expr}, each for the SYNCS form
 * whose immediate it is. */
static const char *const ws_wl_imm_keys[] = {"count", "tx", "parity"};
static const enum ws_async_kind ws_wl_imm_kinds[] = {WS_ASYNC_MBAR_INIT,
                                                     WS_ASYNC_MBAR_ARRIVE,
                                                     WS_ASYNC_MBAR_WAIT};
static const char *const ws_wl_imm_ops[] = {"SYNCS.EXCH (mbarrier.init)",
                                            "SYNCS.ARRIVE (an arrive)",
                                            "SYNCS.PHASECHK (a wait)"};

/* Which of count, tx or parity the entry n gives; -1 with the error. */
static int ws_wl_imm_key(struct ws_wl_ctx *c, const struct ws_ynode *n)
{
    const struct ws_ynode *v = n->kind == WS_YNODE_MAP ? n->child : NULL;

    if (v && !v->next)
        for (int k = 0; k < 3; k++)
            if (strcmp(v->key, ws_wl_imm_keys[k]) == 0)
                return k;
    return ws_wl_bad(c, v && !v->next ? v : n, "bad mbarrier rule",
                     "one of {count: expr}, {tx: expr} or {parity: expr}");
}

static int ws_wl_check_imm(struct ws_wl_ctx *c, const struct ws_ynode *n,
                           const struct ws_sass_inst *in)
{
    int k = ws_wl_imm_key(c, n);

    if (k < 0)
        return -1;
    if (ws_wl_async_kind(c->w, in) != ws_wl_imm_kinds[k])
        return ws_err_at(c->err, n->file, n->key_line, n->key_col,
                         "%s is not an mbarrier instruction that takes a %s "
                         "(expected %s)",
                         n->key, ws_wl_imm_keys[k], ws_wl_imm_ops[k]);
    return 0;
}

static int ws_wl_check_rule(struct ws_wl_ctx *c, const struct ws_ynode *n,
                            enum ws_wl_rule_kind kind,
                            const struct ws_sass_inst *in)
{
    const struct ws_workload *w = c->w;

    if (kind == WS_RULE_WHEN && !ws_is_conditional(in))
        return ws_err_at(c->err, n->file, n->key_line, n->key_col,
                         "%s is not "
                         "guarded by a predicate (expected when: entries for "
                         "@P instructions only)",
                         n->key);
    if (kind == WS_RULE_LOOP
        && (!ws_is_conditional(in) || !ws_workload_is_jump(w, in)))
        return ws_err_at(c->err, n->file, n->key_line, n->key_col,
                         "%s is not "
                         "a conditional branch (expected loops: entries for "
                         "the branch that closes a loop)",
                         n->key);
    if (kind == WS_RULE_MEMORY && ws_wl_is_bulk(w, in))
        return ws_err_at(c->err, n->file, n->key_line, n->key_col,
                         "%s is a bulk copy (expected a tma: entry naming its "
                         "tensor and coordinates, not lane addresses)",
                         n->key);
    if (kind == WS_RULE_MEMORY && !ws_is_memory(w, in))
        return ws_err_at(c->err, n->file, n->key_line, n->key_col,
                         "%s does "
                         "not access global, local, shared or texture memory "
                         "(expected memory: entries for loads, stores and "
                         "atomics)",
                         n->key);
    if (kind == WS_RULE_IMM)
        return ws_wl_check_imm(c, n, in);
    return 0;
}

/* A trip count written as a number alone ("-1", "0") is wrong wherever
 * the loop is; one that uses names is checked per lane when a lane
 * reaches the branch (a guarded loop may compute 0 for lanes that skip
 * it). */
static int ws_wl_literal_trips(struct ws_wl_ctx *c, const struct ws_ynode *t)
{
    struct ws_expr_names none;
    struct ws_err scratch;
    struct ws_expr e;
    int64_t v;
    int rc;

    memset(&none, 0, sizeof none);
    ws_err_clear(&scratch);
    if (ws_expr_compile(&e, t->value, &none, t->file, t->line, t->col, &scratch)
        < 0)
        return 0;
    rc = ws_expr_eval(&e, NULL, &v, c->err);
    ws_expr_free(&e);
    if (rc == 0 && v < 1)
        return ws_err_at(c->err, t->file, t->line, t->col,
                         "loop trip count "
                         "of %lld (expected at least 1: the body has run once "
                         "when its closing branch is reached)",
                         (long long)v);
    return rc;
}

/* The index of an mbarriers rule's key, checked already to be one of
 * ws_wl_imm_keys. */
static uint8_t ws_wl_imm_index(const char *key)
{
    uint8_t k = 0;

    while (k + 1u < sizeof ws_wl_imm_keys / sizeof ws_wl_imm_keys[0]
           && strcmp(key, ws_wl_imm_keys[k]) != 0)
        k++;
    return k;
}

static int ws_wl_compile_rule(struct ws_wl_ctx *c, const struct ws_ynode *n,
                              enum ws_wl_rule_kind kind, int counter,
                              uint32_t inst)
{
    struct ws_workload *w = c->w;
    const struct ws_ynode *text = kind == WS_RULE_LOOP ? ws_yaml_get(n, "trips")
                                  : kind == WS_RULE_IMM ? n->child
                                                        : n;
    struct ws_wl_rule *r = &w->rules[w->nrules];

    if (kind == WS_RULE_IMM)
        r->imm = ws_wl_imm_index(text->key);
    if (text->kind != WS_YNODE_SCALAR)
        return ws_wl_bad(c, text, "not an expression", "a quoted expression");
    if (kind == WS_RULE_LOOP && ws_wl_literal_trips(c, text) < 0)
        return -1;
    if (ws_expr_compile(&r->expr, text->value, &w->names, text->file,
                        text->line, text->col, c->err)
        < 0)
        return -1;
    r->kind = kind;
    r->inst = inst;
    r->counter = counter;
    r->line = n->key_line;
    w->nrules++;
    return 0;
}

int ws_wl_add_part(struct ws_wl_ctx *c, const struct ws_ynode *text,
                   uint32_t inst)
{
    int r = (int)c->w->nrules;

    return ws_wl_compile_rule(c, text, WS_RULE_PART, -1, inst) < 0 ? -1 : r;
}

/* A memory or mbarrier rule for every instruction of an opcode that no
 * exact rule names. */
static int ws_wl_pattern_rule(struct ws_wl_ctx *c, const struct ws_ynode *n,
                              enum ws_wl_rule_kind kind)
{
    struct ws_workload *w = c->w;
    const struct ws_sass_func *f = w->func;
    size_t len = strlen(n->key) - 1;
    int rule = -1;
    struct ws_clip q;

    for (uint32_t i = 0; i < f->ninst; i++) {
        const struct ws_sass_inst *in = &w->sass.insts[f->first + i];
        int *slot = &w->rule_of[kind * f->ninst + i];
        if (!ws_wl_pattern_match(n->key, len,
                                 ws_strtab_str(&w->sass.strs, in->op)))
            continue;
        if (ws_wl_check_rule(c, n, kind, in) < 0)
            return -1;
        if (rule < 0) {
            rule = (int)w->nrules;
            if (ws_wl_compile_rule(c, n, kind, -1, i) < 0)
                return -1;
        }
        if (*slot < 0)
            *slot = rule;
    }
    if (rule < 0)
        return ws_err_at(c->err, n->file, n->key_line, n->key_col,
                         "no "
                         "instruction of %s matches %s (expected an opcode "
                         "the listing has, such as LDS.64*)",
                         ws_clip(&q, f->name), n->key);
    return 0;
}

static int ws_wl_rule(struct ws_wl_ctx *c, const struct ws_ynode *n,
                      enum ws_wl_rule_kind kind, int counter)
{
    struct ws_workload *w = c->w;
    uint32_t i = 0;
    int *slot;

    if (ws_wl_find_inst(c, n, &i) < 0
        || ws_wl_check_rule(c, n, kind, &w->sass.insts[w->func->first + i]) < 0)
        return -1;
    slot = &w->rule_of[kind * w->func->ninst + i];
    /* rule_of[] is all -1 before the first rule (ws_wl_rules).
     * NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult) */
    if (*slot >= 0)
        return ws_err_at(c->err, n->file, n->key_line, n->key_col,
                         "a second "
                         "rule for %s (expected one per instruction)",
                         n->key);
    *slot = (int)w->nrules;
    return ws_wl_compile_rule(c, n, kind, counter, i);
}

static int ws_is_pattern(const struct ws_ynode *n)
{
    size_t len = strlen(n->key);

    return len > 1 && n->key[len - 1] == '*';
}

/* A TMA rule compiles up to WS_WL_TMA_PARTS expressions into rules. */
#define WS_WL_TMA_PARTS (WS_WL_TENSOR_DIMS + 2)

int ws_wl_rules(struct ws_wl_ctx *c)
{
    static const char *const sections[] = {"when", "loops", "memory",
                                           "mbarriers", "tma"};
    struct ws_workload *w = c->w;
    uint32_t ninst = w->func->ninst ? w->func->ninst : 1;
    size_t count = 0;
    uint32_t loop = 0;

    for (int s = 0; s < 5; s++) {
        struct ws_ynode *sec = ws_yaml_get(c->root, sections[s]);
        for (struct ws_ynode *n = sec ? sec->child : NULL; n; n = n->next)
            count += s == 4 ? WS_WL_TMA_PARTS : 1;
    }
    w->rules = calloc(count ? count : 1, sizeof *w->rules);
    w->rule_of = malloc(WS_RULE_INDEXED * ninst * sizeof(int));
    w->tma_of = malloc(ninst * sizeof(int));
    if (!w->rules || !w->rule_of || !w->tma_of)
        return ws_err_oom(c->err);
    for (uint32_t i = 0; i < WS_RULE_INDEXED * w->func->ninst; i++)
        w->rule_of[i] = -1;
    for (uint32_t i = 0; i < w->func->ninst; i++)
        w->tma_of[i] = -1;
    for (int s = 0; s < WS_RULE_INDEXED; s++) {
        struct ws_ynode *sec = ws_yaml_get(c->root, sections[s]);
        for (struct ws_ynode *n = sec ? sec->child : NULL; n; n = n->next) {
            if (ws_is_pattern(n) && s != WS_RULE_MEMORY && s != WS_RULE_IMM)
                return ws_err_at(c->err, n->file, n->key_line, n->key_col,
                                 "an opcode pattern under %s (expected "
                                 "patterns under memory: and mbarriers: "
                                 "only)",
                                 sections[s]);
            if (!ws_is_pattern(n)
                && ws_wl_rule(c, n, (enum ws_wl_rule_kind)s,
                              s == WS_RULE_LOOP ? w->counters[loop++] : -1)
                       < 0)
                return -1;
        }
    }
    /* Patterns last: exact names win over them. */
    for (int s = WS_RULE_MEMORY; s <= WS_RULE_IMM; s++) {
        struct ws_ynode *sec = ws_yaml_get(c->root, sections[s]);
        for (struct ws_ynode *n = sec ? sec->child : NULL; n; n = n->next)
            if (ws_is_pattern(n)
                && ws_wl_pattern_rule(c, n, (enum ws_wl_rule_kind)s) < 0)
                return -1;
    }
    return ws_wl_tma_rules(c);
}

/* Every instruction the expander cannot decide alone must have its rule. */
int ws_wl_complete(struct ws_wl_ctx *c)
{
    const struct ws_workload *w = c->w;
    const struct ws_sass_func *f = w->func;

    for (uint32_t i = 0; i < f->ninst; i++) {
        const struct ws_sass_inst *in = &w->sass.insts[f->first + i];
        const char *op = ws_strtab_str(&w->sass.strs, in->op);
        int control = in->cls == WS_OPC_EXIT || ws_workload_is_jump(w, in);
        if (control && ws_is_conditional(in) && w->rule_of[i] < 0
            && w->rule_of[f->ninst + i] < 0)
            return ws_err_at(c->err, w->path, w->line, w->col,
                             "%s at "
                             "offset 0x%04x is a guarded %s with no rule "
                             "(expected an entry for it under when: or "
                             "loops:)",
                             op, in->pc,
                             in->cls == WS_OPC_EXIT ? "EXIT" : "branch");
        if (ws_is_memory(w, in) && w->rule_of[2 * f->ninst + i] < 0)
            return ws_err_at(c->err, w->path, w->line, w->col,
                             "%s at "
                             "offset 0x%04x has no address (expected an "
                             "entry for it under memory:)",
                             op, in->pc);
        if (ws_wl_is_bulk(w, in) && w->tma_of[i] < 0)
            return ws_err_at(c->err, w->path, w->line, w->col,
                             "%s at offset 0x%04x is a bulk copy with no "
                             "box (expected a tma rule naming its tensor and "
                             "coordinates)",
                             op, in->pc);
    }
    return 0;
}

/* ---- the whole file ---------------------------------------------------- */
