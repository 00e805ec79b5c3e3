#!/usr/bin/env python3
"""Writes the run JSONs of the run-against-run cases of compare
(tests/cli/cases_compare.txt): two runs of the bundled three-kernel trace
traces/accelsim/multi on --gpu h100, without and with --set
dram.latency=x2, and one of traces/accelsim/vecadd on --gpu a100 (other
inputs, another config, one kernel of multi's three).

    python3 tests/data/compare/make_runs.py WARPSIM

Run from the source root.  Each kernel's "models" and "model_terms" and
each counter's "group" and "description" are dropped to keep the files
small: compare reads none of them.  The provenance is kept as run wrote
it, commit included, so the goldens name this commit until the files are
written again (tests/cli/compare_runs.py compares fresh runs of this
build, so the reader cannot fall behind what run writes).
"""
import json
import os
import subprocess
import sys
import tempfile

RUNS = {
    "run_multi_h100.json": ["--gpu", "h100", "traces/accelsim/multi"],
    "run_multi_h100_dram.json": ["--gpu", "h100", "--set", "dram.latency=x2",
                                 "traces/accelsim/multi"],
    "run_vecadd_a100.json": ["--gpu", "a100", "traces/accelsim/vecadd"],
}


def trim(doc):
    for k in doc["kernels"]:
        k.pop("models", None)
        k.pop("model_terms", None)
        for c in k["counters"].values():
            c.pop("group", None)
            c.pop("description", None)
    return doc


def main():
    ws = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        for name, args in RUNS.items():
            js = os.path.join(tmp, name)
            subprocess.run([ws, "run", "--json", js] + args, check=True,
                           stdout=subprocess.DEVNULL)
            with open(js) as fp:
                doc = trim(json.load(fp))
            with open(os.path.join("tests/data/compare", name), "w") as fp:
                json.dump(doc, fp, indent=2)
                fp.write("\n")


if __name__ == "__main__":
    main()
