/*
 * ws_err: formatting of the single-line error record (see ws_err.h).
 * Functions return -1 so callers can write "return ws_err_at(...)".
 */
#include "ws_err.h"

#include <stdio.h>
#include <string.h>

void ws_err_clear(struct ws_err *err)
{
    err->set = 0;
    err->internal = 0;
    err->text[0] = '\0';
}

static int ws_err_vformat(struct ws_err *err, const char *prefix,
                          const char *fmt, va_list ap)
{
    size_t n;

    if (err->set)
        return -1;
    err->set = 1;
    n = (size_t)snprintf(err->text, sizeof err->text, "%s", prefix);
    if (n >= sizeof err->text)
        n = sizeof err->text - 1;
    vsnprintf(err->text + n, sizeof err->text - n, fmt, ap);
    /* A message must stay one line whatever text it quotes. */
    for (char *p = err->text; *p; p++)
        if (*p == '\n' || *p == '\r')
            *p = ' ';
    return -1;
}

int ws_err_at(struct ws_err *err, const char *file, long line, long col,
              const char *fmt, ...)
{
    char prefix[300];
    va_list ap;

    if (line > 0 && col > 0)
        snprintf(prefix, sizeof prefix, "%s:%ld:%ld: ", file, line, col);
    else if (line > 0)
        snprintf(prefix, sizeof prefix, "%s:%ld: ", file, line);
    else
        snprintf(prefix, sizeof prefix, "%s: ", file);
    va_start(ap, fmt);
    ws_err_vformat(err, prefix, fmt, ap);
    va_end(ap);
    return -1;
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
