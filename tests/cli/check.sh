#!/bin/sh
# Runs one command-line test case of tests/cli/cases*.txt from the source root.
#   usage: check.sh WARPSIM CASE
# Case kinds (second word of the case line, the rest is warpsim's arguments):
#   golden  exit 0, no stderr, stdout equal to tests/golden/CASE.out
#   json    exit 0, the file given to --json (written as @JSON@) equal to
#           tests/golden/CASE.json
#   file    exit 0, the file written as @OUT@ equal to tests/golden/CASE.file
# @TMP@ in the arguments is a scratch folder.
#   error   exit 2, no stdout, exactly one stderr line matching the regular
#           expression in tests/golden/CASE.err, in the form
#           "file:line:col: what (expected what)" unless the .err file says
#           otherwise
#   ok      exit 0, no stderr (output not compared)
#   warn    exit 0, stdout equal to tests/golden/CASE.out, and stderr one
#           or more "file:line:col: warning: what" lines, the first matching
#           the regular expression in tests/golden/CASE.err
# WS_UPDATE_GOLDEN=1 rewrites the expected files from the current output.
set -u
ws=$1
name=$2
line=$(grep -h "^$name " tests/cli/cases*.txt) || { echo "no case $name"; exit 1; }
set -f
# shellcheck disable=SC2086
set -- $line
shift
kind=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
args=""
for a in "$@"; do
    [ "$a" = "@JSON@" ] && a="$tmp/out.json"
    [ "$a" = "@OUT@" ] && a="$tmp/out.file"
    [ "$a" = "@TMP@" ] && a="$tmp"
    args="$args $a"
done
# shellcheck disable=SC2086
"$ws" $args >"$tmp/out" 2>"$tmp/err"
rc=$?
golden=tests/golden/$name

fail() {
    echo "FAIL $name: $*"
    echo "--- stdout"; head -40 "$tmp/out"
    echo "--- stderr"; cat "$tmp/err"
    exit 1
}

compare() {   # expected actual
    if [ "${WS_UPDATE_GOLDEN:-0}" = 1 ]; then
        cp "$2" "$1"
        return
    fi
    [ -f "$1" ] || fail "missing $1"
    diff -u "$1" "$2" || fail "output differs from $1"
}

case $kind in
golden)
    [ $rc -eq 0 ] || fail "exit $rc, expected 0"
    [ -s "$tmp/err" ] && fail "unexpected stderr"
    compare "$golden.out" "$tmp/out" ;;
json)
    [ $rc -eq 0 ] || fail "exit $rc, expected 0"
    # the build's source commit changes with every commit: not compared
    grep -v '"commit": ' "$tmp/out.json" > "$tmp/out.nocommit.json"
    compare "$golden.json" "$tmp/out.nocommit.json" ;;
file)
    [ $rc -eq 0 ] || fail "exit $rc, expected 0"
    compare "$golden.file" "$tmp/out.file" ;;
ok)
    [ $rc -eq 0 ] || fail "exit $rc, expected 0"
    [ -s "$tmp/err" ] && fail "unexpected stderr" ;;
warn)
    [ $rc -eq 0 ] || fail "exit $rc, expected 0"
    compare "$golden.out" "$tmp/out"
    [ -s "$tmp/err" ] || fail "expected a warning on stderr"
    grep -Evq '^[^:]+:[0-9]+(:[0-9]+)?: warning: ' "$tmp/err" \
        && fail "a stderr line is not 'file:line:col: warning: what'"
    pattern=$(head -n 1 "$golden.err")
    head -n 1 "$tmp/err" | grep -Eq "$pattern" \
        || fail "first warning does not match $pattern" ;;
error)
    [ $rc -eq 2 ] || fail "exit $rc, expected 2"
    [ -s "$tmp/out" ] && fail "output on stdout with an error"
    [ "$(wc -l < "$tmp/err")" -eq 1 ] || fail "expected exactly one stderr line"
    if [ "${WS_UPDATE_GOLDEN:-0}" = 1 ] && [ ! -f "$golden.err" ]; then
        fail "write $golden.err by hand: it is a regular expression"
    fi
    pattern=$(head -n 1 "$golden.err")
    grep -Eq "$pattern" "$tmp/err" || fail "stderr does not match $pattern"
    if ! grep -q "^# free form" "$golden.err" 2>/dev/null; then
        grep -Eq '^[^:]+:[0-9]+:[0-9]+: .*\(expected .*\)$' "$tmp/err" \
            || fail "not 'file:line:col: what (expected what)'"
    fi
    [ -f "$tmp/out.json" ] && fail "JSON written despite the error"
    [ -f "$tmp/out.file" ] && fail "output file written despite the error" ;;
*)
    echo "unknown case kind $kind"; exit 1 ;;
esac
echo "ok $name"
