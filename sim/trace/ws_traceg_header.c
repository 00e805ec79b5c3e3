/*
 * ws_traceg_header: the kernel header of an Accel-Sim trace, "-key = value"
 * lines up to "#traces format".  Known keys are parsed and range-checked
 * (the grid against --max-ctas too) and may appear once each; an unknown key
 * is an error unless the caller allows it, so that a typo or a format change
 * is noticed rather than silently ignored.
 */
#include "ws_traceg_internal.h"

#include <stdlib.h>
#include <string.h>

#include "util/ws_num.h"

/* ---- header ---------------------------------------------------------- */

static const char *ws_skip_blanks(const char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

/* Hand-written rather than sscanf("%llu"): that accepts signs and has
 * undefined behaviour on numbers too large for the type. */
int ws_traceg_parse_u32s(const char *v, uint32_t out[3], int parens)
{
    const char *p = ws_skip_blanks(v);

    if (parens && *p++ != '(')
        return -1;
    for (int k = 0; k < 3; k++) {
        const char *d = p = ws_skip_blanks(p);
        char want = k < 2 ? ',' : parens ? ')' : '\0';
        while (*p >= '0' && *p <= '9')
            p++;
        if (ws_num_u32(d, (size_t)(p - d), &out[k]) < 0)
            return -1;
        p = ws_skip_blanks(p);
        if (*p != want)
            return -1;
        if (want != '\0')
            p++;
    }
    return *ws_skip_blanks(p) == '\0' ? 0 : -1;
}

static int ws_parse_dim3(const char *v, uint32_t out[3])
{
    if (ws_traceg_parse_u32s(v, out, 1) < 0)
        return -1;
    return out[0] == 0 || out[1] == 0 || out[2] == 0 ? -1 : 0;
}

enum ws_hkey {
    WS_HK_NAME,
    WS_HK_ID,
    WS_HK_GRID,
    WS_HK_BLOCK,
    WS_HK_SHMEM,
    WS_HK_NREGS,
    WS_HK_BINARY,
    WS_HK_STREAM,
    WS_HK_SHMEM_BASE,
    WS_HK_LOCAL_BASE,
    WS_HK_NVBIT,
    WS_HK_TRACER,
    WS_HK_LINEINFO,
    WS_HK_CLUSTER,
    WS_HK_COUNT
};

static const char *const ws_hkey_names[WS_HK_COUNT] = {
    "kernel name",         "kernel id",      "grid dim",
    "block dim",           "shmem",          "nregs",
    "binary version",      "cuda stream id", "shmem base_addr",
    "local mem base_addr", "nvbit version",  "accelsim tracer version",
    "enable lineinfo",     "cluster dim"};

/* Checked at the grid line: CUDA's limits, then --max-ctas, which keeps a
 * typo from asking for billions of CTAs (and the reader's one bit per CTA
 * from growing past max_ctas / 8 bytes). */
static int ws_header_grid(struct ws_traceg *r, const uint32_t g[3], long col,
                          struct ws_err *err)
{
    uint64_t ctas = (uint64_t)g[0] * g[1] * g[2];

    if (g[1] > 65535 || g[2] > 65535 || g[0] > 0x7fffffffu)
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, col,
                         "grid (%u,%u,%u) is larger than CUDA allows "
                         "(expected x < 2^31, y and z <= 65535)",
                         g[0], g[1], g[2]);
    if (ctas > r->opts.max_ctas)
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, col,
                         "grid of %llu CTAs is over the limit of %llu "
                         "(expected at most --max-ctas CTAs; raise it with "
                         "--max-ctas N)",
                         (unsigned long long)ctas,
                         (unsigned long long)r->opts.max_ctas);
    memcpy(r->launch.grid, g, sizeof r->launch.grid);
    return 0;
}

static int ws_header_block(struct ws_traceg *r, const uint32_t b[3], long col,
                           struct ws_err *err)
{
    if (b[0] > WS_CUDA_MAX_BLOCK_THREADS || b[1] > WS_CUDA_MAX_BLOCK_THREADS
        || b[2] > WS_CUDA_MAX_BLOCK_Z
        || (uint64_t)b[0] * b[1] * b[2] > WS_CUDA_MAX_BLOCK_THREADS)
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, col,
                         "block (%u,%u,%u) has more threads than CUDA allows "
                         "(expected at most %d threads, z at most %d)",
                         b[0], b[1], b[2], WS_CUDA_MAX_BLOCK_THREADS,
                         WS_CUDA_MAX_BLOCK_Z);
    memcpy(r->launch.block, b, sizeof r->launch.block);
    return 0;
}

/* PTX allows clusters of up to 16 CTAs (8 portable). */
static int ws_header_cluster(struct ws_traceg *r, const uint32_t c[3], long col,
                             struct ws_err *err)
{
    if (c[0] == 0 || c[1] == 0 || c[2] == 0
        || (uint64_t)c[0] * c[1] * c[2] > 16)
        return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, col,
                         "cluster (%u,%u,%u) is not one CUDA allows "
                         "(expected 1 to 16 CTAs)",
                         c[0], c[1], c[2]);
    memcpy(r->launch.cluster, c, sizeof r->launch.cluster);
    return 0;
}

static int ws_header_value(struct ws_traceg *r, enum ws_hkey key, const char *v,
                           long col, struct ws_err *err)
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
        l->name = strdup(v);
        return l->name ? 0 : ws_err_oom(err);
    case WS_HK_NVBIT:
        free(l->nvbit_version);
        l->nvbit_version = strdup(v);
        return l->nvbit_version ? 0 : ws_err_oom(err);
    case WS_HK_GRID:
    case WS_HK_BLOCK:
    case WS_HK_CLUSTER:
        if (ws_parse_dim3(v, dim) < 0)
            return ws_traceg_fail(r, err, col, "bad dimensions",
                                  "(x,y,z) with positive integers below "
                                  "2^32");
        if (key == WS_HK_GRID)
            return ws_header_grid(r, dim, col, err);
        if (key == WS_HK_BLOCK)
            return ws_header_block(r, dim, col, err);
        return ws_header_cluster(r, dim, col, err);
    default:
        break;
    }
    if ((is_hex ? ws_num_hex(v, n, &u) : ws_num_u64(v, n, &u)) < 0)
        return ws_traceg_fail(r, err, col, "bad header value",
                              is_hex ? "a hexadecimal address"
                                     : "a decimal number");
    switch (key) {
    case WS_HK_ID:
        if (u > UINT32_MAX)
            return ws_traceg_fail(r, err, col, "kernel id out of range",
                                  "a number below 2^32");
        l->id = (uint32_t)u;
        break;
    case WS_HK_SHMEM:
        if (u > (4u << 20))
            return ws_traceg_fail(r, err, col,
                                  "shared memory per CTA out of "
                                  "range",
                                  "at most 4 MiB");
        l->shmem = (uint32_t)u;
        break;
    case WS_HK_NREGS:
        if (u > 255)
            return ws_traceg_fail(r, err, col,
                                  "registers per thread out of "
                                  "range",
                                  "0 to 255");
        l->nregs = (uint32_t)u;
        break;
    case WS_HK_BINARY:
        if (u < 10 || u > 199)
            return ws_traceg_fail(r, err, col, "SM version out of range",
                                  "a version such as 70, 80 or 90");
        l->sm_version = (uint32_t)u;
        break;
    case WS_HK_STREAM:
        l->stream_id = u;
        break;
    case WS_HK_SHMEM_BASE:
        l->shmem_base = u;
        break;
    case WS_HK_LOCAL_BASE:
        l->local_base = u;
        break;
    case WS_HK_TRACER:
        if (u < 3 || u > WS_TRACEG_VERSION_MAX)
            return ws_traceg_fail(r, err, col, "unsupported tracer version",
                                  "3 to 6; older traces have no such line");
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

char *ws_traceg_trim(char *s)
{
    char *e;

    while (*s == ' ' || *s == '\t')
        s++;
    e = s + strlen(s);
    while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
        *--e = '\0';
    return s;
}

char *ws_traceg_trim_len(char *s, size_t *len)
{
    size_t n = *len;

    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = '\0';
    while (*s == ' ' || *s == '\t') {
        s++;
        n--;
    }
    *len = n;
    return s;
}

/* seen[k] is the line that gave key k, 0 while none has: a second line for
 * a key is an error rather than silently replacing the first. */
static int ws_header_line(struct ws_traceg *r, char *line, long *seen,
                          struct ws_err *err)
{
    char *eq = strchr(line, '=');
    char *key, *val;

    if (!eq)
        return ws_traceg_fail(r, err, 1, "header line without '='",
                              "'-key = value'");
    *eq = '\0';
    key = ws_traceg_trim(line + 1);
    val = ws_traceg_trim(eq + 1);
    for (int k = 0; k < WS_HK_COUNT; k++) {
        if (strcmp(key, ws_hkey_names[k]) != 0)
            continue;
        if (seen[k])
            return ws_err_at(err, ws_traceg_name(r), r->lines.lineno,
                             (long)(key - line) + 1,
                             "second '-%s' line "
                             "(expected each header key once; line %ld "
                             "gives it already)",
                             key, seen[k]);
        seen[k] = r->lines.lineno;
        return ws_header_value(r, (enum ws_hkey)k, val, (long)(val - line) + 1,
                               err);
    }
    if (r->opts.allow_unknown_keys)
        return 0;
    return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, 2,
                     "unknown header key '%s' (expected a key of the "
                     "Accel-Sim trace header, such as 'grid dim'; "
                     "--allow-unknown-keys skips it)",
                     key);
}

static int ws_header_check(struct ws_traceg *r, const long *seen,
                           struct ws_err *err)
{
    static const enum ws_hkey required[] = {WS_HK_NAME,  WS_HK_GRID,
                                            WS_HK_BLOCK, WS_HK_SHMEM,
                                            WS_HK_NREGS, WS_HK_BINARY};

    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
        if (!seen[required[i]])
            return ws_err_at(err, ws_traceg_name(r), r->lines.lineno, 1,
                             "header has no '-%s' line (expected it before "
                             "the instruction stream)",
                             ws_hkey_names[required[i]]);
    return 0;
}

/*
 * The header ends at its first '#' line.  The tracer writes "#traces format
 * = ..." there, but its text only restates the layout that the tracer
 * version already fixes, and the reference simulator likewise stops at any
 * '#' line without reading it; so a missing "#traces format" line is
 * accepted, not an error.  When the header runs straight into "#BEGIN_TB",
 * that line opens the first block rather than being swallowed.
 */
int ws_traceg_read_header(struct ws_traceg *r, struct ws_err *err)
{
    long seen[WS_HK_COUNT] = {0};
    char *line;
    size_t len;
    int rc;

    while ((rc = ws_lines_next(&r->lines, &line, &len, err)) == 1) {
        char *p = ws_traceg_trim(line);
        if (*p == '\0')
            continue;
        if (*p == '#') {
            r->begin_pending = strncmp(p, "#BEGIN_TB", 9) == 0;
            return ws_header_check(r, seen, err);
        }
        if (*p != '-')
            return ws_traceg_fail(r, err, (long)(p - line) + 1,
                                  "unexpected "
                                  "text in the kernel header",
                                  "'-key = "
                                  "value' lines, then '#traces format'");
        if (ws_header_line(r, p, seen, err) < 0)
            return -1;
    }
    if (rc < 0)
        return -1;
    return ws_err_at(err, ws_traceg_name(r), r->lines.lineno + 1, 1,
                     "file ends inside the kernel header (expected "
                     "'#traces format' and the instruction stream)");
}
