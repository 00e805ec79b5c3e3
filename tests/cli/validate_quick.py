#!/usr/bin/env python3
"""The reduced studies run, and their qualitative findings hold.

Runs `warpsim validate --quick` into a temporary folder and checks each
study's files and summary.json:
  saxpy: MWP/CWP+L2 is closer to the simulation than MWP/CWP at high warp
         counts for the strided runs, or the report explains why not; every
         error is a finite number and every stride has its points.

    usage: validate_quick.py WARPSIM   (run from the source root)
"""
import json
import math
import os
import subprocess
import sys
import tempfile


def check_saxpy(d):
    for f in ("results.csv", "report.md", "points.csv", "summary.json"):
        if not os.path.exists(os.path.join(d, f)):
            return "missing %s" % f
    with open(os.path.join(d, "summary.json")) as fp:
        s = json.load(fp)
    if not s["strides"]:
        return "no stride in the summary"
    for st in s["strides"]:
        for k in ("mape_mwp_cwp", "mape_mwp_cwp_l2", "high_mwp_cwp",
                  "high_mwp_cwp_l2"):
            if not math.isfinite(st[k]) or st[k] < 0:
                return "stride %d: %s is %r" % (st["stride"], k, st[k])
    if not (s["l2_closer_high_strided"] or s["explained"]):
        return "MWP/CWP+L2 is not closer for strided saxpy and the report " \
               "does not say why"
    with open(os.path.join(d, "report.md")) as fp:
        text = fp.read()
    if not s["l2_closer_high_strided"] and "Why not" not in text:
        return "summary says explained, report has no explanation"
    return None


def main():
    ws = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        r = subprocess.run([ws, "validate", "--quick", "-j", "2", "-o", tmp],
                           capture_output=True, text=True)
        if r.returncode != 0:
            print("FAIL validate --quick: exit %d\n%s" % (r.returncode,
                                                         r.stderr))
            return 1
        problem = check_saxpy(os.path.join(tmp, "saxpy"))
        if problem:
            print("FAIL saxpy: %s" % problem)
            return 1
    print("ok validate --quick (saxpy)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
