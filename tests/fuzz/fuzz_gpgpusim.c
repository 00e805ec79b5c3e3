/*
 * libFuzzer target: "config import", GPGPU-Sim options to a warpsim config.
 * The input is one gpgpusim.config, or a gpgpusim.config and a trace.config
 * separated by a line "#--trace.config--"; it is parsed, translated and
 * checked through the config loader as the command does, and the result
 * must be a config or exactly one error line saying what was expected.  A
 * config must name every option read (each name of printable characters,
 * short enough to be quoted whole): the output accounts for all of them.
 *
 * Leaves out: reading the files from disk (ws_gpgpusim_read is
 * ws_file_read, fuzzed through the config target).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "import/ws_gpgpusim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_SPLIT "\n#--trace.config--\n"

/* Bytes before the separator line (all of them when there is none). */
static size_t fuzz_split(const char *text, size_t size)
{
    size_t n = strlen(FUZZ_SPLIT);

    for (size_t i = 0; i + n <= size; i++)
        if (memcmp(text + i, FUZZ_SPLIT, n) == 0)
            return i;
    return size;
}

static int fuzz_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
           || (c >= '0' && c <= '9') || c == '_';
}

/* Whether text names name whole, not as the start of a longer name. */
static int fuzz_names(const char *text, const char *name)
{
    size_t n = strlen(name);

    for (const char *p = text; (p = strstr(p, name)) != NULL; p++) {
        const char *e = p + n;
        if (p > text && fuzz_name_char(p[-1]))
            continue;
        if (fuzz_name_char(*e) || (*e == ':' && fuzz_name_char(e[1])))
            continue;
        return 1;
    }
    return 0;
}

/* A name the output can show as it is. */
static int fuzz_quotable(const char *name)
{
    size_t n = 0;

    for (; name[n]; n++)
        if (name[n] < 0x21 || name[n] > 0x7e)
            return 0;
    return n <= 60;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    size_t first = fuzz_split(text, size);
    struct ws_gpgpusim g;
    struct ws_err err;
    char *yaml = NULL;
    int rc;

    ws_gpgpusim_init(&g);
    ws_err_clear(&err);
    rc = ws_gpgpusim_parse(&g, "fuzz.config", text, first, &err);
    if (rc == 0 && first < size) {
        size_t skip = first + strlen(FUZZ_SPLIT);
        rc = ws_gpgpusim_parse(&g, "fuzz.trace.config", text + skip,
                               size - skip, &err);
    }
    if (rc == 0)
        rc = ws_gpgpusim_translate(&g, NULL, &yaml, &err);
    /* A result, or one error line; never both, never neither. */
    if ((rc == 0) != (yaml != NULL) || (rc < 0 && !err.set)
        || (rc < 0 && !err.internal && !strstr(err.text, "(expected ")))
        abort();
    for (size_t i = 0; rc == 0 && i < g.n; i++)
        if (fuzz_quotable(g.opt[i].name) && !fuzz_names(yaml, g.opt[i].name))
            abort();
    free(yaml);
    ws_gpgpusim_free(&g);
    return 0;
}
