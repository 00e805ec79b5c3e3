#!/bin/sh
# Output files under hostile paths: symlinks, FIFOs, read-only files, an
# output naming an input, two outputs on one path, standard output as a
# path, a closed standard output, trace gen into missing folders and
# interrupted by a signal.  Everything happens inside a temporary folder:
# no real device node is touched.
#   usage: outputs.sh WARPSIM   (run from the source root)
set -u
ws=$1
case $ws in /*) ;; *) ws=$(pwd)/$ws ;; esac    # some cases run elsewhere
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trace=traces/accelsim/vecadd
failures=0

fail() {
    echo "FAIL $case: $*"
    [ -f "$tmp/err" ] && { echo "--- stderr"; cat "$tmp/err"; }
    failures=$((failures + 1))
}

# expect_error PATTERN: exit 2, one stderr line matching PATTERN, no stdout.
expect_error() {
    [ "$rc" -eq 2 ] || fail "exit $rc, expected 2"
    [ -s "$tmp/out" ] && fail "output on stdout with an error"
    [ "$(wc -l < "$tmp/err")" -eq 1 ] || fail "expected one stderr line"
    grep -Eq -- "$1" "$tmp/err" || fail "stderr does not match $1"
    grep -Eq '^[^:]+:[0-9]+:[0-9]+: .*\(expected .*\)$' "$tmp/err" \
        || fail "not 'file:line:col: what (expected what)'"
}

run() {
    "$ws" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
}

case=symlink
echo old > "$tmp/real.json"
ln -s real.json "$tmp/link.json"
run run --json "$tmp/link.json" $trace
[ "$rc" -eq 0 ] || fail "exit $rc"
[ -L "$tmp/link.json" ] || fail "the symlink was replaced"
grep -q '"schema_version"' "$tmp/real.json" || fail "the link's target was not written"

case=dangling_symlink
ln -s new.csv "$tmp/dangling.csv"
run run --csv "$tmp/dangling.csv" $trace
[ "$rc" -eq 0 ] || fail "exit $rc"
[ -L "$tmp/dangling.csv" ] || fail "the symlink was replaced"
[ -s "$tmp/new.csv" ] || fail "the file the link names was not created"

case=fifo
mkfifo "$tmp/fifo"
cat "$tmp/fifo" > "$tmp/from_fifo" &
reader=$!
run run --json "$tmp/fifo" $trace
wait $reader
[ "$rc" -eq 0 ] || fail "exit $rc"
[ -p "$tmp/fifo" ] || fail "the FIFO was replaced"
grep -q '"schema_version"' "$tmp/from_fifo" || fail "nothing came through the FIFO"

case=read_only
echo keep > "$tmp/ro.json"
chmod 444 "$tmp/ro.json"
run run --json "$tmp/ro.json" $trace
expect_error 'ro.json: is read-only'
[ "$(cat "$tmp/ro.json")" = keep ] || fail "the read-only file changed"

case=empty_path
run run --json '' $trace
expect_error "--json '': an empty path"

case=output_is_input
cp -r $trace "$tmp/in"
cp "$tmp/in/kernel-1.traceg" "$tmp/orig.traceg"
run run --json "$tmp/in/kernel-1.traceg" "$tmp/in"
expect_error 'is an input of this command'
cmp -s "$tmp/in/kernel-1.traceg" "$tmp/orig.traceg" || fail "the input trace changed"
run trace info --json "$tmp/in/kernelslist.g" "$tmp/in"
expect_error 'is an input of this command'

case=output_is_workload_listing
mkdir "$tmp/wl"
cp traces/kernels/saxpy/workload.yaml traces/kernels/saxpy/saxpy.sm_80.sass "$tmp/wl/"
cp "$tmp/wl/saxpy.sm_80.sass" "$tmp/listing.orig"
run run --json "$tmp/wl/saxpy.sm_80.sass" -p n=1000 "$tmp/wl/workload.yaml"
expect_error 'is an input of this command'
run trace info --json "$tmp/wl/saxpy.sm_80.sass" -p n=1000 "$tmp/wl/workload.yaml"
expect_error 'is an input of this command'
cmp -s "$tmp/wl/saxpy.sm_80.sass" "$tmp/listing.orig" || fail "the listing changed"

case=output_is_config_base
printf 'base: v100.yaml\nname: "child"\n' > "$tmp/child.yaml"
cp configs/v100.yaml "$tmp/v100.yaml"
cp "$tmp/v100.yaml" "$tmp/v100.orig"
run run --gpu "$tmp/child.yaml" --json "$tmp/v100.yaml" $trace
expect_error 'is an input of this command'
cmp -s "$tmp/v100.yaml" "$tmp/v100.orig" || fail "the base config changed"

case=two_outputs_one_stream
"$ws" run --json /proc/self/fd/1 --csv /proc/self/fd/1 $trace > "$tmp/out" 2>"$tmp/err"
rc=$?
expect_error 'the same file as --json'

case=output_is_kernel_of_long_list
mkdir "$tmp/many"
i=1
while [ $i -le 300 ]; do
    cp tests/data/bad/good.traceg "$tmp/many/kernel-$i.traceg"
    echo "kernel-$i.traceg" >> "$tmp/many/kernelslist.g"
    i=$((i + 1))
done
cp "$tmp/many/kernel-300.traceg" "$tmp/k300.orig"
for cmd in "profile" "model roofline" "trace info"; do
    # shellcheck disable=SC2086
    run $cmd --json "$tmp/many/kernel-300.traceg" "$tmp/many"
    expect_error 'is an input of this command'
done
cmp -s "$tmp/many/kernel-300.traceg" "$tmp/k300.orig" || fail "a kernel was overwritten"

case=two_outputs_one_path
run run --json "$tmp/same" --csv "$tmp/./same" $trace
expect_error '--csv .*: the same file as --json'
[ -e "$tmp/same" ] && fail "an output was written"

case=folder
run run --csv "$tmp" $trace
expect_error 'is a folder'

case=missing_folder
run run --json "$tmp/no/such/out.json" $trace
expect_error 'its folder does not exist'

case=stdout_path
"$ws" run --json /proc/self/fd/1 $trace > "$tmp/both" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] || fail "exit $rc"
[ -f "$tmp/both" ] && [ ! -L "$tmp/both" ] || fail "stdout's file was replaced"
grep -q '"schema_version"' "$tmp/both" || fail "no JSON on stdout"
grep -q '^total: ' "$tmp/both" || fail "no summary on stdout"

case=closed_stdout
"$ws" run $trace >&- 2>"$tmp/err"
rc=$?
[ "$rc" -ne 0 ] || fail "exit 0 with standard output closed"
grep -q 'standard output is closed' "$tmp/err" || fail "no message"

case=stream_held_until_success
"$ws" run --timeline /proc/self/fd/1 tests/data/bad/list > "$tmp/out" 2>"$tmp/err"
rc=$?
expect_error 'kernel-2.traceg'

case=gen_no_folders_left
run trace gen -o "$tmp/made/a/b" tests/data/bad/wl-div0.yaml
[ "$rc" -eq 2 ] || fail "exit $rc, expected 2"
[ -e "$tmp/made" ] && fail "folders made for a failed trace gen were left"

case=gen_mkdir
run trace gen -p n=1000 -o "$tmp/a/b/c" traces/kernels/saxpy/workload.yaml
[ "$rc" -eq 0 ] || fail "exit $rc"
[ -s "$tmp/a/b/c/kernel-1.traceg" ] && [ -s "$tmp/a/b/c/kernelslist.g" ] \
    || fail "trace not written"

case=gen_not_a_folder
echo x > "$tmp/file"
run trace gen -p n=1000 -o "$tmp/file/sub" traces/kernels/saxpy/workload.yaml
expect_error 'file is not a folder'

case=gen_interrupted
mkdir "$tmp/big"
"$ws" trace gen -p n=16777216 -o "$tmp/big" traces/kernels/saxpy/workload.yaml \
    >/dev/null 2>&1 &
gen=$!
i=0
while [ $i -lt 100 ] && ! ls -A "$tmp/big" | grep -q '^\.warpsim-'; do
    sleep 0.05
    i=$((i + 1))
done
ls -A "$tmp/big" | grep -q '^\.warpsim-' \
    || fail "no temporary file seen while writing"
kill -TERM $gen
wait $gen
[ -z "$(ls -A "$tmp/big")" ] || fail "left behind: $(ls -A "$tmp/big")"

case=validate_empty_dir
run validate -o '' saxpy
[ "$rc" -eq 2 ] || fail "exit $rc, expected 2"
grep -q "an empty folder name" "$tmp/err" || fail "not refused as empty"

case=validate_read_only_report
mkdir -p "$tmp/val/saxpy"
echo keep > "$tmp/val/saxpy/report.md"
chmod 444 "$tmp/val/saxpy/report.md"
run validate --quick -o "$tmp/val" saxpy
expect_error 'report\.md: is read-only'
[ "$(cat "$tmp/val/saxpy/report.md")" = keep ] || fail "report replaced"
[ -e "$tmp/val/saxpy/saxpy.csv" ] && fail "sweeps ran before the refusal"

case=validate_failed_leaves_no_folder
run validate --quick -o "$tmp/nothing/here" --model x saxpy
[ -e "$tmp/nothing" ] && fail "a failed validate left folders"

# Run elsewhere, validate takes the study files from the source tree it
# was built from and writes where the user stands.
case=validate_outside_source_root
mkdir "$tmp/elsewhere"
(cd "$tmp/elsewhere" && "$ws" validate --quick -o res hardware >"$tmp/out" 2>"$tmp/err")
rc=$?
[ "$rc" -eq 0 ] || fail "exit $rc: $(cat "$tmp/err")"
[ -s "$tmp/elsewhere/res/hardware/report.md" ] || fail "no report where the user stands"
grep -q 'the study files of' "$tmp/out" || fail "no note of where the study files came from"

# A scratch source root holding the saxpy study, so that links planted at
# report files point at inputs in it and never at the checkout's own.
root=$tmp/root
mkdir -p "$root/validate" "$root/traces/kernels"
cp -R validate/studies "$root/validate/"
cp -R traces/kernels/saxpy "$root/traces/kernels/"

case=validate_listing_is_input
mkdir -p "$tmp/vl/saxpy"
ln -s "$root/traces/kernels/saxpy/saxpy.sm_80.sass" "$tmp/vl/saxpy/report.md"
(cd "$root" && "$ws" validate --quick -o "$tmp/vl" saxpy >"$tmp/out" 2>"$tmp/err")
rc=$?
expect_error 'report\.md: is an input of this command'
[ -e "$tmp/vl/saxpy/saxpy.csv" ] && fail "sweeps ran before the refusal"
cmp -s "$root/traces/kernels/saxpy/saxpy.sm_80.sass" \
    traces/kernels/saxpy/saxpy.sm_80.sass || fail "the listing was written"

case=validate_chart_is_folder
mkdir -p "$tmp/vc/quadrant/quadrant.svg"
run validate --quick -o "$tmp/vc" quadrant
expect_error 'quadrant\.svg: is a folder'
[ -e "$tmp/vc/quadrant/quadrant.csv" ] && fail "the sweep ran first"

case=validate_no_sweep_ran
mkdir -p "$tmp/empty/validate/studies"
: > "$tmp/empty/validate/studies/saxpy.yaml"
: > "$tmp/empty/validate/studies/saxpy_paper.yaml"
(cd "$tmp/empty" && "$ws" validate --quick -o out saxpy >"$tmp/out" 2>"$tmp/err")
rc=$?
expect_error 'study saxpy ran no sweep'

case=output_folder_takes_no_files
if [ -f /proc/self/comm ]; then
    run run --json /proc/self/comm $trace
    expect_error 'its folder takes no new file'
fi

case=output_long_name
long=$(printf '%0250d' 0)
run run --json "$tmp/$long" $trace
[ "$rc" -eq 0 ] || fail "exit $rc: a name near NAME_MAX"
[ -s "$tmp/$long" ] || fail "not written"
[ -z "$(ls -A "$tmp" | grep '^\.warpsim-')" ] || fail "temporary file left"

[ $failures -eq 0 ] || exit 1
echo "ok outputs"
