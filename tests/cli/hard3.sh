#!/bin/sh
# Inputs too large to commit, made here at test time; each bad one must be
# refused with exit 2, one error line, nothing on stdout and no output file
# (the small cases are lines of tests/cli/cases_hard3.txt):
#   config import of a GPGPU-Sim config of 12000 options warpsim does not
#   know: its translation, which lists each, would pass the 1 MiB the config
#   loader reads; refused at the first listed option, exit 2, never naming
#   a temporary file; 9000 such options import and read back with --gpu;
#   an .xz kernel trace of 200 MB of newlines (some 30 KB compressed):
#   refused well under a second, at the line where the run of blank lines
#   passes 4 MiB, not read to its end; the same for a kernelslist.g.xz, for
#   32 MB of blanks and tabs, and for a valid header followed by 32 MB of
#   '#' comment lines.
#   usage: hard3.sh WARPSIM   (run from the source root)
set -u
ws=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL hard3: $*"; [ -f "$tmp/err" ] && cat "$tmp/err"; exit 1; }

now_ms() { date +%s%3N; }

# expect_error WHAT PATTERN CMD...: exit 2, one stderr line matching
# PATTERN, nothing on stdout; sets $ms to the time it took.
expect_error() {
    what=$1 pattern=$2
    shift 2
    t0=$(now_ms)
    "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    ms=$(($(now_ms) - t0))
    [ $rc -eq 2 ] || fail "$what: exit $rc, expected 2"
    [ -s "$tmp/out" ] && fail "$what: output on stdout with an error"
    [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "$what: not one stderr line"
    grep -Eq "$pattern" "$tmp/err" || fail "$what: stderr does not match $pattern"
    grep -q "ws-import-\|imported\.yaml" "$tmp/err" \
        && fail "$what: names a temporary file"
    return 0
}

# ---- config import: a translation past the loader's 1 MiB
gen_options() {   # N FILE: a GPGPU-Sim config of N unknown options
    python3 -c '
import sys
n = int(sys.argv[1])
with open(sys.argv[2], "w") as f:
    f.write("-gpgpu_n_clusters 80\n")
    for i in range(n):
        f.write("-zz_unknown_%06d 1\n" % i)' "$1" "$2"
}
gen_options 12000 "$tmp/big.config"
expect_error "config import, 12000 options" \
    '^'"$tmp"'/big\.config:2:1: -zz_unknown_000000: the first of 12000 options listed as having no warpsim equivalent, which make the translated config [0-9]+ bytes \(expected at most 1048576 bytes' \
    "$ws" config import "$tmp/big.config" -o "$tmp/big.yaml"
[ -e "$tmp/big.yaml" ] && fail "config import wrote -o despite the error"
gen_options 9000 "$tmp/ok.config"
"$ws" config import "$tmp/ok.config" -o "$tmp/ok.yaml" 2>"$tmp/err" \
    || fail "config import of 9000 options"
[ "$(wc -c <"$tmp/ok.yaml")" -le 1048576 ] || fail "ok.yaml past 1 MiB"
"$ws" config show --gpu "$tmp/ok.yaml" >/dev/null 2>"$tmp/err" \
    || fail "config show --gpu of the imported 9000 options"

# ---- .xz streams of nothing: refused within their first MiBs, not at the end
gen_xz() {   # FILE HEADER PATTERN BYTES: HEADER, then BYTES of PATTERN, .xz
    python3 -c '
import lzma, sys
head, pat, n = sys.argv[2].encode(), sys.argv[3].encode(), int(sys.argv[4])
c = lzma.LZMACompressor(preset=0)
block = pat * ((1 << 20) // len(pat))
parts = [c.compress(head)]
for _ in range(n // len(block)):
    parts.append(c.compress(block))
parts.append(c.flush())
open(sys.argv[1], "wb").write(b"".join(parts))' "$@"
}
gen_xz "$tmp/nl.traceg.xz" "" "
" 200000000
expect_error "xz trace of newlines" \
    "^$tmp/nl\.traceg\.xz:4194305:1: more than 4 MiB of blank lines in a row \(expected text lines" \
    "$ws" trace info "$tmp/nl.traceg.xz"
[ "$ms" -lt 1000 ] || fail "xz trace of newlines refused after $ms ms"
expect_error "run, xz trace of newlines" "blank lines in a row" \
    "$ws" run "$tmp/nl.traceg.xz"
[ "$ms" -lt 1000 ] || fail "run of an xz trace of newlines took $ms ms"

mkdir "$tmp/list"
cp "$tmp/nl.traceg.xz" "$tmp/list/kernelslist.g"
expect_error "xz kernelslist.g of newlines" "blank lines in a row" \
    "$ws" trace info "$tmp/list"
[ "$ms" -lt 1000 ] || fail "xz kernelslist of newlines took $ms ms"

gen_xz "$tmp/sp.traceg.xz" "" "  	
" 32000000
expect_error "xz trace of blanks and tabs" "blank lines in a row" \
    "$ws" trace info "$tmp/sp.traceg.xz"

head -n 16 traces/accelsim/vecadd/kernel-1.traceg >"$tmp/head"
gen_xz "$tmp/cm.traceg.xz" "$(cat "$tmp/head")
" "#
" 32000000
expect_error "xz trace of comments after its header" \
    "^$tmp/cm\.traceg\.xz:[0-9]+:1: more than 4 MiB of comment and blank lines between thread blocks \(expected '#BEGIN_TB' within them\)" \
    "$ws" trace info "$tmp/cm.traceg.xz"
[ "$ms" -lt 1000 ] || fail "xz trace of comments took $ms ms"
echo "ok hard3"
