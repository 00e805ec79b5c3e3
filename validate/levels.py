#!/usr/bin/env python3
"""Latency per memory level and STREAM bandwidth, per shipped config.

What a microbenchmark paper measures first, taken from the simulator:

  * pointer-chase latency (cycles per dependent hop) at a footprint inside
    L1, inside L2 and far beyond L2.  Each figure is the slope between two
    hop counts that both lie past the first, cold pass, so cold misses and
    the launch do not enter it (for the beyond-L2 footprint every hop is a
    miss anyway);
  * STREAM copy and triad bandwidth: DRAM bytes moved over the kernel's
    time (Nsight's dram__bytes.sum.per_second), and that as a share of the
    config's DRAM peak.  Arrays are at least four L2s long.  This is what
    BabelStream's named bytes over time converge to in its steady state, where
    each iteration also pays the write-backs the previous one left dirty in
    L2; a single simulated kernel leaves up to an L2 of them unwritten, so
    named bytes over one kernel's time would overstate it.

Usage: validate/levels.py [--warpsim build/warpsim] [--gpu NAME]... [--json]
Prints a markdown table; --json prints the same figures as JSON.  Every
figure is simulated, not measured: compare them with the published figures
each config cites.
"""
import argparse
import json
import re
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CONFIGS = ["gtx480", "titanx", "v100", "v100-sxm2", "a100", "h100"]
KIB = 1024


def run_json(warpsim, gpu, workload, params):
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        cmd = [warpsim, "run", "--gpu", gpu, workload, "--json", out.name]
        for k, v in params.items():
            cmd += ["-p", "%s=%d" % (k, v)]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        with open(out.name) as f:
            return json.load(f)


UNITS = {"B": 1, "KiB": KIB, "MiB": KIB ** 2, "GiB": KIB ** 3,
         "GB/s": 1e9, "MHz": 1e6}


def config_show(warpsim, gpu):
    """The effective config as `config show` prints it: its two-level
    YAML, values with their units turned into numbers."""
    text = subprocess.run([warpsim, "config", "show", "--gpu", gpu],
                          check=True, capture_output=True, text=True).stdout
    cfg, section = {}, None
    for line in text.splitlines():
        line = line.split(" #")[0].rstrip()
        m = re.match(r"^(\s*)([A-Za-z_0-9]+):\s*(.*)$", line)
        if not m or line.lstrip().startswith("#"):
            continue
        indent, key, val = m.groups()
        if not indent:
            section = key
            if val:
                cfg[key] = val.strip('"')
            else:
                cfg[key] = {}
        elif len(indent) == 2 and isinstance(cfg.get(section), dict) and val:
            u = re.match(r"^([0-9.]+)\s*([A-Za-z/]*)$", val)
            cfg[section][key] = (float(u.group(1)) * UNITS.get(u.group(2), 1)
                                 if u else val)
    return cfg


def kernel_cycles(doc):
    return doc["kernels"][0]["counters"]["gpc__cycles_elapsed.max"]["value"]


def chase_latency(warpsim, gpu, footprint, line=128, far=False):
    """Cycles per hop between two hop counts past the cold pass.  far: hops
    1 MiB + a line apart, so that each lands in another DRAM row, as a
    random chase's do (a chase from line to next line hits open rows)."""
    wl = os.path.join(ROOT, "traces/kernels/pchase/workload.yaml")
    elems = footprint // 4
    stride = ((1 << 20) + line) // 4 if far else line // 4
    lines = max(1, footprint // line)
    h1 = lines + 256 if footprint <= 64 * 1024 * 1024 else 256
    h2 = h1 + 2048
    c1 = kernel_cycles(run_json(warpsim, gpu, wl,
                                {"hops": h1, "elems": elems, "stride": stride}))
    c2 = kernel_cycles(run_json(warpsim, gpu, wl,
                                {"hops": h2, "elems": elems, "stride": stride}))
    return (c2 - c1) / (h2 - h1)


def stream_gbps(warpsim, gpu, name, n):
    wl = os.path.join(ROOT, "traces/kernels/stream/%s.yaml" % name)
    doc = run_json(warpsim, gpu, wl, {"n": n})
    return doc["kernels"][0]["derived"]["dram_effective_gbps"]


def measure(warpsim, gpu):
    cfg = config_show(warpsim, gpu)
    l1 = int(cfg["l1"]["size"])
    l2 = int(cfg["l2"]["size"])
    peak = cfg["dram"]["bandwidth"] / 1e9
    n = 1 << 20
    while 4 * n < 4 * l2:
        n *= 2
    row = {"gpu": gpu, "name": cfg["name"], "dram_peak_gbps": peak}
    row["chase_l1"] = chase_latency(warpsim, gpu, max(4 * KIB, l1 // 2))
    row["chase_l2"] = chase_latency(warpsim, gpu, max(l1 * 4, l2 // 2))
    row["chase_dram"] = chase_latency(warpsim, gpu, 8 * l2, far=True)
    row["stream_n"] = n
    row["copy_gbps"] = stream_gbps(warpsim, gpu, "copy", n)
    row["triad_gbps"] = stream_gbps(warpsim, gpu, "triad", n)
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--warpsim", default=os.path.join(ROOT, "build/warpsim"))
    ap.add_argument("--gpu", action="append")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    rows = [measure(a.warpsim, g) for g in (a.gpu or CONFIGS)]
    if a.json:
        json.dump(rows, sys.stdout, indent=1)
        print()
        return
    print("| config | chase L1 | chase L2 | chase DRAM | copy GB/s | "
          "triad GB/s | peak GB/s |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        p = r["dram_peak_gbps"]
        print("| %s | %.1f | %.1f | %.1f | %.0f (%.1f %%) | %.0f (%.1f %%) "
              "| %.0f |" % (r["gpu"], r["chase_l1"], r["chase_l2"],
                            r["chase_dram"], r["copy_gbps"],
                            100 * r["copy_gbps"] / p, r["triad_gbps"],
                            100 * r["triad_gbps"] / p, p))


if __name__ == "__main__":
    main()
