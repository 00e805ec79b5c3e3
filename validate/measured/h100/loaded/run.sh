#!/bin/sh
# run.sh: the device script for loaded.cu (the memory system under load on an
# H100: loaded latency / MLP, DRAM efficiency by access pattern, L2 bandwidth).
#
#   sh validate/measured/h100/loaded/run.sh     (from anywhere; needs nvcc and
#                                               nvidia-smi; cuobjdump and ncu
#                                               optional)
#
# Builds loaded.cu with nvcc -O3 -arch=sm_90, records the device (nvidia-smi
# -q, clocks before and after, CUDA properties), samples nvidia-smi's clocks
# every 500 ms while the benchmarks run, runs them, then runs a few
# representative kernels once more under ncu (DRAM and L2 sectors actually
# moved, L2 hit rate).  Writes to $OUT (./out beside this script if unset):
#   mlp.csv pattern.csv l2bw.csv   loaded.cu's results
#   ncu.csv                        ncu --csv --page raw of the probe kernels
#   clocks.csv                     nvidia-smi samples during the benchmarks
#   device.txt                     device, tools, clocks (serials/UUIDs removed)
#   log.txt                        progress, ncu case list, SASS of the kernels
# Every step runs under `timeout`; the whole script keeps within about
# 6 minutes (loaded.cu itself skips points past LOADED_DEADLINE_S, default 200).
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$HERE/out}
mkdir -p "$OUT"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/loaded.XXXXXX")
LOG=$OUT/log.txt
DEV=$OUT/device.txt
: >"$LOG"
: >"$DEV"
T0=$(date +%s)
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null 2>&1 || NVCC=/usr/local/cuda/bin/nvcc
NCU=${NCU:-ncu}

log() { echo "[run +$(($(date +%s) - T0))s] $*" | tee -a "$LOG" >&2; }
section() { printf '\n==== %s ====\n' "$*" >>"$DEV"; }

log "start $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname), OUT=$OUT"

section "date, host, tools"
{
    date -u
    uname -a
    "$NVCC" --version
    nvidia-smi -L
    command -v "$NCU" >/dev/null 2>&1 && "$NCU" --version
} >>"$DEV" 2>&1
section "nvidia-smi -q"
timeout 60 nvidia-smi -q >>"$DEV" 2>&1 || log "nvidia-smi -q failed"
section "nvidia-smi -q -d CLOCK (before)"
timeout 30 nvidia-smi -q -d CLOCK >>"$DEV" 2>&1

M=$WORK/loaded
log "compiling loaded.cu"
if timeout 180 "$NVCC" -O3 -arch=sm_90 -Xptxas -v -o "$M" "$HERE/loaded.cu" >"$WORK/ptxas.txt" 2>&1; then
    log "compiled"
else
    cat "$WORK/ptxas.txt" >>"$LOG"
    log "COMPILE FAILED"
    rm -rf "$WORK"
    exit 1
fi
grep -E "Compiling entry|registers|spill" "$WORK/ptxas.txt" >>"$LOG"

section "CUDA device properties (loaded props)"
timeout 60 "$M" props >>"$DEV" 2>&1 || log "loaded props failed"

nvidia-smi --query-gpu=timestamp,pstate,clocks.sm,clocks.mem,clocks.max.sm,power.draw,temperature.gpu,clocks_event_reasons.active \
    --format=csv -lms 500 >"$OUT/clocks.csv" 2>>"$LOG" &
SMI=$!
log "running loaded (timeout 260 s)"
# shellcheck disable=SC2086
(
    LOADED_DEADLINE_S=${LOADED_DEADLINE_S:-200} timeout -k 5 260 "$M" run "$OUT" ${LOADED_PARTS:-} 2>&1
    echo $? >"$WORK/rc"
) | tee -a "$LOG" >&2
log "loaded finished, rc=$(cat "$WORK/rc" 2>/dev/null)"
kill "$SMI" 2>/dev/null
wait "$SMI" 2>/dev/null

section "nvidia-smi -q -d CLOCK (after)"
timeout 30 nvidia-smi -q -d CLOCK >>"$DEV" 2>&1
section "nvidia-smi -q -d PERFORMANCE (after)"
timeout 30 nvidia-smi -q -d PERFORMANCE >>"$DEV" 2>&1

# ncu: each probe kernel once, clocks and caches left alone (the probe warms
# L2 itself where it should be warm).  Metrics: all seen in ../ncu_raw.csv.
if [ "${LOADED_NCU:-1}" = 1 ] && command -v "$NCU" >/dev/null 2>&1; then
    METRICS=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__sectors_read.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__t_sector_op_read_hit_rate.pct,lts__t_sectors_lookup_miss.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__cycles_elapsed.avg.per_second,dram__cycles_elapsed.avg.per_second
    log "ncu on 'loaded ncuprobe' (timeout 150 s)"
    timeout -k 10 150 "$NCU" --clock-control none --cache-control none \
        -k regex:'pat_kernel|l2_read|chase_win' --metrics "$METRICS" \
        -f -o "$WORK/probe" "$M" ncuprobe >"$WORK/ncu.out" 2>"$WORK/ncu.err"
    log "ncu rc=$?"
    echo "==== ncu probe cases (ncu ID order) and ncu's messages ====" >>"$LOG"
    cat "$WORK/ncu.out" "$WORK/ncu.err" >>"$LOG"
    if [ -f "$WORK/probe.ncu-rep" ]; then
        timeout 60 "$NCU" --import "$WORK/probe.ncu-rep" --csv --page raw --print-units base \
            >"$OUT/ncu.csv" 2>>"$LOG"
        log "ncu.csv: $(($(wc -l <"$OUT/ncu.csv") - 2)) kernels"
    fi
else
    log "ncu skipped"
fi

if command -v cuobjdump >/dev/null 2>&1; then
    # The SASS of the measuring kernels (encodings stripped).
    echo "==== SASS (cuobjdump -sass): chase_win<1>, chase_win<8>, pat_kernel<0>, l2_read ====" >>"$LOG"
    timeout 60 cuobjdump -sass "$M" 2>>"$LOG" |
        awk '/Function :/ { on = ($0 ~ /chase_winILi1E|chase_winILi8E|pat_kernelILi0E|l2_read/) } on' |
        sed -e 's@ */\* 0x[0-9a-f]* \*/@@' | grep -v '^[[:space:]]*$' >>"$LOG"
fi

# No board serial numbers or UUIDs in what comes back.
for f in "$DEV" "$LOG" "$OUT/ncu.csv"; do
    [ -f "$f" ] || continue
    sed -i -E -e 's/((Serial Number|UUID|GPU PDI)[[:space:]]*:).*/\1 [removed]/' \
        -e 's/GPU-[0-9a-fA-F-]{20,}/[removed]/g' "$f"
done

log "done in $(($(date +%s) - T0))s"
ls -la "$OUT" >&2
rm -rf "$WORK"
exit 0
