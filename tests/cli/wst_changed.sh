#!/bin/sh
# A packed trace (.wst) changed while `warpsim run` reads it must end in
# one error line, exit 2 and nothing written, never SIGBUS; a sweep point
# must fail with that line, not "signal 7"; a trace replaced by a rename
# must not matter.  Deterministic: warpsim runs an external model after
# each kernel, and the model changes the trace between kernel 1 and
# kernel 2 (traces/accelsim/multi has two).
#   usage: wst_changed.sh WARPSIM   (run from the source root)
set -u
ws=$1
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT

fail() {
    echo "FAIL wst_changed: $*"
    echo "--- stderr"; cat "$d/err" 2>/dev/null
    exit 1
}

"$ws" trace pack -o "$d/orig.wst" traces/accelsim/multi || fail "pack multi"
"$ws" trace pack -o "$d/other.wst" traces/accelsim/vecadd || fail "pack vecadd"

# A fresh copy, dated in the past: any write then moves its time,
# whatever the clock's grain.
fresh() {
    cp "$d/orig.wst" "$d/t.wst" && touch -d '2000-01-01 00:00:00' "$d/t.wst"
}

# run with a model that does ACTION (a shell command) after each kernel.
run_with() {
    rm -f "$d/out.json"
    "$ws" run --model "m=$1; cat >/dev/null; echo '{\"cycles\": 1}'" \
        --json "$d/out.json" "$d/t.wst" >"$d/out" 2>"$d/err"
}

# expect_changed CASE ACTION HOW: exit 2, no stdout, no --json, and the
# one line, HOW (a regular expression) saying how it was seen.
expect_changed() {
    fresh
    run_with "$2"
    rc=$?
    [ $rc -eq 2 ] || fail "$1: exit $rc, expected 2"
    [ -s "$d/out" ] && fail "$1: output on stdout"
    [ -f "$d/out.json" ] && fail "$1: --json written despite the error"
    [ "$(wc -l <"$d/err")" -eq 1 ] || fail "$1: not one stderr line"
    grep -Eq "^$d/t\.wst:1:1: the file changed while it was being read \(truncated or rewritten\)$3 \(expected a trace left alone while warpsim runs\)\$" \
        "$d/err" || fail "$1: not the expected line"
}

gone=': byte [0-9]+ was gone when read'
expect_changed "emptied" ": >'$d/t.wst'" "$gone"
expect_changed "cut short" "head -c 1000 '$d/orig.wst' >'$d/t.wst'" "$gone"
expect_changed "rewritten, same bytes" "cat '$d/orig.wst' >'$d/t.wst'" \
    ': modified since it was opened'
expect_changed "one byte changed in place" \
    "printf X | dd of='$d/t.wst' bs=1 seek=100 conv=notrunc 2>/dev/null" \
    ': modified since it was opened'
expect_changed "grown" "cat '$d/other.wst' >>'$d/t.wst'" \
    ': [0-9]+ bytes, [0-9]+ when opened'

# Replaced by a rename: the run keeps the file it opened, and its results
# are those of a run whose model renames something else.
fresh
cp "$d/other.wst" "$d/x.wst"
run_with "mv '$d/x.wst' '$d/y.wst'" || fail "reference run: exit $?"
mv "$d/out.json" "$d/ref.json"
fresh
cp "$d/other.wst" "$d/x.wst"
run_with "[ -f '$d/x.wst' ] && mv '$d/x.wst' '$d/t.wst'" \
    || fail "renamed over: exit $?"
[ -s "$d/err" ] && fail "renamed over: stderr"
cmp -s "$d/ref.json" "$d/out.json" || fail "renamed over: other results"

# A sweep point: the same line in its row, not a signal.
fresh
cat >"$d/s.yaml" <<EOF
kernel: t.wst
gpu: v100
axes:
  set.l2.latency: [100]
models:
  m: ": >'$d/t.wst'; cat >/dev/null; echo '{\"cycles\": 1}'"
EOF
"$ws" sweep "$d/s.yaml" -j 1 -o "$d/s.csv" >/dev/null 2>"$d/err"
grep -q '^0,1,[0-9a-f]*,failed,[^,]*t\.wst:1:1: the file changed while it was being read' \
    "$d/s.csv" || fail "sweep: the point's row: $(head -c 400 "$d/s.csv")"
grep -q 'signal' "$d/s.csv" "$d/err" && fail "sweep: a point died of a signal"
echo "ok wst_changed"
