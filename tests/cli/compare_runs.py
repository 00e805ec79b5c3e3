#!/usr/bin/env python3
"""compare holds two runs of this build against each other (issue: two
simulations could not be compared).

Fresh runs of the bundled STREAM copy kernel on --gpu h100, without and
with --set dram.bandwidth=x1.5, then with another --param, and of the
three-kernel trace traces/accelsim/multi; checked against the run JSONs
themselves:
  - the verdict: same inputs, config differs, naming the override (and
    params differ, inputs differ, kernel lists differ where they do);
  - every counter and derived figure of the runs is accounted for: those
    listed differ (B - A, in percent of |A|), the others are equal and
    counted as such; total_cycles is the runs' own;
  - rows by |delta %| descending by default, by name with --sort name;
  - a run against itself: nothing differs.

    usage: compare_runs.py WARPSIM   (run from the source root)
"""
import json
import math
import os
import subprocess
import sys
import tempfile

COPY = "traces/kernels/stream/copy.yaml"
MULTI = "traces/accelsim/multi"


def fail(what):
    sys.exit("FAIL compare_runs: " + what)


def check(cond, what):
    if not cond:
        fail(what)


def run(ws, tmp, name, args):
    out = os.path.join(tmp, name)
    r = subprocess.run([ws, "run", "--json", out] + args, capture_output=True,
                       text=True)
    check(r.returncode == 0, "run %s: %s" % (args, r.stderr))
    with open(out) as fp:
        return out, json.load(fp)


def compare(ws, tmp, a, b, extra=()):
    js = os.path.join(tmp, "cmp.json")
    r = subprocess.run([ws, "compare", "--json", js] + list(extra) + [a, b],
                       capture_output=True, text=True)
    check(r.returncode == 0 and not r.stderr,
          "compare %s %s exited %d: %s" % (a, b, r.returncode, r.stderr))
    with open(js) as fp:
        return r.stdout, json.load(fp)


def figures(kernel):
    """A run kernel's counters and its non-null derived figures: those of
    "derived", then the numbers of "speed_of_light" it does not repeat."""
    counters = {n: c["value"] for n, c in kernel["counters"].items()}
    derived = {n: v for n, v in kernel["derived"].items() if v is not None}
    for n, v in kernel.get("speed_of_light", {}).items():
        if isinstance(v, (int, float)) and not isinstance(v, bool) \
                and v >= 0 and n not in derived:
            derived[n] = v
    return counters, derived


def near(x, y):
    return abs(x - y) <= 1e-6 * max(1.0, abs(x), abs(y))


def check_rows(rows, fa, fb, what):
    for r in rows:
        a, b = fa.get(r["name"]), fb.get(r["name"])
        check(r["a"] == a and r["b"] == b,
              "%s %s: %r, %r in the runs" % (what, r["name"], a, b))
        check(a != b, "%s %s listed though equal" % (what, r["name"]))
        check(near(r["delta"], b - a), "%s %s delta" % (what, r["name"]))
        if a != 0:
            check(near(r["delta_pct"], 100 * (b - a) / abs(a)),
                  "%s %s delta_pct %r" % (what, r["name"], r["delta_pct"]))
    equal = sum(1 for n in fa if n in fb and fa[n] == fb[n])
    return equal


def check_pair(doc, ka, kb):
    """Each kernel entry against the two runs' kernels."""
    for i, k in enumerate(doc["kernels"]):
        ca, da = figures(ka[i])
        cb, db = figures(kb[i])
        check(k["counters"] == len(set(ca) | set(cb)), "counters counted")
        check(k["counters_equal"] == check_rows(k["counters_differ"], ca, cb,
                                                "counter"),
              "kernel %d: counters_equal" % k["id"])
        check(k["derived"] == len(set(da) | set(db)), "derived counted")
        check(k["derived_equal"] == check_rows(k["derived_differ"], da, db,
                                               "derived"),
              "kernel %d: derived_equal" % k["id"])
        check(k["counters_equal"] + len(k["counters_differ"]) == k["counters"],
              "kernel %d: equal and differing counters do not add up"
              % k["id"])


def key(row):
    p = row["delta_pct"]
    return math.inf if p is None else abs(p)


def main():
    ws = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as tmp:
        a, ja = run(ws, tmp, "a.json", ["--gpu", "h100", COPY])
        b, jb = run(ws, tmp, "b.json", ["--gpu", "h100", "--set",
                                        "dram.bandwidth=x1.5", COPY])
        text, doc = compare(ws, tmp, a, b)
        v = doc["verdict"]
        check(v.startswith("same inputs") and
              "config differs: A h100, B h100 with --set dram.bandwidth=x1.5"
              in v, "verdict %r" % v)
        check(doc["same"] == {"inputs": True, "params": True, "config": False,
                              "build": True, "inputs_differ": []},
              "same %r" % doc["same"])
        check(" ".join(v.split()) in " ".join(text.split()),
              "the text does not carry the verdict")
        check(doc["total_cycles"]["a"] == ja["total_cycles"]
              and doc["total_cycles"]["b"] == jb["total_cycles"],
              "total_cycles %r" % doc["total_cycles"])
        check(doc["kernel_lists"] == "same", "kernel lists")
        check_pair(doc, ja["kernels"], jb["kernels"])
        rows = doc["kernels"][0]["counters_differ"]
        check(rows, "a 1.5x DRAM bandwidth changed no counter")
        check([key(r) for r in rows] == sorted((key(r) for r in rows),
                                               reverse=True),
              "rows not by |delta %%|: %r" % [r["name"] for r in rows])
        _, byname = compare(ws, tmp, a, b, ["--sort", "name"])
        names = [r["name"] for r in byname["kernels"][0]["counters_differ"]]
        check(names == sorted(names), "--sort name: %r" % names)

        # a run against itself: nothing differs
        text, doc = compare(ws, tmp, a, a)
        k = doc["kernels"][0]
        check(not k["counters_differ"] and not k["derived_differ"],
              "a run differs from itself")
        check("counters: all %d equal" % k["counters"] in text,
              "no 'all equal' line")
        check(doc["verdict"].startswith("same inputs")
              and "same config (h100)" in doc["verdict"],
              "verdict of a run against itself %r" % doc["verdict"])

        # another --param: the same files, another workload
        c, _ = run(ws, tmp, "c.json", ["--gpu", "h100", "-p", "n=4096", COPY])
        _, doc = compare(ws, tmp, a, c)
        check("params differ: A none, B n=4096" in doc["verdict"]
              and doc["same"]["params"] is False,
              "params: %r" % doc["verdict"])

        # another trace: inputs and kernel lists differ
        m, jm = run(ws, tmp, "m.json", ["--gpu", "h100", MULTI])
        r = subprocess.run([ws, "compare", a, m], capture_output=True,
                           text=True)
        check(r.returncode == 2 and "no kernel is in both runs" in r.stderr,
              "copy against multi: %r" % r.stderr)
        v, jv = run(ws, tmp, "v.json", ["--gpu", "h100",
                                        "traces/accelsim/vecadd"])
        text, doc = compare(ws, tmp, m, v)
        check(doc["kernel_lists"] == "differ"
              and [k["id"] for k in doc["a_only_kernels"]] == [2, 3],
              "kernel lists: %r" % doc["a_only_kernels"])
        check("kernel lists differ: 2 kernels in A only" in text,
              "the text does not say the kernel lists differ")
        check(doc["verdict"].startswith("inputs differ: none in common")
              and doc["same"]["inputs"] is False,
              "inputs: %r" % doc["verdict"])
        check_pair(doc, jm["kernels"][:1], jv["kernels"])
    print("ok compare_runs")


if __name__ == "__main__":
    main()
