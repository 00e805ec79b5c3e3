#!/bin/sh
# One kernel simulated on 1, 2 and 3 threads (`run --threads`) gives the
# same JSON, byte for byte: the SMs' own work may run side by side, but
# what is whose work, and so the order of everything, follows from the
# events alone (timing/ws_sim.h).  The kernels cover the paths the split
# must keep apart: a workload expanded as it runs (apsp: shared memory and
# barriers), an Accel-Sim text trace (vecadd: global loads and stores),
# several kernels in one run with L2 carried between them (multi), a GTO
# and an LRR scheduler, control bits with register banks (h100's), and
# Hopper's TMA, wgmma, mbarriers and clusters.  A timeline forces one
# thread; its run must match too.  Explicit counts are used as given, so
# the threads run even on a one-core machine.
#   usage: threads_same.sh WARPSIM   (run from the source root)
set -u
ws=$1
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
failed=0

same() {
    name=$1
    shift
    for t in 1 2 3; do
        if ! "$ws" run --threads $t --json "$d/$name.$t.json" "$@" \
            >"$d/$name.$t.out" 2>"$d/err"; then
            echo "FAIL threads_same $name: --threads $t failed:"
            cat "$d/err"
            failed=1
            return
        fi
    done
    for t in 2 3; do
        if ! cmp -s "$d/$name.1.json" "$d/$name.$t.json" \
            || ! cmp -s "$d/$name.1.out" "$d/$name.$t.out"; then
            echo "FAIL threads_same $name: --threads $t differs from 1"
            diff "$d/$name.1.out" "$d/$name.$t.out" | head -20
            failed=1
        fi
    done
}

same apsp -p n=128 traces/kernels/apsp/workload.yaml
same vecadd traces/accelsim/vecadd
same multi traces/accelsim/multi
same lrr --set sched.policy=lrr -p n=65536 traces/kernels/stream/triad.yaml
same h100_matmul --gpu h100 traces/kernels/matmul/tiling.yaml
same hopper_gemm --gpu h100 -p M=512 -p N=512 -p K=256 \
    traces/kernels/hopper/gemm_tma_wgmma.yaml
same hopper_cluster --gpu h100 -p M=512 -p N=512 -p K=256 \
    traces/kernels/hopper/gemm_cluster.yaml

# A timeline runs on one thread whatever --threads says.
"$ws" run --threads 2 --timeline "$d/tl.json" --timeline-max-events 100000000 \
    --json "$d/tl_run.json" -p n=128 traces/kernels/apsp/workload.yaml \
    >/dev/null 2>"$d/err" \
    || { echo "FAIL threads_same: --timeline run failed"; cat "$d/err"; exit 1; }
cmp -s "$d/apsp.1.json" "$d/tl_run.json" \
    || { echo "FAIL threads_same: a --timeline run differs"; failed=1; }

[ $failed -eq 0 ] && echo "ok: 1, 2 and 3 threads give the same bytes"
exit $failed
