/*
 * replay_main: runs a fuzz target's entry point over every file of its
 * corpus folder, so the corpus is a regression test in every build
 * (gcc, sanitizers) and not only under clang's libFuzzer.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
    FILE *fp = fopen(path, "rb");
    uint8_t *buf;
    long n;

    if (!fp)
        return -1;
    fseek(fp, 0, SEEK_END);
    n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    buf = malloc(n > 0 ? (size_t)n : 1);
    if (!buf || fread(buf, 1, (size_t)n, fp) != (size_t)n) {
        fclose(fp);
        free(buf);
        return -1;
    }
    fclose(fp);
    LLVMFuzzerTestOneInput(buf, (size_t)n);
    free(buf);
    return 0;
}

int main(int argc, char **argv)
{
    int files = 0;

    for (int i = 1; i < argc; i++) {
        DIR *d = opendir(argv[i]);
        struct dirent *e;
        if (!d)
            return fprintf(stderr, "%s: cannot open corpus\n", argv[i]), 1;
        while ((e = readdir(d))) {
            char path[4096];
            if (e->d_name[0] == '.')
                continue;
            snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
            if (replay_file(path) < 0)
                return fprintf(stderr, "%s: cannot read\n", path), 1;
            files++;
        }
        closedir(d);
    }
    printf("replayed %d inputs\n", files);
    return files > 0 ? 0 : 1;
}
