/*
 * ws_utf8: text from input files made safe for JSON output.
 *
 * Kernel names, opcodes and paths come from traces, listings and the command
 * line as raw bytes.  JSON strings must be UTF-8, and jansson's json_string
 * returns NULL for anything else, which json_object_set_new turns into a
 * silently missing key.  These helpers replace each byte that is not part of
 * a valid UTF-8 sequence (RFC 3629: no overlong forms, no surrogates, nothing
 * above U+10FFFF) with U+FFFD, so a key is always present and a reader can
 * still see where the bad bytes were.  One more copies a text written by
 * someone else (an external model) into a one-line message or report.
 */
#ifndef WS_UTF8_H
#define WS_UTF8_H

#include <stddef.h>

#include <jansson.h>

/* Bytes of the valid UTF-8 sequence starting at s (1 to 4), or 0 when s[0]
 * does not start one within n bytes. */
size_t ws_utf8_seq_len(const unsigned char *s, size_t n);

/* 1 when the NUL-terminated s is valid UTF-8. */
int ws_utf8_valid(const char *s);

/* A malloc'd copy of s with every invalid byte replaced by U+FFFD; NULL
 * when out of memory. */
char *ws_utf8_sanitize(const char *s);

/* json_string of s, sanitised when it is not valid UTF-8; a NULL s gives
 * JSON null.  NULL only when out of memory. */
json_t *ws_utf8_json_string(const char *s);

/* json_object_set_new with a key from input text, sanitised the same way.
 * Steals value like json_object_set_new; -1 when out of memory. */
int ws_utf8_json_set(json_t *obj, const char *key, json_t *value);

/* A text someone else wrote (an external model's, its command line) put
 * into dst for a one-line message or report: each control byte becomes
 * `ctrl`, so the line stays one line, and the copy is cut where it fits
 * at the end of a character, never inside one. */
void ws_utf8_copy_shown(char *dst, size_t cap, const char *s, char ctrl);

#endif
