#!/bin/sh
# device_run.sh: the bench on a lent 16-core machine (the workplace's GPU
# host; its GPU is not used).  It runs binaries built on the development
# machine, carried in CARRY with the shared libraries they need
# (CARRY/lib) and the xz and zstd the bench calls (CARRY/bin):
#   CARRY/warpsim, CARRY/bench_run, CARRY/gen_vecadd, CARRY/warpsim-base
# (the baseline build the one-thread rows are compared with).
# Writes cpu.txt, scaling.txt and bench.txt to OUTDIR.
#   usage: tests/bench/device_run.sh CARRY OUTDIR [scaling|all]
set -eu
carry=$(cd "$1" && pwd)
out=$2
what=${3:-all}
export LD_LIBRARY_PATH="$carry/lib" PATH="$carry/bin:$PATH"
work=$(mktemp -d)
mkdir -p "$out"
{ nproc; grep -m1 "model name" /proc/cpuinfo; uname -a; } > "$out/cpu.txt"
cat "$out/cpu.txt"
"$carry/bench_run" --scaling "$carry/warpsim" . "$work" 1 2 4 8 16 \
    | tee "$out/scaling.txt"
if [ "$what" = all ]; then
    "$carry/bench_run" "$carry/warpsim" "$carry/gen_vecadd" . "$work" \
        "$carry/warpsim-base" | tee "$out/bench.txt"
fi
rm -rf "$work"
