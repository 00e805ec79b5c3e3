#!/usr/bin/env python3
"""Did simulated numbers move between two builds?

Runs every bundled kernel of tests/cli/json_digests.sh on every built-in
config with both binaries and compares the --json documents with the
"models" section left out (the closed-form models are not simulation), so
a change that only adds outputs can show that no simulated number moved.

    validate/compare_runs.py REFERENCE_WARPSIM NEW_WARPSIM
Run from the source root, e.g. with a build of the landed main as the
reference.
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "tests", "cli"))
from bundled_runs import CONFIGS, inputs  # noqa: E402


def run(ws, gpu, args, path):
    subprocess.run([ws, "run", "--gpu", gpu, "--json", path] + args,
                   check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    with open(path) as fp:
        doc = json.load(fp)
    doc.pop("tool", None)
    for k in doc["kernels"]:
        k.pop("models", None)
    return doc


def main():
    ref, new = sys.argv[1], sys.argv[2]
    n = differ = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "run.json")
        for name, args in inputs():
            for gpu in CONFIGS:
                n += 1
                if run(ref, gpu, args, path) != run(new, gpu, args, path):
                    print("differs: %s on %s" % (name, gpu))
                    differ += 1
    print("%d runs compared, %d differ" % (n, differ))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
