/*
 * ws_regex: a POSIX extended regular expression from the user (--kernel),
 * bounded before glibc's regcomp sees it.
 *
 * regcomp has no bound of its own.  glibc compiles a{m,n} by copying the
 * repeated subexpression max(m,n) times and a+ by copying it once more, so
 * nested repetitions multiply: "((a{1,99}){1,99}){1,99}", 23 bytes, asks
 * for about 10^6 copies of a growing tree and regcomp allocates until the
 * address space runs out.  Three bounds, each checked before regcomp:
 *   - the length, WS_REGEX_MAX_LEN bytes;
 *   - the number of states (NFA nodes) regcomp would build, estimated from
 *     the text, WS_REGEX_MAX_STATES;
 *   - no loop ('*', '+', "{m,}") around what can match the empty string,
 *     "(a?)+", "(a|b*)*", "(^)*": glibc computes its epsilon closures over
 *     such a cycle again and again, exponential in how many there are
 *     ("((a?)+)?" 20 times in a row, 160 bytes and some 300 states: 3 s,
 *     25 times: a minute).  Each has a form without the cycle ((a|b)* for
 *     (a|b*)*).
 * Back-references (\1 to \9, which glibc takes in an ERE) are refused too:
 * a POSIX ERE has none, and glibc matches them by backtracking, seconds
 * for one name of a few hundred bytes.
 *
 * Leaves out: basic regular expressions (the estimate reads ERE syntax, so
 * ws_regex_compile always compiles with REG_EXTENDED); the cost of
 * regexec beyond that (its DFA is built lazily, one state per byte of the
 * name at most, each a set of the states bounded here).
 */
#ifndef WS_REGEX_H
#define WS_REGEX_H

#include <regex.h>
#include <stddef.h>
#include <stdint.h>

/* Longest pattern taken, in bytes: a kernel-name filter is a few words. */
#define WS_REGEX_MAX_LEN 1024
/* Most states the estimate may reach: two per byte of the longest
 * pattern, which no pattern without {m,n} or a repetition of a repetition
 * passes (one atom per byte, "(...)+" doubling a group's two per byte at
 * most).  Without the cycles above, regcomp is quadratic in the states
 * (its epsilon closures) and a regexec's first match about cubic: at this
 * bound the worst patterns found ("(a?|b?|c?|d?){200}", "(.?){499}x")
 * compile in 10 ms and 20 MB and take 0.1 to 0.25 s to refuse a name of
 * 3000 bytes; at 10000 states the same shapes took 170 to 360 MB and 4 to
 * 16 s per name. */
#define WS_REGEX_MAX_STATES (2 * WS_REGEX_MAX_LEN)

/* ws_regex_compile's refusal of a pattern out of bounds (regcomp's own
 * error codes are positive). */
#define WS_REGEX_BOUND (-1)

/* The estimated number of states regcomp builds for the ERE pattern, at
 * least as many as it builds; UINT64_MAX for a pattern longer than
 * WS_REGEX_MAX_LEN (not read).  Counts every atom (a character, an escape,
 * a bracket expression, '.') as one state and each operator as one more;
 * a{m,n} as max(m,n,1) copies of a (plus one per optional copy), a{m,} as
 * m+1 copies, a+ as two: nested repetitions multiply. */
uint64_t ws_regex_states(const char *pattern);

/* 0 when pattern is within bounds; else -1 with why (n bytes) set to
 * "what (expected what)": too long, too many states, a loop around what
 * can match "", a back-reference. */
int ws_regex_check(const char *pattern, char *why, size_t n);

/* ws_regex_check, then regcomp(re, pattern, flags | REG_EXTENDED).
 * Returns 0 (re compiled; regfree it), WS_REGEX_BOUND (why: "what
 * (expected what)"), or regcomp's error code (why: regerror's text, for
 * the caller to complete with what it expects).  re is compiled only
 * when 0 is returned. */
int ws_regex_compile(regex_t *re, const char *pattern, int flags, char *why,
                     size_t n);

/* The pattern as an error message quotes it: at most its first WS_CLIP
 * bytes (cut between characters) and "..." when longer, control
 * characters as '?' so that the message stays one line.  buf holds at
 * least WS_REGEX_SHOWN bytes. */
#define WS_REGEX_SHOWN 72
const char *ws_regex_shown(char *buf, const char *pattern);

#endif
