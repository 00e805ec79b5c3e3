/*
 * ws_sighold: the interrupting signals (SIGINT, SIGTERM, SIGHUP) held off
 * while a temporary file or folder exists that no handler knows of, so an
 * interrupt cannot leave it behind; they arrive when released.
 *
 * Leaves out: the handlers themselves (util/ws_output removes the
 * temporary files it tracks; the sweep's pool stops between points).
 */
#ifndef WS_SIGHOLD_H
#define WS_SIGHOLD_H

#include <signal.h>

/* Blocks the three; *old is the mask to give back (and, for a child that
 * should be interruptible, the mask to spawn it with). */
void ws_sighold(sigset_t *old);

/* Restores the mask ws_sighold saved. */
void ws_sighold_release(const sigset_t *old);

#endif
