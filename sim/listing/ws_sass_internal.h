/*
 * ws_sass_internal: the listing reader's parser state, shared by its two
 * passes: reading lines (ws_sass.c) and, once the whole listing is read,
 * resolving branch labels and attaching -res-usage figures
 * (ws_sass_resolve.c).  Not for use outside listing/.
 */
#ifndef WS_SASS_INTERNAL_H
#define WS_SASS_INTERNAL_H

#include "util/ws_lines.h"
#include "ws_sass.h"

#define WS_SASS_MAX_OPNDS 16
#define WS_SASS_MAX_LABELS 4096

struct ws_sass_label {
    uint32_t name; /* interned */
    uint32_t pc;
    size_t func;
    long line;
};

struct ws_sass_pending { /* a label reference waiting for resolution */
    size_t opnd;
    uint32_t label;
    long line;
    size_t func;
};

struct ws_sass_res {
    char name[256];
    int regs, shared, local, stack;
};

struct ws_sass_parser {
    struct ws_sass *s;
    struct ws_lines in;
    struct ws_trace_opts opts;
    uint32_t sm;
    int in_func;
    int func_ended;              /* its end marker was seen */
    uint32_t end_label;          /* its nvdisasm end label, or none */
    char size_name[256];         /* ".size name,(label - name)" last */
    uint32_t size_label;         /* seen, for the next function */
    uint32_t waiting_labels[64]; /* labels seen before their instruction */
    long waiting_lines[64];
    int nwaiting;
    struct ws_sass_label *labels;
    size_t nlabels;
    struct ws_sass_pending *pending;
    size_t npending, pending_cap;
    struct ws_sass_res *res;
    size_t nres, res_cap;
    char res_name[256];    /* -res-usage function being read */
    int regcount_state;    /* nvdisasm EIATTR_REGCOUNT: 1 name, 2 value */
    char shared_name[256]; /* inside .nv.shared.NAME */
    int hi_pending;        /* the last instruction printed its low encoding
                       word: the next encoding-only line is its high one */
};

/* The second pass: labels sorted and bound, branch targets checked
 * against their function, resource usage attached to functions. */
int ws_sass_resolve(struct ws_sass_parser *p, struct ws_err *err);
int ws_sass_attach_res(struct ws_sass_parser *p, struct ws_err *err);

#endif
