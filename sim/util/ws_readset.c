/*
 * ws_readset: the set of input files read so far (see ws_readset.h).  A
 * plain array: a command reads a handful of files before it writes.
 */
#include "ws_readset.h"

#define WS_READSET_MAX 256

struct ws_readset_id {
    dev_t dev;
    ino_t ino;
};

static struct ws_readset_id ws_readset[WS_READSET_MAX];
static int ws_readset_n;

int ws_readset_has(const struct stat *st)
{
    for (int i = 0; i < ws_readset_n; i++)
        if (ws_readset[i].dev == st->st_dev && ws_readset[i].ino == st->st_ino)
            return 1;
    return 0;
}

void ws_readset_note(const struct stat *st)
{
    if (ws_readset_n == WS_READSET_MAX || ws_readset_has(st))
        return;
    ws_readset[ws_readset_n].dev = st->st_dev;
    ws_readset[ws_readset_n].ino = st->st_ino;
    ws_readset_n++;
}
