#!/bin/sh
# device_run.sh: the bench on a lent 16-core machine (the workplace's GPU
# host; its GPU is not used).  It runs binaries built on the development
# machine, carried in CARRY with the shared libraries they need
# (CARRY/lib) and the xz and zstd the bench calls (CARRY/bin):
#   CARRY/warpsim, CARRY/bench_run, CARRY/gen_vecadd, CARRY/warpsim-base
# (the baseline build the one-thread rows are compared with).
# Writes cpu.txt, scaling.txt and bench.txt (all) or others.txt
# (scaling) to OUTDIR.
#   all:     bench_run --scaling, then the whole bench against the baseline
#   scaling: bench_run --scaling, then every other CARRY/warpsim-NAME
#            (an earlier build, an instrumented one) on apsp (V100, H100)
#            and the fma loop at 1 and 16 threads, once each, with
#            what it prints on stderr, for ratios taken in the same run
#   usage: tests/bench/device_run.sh CARRY OUTDIR [all|scaling]
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
else
    for b in "$carry"/warpsim-*; do
        [ "$b" = "$carry/warpsim-base" ] && continue
        for t in 1 16; do
            for c in "apsp-v100 -g v100 traces/kernels/apsp/workload.yaml" \
                "apsp-h100 -g h100 traces/kernels/apsp/workload.yaml" \
                "fma -p iters=5600 -p blocks=64 traces/kernels/fma/workload.yaml"; do
                set -- $c
                name=$1
                shift
                t0=$(date +%s%N)
                WS_PAR_STATS=1 "$b" run --threads $t "$@" >/dev/null \
                    2>"$work/err"
                t1=$(date +%s%N)
                echo "$(basename "$b") $name threads $t wall_ms $(((t1 - t0) / 1000000))"
                grep -v "^part 0: 0.000" "$work/err" || true
            done
        done
    done | tee "$out/others.txt"
fi
rm -rf "$work"
