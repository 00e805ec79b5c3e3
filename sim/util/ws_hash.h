/*
 * ws_hash: content hashes (XXH3-128, libxxhash) of files and buffers, for
 * the keys of sweep points and the provenance of a run's outputs: the
 * same bytes give the same hash on any machine, wherever the files sit.
 *
 * Leaves out: anything cryptographic.  These name contents so that two
 * result files can be told apart; they do not defend against forgery.
 */
#ifndef WS_HASH_H
#define WS_HASH_H

#include <stddef.h>
#include <stdint.h>

#include <xxhash.h>

#include "ws_err.h"

/* Adds the content of the file at path to h, then its length (8 bytes,
 * little-endian), so that two files hashed in a row cannot run into each
 * other; *bytes (if not NULL) gets the length.  0, or -1 with err set. */
int ws_hash_file(XXH3_state_t *h, const char *path, uint64_t *bytes,
                 struct ws_err *err);

/* One file's XXH3-128 in 32 hex digits, of its bytes alone: what
 * `xxhsum -H2 FILE` prints, so anyone can check it. */
int ws_hash_file_hex(const char *path, char hex[33], uint64_t *bytes,
                     struct ws_err *err);

/* A buffer's XXH3-128 in 32 hex digits. */
void ws_hash_hex(const void *buf, size_t len, char hex[33]);

#endif
