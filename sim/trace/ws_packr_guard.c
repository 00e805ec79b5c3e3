/*
 * ws_packr_guard: a .wst mapping that survives its file being cut short
 * while it is read.
 *
 * A file that is truncated while it is mapped (or rewritten through a
 * truncation, as cp, a shell's '>' and most editors do) kills the process
 * that maps it with SIGBUS at its next access to a page past the new end:
 * a sweep point dies of "signal 7", a run dies without a word.  Each .wst
 * mapping is recorded here, in a small fixed table, and a SIGBUS handler
 * that finds the faulting address in one maps anonymous zero pages over
 * that page and everything after it in the mapping, marks the mapping
 * tripped and returns.  The access is then repeated and reads zeros, which
 * the reader's checks bound like any other damage; the reader asks
 * ws_packr_guard_tripped at its checkpoints and reports that the file
 * changed, not what the zeros look like (ws_packr.c).  A fault anywhere
 * else goes to whatever handled SIGBUS before (by default the process dies
 * of it, as it would have without the guard).
 *
 * Zeros to the end of the mapping, not one page: after a truncation every
 * later page would fault as well, one signal each.
 *
 * Async-signal safety: the handler reads the table through lock-free
 * atomics, calls mmap (a plain system call on Linux and the BSDs, though
 * POSIX does not list it), sigaction and raise.  A slot's range is written
 * before the slot is marked live and marked dead before it is unmapped,
 * so the handler never sees half an entry.
 *
 * Leaves out: threads (warpsim reads its traces from one thread; a second
 * reader thread would need the same entry protocol, which already holds
 * for it), and changes that raise no fault (a rewrite in place that keeps
 * the size, a write through another mapping): ws_packr.c compares the
 * file's size and modification time at its checkpoints for those.
 */
#define _DEFAULT_SOURCE
#include "ws_packr_internal.h"

#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* One slot per .wst open at once: a command opens one, the tests a few. */
#define WS_PACKR_GUARD_SLOTS 32

struct ws_packr_guard_slot {
    atomic_int live;             /* 1 while [start, end) is a .wst mapping */
    atomic_int tripped;          /* set by the handler */
    atomic_uintptr_t start, end; /* end rounded up to a page */
    atomic_uintptr_t fault;      /* the first access that faulted */
};

static struct ws_packr_guard_slot ws_packr_guard_slots[WS_PACKR_GUARD_SLOTS];
static struct sigaction ws_packr_guard_prev; /* what handled SIGBUS before */
static atomic_uintptr_t ws_packr_guard_page;
static int ws_packr_guard_installed;

/* A SIGBUS that is not ours, handed to what was there before.  The
 * default (and "ignore", which a fault cannot honour) is restored and the
 * fault repeated by returning, so the process dies of it as it would have;
 * a SIGBUS sent by kill() is not repeated by returning, so it is raised
 * again. */
static void ws_packr_guard_pass(int sig, siginfo_t *si, void *uc)
{
    const struct sigaction *prev = &ws_packr_guard_prev;
    struct sigaction dfl;

    if ((prev->sa_flags & SA_SIGINFO) && prev->sa_sigaction) {
        prev->sa_sigaction(sig, si, uc);
        return;
    }
    if (!(prev->sa_flags & SA_SIGINFO) && prev->sa_handler != SIG_DFL
        && prev->sa_handler != SIG_IGN) {
        prev->sa_handler(sig);
        return;
    }
    if (!(prev->sa_flags & SA_SIGINFO) && prev->sa_handler == SIG_IGN
        && si->si_code <= 0)
        return;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    if (si->si_code <= 0)
        raise(sig);
}

static void ws_packr_guard_on_sigbus(int sig, siginfo_t *si, void *uc)
{
    uintptr_t a = (uintptr_t)si->si_addr;
    uintptr_t page = atomic_load(&ws_packr_guard_page);

    /* si_code > 0: the kernel's, a fault at si_addr. */
    for (int i = 0; si->si_code > 0 && i < WS_PACKR_GUARD_SLOTS; i++) {
        struct ws_packr_guard_slot *s = &ws_packr_guard_slots[i];
        uintptr_t start, end, from;
        if (!atomic_load(&s->live))
            continue;
        start = atomic_load(&s->start);
        end = atomic_load(&s->end);
        if (a < start || a >= end)
            continue;
        from = a - a % page;
        if (mmap((void *)from, end - from, PROT_READ,
                 MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
            == MAP_FAILED)
            break;
        if (!atomic_load(&s->tripped))
            atomic_store(&s->fault, a);
        atomic_store(&s->tripped, 1);
        return;
    }
    ws_packr_guard_pass(sig, si, uc);
}

/* Installs the handler the first time a mapping is guarded; it stays,
 * passing on every fault that is not in a live slot. */
static int ws_packr_guard_install(void)
{
    struct sigaction sa;
    long page = sysconf(_SC_PAGESIZE);

    if (ws_packr_guard_installed)
        return 0;
    if (page <= 0)
        return -1;
    atomic_store(&ws_packr_guard_page, (uintptr_t)page);
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = ws_packr_guard_on_sigbus;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGBUS, &sa, &ws_packr_guard_prev) != 0)
        return -1;
    ws_packr_guard_installed = 1;
    return 0;
}

int ws_packr_guard_add(const void *base, size_t len)
{
    uintptr_t page, start = (uintptr_t)base;

    if (ws_packr_guard_install() < 0)
        return -1;
    page = atomic_load(&ws_packr_guard_page);
    for (int i = 0; i < WS_PACKR_GUARD_SLOTS; i++) {
        struct ws_packr_guard_slot *s = &ws_packr_guard_slots[i];
        if (atomic_load(&s->live))
            continue;
        atomic_store(&s->start, start);
        atomic_store(&s->end, start + (len + page - 1) / page * page);
        atomic_store(&s->fault, 0);
        atomic_store(&s->tripped, 0);
        atomic_store(&s->live, 1);
        return i;
    }
    return -1;
}

void ws_packr_guard_remove(int slot)
{
    if (slot >= 0 && slot < WS_PACKR_GUARD_SLOTS)
        atomic_store(&ws_packr_guard_slots[slot].live, 0);
}

int ws_packr_guard_tripped(int slot, uint64_t *at)
{
    struct ws_packr_guard_slot *s;

    if (slot < 0 || slot >= WS_PACKR_GUARD_SLOTS)
        return 0;
    s = &ws_packr_guard_slots[slot];
    if (!atomic_load(&s->tripped))
        return 0;
    *at = atomic_load(&s->fault) - atomic_load(&s->start);
    return 1;
}
