#!/bin/sh
# Guards every simulated number: runs each bundled kernel (the Accel-Sim
# traces, and every workload at small parameters) on every built-in GPU
# config with --json, and compares the SHA-256 of each JSON with
# tests/golden/json_digests.txt.  A refactor must leave every digest alone;
# a change that moves numbers on purpose regenerates the file
# (WS_UPDATE_GOLDEN=1) and says in its commit what moved and why.
#   usage: json_digests.sh WARPSIM   (run from the source root)
set -u
ws=$1
golden=tests/golden/json_digests.txt
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# NAME|ARGUMENTS: small enough that the whole set runs in seconds.
inputs() {
    cat <<'EOF'
vecadd|traces/accelsim/vecadd
multi|traces/accelsim/multi
legacy|traces/accelsim/legacy
saxpy_stride8|traces/accelsim/saxpy_stride8
hopper|traces/accelsim/hopper
saxpy|-p n=4000 -p stride=4 traces/kernels/saxpy/workload.yaml
copy|-p n=65536 traces/kernels/stream/copy.yaml
triad|-p n=65536 traces/kernels/stream/triad.yaml
pchase|-p hops=64 traces/kernels/pchase/workload.yaml
reduce|-p n=3000 traces/kernels/reduce/workload.yaml
apsp|-p n=128 -p sd=16 -p threads=128 traces/kernels/apsp/workload.yaml
mm_baseline|-p n=64 traces/kernels/matmul/baseline.yaml
mm_tiling|-p n=64 traces/kernels/matmul/tiling.yaml
mm_coalescing|-p n=64 traces/kernels/matmul/coalescing.yaml
mm_nobankconflict|-p n=64 traces/kernels/matmul/nobankconflict.yaml
mm_computeopt|-p n=64 traces/kernels/matmul/computeopt.yaml
mm_unroll|-p n=64 traces/kernels/matmul/unroll.yaml
mm_prefetch|-p n=64 traces/kernels/matmul/prefetch.yaml
fma|-p blocks=256 -p iters=8 traces/kernels/fma/workload.yaml
EOF
}

configs="gtx480 titanx v100 v100-sxm2 a100 h100"
out="$tmp/digests"
: > "$out"
inputs | while IFS='|' read -r name args; do
    for gpu in $configs; do
        # shellcheck disable=SC2086
        if "$ws" run --gpu "$gpu" --json "$tmp/run.json" $args \
                >/dev/null 2>"$tmp/err"; then
            # the build's source commit is not a simulated number
            sum=$(grep -v '"commit": ' "$tmp/run.json" | sha256sum | cut -c1-64)
        else
            sum="error:$(head -c 120 "$tmp/err" | tr ' ' '_')"
        fi
        echo "$name $gpu $sum" >> "$out"
    done
done
if [ "${WS_UPDATE_GOLDEN:-0}" = 1 ]; then
    cp "$out" "$golden"
    echo "rewrote $golden"
    exit 0
fi
if ! diff -u "$golden" "$out"; then
    echo "FAIL json_digests: simulated numbers moved (lines above)"
    exit 1
fi
echo "ok json_digests ($(wc -l < "$out") runs)"
