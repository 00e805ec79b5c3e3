#!/usr/bin/env python3
"""STREAM copy and triad stay within 5 % of the published figures.

The DRAM model (sim/mem/ws_dram.h) takes its timings from DRAM data
(DRAMsim3's HBM2, GPGPU-Sim's GDDR5 set) and its write batching from
GPGPU-Sim's default queue watermarks; nothing in it is fitted to these
figures.  This test holds the result to them: DRAM bytes per second of
traces/kernels/stream/{copy,triad}.yaml against BabelStream's best figure
on the same GPU.  BabelStream's figures are FP64 (2^25 or more elements);
the bundled kernels are FP32 one-element-per-thread, which on V100 and
A100 keep enough bytes in flight for the difference not to matter.  On
H100 it does: there the project's own FP32 measurement of this kernel is
lower (2390 / 2770 GB/s) than FP64's, so there the published FP64 figure
is a ceiling, not a target: an H100 row fails only when the simulation is
more than 5 % above it (the simulation against this kernel's own H100
measurement is validate/vs_measured.py's business).  Arrays are larger
than L2 (a larger n moves the figures by 1-2 %, and costs minutes).

    usage: stream_published.py WARPSIM   (run from the source root)
"""
import csv
import json
import os
import subprocess
import sys
import tempfile

# The array size per config; the published figures are the study's table
# (validate/studies/levels_published.csv), one list for both.
SIZES = {"v100": 1 << 22, "a100": 1 << 24, "h100": 1 << 24}
PUBLISHED_CSV = "validate/studies/levels_published.csv"
TOLERANCE = 0.05
# GPUs whose published figure is FP64 code's, above what the FP32 kernel
# measures on the part: checked as a ceiling only.
CEILING_ONLY = {"h100"}


def simulated(ws, gpu, kernel, n, tmp):
    out = os.path.join(tmp, "run.json")
    subprocess.run([ws, "run", "--gpu", gpu, "-p", "n=%d" % n, "--json", out,
                    "traces/kernels/stream/%s.yaml" % kernel], check=True,
                   stdout=subprocess.DEVNULL)
    with open(out) as fp:
        return json.load(fp)["kernels"][0]["derived"]["dram_effective_gbps"]


def published():
    """[(gpu, n, kernel, GB/s, source)] from the study's table."""
    with open(PUBLISHED_CSV) as fp:
        return [(r["gpu"], SIZES[r["gpu"]], r["kernel"], float(r["gbps"]),
                 r["source"]) for r in csv.DictReader(fp)]


def main():
    ws = sys.argv[1]
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for gpu, n, kernel, gbps, source in published():
            sim = simulated(ws, gpu, kernel, n, tmp)
            off = sim / gbps - 1
            ok = (off <= TOLERANCE if gpu in CEILING_ONLY
                  else abs(off) <= TOLERANCE)
            failures += not ok
            print("%s %s %s: simulated %.0f GB/s, published %.0f (%+.1f %%; "
                  "%s)" % ("ok" if ok else "FAIL", gpu, kernel, sim, gbps,
                           100 * off, source))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
