#!/usr/bin/env python3
"""No simulated kernel may finish faster than its roofline bound.

Runs every bundled kernel (the inputs of json_digests.sh) on every built-in
GPU config with --json and checks, kernel by kernel, that the simulated
cycles are at least the roofline model's lower bound.  The bound counts
only work the simulator cannot avoid (FP32 operations at the FP32 units'
peak, compulsory DRAM reads at DRAM bandwidth, distinct sectors through
L2 at L2 bandwidth), so a failure is a bug in the timing model or in the
bound, never a tolerance to widen.

    usage: roofline_bound.py WARPSIM   (run from the source root)
"""
import json
import os
import subprocess
import sys
import tempfile

from bundled_runs import CONFIGS, inputs

# Hypothetical hardware where one roof dominates: the L2 and clock
# extremes once let a kernel end before its L2 slices had taken in its last
# stores, below the L2 roof.
EXTREMES = [
    ("vecadd, slow L2", "v100",
     ["--set", "l2.bandwidth=10GB/s", "traces/accelsim/vecadd"]),
    ("vecadd, 100 GHz", "v100",
     ["--set", "clock.core=100000MHz", "--set", "dram.banked=false",
      "traces/accelsim/vecadd"]),
    ("copy, slow L2", "a100",
     ["--set", "l2.bandwidth=1GB/s", "-p", "n=8192",
      "traces/kernels/stream/copy.yaml"]),
    ("triad, slow DRAM", "h100",
     ["--set", "dram.bandwidth=1GB/s", "--set", "dram.t_refi=0ns",
      "-p", "n=8192",
      "traces/kernels/stream/triad.yaml"]),
]


def main():
    ws = sys.argv[1]
    failures = checked = 0
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "run.json")
        runs = [(name, gpu, args) for name, args in inputs() for gpu in CONFIGS]
        runs += EXTREMES
        for name, gpu, args in runs:
            cmd = [ws, "run", "--gpu", gpu, "--json", out] + args
            res = subprocess.run(cmd, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE, text=True)
            if res.returncode != 0:
                print("FAIL %s on %s: %s" % (name, gpu, res.stderr.strip()))
                failures += 1
                continue
            with open(out) as fp:
                doc = json.load(fp)
            for k in doc["kernels"]:
                sim = k["counters"]["gpc__cycles_elapsed.max"]["value"]
                roof = [m for m in k["models"] if m["name"] == "roofline"]
                if not roof or not roof[0]["applies"]:
                    continue
                checked += 1
                if sim + 1e-9 < roof[0]["cycles"]:
                    print("FAIL %s on %s, kernel %d: %d simulated cycles "
                          "beat the roofline bound %.1f (%s)"
                          % (name, gpu, k["id"], sim, roof[0]["cycles"],
                             roof[0]["regime"]))
                    failures += 1
    if failures:
        return 1
    print("ok roofline_bound (%d kernels checked)" % checked)
    return 0


if __name__ == "__main__":
    sys.exit(main())
