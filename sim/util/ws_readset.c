/*
 * ws_readset: the set of input files read so far (see ws_readset.h).  A
 * plain array: a command reads a handful of files before it writes.
 */
#include "ws_readset.h"

#include <stdlib.h>
#include <string.h>

#define WS_READSET_MAX 256

struct ws_readset_id {
    dev_t dev;
    ino_t ino;
    char *path; /* as opened; NULL when it could not be kept */
};

static struct ws_readset_id ws_readset[WS_READSET_MAX];
static int ws_readset_n;

/* An entry still names the file it was noted for.  A file deleted or
 * replaced by a rename since (a temporary file, results rewritten through
 * a temporary) has given its inode back, and the next file created may
 * get the same number: without this check a new output would pass for an
 * old input. */
static int ws_readset_current(const struct ws_readset_id *e)
{
    struct stat now;

    if (!e->path)
        return 1;
    return stat(e->path, &now) == 0 && now.st_dev == e->dev
           && now.st_ino == e->ino;
}

int ws_readset_has(const struct stat *st)
{
    for (int i = 0; i < ws_readset_n; i++)
        if (ws_readset[i].dev == st->st_dev && ws_readset[i].ino == st->st_ino
            && ws_readset_current(&ws_readset[i]))
            return 1;
    return 0;
}

void ws_readset_note(const char *path, const struct stat *st)
{
    struct ws_readset_id *e;

    for (int i = 0; i < ws_readset_n; i++) {
        e = &ws_readset[i];
        if (e->dev == st->st_dev && e->ino == st->st_ino) {
            if (ws_readset_current(e))
                return;
            free(e->path); /* a stale entry: the number is reused */
            e->path = path ? strdup(path) : NULL;
            return;
        }
    }
    if (ws_readset_n == WS_READSET_MAX)
        return;
    e = &ws_readset[ws_readset_n++];
    e->dev = st->st_dev;
    e->ino = st->st_ino;
    e->path = path ? strdup(path) : NULL;
}
