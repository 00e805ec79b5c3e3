/*
 * ws_sass_operand: one SASS operand's text -> struct ws_opnd.
 *
 * Split from the listing reader because operand syntax (modifiers, memory
 * references, constant banks, literals) is its own small grammar.
 *
 * Leaves out: label resolution (the listing reader owns labels).
 */
#ifndef WS_SASS_OPERAND_H
#define WS_SASS_OPERAND_H

#include <stddef.h>

#include "ws_sass.h"

/* Parses text[0..len) (trimmed).  A label reference "`(.L_x_3)" gives
 * WS_OPND_TARGET with value -1 and *label set to the label's text;
 * everything unrecognised is WS_OPND_OTHER.  Returns -1 only for operands
 * that are recognisably broken (an unclosed bracket, a register number out
 * of range) and sets *why. */
int ws_sass_operand_parse(const char *text, size_t len, struct ws_opnd *out,
                          const char **label, size_t *label_len,
                          const char **why);

#endif
