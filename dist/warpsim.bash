# bash completion for warpsim: commands, their subcommands and options, and
# the values warpsim can list itself (built-in GPU configs, study names,
# models, analyze targets).
#
# The words come from warpsim's own help text at completion time, so a new
# option is completable the day it is added: 'warpsim --help' lists the
# commands, 'warpsim CMD --help' their options.  Leaves out: config keys
# for --set (a KEY=VALUE word), workload parameters for --param.

_warpsim_help_words()
{
    # $1: the command and subcommand, e.g. "run" or "config import".  Only
    # the option lines of the help count ("  -g, --gpu ..." or
    # "      --json ..."): options named in the prose (ncu's --csv) are not
    # warpsim's.
    "${_warpsim_bin}" $1 --help 2>/dev/null \
        | grep -E '^(  -[A-Za-z0-9](,| )|      --[A-Za-z])' \
        | grep -oE '^ +-[A-Za-z0-9]+(, --[A-Za-z0-9-]+)?|^ +--[A-Za-z0-9-]+' \
        | tr ',' '\n' | tr -d ' ' | sort -u
}

_warpsim_commands()
{
    "${_warpsim_bin}" --help 2>/dev/null \
        | sed -n 's/^  \([a-z][a-z]*\) .*/\1/p; s/^  \([a-z][a-z]*\)$/\1/p' \
        | sort -u
}

_warpsim()
{
    local cur prev cmd sub
    _warpsim_bin=${COMP_WORDS[0]}
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    cmd=${COMP_WORDS[1]-}
    sub=${COMP_WORDS[2]-}
    # Commands with subcommands take their options from 'CMD SUB --help'.
    case $cmd in
    trace|config|analyze) [[ $sub == -* ]] || cmd="$cmd $sub" ;;
    esac

    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "$(_warpsim_commands) --help --version" \
                     -- "$cur"))
        return
    fi
    case $prev in
    -g|--gpu|--base)
        COMPREPLY=($(compgen -W "$("${_warpsim_bin}" config list 2>/dev/null \
                     | sed 's/ .*//')" -- "$cur") \
                   $(compgen -f -X '!*.yaml' -- "$cur") \
                   $(compgen -d -- "$cur"))
        return ;;
    --target)
        COMPREPLY=($(compgen -W "ts ul score cycles" -- "$cur"))
        return ;;
    -o|--output)
        if [ "${COMP_WORDS[1]-}" = validate ]; then
            COMPREPLY=($(compgen -d -- "$cur"))
        else
            COMPREPLY=($(compgen -f -- "$cur"))
        fi
        return ;;
    -s|--set|-p|--param|-j|--jobs|--max-kernels|--members|--seed|-k|--kernel)
        return ;;
    esac
    case ${COMP_WORDS[1]-} in
    trace)
        if [ "$COMP_CWORD" -eq 2 ]; then
            COMPREPLY=($(compgen -W "info gen pack" -- "$cur"))
            return
        fi ;;
    config)
        if [ "$COMP_CWORD" -eq 2 ]; then
            COMPREPLY=($(compgen -W "show list import" -- "$cur"))
            return
        fi ;;
    model)
        if [ "$COMP_CWORD" -eq 2 ]; then
            COMPREPLY=($(compgen -W "mwp_cwp mwp_cwp_l2 mwp_cwp_l2_reuse tmm \
                         roofline qroofline aiq" -- "$cur"))
            return
        fi ;;
    analyze)
        if [ "$COMP_CWORD" -eq 2 ]; then
            COMPREPLY=($(compgen -W "rsm" -- "$cur"))
            return
        fi ;;
    validate)
        if [[ $cur != -* ]]; then
            COMPREPLY=($(compgen -W "$("${_warpsim_bin}" validate --help \
                         2>/dev/null | sed -n 's/^  \([a-z][a-z]*\) .*/\1/p')" \
                         -- "$cur"))
            return
        fi ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(_warpsim_help_words "$cmd")" -- "$cur"))
        return
    fi
    COMPREPLY=($(compgen -f -- "$cur"))
}

complete -o filenames -o bashdefault -F _warpsim warpsim
