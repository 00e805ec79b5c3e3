#!/usr/bin/env python3
"""Rescore one scoreboard's runs against an older one: the before/after table.

Given the study folders written by `make validate` with an older warpsim
(BEFORE) and with this one (AFTER, default validate/out), it pairs the runs
both made with the same axes and the same simulated cycles (so the
simulation is the same judge on both sides) and prints, per model and per
domain as this warpsim states it, the MAPE and median APE of the old
predictions beside the new. The old mwp_cwp_l2 is compared with both the
new as-written form and warpsim's reuse extension, which is what it was.

It leaves out the hardware cases and sweeps the older warpsim did not
have (hw_*, est_*, quadrant): there is nothing to pair them with.

  usage: validate/rescore_before.py BEFORE [AFTER]
  e.g.   git worktree add /tmp/old 2ad918c && (cd /tmp/old && make validate)
         validate/rescore_before.py /tmp/old/validate/out
"""
import csv
import glob
import os
import statistics
import sys

PAIRS = (('mwp_cwp', 'mwp_cwp'), ('mwp_cwp_l2_reuse', 'mwp_cwp_l2'),
         ('mwp_cwp_l2', 'mwp_cwp_l2'), ('tmm', 'tmm'))


def rows(path):
    with open(path, newline='') as f:
        return list(csv.DictReader(f))


def paired_errors(before, after):
    res = {}
    for new in sorted(glob.glob(os.path.join(after, '*', '*.csv'))):
        study = os.path.basename(os.path.dirname(new))
        stem = os.path.basename(new)[:-4]
        old = os.path.join(before, study, stem + '.csv')
        if (stem == 'points' or study == 'quadrant' or not os.path.exists(old)
                or stem.startswith(('hw_', 'est_', 'quadrant'))):
            continue
        nr, orows = rows(new), rows(old)
        if not nr:
            continue
        axes = [c for c in nr[0] if c.startswith(('param.', 'set.', 'gpu'))]
        axes.append('kernel_id')
        om = {tuple(r.get(c, '') for c in axes): r for r in orows}
        for r in nr:
            o = om.get(tuple(r.get(c, '') for c in axes))
            if r['status'] != 'ok' or not o or o['cycles'] != r['cycles']:
                continue
            sim = float(r['cycles'])
            for new_m, old_m in PAIRS:
                ind = 'in' if r[new_m + '_domain'].startswith('in:') else 'out'
                for tag, src, col in (('old', o, old_m), ('new', r, new_m)):
                    try:
                        v = float(src[col + '_cycles'])
                    except (KeyError, ValueError):
                        continue
                    if v > 0:
                        res.setdefault((new_m, ind, tag), []).append(
                            abs(v - sim) / sim)
    return res


def pct(xs, f):
    return '%.1f %%' % (100 * f(xs)) if xs else '-'


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__.split('\n\n')[-1])
    after = sys.argv[2] if len(sys.argv) == 3 else 'validate/out'
    res = paired_errors(sys.argv[1], after)
    mean = lambda xs: sum(xs) / len(xs)
    print('| model | domain | runs old/new | MAPE old | MAPE new '
          '| median APE old | median new |')
    print('|---|---|---|---|---|---|---|')
    for m, _ in PAIRS:
        for d in ('in', 'out'):
            o, n = res.get((m, d, 'old'), []), res.get((m, d, 'new'), [])
            if n:
                print('| %s | %s | %d/%d | %s | %s | %s | %s |' % (
                    m, d, len(o), len(n), pct(o, mean), pct(n, mean),
                    pct(o, statistics.median), pct(n, statistics.median)))


if __name__ == '__main__':
    main()
