#!/usr/bin/env python3
"""Counters keep Nsight Compute's identities on every bundled kernel.

Every L1 and L2 sector lookup is exactly one hit or one miss, so
  lts__t_sectors_lookup_hit + _miss = lts__t_sectors_op_read + _write + _atom
  l1tex ..._op_ld_lookup_hit + _miss = l1tex__t_sectors_pipe_lsu_mem_global_op_ld
and the in-flight share of the hits never exceeds the hits.  Runs the inputs
of json_digests.sh on every built-in config with --json.

    usage: counter_identities.py WARPSIM   (run from the source root)
"""
import json
import os
import subprocess
import sys
import tempfile

from bundled_runs import CONFIGS, inputs

L1 = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld"


def identities(c):
    v = {k: c[k]["value"] for k in c}
    l2_ops = (v["lts__t_sectors_op_read.sum"] + v["lts__t_sectors_op_write.sum"]
              + v["lts__t_sectors_op_atom.sum"])
    yield ("L2 hits + misses = read + write + atom sectors",
           v["lts__t_sectors_lookup_hit.sum"]
           + v["lts__t_sectors_lookup_miss.sum"], l2_ops)
    yield ("L1 load hits + misses = load sectors",
           v[L1 + "_lookup_hit.sum"] + v[L1 + "_lookup_miss.sum"],
           v[L1 + ".sum"])
    yield ("L2 in-flight hits <= hits",
           min(v["ws__lts_t_sectors_lookup_hit_in_flight.sum"],
               v["lts__t_sectors_lookup_hit.sum"]),
           v["ws__lts_t_sectors_lookup_hit_in_flight.sum"])
    yield ("L1 in-flight hits <= hits",
           min(v["ws__l1tex_t_sectors_lookup_hit_in_flight.sum"],
               v[L1 + "_lookup_hit.sum"]),
           v["ws__l1tex_t_sectors_lookup_hit_in_flight.sum"])


def main():
    ws = sys.argv[1]
    failures = checked = 0
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "run.json")
        for name, args in inputs():
            for gpu in CONFIGS:
                subprocess.run([ws, "run", "--gpu", gpu, "--json", out] + args,
                               check=True, stdout=subprocess.DEVNULL)
                with open(out) as fp:
                    doc = json.load(fp)
                for k in doc["kernels"]:
                    for what, got, want in identities(k["counters"]):
                        checked += 1
                        if got != want:
                            print("FAIL %s on %s, kernel %d: %s: %d != %d"
                                  % (name, gpu, k["id"], what, got, want))
                            failures += 1
    if failures:
        return 1
    print("ok counter_identities (%d identities checked)" % checked)
    return 0


if __name__ == "__main__":
    sys.exit(main())
