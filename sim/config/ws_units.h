/*
 * ws_units: numbers with units in GPU configs ("48KiB", "1380MHz",
 * "898GB/s") and their canonical printed form.
 *
 * Conventions, chosen to match how GPU data sheets are read:
 *   sizes       B, KiB/KB/K, MiB/MB/M, GiB/GB/G, all binary (JEDEC memory
 *               capacities: a "48 KB" shared memory is 49152 bytes); a bare
 *               number is bytes.
 *   frequency   Hz, kHz, MHz, GHz (decimal); a unit is required.
 *   bandwidth   B/s, KB/s, MB/s, GB/s, TB/s decimal (data-sheet bandwidth is
 *               decimal: 898 GB/s = 898e9 B/s), KiB/s.. TiB/s binary; a unit
 *               is required.
 *   cycles      a bare integer, or with "cycles" / "cycle".
 *   time        ps, ns, us, ms; a unit is required.  Only DRAM timings
 *               (tRCD, tREFI, ...) are times: data sheets give them in ns,
 *               and they hold whatever the SM clock is.
 * Each parser reads the whole string and returns 0, or -1 when it is not of
 * that form.
 *
 * Leaves out: times for SM-side latencies (core cycles by design).
 */
#ifndef WS_UNITS_H
#define WS_UNITS_H

#include <stddef.h>
#include <stdint.h>

int ws_units_size(const char *s, uint64_t *bytes);
int ws_units_freq(const char *s, double *mhz);
/* A plain number, no unit. */
int ws_units_real(const char *s, double *v);
int ws_units_bandwidth(const char *s, double *gbps);
int ws_units_time(const char *s, double *ns);
int ws_units_cycles(const char *s, uint64_t *cycles);
int ws_units_count(const char *s, uint64_t *n);
int ws_units_bool(const char *s, int *b);

/* "6MiB" when exact in the largest such unit, else "6291457B". */
void ws_units_fmt_size(char *buf, size_t cap, uint64_t bytes);

#endif
