#!/usr/bin/env python3
"""TMM's one scale factor per GPU config, from a microbenchmark.

Ma, Chamberlain & Agrawal's eq 8 is a proportionality: its terms count
cycles of an ideal core that runs one thread instruction per cycle.  The
factor that turns them into a GPU's cycles is measured here, once per
built-in config, on the FP32 throughput microbenchmark
traces/kernels/fma/workload.yaml (four independent FFMA chains per thread:
the cores are the only limit, the regime where eq 8's work term T1/P is
the whole story): scale = simulated cycles / eq 8.  It is never fitted to
a kernel it then predicts.  The value goes into the config as
model.tmm_scale, with a comment naming this script.

    validate/calibrate_tmm.py WARPSIM           print each config's factor
    validate/calibrate_tmm.py WARPSIM --check   fail if a config's
                                                model.tmm_scale differs
Run from the source root.
"""
import json
import os
import subprocess
import sys
import tempfile

BENCH = "traces/kernels/fma/workload.yaml"


def configs(ws):
    out = subprocess.run([ws, "config", "list"], check=True,
                         capture_output=True, text=True).stdout
    return [line.split()[0] for line in out.splitlines() if line.strip()]


def measure(ws, gpu, tmp):
    path = os.path.join(tmp, "fma.json")
    subprocess.run([ws, "run", "--gpu", gpu, "--set", "model.tmm_scale=1",
                    "--json", path, BENCH], check=True,
                   stdout=subprocess.DEVNULL)
    with open(path) as fp:
        k = json.load(fp)["kernels"][0]
    sim = k["counters"]["gpc__cycles_elapsed.max"]["value"]
    tmm = [m for m in k["models"] if m["name"] == "tmm"][0]
    return sim / tmm["intermediates"]["eq8"]


def configured(ws, gpu):
    out = subprocess.run([ws, "config", "show", "--gpu", gpu], check=True,
                         capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line.strip().startswith("tmm_scale:"):
            return float(line.split(":", 1)[1])
    return None


def main():
    ws = sys.argv[1]
    check = "--check" in sys.argv[2:]
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for gpu in configs(ws):
            scale = float("%.3g" % measure(ws, gpu, tmp))
            if not check:
                print("%-10s model.tmm_scale: %g" % (gpu, scale))
                continue
            have = configured(ws, gpu)
            ok = have is not None and abs(have - scale) <= 1e-9 * scale
            print("%s %s: configured %s, measured %g" %
                  ("ok" if ok else "FAIL", gpu, have, scale))
            bad += not ok
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
