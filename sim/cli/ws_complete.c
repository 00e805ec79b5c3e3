/*
 * ws_complete: the bash completion script, written from the command table
 * (ws_commands.c), the built-in GPU configs (config/ws_config.h), the
 * model table (ws_model_def.h) and the studies' (validate/ws_study.h), so
 * that a command, option, model or study added there completes without a
 * second list to keep.  The build writes it with 'warpsim --completion
 * bash' and installs that.
 *
 * --set completes the config keys (config/ws_cfg_schema.h) up to their '='.
 *
 * Leaves out: other shells; workload parameters for --param, which each
 * workload file declares; the values after a key's '='.
 */
#include <stdio.h>
#include <string.h>

#include "ws_cli.h"
#include "config/ws_cfg_schema.h"
#include "validate/ws_study.h"
#include "ws_model_def.h"

/* The parts of the script that do not depend on the table. */
static const char ws_complete_head[] =
    "# bash completion for warpsim: commands, subcommands, options and what\n"
    "# their values complete to.  Written by 'warpsim --completion bash' from\n"
    "# its command table (sim/cli/ws_commands.c), built-in GPU configs,\n"
    "# model table, studies and config keys: change those, not this.  Leaves\n"
    "# out: workload parameters for --param, values after a key's '='.\n"
    "\n";

static const char ws_complete_values[] =
    "# COMPREPLY for a value of kind $1 (file, dir, gpu, model, study, key,\n"
    "# words:W...; anything else: nothing to offer), $2 typed so far (a key\n"
    "# completes only before its '=': words[cword] is the whole word).\n"
    "_warpsim_values()\n"
    "{\n"
    "    case $1 in\n"
    "    file) mapfile -t COMPREPLY < <(compgen -f -- \"$2\") ;;\n"
    "    dir) mapfile -t COMPREPLY < <(compgen -d -- \"$2\") ;;\n"
    "    gpu) mapfile -t COMPREPLY < <(compgen -W \"$_warpsim_gpus\" -- \"$2\"\n"
    "                    compgen -f -X '!*.yaml' -- \"$2\"\n"
    "                    compgen -d -- \"$2\") ;;\n"
    "    model) mapfile -t COMPREPLY < <(compgen -W \"$_warpsim_models\" \\\n"
    "                                    -- \"$2\") ;;\n"
    "    study) mapfile -t COMPREPLY < <(compgen -W \"$_warpsim_studies\" \\\n"
    "                                    -- \"$2\") ;;\n"
    "    key) if [[ ${words[cword]} != *=* ]]; then\n"
    "             mapfile -t COMPREPLY < <(compgen -W \"$_warpsim_keys\" \\\n"
    "                                      -- \"$2\")\n"
    "             compopt -o nospace 2>/dev/null\n"
    "         fi ;;\n"
    "    words:*) mapfile -t COMPREPLY < <(compgen -W \"${1#words:}\" \\\n"
    "                                      -- \"$2\") ;;\n"
    "    *) COMPREPLY=() ;;\n"
    "    esac\n"
    "}\n"
    "\n";

static const char ws_complete_main[] =
    "# words and cword: COMP_WORDS and COMP_CWORD with the words bash splits\n"
    "# at '=' and ':' (--set KEY=VALUE, --gpu=NAME, --timeline-window A:B)\n"
    "# joined again, so that each is one word as the command reads it.\n"
    "_warpsim_words()\n"
    "{\n"
    "    local j\n"
    "    words=() cword=0\n"
    "    for ((j = 0; j < ${#COMP_WORDS[@]}; j++)); do\n"
    "        if ((j > 0)) && [[ ${COMP_WORDS[j]} == [=:] ||\n"
    "                          ${COMP_WORDS[j - 1]} == [=:] ]]; then\n"
    "            words[-1]+=${COMP_WORDS[j]}\n"
    "        else\n"
    "            words+=(\"${COMP_WORDS[j]}\")\n"
    "        fi\n"
    "        ((j == COMP_CWORD)) && cword=$((${#words[@]} - 1))\n"
    "    done\n"
    "}\n"
    "\n"
    "_warpsim()\n"
    "{\n"
    "    local cur=${COMP_WORDS[COMP_CWORD]} path subs kind= w i=2 n=0\n"
    "    local words cword\n"
    "    COMPREPLY=()\n"
    "    # What the cursor's own part completes: bash replaces only it.\n"
    "    [[ $cur == [=:] ]] && cur=\n"
    "    _warpsim_words\n"
    "    if [ \"$cword\" -eq 1 ]; then\n"
    "        mapfile -t COMPREPLY < <(compgen -W \\\n"
    "            \"$_warpsim_commands --help --version\" -- \"$cur\")\n"
    "        return\n"
    "    fi\n"
    "    path=${words[1]}\n"
    "    subs=$(_warpsim_subs \"$path\")\n"
    "    if [ -n \"$subs\" ]; then\n"
    "        # A command with subcommands: the word after it is one, or the\n"
    "        # first operand of the command itself (sweep FILE).\n"
    "        if [ \"$cword\" -eq 2 ] && [[ $cur != -* ]]; then\n"
    "            _warpsim_values \"$(_warpsim_operand \"$path\" 0)\" \"$cur\"\n"
    "            mapfile -t -O \"${#COMPREPLY[@]}\" COMPREPLY \\\n"
    "                < <(compgen -W \"$subs\" -- \"$cur\")\n"
    "            return\n"
    "        fi\n"
    "        if [[ \" $subs \" == *\" ${words[2]} \"* ]]; then\n"
    "            path=\"$path ${words[2]}\"\n"
    "            i=3\n"
    "        fi\n"
    "    fi\n"
    "    # Count the operands before the cursor, skipping options and their\n"
    "    # values; kind is left set when the cursor is on an option's value.\n"
    "    for ((; i < cword; i++)); do\n"
    "        w=${words[i]}\n"
    "        if [ -n \"$kind\" ]; then\n"
    "            kind=\n"
    "            continue\n"
    "        fi\n"
    "        case $w in\n"
    "        --*=*) ;;\n"
    "        -?*) kind=$(_warpsim_option_value \"$path\" \"$w\")\n"
    "             [ \"$kind\" = flag ] && kind= ;;\n"
    "        *) n=$((n + 1)) ;;\n"
    "        esac\n"
    "    done\n"
    "    # --opt=VALUE in one word: the cursor is on the option's value.\n"
    "    if [ -z \"$kind\" ] && [[ ${words[cword]} == --*=* ]]; then\n"
    "        kind=$(_warpsim_option_value \"$path\" \"${words[cword]%%=*}\")\n"
    "        [ \"$kind\" = flag ] && kind=none\n"
    "    fi\n"
    "    if [ -n \"$kind\" ]; then\n"
    "        _warpsim_values \"$kind\" \"$cur\"\n"
    "    elif [[ $cur == -* ]]; then\n"
    "        mapfile -t COMPREPLY < <(compgen -W \\\n"
    "            \"$(_warpsim_options \"$path\") -h --help\" -- \"$cur\")\n"
    "    else\n"
    "        _warpsim_values \"$(_warpsim_operand \"$path\" \"$n\")\" \"$cur\"\n"
    "    fi\n"
    "}\n"
    "\n"
    "complete -o filenames -F _warpsim warpsim\n";

/* The script's name for a kind of value; NULL for an option without one.
 * words: is followed by the option's words. */
static const char *ws_complete_kind(enum ws_cli_value v)
{
    switch (v) {
    case WS_CLI_NONE:
        return NULL;
    case WS_CLI_TEXT:
        return "text";
    case WS_CLI_FILE:
        return "file";
    case WS_CLI_DIR:
        return "dir";
    case WS_CLI_GPU:
        return "gpu";
    case WS_CLI_MODEL:
        return "model";
    case WS_CLI_STUDY:
        return "study";
    case WS_CLI_WORDS:
        return "words:";
    case WS_CLI_KEY:
        return "key";
    }
    return "text";
}

/* A row's path as the script's case pattern: 'run', 'trace info'. */
static void ws_complete_path(FILE *out, const struct ws_cli_command *c)
{
    fprintf(out, "    '%s%s%s')", c->name, c->sub ? " " : "",
            c->sub ? c->sub : "");
}

static void ws_complete_lists(FILE *out)
{
    const char *sep = "";

    fprintf(out, "_warpsim_commands='");
    for (const struct ws_cli_command *c = ws_cli_commands; c->name; c++)
        if (c == ws_cli_commands || strcmp(c[-1].name, c->name) != 0) {
            fprintf(out, "%s%s", sep, c->name);
            sep = " ";
        }
    /* The config list prints them without .yaml, as --gpu takes them. */
    fprintf(out, "'\n_warpsim_gpus='");
    for (int i = 0; ws_cfg_builtin_name(i); i++) {
        const char *n = ws_cfg_builtin_name(i);
        size_t len = strlen(n);

        if (len > 5 && strcmp(n + len - 5, ".yaml") == 0)
            len -= 5;
        fprintf(out, "%s%.*s", i ? " " : "", (int)len, n);
    }
    fprintf(out, "'\n_warpsim_models='");
    for (int k = 0; k < ws_model_count(); k++)
        fprintf(out, "%s%s", k ? " " : "", ws_model_nth(k)->name);
    fprintf(out, "'\n_warpsim_studies='");
    for (size_t i = 0; i < ws_study_count(); i++)
        fprintf(out, "%s%s", i ? " " : "", ws_study_at(i)->name);
    /* Each key with its '=': the value follows without a blank. */
    fprintf(out, "'\n_warpsim_keys='");
    for (size_t i = 0; i < ws_cfg_key_count(); i++)
        fprintf(out, "%s%s=", i ? " " : "", ws_cfg_key(i)->path);
    fprintf(out, "'\n\n");
}

static void ws_complete_subs(FILE *out)
{
    fprintf(out, "# The subcommands of command $1.\n"
                 "_warpsim_subs()\n{\n    case $1 in\n");
    for (const struct ws_cli_command *c = ws_cli_commands; c->name; c++) {
        if (!c->sub)
            continue;
        if (c == ws_cli_commands || strcmp(c[-1].name, c->name) != 0
            || !c[-1].sub)
            fprintf(out, "    %s) echo '%s", c->name, c->sub);
        else
            fprintf(out, " %s", c->sub);
        if (!c[1].name || strcmp(c[1].name, c->name) != 0)
            fprintf(out, "' ;;\n");
    }
    fprintf(out, "    esac\n}\n\n");
}

static void ws_complete_flags(FILE *out, const struct ws_cli_opt *o,
                              const char **sep)
{
    for (; o && o->flags; o++) {
        fprintf(out, "%s%s", *sep, o->flags);
        *sep = " ";
    }
}

static void ws_complete_options(FILE *out)
{
    fprintf(out, "# The options of path $1 (\"run\", \"trace info\"), but "
                 "--help.\n_warpsim_options()\n{\n    case $1 in\n");
    for (const struct ws_cli_command *c = ws_cli_commands; c->name; c++) {
        const char *sep = "";

        ws_complete_path(out, c);
        fprintf(out, " echo '");
        ws_complete_flags(out, c->opts, &sep);
        ws_complete_flags(out, c->common, &sep);
        fprintf(out, "' ;;\n");
    }
    fprintf(out, "    esac\n}\n\n");
}

/* "-g|--gpu) echo gpu ;;" for each option of the list that takes a value. */
static void ws_complete_option_values(FILE *out, const struct ws_cli_opt *o)
{
    for (; o && o->flags; o++) {
        const char *kind = ws_complete_kind(o->value);

        if (!kind)
            continue;
        fprintf(out, "        ");
        for (const char *f = o->flags; *f; f++)
            fputc(*f == ' ' ? '|' : *f, out);
        fprintf(out, ") echo '%s%s' ;;\n", kind,
                o->value == WS_CLI_WORDS ? o->words : "");
    }
}

static void ws_complete_values_of(FILE *out)
{
    fprintf(out, "# What the value of option $2 of path $1 completes to; "
                 "flag for an option\n# that takes none.\n"
                 "_warpsim_option_value()\n{\n    case $1 in\n");
    for (const struct ws_cli_command *c = ws_cli_commands; c->name; c++) {
        ws_complete_path(out, c);
        fprintf(out, "\n        case $2 in\n");
        ws_complete_option_values(out, c->opts);
        ws_complete_option_values(out, c->common);
        fprintf(out, "        *) echo flag ;;\n        esac ;;\n");
    }
    fprintf(out, "    *) echo flag ;;\n    esac\n}\n\n");
}

static void ws_complete_operands(FILE *out)
{
    fprintf(out, "# What operand $2 (0 the first) of path $1 completes to.\n"
                 "_warpsim_operand()\n{\n    case $1 in\n");
    for (const struct ws_cli_command *c = ws_cli_commands; c->name; c++) {
        const char *first = ws_complete_kind(c->operand);
        const char *rest = ws_complete_kind(c->operands);

        ws_complete_path(out, c);
        if (c->operand == c->operands)
            fprintf(out, " echo %s ;;\n", first ? first : "none");
        else
            fprintf(out,
                    " if [ \"$2\" -eq 0 ]; then echo %s; else echo %s; "
                    "fi ;;\n",
                    first ? first : "none", rest ? rest : "none");
    }
    fprintf(out, "    esac\n}\n\n");
}

int ws_cli_completion(FILE *out, const char *shell)
{
    if (strcmp(shell, "bash") != 0)
        return -1;
    fputs(ws_complete_head, out);
    ws_complete_lists(out);
    fputs(ws_complete_values, out);
    ws_complete_subs(out);
    ws_complete_options(out);
    ws_complete_values_of(out);
    ws_complete_operands(out);
    fputs(ws_complete_main, out);
    return 0;
}
