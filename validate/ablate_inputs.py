#!/usr/bin/env python3
"""Which corrected model input moves which prediction: an ablation.

For a few runs the scoreboard's verdict turns on, each model is evaluated
with the inputs as warpsim now derives them (as their papers define them),
then with one input at a time put back to what warpsim 0.1 used:

  bytes      Load_bytes_per_warp: bytes requested by loads (lanes x width)
             instead of bytes moved by loads and stores (sectors x 32 B)
  unit       #Uncoal_per_mw / #Coal_per_mw, and the departure delays the
             probe measures, in 32-byte sectors instead of the papers'
             128-byte blocks
  departure  departure delays from the SM port's bandwidth (an [EST]
             value) instead of the simulator probe's measurement
  issue      one Issue_cycles (the FP32 unit's interval / sub-cores) for
             the SM and for one warp alike
  T          TMM's threads per core from the CTAs the grid puts on an SM,
             beside f_sched (a sub-wave launch charged twice)
  granules   TMM's eq 4 without register and shared-memory granules

Each through `warpsim model NAME --params`, against the simulated cycles of
`warpsim run`.  Prints a markdown table of model / simulation - 1.

    validate/ablate_inputs.py WARPSIM      (from the source root)
"""
import json
import math
import os
import subprocess
import sys
import tempfile

CASES = [
    ("saxpy_paper s=8, 32 warps/SM, TITAN X", "titanx",
     ["-p", "stride=8", "-p", "threads=1024", "-p", "n=24576",
      "traces/kernels/saxpy/paper.yaml"]),
    ("saxpy s=16, 32 warps/SM, TITAN X", "titanx",
     ["-p", "stride=16", "-p", "threads=1024", "-p", "n=24576",
      "traces/kernels/saxpy/workload.yaml"]),
    ("STREAM copy 4M, V100", "v100",
     ["-p", "n=4194304", "traces/kernels/stream/copy.yaml"]),
    ("saxpy, one 32-thread CTA per SM, TITAN X", "titanx",
     ["-p", "threads=32", "-p", "n=768",
      "traces/kernels/saxpy/workload.yaml"]),
    ("matmul prefetch n=128, V100", "v100",
     ["-p", "n=128", "traces/kernels/matmul/prefetch.yaml"]),
    ("APSP n=256 S_D=16 T=256, GTX 480", "gtx480",
     ["-p", "n=256", "-p", "sd=16", "-p", "threads=256",
      "traces/kernels/apsp/workload.yaml"]),
]


def run_json(ws, args, tmp, cmd="run"):
    out = os.path.join(tmp, "o.json")
    # model NAME comes before its options
    head = [cmd] + (args[:1] if cmd == "model" else [])
    rest = args[1:] if cmd == "model" else args
    subprocess.run([ws] + head + ["--json", out] + rest, check=True,
                   stdout=subprocess.DEVNULL)
    with open(out) as fp:
        return json.load(fp)


def config(ws, gpu):
    text = subprocess.run([ws, "config", "show", "--gpu", gpu], check=True,
                          capture_output=True, text=True).stdout
    vals, path = {}, []
    for line in text.splitlines():
        if line.startswith("#") or not line.strip():
            continue
        depth = (len(line) - len(line.lstrip())) // 2
        key, _, val = line.strip().partition(":")
        path = path[:depth] + [key]
        vals[".".join(path)] = val.split("#")[0].strip()
    return vals


def number(text):
    digits = "".join(c for c in text if c in "0123456789.e+-")
    return float(digits)


def evaluate(ws, model, params, tmp):
    path = os.path.join(tmp, "p.yaml")
    with open(path, "w") as fp:
        for k, v in params.items():
            fp.write("%s: %.17g\n" % (k, v))
    d = run_json(ws, [model, "--params", path], tmp, "model")
    r = d["kernels"][0]["result"] if "kernels" in d else d["result"]
    return r.get("cycles") if r.get("applies") else None


def old_mwp(p, sector, prof, cfg, which):
    q = dict(p)
    if which == "bytes":
        n = prof["load_instructions"]
        q["load_bytes_per_warp"] = prof["load_bytes_requested"] / n if n else 0
    elif which == "unit":
        q = dict(sector)
    elif which == "departure":
        ghz = number(cfg["clock.core"]) / 1000
        port = 32 / (number(cfg["icnt.bandwidth_per_sm"]) / ghz)
        c = prof["coalesced_instructions"]
        q["departure_del_uncoal"] = port * 4
        q["departure_del_coal"] = port * (prof["coalesced_transactions"] / c
                                          if c else 1)
    elif which == "issue":
        fp32 = number(cfg["units.fp32.lanes"])
        sub = number(cfg["sm.sub_cores"])
        q["issue_cycles"] = math.ceil(32 / fp32) / sub
        q["issue_cycles_warp"] = 0
    return q


def old_tmm(p, prof, cfg, which, ctas):
    q = dict(p)
    if which == "T":
        sms = min(ctas, number(cfg["sm.count"]))
        per_sm = math.ceil(ctas / sms)
        q["t"] = min(per_sm, q["t"] * q["q"] / q["t_r"]) * q["t_r"] / q["q"]
    elif which == "granules":
        q["reg_unit"] = 0
        q["smem_unit"] = 0
    return q


def main():
    ws = sys.argv[1]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, gpu, args in CASES:
            k = run_json(ws, ["--gpu", gpu] + args, tmp)["kernels"][0]
            sim = k["counters"]["gpc__cycles_elapsed.max"]["value"]
            pk = run_json(ws, ["--gpu", gpu] + args, tmp,
                          "profile")["kernels"][0]
            prof, params = pk["profile"], pk["parameters"]
            sector = run_json(ws, ["--gpu", gpu, "--set",
                                   "model.transaction=32B"] + args, tmp,
                              "profile")["kernels"][0]["parameters"]
            cfg = config(ws, gpu)
            cells = [name]
            mwp = params["mwp_cwp"]
            for which in (None, "bytes", "unit", "departure", "issue"):
                p = mwp if which is None else old_mwp(
                    mwp, sector["mwp_cwp"], prof, cfg, which)
                c = evaluate(ws, "mwp_cwp", p, tmp)
                cells.append("-" if c is None else "%+.0f %%" %
                             (100 * (c / sim - 1)))
            tmm = params["tmm"]
            for which in (None, "T", "granules"):
                p = tmm if which is None else old_tmm(tmm, prof, cfg, which,
                                                      k["grid"][0]
                                                      * k["grid"][1])
                c = evaluate(ws, "tmm", p, tmp)
                cells.append("-" if c is None else "%+.0f %%" %
                             (100 * (c / sim - 1)))
            rows.append(cells)
    print("| run | mwp_cwp now | bytes as 0.1 | unit as 0.1 | departure "
          "as 0.1 | issue as 0.1 | tmm now | T as 0.1 | granules as 0.1 |")
    print("|---" * 9 + "|")
    for r in rows:
        print("| " + " | ".join(r) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
