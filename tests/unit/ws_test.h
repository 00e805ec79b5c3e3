/*
 * ws_test: helpers shared by the cmocka unit tests.  Tests run from the
 * source root (CTest's working directory), so bundled traces and fixtures
 * are opened by relative path.
 */
#ifndef WS_TEST_H
#define WS_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "util/ws_err.h"

/* 1 in a build with AddressSanitizer, whose own signal handlers and
 * address-space reservation some tests must allow for; else 0. */
#if defined(__SANITIZE_ADDRESS__)
#define WS_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WS_TEST_ASAN 1
#endif
#endif
#ifndef WS_TEST_ASAN
#define WS_TEST_ASAN 0
#endif

/* Asserts err holds one line that starts with "name:line:" (line > 0
 * checked when given), has a column, contains want, and ends with an
 * "(expected ...)" clause. */
void ws_test_err(const struct ws_err *err, const char *name, long line,
                 const char *want);

/* Asserts got equals want up to the rounding of a few double operations
 * (1e-9 relative); what names the quantity in the failure. */
void ws_test_near(double got, double want, const char *what);

/* Asserts a model's intermediate `name` is want within tol; a negative
 * tol means up to rounding, as ws_test_near. */
struct ws_model_result;
void ws_test_model_var(const struct ws_model_result *r, const char *name,
                       double want, double tol);

/* Reads a whole file into a NUL-terminated buffer (caller frees). */
char *ws_test_read(const char *path, size_t *len);

/* The profile of a bundled workload's (or trace's) first kernel, expanded
 * at the given parameters, on built-in config `gpu` (NULL: the default)
 * with the departure delays measured by the probe, as a run has them. */
struct ws_profile;
struct ws_gpu;
void ws_test_profile(const char *path, const char *gpu, const char *const *sets,
                     int nsets, struct ws_profile *p, struct ws_gpu *g);

/* Built-in config `name` into *g, failing the test when it does not
 * load. */
void ws_test_config(struct ws_gpu *g, const char *name);

/* A SASS listing into *s, failing the test when it does not load. */
struct ws_sass;
void ws_test_sass(struct ws_sass *s, const char *path);

#endif
