#!/usr/bin/env python3
"""The charts draw what their data says, read back from the SVG.

gnuplot's SVG puts each plotted item in <g id="gnuplot_plot_N"> with a
<title>; lines are <path d="M x,y L ...">, markers <use>, bars <polygon>.
The first subpath of a titled line is its key sample.  Checked:

  sweep:    a sweep over the three-kernel trace draws one line per kernel
            (and per series value), each through the sweep's x values in
            increasing order: no line joins two kernels' points.
  bars:     the matmul study's vs_baseline.svg draws its negative changes
            as bars below the zero line, as many as the report's table has
            values of -5 % or less.
  parity:   compare --plot draws its points as markers only; the one line
            is y = x, rising to the right.
  roofline: run --roofline names every ceiling with the config's value,
            draws the pipes' peaks at their height, and puts each kernel's
            point per level where its counters (run --json) place it; a
            kernel without arithmetic instructions is named as not placed.
            A gnuplot that fails fails the run (exit 1) before any output
            is written; --roofline on --json's file is refused (exit 2).

Positions are read off the axes: each gridline's tick label gives the
value at its pixel, and a log axis maps log(value) to pixels linearly.
Exits 77 (a CTest skip) when gnuplot is not installed.

    usage: plots_svg.py WARPSIM   (run from the source root)
"""
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}href"
MULTI = "traces/accelsim/multi"
KERNELS = ["vecAdd", "reduce", "spill"]


def fail(what):
    sys.exit("FAIL plots_svg: " + what)


def check(cond, what):
    if not cond:
        fail(what)


def run(args):
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        fail("%s exited %d: %s" % (" ".join(args), r.returncode, r.stderr))
    return r.stdout


def plots(path):
    """[(title, group element)] of the gnuplot_plot_N groups."""
    root = ET.parse(path).getroot()
    out = []
    for g in root.iter(SVG + "g"):
        if g.get("id", "").startswith("gnuplot_plot_"):
            t = g.find(SVG + "title")
            out.append((t.text if t is not None else "", g))
    return root, out


def subpaths(d):
    """A path's d as lists of (x, y) vertices, one list per M."""
    out = []
    for tok in re.findall(r"[ML]\s*[-\d.]+,[-\d.]+", d):
        x, y = (float(v) for v in tok[1:].strip().split(","))
        if tok[0] == "M":
            out.append([])
        out[-1].append((x, y))
    return out


def colour(s):
    return re.sub(r"\s+", "", s or "")


# ---- axes --------------------------------------------------------------

SI = {"k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15}


def label_value(text):
    text = text.strip()
    m = re.fullmatch(r"(-?[\d.]+(?:e[-+]?\d+)?)\s*([kMGTP]?)", text)
    return float(m.group(1)) * SI.get(m.group(2), 1) if m else None


def log_axes(root):
    """(x, y) maps from a value to its pixel, each fitted to the labelled
    gridlines of a log axis."""
    pairs = {"x": [], "y": []}
    pending = None
    for el in root.iter():
        if el.tag == SVG + "path" and el.get("class") == "gridline":
            a, b = subpaths(el.get("d"))[0][:2]
            pending = ("y", a[1]) if abs(a[1] - b[1]) < 0.01 else ("x", a[0])
        elif el.tag == SVG + "text" and pending:
            v = label_value("".join(el.itertext()))
            if v and v > 0:
                pairs[pending[0]].append((math.log10(v), pending[1]))
            pending = None
    maps = []
    for axis in ("x", "y"):
        p = pairs[axis]
        check(len(p) >= 2, "fewer than two labelled %s gridlines" % axis)
        (l0, p0), (l1, p1) = p[0], p[-1]
        slope = (p1 - p0) / (l1 - l0)
        for lv, px in p:
            check(abs(p0 + slope * (lv - l0) - px) < 0.6,
                  "%s ticks not on one log scale: %r" % (axis, p))
        maps.append(lambda v, p0=p0, l0=l0, s=slope:
                    p0 + s * (math.log10(v) - l0))
    return maps


# ---- (a) a sweep over a multi-kernel trace -------------------------------

def sweep(ws, tmp, name, axes, plot):
    path = os.path.join(tmp, name + ".yaml")
    with open(path, "w") as fp:
        fp.write("kernel: %s\ngpu: v100\naxes:\n%splots:\n  - %s\n"
                 % (os.path.abspath(MULTI), axes, plot))
    run([ws, "sweep", path, "-j", "1", "-o",
         os.path.join(tmp, name + ".csv")])


def check_sweep(ws, tmp):
    sweep(ws, tmp, "series", "  set.l2.latency: [100, 200, 400]\n"
          "  set.dram.latency: [500, 800]\n",
          "{x: set.l2.latency, y: cycles, series: set.dram.latency, "
          "file: series.svg}")
    sweep(ws, tmp, "one", "  set.l2.latency: [100, 200, 400]\n",
          "{x: set.l2.latency, y: cycles, log: [x, y], file: one.svg}")
    for name, nseries in (("series.svg", 2), ("one.svg", 1)):
        _, groups = plots(os.path.join(tmp, name))
        check(len(groups) == 3 * nseries,
              "%s: %d lines (expected one per kernel and series value, %d)"
              % (name, len(groups), 3 * nseries))
        for k in KERNELS:
            n = sum(1 for t, _ in groups if k in t)
            check(n == nseries, "%s: %d lines name kernel %s (expected %d)"
                  % (name, n, k, nseries))
        for title, g in groups:
            lines = [sp for p in g.iter(SVG + "path")
                     for sp in subpaths(p.get("d"))]
            data = lines[1:]  # the first: the key sample
            check(data, "%s: line %r has no points joined" % (name, title))
            for sp in data:
                xs = [x for x, _ in sp]
                check(len(xs) == 3 and all(a < b for a, b in zip(xs, xs[1:])),
                      "%s: line %r goes through x pixels %r (expected the "
                      "three x values, increasing)" % (name, title, xs))
            check(len(g.findall(".//" + SVG + "use")) == 3 + 1,
                  "%s: line %r has not 3 markers" % (name, title))


# ---- (b) bars below zero -------------------------------------------------

def check_bars(ws, tmp):
    out = os.path.join(tmp, "validate")
    run([ws, "validate", "--quick", "-j", "1", "-o", out, "matmul"])
    with open(os.path.join(out, "matmul", "report.md")) as fp:
        report = fp.read()
    table = report.split("## Usage against the baseline")[1].split("\n## ")[0]
    values = [float(v) for row in table.splitlines()
              if row.startswith("| ") and not row.startswith("| variant")
              for v in re.findall(r"[-+]\d+\.\d+", row)]
    negative = sum(1 for v in values if v <= -0.05)
    check(negative > 0, "the quick matmul study has no change of -5 %% or "
          "less: this check tests nothing (values %r)" % values)
    _, groups = plots(os.path.join(out, "matmul", "vs_baseline.svg"))
    bars = []
    for _, g in groups:
        polys = g.findall(".//" + SVG + "polygon")
        for p in polys[1:]:  # the first: the key sample
            pts = [tuple(float(v) for v in xy.split(","))
                   for xy in p.get("points").split()]
            ys = sorted({round(y, 1) for _, y in pts})
            bars.append((ys[0], ys[-1]))
    check(len(bars) == len(values),
          "%d bars drawn (expected %d, one per value)" % (len(bars),
                                                          len(values)))
    edges = [y for b in bars for y in b]
    base = max(set(edges), key=edges.count)
    below = sum(1 for top, bottom in bars if bottom > base + 0.5)
    check(below >= negative,
          "%d bars reach below the zero line at y=%.1f (expected at least "
          "the %d changes of -5 %% or less)" % (below, base, negative))


# ---- (c) parity: points, and the diagonal --------------------------------

def check_parity(ws, tmp):
    svg = os.path.join(tmp, "parity.svg")
    run([ws, "compare", "--plot", svg, "tests/data/compare/small_sim.json",
         "tests/data/compare/ncu_small.csv"])
    _, groups = plots(svg)
    diagonal = [g for t, g in groups if t == "y = x"]
    check(len(diagonal) == 1, "%d 'y = x' lines (expected 1)" % len(diagonal))
    markers = 0
    for title, g in groups:
        if title == "y = x":
            continue
        paths = [p.get("d") for p in g.iter(SVG + "path") if "L" in p.get("d")]
        check(not paths, "metric %r is drawn with a line %r (expected "
              "points only)" % (title, paths[:1]))
        markers += len(g.findall(".//" + SVG + "use")) - 1
    check(markers > 0, "no point drawn")
    data = [sp for p in diagonal[0].iter(SVG + "path")
            for sp in subpaths(p.get("d"))][1:]
    check(len(data) == 1 and len(data[0]) == 2,
          "the diagonal is %r (expected one segment)" % data)
    (x0, y0), (x1, y1) = data[0]
    check(x1 > x0 and y1 < y0 and abs((x1 - x0) - (y0 - y1)) < 1,
          "the diagonal runs %r (expected up at 45 degrees: one range on "
          "both axes, in a square frame)" % data[0])


# ---- (d) the roofline ----------------------------------------------------

def config(ws, gpu):
    """config show's YAML as {dotted key: text}."""
    out, stack = {}, []
    for line in run([ws, "config", "show", "--gpu", gpu]).splitlines():
        body = line.split("#")[0].rstrip()
        if not body.strip() or ":" not in body:
            continue
        depth = (len(body) - len(body.lstrip())) // 2
        key, val = body.strip().split(":", 1)
        stack[depth:] = [key]
        out[".".join(stack)] = val.strip()
    return out


def num(text):
    return float(re.match(r"[\d.]+", text).group(0))


def check_roofline(ws, tmp):
    svg, js = os.path.join(tmp, "roof.svg"), os.path.join(tmp, "roof.json")
    run([ws, "run", "--gpu", "h100", "--roofline", svg, "--json", js, MULTI])
    cfg = config(ws, "h100")
    hz = num(cfg["clock.core"]) * 1e6
    sms = num(cfg["sm.count"]) * num(cfg["sm.sub_cores"])
    pipes = {p: sms * hz / num(cfg["units.%s.interval" % p])
             for p in ("fp32", "fp64", "tensor")}
    bws = {"L1": num(cfg["sm.count"]) * num(cfg["l1.line"]) * hz,
           "L2": num(cfg["l2.bandwidth"]) * 1e9,
           "DRAM": num(cfg["dram.bandwidth"]) * 1e9}
    root, groups = plots(svg)
    xmap, ymap = log_axes(root)
    titles = [t for t, _ in groups]

    def ceiling(prefix):
        found = [(t, g) for t, g in groups if t.startswith(prefix)]
        check(len(found) == 1, "no ceiling %r in %r" % (prefix, titles))
        t, g = found[0]
        m = re.search(r": ([\d.]+) ([kMGTP])", t)
        return float(m.group(1)) * SI[m.group(2)], g

    for p, name in (("fp32", "FP32"), ("fp64", "FP64"), ("tensor", "tensor")):
        v, g = ceiling(name)
        check(abs(v / pipes[p] - 1) < 0.006,
              "%s peak labelled %g (expected %g)" % (name, v, pipes[p]))
        line = [sp for q in g.iter(SVG + "path")
                for sp in subpaths(q.get("d"))][1:]
        check(line and all(abs(y - ymap(pipes[p])) < 1 for y in
                           [y for _, y in line[0]]),
              "%s peak drawn at %r (expected y=%.1f)" % (name, line,
                                                        ymap(pipes[p])))
    for level, bw in bws.items():
        v, _ = ceiling(level + " bandwidth")
        check(abs(v / bw - 1) < 0.006,
              "%s bandwidth labelled %g (expected %g)" % (level, v, bw))

    # The level of each marker shape, the kernel of each colour (the key).
    shape, kcolour = {}, {}
    for t, g in groups:
        for level in bws:
            if t.startswith(level + ":"):
                shape[g.find(".//" + SVG + "use").get(XLINK)] = level
        for k in KERNELS:
            if t.startswith(k + " #"):
                key = [q for q in g.iter(SVG + "path")][0]
                kcolour[colour(key.get("stroke"))] = k
    drawn = set()
    for t, g in groups:
        if t.startswith("gnuplot_plot_"):
            for u in g.findall(".//" + SVG + "use"):
                xy = re.search(r"translate\(([-\d.]+),([-\d.]+)\)",
                               u.get("transform"))
                drawn.add((kcolour.get(colour(u.get("color"))),
                           shape.get(u.get(XLINK)), float(xy.group(1)),
                           float(xy.group(2))))
    with open(js) as fp:
        doc = json.load(fp)
    want = 0
    for k in doc["kernels"]:
        c = {n: v["value"] for n, v in k["counters"].items()}
        base = next(n for n in KERNELS if n in k["name"])
        work = sum(c["smsp__inst_executed_pipe_%s.sum" % p]
                   for p in ("fma", "fp16", "fp64", "tensor"))
        if work == 0:
            check(any("not placed" in "".join(t.itertext())
                      and base + " #%d" % k["id"] in "".join(t.itertext())
                      for t in root.iter(SVG + "text")),
                  "kernel %s has no arithmetic and is not named as not "
                  "placed" % base)
            continue
        rate = work / (c["gpc__cycles_elapsed.max"] / hz)
        sector = num(cfg["l1.sector"])
        levels = {
            "L1": c["l1tex__t_sectors_pipe_lsu_mem_global.sum"] * sector,
            "L2": (c["lts__t_sectors_op_read.sum"]
                   + c["lts__t_sectors_op_write.sum"]
                   + c["lts__t_sectors_op_atom.sum"]) * num(cfg["l2.sector"]),
            "DRAM": c["dram__bytes_read.sum"] + c["dram__bytes_write.sum"]}
        for level, nbytes in levels.items():
            if nbytes == 0:
                continue
            want += 1
            x, y = xmap(work / nbytes), ymap(rate)
            check(any(dk == base and dl == level and abs(dx - x) < 1.5
                      and abs(dy - y) < 1.5 for dk, dl, dx, dy in drawn),
                  "kernel %s at %s: no point at (%.1f, %.1f) (drawn: %r)"
                  % (base, level, x, y, sorted(drawn, key=str)))
    check(want > 0, "no kernel to place: this check tests nothing")
    check(len(drawn) == want, "%d kernel points drawn (expected %d)"
          % (len(drawn), want))
    check_roofline_fails(ws, tmp)


def check_roofline_fails(ws, tmp):
    fake = os.path.join(tmp, "fakebin")
    os.mkdir(fake)
    with open(os.path.join(fake, "gnuplot"), "w") as fp:
        fp.write("#!/bin/sh\necho '\"plot.gp\" line 1: broken' >&2\n"
                 "exit 1\n")
    os.chmod(os.path.join(fake, "gnuplot"), 0o755)
    svg, js = os.path.join(tmp, "f.svg"), os.path.join(tmp, "f.json")
    env = dict(os.environ, PATH=fake + os.pathsep + os.environ["PATH"])
    r = subprocess.run([ws, "run", "--json", js, "--roofline", svg, MULTI],
                       capture_output=True, text=True, env=env)
    check(r.returncode == 1 and "gnuplot failed" in r.stderr,
          "a failing gnuplot: exit %d, %r (expected 1, 'gnuplot failed')"
          % (r.returncode, r.stderr))
    check(not os.path.exists(js) and not os.path.exists(svg),
          "a failing gnuplot left outputs behind")
    r = subprocess.run([ws, "run", "--json", js, "--roofline", js, MULTI],
                       capture_output=True, text=True)
    check(r.returncode == 2 and "--roofline" in r.stderr
          and "the same file as --json" in r.stderr,
          "--roofline on --json's file: exit %d, %r" % (r.returncode,
                                                         r.stderr))


def main():
    if shutil.which("gnuplot") is None:
        print("SKIP plots_svg: gnuplot is not installed")
        return 77
    ws = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as tmp:
        check_sweep(ws, tmp)
        check_bars(ws, tmp)
        check_parity(ws, tmp)
        check_roofline(ws, tmp)
    print("ok plots_svg (sweep lines per kernel, bars below zero, parity "
          "points, roofline)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
