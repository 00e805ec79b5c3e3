#!/usr/bin/env python3
"""Writes the corrupt inputs of the command-line error tests (tests/cli).

Each file breaks one rule of the Accel-Sim trace format (or of YAML configs)
starting from a valid trace; warpsim must answer each with one error line
naming file, line and column, exit status 2 and no other output.  Run from
anywhere; output is deterministic.
"""
import lzma
import os

HERE = os.path.dirname(os.path.abspath(__file__))

HEAD = """-kernel name = _Z6vecAddPKfS0_Pfi
-kernel id = 1
-grid dim = (2,1,1)
-block dim = (64,1,1)
-shmem = 0
-nregs = 10
-binary version = 70
-cuda stream id = 0
-shmem base_addr = 0x00007f4a4c000000
-local mem base_addr = 0x00007f4a4a000000
-nvbit version = 1.5.5
-accelsim tracer version = 4
-enable lineinfo = 0

#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses] [immediate]

"""

WARP = """warp = {w}
insts = 3
0000 ffffffff 1 R1 MOV 0 0 
0010 ffffffff 1 R2 LDG.E.SYS 1 R4 4 1 0x00007f4a1e000000 4 
0020 ffffffff 0 EXIT 0 0 
"""


def good():
    body = ""
    for b in range(2):
        body += "#BEGIN_TB\nthread block = %d,0,0\n" % b
        body += WARP.format(w=0) + WARP.format(w=1) + "#END_TB\n"
    return HEAD + body


def put(name, text, mode="w"):
    with open(os.path.join(HERE, name), mode) as f:
        f.write(text)


def main():
    g = good()
    put("good.traceg", g)
    put("truncated.traceg", g[: g.index("0010", g.index("thread block = 1"))])
    put("count.traceg", g.replace("insts = 3", "insts = 4", 1))
    put("badhex.traceg", g.replace("0x00007f4a1e000000", "0x00007f4a1g000000", 1))
    lane_list = "0 " + " ".join("0x%016x" % (0x7F4A1E000000 + 4 * l) for l in range(31))
    put("fewaddr.traceg", g.replace("4 1 0x00007f4a1e000000 4", "4 " + lane_list, 1))
    put("noend.traceg", g[: g.rindex("#END_TB")])
    put("unknownkey.traceg", g.replace("-nregs = 10\n", "-nregs = 10\n-gpu temperature = 71\n"))
    put("garbage.traceg", bytes(range(256)) * 4, "wb")
    put("huge.traceg", g.replace("insts = 3", "insts = 10000000000", 1))
    put("hugeish.traceg", g.replace("insts = 3", "insts = 2147483648", 1))
    xz = lzma.compress(g.encode())
    put("cut.traceg.xz", xz[: len(xz) // 2], "wb")
    put("kernelslist-missing.g", "kernel-1.traceg\nkernel-9.traceg\n")
    os.makedirs(os.path.join(HERE, "list"), exist_ok=True)
    put(os.path.join("list", "kernelslist.g"),
        "MemcpyHtoD,0x00007f4a1e000000,256\nkernel-1.traceg\nkernel-2.traceg\n")
    put(os.path.join("list", "kernel-1.traceg"), g)
    put(os.path.join("list", "kernel-2.traceg"), g.replace("0020 ffffffff 0 EXIT", "0020 ffffffff 0 EXIT 0 0 0 0 junk", 3))
    put("unknown.txt", "just some words\n")
    # Not an error: a mnemonic the opcode table lacks must be counted and
    # mapped to the config's unknown_opcode_class, never abort the run.
    put("unknownop.traceg", g.replace("0000 ffffffff 1 R1 MOV 0 0", "0000 ffffffff 1 R1 FROB.X 0 0"))
    put("badkey.yaml", "base: v100\nl2:\n  size: 6MiB\n  assoc: sixteen\n")


if __name__ == "__main__":
    main()
