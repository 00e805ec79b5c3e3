/*
 * ws_packr: the .wst reader's file level (format and trust rules in
 * ws_pack.h): mapping the file and checking its header, the checksum of
 * everything after the header, and the command table, and telling whether
 * the file changed while it was read.  Kernels are read by
 * ws_packr_kernel.c when asked for.
 *
 * The checksum guards against accidents only (anyone can recompute it),
 * so the header and command table are also held to what the writer
 * produces: reserved fields zero, the kernels in launch order, the
 * command table last and filling the file to its end.
 *
 * A file changed while it is mapped: truncated, its pages past the new
 * end fault, and the guard (ws_packr_guard.c) turns them into zeros and
 * marks the mapping; rewritten in place, its pages show the new bytes.
 * Either way what was read is not one file, so every entry point of the
 * reader ends in ws_packr_unchanged, which reports the change (and, at
 * the end of each kernel and warp, compares the file's size and
 * modification time with those it had when opened).  The command then
 * fails as for bad input, exit 2: the trace, not warpsim, is at fault, and
 * a rerun on a trace left alone gives the results.  A trace replaced by
 * a rename is not a change: the mapping keeps the file that was opened.
 *
 * Memory: a mapped page counts in the process's resident set once read,
 * so the pages the checksum read are given back at once, and the kernel
 * reader gives back each CTA's once the simulator has its copy
 * (ws_pack_release): what stays resident is the CTAs in flight, not the
 * file.
 *
 * Leaves out: writing (ws_pack.c).
 */
/* madvise(MADV_DONTNEED) is not POSIX: posix_madvise's is only a hint,
 * and Linux ignores it. */
#define _DEFAULT_SOURCE
#include "ws_packr_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include "util/ws_readset.h"

int ws_packr_vbad(const char *name, struct ws_err *err, uint64_t at,
                  const char *expected, const char *prefix, const char *fmt,
                  va_list ap)
{
    char what[320];

    vsnprintf(what, sizeof what, fmt, ap);
    return ws_err_at(err, name, 1, 1, "%s%s at byte %llu (expected %s)", prefix,
                     what, (unsigned long long)at, expected);
}

int ws_packr_bad(const char *name, struct ws_err *err, uint64_t at,
                 const char *expected, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    ws_packr_vbad(name, err, at, expected, "", fmt, ap);
    va_end(ap);
    return -1;
}

/* ---- the file ----------------------------------------------------------- */

/* XXH3 of everything after the header, a few MiB at a time, each piece's
 * pages given back once hashed: checking a file must not make all of it
 * resident at once. */
static uint64_t ws_packr_checksum(const struct ws_pack *p)
{
    const size_t piece = 4u << 20;
    XXH3_state_t *st = XXH3_createState();
    size_t off = sizeof p->h;
    uint64_t sum;

    if (!st)
        return XXH3_64bits(p->base + off, p->size - off);
    XXH3_64bits_reset(st);
    while (off < p->size) {
        size_t n = p->size - off < piece ? p->size - off : piece;
        XXH3_64bits_update(st, p->base + off, n);
        ws_pack_release(p, off, n);
        off += n;
    }
    sum = XXH3_64bits_digest(st);
    XXH3_freeState(st);
    return sum;
}

void ws_pack_release(const struct ws_pack *p, uint64_t off, uint64_t len)
{
    long page = sysconf(_SC_PAGESIZE);
    uint64_t start, end;

    if (!p->map || page <= 0 || off > p->size || len > p->size - off)
        return;
    /* Whole pages inside the range only: a page shared with the next
     * record would come straight back. */
    start = (off + (uint64_t)page - 1) / (uint64_t)page * (uint64_t)page;
    end = (off + len) / (uint64_t)page * (uint64_t)page;
    if (end > start)
        madvise((char *)p->map + start, end - start, MADV_DONTNEED);
}

static int ws_packr_header(struct ws_pack *p, struct ws_err *err)
{
    struct ws_pack_header *h = &p->h;

    if (p->size < sizeof *h)
        return ws_packr_bad(p->name, err, p->size, "a 64-byte .wst header",
                            "file ends");
    memcpy(h, p->base, sizeof *h);
    if (memcmp(h->magic, WS_PACK_MAGIC, sizeof h->magic) != 0)
        return ws_packr_bad(p->name, err, 0,
                            "the magic 'WSTPACK' of a "
                            "packed trace",
                            "not a .wst");
    if (h->bom != WS_PACK_BOM)
        return ws_packr_bad(p->name, err, 12,
                            "a file packed on a machine of "
                            "this byte order; repack it here",
                            "%s",
                            h->bom == 0x04030201u ? "other byte order"
                                                  : "bad byte-order mark");
    if (h->version != WS_PACK_VERSION)
        return ws_packr_bad(p->name, err, 8,
                            "format version 1; repack it "
                            "with this warpsim",
                            "format version %u", h->version);
    if (h->inst_size != sizeof(struct ws_inst) || h->header_size != sizeof *h)
        return ws_packr_bad(p->name, err, 16,
                            "36-byte instruction records "
                            "and a 64-byte header; repack it with this "
                            "warpsim",
                            "records of %u bytes, header of %u", h->inst_size,
                            h->header_size);
    if (h->file_size != p->size)
        return ws_packr_bad(p->name, err, 24,
                            "a complete file; it was cut "
                            "short or added to, repack it",
                            "file is %llu "
                            "bytes long, its header says %llu",
                            (unsigned long long)p->size,
                            (unsigned long long)h->file_size);
    if (h->zero != 0)
        return ws_packr_field(p->name, err, 56, "", "the header's zero",
                              h->zero, 0, "a reserved field");
    if (ws_packr_checksum(p) != h->checksum)
        return ws_err_at(err, p->name, 1, 1,
                         "checksum mismatch (expected an "
                         "intact file; repack it)");
    return 0;
}


/* The command table lies last and fills the file: it ends where the
 * file does, 64-aligned. */
static int ws_packr_cmd_table(const struct ws_pack *p, struct ws_err *err)
{
    const struct ws_pack_header *h = &p->h;
    uint64_t bytes = (uint64_t)h->ncmds * sizeof(struct ws_pack_cmd);

    if (h->cmd_off % 64 != 0
        || !ws_packr_fits(p, h->cmd_off, h->ncmds, sizeof(struct ws_pack_cmd))
        || h->cmd_off < sizeof *h)
        return ws_packr_bad(p->name, err, 40, WS_PACKR_REPACK,
                            "command "
                            "table of %u entries at %llu outside the file",
                            h->ncmds, (unsigned long long)h->cmd_off);
    if (h->cmd_off + bytes != p->size)
        return ws_packr_field(p->name, err, 48, "", "ncmds", h->ncmds,
                              (p->size - h->cmd_off)
                                  / sizeof(struct ws_pack_cmd),
                              "the entries from cmd_off to the end of the "
                              "file");
    if (h->nkernels > h->ncmds)
        return ws_packr_bad(p->name, err, 52, WS_PACKR_REPACK,
                            "%u kernels "
                            "in %u commands",
                            h->nkernels, h->ncmds);
    return 0;
}

/* Command i at byte at: a known kind, its reserved fields zero, and a
 * kernel's header 64-aligned after the kernel before it (prev, or the
 * file header), before the command table. */
static int ws_packr_cmd(const struct ws_pack *p, uint32_t i, uint64_t at,
                        const struct ws_pack_cmd *c, uint64_t prev,
                        struct ws_err *err)
{
    char what[64];

    if (c->zero != 0) {
        snprintf(what, sizeof what, "command %u's zero", i);
        return ws_packr_field(p->name, err, at + 4, "", what, c->zero, 0,
                              "a reserved field");
    }
    if (c->kind == WS_PACK_CMD_MEMCPY)
        return 0;
    if (c->kind != WS_PACK_CMD_KERNEL)
        return ws_packr_bad(p->name, err, at,
                            "0 (kernel) or 1 (copy); "
                            "repack it",
                            "command %u of kind %u", i, c->kind);
    if (c->b != 0) {
        snprintf(what, sizeof what, "kernel command %u's second field", i);
        return ws_packr_field(p->name, err, at + 16, "", what, c->b, 0,
                              "a reserved field for a kernel");
    }
    if (c->a % 64 != 0 || c->a <= prev || c->a > p->h.cmd_off
        || sizeof(struct ws_pack_kernel_hdr) > p->h.cmd_off - c->a)
        return ws_packr_bad(p->name, err, at + 8, WS_PACKR_REPACK,
                            "kernel header at %llu outside the file or out "
                            "of launch order",
                            (unsigned long long)c->a);
    return 0;
}

static int ws_packr_commands(struct ws_pack *p, struct ws_err *err)
{
    const struct ws_pack_header *h = &p->h;
    uint64_t end = sizeof *h; /* where the last kernel seen ends */
    size_t nk = 0;

    if (ws_packr_cmd_table(p, err) < 0)
        return -1;
    p->kernels = calloc(h->nkernels ? h->nkernels : 1, sizeof *p->kernels);
    if (!p->kernels)
        return ws_err_oom(err);
    for (uint32_t i = 0; i < h->ncmds; i++) {
        uint64_t at = h->cmd_off + (uint64_t)i * sizeof(struct ws_pack_cmd);
        struct ws_pack_cmd c;
        memcpy(&c, p->base + at, sizeof c);
        if (ws_packr_cmd(p, i, at, &c, nk ? p->kernels[nk - 1] : 0, err) < 0)
            return -1;
        if (c.kind != WS_PACK_CMD_KERNEL)
            continue;
        if (nk == h->nkernels)
            return ws_packr_bad(p->name, err, at, WS_PACKR_REPACK,
                                "more "
                                "kernel commands than the %u kernels the "
                                "header gives",
                                h->nkernels);
        p->kernels[nk++] = c.a;
        end = c.a + sizeof(struct ws_pack_kernel_hdr);
    }
    if (nk != h->nkernels)
        return ws_packr_bad(p->name, err, 52, WS_PACKR_REPACK,
                            "%zu kernel "
                            "commands where the header gives %u",
                            nk, h->nkernels);
    /* Each kernel's sections start where the one before ends
     * (ws_packr_layout.c); the last one's header ends at the table. */
    if (h->cmd_off != end)
        return ws_packr_field(p->name, err, 40, "", "cmd_off", h->cmd_off, end,
                              nk ? "right after the last kernel's "
                                   "header"
                                 : "right after the file header, with "
                                   "no kernels");
    return 0;
}

static int ws_packr_check(struct ws_pack *p, struct ws_err *err)
{
    int rc = ws_packr_header(p, err) < 0 || ws_packr_commands(p, err) < 0 ? -1
                                                                          : 0;

    /* The checksum read every page: a file cut short while it was read
     * is that, not a checksum mismatch. */
    return ws_packr_unchanged(p, 1, err) < 0 ? -1 : rc;
}

/* ---- a file that changes while it is read ------------------------------ */

static int ws_packr_changed(const struct ws_pack *p, struct ws_err *err,
                            const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Replaces whatever err says: an error seen on the zeros of a file cut
 * short describes the zeros, the change is the cause. */
static int ws_packr_changed(const struct ws_pack *p, struct ws_err *err,
                            const char *fmt, ...)
{
    char how[160];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(how, sizeof how, fmt, ap);
    va_end(ap);
    ws_err_clear(err);
    return ws_err_at(err, p->name, 1, 1,
                     "the file changed while it was "
                     "being read (truncated or rewritten)%s (expected a "
                     "trace left alone while warpsim runs)",
                     how);
}

int ws_packr_unchanged(const struct ws_pack *p, int full, struct ws_err *err)
{
    struct stat st;
    uint64_t at;

    if (ws_packr_guard_tripped(p->guard, &at))
        return ws_packr_changed(p, err, ": byte %llu was gone when read",
                                (unsigned long long)at);
    if (!full || p->fd < 0 || fstat(p->fd, &st) != 0)
        return 0;
    if ((uint64_t)st.st_size != p->size0)
        return ws_packr_changed(p, err, ": %llu bytes, %llu when opened",
                                (unsigned long long)st.st_size,
                                (unsigned long long)p->size0);
    if (st.st_mtim.tv_sec != p->mtime0.tv_sec
        || st.st_mtim.tv_nsec != p->mtime0.tv_nsec)
        return ws_packr_changed(p, err, ": modified since it was opened");
    return 0;
}

static struct ws_pack *ws_packr_new(const char *name, struct ws_err *err)
{
    struct ws_pack *p = calloc(1, sizeof *p);

    if (p && !(p->name = strdup(name))) {
        free(p);
        p = NULL;
    }
    if (!p)
        ws_err_oom(err);
    else
        p->fd = p->guard = -1;
    return p;
}

/* errno is read before close() can change it. */
static int ws_packr_cannot_open(const char *path, int fd, struct ws_err *err)
{
    int e = errno;

    if (fd >= 0)
        close(fd);
    return ws_err_msg(err, "%s: cannot open: %s (expected a readable file)",
                      path, strerror(e));
}

/* A descriptor of path if it is a regular file (O_NONBLOCK: a FIFO must
 * not block the open), else -1 with an unplaced error. */
static int ws_packr_fd(const char *path, struct stat *st, struct ws_err *err)
{
    /* O_CLOEXEC: an open pack's descriptor is kept, and must not leak
     * into the external models the run starts. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);

    if (fd < 0 || fstat(fd, st) != 0)
        return ws_packr_cannot_open(path, fd, err);
    if (!S_ISREG(st->st_mode)) {
        close(fd);
        return ws_err_msg(err,
                          "%s: not a regular file (expected a trace or "
                          "listing file)",
                          path);
    }
    return fd;
}

int ws_pack_sniff(const char *path)
{
    struct stat st;
    struct ws_err err;
    char magic[8];
    int fd, is;

    ws_err_clear(&err);
    if ((fd = ws_packr_fd(path, &st, &err)) < 0)
        return 0;
    is = read(fd, magic, sizeof magic) == (ssize_t)sizeof magic
         && memcmp(magic, WS_PACK_MAGIC, sizeof magic) == 0;
    if (!is && ws_packr_zstd_is(fd))
        is = ws_packr_zstd_head(fd, magic, sizeof magic)
             && memcmp(magic, WS_PACK_MAGIC, sizeof magic) == 0;
    close(fd);
    return is;
}

int ws_pack_open(struct ws_pack **out, const char *path, struct ws_err *err)
{
    struct ws_pack *p;
    struct stat st;
    int fd;

    *out = NULL;
    if ((fd = ws_packr_fd(path, &st, err)) < 0)
        return -1;
    ws_readset_note(path, &st);
    if (!(p = ws_packr_new(path, err))) {
        close(fd);
        return -1;
    }
    if (ws_packr_zstd_is(fd)) {
        /* decoded into memory: no mapping, no descriptor to watch */
        int rc = ws_packr_zstd_load(p, fd, err);
        close(fd);
        if (rc < 0 || ws_packr_check(p, err) < 0) {
            ws_pack_close(p);
            return -1;
        }
        *out = p;
        return 0;
    }
    /* st is set: ws_packr_fd's failures all return -1 (through ws_err_msg,
     * which the analyser cannot see into).
     * NOLINTNEXTLINE(clang-analyzer-core.uninitialized.Assign) */
    p->size = (size_t)st.st_size;
    p->fd = fd;
    p->size0 = (uint64_t)st.st_size;
    p->mtime0 = st.st_mtim;
    if (p->size > 0) {
        p->map = mmap(NULL, p->size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p->map == MAP_FAILED) {
            p->map = NULL;
            p->fd = -1;
            ws_packr_cannot_open(path, fd, err);
            ws_pack_close(p);
            return -1;
        }
        p->base = p->map;
        /* Not the input's fault: exit 1. */
        if ((p->guard = ws_packr_guard_add(p->map, p->size)) < 0) {
            ws_pack_close(p);
            ws_err_msg(err,
                       "%s: cannot guard the mapping (expected at "
                       "most 32 packed traces open at once)",
                       path);
            err->internal = 1;
            return -1;
        }
    }
    if (ws_packr_check(p, err) < 0) {
        ws_pack_close(p);
        return -1;
    }
    *out = p;
    return 0;
}

int ws_pack_open_mem(struct ws_pack **out, const char *name, const void *data,
                     size_t len, struct ws_err *err)
{
    struct ws_pack *p;

    *out = NULL;
    if (!(p = ws_packr_new(name, err)))
        return -1;
    /* Records are read in place, so they need the alignment a mapping
     * has; a buffer that lacks it is copied. */
    p->base = data;
    p->size = len;
    if ((uintptr_t)data % 8 != 0) {
        if (!(p->own = malloc(len ? len : 1))) {
            ws_pack_close(p);
            return ws_err_oom(err);
        }
        memcpy(p->own, data, len);
        p->base = p->own;
    }
    if (ws_packr_check(p, err) < 0) {
        ws_pack_close(p);
        return -1;
    }
    *out = p;
    return 0;
}

int ws_pack_commands(const struct ws_pack *p, struct ws_cmdlist *list,
                     struct ws_err *err)
{
    memset(list, 0, sizeof *list);
    list->name = strdup(p->name);
    list->cmds = calloc(p->h.ncmds ? p->h.ncmds : 1, sizeof *list->cmds);
    if (!list->name || !list->cmds) {
        ws_kernelslist_free(list);
        return ws_err_oom(err);
    }
    list->cap = p->h.ncmds;
    for (uint32_t i = 0; i < p->h.ncmds; i++) {
        struct ws_pack_cmd c;
        struct ws_cmd *d = &list->cmds[list->n++];
        memcpy(&c, p->base + p->h.cmd_off + (uint64_t)i * sizeof c, sizeof c);
        d->kind = c.kind == WS_PACK_CMD_KERNEL ? WS_CMD_KERNEL
                                               : WS_CMD_MEMCPY_HTOD;
        if (d->kind == WS_CMD_KERNEL) {
            list->nkernels++;
        } else {
            d->addr = c.a;
            d->bytes = c.b;
        }
    }
    return 0;
}

size_t ws_pack_nkernels(const struct ws_pack *p)
{
    return p->h.nkernels;
}

void ws_pack_close(struct ws_pack *p)
{
    if (!p)
        return;
    /* Out of the guard's table before the range can be mapped again. */
    ws_packr_guard_remove(p->guard);
    if (p->map)
        munmap(p->map, p->size);
    if (p->fd >= 0)
        close(p->fd);
    free(p->own);
    free(p->kernels);
    free(p->name);
    free(p);
}
