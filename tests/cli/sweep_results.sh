#!/bin/sh
# The sweep's results file under hostile use, in a scratch folder:
#   - two sweeps on one results file at once: the second is refused (exit
#     2) while the first holds it, and the first finishes whole;
#   - a share run into a finished results file keeps the other shares'
#     rows (the file stays the same bytes);
#   - a value added to an axis keeps every finished row whose key did not
#     change (only the new point runs);
#   - resume: a row written twice is kept once, a multi-kernel point with
#     a row missing is run again, and the file ends as an uninterrupted
#     run's;
#   - merge refuses a doubled row, a point with a row missing, a share of
#     another sweep, and a share a sweep still holds (flock);
#   - -j 2 plots are drawn from the sorted table: the same SVG bytes as -j 1.
#   usage: sweep_results.sh WARPSIM   (from the source root)
set -u
ws=$1
src=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
many=$src/tests/data/sweeps/many.yaml
tiny=$src/tests/data/sweeps/tiny.yaml
multi=$src/tests/data/sweeps/multi.yaml
cd "$tmp" || exit 1

fail() { echo "FAIL sweep_results: $*"; exit 1; }

# expect2 PATTERN FILE: exit 2 ($rc), one stderr line matching PATTERN.
expect2() {
    [ "$rc" -eq 2 ] || fail "exit $rc, expected 2: $(cat "$2")"
    [ "$(wc -l < "$2")" -eq 1 ] || fail "expected one line: $(cat "$2")"
    grep -Eq -- "$1" "$2" || fail "'$(cat "$2")' does not match $1"
}

# --- two writers: the second is refused while the first runs.
"$ws" sweep "$many" -j 1 -o both.csv >/dev/null 2>first.err &
first=$!
i=0
lines() { if [ -f "$1" ]; then wc -l < "$1"; else echo 0; fi; }
while [ $i -lt 200 ] && [ "$(lines both.csv)" -lt 3 ]; do
    sleep 0.02
    i=$((i + 1))
done
"$ws" sweep "$many" -j 1 -o both.csv >/dev/null 2>second.err
rc=$?
wait $first || fail "the first sweep failed: $(cat first.err)"
expect2 'warpsim sweep is writing it' second.err
"$ws" sweep "$many" -j 2 -o alone.csv >/dev/null || fail "many failed"
cmp -s both.csv alone.csv || fail "the first writer's file is not whole"

# --- a merge into a file a sweep holds is refused; the results file
# removed while the sweep runs comes back whole at its end.
"$ws" sweep "$tiny" --array-index 0 --array-size 2 -o h0.csv >/dev/null \
    || fail "tiny share 0"
"$ws" sweep "$tiny" --array-index 1 --array-size 2 -o h1.csv >/dev/null \
    || fail "tiny share 1"
"$ws" sweep "$many" -j 1 -o held.csv >/dev/null 2>first.err &
first=$!
i=0
while [ $i -lt 200 ] && [ "$(lines held.csv)" -lt 3 ]; do
    sleep 0.02
    i=$((i + 1))
done
"$ws" sweep merge held.csv h0.csv h1.csv 2>merge.err
rc=$?
rm -f held.csv
wait $first || fail "the sweep whose file was removed failed: $(cat first.err)"
expect2 'held\.csv: a warpsim sweep is writing it now' merge.err
cmp -s held.csv alone.csv || fail "a removed results file did not come back whole"

# --- shares into one finished file keep each other's rows.
"$ws" sweep "$tiny" -j 2 -o full.csv >/dev/null || fail "tiny failed"
cp full.csv before.csv
"$ws" sweep "$tiny" -j 1 --array-index 1 --array-size 2 -o full.csv \
    >out.txt 2>err.txt || fail "share into a full file failed"
grep -q 'dropping' err.txt && fail "a share dropped rows: $(cat err.txt)"
grep -q ', 0 run now' out.txt || fail "a share reran points: $(cat out.txt)"
cmp -s full.csv before.csv || fail "a share changed a finished file"

# --- an axis value added: the finished points stay.
sed 's/param.stride: \[1, 8\]/param.stride: [1, 4, 8]/' "$tiny" > grown.yaml
sed -i "s|kernel: ../../..|kernel: $src|" grown.yaml
cp before.csv grown.csv
"$ws" sweep grown.yaml -j 1 -o grown.csv >out.txt 2>err.txt \
    || fail "grown sweep failed: $(cat err.txt)"
grep -q '6 points, 2 run now' out.txt || fail "grown reran: $(cat out.txt)"
grep -q 'dropping' err.txt && fail "grown dropped rows: $(cat err.txt)"

# --- resume: a doubled row kept once, a torn multi-kernel point rerun.
"$ws" sweep "$multi" -j 1 -o multi.csv >/dev/null || fail "multi failed"
cp multi.csv multi_before.csv
[ "$(wc -l < multi.csv)" -eq 7 ] || fail "multi: expected 6 rows"
sed -n 2p multi.csv >> multi.csv
"$ws" sweep "$multi" -j 1 -o multi.csv >out.txt 2>err.txt \
    || fail "resume with a doubled row failed"
grep -q 'dropping 1 rows written twice' err.txt \
    || fail "doubled row not reported: $(cat err.txt)"
grep -q ', 0 run now' out.txt || fail "a doubled row reran: $(cat out.txt)"
cmp -s multi.csv multi_before.csv || fail "doubled row not cut"
sed -i 3d multi.csv
"$ws" sweep "$multi" -j 1 -o multi.csv >out.txt 2>err.txt \
    || fail "resume with a missing row failed"
grep -q 'dropping 1 points with rows missing' err.txt \
    || fail "torn point not reported: $(cat err.txt)"
grep -q ', 1 run now' out.txt || fail "torn point not rerun: $(cat out.txt)"
cmp -s multi.csv multi_before.csv || fail "torn point not repaired"

# --- merge: doubled, incomplete, foreign, busy.
"$ws" sweep "$multi" --array-index 0 --array-size 2 -o s0.csv >/dev/null \
    || fail "share 0"
"$ws" sweep "$multi" --array-index 1 --array-size 2 -o s1.csv >/dev/null \
    || fail "share 1"
"$ws" sweep merge m.csv s0.csv s1.csv || fail "merge of whole shares"
cmp -s m.csv multi_before.csv || fail "merged shares differ from one run"
cp s0.csv d0.csv
sed -n 2p s0.csv >> d0.csv
"$ws" sweep merge m1.csv d0.csv s1.csv 2>err.txt
rc=$?
expect2 'point 0 row 0 appears twice' err.txt
[ -e m1.csv ] && fail "merge wrote a file despite the error"
sed 3d s0.csv > t0.csv
"$ws" sweep merge m2.csv t0.csv s1.csv 2>err.txt
rc=$?
expect2 'point 0 row 1 is missing' err.txt
sed 's/^\(\([^,]*,\)\{5\}\)[0-9a-f]\{16\}/\1ffffffffffffffff/' s1.csv > f1.csv
"$ws" sweep merge m3.csv s0.csv f1.csv 2>err.txt
rc=$?
expect2 "this row is of sweep 'ffffffffffffffff'" err.txt
if command -v flock >/dev/null; then
    flock s1.csv sleep 3 &
    holder=$!
    sleep 0.3
    "$ws" sweep merge m4.csv s0.csv s1.csv 2>err.txt
    rc=$?
    kill $holder 2>/dev/null
    wait $holder 2>/dev/null
    expect2 'a sweep is still writing it' err.txt
fi

# --- plots from the sorted table: -j 2 draws what -j 1 draws.
if command -v gnuplot >/dev/null; then
    cat > plotted.yaml <<YAML
kernel: $src/traces/kernels/saxpy/workload.yaml
gpu: titanx
params: {n: 8192}
axes:
  param.stride: [1, 2, 4, 8]
  param.threads: [64, 128, 256]
plots:
  - {x: param.threads, y: cycles, series: param.stride, file: p.svg}
YAML
    mkdir a b
    "$ws" sweep plotted.yaml -j 1 -o a/r.csv >/dev/null || fail "plot -j 1"
    "$ws" sweep plotted.yaml -j 2 -o b/r.csv >/dev/null || fail "plot -j 2"
    cmp -s a/p.svg b/p.svg || fail "-j 2 drew a different SVG"
fi
echo "ok sweep_results"
