/*
 * ws_demangle: C++ kernel names demangled (see ws_demangle.h).
 */
#include "ws_demangle.h"

#include <stdlib.h>
#include <string.h>

/* The Itanium C++ ABI's demangler (its section 3.4); C linkage, defined
 * by the C++ runtime. */
char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

char *ws_demangle(const char *name)
{
    char *out = NULL;
    int status = -1;

    if (strncmp(name, "_Z", 2) == 0 && strlen(name) <= WS_DEMANGLE_MAX)
        out = __cxa_demangle(name, NULL, NULL, &status);
    if (out && status == 0)
        return out;
    free(out);
    return strdup(name);
}
