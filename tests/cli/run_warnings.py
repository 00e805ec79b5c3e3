#!/usr/bin/env python3
"""Every substitution a run makes is said: one stderr line each, and the
same text in the JSON's "warnings" (issue 25).

Checked: a trace with an opcode no table knows (timed as the config's
unknown_opcode_class) and a timeline cut at --timeline-max-events each
give exactly one "warpsim: warning: ..." line and one JSON entry, and the
timeline file says it was truncated; a clean run has no warning at all.

    usage: run_warnings.py WARPSIM   (run from the source root)
"""
import json
import os
import subprocess
import sys
import tempfile

UNKNOWN = "tests/data/bad/unknownop.traceg"
CLEAN = ["-p", "n=4096", "traces/kernels/stream/copy.yaml"]


def run(ws, tmp, args):
    js = os.path.join(tmp, "r.json")
    r = subprocess.run([ws, "run", "--json", js] + args, capture_output=True,
                       text=True)
    if r.returncode != 0:
        sys.exit("FAIL run_warnings: %s exited %d: %s" % (args, r.returncode,
                                                           r.stderr))
    with open(js) as fp:
        return json.load(fp)["warnings"], r.stderr.splitlines()


def check(cond, what):
    if not cond:
        sys.exit("FAIL run_warnings: " + what)


def same(warnings, stderr, what):
    check(len(warnings) == 1, "%s: %d JSON warnings %r" % (what, len(warnings),
                                                          warnings))
    check(stderr == ["warpsim: warning: " + warnings[0]],
          "%s: stderr %r, JSON %r" % (what, stderr, warnings))


def main():
    ws = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        w, err = run(ws, tmp, CLEAN)
        check(w == [] and err == [], "a clean run warned: %r %r" % (w, err))

        w, err = run(ws, tmp, ["--set", "unknown_opcode_class=sfu", UNKNOWN])
        same(w, err, "unknown opcode")
        check("unknown opcodes simulated as sfu" in w[0], w[0])

        tl = os.path.join(tmp, "t.json")
        w, err = run(ws, tmp, ["--timeline", tl, "--timeline-max-events",
                               "40"] + CLEAN)
        same(w, err, "timeline")
        check("truncated at 40 events" in w[0] and tl in w[0], w[0])
        with open(tl) as fp:
            meta = json.load(fp)["metadata"]
        check(meta["truncated"] is True, "timeline metadata %r" % meta)
        check(meta["events"] == 40, "timeline metadata %r" % meta)

        # a path with a line break and a byte that is no UTF-8: still one
        # stderr line, the same text as the JSON's entry
        odd = os.path.join(tmp, "a\nb\udcff.json")  # byte 0xff
        w, err = run(ws, tmp, ["--timeline", odd, "--timeline-max-events",
                               "3"] + CLEAN)
        same(w, err, "odd timeline path")
    print("ok run_warnings")


if __name__ == "__main__":
    main()
