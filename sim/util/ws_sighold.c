/*
 * ws_sighold: interrupting signals held off around temporary files (see
 * ws_sighold.h).
 */
#include "ws_sighold.h"

#include <stddef.h>

void ws_sighold(sigset_t *old)
{
    sigset_t block;

    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGHUP);
    sigprocmask(SIG_BLOCK, &block, old);
}

void ws_sighold_release(const sigset_t *old)
{
    sigprocmask(SIG_SETMASK, old, NULL);
}
