/*
 * ws_err: formatting of the single-line error record (see ws_err.h).
 * Functions return -1 so callers can write "return ws_err_at(...)".
 */
#include "ws_err.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ws_err_clear(struct ws_err *err)
{
    err->set = 0;
    err->internal = 0;
    err->placed = 0;
    err->text[0] = '\0';
}

/* Bytes kept from the end of an over-long message: its "(expected ...)"
 * part, which says how to fix the input, matters more than the middle of a
 * quoted line. */
#define WS_ERR_TAIL 200

static int ws_err_vformat(struct ws_err *err, const char *prefix,
                          const char *fmt, va_list ap)
{
    char full[4 * WS_ERR_TEXT];
    size_t n, len;

    if (err->set)
        return -1;
    err->set = 1;
    n = (size_t)snprintf(full, sizeof full, "%s", prefix);
    if (n >= sizeof full)
        n = sizeof full - 1;
    vsnprintf(full + n, sizeof full - n, fmt, ap);
    len = strlen(full);
    if (len < sizeof err->text) {
        memcpy(err->text, full, len + 1);
    } else {
        size_t head = sizeof err->text - WS_ERR_TAIL - 5;
        memcpy(err->text, full, head);
        memcpy(err->text + head, " ... ", 5);
        memcpy(err->text + head + 5, full + len - (WS_ERR_TAIL - 1),
               WS_ERR_TAIL);
    }
    /* A message must stay one line whatever text it quotes. */
    for (char *p = err->text; *p; p++)
        if (*p == '\n' || *p == '\r')
            *p = ' ';
    return -1;
}

static void ws_err_prefix(char *prefix, size_t size, const char *file,
                          long line, long col)
{
    if (line > 0 && col > 0)
        snprintf(prefix, size, "%s:%ld:%ld: ", file, line, col);
    else if (line > 0)
        snprintf(prefix, size, "%s:%ld: ", file, line);
    else
        snprintf(prefix, size, "%s: ", file);
}

static int ws_err_vat(struct ws_err *err, const char *file, long line, long col,
                      const char *fmt, va_list ap)
{
    char prefix[300];

    ws_err_prefix(prefix, sizeof prefix, file, line, col);
    if (!err->set)
        err->placed = 1;
    return ws_err_vformat(err, prefix, fmt, ap);
}

int ws_err_at(struct ws_err *err, const char *file, long line, long col,
              const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    ws_err_vat(err, file, line, col, fmt, ap);
    va_end(ap);
    return -1;
}

void ws_err_place(struct ws_err *err, const char *file, long line, long col)
{
    char prefix[300], text[WS_ERR_TEXT];
    size_t n;

    if (!err->set || err->placed || err->internal)
        return;
    ws_err_prefix(prefix, sizeof prefix, file, line, col);
    n = strlen(prefix);
    if (n >= sizeof text)
        n = sizeof text - 1;
    memcpy(text, prefix, n);
    memcpy(text + n, err->text, sizeof text - n - 1);
    text[sizeof text - 1] = '\0';
    memcpy(err->text, text, sizeof text);
    err->placed = 1;
}

int ws_err_msg(struct ws_err *err, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    ws_err_vformat(err, "", fmt, ap);
    va_end(ap);
    return -1;
}

int ws_err_oom(struct ws_err *err)
{
    if (!err->set)
        err->internal = 1;
    return ws_err_msg(err, "out of memory");
}

static int ws_err_argc;
static char **ws_err_argv;

/* A copy of the word pointers: getopt_long permutes argv as it parses,
 * and a word's number is its place as the user typed it.  Without memory
 * for the copy, positions may name a permuted word: still a usable
 * message. */
void ws_err_set_argv(int argc, char **argv)
{
    static char **copy;
    char **c;

    ws_err_argc = argc;
    ws_err_argv = argv;
    if (!argv || argc <= 0)
        return;
    c = realloc(copy, (size_t)argc * sizeof *c);
    if (!c)
        return;
    memcpy(c, argv, (size_t)argc * sizeof *c);
    copy = c;
    ws_err_argv = copy;
}

/* Compared as addresses, not pointers: arg may lie in no argv word. */
void ws_err_arg_locate(const char *arg, long fallback_word, long *word,
                       long *col)
{
    uintptr_t a = (uintptr_t)arg;

    for (int k = 0; k < ws_err_argc && arg; k++) {
        uintptr_t w = (uintptr_t)ws_err_argv[k];
        if (a >= w && a <= w + strlen(ws_err_argv[k])) {
            *word = k;
            *col = (long)(a - w) + 1;
            return;
        }
    }
    *word = fallback_word;
    *col = 1;
}

int ws_err_arg(struct ws_err *err, const char *arg, long offset,
               long fallback_word, const char *fmt, ...)
{
    long word, col;
    va_list ap;

    ws_err_arg_locate(arg, fallback_word, &word, &col);
    va_start(ap, fmt);
    ws_err_vat(err, "command line", word, col + offset, fmt, ap);
    va_end(ap);
    return -1;
}

void ws_err_place_arg(struct ws_err *err, const char *arg)
{
    long word, col;

    ws_err_arg_locate(arg, 0, &word, &col);
    ws_err_place(err, "command line", word, col);
}

static ws_warn_sink ws_warn_out;

void ws_warn_set_sink(ws_warn_sink sink)
{
    ws_warn_out = sink;
}

/* Formatted like an error so that the one-line, one-position rule holds for
 * warnings too; a ws_err is used as the buffer. */
void ws_warn_at(const char *file, long line, long col, const char *fmt, ...)
{
    struct ws_err w;
    char prefix[320];
    va_list ap;

    if (!ws_warn_out)
        return;
    ws_err_prefix(prefix, sizeof prefix - 10, file, line, col);
    strcat(prefix, "warning: ");
    ws_err_clear(&w);
    va_start(ap, fmt);
    ws_err_vformat(&w, prefix, fmt, ap);
    va_end(ap);
    ws_warn_out(w.text);
}
