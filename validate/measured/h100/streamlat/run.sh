#!/bin/sh
# run.sh: the device script for streamlat.cu (see its top comment).  NOT YET
# RUN: written in a session without a device; the next session lent an H100
# runs it and commits $OUT here with a README of what it found.
#
#   sh validate/measured/h100/streamlat/run.sh   (needs nvcc, nvidia-smi;
#                                                 ncu and cuobjdump optional)
#
# Writes to $OUT (./out beside this script if unset): split.csv, stream.csv,
# streamlat.csv, ncu.csv (when ncu is there), device.txt, log.txt (with the
# SASS of the stream kernels, to check the timed loops are the plain ones).
# Expected device time: about 40 s for the benchmarks, 60 s for ncu.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$HERE/out}
mkdir -p "$OUT"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/streamlat.XXXXXX")
LOG=$OUT/log.txt
DEV=$OUT/device.txt
: >"$LOG"
: >"$DEV"
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null 2>&1 || NVCC=/usr/local/cuda/bin/nvcc

{
    date -u
    "$NVCC" --version
    nvidia-smi -L
    timeout 60 nvidia-smi -q
} >>"$DEV" 2>&1

B=$WORK/streamlat
if ! timeout 180 "$NVCC" -O3 -arch=sm_90 -o "$B" "$HERE/streamlat.cu" >>"$LOG" 2>&1; then
    echo "COMPILE FAILED" | tee -a "$LOG" >&2
    rm -rf "$WORK"
    exit 1
fi
if command -v cuobjdump >/dev/null 2>&1; then
    cuobjdump -sass "$B" | grep -v '^\s*/\* 0x' >>"$LOG" 2>&1
fi

timeout -k 5 240 "$B" run "$OUT" 2>&1 | tee -a "$LOG"

if command -v ncu >/dev/null 2>&1; then
    timeout -k 5 180 ncu --csv --page raw --print-units base \
        --clock-control none --cache-control none -k regex:sl_kernel -c 8 \
        --metrics dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,sm__cycles_elapsed.avg,gpu__time_duration.sum,lts__t_sector_hit_rate.pct \
        "$B" run "$WORK" stream >"$OUT/ncu.csv" 2>>"$LOG" || echo "ncu failed" >>"$LOG"
fi
nvidia-smi -q -d CLOCK >>"$DEV" 2>&1
sed -i -e 's/\(Serial Number\|GPU UUID\|GPU PDI\).*/\1 : [removed]/' "$DEV"
rm -rf "$WORK"
