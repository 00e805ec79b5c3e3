#!/bin/sh
# warpsim sweep end to end, in a scratch folder:
#   - the results do not depend on -j: -j 1 and -j 2 write the same bytes;
#   - a rerun runs nothing and leaves the file as it was;
#   - a torn last row (a sweep killed in a write) is cut and rerun;
#   - a sweep killed with SIGKILL part-way leaves only whole rows, and the
#     rerun finishes it to the same bytes as an uninterrupted run;
#   - shares (--array-index/--array-size) merge back to the whole sweep,
#     and a missing or doubled share is an error;
#   - a point that fails is a "failed" row and the sweep goes on;
#   - a changed axis drops the rows of points that are gone;
#   - Ctrl-C to the process group and SIGTERM exit 130 with whole rows and
#     no false failures, and the rerun finishes to the same bytes;
#   - plots over inputs, and -o over another table, are refused untouched.
#   usage: sweep.sh WARPSIM   (from the source root)
set -u
ws=$1
src=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tiny=$src/tests/data/sweeps/tiny.yaml
many=$src/tests/data/sweeps/many.yaml
cd "$tmp" || exit 1

fail() { echo "FAIL sweep: $*"; exit 1; }

# Every row has as many fields as the header and the file ends in a line
# break.
whole_rows() {
    python3 - "$1" <<'PY' || fail "$1 has a torn or ragged row"
import csv, sys
data = open(sys.argv[1], newline="").read()
assert data.endswith("\n"), "no final line break"
rows = list(csv.reader(data.splitlines()))
assert all(len(r) == len(rows[0]) for r in rows), "ragged row"
PY
}

"$ws" sweep "$tiny" -j 1 -o j1.csv >/dev/null || fail "-j 1 failed"
"$ws" sweep "$tiny" -j 2 -o j2.csv >/dev/null || fail "-j 2 failed"
cmp -s j1.csv j2.csv || fail "-j 1 and -j 2 differ"
[ "$(wc -l < j1.csv)" -eq 5 ] || fail "expected a header and 4 rows"
grep -q ',failed,' j1.csv && fail "a point of tiny.yaml failed"

cp j1.csv before.csv
out=$("$ws" sweep "$tiny" -o j1.csv) || fail "rerun failed"
echo "$out" | grep -q '0 run now' || fail "rerun ran points again: $out"
cmp -s j1.csv before.csv || fail "rerun changed the file"

# A torn last row: half of it, no line break.
head -n 4 before.csv > torn.csv
tail -n 1 before.csv | head -c 40 >> torn.csv
out=$("$ws" sweep "$tiny" -o torn.csv 2>&1) || fail "resume after a torn row"
echo "$out" | grep -q '1 run now' || fail "torn row not rerun: $out"
cmp -s torn.csv before.csv || fail "torn resume differs from a whole run"

# SIGKILL part-way, then resume.
"$ws" sweep "$many" -j 1 -o full.csv >/dev/null || fail "many.yaml failed"
"$ws" sweep "$many" -j 1 -o killed.csv >/dev/null 2>&1 &
pid=$!
# The kill waits for the file and a row or so: a fixed 0.6 s was sometimes
# before the sweep (still starting, on a loaded machine) had made it.
i=0
while [ "$(wc -l < killed.csv 2>/dev/null || echo 0)" -lt 2 ] \
    && kill -0 $pid 2>/dev/null && [ $i -lt 600 ]; do
    sleep 0.05
    i=$((i + 1))
done
sleep 0.2
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
whole_rows killed.csv
rows=$(($(wc -l < killed.csv) - 1))
[ "$rows" -lt 128 ] || echo "note: the sweep ended before the kill"
"$ws" sweep "$many" -j 2 -o killed.csv >/dev/null || fail "resume after kill"
cmp -s killed.csv full.csv || fail "killed and resumed differs from whole"

# Shares and merge.
for i in 0 1 2; do
    "$ws" sweep "$tiny" --array-index $i --array-size 3 -j 1 \
        -o share$i.csv >/dev/null || fail "share $i failed"
done
"$ws" sweep merge merged.csv share0.csv share1.csv share2.csv \
    || fail "merge failed"
cmp -s merged.csv before.csv || fail "merged shares differ from one run"
"$ws" sweep merge m2.csv share0.csv share2.csv 2>err.txt
[ $? -eq 2 ] || fail "merge with a missing share did not exit 2"
grep -q 'in no share' err.txt || fail "missing share not named: $(cat err.txt)"
[ -e m2.csv ] && fail "merge wrote a file despite the error"
"$ws" sweep merge m3.csv share0.csv share1.csv share2.csv share1.csv \
    2>err.txt
[ $? -eq 2 ] || fail "merge with a doubled share did not exit 2"

# A point that fails only in combination: recorded, the rest runs.
"$ws" sweep "$src/tests/data/sweeps/joint_fail.yaml" -o joint.csv \
    >/dev/null 2>err.txt || fail "a failing point stopped the sweep"
[ "$(grep -c ',failed,' joint.csv)" -eq 1 ] || fail "expected 1 failed row"
[ "$(grep -c ',ok,' joint.csv)" -eq 3 ] || fail "expected 3 ok rows"
grep -q 'point 3 failed' err.txt || fail "failure not reported on stderr"
whole_rows joint.csv

# An axis changed: rows of points that are gone are dropped.
sed 's/param.stride: \[1, 8\]/param.stride: [1, 4]/' "$tiny" > changed.yaml
sed -i "s|\.\./\.\./\.\./|$src/|" changed.yaml
cp before.csv changed.csv
out=$("$ws" sweep changed.yaml -o changed.csv 2>&1) || fail "changed sweep"
echo "$out" | grep -q 'dropping 2 rows' || fail "stale rows kept: $out"
echo "$out" | grep -q '2 run now' || fail "new points not run: $out"
whole_rows changed.csv

# A trace is packed once for the points: the same cycles as run on it.
"$ws" sweep "$src/tests/data/sweeps/trace.yaml" -o trace.csv >/dev/null \
    || fail "trace sweep failed"
for bw in 449 898; do
    want=$("$ws" run --set dram.bandwidth=${bw}GB/s \
           "$src/traces/accelsim/vecadd" | sed -n 's/^  cycles \([0-9]*\) .*/\1/p')
    python3 - trace.csv "$bw" "$want" <<'PY' || fail "trace sweep at $bw GB/s differs from run"
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1]))
        if float(r["set.dram.bandwidth"]) == float(sys.argv[2])]
assert len(rows) == 1 and rows[0]["cycles"] == sys.argv[3], rows
PY
done
ls "${TMPDIR:-/tmp}"/warpsim-sweep-* >/dev/null 2>&1 \
    && fail "a packed trace was left in ${TMPDIR:-/tmp}"

# No room to pack the trace (a full TMPDIR, here a file size limit under
# the pack's 170 KB): the points read the text, the same table; once an
# exit 1 "vecadd: write error", which blamed the trace.
mkdir packtmp
(ulimit -f 100 && trap '' XFSZ \
    && TMPDIR=$tmp/packtmp "$ws" sweep "$src/tests/data/sweeps/trace.yaml" \
           -o trace-full.csv >/dev/null 2>err.txt) \
    || fail "trace sweep with no room to pack: $(cat err.txt)"
cmp -s trace.csv trace-full.csv \
    || fail "trace sweep with no room to pack differs from the packed one"
[ -z "$(ls packtmp)" ] || fail "a packed trace was left in packtmp"

# The dry run lists every point and runs none.
n=$("$ws" sweep "$many" --dry-run -o none.csv | wc -l)
[ "$n" -eq 129 ] || fail "dry run listed $n lines, expected 129"
[ -e none.csv ] && fail "dry run wrote results"
# Ctrl-C reaches the whole process group, workers included: exit 130,
# whole rows, no point recorded as failed for being interrupted, no
# temporary file left, and the rerun ends with the uninterrupted bytes.
for try in 1 2 3; do
    rm -f pg.csv
    setsid "$ws" sweep "$many" -j 2 -o pg.csv >/dev/null 2>err.txt &
    pid=$!
    sleep 0.$((3 + try))
    kill -INT -$pid 2>/dev/null
    wait $pid
    rc=$?
    [ -e pg.csv ] || continue
    [ $rc -eq 130 ] || [ $rc -eq 0 ] || fail "Ctrl-C: exit $rc, expected 130"
    whole_rows pg.csv
    grep -q ',failed,' pg.csv && fail "Ctrl-C recorded a point as failed"
    ls pg.csv.tmp.* >/dev/null 2>&1 && fail "Ctrl-C left a temporary file"
    "$ws" sweep "$many" -j 2 -o pg.csv >/dev/null || fail "resume after ^C"
    cmp -s pg.csv full.csv || fail "interrupted and resumed differs"
done
"$ws" sweep "$many" -j 1 -o term.csv >/dev/null 2>&1 &
pid=$!
sleep 0.5
kill -TERM $pid 2>/dev/null
wait $pid
rc=$?
[ $rc -eq 130 ] || [ $rc -eq 0 ] || fail "SIGTERM: exit $rc, expected 130"

# first == last is one value whatever the step's sign (once a hang).
n=$(timeout 10 "$ws" sweep "$src/tests/data/sweeps/geom_one.yaml" \
    --dry-run -o none.csv | wc -l)
[ "$n" -eq 2 ] || fail "geom_one.yaml listed $n lines, expected 2"

# Plots are drawn at the end: one named like the sweep file (an input) or
# the results is refused up front, and nothing is replaced.
sed "s|\.\./\.\./\.\./|$src/|" "$tiny" > self.yaml
printf 'plots:\n  - {x: param.stride, y: cycles, file: self.yaml}\n' \
    >> self.yaml
cp self.yaml self.bak
"$ws" sweep self.yaml -o self.csv >/dev/null 2>err.txt
[ $? -eq 2 ] || fail "a plot over the sweep file did not exit 2"
cmp -s self.yaml self.bak || fail "a plot replaced the sweep file"
[ -e self.csv ] && fail "results written despite a bad plot"

# -o naming another table: refused, and the table is left as it was.
printf 'a,b\n1,2\n' > other.csv
cp other.csv other.bak
"$ws" sweep "$tiny" -o other.csv >/dev/null 2>err.txt
[ $? -eq 2 ] || fail "-o over another table did not exit 2"
cmp -s other.csv other.bak || fail "-o over another table changed it"
echo "ok sweep"
