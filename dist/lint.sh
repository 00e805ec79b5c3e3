#!/usr/bin/env bash
# Static analysis of the library and the command (sim/ and model/): cppcheck (warnings, performance, portability) and clang-tidy (the
# checks chosen in .clang-tidy), both reading the compile commands CMake
# exports, so each file is analysed with the flags it is built with.
# Prints every finding and exits 1 when there is any, 0 when both are
# clean.
#   usage: dist/lint.sh [BUILD]     (default build-lint: configured here,
#                                    never built)
# A finding that is not a bug is suppressed where it is, with its reason:
# in the line (cppcheck-suppress ID, NOLINT(check)) or, for cppcheck, in
# dist/cppcheck.supp.  JOBS (default: the number of cores) analysers at
# once; about 3 minutes with one job on two shared cores.
# Leaves out: tests/ (they feed bad input on purpose); the generated
# ws_cfg_embedded.c.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=${1:-build-lint}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 1)}

for tool in cppcheck clang-tidy cmake python3; do
    command -v "$tool" >/dev/null || {
        echo "lint: $tool not found (make deps installs it)" >&2
        exit 2
    }
done

cmake -S . -B "$build" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON -DWS_LTO=OFF >/dev/null
db=$build/lint
mkdir -p "$db"
# The library's entries only, in a database of their own (clang-tidy -p
# reads a folder's compile_commands.json).
python3 - "$build/compile_commands.json" "$db/compile_commands.json" \
    "$root" <<'PY'
import json, sys
src, dst, root = sys.argv[1:]
keep = tuple(root + d for d in ("/sim/", "/model/"))
entries = [e for e in json.load(open(src))
           if e["file"].startswith(keep)]
json.dump(entries, open(dst, "w"), indent=1)
PY
mapfile -t files < <(python3 -c 'import json, sys
for e in json.load(open(sys.argv[1])): print(e["file"])' \
    "$db/compile_commands.json")

status=0
echo "lint: cppcheck over ${#files[@]} files"
if ! cppcheck --project="$db/compile_commands.json" -j"$jobs" --quiet \
        --enable=warning,performance,portability --inline-suppr \
        --suppressions-list=dist/cppcheck.supp \
        --library=dist/cppcheck-jansson.cfg --error-exitcode=1 \
        --template='{file}:{line}:{column}: {severity}: {message} [{id}]'
then
    status=1
fi

echo "lint: clang-tidy over ${#files[@]} files"
if ! printf '%s\0' "${files[@]}" |
        xargs -0 -n 8 -P "$jobs" clang-tidy -p "$db" --quiet \
        2>"$db/clang-tidy.err"; then
    status=1
fi
# clang-tidy's own chatter ("N warnings generated") goes to standard error;
# an error of its own (a file it cannot parse) is a finding too.
grep -v -e 'warnings\? generated\.$' -e '^Suppressed [0-9]* warnings' \
     -e '^Use -header-filter' -e '^$' "$db/clang-tidy.err" >&2 || true

if [ "$status" -ne 0 ]; then
    echo "lint: findings above (fix them, or suppress one with its reason)" >&2
fi
exit "$status"
