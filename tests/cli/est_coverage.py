#!/usr/bin/env python3
"""Every numeric value configs/v100.yaml marks [EST] is moved by the
scoreboard's sensitivity sweeps (validate/studies/est_*.yaml), so that the
report's table of the simulation's elasticity to estimates is complete.

A value is [EST] when its own line says so (a mapping of values on one
line, `misc: {lanes: 16, latency: 4}  # [EST]`, marks each of them).
sched.policy is a choice of algorithm, not a number: it has no elasticity
and is left out.

    usage: est_coverage.py   (run from the source root)
"""
import glob
import re
import sys

CONFIG = "configs/v100.yaml"
NOT_NUMBERS = {"sched.policy"}


def est_keys(path):
    keys, section = set(), ""
    for line in open(path):
        body, _, comment = line.partition("#")
        if not body.strip():
            continue
        if not body.startswith(" "):
            section = body.split(":")[0].strip()
        if "[EST]" not in comment:
            continue
        name, _, value = body.strip().partition(":")
        value = value.strip()
        prefix = (section + "." if body.startswith(" ") else "") + name
        if value.startswith("{"):
            for item in value.strip("{}").split(","):
                keys.add(prefix + "." + item.split(":")[0].strip())
        else:
            keys.add(prefix)
    return keys - NOT_NUMBERS


def main():
    want = est_keys(CONFIG)
    sweeps = sorted(glob.glob("validate/studies/est_*.yaml"))
    if not sweeps or not want:
        print("FAIL: no est_*.yaml sweeps or no [EST] values in %s" % CONFIG)
        return 1
    bad = 0
    for path in sweeps:
        have = set(re.findall(r"^\s+set\.([\w.]+):", open(path).read(), re.M))
        for k in sorted(want - have):
            print("FAIL %s: [EST] value %s of %s is not moved" %
                  (path, k, CONFIG))
            bad += 1
    if not bad:
        print("ok: %d [EST] values moved in %d sweeps" % (len(want),
                                                         len(sweeps)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
