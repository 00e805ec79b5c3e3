#!/usr/bin/env python3
"""Fails if a folder of sim/ or model/ includes one above it.

The layering of warpsim (util at the bottom, cli at the top; the models
reading input, config and the profile, never the timing model) holds only
while no folder reaches back up.  This reads every #include "..." line,
turns it into an edge between folders, and checks each edge against ORDER:
an include goes to a folder listed earlier.  Order alone rules out cycles;
the cycle search stays because it names the loop, which is what one wants
to see first when a folder is missing from ORDER.

    usage: check_layers.py SOURCE_ROOT
"""
import os
import re
import sys

# Bottom to top: a folder may include only folders before it.  A new folder
# gets its place here (and in the README's layout) in the same change.
ORDER = ["util", "trace", "listing", "workload", "input", "config", "import",
         "stats", "mem", "timing", "model", "measure", "analyze", "report",
         "sweep", "validate", "run", "cli"]

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def folders(root):
    out = {}
    for d in sorted(os.listdir(os.path.join(root, "sim"))):
        path = os.path.join(root, "sim", d)
        if os.path.isdir(path):
            out[d] = path
    out["model"] = os.path.join(root, "model")
    return out


def owner(root, fold, src, inc):
    """The folder an include resolves to, as the compiler would find it."""
    here = os.path.dirname(src)
    for base in (here, os.path.join(root, "sim"), os.path.join(root, "model")):
        full = os.path.normpath(os.path.join(base, inc))
        if os.path.exists(full):
            for name, path in fold.items():
                if os.path.dirname(full) == os.path.normpath(path):
                    return name
            return None
    return None


def edges(root):
    fold = folders(root)
    graph = {name: {} for name in fold}
    for name, path in fold.items():
        for f in sorted(os.listdir(path)):
            if not f.endswith((".c", ".h")):
                continue
            src = os.path.join(path, f)
            with open(src, encoding="utf-8", errors="replace") as fp:
                for n, line in enumerate(fp, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    to = owner(root, fold, src, m.group(1))
                    if to and to != name:
                        graph[name].setdefault(to, "%s:%d" % (src, n))
    return graph


def find_cycle(graph):
    state = {}
    stack = []

    def visit(v):
        state[v] = 1
        stack.append(v)
        for w in sorted(graph[v]):
            if state.get(w) == 1:
                return stack[stack.index(w):] + [w]
            if w not in state:
                cyc = visit(w)
                if cyc:
                    return cyc
        stack.pop()
        state[v] = 2
        return None

    for v in sorted(graph):
        if v not in state:
            cyc = visit(v)
            if cyc:
                return cyc
    return None


def upward(graph, order):
    """Edges that go up ORDER, and folders ORDER does not place."""
    bad = []
    for v in sorted(graph):
        if v not in order:
            bad.append("folder %s has no place in ORDER" % v)
            continue
        for w in sorted(graph[v]):
            if w in order and order.index(w) >= order.index(v):
                bad.append("%s includes %s, which is above it, at %s"
                           % (v, w, graph[v][w]))
    return bad


def self_test():
    """The checks must be able to fail: a two-folder cycle in a scratch
    tree, and an edge up a two-folder order."""
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        for d, inc in (("a", "b/y.h"), ("b", "a/x.h")):
            os.makedirs(os.path.join(tmp, "sim", d))
        os.makedirs(os.path.join(tmp, "model"))
        with open(os.path.join(tmp, "sim", "a", "x.h"), "w") as fp:
            fp.write('#include "b/y.h"\n')
        with open(os.path.join(tmp, "sim", "b", "y.h"), "w") as fp:
            fp.write('#include "a/x.h"\n')
        cyc = find_cycle(edges(tmp))
        if cyc != ["a", "b", "a"]:
            print("FAIL layers self-test: cycle a -> b -> a not found: %r" % cyc)
            return 1
        if len(upward(edges(tmp), ["a", "b", "model"])) != 1:
            print("FAIL layers self-test: a -> b up the order not found")
            return 1
    return 0


def main():
    if self_test():
        return 1
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    graph = edges(root)
    cycle = find_cycle(graph)
    if cycle:
        print("FAIL layers: folders include each other: " + " -> ".join(cycle))
        for a, b in zip(cycle, cycle[1:]):
            print("  %s -> %s at %s" % (a, b, graph[a][b]))
        return 1
    bad = upward(graph, ORDER)
    if bad:
        for b in bad:
            print("FAIL layers: " + b)
        return 1
    for v in sorted(graph, key=ORDER.index):
        print("  %-9s -> %s" % (v, ", ".join(sorted(graph[v])) or "-"))
    print("ok layers: every include goes down the order, no cycle")
    return 0


if __name__ == "__main__":
    sys.exit(main())
