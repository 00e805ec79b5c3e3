#!/usr/bin/env python3
"""Simulated against measured on the H100 microbenchmarks themselves.

validate/vs_measured.py scores warpsim on the project's 27 timed kernels;
this runs, from their own SASS, the microbenchmarks the H100 config's
memory numbers are calibrated on, so that a change to the memory model is
judged on them first (the issue's rule: calibrate on micro/ and loaded/,
score on the timed kernels):

  stream  BabelStream FP32 copy, triad and dot in grid-stride form
          (validate/measured/h100/micro/stream.csv, n = 2^25, 256 threads,
          1, 2, 4 and 8 blocks per SM = 8 to 64 warps per SM): bandwidth,
          and the time per loop trip, which with one trip's loads in
          flight per warp is the loaded round trip plus a few issue cycles;
  chase   many independent random chases over 2 GiB
          (validate/measured/h100/loaded/mlp.csv "dram" rows, one chain
          per lane, 1 or 32 lanes per warp): the time per hop (lanes = 1),
          per round of 32 hops at once (lanes = 32), and sector bandwidth.

    validate/micro_sim/vs_micro.py [--quick] WARPSIM [WARPSIM...]

Run from the source root.  Prints markdown tables; sim/meas is simulated
over measured time (below 1: the simulation is fast).
"""
import argparse
import csv
import json
import os
import subprocess
import tempfile

HERE = "validate/micro_sim"
MEAS = "validate/measured/h100"
N = 33554432
MHZ = 1980.0
BYTES = {"copy": 2, "triad": 3, "dot": 2}   # arrays moved (BabelStream)


SETS = []


def sim(ws, yaml, params, tmp):
    out = os.path.join(tmp, "run.json")
    cmd = [ws, "run", "--gpu", "h100", "--json", out]
    for kv in SETS:
        cmd += ["--set", kv]
    for k, v in params.items():
        cmd += ["-p", "%s=%s" % (k, v)]
    r = subprocess.run(cmd + [os.path.join(HERE, yaml)],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       text=True)
    if r.returncode != 0:
        raise SystemExit("%s: %s" % (yaml, r.stderr.strip()))
    with open(out) as fp:
        k = json.load(fp)["kernels"][0]
    c = {n: v["value"] for n, v in k["counters"].items()}
    loads = c.get("ws__mem_loads.sum", 0)
    lat = c["ws__mem_load_latency.sum"] / loads if loads else 0.0
    return k["derived"]["time_us"], lat, c


def stream_rows(quick):
    with open(os.path.join(MEAS, "micro/stream.csv")) as fp:
        rows = [r for r in csv.DictReader(l for l in fp if not l.startswith("#"))]
    meas = {}
    for r in rows:
        if (r["prec"] == "fp32" and int(r["n"]) == N
                and r["variant"] == "gridstride" and r["block"] == "256"):
            meas[(r["kernel"], int(r["grid_mult"]))] = float(r["median_us"])
    mults = (1, 8) if quick else (1, 2, 4, 8)
    return [(k, m, meas[(k, m)]) for k in ("copy", "dot", "triad")
            for m in mults if (k, m) in meas]


def chase_rows(quick):
    with open(os.path.join(MEAS, "loaded/mlp.csv")) as fp:
        rows = list(csv.DictReader(fp))
    want = {(1, 16), (1, 31), (32, 1), (32, 8)} if quick else None
    out = []
    for r in rows:
        if (r["chain"] != "dram" or r["sms"] != "132"
                or r["l2_fetch_gran"] != "64" or r["chains_per_thread"] != "1"
                or r["blocks_per_sm"] != "1"):
            continue
        lanes, warps = int(r["lanes"]), int(r["gen_warps_per_sm"])
        if lanes not in (1, 32) or warps > 16 and lanes == 32:
            continue
        if want is not None and (lanes, warps) not in want:
            continue
        out.append((lanes, warps, float(r["gen_round_p50"]),
                    float(r["bw_sector_GBps"])))
    return sorted(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true",
                    help="two points per curve instead of every one")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="a config override for every run (repeatable)")
    ap.add_argument("--only", choices=("stream", "chase"),
                    help="one of the two sets")
    ap.add_argument("warpsim", nargs="+")
    a = ap.parse_args()
    SETS.extend(a.set)
    names = [os.path.basename(os.path.dirname(os.path.abspath(w))) or w
             for w in a.warpsim]
    logs = {n: [] for n in names}
    with tempfile.TemporaryDirectory() as tmp:
        print("| stream (FP32, grid-stride) | warps/SM | measured GB/s | "
              "measured cycles/trip | " + " | ".join(
                  "%s GB/s | cycles/trip (load latency) | sim/meas" % n
                  for n in names) + " |")
        print("|---|--:|--:|--:|" + "--:|--:|--:|" * len(names))
        for kern, mult, meas_us in ([] if a.only == "chase"
                                    else stream_rows(a.quick)):
            trips = N / (132 * mult * 256)
            gb = BYTES[kern] * 4 * N / meas_us / 1e3
            cells = []
            for n, w in zip(names, a.warpsim):
                us, lat, _ = sim(w, "g%s.yaml" % kern,
                                 {"blocks": 132 * mult}, tmp)
                logs[n].append(us / meas_us)
                cells.append("%.0f | %.0f (%.0f) | %.2f" % (
                    BYTES[kern] * 4 * N / us / 1e3, us * MHZ / trips, lat,
                    us / meas_us))
            print("| %s | %d | %.0f | %.0f | %s |" % (
                kern, 8 * mult, gb, meas_us * MHZ / trips, " | ".join(cells)))
        print()
        print("| chase over 2 GiB | lanes | warps/SM | measured cycles per "
              "hop or round | measured sector GB/s | " + " | ".join(
                  "%s cycles | sector GB/s | sim/meas" % n for n in names)
              + " |")
        print("|---|--:|--:|--:|--:|" + "--:|--:|--:|" * len(names))
        for lanes, warps, round_p50, bw in ([] if a.only == "stream"
                                            else chase_rows(a.quick)):
            cells = []
            for n, w in zip(names, a.warpsim):
                us, lat, c = sim(w, "chase.yaml",
                                 {"warps": warps, "lanes": lanes}, tmp)
                sbw = c["lts__t_sectors_op_read.sum"] * 32 / us / 1e3
                logs[n].append(lat / round_p50)
                cells.append("%.0f | %.0f | %.2f" % (lat, sbw,
                                                      lat / round_p50))
            print("| dram | %d | %d | %.0f | %.0f | %s |" % (
                lanes, warps, round_p50, bw, " | ".join(cells)))
    print()
    for n in names:
        r = logs[n]
        print("%s: %d points, mean |sim/meas - 1| %.1f %%, worst %.2f" % (
            n, len(r), 100 * sum(abs(x - 1) for x in r) / len(r),
            min(r, key=lambda x: -abs(x - 1))))


if __name__ == "__main__":
    main()
