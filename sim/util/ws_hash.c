/*
 * ws_hash: content hashes of files and buffers (see ws_hash.h).
 */
#include "ws_hash.h"

#include <stdio.h>

int ws_hash_file(XXH3_state_t *h, const char *path, uint64_t *bytes,
                 struct ws_err *err)
{
    char buf[1 << 14];
    FILE *f = fopen(path, "rb");
    uint64_t total = 0;
    size_t n;
    int bad;

    if (!f)
        return ws_err_msg(err,
                          "%s: cannot open to hash it (expected a "
                          "readable file)",
                          path);
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
        XXH3_128bits_update(h, buf, n);
        total += n;
    }
    XXH3_128bits_update(h, &total, sizeof total);
    bad = ferror(f);
    fclose(f);
    if (bytes)
        *bytes = total;
    return bad ? ws_err_msg(err, "%s: read error while hashing it", path) : 0;
}

static void ws_hash_digits(XXH128_hash_t v, char hex[33])
{
    snprintf(hex, 33, "%016llx%016llx", (unsigned long long)v.high64,
             (unsigned long long)v.low64);
}

int ws_hash_file_hex(const char *path, char hex[33], uint64_t *bytes,
                     struct ws_err *err)
{
    XXH3_state_t *h = XXH3_createState();
    int rc;

    if (!h)
        return ws_err_oom(err);
    XXH3_128bits_reset(h);
    rc = ws_hash_file(h, path, bytes, err);
    ws_hash_digits(XXH3_128bits_digest(h), hex);
    XXH3_freeState(h);
    return rc;
}

void ws_hash_hex(const void *buf, size_t len, char hex[33])
{
    ws_hash_digits(XXH3_128bits(buf, len), hex);
}
