#!/bin/sh
# Writes warpsim's man page from its own help text, so that the page and
# 'warpsim --help' never disagree: help2man turns 'warpsim --help' (made
# from the command table, sim/cli/ws_commands.c) and '--version' into NAME
# and DESCRIPTION (the usage line stays in DESCRIPTION: help2man makes a
# SYNOPSIS only of a "Usage:" line), and the COMMANDS section holds each command's
# 'warpsim CMD --help' verbatim, in the table's order ('warpsim --commands'
# lists its rows), plus 'warpsim CMD SUB --help' where a subcommand has a
# help of its own (sweep merge).
#   usage: man_page.sh WARPSIM HELP2MAN OUT.1
# Leaves out: anything the help text does not say (the README is the manual).
set -eu
ws=$1
help2man=$2
out=$3
inc=$out.h2m
trap 'rm -f "$inc"' EXIT

# roff: a backslash is \e; a line starting with . or ' would be a request.
roff_escape() {
    sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"
}

# A subsection: $1 the command's words, $2 its help.
section() {
    printf '.SS "warpsim %s"\n.nf\n' "$1"
    printf '%s\n' "$2" | roff_escape
    printf '.fi\n'
}

{
    printf '%s\n' "[COMMANDS]"
    "$ws" --commands | while read -r cmd sub; do
        if [ "$cmd" != "${last-}" ]; then
            last=$cmd
            whole=$("$ws" "$cmd" --help)
            section "$cmd" "$whole"
        fi
        if [ -n "$sub" ]; then
            own=$("$ws" "$cmd" "$sub" --help)
            [ "$own" = "$whole" ] || section "$cmd $sub" "$own"
        fi
    done
    # printf, not echo: dash's echo would turn \f into a form feed.
    printf '%s\n' "[FILES]" \
        "Built-in GPU configs are compiled in (\\fBwarpsim config list\\fR);" \
        "their sources are installed under share/warpsim/configs as a start" \
        "for your own (\\fB--gpu FILE\\fR, with \\fBbase:\\fR inheritance)." \
        "[SEE ALSO]" \
        "The README in the source tree: trace formats, configs, models," \
        "sweeps and the validation studies."
} > "$inc"

"$help2man" --no-info --no-discard-stderr --section=1 \
    --name="trace-driven, warp-level, discrete-event GPU simulator" \
    --include="$inc" --output="$out" "$ws"
