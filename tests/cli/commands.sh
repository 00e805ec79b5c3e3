#!/bin/sh
# The command table (sim/cli/ws_commands.c) against what is made from it
# and against each command's own --help (cmd_*.c), so that a command,
# subcommand or option cannot be lost from one of them:
#   dispatch: every row ('warpsim --commands') runs its command: 'warpsim
#   CMD [SUB] --help' exits 0, silent on stderr, its usage naming CMD SUB;
#   the main help lists every row ("  CMD SUB ..." at a line's start) and
#   no command that is not a row;
#   the unknown-command error names every command, and a command with its
#   last letter lost gets that command suggested; an unknown subcommand's
#   error names every subcommand of the table;
#   the completion ('warpsim --completion bash') offers every command and
#   subcommand, every option of each row's help and none its help lacks,
#   the built-in configs after --gpu ('config list'), the models after
#   'model' ('model --help'), the studies after 'validate'.
#   usage: commands.sh WARPSIM   (run from the source root)
set -u
ws=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL commands: $*"; exit 1; }

"$ws" --commands >"$tmp/rows" 2>"$tmp/err" || fail "--commands failed"
[ -s "$tmp/rows" ] && [ ! -s "$tmp/err" ] || fail "--commands printed no rows"
cut -d' ' -f1 "$tmp/rows" | uniq >"$tmp/cmds"
[ -z "$(sort "$tmp/cmds" | uniq -d)" ] \
    || fail "the rows of a command are not neighbours in the table"
"$ws" --help >"$tmp/help" || fail "--help failed"
"$ws" --completion bash >"$tmp/comp.bash" || fail "--completion bash failed"
command -v bash >/dev/null || fail "bash not found (the completion is bash)"

# The completion's words for a command line whose last word is being typed.
complete_line() {
    bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1));
             _warpsim; printf "%s\n" "${COMPREPLY[@]}"' \
        sh "$tmp/comp.bash" "$ws" "$@" | sort -u
}

# The options a help text's option lines name (first column only: prose
# mentions other tools' options).
help_options() {
    grep -E '^(  -[A-Za-z0-9][, ]|      --[A-Za-z])' \
        | sed -e 's/^ *//' -e 's/  .*//' | tr ', ' '\n\n' | grep -E '^-' \
        | sort -u
}

# $1 must hold every line of $2; $3 says what is missing.
holds() {
    missing=$(sort -u "$2" | comm -13 "$1" -)
    [ -z "$missing" ] || fail "$3: $(echo $missing)"
}

while read -r cmd sub <&3; do
    # shellcheck disable=SC2086
    "$ws" $cmd $sub --help >"$tmp/row_help" 2>"$tmp/err" \
        || fail "'$cmd $sub --help' exits non-zero"
    [ -s "$tmp/err" ] && fail "'$cmd $sub --help' wrote to stderr"
    sed '/^$/q' "$tmp/row_help" | grep -Eq "warpsim $cmd${sub:+ $sub}( |$)" \
        || fail "'$cmd $sub --help' is not the usage of 'warpsim $cmd $sub'"
    grep -Eq "^  $cmd${sub:+ $sub}( |$)" "$tmp/help" \
        || fail "'warpsim --help' does not list '$cmd${sub:+ $sub}'"

    # Options: those completed are in the row's help; those of the help
    # are completed by some row of the command (trace's one help lists
    # the options of info, gen and pack).
    # shellcheck disable=SC2086
    complete_line $cmd $sub - | grep -Ev '^(-h|--help)$' >"$tmp/row_comp"
    help_options <"$tmp/row_help" >"$tmp/row_opts"
    holds "$tmp/row_opts" "$tmp/row_comp" \
        "completion of '$cmd${sub:+ $sub} -' offers options its help lacks"
    if [ "$cmd" != "${last-}" ]; then
        : >"$tmp/cmd_comp_$cmd"
        : >"$tmp/cmd_opts_$cmd"
    fi
    last=$cmd
    cat "$tmp/row_comp" >>"$tmp/cmd_comp_$cmd"
    cat "$tmp/row_opts" >>"$tmp/cmd_opts_$cmd"
done 3<"$tmp/rows"

while read -r cmd <&3; do
    sort -u "$tmp/cmd_comp_$cmd" -o "$tmp/cmd_comp_$cmd"
    sort -u "$tmp/cmd_opts_$cmd" | grep -Ev '^(-h|--help)$' >"$tmp/opts"
    holds "$tmp/cmd_comp_$cmd" "$tmp/opts" \
        "options of '$cmd --help' the completion lacks"

    # Subcommands: completed after the command; an unknown one's error
    # names each (sweep FILE has operands in their place: not asked).
    sed -n "s/^$cmd \\(.*\\)/\\1/p" "$tmp/rows" | sort -u >"$tmp/subs"
    if [ -s "$tmp/subs" ]; then
        complete_line "$cmd" "" >"$tmp/got"
        holds "$tmp/got" "$tmp/subs" "completion of '$cmd' lacks subcommands"
        if ! grep -qx "$cmd" "$tmp/rows"; then
            "$ws" "$cmd" zzzz 2>"$tmp/err" >/dev/null && fail "'$cmd zzzz' ran"
            for s in $(cat "$tmp/subs"); do
                grep -q "$s" "$tmp/err" \
                    || fail "'$cmd zzzz': no '$s' in $(cat "$tmp/err")"
            done
        fi
    fi

    # Subcommands the command itself knows (its usage lines, its error's
    # expected list) are rows.
    "$ws" "$cmd" --help | sed '/^$/q' \
        | sed -n "s/.*warpsim $cmd \([a-z][a-z]*\).*/\1/p" >"$tmp/known"
    if ! grep -qx "$cmd" "$tmp/rows"; then
        "$ws" "$cmd" zzzz 2>&1 >/dev/null \
            | sed -n 's/[^(]*(expected \([^)]*\)).*/\1/p' \
            | sed -e 's/ or /, /g' -e "s/'//g" | tr ',' '\n' \
            | sed 's/^ *//' >>"$tmp/known"
    fi
    for s in $(sort -u "$tmp/known"); do
        grep -qx "$cmd $s" "$tmp/rows" \
            || fail "'warpsim $cmd $s' is no row of the table"
    done

    # The suggestion for a typo.
    typo=${cmd%?}
    "$ws" "$typo" >/dev/null 2>"$tmp/err" && fail "'$typo' ran"
    grep -q "did you mean '$cmd'?" "$tmp/err" \
        || fail "'$typo' suggests no '$cmd': $(cat "$tmp/err")"
done 3<"$tmp/cmds"

# Nothing listed as a command that the table lacks.
sed -n 's/^  \([a-z][a-z]*\)\( [a-z][a-z]*\)\{0,1\}.*/\1\2/p' "$tmp/help" \
    | while read -r w1 w2; do
    grep -qx "$w1 $w2" "$tmp/rows" || grep -qx "$w1" "$tmp/rows" \
        || fail "'warpsim --help' lists '$w1 $w2', which no row is"
done || exit 1

# Dispatch of a name the table lacks.
"$ws" zzzz >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] || fail "an unknown command does not exit 2"
[ -s "$tmp/out" ] && fail "an unknown command writes to stdout"
[ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "unknown command: not one line"
want="^warpsim: unknown command 'zzzz' \(expected .*; see 'warpsim --help'\)$"
grep -Eq "$want" "$tmp/err" || fail "unknown command error: $(cat "$tmp/err")"
while read -r cmd <&3; do
    grep -Eq "[ (]$cmd(,| or |;)" "$tmp/err" \
        || fail "the unknown-command error does not name '$cmd'"
done 3<"$tmp/cmds"

# Commands and values the completion takes from the library.
complete_line "" >"$tmp/got"
holds "$tmp/got" "$tmp/cmds" "completion of 'warpsim' lacks commands"
"$ws" config list | sed 's/ .*//' >"$tmp/want"
complete_line run --gpu "" >"$tmp/got"
holds "$tmp/got" "$tmp/want" "completion of '--gpu' lacks built-in configs"
"$ws" model --help | sed -n '/^models:$/,$s/^  \([a-z0-9_]*\) .*/\1/p' \
    >"$tmp/want"
[ -s "$tmp/want" ] || fail "'model --help' lists no models"
complete_line model "" >"$tmp/got"
holds "$tmp/got" "$tmp/want" "completion of 'model' lacks models"
"$ws" validate --help \
    | sed -n '/Studies:$/,/^$/s/^  \([a-z][a-z0-9_]*\) .*/\1/p' >"$tmp/want"
[ -s "$tmp/want" ] || fail "'validate --help' lists no studies"
complete_line validate "" >"$tmp/got"
holds "$tmp/got" "$tmp/want" "completion of 'validate' lacks studies"

# Words bash splits at '=' and ':' are one word to warpsim: after them the
# operand still completes, and --opt=VALUE completes VALUE.
complete_line run --set l2.size = 4MiB --timeline-window 0 : 9 \
    traces/accelsim/vec >"$tmp/got"
grep -qx 'traces/accelsim/vecadd' "$tmp/got" \
    || fail "completion after '--set K=V' and 'A:B' lost the operand"
complete_line run --gpu = v100-s >"$tmp/got"
grep -qx 'v100-sxm2' "$tmp/got" || fail "completion of '--gpu=' lacks configs"
# --set completes the config keys with their '='; each one config show
# prints is offered.
complete_line run --set l2.s >"$tmp/got"
grep -qx 'l2.size=' "$tmp/got" || fail "completion of '--set l2.s' lacks l2.size="
grep -qx 'l2.slices=' "$tmp/got" || fail "completion of '--set l2.s' lacks l2.slices="
complete_line run --set l2.bandwidth = "" >"$tmp/got"
grep -q . "$tmp/got" && fail "completion after '--set KEY=' offers keys again"
complete_line run --set "" >"$tmp/got"
[ "$(wc -l <"$tmp/got")" -gt 50 ] || fail "completion of '--set' offers $(wc -l <"$tmp/got") keys"
# A file name with a blank or a glob character is one candidate, as is.
mkdir -p "$tmp/names/a b" && : >"$tmp/names/st*" && : >"$tmp/names/stx"
complete_line run "$tmp/names/a" >"$tmp/got"
grep -qx "$tmp/names/a b" "$tmp/got" \
    || fail "completion split a file name at its blank"
complete_line run "$tmp/names/st" >"$tmp/got"
[ "$(wc -l <"$tmp/got")" -eq 2 ] \
    || fail "completion expanded a file name's glob character"
echo "ok commands"
