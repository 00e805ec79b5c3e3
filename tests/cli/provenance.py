#!/usr/bin/env python3
"""A run's outputs say what produced them (issue 25, provenance).

The JSON carries a "provenance" object: warpsim's version and source
commit, the config as named and its --set overrides, the effective
config's hash, the workload parameters, and every input file with its size
and content hash; the CSV a gpu and a config_hash column; the text header
the overrides.  Checked here against the files themselves: the sizes are
the files' sizes, the hashes change when a file's content does and not
when its path does, and two configs differing in one key differ in hash.

    usage: provenance.py WARPSIM   (run from the source root)
"""
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

KERNEL = "traces/kernels/stream/copy.yaml"
LISTING = "traces/kernels/stream/stream.sm_80.sass"


def run(ws, tmp, args, wl=KERNEL):
    js, cs = os.path.join(tmp, "r.json"), os.path.join(tmp, "r.csv")
    r = subprocess.run([ws, "run", "--json", js, "--csv", cs] + args + [wl],
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("FAIL provenance: %s exited %d: %s" % (args, r.returncode,
                                                         r.stderr))
    with open(js) as fp:
        doc = json.load(fp)
    with open(cs) as fp:
        rows = list(csv.DictReader(fp))
    return doc, rows, r.stdout


def check(cond, what):
    if not cond:
        sys.exit("FAIL provenance: " + what)


def main():
    ws = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as tmp:
        args = ["--gpu", "h100", "--set", "dram.bandwidth=3000GB/s", "-p",
                "n=4096"]
        doc, rows, text = run(ws, tmp, args)
        p = doc.get("provenance")
        check(p is not None, "no provenance in the JSON")
        check(p["version"] == doc["tool"].split()[1], "version %r" % p)
        check(p["commit"], "empty commit")
        check(p["config"] == "h100", "config %r" % p["config"])
        check(p["overrides"] == ["dram.bandwidth=3000GB/s"],
              "overrides %r" % p["overrides"])
        check(p["params"] == ["n=4096"], "params %r" % p["params"])
        check(re.fullmatch(r"[0-9a-f]{32}", p["config_hash"]),
              "config_hash %r" % p["config_hash"])
        paths = [f["path"] for f in p["inputs"]]
        check(paths == [KERNEL, LISTING], "inputs %r" % paths)
        for f in p["inputs"]:
            check(f["bytes"] == os.path.getsize(f["path"]),
                  "%s: %d bytes, the file has %d" % (
                      f["path"], f["bytes"], os.path.getsize(f["path"])))
            check(re.fullmatch(r"[0-9a-f]{32}", f["xxh3_128"]),
                  "hash %r" % f)
        check("config h100 with --set dram.bandwidth=3000GB/s" in text,
              "the text header does not name the override")
        check(rows and rows[0]["gpu"] == doc["gpu"], "CSV gpu column")
        check(rows[0]["config_hash"] == p["config_hash"],
              "CSV config_hash differs from the JSON's")

        # the same run again: the same provenance, byte for byte
        doc2, _, _ = run(ws, tmp, args)
        check(doc2["provenance"] == p, "two identical runs differ")
        # one key more: another config hash, and the header says so
        doc3, _, text3 = run(ws, tmp, args + ["--set", "l2.latency=300"])
        check(doc3["provenance"]["config_hash"] != p["config_hash"],
              "an override did not change the config hash")
        check("--set dram.bandwidth=3000GB/s, --set l2.latency=300" in text3,
              "the header lists not every override")
        # no override: no header line
        _, _, text4 = run(ws, tmp, ["--gpu", "h100", "-p", "n=4096"])
        check(" with --set" not in text4, "an override line without --set")

        # the same content elsewhere hashes the same; other content not
        d = os.path.join(tmp, "w")
        os.mkdir(d)
        shutil.copy(KERNEL, d)
        shutil.copy(LISTING, d)
        moved, _, _ = run(ws, tmp, args, os.path.join(d, "copy.yaml"))
        check([f["xxh3_128"] for f in moved["provenance"]["inputs"]]
              == [f["xxh3_128"] for f in p["inputs"]],
              "a moved copy hashes differently")
        with open(os.path.join(d, "copy.yaml"), "a") as fp:
            fp.write("# an edit\n")
        edited, _, _ = run(ws, tmp, args, os.path.join(d, "copy.yaml"))
        check(edited["provenance"]["inputs"][0]["xxh3_128"]
              != p["inputs"][0]["xxh3_128"], "an edit kept its hash")
    print("ok provenance")


if __name__ == "__main__":
    main()
