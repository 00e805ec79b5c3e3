/*
 * ws_packr: the .wst reader's file level (format and trust rules in
 * ws_pack.h): mapping the file and checking its header, the checksum of
 * everything after the header, and the command table.  Kernels are read by
 * ws_packr_kernel.c when asked for.
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
    return ws_err_at(err, name, 1, 1, "%s%s at byte %llu (expected %s)",
                     prefix, what, (unsigned long long)at, expected);
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
        return ws_packr_bad(p->name, err, 0, "the magic 'WSTPACK' of a "
                            "packed trace", "not a .wst");
    if (h->bom != WS_PACK_BOM)
        return ws_packr_bad(p->name, err, 12, "a file packed on a machine of "
                            "this byte order; repack it here", "%s",
                            h->bom == 0x04030201u ? "other byte order"
                                                  : "bad byte-order mark");
    if (h->version != WS_PACK_VERSION)
        return ws_packr_bad(p->name, err, 8, "format version 1; repack it "
                            "with this warpsim", "format version %u",
                            h->version);
    if (h->inst_size != sizeof(struct ws_inst) || h->header_size != sizeof *h)
        return ws_packr_bad(p->name, err, 16, "36-byte instruction records "
                            "and a 64-byte header; repack it with this "
                            "warpsim", "records of %u bytes, header of %u",
                            h->inst_size, h->header_size);
    if (h->file_size != p->size)
        return ws_packr_bad(p->name, err, 24, "a complete file; it was cut "
                            "short or added to, repack it", "file is %llu "
                            "bytes long, its header says %llu",
                            (unsigned long long)p->size,
                            (unsigned long long)h->file_size);
    if (ws_packr_checksum(p) != h->checksum)
        return ws_err_at(err, p->name, 1, 1, "checksum mismatch (expected an "
                         "intact file; repack it)");
    return 0;
}


static int ws_packr_commands(struct ws_pack *p, struct ws_err *err)
{
    const struct ws_pack_header *h = &p->h;
    size_t nk = 0;

    if (h->cmd_off % 8 != 0 || !ws_packr_fits(p, h->cmd_off, h->ncmds,
                                              sizeof(struct ws_pack_cmd)))
        return ws_packr_bad(p->name, err, 40, WS_PACKR_REPACK, "command "
                            "table of %u entries at %llu outside the file",
                            h->ncmds, (unsigned long long)h->cmd_off);
    if (h->nkernels > h->ncmds)
        return ws_packr_bad(p->name, err, 52, WS_PACKR_REPACK, "%u kernels "
                            "in %u commands", h->nkernels, h->ncmds);
    p->kernels = calloc(h->nkernels ? h->nkernels : 1, sizeof *p->kernels);
    if (!p->kernels)
        return ws_err_oom(err);
    for (uint32_t i = 0; i < h->ncmds; i++) {
        uint64_t at = h->cmd_off + (uint64_t)i * sizeof(struct ws_pack_cmd);
        struct ws_pack_cmd c;
        memcpy(&c, p->base + at, sizeof c);
        if (c.kind == WS_PACK_CMD_MEMCPY)
            continue;
        if (c.kind != WS_PACK_CMD_KERNEL)
            return ws_packr_bad(p->name, err, at, "0 (kernel) or 1 (copy); "
                                "repack it", "command %u of kind %u", i,
                                c.kind);
        if (c.a % 64 != 0 || c.a < sizeof *h
            || !ws_packr_fits(p, c.a, 1, sizeof(struct ws_pack_kernel_hdr)))
            return ws_packr_bad(p->name, err, at + 8, WS_PACKR_REPACK,
                                "kernel header at %llu outside the file",
                                (unsigned long long)c.a);
        if (nk == h->nkernels)
            return ws_packr_bad(p->name, err, at, WS_PACKR_REPACK, "more "
                                "kernel commands than the %u kernels the "
                                "header gives", h->nkernels);
        p->kernels[nk++] = c.a;
    }
    if (nk != h->nkernels)
        return ws_packr_bad(p->name, err, 52, WS_PACKR_REPACK, "%zu kernel "
                            "commands where the header gives %u", nk,
                            h->nkernels);
    return 0;
}

static int ws_packr_check(struct ws_pack *p, struct ws_err *err)
{
    return ws_packr_header(p, err) < 0 || ws_packr_commands(p, err) < 0
           ? -1 : 0;
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
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);

    if (fd < 0 || fstat(fd, st) != 0)
        return ws_packr_cannot_open(path, fd, err);
    if (!S_ISREG(st->st_mode)) {
        close(fd);
        return ws_err_msg(err, "%s: not a regular file (expected a trace or "
                          "listing file)", path);
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
    p->size = (size_t)st.st_size;
    if (p->size > 0) {
        p->map = mmap(NULL, p->size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p->map == MAP_FAILED) {
            p->map = NULL;
            ws_packr_cannot_open(path, fd, err);
            ws_pack_close(p);
            return -1;
        }
        p->base = p->map;
    }
    close(fd);
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
    if (p->map)
        munmap(p->map, p->size);
    free(p->own);
    free(p->kernels);
    free(p->name);
    free(p);
}
