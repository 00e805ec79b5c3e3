/*
 * ws_units: unit parsing and printing (see ws_units.h).
 */
#include "ws_units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/ws_num.h"

struct ws_unit {
    const char *name;
    double scale;
};

/* Splits "12.5 MiB" into a finite, non-negative number and a unit suffix
 * (blanks allowed between them). */
/* An exponent's digits follow, after an optional sign. */
static int ws_units_exp_digit(const char *p)
{
    if (*p == '+' || *p == '-')
        p++;
    return *p >= '0' && *p <= '9';
}

static int ws_units_split(const char *s, double *num, const char **unit)
{
    char *end;
    size_t i = 0;

    /* Digits, a point, and an exponent as %g prints it (1e+08, 1e-05):
     * "config show" must read back. */
    while (s[i] == '+' || s[i] == '.' || (s[i] >= '0' && s[i] <= '9')
           || ((s[i] == 'e' || s[i] == 'E') && i > 0
               && ws_units_exp_digit(s + i + 1))) {
        if ((s[i] == 'e' || s[i] == 'E')
            && (s[i + 1] == '+' || s[i + 1] == '-'))
            i++;
        i++;
    }
    if (i == 0)
        return -1;
    *num = strtod(s, &end);
    if ((size_t)(end - s) != i || !isfinite(*num) || *num < 0)
        return -1;
    while (*end == ' ')
        end++;
    *unit = end;
    return 0;
}

static int ws_units_scaled(const char *s, const struct ws_unit *units, size_t n,
                           int unit_required, double *out)
{
    const char *unit;
    double num;

    if (ws_units_split(s, &num, &unit) < 0)
        return -1;
    if (*unit == '\0') {
        if (unit_required)
            return -1;
        *out = num;
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        if (strcmp(unit, units[i].name) == 0) {
            *out = num * units[i].scale;
            return 0;
        }
    }
    return -1;
}

int ws_units_size(const char *s, uint64_t *bytes)
{
    static const struct ws_unit units[] = {{"B", 1},
                                           {"K", 1024.0},
                                           {"KB", 1024.0},
                                           {"KiB", 1024.0},
                                           {"M", 1048576.0},
                                           {"MB", 1048576.0},
                                           {"MiB", 1048576.0},
                                           {"G", 1073741824.0},
                                           {"GB", 1073741824.0},
                                           {"GiB", 1073741824.0}};
    double v;

    if (ws_units_scaled(s, units, sizeof units / sizeof units[0], 0, &v) < 0
        || v != floor(v) || v > 1e15)
        return -1;
    *bytes = (uint64_t)v;
    return 0;
}

int ws_units_freq(const char *s, double *mhz)
{
    static const struct ws_unit units[] = {{"Hz", 1e-6},
                                           {"kHz", 1e-3},
                                           {"MHz", 1.0},
                                           {"GHz", 1e3}};
    return ws_units_scaled(s, units, sizeof units / sizeof units[0], 1, mhz);
}

int ws_units_time(const char *s, double *ns)
{
    static const struct ws_unit units[] = {{"ps", 1e-3},
                                           {"ns", 1.0},
                                           {"us", 1e3},
                                           {"ms", 1e6}};
    return ws_units_scaled(s, units, sizeof units / sizeof units[0], 1, ns);
}

int ws_units_real(const char *s, double *v)
{
    return ws_units_scaled(s, NULL, 0, 0, v);
}

int ws_units_bandwidth(const char *s, double *gbps)
{
    static const struct ws_unit units[] = {{"B/s", 1e-9},
                                           {"KB/s", 1e-6},
                                           {"MB/s", 1e-3},
                                           {"GB/s", 1.0},
                                           {"TB/s", 1e3},
                                           {"KiB/s", 1024e-9},
                                           {"MiB/s", 1048576e-9},
                                           {"GiB/s", 1073741824e-9},
                                           {"TiB/s", 1099511627776e-9}};
    return ws_units_scaled(s, units, sizeof units / sizeof units[0], 1, gbps);
}

int ws_units_cycles(const char *s, uint64_t *cycles)
{
    size_t n = 0;
    const char *rest;

    while (s[n] >= '0' && s[n] <= '9')
        n++;
    rest = s + n;
    while (*rest == ' ')
        rest++;
    if (*rest && strcmp(rest, "cycles") != 0 && strcmp(rest, "cycle") != 0)
        return -1;
    return ws_num_u64(s, n, cycles);
}

int ws_units_count(const char *s, uint64_t *n)
{
    return ws_num_u64(s, strlen(s), n);
}

int ws_units_bool(const char *s, int *b)
{
    if (strcmp(s, "true") == 0 || strcmp(s, "yes") == 0
        || strcmp(s, "on") == 0) {
        *b = 1;
        return 0;
    }
    if (strcmp(s, "false") == 0 || strcmp(s, "no") == 0
        || strcmp(s, "off") == 0) {
        *b = 0;
        return 0;
    }
    return -1;
}

void ws_units_fmt_size(char *buf, size_t cap, uint64_t bytes)
{
    static const char *const names[] = {"B", "KiB", "MiB", "GiB"};
    int u = 0;

    while (u < 3 && bytes >= 1024 && bytes % 1024 == 0) {
        bytes /= 1024;
        u++;
    }
    snprintf(buf, cap, "%llu%s", (unsigned long long)bytes, names[u]);
}
