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
#            (an earlier build, an instrumented one) on apsp and matmul
#            (V100, H100) and the fma loop at 1, 4 and 16 threads, once
#            each, with what it prints on stderr, for ratios taken in
#            the same run
#   versus:  CARRY/warpsim and every other CARRY/warpsim-NAME by turns,
#            three times each, on the same five cases at 1, 2, 4, 8 and 16
#            threads: versus-raw.txt has every run (wall ms, and whether
#            its JSON is that build's one-thread JSON byte for byte),
#            versus.txt the best of three and the speed-up over the
#            build's one thread, for builds compared in one run
#   usage: tests/bench/device_run.sh CARRY OUTDIR [all|scaling|versus]
set -eu
carry=$(cd "$1" && pwd)
out=$2
what=${3:-all}
case $what in
all | scaling | versus) ;;
*)
    echo "usage: tests/bench/device_run.sh CARRY OUTDIR [all|scaling|versus]" >&2
    exit 2
    ;;
esac
export LD_LIBRARY_PATH="$carry/lib" PATH="$carry/bin:$PATH"
work=$(mktemp -d)
mkdir -p "$out"
{ nproc; grep -m1 "model name" /proc/cpuinfo; uname -a; } > "$out/cpu.txt"
cat "$out/cpu.txt"
cases="apsp-v100 -g v100 traces/kernels/apsp/workload.yaml
apsp-h100 -g h100 traces/kernels/apsp/workload.yaml
matmul-v100 -g v100 traces/kernels/matmul/baseline.yaml
matmul-h100 -g h100 traces/kernels/matmul/baseline.yaml
fma -p iters=5600 -p blocks=64 traces/kernels/fma/workload.yaml"
# Runs a command with stdin closed and stdout dropped; prints its wall
# time in ms.
run_ms() {
    t0=$(date +%s%N)
    "$@" </dev/null >/dev/null
    t1=$(date +%s%N)
    echo $(((t1 - t0) / 1000000))
}
if [ "$what" = versus ]; then
    echo "$cases" | while read -r c; do
        set -- $c
        name=$1
        shift
        for t in 1 2 4 8 16; do
            for rep in 1 2 3; do
                for b in "$carry/warpsim" "$carry"/warpsim-*; do
                    [ "$b" = "$carry/warpsim-base" ] && continue
                    n=$(basename "$b")
                    j="$work/$n-$name-$t.json"
                    ms=$(run_ms "$b" run --threads $t --json "$j" "$@")
                    same=same
                    cmp -s "$j" "$work/$n-$name-1.json" || same=DIFFERS
                    echo "$n $name $t $ms $same"
                done
            done
        done
    done | tee "$out/versus-raw.txt"
    awk '{ k = $1 " " $2 " " $3
           if (!(k in best) || $4 < best[k]) best[k] = $4
           if ($5 != "same") bad[k] = 1 }
         END { for (k in best) {
                   split(k, f, " ")
                   one = best[f[1] " " f[2] " 1"]
                   printf "%-22s %-12s %2d threads %6d ms %5.2fx %s\n", f[1],
                       f[2], f[3], best[k], one / best[k],
                       (k in bad) ? "JSON DIFFERS" : "JSON same" } }' \
        "$out/versus-raw.txt" | sort -k2,2 -k1,1 -k3n | tee "$out/versus.txt"
else
    "$carry/bench_run" --scaling "$carry/warpsim" . "$work" 1 2 4 8 16 \
        | tee "$out/scaling.txt"
fi
if [ "$what" = all ]; then
    "$carry/bench_run" "$carry/warpsim" "$carry/gen_vecadd" . "$work" \
        "$carry/warpsim-base" | tee "$out/bench.txt"
elif [ "$what" = scaling ]; then
    for b in "$carry"/warpsim-*; do
        [ "$b" = "$carry/warpsim-base" ] && continue
        for t in 1 4 16; do
            echo "$cases" | while read -r c; do
                set -- $c
                name=$1
                shift
                ms=$(run_ms env WS_PAR_STATS=1 "$b" run --threads $t "$@" \
                    2>"$work/err")
                echo "$(basename "$b") $name threads $t wall_ms $ms"
                grep -v "^part 0: 0.000" "$work/err" || true
            done
        done
    done | tee "$out/others.txt"
fi
rm -rf "$work"
