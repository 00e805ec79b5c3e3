#!/bin/sh
# One kernel simulated on 1, 2 and 3 threads (`run --threads`) gives the
# same JSON, byte for byte: the SMs' own work may run side by side, but
# what is whose work, and so the order of everything, follows from the
# events alone (timing/ws_sim.h).  The kernels cover the paths the split
# must keep apart: a workload expanded as it runs (apsp: shared memory and
# barriers), an Accel-Sim text trace (vecadd: global loads and stores),
# global loads that hit in L1, timed in own work on two or more threads
# and in the rest of the cycle on one (matmul's baseline, V100 and H100),
# several kernels in one run with L2 carried between them (multi), a GTO
# and an LRR scheduler, control bits with register banks and S2R timed
# through the MIO path in windows read side by side (h100's), and
# Hopper's TMA, wgmma, mbarriers and clusters, then kernels that fail
# mid-run (the same message for any count).  A timeline forces one
# thread; its run must match too.  Explicit counts are used as given, so
# the threads run even on a one-core machine.  Each kernel also runs
# with windows of several cycles (timing/ws_window.h) forced by
# WARPSIM_WINDOW at lengths 3 and 200 on 2 and 3 threads: whether threads
# pay, which decides where windows run, depends on the machine, so forced
# windows are what makes the comparison reach them.  They reach the
# workloads (the two failing ones included); the Accel-Sim traces (vecadd,
# multi) and the cluster kernel run one cycle at a time either way, and
# must still match.
#   usage: threads_same.sh WARPSIM   (run from the source root)
set -u
ws=$1
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
failed=0

# run_as TAG THREADS WINDOW ARGS...: one run, its JSON, text and errors
# under TAG (WINDOW 0: as chosen by the simulator).
run_as() {
    tag=$1 t=$2 win=$3
    shift 3
    if [ "$win" -eq 0 ]; then
        "$ws" run --threads $t "$@"
    else
        WARPSIM_WINDOW=$win "$ws" run --threads $t "$@"
    fi >"$d/$tag.out" 2>"$d/$tag.err"
}

same() {
    name=$1
    shift
    for r in 1:0 2:0 3:0 2w:3 3w:200; do
        t=${r%%w*}
        t=${t%%:*}
        if ! run_as "$name.${r%%:*}" $t ${r##*:} \
            --json "$d/$name.${r%%:*}.json" "$@"; then
            echo "FAIL threads_same $name: --threads $t (window ${r##*:}) failed:"
            cat "$d/$name.${r%%:*}.err"
            failed=1
            return
        fi
    done
    for t in 2 3 2w 3w; do
        if ! cmp -s "$d/$name.1.json" "$d/$name.$t.json" \
            || ! cmp -s "$d/$name.1.out" "$d/$name.$t.out"; then
            echo "FAIL threads_same $name: run $t (w: forced window) differs from --threads 1"
            diff "$d/$name.1.out" "$d/$name.$t.out" | head -20
            failed=1
        fi
    done
}

same apsp -p n=128 traces/kernels/apsp/workload.yaml
same vecadd traces/accelsim/vecadd
same matmul_l1 traces/kernels/matmul/baseline.yaml
same h100_matmul_l1 --gpu h100 traces/kernels/matmul/baseline.yaml
same multi traces/accelsim/multi
same lrr --set sched.policy=lrr -p n=65536 traces/kernels/stream/triad.yaml
same h100_matmul --gpu h100 traces/kernels/matmul/tiling.yaml
same h100_apsp --gpu h100 -p n=128 traces/kernels/apsp/workload.yaml
same hopper_gemm --gpu h100 -p M=512 -p N=512 -p K=256 \
    traces/kernels/hopper/gemm_tma_wgmma.yaml
same hopper_cluster --gpu h100 -p M=512 -p N=512 -p K=256 \
    traces/kernels/hopper/gemm_cluster.yaml

# A kernel that fails mid-run fails alike: windows are read in each SM's
# own work, side by side, and the error kept is the lowest SM's; the
# kernel-wide instruction limit is counted as windows commit, in SM order.
# CTAs 1-7 of the first write past the buffer at the same cycle; the second
# runs longer CTAs than its first, whose size the limit's estimate takes.
fails_same() {
    name=$1
    shift
    for r in 1:0 2:0 3:0 2w:3 3w:200; do
        t=${r%%w*}
        t=${t%%:*}
        run_as "$name.${r%%:*}" $t ${r##*:} "$@"
        rc=$?
        if [ $rc -ne 2 ] || [ -s "$d/$name.${r%%:*}.out" ]; then
            echo "FAIL threads_same $name: --threads $t (window ${r##*:}) exit $rc, expected 2"
            cat "$d/$name.${r%%:*}.err"
            failed=1
            return
        fi
    done
    for t in 2 3 2w 3w; do
        cmp -s "$d/$name.1.err" "$d/$name.$t.err" || {
            echo "FAIL threads_same $name: run $t (w: forced window): error differs"
            cat "$d/$name.1.err" "$d/$name.$t.err"
            failed=1
        }
    done
}

cp traces/kernels/fma/fma.sm_80.sass "$d/"
sed 's/size: "4 \* blocks \* threads"/size: "4 * threads"/' \
    traces/kernels/fma/workload.yaml >"$d/past_buffer.yaml"
sed 's/trips: "iters"/trips: "iters * (1 + ctaid.x)"/' \
    traces/kernels/fma/workload.yaml >"$d/growing.yaml"
fails_same past_buffer -p blocks=8 -p iters=200 "$d/past_buffer.yaml"
grep -q "CTA (1,0,0) lies outside" "$d/past_buffer.1.err" || {
    echo "FAIL threads_same past_buffer: not CTA 1's lane 0:"
    cat "$d/past_buffer.1.err"
    failed=1
}
fails_same growing -p blocks=8 -p iters=100 --max-insts 100000 \
    "$d/growing.yaml"
grep -q "ran past 100000 warp instructions" "$d/growing.1.err" || {
    echo "FAIL threads_same growing: not the kernel-wide limit:"
    cat "$d/growing.1.err"
    failed=1
}

# A timeline runs on one thread whatever --threads says.
"$ws" run --threads 2 --timeline "$d/tl.json" --timeline-max-events 100000000 \
    --json "$d/tl_run.json" -p n=128 traces/kernels/apsp/workload.yaml \
    >/dev/null 2>"$d/err" \
    || { echo "FAIL threads_same: --timeline run failed"; cat "$d/err"; exit 1; }
cmp -s "$d/apsp.1.json" "$d/tl_run.json" \
    || { echo "FAIL threads_same: a --timeline run differs"; failed=1; }

[ $failed -eq 0 ] && echo "ok: 1, 2 and 3 threads give the same bytes"
exit $failed
