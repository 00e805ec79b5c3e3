/*
 * fuzz_tmp: fuzz targets whose code under test reads a file (configs,
 * workloads) get the input written to a per-process temporary file.
 */
#ifndef FUZZ_TMP_H
#define FUZZ_TMP_H

#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

/* Writes data to /tmp/ws-fuzz-TAG-PID.yaml; 0, or -1 when it cannot. */
static inline int fuzz_tmp_write(const char *tag, const uint8_t *data,
                                 size_t size, char *path, size_t cap)
{
    FILE *fp;

    snprintf(path, cap, "/tmp/ws-fuzz-%s-%ld.yaml", tag, (long)getpid());
    fp = fopen(path, "wb");
    if (!fp)
        return -1;
    fwrite(data, 1, size, fp);
    return fclose(fp) == 0 ? 0 : -1;
}

#endif
