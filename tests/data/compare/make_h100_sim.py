#!/usr/bin/env python3
"""Writes h100_sim.json: warpsim's simulation of the launches measured in
validate/measured/h100/ncu_raw.csv, one 'warpsim run --gpu h100 --json' per
launch, joined into one run document in the CSV's launch order.

    python3 tests/data/compare/make_h100_sim.py WARPSIM [OUT]

Run from the source root (OUT defaults to tests/data/compare/h100_sim.json).
Each case of validate/measured/h100/ncu_cases.csv (report ncu_raw) runs its
kernel's workload with the case's parameters and, where the kernel has one,
its sm_90 listing (the code the H100 ran); vecadd at n=4010 is the bundled
Accel-Sim trace traces/accelsim/vecadd.  vecadd at n=1048576 has neither a
workload nor a bundled trace (tests/bench/gen_vecadd.c writes one at bench
time), so it is left out: 'compare' lists it as measured only.  Each launch
is simulated on its own, from empty caches, as ncu measured it
(--cache-control all).  The "models" of each kernel are dropped to keep the
file small: compare does not read them.  Ids are renumbered 1..N in order;
"total_cycles" is the sum.
"""
import csv
import json
import os
import subprocess
import sys
import tempfile

KERNELS = "traces/kernels"
WORKLOADS = {
    "apsp": ("apsp/workload.yaml", "apsp/apsp.sm_90.sass"),
    "fma": ("fma/workload.yaml", None),
    "pchase": ("pchase/workload.yaml", "pchase/pchase.sm_90.sass"),
    "reduce": ("reduce/workload.yaml", "reduce/reduce.sm_90.sass"),
    "saxpy": ("saxpy/workload.yaml", "saxpy/saxpy.sm_90.sass"),
    "copy": ("stream/copy.yaml", "stream/stream.sm_90.sass"),
    "triad": ("stream/triad.yaml", "stream/stream.sm_90.sass"),
}
for v in ("baseline", "tiling", "coalescing", "nobankconflict", "computeopt",
          "unroll", "prefetch"):
    WORKLOADS[v] = ("matmul/%s.yaml" % v, "matmul/matmul.sm_90.sass")


def command(ws, case, out):
    cmd = [ws, "run", "--gpu", "h100", "--json", out]
    if case["kernel"] == "vecAdd":
        if case["params"] != "n=4010 threads=128":
            return None
        return cmd + ["traces/accelsim/vecadd"]
    workload, listing = WORKLOADS[case["kernel"]]
    for p in case["params"].split():
        cmd += ["-p", p]
    if listing:
        cmd += ["--listing", os.path.join(KERNELS, listing)]
    return cmd + [os.path.join(KERNELS, workload)]


def main():
    ws = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else \
        "tests/data/compare/h100_sim.json"
    with open("validate/measured/h100/ncu_cases.csv") as fp:
        cases = [c for c in csv.DictReader(fp) if c["report"] == "ncu_raw"]
    doc = None
    with tempfile.TemporaryDirectory() as tmp:
        for case in cases:
            path = os.path.join(tmp, "run.json")
            cmd = command(ws, case, path)
            if cmd is None:
                print("left out: %s (no trace)" % case["case"])
                continue
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
            with open(path) as fp:
                run = json.load(fp)
            kernels = run["kernels"]
            if doc is None:
                doc = dict(run)
                doc["input"] = "validate/measured/h100 (ncu_raw cases)"
                doc["kernels"] = []
                doc["total_cycles"] = 0
            for k in kernels:
                k.pop("models", None)
                k["id"] = len(doc["kernels"]) + 1
                doc["kernels"].append(k)
                doc["total_cycles"] += k["counters"][
                    "gpc__cycles_elapsed.max"]["value"]
            print("%-24s %s" % (case["case"], kernels[0]["name"]))
    with open(out, "w") as fp:
        json.dump(doc, fp, indent=2)
        fp.write("\n")


if __name__ == "__main__":
    main()
