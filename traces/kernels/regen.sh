#!/bin/sh
# Rebuilds the committed SASS listings from the CUDA sources beside them.
# Needs nvcc (CUDA 12 or 13) and the disassemblers, which also come as
# Python wheels: pip install nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm.
# Tests never run this: the listings are committed.
#   name.sm_75.sass, name.sm_80.sass,
#   name.sm_90.sass                    cuobjdump -sass -res-usage
#   name.sm_90.nvdisasm                nvdisasm (labels, ELF sections)
# hopper/ (wgmma, TMA, clusters: sm_90a only) gets name.sm_90a.sass and
# name.sm_90a.nvdisasm instead.
set -eu
cd "$(dirname "$0")"
bin=""
if ! command -v cuobjdump >/dev/null 2>&1; then
    bin=$(python3 -c 'import nvidia, os; print(os.path.join(os.path.dirname(nvidia.__path__[0]), "nvidia", "cu13", "bin"))')/
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for cu in */*.cu; do
    dir=$(dirname "$cu")
    [ "$dir" = hopper ] && continue
    name=$(basename "$cu" .cu)
    for sm in 75 80; do
        nvcc -cubin -arch=sm_$sm -O3 "$cu" -o "$tmp/$name.cubin"
        "${bin}cuobjdump" -sass -res-usage "$tmp/$name.cubin" > "$dir/$name.sm_$sm.sass"
    done
    nvcc -cubin -arch=sm_90 -O3 "$cu" -o "$tmp/$name.cubin"
    "${bin}cuobjdump" -sass -res-usage "$tmp/$name.cubin" > "$dir/$name.sm_90.sass"
    "${bin}nvdisasm" "$tmp/$name.cubin" > "$dir/$name.sm_90.nvdisasm"
done
for cu in hopper/*.cu; do
    name=$(basename "$cu" .cu)
    nvcc -cubin -arch=sm_90a -O3 "$cu" -o "$tmp/$name.cubin"
    "${bin}cuobjdump" -sass -res-usage "$tmp/$name.cubin" > "hopper/$name.sm_90a.sass"
    "${bin}nvdisasm" "$tmp/$name.cubin" > "hopper/$name.sm_90a.nvdisasm"
done
