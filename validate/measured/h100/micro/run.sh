#!/bin/sh
# run.sh: the device script for micro.cu (memory microbenchmarks on an H100).
#
#   sh validate/measured/h100/micro/run.sh      (from anywhere; needs nvcc and
#                                                nvidia-smi; cuobjdump optional)
#
# Builds micro.cu with nvcc -O3 -arch=sm_90, records the device (nvidia-smi -q,
# clocks before and after, the CUDA device properties), samples nvidia-smi's
# clocks every 500 ms while the benchmarks run, runs them, and writes to $OUT
# (./out beside this script if OUT is unset; git-ignored):
#   stream.csv latency.csv carveout.csv split.csv   (micro.cu's results; with
#                                MICRO_PARTS=span,splitsm instead: span.csv and
#                                split_sm.csv, the second run's)
#   clocks.csv                                      (nvidia-smi samples)
#   device.txt                                      (device, tools, clocks)
#   log.txt                                         (progress, the chase SASS)
# Every long step runs under `timeout`; the whole script keeps within about
# 5 minutes (the benchmarks themselves skip latency points that would pass
# MICRO_DEADLINE_S, default 230 s).
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$HERE/out}
mkdir -p "$OUT"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/micro.XXXXXX")
LOG=$OUT/log.txt
DEV=$OUT/device.txt
: >"$LOG"
: >"$DEV"
T0=$(date +%s)
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null 2>&1 || NVCC=/usr/local/cuda/bin/nvcc

log() { echo "[run +$(($(date +%s) - T0))s] $*" | tee -a "$LOG" >&2; }
section() { printf '\n==== %s ====\n' "$*" >>"$DEV"; }

log "start $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname), OUT=$OUT"

section "date, host, tools"
{
    date -u
    uname -a
    "$NVCC" --version
    nvidia-smi -L
} >>"$DEV" 2>&1
section "nvidia-smi -q"
timeout 60 nvidia-smi -q >>"$DEV" 2>&1 || log "nvidia-smi -q failed"
section "nvidia-smi -q -d CLOCK (before)"
timeout 30 nvidia-smi -q -d CLOCK >>"$DEV" 2>&1

M=$WORK/micro
log "compiling micro.cu"
if timeout 180 "$NVCC" -O3 -arch=sm_90 -o "$M" "$HERE/micro.cu" >>"$LOG" 2>&1; then
    log "compiled"
else
    log "COMPILE FAILED"
    rm -rf "$WORK"
    exit 1
fi

section "CUDA device properties (micro props)"
timeout 60 "$M" props >>"$DEV" 2>&1 || log "micro props failed"

if command -v cuobjdump >/dev/null 2>&1; then
    # The SASS of the chase kernels: what one hop is.
    echo "==== SASS of the chase kernels (cuobjdump -sass) ====" >>"$LOG"
    timeout 60 cuobjdump -sass "$M" 2>>"$LOG" |
        awk '/Function :/ { on = ($0 ~ /chase/) } on' >>"$LOG"
fi

nvidia-smi --query-gpu=timestamp,pstate,clocks.sm,clocks.mem,clocks.max.sm,power.draw,temperature.gpu,clocks_event_reasons.active \
    --format=csv -lms 500 >"$OUT/clocks.csv" 2>>"$LOG" &
SMI=$!
log "running micro (timeout 280 s)"
# shellcheck disable=SC2086
(
    MICRO_DEADLINE_S=${MICRO_DEADLINE_S:-230} timeout -k 5 280 "$M" run "$OUT" ${MICRO_PARTS:-} 2>&1
    echo $? >"$WORK/rc"
) | tee -a "$LOG" >&2
log "micro finished, rc=$(cat "$WORK/rc" 2>/dev/null)"
kill "$SMI" 2>/dev/null
wait "$SMI" 2>/dev/null

section "nvidia-smi -q -d CLOCK (after)"
timeout 30 nvidia-smi -q -d CLOCK >>"$DEV" 2>&1
section "nvidia-smi -q -d PERFORMANCE (after)"
timeout 30 nvidia-smi -q -d PERFORMANCE >>"$DEV" 2>&1

log "done in $(($(date +%s) - T0))s"
ls -la "$OUT" >&2
rm -rf "$WORK"
exit 0
