# bash completion for warpsim, for a shell working from a source checkout:
#   WARPSIM=build/warpsim . dist/warpsim.bash   (default: warpsim on PATH)
# loads the script the command prints with 'warpsim --completion bash',
# which it makes from its command table (sim/cli/ws_commands.c), built-in
# GPU configs and model table.  The build writes the same script to
# BUILD/warpsim.bash, and 'make install' installs that one, not this.
# Leaves out: the completion itself (see the command table).
eval "$("${WARPSIM:-warpsim}" --completion bash 2>/dev/null)"
