/*
 * ws_input: the one front door for everything warpsim simulates or
 * summarises.  A path is recognised (a folder holding a kernelslist.g, a
 * kernelslist.g, one kernel-N.traceg[.xz|.zst], a packed trace (.wst), a
 * workload description over a SASS listing, or a listing on its own, told
 * by its content) and opened as a list of commands in launch order:
 * host-to-device copies and kernels.  Each kernel opens as a struct ws_cta_source, so the timing
 * model, the profile and the trace writer never know which format a
 * kernel came from.  Trace kernels are opened one at a time, when asked
 * for, so a long list holds one reader at once.
 *
 * The struct is opaque: callers ask what an input is, can do and reads
 * through the queries below, never by its kind or its fields.
 *
 * Leaves out: what is done with the kernels (run/, timing/, model/).
 */
#ifndef WS_INPUT_H
#define WS_INPUT_H

#include <stddef.h>
#include <stdio.h>

#include "listing/ws_sass.h"
#include "trace/ws_ctrl.h"
#include "trace/ws_kernelslist.h"
#include "trace/ws_pack.h"
#include "trace/ws_trace.h"
#include "trace/ws_traceg.h"
#include "util/ws_err.h"

/* What ws_input_detect finds a path to be.  Only the door acts on it:
 * callers of an opened input ask the queries below instead. */
enum ws_input_kind {
    WS_INPUT_LIST,     /* kernelslist.g, or a folder holding one */
    WS_INPUT_KERNEL,   /* one kernel-N.traceg[.xz|.zst] */
    WS_INPUT_LISTING,  /* a SASS listing: static, nothing to run */
    WS_INPUT_WORKLOAD, /* a workload.yaml over a listing */
    WS_INPUT_PACK      /* a packed trace (.wst), by its magic */
};

/* What the command line says about its input beyond the path. */
struct ws_input_params {
    const char *const *sets; /* --param NAME=VALUE, workloads only */
    int nsets;
    /* --listing FILE: a workload's listing instead of its own; for a
     * trace, the listing of the same binary whose control bits the
     * simulator borrows by kernel name and PC (traces carry none). */
    const char *listing;
    int listing_trace; /* the command times traces by --listing's control
                          bits (run); others refuse it for traces */
    struct ws_trace_opts opts; /* limits, unknown opcodes, header keys */
};

/* An opened input: what it holds is the door's (ws_input.c); the rest of
 * warpsim asks the queries below, so that a new input format changes
 * this folder only. */
struct ws_input;

/* Recognises and opens path into *in (malloc'd).  --param or --listing
 * for an input that is not a workload is an error, not something to
 * ignore.  An unplaced error (a file that cannot be opened) is left for
 * the caller to place at the word that named the path.  On failure
 * nothing is left open and *in is NULL. */
int ws_input_open(struct ws_input **in, const char *path,
                  const struct ws_input_params *p, struct ws_err *err);
/* Closes and frees in; NULL is harmless. */
void ws_input_close(struct ws_input *in);

/* What the input is and can do.  Static: a SASS listing alone, which has
 * instructions but no dynamic stream to run, profile or pack.  Workload:
 * one kernel expanded from a workload description (trace gen writes it
 * out).  Can pack: trace kernels (a list, one .traceg or a .wst), which
 * ws_input_pack writes as one .wst; packed: already a .wst. */
int ws_input_is_static(const struct ws_input *in);
int ws_input_has_workload(const struct ws_input *in);
int ws_input_can_pack(const struct ws_input *in);
int ws_input_is_packed(const struct ws_input *in);
/* "listing", "workload" or "trace", for messages. */
const char *ws_input_what(const struct ws_input *in);

/* The path as given. */
const char *ws_input_path(const struct ws_input *in);

/* Its commands in launch order (host-to-device copies and kernels; a
 * workload is one kernel, a listing none), and how many are kernels. */
size_t ws_input_ncmds(const struct ws_input *in);
const struct ws_cmd *ws_input_cmd(const struct ws_input *in, size_t i);
size_t ws_input_nkernels(const struct ws_input *in);

/* The files the input reads, i < ws_input_nfiles: a workload's
 * description and the listing it expands; otherwise the list (a folder's
 * kernelslist.g, or the one file given), then the file of each command in
 * order, NULL for one without a file of its own (a copy, a .wst's
 * kernel).  What a sweep point's key hashes and what outputs are checked
 * against. */
size_t ws_input_nfiles(const struct ws_input *in);
const char *ws_input_file(const struct ws_input *in, size_t i);

/* A workload's parameters after --param and defaults: name i (NULL past
 * the last; none for a trace) and its value. */
const char *ws_input_param(const struct ws_input *in, size_t i,
                           long long *value);

/* A static input's listing, for the summaries of trace info; NULL for
 * any other input. */
const struct ws_sass *ws_input_listing(const struct ws_input *in);

/* One kernel of the input, open for reading CTA by CTA. */
struct ws_input_kernel {
    struct ws_cta_source src;
    struct ws_ctrl_table ctrl;     /* a trace's, from --listing */
    struct ws_traceg *reader;      /* trace kernels; NULL for a workload */
    struct ws_pack_reader *packed; /* kernels of a .wst */
};

/* Opens command i (a kernel) of the input.  An error opening a trace named
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
