#!/usr/bin/env python3
"""An external model for warpsim, the example of its JSON contract.

warpsim runs it once per kernel (`warpsim run --model little='python3
validate/models/little.py' TRACE`, or `models:` in a sweep file), with the
kernel's profile, the built-in models' inputs and the GPU config as JSON on
standard input, and reads the prediction as JSON on standard output (the
README's "External models" gives the contract).  Any language will do; this
one uses nothing beyond Python's standard library.

The model: a latency/throughput bound in the manner of Volkov's Little's-
law argument.  A kernel takes at least as long as the longest of
  - its issue: the warp instructions each SM issues, at the SM's issue
    rate (MWP/CWP's Issue_cycles x the warps per SM);
  - its DRAM traffic at the DRAM bandwidth (the roofline's bytes);
  - its memory latency not hidden: each warp's memory instructions take
    Mem_LD each, and an SM overlaps as many warps as it holds at once, so
    per round of resident warps one latency per memory instruction, for
    #Rep rounds.
It predicts the largest, and names it as the regime.  Its domain: kernels
that fill every SM (the issue term assumes all of them work).
"""
import json
import math
import sys


def main():
    d = json.load(sys.stdin)
    if d.get("contract") != "warpsim-model/1":
        print("unknown contract %r" % d.get("contract"), file=sys.stderr)
        return 1
    k = d["kernel"]
    mwp = k["parameters"]["mwp_cwp"]
    roof = k["parameters"]["roofline"]
    sms = d["config"]["sm.count"]
    blocks = mwp["blocks"]
    warps = mwp["active_blocks_per_sm"] * math.ceil(
        mwp["threads_per_block"] / 32.0)
    rep = mwp["blocks"] / (mwp["active_blocks_per_sm"] * mwp["active_sms"])
    insts = mwp["comp_insts"] + mwp["coal_insts"] + mwp["uncoal_insts"]
    issue = mwp["issue_cycles"] * insts * warps * rep
    dram = roof["dram_bytes"] / roof["dram_bw"] if roof["dram_bw"] else 0.0
    mem = (mwp["coal_insts"] + mwp["uncoal_insts"]) * mwp["mem_ld"] * rep
    terms = {"issue": issue, "dram": dram, "latency": mem, "rounds": rep}
    bound = max(("issue", issue), ("dram", dram), ("latency", mem),
                key=lambda t: t[1])
    json.dump({
        "cycles": bound[1],
        "regime": "%s bound" % bound[0],
        "kind": "prediction",
        "domain": {"in": blocks >= sms,
                   "what": "every SM busy" if blocks >= sms
                   else "%d blocks on %d SMs" % (blocks, sms)},
        "terms": terms,
    }, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
