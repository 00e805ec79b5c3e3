#!/bin/sh
# measure.sh: ground truth for warpsim from a real GPU (written for an H100).
#
#   sh validate/measured/h100/measure.sh        (from anywhere; needs nvcc,
#                                                 nvidia-smi, ncu, cuobjdump)
#
# Builds harness/harness.cu (the project's bundled kernels with their
# workloads' launches) with nvcc -O3 -arch=sm_90, records the device
# (nvidia-smi -q, CUDA device properties, clocks before and after), dumps
# the SASS that runs, times every case with cudaEvents, then profiles the
# default workloads (and the saxpy stride points) with Nsight Compute, and
# the sweep points in a second report.  ncu keeps its default clock control
# (--clock-control base: SM clocks locked to base while profiling) and its
# default cache control (--cache-control all: caches flushed before every
# replay pass); the event timing runs at whatever clock the GPU boosts to.
#
# Everything goes to $OUT (./out beside this script if OUT is unset), at
# most 8 files: timing.csv, ncu_raw.csv, ncu_extra.csv, ncu_cases.csv,
# device.txt, sass.txt, clocks.csv, log.txt.  Each stage goes on if an
# earlier one failed; the whole script keeps within MEASURE_BUDGET seconds
# (default 500): every long stage runs under `timeout`.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$HERE/out}
BUDGET=${MEASURE_BUDGET:-500}
mkdir -p "$OUT"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/measure.XXXXXX")
LOG=$OUT/log.txt
DEV=$OUT/device.txt
: >"$LOG"
: >"$DEV"
T0=$(date +%s)
NCU=${NCU:-ncu}
NVCC=${NVCC:-nvcc}

log() { echo "[measure +$(($(date +%s) - T0))s] $*" | tee -a "$LOG" >&2; }
left() { echo $((BUDGET - ($(date +%s) - T0))); }
# cap N RESERVE: N seconds, or less so that RESERVE seconds stay for later stages.
cap() {
    c=$(($(left) - $2))
    [ "$c" -gt "$1" ] && c=$1
    [ "$c" -lt 5 ] && c=5
    echo "$c"
}
section() { printf '\n==== %s ====\n' "$*" >>"$DEV"; }

log "start $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname), budget ${BUDGET}s, OUT=$OUT"

# ---------------------------------------------------------------- device
section "date, host, tools"
{
    date -u
    uname -a
    command -v "$NVCC" && "$NVCC" --version
    command -v "$NCU" && "$NCU" --version
    command -v cuobjdump && cuobjdump --version
    nvidia-smi -L
} >>"$DEV" 2>&1
section "nvidia-smi -q"
timeout 60 nvidia-smi -q >>"$DEV" 2>&1 || log "nvidia-smi -q failed"
section "nvidia-smi -q -d CLOCK (before timing)"
timeout 30 nvidia-smi -q -d CLOCK >>"$DEV" 2>&1
section "nvidia-smi -q -d PERFORMANCE (before timing)"
timeout 30 nvidia-smi -q -d PERFORMANCE >>"$DEV" 2>&1

# ---------------------------------------------------------------- build
H=$WORK/harness
log "compiling harness"
if timeout 180 "$NVCC" -O3 -arch=sm_90 -o "$H" "$HERE/harness/harness.cu" >>"$LOG" 2>&1; then
    log "compiled"
else
    log "COMPILE FAILED: the stages that need the harness are skipped"
    H=""
fi

if [ -n "$H" ]; then
    section "CUDA device properties (harness props)"
    timeout 60 "$H" props >>"$DEV" 2>&1 || log "harness props failed"
    log "cuobjdump -sass"
    timeout 60 cuobjdump -sass -res-usage "$H" >"$OUT/sass.txt" 2>>"$LOG" || log "cuobjdump failed"
    "$H" list >>"$LOG" 2>&1
fi

# ---------------------------------------------------------------- timing
if [ -n "$H" ]; then
    # Clocks, power and temperature every 250 ms while the timing runs.
    nvidia-smi --query-gpu=timestamp,pstate,clocks.sm,clocks.mem,clocks.max.sm,power.draw,temperature.gpu \
        --format=csv -lms 250 >"$OUT/clocks.csv" 2>>"$LOG" &
    SMI=$!
    t=$(cap 200 230)
    log "timing (timeout ${t}s)"
    timeout -k 5 "$t" "$H" time >"$OUT/timing.csv" 2>>"$LOG"
    rc=$?
    if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && [ "$rc" -ne 137 ]; then
        # A case broke the process (and its context): the rest, one process each.
        log "timing rc=$rc: timing the remaining cases one process each"
        "$H" list | awk '{print $1}' | while read -r c; do
            grep -q "^$c," "$OUT/timing.csv" && continue
            [ "$(left)" -lt 260 ] && { log "no time left for $c"; continue; }
            HARNESS_NO_HEADER=1 timeout -k 5 60 "$H" time "=$c" >>"$OUT/timing.csv" 2>>"$LOG" ||
                log "case $c failed on its own too"
        done
    fi
    kill "$SMI" 2>/dev/null
    wait "$SMI" 2>/dev/null
    log "timing rc=$rc, $(($(wc -l <"$OUT/timing.csv") - 1)) rows"
fi
section "nvidia-smi -q -d CLOCK (after timing)"
timeout 30 nvidia-smi -q -d CLOCK >>"$DEV" 2>&1
section "nvidia-smi -q -d PERFORMANCE (after timing)"
timeout 30 nvidia-smi -q -d PERFORMANCE >>"$DEV" 2>&1

# ---------------------------------------------------------------- ncu
# The brief's metrics (names as warpsim --json writes them) are always
# asked for; the extended ones (the rest of warpsim's counters, and
# neighbours) only where `ncu --query-metrics` lists their base name.
CORE="gpc__cycles_elapsed.max sm__cycles_elapsed.avg sm__cycles_elapsed.avg.per_second
sm__cycles_active.sum sm__warps_active.sum smsp__inst_executed.sum smsp__thread_inst_executed.sum
smsp__inst_executed_pipe_fma.sum smsp__inst_executed_pipe_alu.sum smsp__inst_executed_pipe_lsu.sum
l1tex__t_sector_hit_rate.pct l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum
lts__t_sector_hit_rate.pct lts__t_sectors.sum dram__bytes_read.sum dram__bytes_write.sum
sm__warps_active.avg.pct_of_peak_sustained_active gpu__time_duration.sum"
LAUNCH="launch__registers_per_thread launch__shared_mem_per_block_static
launch__shared_mem_per_block_dynamic launch__occupancy_limit_blocks launch__occupancy_limit_registers
launch__occupancy_limit_shared_mem launch__occupancy_limit_warps launch__grid_size launch__block_size"
EXT="sm__ctas_launched.sum smsp__warps_launched.sum smsp__issue_active.sum smsp__cycles_active.sum
smsp__inst_executed_pipe_fp16.sum smsp__inst_executed_pipe_fp64.sum smsp__inst_executed_pipe_xu.sum
smsp__inst_executed_pipe_tensor.sum smsp__inst_executed_pipe_uniform.sum smsp__inst_executed_pipe_cbu.sum
smsp__inst_executed_pipe_adu.sum smsp__inst_executed_op_barrier.sum
smsp__warp_issue_stalled_long_scoreboard.sum smsp__warp_issue_stalled_wait.sum
smsp__warp_issue_stalled_math_pipe_throttle.sum smsp__warp_issue_stalled_barrier.sum
smsp__warp_issue_stalled_lg_throttle.sum smsp__warp_issue_stalled_not_selected.sum
smsp__warp_issue_stalled_drain.sum smsp__warp_issue_stalled_no_instruction.sum
smsp__warps_issue_stalled_long_scoreboard.sum smsp__warps_issue_stalled_wait.sum
smsp__warps_issue_stalled_math_pipe_throttle.sum smsp__warps_issue_stalled_barrier.sum
smsp__warps_issue_stalled_lg_throttle.sum smsp__warps_issue_stalled_not_selected.sum
smsp__warps_issue_stalled_drain.sum smsp__warps_issue_stalled_no_instruction.sum
smsp__warps_issue_stalled_short_scoreboard.sum smsp__warps_issue_stalled_mio_throttle.sum
l1tex__data_pipe_lsu_wavefronts_mem_shared.sum l1tex__data_pipe_lsu_wavefronts_mem_shared_cmd.sum
l1tex__data_pipe_lsu_wavefronts_mem_shared_cmd_read.sum l1tex__data_pipe_lsu_wavefronts_mem_shared_cmd_write.sum
l1tex__t_requests_pipe_lsu_mem_global.sum l1tex__t_sectors_pipe_lsu_mem_global.sum
l1tex__t_requests_pipe_lsu_mem_global_op_st.sum l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
l1tex__t_sectors_pipe_lsu_mem_global_lookup_hit.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum
l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct
lts__t_sectors_op_read.sum lts__t_sectors_op_write.sum lts__t_sectors_op_atom.sum lts__t_sectors_op_red.sum
lts__t_sectors_lookup_hit.sum lts__t_sectors_lookup_miss.sum lts__t_sectors_lookup.sum
lts__t_sectors_srcunit_tex.sum lts__t_sector_op_read_hit_rate.pct lts__t_sector_op_write_hit_rate.pct
dram__sectors_read.sum dram__sectors_write.sum dram__cycles_elapsed.avg.per_second
dram__throughput.avg.pct_of_peak_sustained_elapsed sm__throughput.avg.pct_of_peak_sustained_elapsed
sm__inst_executed.sum"
SECTIONS="--section LaunchStats --section Occupancy"

join() { echo $* | tr ' ' ','; }

if [ -n "$H" ] && command -v "$NCU" >/dev/null 2>&1; then
    log "ncu --query-metrics"
    timeout 90 "$NCU" --query-metrics >"$WORK/query.txt" 2>&1
    awk '{print $1}' "$WORK/query.txt" | sort -u >"$WORK/names.txt"
    n=$(wc -l <"$WORK/names.txt")
    log "query lists $n names"
    KEEP=""
    DROP=""
    for m in $EXT; do
        base=${m%%.*}
        if [ "$n" -lt 100 ] || grep -qx "$base" "$WORK/names.txt"; then
            KEEP="$KEEP $m"
        else
            DROP="$DROP $m"
        fi
    done
    for m in $CORE $LAUNCH; do
        base=${m%%.*}
        grep -qx "$base" "$WORK/names.txt" || log "note: query does not list $base (asked for anyway)"
    done
    log "extended metrics kept:$KEEP"
    log "extended metrics dropped (not in --query-metrics):$DROP"
    section "ncu --query-metrics, the lines naming metrics asked for"
    for m in $CORE $LAUNCH $EXT; do
        grep -E "^${m%%.*}[[:space:]]" "$WORK/query.txt"
    done | sort -u >>"$DEV"
    section "ncu --list-sections"
    timeout 60 "$NCU" --list-sections >>"$DEV" 2>&1

    # run_ncu NAME MODE TIMEOUT METRICS [ARGS...]: profile, then export the
    # raw page to $WORK/NAME.csv; success if it has a data row.
    run_ncu() {
        name=$1 mode=$2 to=$3 metrics=$4
        shift 4
        rm -f "$WORK/$name.ncu-rep" "$WORK/$name.csv"
        log "ncu $mode (timeout ${to}s, $(echo "$metrics" | tr ',' '\n' | wc -l) metrics, $*)"
        timeout -k 10 "$to" "$NCU" "$@" --metrics "$metrics" --clock-control "$CC" --cache-control all \
            -f -o "$WORK/$name" "$H" "$mode" >"$WORK/$name.out" 2>"$WORK/$name.err"
        rc=$?
        cat "$WORK/$name.err" >>"$LOG"
        grep '^==' "$WORK/$name.out" >>"$LOG"
        log "ncu $mode rc=$rc"
        [ -f "$WORK/$name.ncu-rep" ] || return 1
        "$NCU" --import "$WORK/$name.ncu-rep" --csv --page raw --print-units base >"$WORK/$name.csv" 2>>"$LOG"
        rows=$(grep -c '^"[0-9]' "$WORK/$name.csv")
        log "ncu $mode: $rows kernels in the raw page"
        [ "$rows" -gt 0 ]
    }
    # Cases (ncu's ID order), tagged with the report they are in.
    cases() {
        grep -E '^(ncu_id,|[0-9]+,)' "$WORK/$1.out" | awk -v r="$2" -F, \
            'NR == 1 { print "report," $0; next } { print r "," $0 }'
    }

    # Metric sets from the fullest down; a set ncu rejects fails fast (a
    # name or option it does not know), and only then is the next tried.
    # After the first rejection, the extended names that ncu's messages
    # mention are dropped and the full set tried once more.
    ok=""
    CC=base
    for attempt in full pruned core bare minimal noclock; do
        case $attempt in
        full) M=$(join $CORE $KEEP); A=$SECTIONS ;;
        pruned)
            BAD=""
            for m in $KEEP; do
                grep -q "${m%%.*}" "$WORK/complaints.txt" && BAD="$BAD $m"
            done
            # Nothing to drop: worth a retry only if the clocks were the trouble.
            [ -z "$BAD" ] && [ "$CC" = base ] && continue
            log "dropping the names ncu complained about:$BAD"
            K2=""
            for m in $KEEP; do
                case " $BAD " in *" $m "*) ;; *) K2="$K2 $m" ;; esac
            done
            KEEP=$K2
            M=$(join $CORE $KEEP); A=$SECTIONS ;;
        core) M=$(join $CORE); A=$SECTIONS ;;
        bare) M=$(join $CORE $LAUNCH); A="" ;;
        minimal) M=$(join $CORE); A="" ;;
        noclock)   # in case this machine refuses to lock the clocks
            M=$(join $CORE $KEEP); A=$SECTIONS; CC=none ;;
        esac
        t0=$(date +%s)
        # shellcheck disable=SC2086
        if run_ncu ncu_default ncu-default "$(cap 240 90)" "$M" $A; then
            ok=$attempt
            break
        fi
        [ $(($(date +%s) - t0)) -gt 60 ] && break
        cat "$WORK/ncu_default.err" "$WORK/ncu_default.out" 2>/dev/null |
            grep -iE 'error|fail|invalid|unknown|not found|not supported|cannot|could not' |
            awk 'length($0) < 300' >"$WORK/complaints.txt"
        if [ "$CC" = base ] && grep -qi 'clock' "$WORK/complaints.txt"; then
            CC=none
            log "ncu complained about clocks: going on with --clock-control none"
        fi
        log "ncu attempt '$attempt' failed fast: retrying with fewer metrics"
    done
    if [ -n "$ok" ]; then
        cp "$WORK/ncu_default.csv" "$OUT/ncu_raw.csv"
        cases ncu_default ncu_raw >"$OUT/ncu_cases.csv"
        log "ncu default done with the '$ok' metric set, --clock-control $CC"
        # The sweep points, same metric set, in their own report.
        # shellcheck disable=SC2086
        if run_ncu ncu_extra ncu-extra "$(cap 200 25)" "$M" $A; then
            cp "$WORK/ncu_extra.csv" "$OUT/ncu_extra.csv"
            cases ncu_extra ncu_extra | tail -n +2 >>"$OUT/ncu_cases.csv"
        else
            log "ncu extra failed or timed out"
        fi
    else
        log "NCU FAILED with every metric set"
        cp "$WORK/ncu_default.err" "$OUT/ncu_raw.csv" 2>/dev/null
    fi
else
    log "ncu skipped (no harness or no ncu)"
fi

section "nvidia-smi -q -d CLOCK (end)"
timeout 30 nvidia-smi -q -d CLOCK >>"$DEV" 2>&1

# ---------------------------------------------------------------- summary
log "done in $(($(date +%s) - T0))s"
ls -la "$OUT" >&2
if [ -s "$OUT/timing.csv" ]; then
    echo "---- timing (case, median_us, cold_median_us, GBps, ns_per_hop, cycles_per_hop, sm_mhz, check)" >&2
    cut -d, -f1,6,8,12,14,15,17,18 "$OUT/timing.csv" >&2
fi
grep -E 'error|ERROR|FAIL|WARN' "$LOG" | head -40 >&2
rm -rf "$WORK"
exit 0
