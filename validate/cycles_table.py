#!/usr/bin/env python3
"""Simulated cycles of every bundled kernel, side by side for several builds.

A change that moves numbers on purpose shows what it moved with this table:
each bundled kernel (the Accel-Sim traces, and every workload at its
default parameters, not the small ones the digest test uses) on one config,
its total cycles under each build given, and the change from the first.

    validate/cycles_table.py [--gpu v100] WARPSIM [WARPSIM...]
Run from the source root.  Prints a markdown table.
"""
import argparse
import json
import os
import subprocess
import tempfile

KERNELS = [
    ("vecadd", ["traces/accelsim/vecadd"]),
    ("multi", ["traces/accelsim/multi"]),
    ("legacy", ["traces/accelsim/legacy"]),
    ("saxpy_stride8", ["traces/accelsim/saxpy_stride8"]),
    ("hopper", ["traces/accelsim/hopper"]),
    ("saxpy", ["traces/kernels/saxpy/workload.yaml"]),
    ("copy", ["traces/kernels/stream/copy.yaml"]),
    ("triad", ["traces/kernels/stream/triad.yaml"]),
    ("pchase", ["traces/kernels/pchase/workload.yaml"]),
    ("reduce", ["traces/kernels/reduce/workload.yaml"]),
    ("apsp", ["traces/kernels/apsp/workload.yaml"]),
    ("fma", ["traces/kernels/fma/workload.yaml"]),
] + [("mm_" + v, ["traces/kernels/matmul/%s.yaml" % v])
     for v in ("baseline", "tiling", "coalescing", "nobankconflict",
               "computeopt", "unroll", "prefetch")]


def cycles(ws, gpu, args):
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        r = subprocess.run([ws, "run", "--gpu", gpu, "--json", out.name]
                           + args, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True)
        if r.returncode != 0:
            return None
        with open(out.name) as f:
            return json.load(f)["total_cycles"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gpu", default="v100")
    ap.add_argument("warpsim", nargs="+")
    a = ap.parse_args()
    head = "| kernel | " + " | ".join(os.path.basename(os.path.dirname(
        os.path.abspath(w))) or w for w in a.warpsim) + " |"
    print(head)
    print("|---" * (1 + len(a.warpsim)) + "|")
    for name, args in KERNELS:
        row = [cycles(w, a.gpu, args) for w in a.warpsim]
        cells = []
        for i, c in enumerate(row):
            if c is None:
                cells.append("error")
            elif i == 0 or not row[0]:
                cells.append("%d" % c)
            else:
                cells.append("%d (%+.1f %%)" % (c, 100.0 * (c - row[0])
                                                / row[0]))
        print("| %s | %s |" % (name, " | ".join(cells)))


if __name__ == "__main__":
    main()
