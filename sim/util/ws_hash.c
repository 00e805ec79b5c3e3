/*
 * ws_hash: content hashes of files and buffers (see ws_hash.h).
 */
#include "ws_hash.h"

#include <stdio.h>

/* Feeds the file's bytes to h; their count in *total. */
static int ws_hash_stream(XXH3_state_t *h, const char *path, uint64_t *total,
                          struct ws_err *err)
{
    char buf[1 << 14];
    FILE *f = fopen(path, "rb");
    size_t n;
    int bad;

    *total = 0;
    if (!f)
        return ws_err_msg(err,
                          "%s: cannot open to hash it (expected a "
                          "readable file)",
                          path);
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
        XXH3_128bits_update(h, buf, n);
        *total += n;
    }
    bad = ferror(f);
    fclose(f);
    return bad ? ws_err_msg(err, "%s: read error while hashing it", path) : 0;
}

int ws_hash_file(XXH3_state_t *h, const char *path, uint64_t *bytes,
                 struct ws_err *err)
{
    unsigned char le[8];
    uint64_t total;
    int rc = ws_hash_stream(h, path, &total, err);

    /* little-endian whatever the host, so keys agree across machines */
    for (int i = 0; i < 8; i++)
        le[i] = (unsigned char)(total >> (8 * i));
    XXH3_128bits_update(h, le, sizeof le);
    if (bytes)
        *bytes = total;
    return rc;
}

/* XXH128's canonical form: the high half first, each big-endian, as
 * xxhsum -H2 prints it. */
static void ws_hash_digits(XXH128_hash_t v, char hex[33])
{
    snprintf(hex, 33, "%016llx%016llx", (unsigned long long)v.high64,
             (unsigned long long)v.low64);
}

int ws_hash_file_hex(const char *path, char hex[33], uint64_t *bytes,
                     struct ws_err *err)
{
    XXH3_state_t *h = XXH3_createState();
    uint64_t total = 0;
    int rc;

    if (!h)
        return ws_err_oom(err);
    XXH3_128bits_reset(h);
    rc = ws_hash_stream(h, path, &total, err);
    ws_hash_digits(XXH3_128bits_digest(h), hex);
    XXH3_freeState(h);
    if (bytes)
        *bytes = total;
    return rc;
}

void ws_hash_hex(const void *buf, size_t len, char hex[33])
{
    ws_hash_digits(XXH3_128bits(buf, len), hex);
}
