/*
 * ws_err: the one error record every parser and loader fills in.
 *
 * warpsim reports bad input as a single line, "file:line:col: what is wrong
 * (expected what)", and exits 2.  Library code never prints: it formats that
 * line into a struct ws_err and returns -1, so the command line decides where
 * it goes and nothing is written half-way.  Only the first error is kept; a
 * later one would describe damage the first one caused.
 */
#ifndef WS_ERR_H
#define WS_ERR_H

#include <stdarg.h>

#define WS_ERR_TEXT 640

/* Exit statuses of the warpsim command (documented in --help). */
enum ws_exit {
    WS_EXIT_OK = 0,
    WS_EXIT_INTERNAL = 1,
    WS_EXIT_INPUT = 2
};

struct ws_err {
    int set;
    int internal; /* not the input's fault: exit 1, not 2 */
    int placed;   /* the text starts with a position */
    char text[WS_ERR_TEXT];
};

void ws_err_clear(struct ws_err *err);

/* "file:line:col: message"; line or col <= 0 drops that part. */
int ws_err_at(struct ws_err *err, const char *file, long line, long col,
              const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* A message with no position yet: an I/O failure deep in a reader, which
 * does not know where the failing name was written.  The caller that does
 * (the kernelslist.g line naming a trace, the command-line word naming an
 * input) places it with ws_err_place or ws_err_place_arg. */
int ws_err_msg(struct ws_err *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Prefixes an unplaced error with "file:line:col: "; no-op otherwise.  The
 * first caller up the stack that knows a position wins. */
void ws_err_place(struct ws_err *err, const char *file, long line, long col);

/* Allocation failure: an internal error (exit status 1). */
int ws_err_oom(struct ws_err *err);

/*
 * Positions on the command line.  The command registers its argv so that
 * library code holding a pointer into an argument (a --set, a --param, a
 * path) can place an error at "command line:K:col": K the word (argv index,
 * the program being word 0), col the byte within it.  A string that is not
 * in the registered argv (tests, fuzzers) gets fallback_word instead.
 */
void ws_err_set_argv(int argc, char **argv);
void ws_err_arg_locate(const char *arg, long fallback_word, long *word,
                       long *col);
/* The error at byte offset of arg, as "command line:K:col: message". */
int ws_err_arg(struct ws_err *err, const char *arg, long offset,
               long fallback_word, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* ws_err_place at the command-line word holding arg. */
void ws_err_place_arg(struct ws_err *err, const char *arg);

/*
 * Warnings: input that is legal but probably not what the user meant, such
 * as a trace holding fewer CTAs than its grid (the tracer skips empty ones).
 * Library code never prints, so a warning goes to a sink the command line
 * installs; with none installed it is dropped.  The sink gets the whole
 * line, "file:line:col: warning: what".
 */
typedef void (*ws_warn_sink)(const char *line);

void ws_warn_set_sink(ws_warn_sink sink);
void ws_warn_at(const char *file, long line, long col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
