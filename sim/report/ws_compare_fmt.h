/*
 * ws_compare_fmt: how the text reports of `warpsim compare` print their
 * values and names, shared by both comparisons (measured against
 * simulated, ws_compare_text.c; run against run, ws_simdiff_text.c), so
 * that the two keep one look.
 *
 * Values keep their columns: one too wide for its column, or of 1e15 or
 * more, is printed in exponent form ("1.23457e+20", "+1.2e+06%"); counts
 * whole, other values to 4 significant digits.  Names and paths are
 * printed with their control characters escaped (\n, \r, \t, \xHH), so
 * that a line break in a kernel's name cannot break a line of a report.
 *
 * Leaves out: the reports' layouts.
 */
#ifndef WS_COMPARE_FMT_H
#define WS_COMPARE_FMT_H

#include <stddef.h>
#include <stdio.h>

/* From here on, a value is printed in exponent form. */
#define WS_COMPARE_FMT_HUGE 1e15

/* A value in at most width characters ("-" for NAN); sign: with its
 * sign always ("+42"), as a delta is.  Returns buf. */
const char *ws_compare_fmt_num(char *buf, size_t size, double v, int width,
                               int sign);

/* A percentage to 2 decimals ("+4.62%"; "n/a" for NAN), in at most width
 * characters. */
const char *ws_compare_fmt_pct(char *buf, size_t size, double v, int sign,
                               int width);

/* A name or path, control characters escaped; the characters written
 * (f NULL: only counted). */
size_t ws_compare_fmt_put(FILE *f, const char *s);

/* One character as ws_compare_fmt_put prints it. */
size_t ws_compare_fmt_put_char(FILE *f, unsigned char ch);

/* "M name" padded to width, M the mark (' ', or '!' for a row whose
 * definitions differ); a name too long for it on a line of its own, the
 * row's values on the next. */
void ws_compare_fmt_name(FILE *f, char mark, const char *name, int width);

/* Text wrapped at 78 columns: the first line after first (printed as
 * is, its width counted), the others indented by indent. */
void ws_compare_fmt_wrap(FILE *f, const char *first, const char *text,
                         int indent);

#endif
