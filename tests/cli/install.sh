#!/bin/sh
# make install's result: 'cmake --install BUILD --prefix TMP' puts the
# command, its configs' sources, the bash completion and (with help2man)
# the man page under TMP, and each of them works from there:
#   the installed warpsim runs a bundled trace, on a built-in config and on
#   an installed config file;
#   the completion is the one the command prints ('warpsim --completion
#   bash', from its command table), and completes a command and an option;
#   the man page holds a section for every command of the table
#   ('warpsim --commands');
#   'make install' puts the same under a PREFIX holding blanks and quotes.
#   usage: install.sh BUILD_DIR   (run from the source root)
set -u
build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL install: $*"; exit 1; }

cmake --install "$build" --prefix "$tmp" >"$tmp/log" 2>&1 \
    || { cat "$tmp/log"; fail "cmake --install failed"; }
ws=$tmp/bin/warpsim
[ -x "$ws" ] || fail "no bin/warpsim"
"$ws" --version | grep -q '^warpsim ' || fail "installed warpsim --version"
[ -f "$tmp/share/warpsim/configs/v100.yaml" ] || fail "no configs"
"$ws" run traces/accelsim/vecadd >/dev/null 2>&1 || fail "run, built-in config"
"$ws" run --gpu "$tmp/share/warpsim/configs/a100.yaml" traces/accelsim/vecadd \
    >/dev/null 2>&1 || fail "run --gpu on an installed config file"

comp=$tmp/share/bash-completion/completions/warpsim
[ -f "$comp" ] || fail "no bash completion"
"$ws" --completion bash | cmp -s - "$comp" \
    || fail "the installed completion is not 'warpsim --completion bash'"
if command -v bash >/dev/null; then
    got=$(bash -c '. "$1"; COMP_WORDS=("$2" ru); COMP_CWORD=1; _warpsim;
                   echo "${COMPREPLY[*]}"' sh "$comp" "$ws")
    [ "$got" = run ] || fail "completing 'warpsim ru' gave '$got'"
    got=$(bash -c '. "$1"; COMP_WORDS=("$2" run --max-k); COMP_CWORD=2;
                   _warpsim; echo "${COMPREPLY[*]}"' sh "$comp" "$ws")
    [ "$got" = --max-kernels ] || fail "completing 'run --max-k' gave '$got'"
fi

if grep -q '^WS_HELP2MAN:FILEPATH=/' "$build/CMakeCache.txt"; then
    man1=$tmp/share/man/man1/warpsim.1
    [ -f "$man1" ] || fail "no man page"
    grep -q '^\.TH WARPSIM "1"' "$man1" || fail "man page has no .TH"
    ! grep -q "$(printf '[\f\033]')" "$man1" \
        || fail "man page holds control characters (echo of a \\f escape?)"
    for c in $("$ws" --commands | sed 's/ .*//' | uniq); do
        grep -q "^\.SS \"warpsim $c\"" "$man1" \
            || fail "man page has no section for '$c'"
    done
else
    echo "help2man not found at configure time: man page not checked"
fi

# Through the Makefile (-o build: the build is there, and 'deps' is not
# for a test to run), into a prefix with a blank and both quotes: each
# folder a recipe names must stay one word.
if command -v make >/dev/null; then
    pre="$tmp/pre fix 'q' \"dq\""
    make -s -o build install BUILD="$build" PREFIX="$pre" >"$tmp/log" 2>&1 \
        || { cat "$tmp/log"; fail "make install PREFIX='$pre'"; }
    [ -f "$pre/share/warpsim/configs/v100.yaml" ] \
        || fail "no configs under PREFIX='$pre'"
    "$pre/bin/warpsim" run traces/accelsim/vecadd >/dev/null 2>&1 \
        || fail "run, installed under PREFIX='$pre'"
else
    echo "make not found: make install not checked"
fi
echo "ok install"
