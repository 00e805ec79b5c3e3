#!/usr/bin/env bash
# Checks the C sources (sim/, model/, tests/) against .clang-format: lists
# each file clang-format would change and exits 1, or exits 0 when none
# would change.  With --fix it rewrites those files in place instead
# (make format).
#   usage: dist/format_check.sh [--fix]
# Leaves out: files that are not C (CMake, Python, YAML, the fuzz corpora)
# and anything under a build folder.
set -euo pipefail
cd "$(dirname "$0")/.."

fix=0
if [ "${1:-}" = "--fix" ]; then
    fix=1
elif [ $# -gt 0 ]; then
    echo "usage: dist/format_check.sh [--fix]" >&2
    exit 2
fi
command -v clang-format >/dev/null || {
    echo "format_check: clang-format not found (make deps installs it)" >&2
    exit 2
}

bad=0
while IFS= read -r -d '' f; do
    if ! clang-format --style=file "$f" | cmp -s - "$f"; then
        if [ "$fix" -eq 1 ]; then
            clang-format --style=file -i "$f"
            echo "formatted $f"
        else
            echo "$f"
            bad=$((bad + 1))
        fi
    fi
done < <(find sim model tests -name '*.[ch]' -type f -print0 | sort -z)

if [ "$bad" -gt 0 ]; then
    echo "format_check: $bad files differ from .clang-format" \
         "(make format rewrites them)" >&2
    exit 1
fi
