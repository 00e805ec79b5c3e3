/*
 * ws_input: the one front door for everything warpsim simulates or
 * summarises.  A path is recognised (a folder holding a kernelslist.g, a
 * kernelslist.g, one kernel-N.traceg[.xz], a packed trace (.wst), a
 * workload description over a SASS listing, or a listing on its own, told
 * by its content) and opened
 * as a list of commands in launch order: host-to-device copies and
 * kernels.  Each kernel opens as a struct ws_cta_source, so the timing
 * model, the profile and the trace writer never know which format a
 * kernel came from.  Trace kernels are opened one at a time, when asked
 * for, so a long list holds one reader at once.
 *
 * Leaves out: what is done with the kernels (cli/, timing/, model/).
 */
#ifndef WS_INPUT_H
#define WS_INPUT_H

#include <stddef.h>
#include <stdio.h>

#include "listing/ws_sass.h"
#include "trace/ws_kernelslist.h"
#include "trace/ws_pack.h"
#include "trace/ws_trace.h"
#include "trace/ws_traceg.h"
#include "util/ws_err.h"
#include "workload/ws_expand.h"
#include "workload/ws_workload.h"

enum ws_input_kind {
    WS_INPUT_LIST,              /* kernelslist.g, or a folder holding one */
    WS_INPUT_KERNEL,            /* one kernel-N.traceg[.xz] */
    WS_INPUT_LISTING,           /* a SASS listing: static, nothing to run */
    WS_INPUT_WORKLOAD,          /* a workload.yaml over a listing */
    WS_INPUT_PACK               /* a packed trace (.wst), by its magic */
};

/* What the command line says about its input beyond the path. */
struct ws_input_params {
    const char *const *sets;    /* --param NAME=VALUE, workloads only */
    int nsets;
    const char *listing;        /* --listing FILE, workloads only */
    struct ws_trace_opts opts;  /* limits, unknown opcodes, header keys */
};

struct ws_input {
    enum ws_input_kind kind;
    const char *path;           /* as given */
    char *list_path;            /* a folder's kernelslist.g */
    struct ws_cmdlist list;     /* the commands; a workload is one kernel */
    struct ws_trace_opts opts;
    int has_workload, has_listing;
    struct ws_workload w;
    struct ws_expander x;
    struct ws_sass sass;        /* WS_INPUT_LISTING */
    struct ws_pack *pack;       /* WS_INPUT_PACK */
};

/* Recognises and opens path.  --param or --listing for an input that is
 * not a workload is an error, not something to ignore.  An unplaced error
 * (a file that cannot be opened) is left for the caller to place at the
 * word that named the path.  On failure nothing is left open: in is
 * zeroed, and closing it too is harmless. */
int ws_input_open(struct ws_input *in, const char *path,
                  const struct ws_input_params *p, struct ws_err *err);
void ws_input_close(struct ws_input *in);

/* One kernel of the input, open for reading CTA by CTA. */
struct ws_input_kernel {
    struct ws_cta_source src;
    struct ws_traceg *reader;   /* trace kernels; NULL for a workload */
    struct ws_pack_reader *packed;  /* kernels of a .wst */
};

/* Opens command i (a kernel) of in->list.  An error opening a trace named
 * in a kernelslist.g is placed at that line. */
int ws_input_kernel_open(struct ws_input *in, size_t i,
                         struct ws_input_kernel *k, struct ws_err *err);
void ws_input_kernel_close(struct ws_input_kernel *k);

/* Writes in's commands, in launch order, as one packed trace (.wst) on fp
 * (seekable, empty; name for messages).  A trace only, not a workload. */
int ws_input_pack(struct ws_input *in, FILE *fp, const char *name,
                  struct ws_err *err);

/* What path is, by its magic (a .wst), its name or (for a listing) its
 * first 4 KiB; for a folder, *list_path is set to its kernelslist.g
 * (malloc'd). */
int ws_input_detect(const char *path, char **list_path,
                    enum ws_input_kind *kind, struct ws_err *err);

#endif
