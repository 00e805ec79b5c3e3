#!/usr/bin/env python3
"""External models through the JSON contract (README, "External models").

The example model (validate/models/little.py) runs beside the built-in ones
in `run` (its line, its JSON, its domain and terms) and in a sweep (its
columns, from the file's models: and from --model); and a model that
breaks the contract (not JSON, no cycles, a failing exit status, a run
past the time limit, a name clash) is one error line, exit 2, nothing
written.

    usage: ext_model.py WARPSIM   (run from the source root)
"""
import csv
import json
import os
import subprocess
import sys
import tempfile

LITTLE = "little=python3 validate/models/little.py"
KERNEL = "traces/kernels/stream/copy.yaml"


def run(ws, *args, env=None):
    return subprocess.run([ws] + list(args), capture_output=True, text=True,
                          env=env)


def check_run(ws, tmp):
    out = os.path.join(tmp, "run.json")
    r = run(ws, "run", "--model", LITTLE, "-p", "n=1048576", "--json", out,
            KERNEL)
    if r.returncode != 0 or r.stderr:
        return "run with the example model: %s" % r.stderr.strip()
    if "    little " not in r.stdout or "in its domain: every SM busy" \
            not in r.stdout:
        return "the example model's line or domain is not in the report"
    with open(out) as fp:
        k = json.load(fp)["kernels"][0]
    m = [x for x in k["models"] if x["name"] == "little"]
    if not m or not m[0]["applies"] or m[0]["cycles"] <= 0:
        return "the example model is not in --json: %r" % m
    terms = m[0]["intermediates"]
    if set(terms) != {"issue", "dram", "latency", "rounds"}:
        return "the example model's terms: %r" % terms
    if m[0]["cycles"] != max(terms["issue"], terms["dram"],
                             terms["latency"]):
        return "its prediction is not the largest of its terms"
    return None


def check_sweep(ws, tmp):
    sweep = os.path.join(tmp, "s.yaml")
    here = os.getcwd()
    with open(sweep, "w") as fp:
        fp.write("kernel: %s/%s\ngpu: v100\naxes:\n  param.n: [65536, "
                 "131072]\nmodels:\n  little: python3 %s/validate/models/"
                 "little.py\n" % (here, KERNEL, here))
    out = os.path.join(tmp, "s.csv")
    r = run(ws, "sweep", sweep, "-j", "1", "-o", out, "--model",
            "twice=python3 validate/models/little.py")
    if r.returncode != 0:
        return "sweep with models: %s" % r.stderr.strip()
    with open(out) as fp:
        rows = list(csv.DictReader(fp))
    for row in rows:
        for name in ("little", "twice"):
            if not float(row[name + "_cycles"]) > 0 \
                    or not row[name + "_domain"].startswith("in:") \
                    or "latency=" not in row[name + "_terms"]:
                return "sweep row lacks %s's columns: %r" % (name, row)
        if row["little_cycles"] != row["twice_cycles"]:
            return "the same model from the file and from --model differs"
    return None


BAD = [
    ("not JSON", "bad=echo nope", "is not a JSON object"),
    ("no cycles", "bad=echo '{\"regime\": \"x\"}'", "no \"cycles\""),
    ("negative", "bad=echo '{\"cycles\": -3}'", "no \"cycles\""),
    ("too large", "bad=echo '{\"cycles\": 1.7976931348623157e308}'",
     "from 0 to 1e18"),
    ("NUL byte", "bad=printf '{\"cycles\": 1}\\0x'", "NUL byte"),
    ("applies not boolean", "bad=echo '{\"applies\": \"false\"}'",
     "true or false"),
    ("bad kind", "bad=echo '{\"cycles\": 3, \"kind\": \"guess\"}'",
     "\"kind\""),
    ("bad terms", "bad=echo '{\"cycles\": 3, \"terms\": {\"a\": \"b\"}}'",
     "at most 1e300"),
    ("exit status", "bad=exit 3", "exited with status 3"),
    ("slow", "bad=sleep 5", "ran past"),
    ("built-in name", "tmm=cat", "not a built-in model's"),
    ("no command", "bad=", "NAME=COMMAND"),
    ("a counter's name", "ws__tail=true", "single '_'"),
    ("total", "total=true", "'total'"),
]


def check_bad(ws, tmp):
    env = dict(os.environ, WARPSIM_MODEL_TIMEOUT="1")
    r = run(ws, "run", "--model", "x=true", KERNEL,
            env=dict(os.environ, WARPSIM_MODEL_TIMEOUT="abc"))
    if r.returncode != 2 or "WARPSIM_MODEL_TIMEOUT is 'abc'" not in r.stderr:
        return "a bad WARPSIM_MODEL_TIMEOUT: exit %d, %r" % (r.returncode,
                                                             r.stderr)
    out = os.path.join(tmp, "bad.json")
    for what, spec, want in BAD:
        r = run(ws, "run", "--model", spec, "--json", out, KERNEL, env=env)
        lines = r.stderr.strip().splitlines()
        if r.returncode != 2 or r.stdout or len(lines) != 1 \
                or want not in lines[0] or os.path.exists(out):
            return "%s: exit %d, stdout %r, stderr %r" % (
                what, r.returncode, r.stdout[:80], r.stderr)
    return None


def main():
    ws = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        for check in (check_run, check_sweep, check_bad):
            problem = check(ws, tmp)
            if problem:
                print("FAIL %s" % problem)
                return 1
    print("ok external models: run, sweep, and %d broken contracts" %
          len(BAD))
    return 0


if __name__ == "__main__":
    sys.exit(main())
