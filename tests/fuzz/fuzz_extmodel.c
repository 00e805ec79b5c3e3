/*
 * libFuzzer target: an external model's output read against the JSON
 * contract (model/ws_model_ext.c).  Any input either gives a result whose
 * numbers keep the contract's limits (a finite prediction from 0 to 1e18,
 * at most 40 finite terms, texts NUL-terminated valid UTF-8 without
 * control characters), or one error line naming the model.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/ws_utf8.h"
#include "ws_model_ext.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_ext_text(const char *s, size_t cap)
{
    size_t n = strnlen(s, cap);

    if (n == cap || !ws_utf8_valid(s))
        __builtin_trap();
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
            __builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    struct ws_model_result r;
    struct ws_err err;

    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    ws_err_clear(&err);
    if (ws_model_ext_parse("fuzz", text, &r, &err) < 0) {
        if (!err.set || strchr(err.text, '\n')
            || !strstr(err.text, "external model fuzz"))
            __builtin_trap();
    } else {
        if (r.applies
            && (!isfinite(r.cycles) || r.cycles < 0 || r.cycles > 1e18))
            __builtin_trap();
        if (r.nvars > 40)
            __builtin_trap();
        for (int i = 0; i < r.nvars; i++)
            if (!isfinite(r.vars[i].value) || strlen(r.vars[i].name) > 40)
                __builtin_trap();
        fuzz_ext_text(r.regime, sizeof r.regime);
        fuzz_ext_text(r.domain, sizeof r.domain);
        fuzz_ext_text(r.why, sizeof r.why);
    }
    free(text);
    return 0;
}
