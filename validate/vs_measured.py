#!/usr/bin/env python3
"""Simulated against measured: the bundled kernels timed on a real GPU.

validate/measured/<gpu>/timing.csv holds each case's workload, parameters
and measured times (see that folder's README).  This runs every case that
fits a time budget through each warpsim given (a build before and after a
change, say) on the matching config and prints the simulated kernel time
beside the measured one.  Measured: the cold median (L2 flushed first, as
a simulation starts) where the harness took it, else the warm median; the
"empty" case's time, a launch with no work, is subtracted as the part of
an event-timed launch no simulation has.  Cases whose kernel exceeds
--max-insts warp instructions are skipped (the largest take minutes).

    validate/vs_measured.py [--gpu h100] [--max-insts N] WARPSIM [WARPSIM...]
Run from the source root.  Prints a markdown table, then per build the
mean absolute error and the geometric mean of simulated / measured.
"""
import argparse
import csv
import json
import math
import os
import subprocess
import tempfile

WORKLOADS = {
    "apsp": "traces/kernels/apsp/workload.yaml",
    "fma": "traces/kernels/fma/workload.yaml",
    "pchase": "traces/kernels/pchase/workload.yaml",
    "reduce": "traces/kernels/reduce/workload.yaml",
    "saxpy": "traces/kernels/saxpy/workload.yaml",
    "copy": "traces/kernels/stream/copy.yaml",
    "triad": "traces/kernels/stream/triad.yaml",
    "vecAdd": "traces/kernels/vecadd/workload.yaml",
}
for v in ("baseline", "tiling", "coalescing", "nobankconflict", "computeopt",
          "unroll", "prefetch"):
    WORKLOADS[v] = "traces/kernels/matmul/%s.yaml" % v


def sm90_listing(path):
    """The workload's sm_90 listing, where it has one: what the H100 ran
    (validate/measured/h100/README.md, "Listings"); None: its default."""
    if not os.path.exists(path):
        return None
    with open(path) as fp:
        for line in fp:
            if line.startswith("listing:"):
                name = line.split(":", 1)[1].split("#")[0].strip()
                alt = os.path.join(os.path.dirname(path),
                                   name.replace(".sm_80.", ".sm_90."))
                return alt if alt != os.path.join(os.path.dirname(path),
                                                  name) and os.path.exists(alt) else None
    return None


def simulate(ws, gpu, path, params, max_insts, tmp):
    out = os.path.join(tmp, "run.json")
    cmd = [ws, "run", "--gpu", gpu, "--json", out,
           "--max-insts", str(max_insts)]
    alt = sm90_listing(path) if gpu == "h100" else None
    if alt:
        cmd += ["--listing", alt]
    for p in params.split():
        cmd += ["-p", p]
    r = subprocess.run(cmd + [path], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        return None
    with open(out) as fp:
        return json.load(fp)["kernels"][0]["derived"]["time_us"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gpu", default="h100")
    ap.add_argument("--max-insts", type=int, default=20000000)
    ap.add_argument("warpsim", nargs="+")
    a = ap.parse_args()
    with open("validate/measured/%s/timing.csv" % a.gpu) as fp:
        rows = list(csv.DictReader(fp))
    empty = next((float(r["median_us"]) for r in rows if r["case"] == "empty"),
                 0.0)
    names = [os.path.basename(os.path.dirname(os.path.abspath(w))) or w
             for w in a.warpsim]
    print("| case | measured us | " + " | ".join("%s us (sim/meas)" % n
                                                for n in names) + " |")
    print("|---|---" + "|---" * len(names) + "|")
    logs = [[] for _ in names]
    with tempfile.TemporaryDirectory() as tmp:
        for r in rows:
            path = WORKLOADS.get(r["kernel"])
            if not path:
                continue
            meas = float(r["cold_median_us"] or r["median_us"]) - empty
            sims = [simulate(w, a.gpu, path, r["params"], a.max_insts, tmp)
                    for w in a.warpsim]
            if any(s is None for s in sims) or meas <= 0:
                continue
            cells = []
            for i, s in enumerate(sims):
                logs[i].append(math.log(s / meas))
                cells.append("%.2f (%.2f)" % (s, s / meas))
            print("| %s | %.2f | %s |" % (r["case"], meas, " | ".join(cells)))
    print()
    for n, lg in zip(names, logs):
        if lg:
            mae = sum(abs(math.exp(x) - 1) for x in lg) / len(lg)
            gm = math.exp(sum(lg) / len(lg))
            print("%s: %d cases, mean |sim/meas - 1| %.1f %%, geometric mean "
                  "sim/meas %.3f" % (n, len(lg), 100 * mae, gm))


if __name__ == "__main__":
    main()
