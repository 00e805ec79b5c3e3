/*
 * ws_file: whole-file reads of small inputs (see ws_file.h).
 */
#include "ws_file.h"

#include <stdlib.h>

char *ws_file_slurp(FILE *fp, const char *name, const char *what, size_t max,
                    size_t *len, struct ws_err *err)
{
    char *text = malloc(max + 1);

    if (!text) {
        ws_err_oom(err);
        return NULL;
    }
    *len = fread(text, 1, max + 1, fp);
    if (*len > max) {
        free(text);
        ws_err_at(err, name, 1, 1, "%s larger than %zu MiB (expected a small "
                  "YAML file)", what, max >> 20);
        return NULL;
    }
    text[*len] = '\0';
    return text;
}
