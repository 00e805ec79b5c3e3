/*
 * ws_num: strict integer parsing for the readers.
 *
 * strtoul and friends skip blanks, accept signs where none belong and wrap
 * silently; trace and config readers need the opposite: the whole token is a
 * number, or it is an error with a column.  Each function parses
 * s[0..len) completely and returns 0, or -1 when the text is not such a
 * number or does not fit.
 *
 * Leaves out: floating point (the config loader uses strtod on a checked token).
 */
#ifndef WS_NUM_H
#define WS_NUM_H

#include <stddef.h>
#include <stdint.h>

int ws_num_u64(const char *s, size_t len, uint64_t *out); /* decimal */
int ws_num_i64(const char *s, size_t len, int64_t *out);  /* [+-]decimal */
int ws_num_hex(const char *s, size_t len, uint64_t *out); /* [0x]hex */
int ws_num_u32(const char *s, size_t len, uint32_t *out); /* decimal */

#endif
