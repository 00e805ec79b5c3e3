/*
 * ws_utf8: UTF-8 validation and U+FFFD replacement for JSON output (see
 * ws_utf8.h).  The valid sequences are those of RFC 3629, table 3-7 of the
 * Unicode standard; they are exactly what jansson accepts.
 */
#include "ws_utf8.h"

#include <stdlib.h>
#include <string.h>

static const char ws_utf8_fffd[3] = {(char)0xEF, (char)0xBF, (char)0xBD};

static int ws_utf8_in(unsigned char c, unsigned char lo, unsigned char hi)
{
    return c >= lo && c <= hi;
}

size_t ws_utf8_seq_len(const unsigned char *s, size_t n)
{
    unsigned char c = n ? s[0] : 0;
    unsigned char lo = 0x80, hi = 0xBF; /* range of the second byte */
    size_t len;

    if (n == 0)
        return 0;
    if (c < 0x80)
        return 1;
    if (ws_utf8_in(c, 0xC2, 0xDF))
        len = 2;
    else if (ws_utf8_in(c, 0xE0, 0xEF))
        len = 3;
    else if (ws_utf8_in(c, 0xF0, 0xF4))
        len = 4;
    else
        return 0; /* continuation, C0/C1, F5..FF */
    if (c == 0xE0)
        lo = 0xA0; /* overlong */
    else if (c == 0xED)
        hi = 0x9F; /* UTF-16 surrogates */
    else if (c == 0xF0)
        lo = 0x90; /* overlong */
    else if (c == 0xF4)
        hi = 0x8F; /* above U+10FFFF */
    if (n < len || !ws_utf8_in(s[1], lo, hi))
        return 0;
    for (size_t i = 2; i < len; i++)
        if (!ws_utf8_in(s[i], 0x80, 0xBF))
            return 0;
    return len;
}

int ws_utf8_valid(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s);

    while (n > 0) {
        size_t k = ws_utf8_seq_len(p, n);
        if (k == 0)
            return 0;
        p += k;
        n -= k;
    }
    return 1;
}

char *ws_utf8_sanitize(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s), o = 0;
    char *out = malloc(3 * n + 1); /* every byte may become 3 */

    if (!out)
        return NULL;
    while (n > 0) {
        size_t k = ws_utf8_seq_len(p, n);
        if (k == 0) {
            memcpy(out + o, ws_utf8_fffd, 3);
            o += 3;
            k = 1;
        } else {
            memcpy(out + o, p, k);
            o += k;
        }
        p += k;
        n -= k;
    }
    out[o] = '\0';
    return out;
}

json_t *ws_utf8_json_string(const char *s)
{
    char *clean;
    json_t *j;

    if (!s)
        return json_null();
    if (ws_utf8_valid(s))
        return json_string(s);
    if (!(clean = ws_utf8_sanitize(s)))
        return NULL;
    j = json_string(clean);
    free(clean);
    return j;
}

int ws_utf8_json_set(json_t *obj, const char *key, json_t *value)
{
    char *clean;
    int rc;

    if (ws_utf8_valid(key))
        return json_object_set_new(obj, key, value);
    if (!(clean = ws_utf8_sanitize(key))) {
        json_decref(value);
        return -1;
    }
    rc = json_object_set_new(obj, clean, value);
    free(clean);
    return rc;
}

void ws_utf8_copy_shown(char *dst, size_t cap, const char *s, char ctrl)
{
    size_t n = 0;

    for (; s[n] && n + 1 < cap; n++)
        dst[n] = (unsigned char)s[n] < 0x20 || s[n] == 0x7f ? ctrl : s[n];
    /* Cut inside a character when the first byte left out continues it. */
    while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
        n--;
    dst[n] = '\0';
}
