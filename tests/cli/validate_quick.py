#!/usr/bin/env python3
"""The reduced studies run, and their qualitative findings hold.

Runs `warpsim validate --quick` into a temporary folder and checks each
study's files and summary.json:
  saxpy: on the paper's kernel and the bundled one, MWP/CWP+L2 is closer
         to the simulation than MWP/CWP at high warp counts for the strided
         runs, or the report explains why not; every error is a finite
         number; the report says whether the verdict depends on the kernel.
  levels: L1 and L2 chases pay their configured latency plus at most a few
         cycles of address arithmetic, DRAM chases within 5 %, and STREAM
         within 5 % of each published figure compared.
  matmul: every variant has its resource significance for ts and score,
         and every RSM lies in [0, 1] (eq 4 and eq 5's mean of it).
  hardware: every quick case matched to its measured H100 time, the
         summary's mean error and geometric mean those of the table.
  scoreboard: every model is scored in its domain and outside it, with
         finite metrics and a rank correlation in [-1, 1]; the roofline as
         a bound; the hardware cases matched to the measured ones.
  quadrant: the kernel lies on the side of each GPU's ridge its peaks put
         it, and the simulation never beats the bound.
  apsp:  the time per block is least at whole waves of B_a x SMs (eq 3's
         zigzag), at two waves; eq 15's fit over the memory-bound runs of
         the T and B_a sweeps has r^2 above 0.95 (the S_D = 4 runs, far
         along sqrt(B_r)/T, weigh most: the report gives the narrower
         fits beside).

    usage: validate_quick.py WARPSIM   (run from the source root)
"""
import json
import math
import os
import subprocess
import sys
import tempfile


def check_saxpy(d):
    for f in ("saxpy.csv", "saxpy_paper.csv", "report.md", "points.csv",
              "summary.json"):
        if not os.path.exists(os.path.join(d, f)):
            return "missing %s" % f
    with open(os.path.join(d, "summary.json")) as fp:
        s = json.load(fp)
    if [k["kernel"] for k in s["kernels"]] != ["saxpy_paper", "saxpy"]:
        return "the two kernels are not both in the summary"
    for k in s["kernels"]:
        if not k["strides"]:
            return "%s: no stride in the summary" % k["kernel"]
        for st in k["strides"]:
            for key in ("mape_mwp_cwp", "mape_mwp_cwp_l2",
                        "mape_mwp_cwp_l2_reuse", "high_mwp_cwp",
                        "high_mwp_cwp_l2"):
                if not math.isfinite(st[key]) or st[key] < 0:
                    return "%s stride %d: %s is %r" % (k["kernel"],
                                                       st["stride"], key,
                                                       st[key])
    with open(os.path.join(d, "report.md")) as fp:
        text = fp.read()
    for k in s["kernels"]:
        if not k["l2_closer_high_strided"] and "Why not" not in text:
            return "%s: the L2 form is not closer and the report does not " \
                   "say why" % k["kernel"]
    if "The verdict" not in text:
        return "the report does not say whether the verdict depends on " \
               "the kernel"
    return None


def check_levels(d):
    with open(os.path.join(d, "summary.json")) as fp:
        s = json.load(fp)
    if not s["configs"]:
        return "no config in the summary"
    lo = s["cache_chase_minus_configured_min"]
    hi = s["cache_chase_minus_configured_max"]
    if lo < 0 or hi > 8:
        return "cache chases %.1f to %.1f cycles off the configured " \
               "latency (expected 0 to 8)" % (lo, hi)
    if s["worst_dram_chase_off"] > 0.05:
        return "a DRAM chase is %.1f %% off dram.latency" \
               % (100 * s["worst_dram_chase_off"])
    if s["published_compared"] == 0 or s["worst_published_off"] > 0.05:
        return "STREAM %.1f %% off a published figure (%d compared)" \
               % (100 * s["worst_published_off"], s["published_compared"])
    return None


def check_matmul(d):
    for f in ("report.md", "summary.json", "vs_baseline.svg",
              "matmul_baseline.csv", "matmul_prefetch.csv"):
        if not os.path.exists(os.path.join(d, f)):
            return "missing %s" % f
    with open(os.path.join(d, "summary.json")) as fp:
        s = json.load(fp)
    for target in ("rsm_ts", "rsm_score"):
        if len(s[target]) != 7:
            return "%s has %d variants (expected 7)" % (target,
                                                       len(s[target]))
        for variant, groups in s[target].items():
            for g, v in groups.items():
                if not 0 <= v <= 1:
                    return "%s %s %s RSM %r outside [0, 1]" % (
                        target, variant, g, v)
    if not s["rsm_in_range"]:
        return "the study says an RSM is outside [0, 1]"
    return None


def check_scoreboard(d):
    with open(os.path.join(d, "summary.json")) as fp:
        s = json.load(fp)
    models = s["models"]
    for m in ("mwp_cwp", "mwp_cwp_l2", "mwp_cwp_l2_reuse", "tmm", "qroofline",
              "aiq"):
        if m not in models:
            return "%s not scored" % m
        for part in ("in_domain", "out_of_domain"):
            g = models[m][part]
            if g["runs"] == 0:
                continue
            for k in ("median_ape", "geo_mean_error", "mape"):
                if not math.isfinite(g[k]):
                    return "%s %s %s %r" % (m, part, k, g[k])
            r = g["spearman"]
            if r is not None and not -1 <= r <= 1:
                return "%s %s Spearman %r" % (m, part, r)
    if models["mwp_cwp"]["in_domain"]["runs"] == 0:
        return "mwp_cwp has no run in its domain"
    if not models.get("roofline", {}).get("bound"):
        return "the roofline is not scored as a bound"
    if s["hardware"].get("simulation", {}).get("cases", 0) == 0:
        return "no run matched a measured case"
    return None


def check_apsp(d):
    with open(os.path.join(d, "summary.json")) as fp:
        s = json.load(fp)
    z = s["zigzag"]
    if z["waves"] < 2 or not z["minima_at_waves"]:
        return "time per block not least at the %d whole waves of %g " \
               "blocks" % (z["waves"], z["wave"])
    f = s["fit"]
    if f["points"] < 3 or not f["r2"] > 0.95:
        return "eq 15's fit over %d memory-bound runs has r^2 %r " \
               "(expected above 0.95)" % (f["points"], f["r2"])
    return None


def check_quadrant(d):
    if not os.path.exists(os.path.join(d, "quadrant.svg")):
        return "no quadrant.svg"
    with open(os.path.join(d, "summary.json")) as fp:
        s = json.load(fp)
    sides = {g["gpu"]: g["memory_bound"] for g in s["gpus"]}
    # FP64 at 1/32 of FP32 puts TITAN X's ridge far below the kernel's 8
    # op/B, V100's at 7.9 just below it: compute bound on both, the
    # line crossing between them only past V100-SXM2's 8.7.
    if sides != {"titanx": False, "v100": False}:
        return "sides of the line %r" % sides
    for g in s["gpus"]:
        if not 0 < g["fraction_of_bound"] <= 1:
            return "%s: %r of the bound" % (g["gpu"], g["fraction_of_bound"])
    return None


def check_hardware(d):
    """Every quick hw case is matched to its measured time; the summary's
    error and geometric mean are what the table's ratios give."""
    with open(os.path.join(d, "summary.json")) as fp:
        s = json.load(fp)
    with open(os.path.join(d, "report.md")) as fp:
        rows = [l.split("|") for l in fp if l.startswith("| hw_")]
    ratios = [float(r[4]) for r in rows]
    if s["cases"] < 1 or s["cases"] != len(ratios):
        return "%d cases in the summary, %d rows" % (s["cases"], len(ratios))
    mean = 100 * sum(abs(x - 1) for x in ratios) / len(ratios)
    geo = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
    if abs(mean - s["mean_abs_err_pct"]) > 0.2 \
            or abs(geo - s["geomean_ratio"]) > 0.002:
        return "summary %.2f %% / %.4f, table %.2f %% / %.4f" % (
            s["mean_abs_err_pct"], s["geomean_ratio"], mean, geo)
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
        for name, check in (("saxpy", check_saxpy),
                            ("apsp", check_apsp),
                            ("levels", check_levels),
                            ("matmul", check_matmul),
                            ("hardware", check_hardware),
                            ("scoreboard", check_scoreboard),
                            ("quadrant", check_quadrant)):
            problem = check(os.path.join(tmp, name))
            if problem:
                print("FAIL %s: %s" % (name, problem))
                return 1
    print("ok validate --quick (saxpy, apsp, levels, matmul, hardware, "
          "scoreboard, quadrant)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
