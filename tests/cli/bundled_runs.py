"""The bundled kernels and built-in GPUs every whole-suite check runs.

The kernels are the list in tests/cli/json_digests.sh (one place to add a
kernel); the configs are the built-in ones.  Imported by
tests/cli/roofline_bound.py and validate/compare_runs.py, run from the
source root.
"""

CONFIGS = ["gtx480", "titanx", "v100", "v100-sxm2", "a100", "h100"]


def inputs():
    """(name, warpsim arguments) for each bundled kernel."""
    with open("tests/cli/json_digests.sh") as fp:
        text = fp.read()
    block = text.split("<<'EOF'\n", 1)[1].split("\nEOF", 1)[0]
    for line in block.splitlines():
        name, args = line.split("|", 1)
        yield name, args.split()
