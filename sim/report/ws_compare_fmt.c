/*
 * ws_compare_fmt: values and names as the compare reports print them
 * (see ws_compare_fmt.h).
 *
 * Leaves out: the reports' layouts.
 */
#include "ws_compare_fmt.h"

#include <math.h>
#include <string.h>

/* v in exponent form ("%.*g" and suffix) with the most significant
 * digits, up to 6, that fit in width. */
static void ws_compare_fmt_exp(char *buf, size_t size, double v, int width,
                               int sign, const char *suffix)
{
    for (int digits = 6; digits >= 1; digits--) {
        snprintf(buf, size, sign ? "%+.*g%s" : "%.*g%s", digits, v, suffix);
        if (strlen(buf) <= (size_t)width)
            break;
    }
}

const char *ws_compare_fmt_num(char *buf, size_t size, double v, int width,
                               int sign)
{
    if (isnan(v))
        snprintf(buf, size, "-");
    else if (!(fabs(v) < WS_COMPARE_FMT_HUGE))
        buf[0] = '\0';
    else if (v == floor(v))
        snprintf(buf, size, sign ? "%+.0f" : "%.0f", v);
    else if (fabs(v) >= 1000)
        snprintf(buf, size, sign ? "%+.1f" : "%.1f", v);
    else
        snprintf(buf, size, sign ? "%+.4g" : "%.4g", v);
    if (!isnan(v)
        && (!(fabs(v) < WS_COMPARE_FMT_HUGE) || strlen(buf) > (size_t)width))
        ws_compare_fmt_exp(buf, size, v, width, sign, "");
    return buf;
}

const char *ws_compare_fmt_pct(char *buf, size_t size, double v, int sign,
                               int width)
{
    if (fabs(v) < 0.005)
        v = 0; /* no "-0.00%" for a difference of rounding */
    if (isnan(v))
        snprintf(buf, size, "n/a");
    else if (!(fabs(v) < WS_COMPARE_FMT_HUGE)
             || snprintf(buf, size, sign ? "%+.2f%%" : "%.2f%%", v) > width)
        ws_compare_fmt_exp(buf, size, v, width, sign, "%");
    return buf;
}

size_t ws_compare_fmt_put_char(FILE *f, unsigned char ch)
{
    if (ch >= 0x20 && ch != 0x7f) {
        if (f)
            fputc(ch, f);
        return 1;
    }
    if (ch == '\n' || ch == '\r' || ch == '\t') {
        if (f)
            fprintf(f, "\\%c", ch == '\n' ? 'n' : ch == '\r' ? 'r' : 't');
        return 2;
    }
    if (f)
        fprintf(f, "\\x%02x", ch);
    return 4;
}

size_t ws_compare_fmt_put(FILE *f, const char *s)
{
    size_t n = 0;

    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        n += ws_compare_fmt_put_char(f, *p);
    return n;
}

void ws_compare_fmt_name(FILE *f, char mark, const char *name, int width)
{
    size_t n;

    fprintf(f, "%c ", mark);
    n = ws_compare_fmt_put(f, name);
    if (n > (size_t)width)
        fprintf(f, "\n  %*s", width, "");
    else
        fprintf(f, "%*s", (int)((size_t)width - n), "");
}

void ws_compare_fmt_wrap(FILE *f, const char *first, const char *text,
                         int indent)
{
    const char *p = text;
    size_t col = first ? strlen(first) : (size_t)indent;

    if (!first && !*text)
        return;
    if (first)
        fputs(first, f);
    else
        fprintf(f, "%*s", indent, "");
    while (*p) {
        size_t room = col < 78 ? 78 - col : 1, n = strlen(p), cut = n;
        if (n > room) {
            for (cut = room; cut > 0 && p[cut] != ' '; cut--)
                ;
            if (cut == 0) /* one word longer than the line */
                cut = strcspn(p, " ");
        }
        for (size_t i = 0; i < cut; i++)
            ws_compare_fmt_put_char(f, (unsigned char)p[i]);
        fputc('\n', f);
        p += cut;
        p += strspn(p, " ");
        if (*p)
            fprintf(f, "%*s", indent, "");
        col = (size_t)indent;
    }
    if (!*text)
        fputc('\n', f);
}
