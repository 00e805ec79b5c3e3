/*
 * ws_num: strict integer parsing (see ws_num.h).
 */
#include "ws_num.h"

int ws_num_u64(const char *s, size_t len, uint64_t *out)
{
    uint64_t v = 0;

    if (len == 0)
        return -1;
    for (size_t i = 0; i < len; i++) {
        unsigned d;
        if (s[i] < '0' || s[i] > '9')
            return -1;
        d = (unsigned)(s[i] - '0');
        if (v > (UINT64_MAX - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

int ws_num_i64(const char *s, size_t len, int64_t *out)
{
    uint64_t mag;
    int neg = 0;

    if (len > 0 && (s[0] == '-' || s[0] == '+')) {
        neg = s[0] == '-';
        s++;
        len--;
    }
    if (ws_num_u64(s, len, &mag) < 0)
        return -1;
    if (neg) {
        if (mag > (uint64_t)INT64_MAX + 1)
            return -1;
        *out = mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mag;
    } else {
        if (mag > (uint64_t)INT64_MAX)
            return -1;
        *out = (int64_t)mag;
    }
    return 0;
}

int ws_num_hex(const char *s, size_t len, uint64_t *out)
{
    uint64_t v = 0;

    if (len >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        s += 2;
        len -= 2;
    }
    if (len == 0)
        return -1;
    while (len > 1 && s[0] == '0') {
        s++;
        len--;
    }
    if (len > 16)
        return -1;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        unsigned d;
        if (c >= '0' && c <= '9')
            d = (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            d = (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            d = (unsigned)(c - 'A' + 10);
        else
            return -1;
        v = (v << 4) | d;
    }
    *out = v;
    return 0;
}

int ws_num_u32(const char *s, size_t len, uint32_t *out)
{
    uint64_t v;

    if (ws_num_u64(s, len, &v) < 0 || v > UINT32_MAX)
        return -1;
    *out = (uint32_t)v;
    return 0;
}
