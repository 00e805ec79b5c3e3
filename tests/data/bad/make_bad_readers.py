#!/usr/bin/env python3
"""Writes the inputs of the command-line tests of the readers' hardening.

Each file attacks one guard of the trace, kernel-list or listing readers
(see tests/cli/cases.txt, cases named bad_r_* and r_*): a trace with no
thread block, fewer CTAs than its grid (a warning, not an error), a CTA
given twice, a stray #END_TB, address arithmetic that wraps, a repeated
header key, a grid over --max-ctas, an .xz asking for gigabytes, listings
cut short, kernel lists with relative paths, a folder for a kernel and a
copy that wraps, and names that are not UTF-8.  Builds on make_bad.py's
valid trace; run from anywhere, output is deterministic.
"""
import lzma
import os
import struct
import zlib

from make_bad import HEAD, HERE, good, put

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))


def xz_with_dict_props(data, props):
    """data as .xz whose LZMA2 dictionary-size byte is props (40 = 4 GiB);
    the block header's CRC32 is recomputed so only the size is wrong."""
    xz = bytearray(lzma.compress(data, preset=0))
    start = 12                                  # after the stream header
    size = (xz[start] + 1) * 4
    flags = xz[start + 1]
    assert flags & 3 == 0, "one filter expected"
    pos = start + 2

    def skip_varint(p):
        while xz[p] & 0x80:
            p += 1
        return p + 1

    if flags & 0x40:
        pos = skip_varint(pos)
    if flags & 0x80:
        pos = skip_varint(pos)
    assert xz[pos] == 0x21 and xz[pos + 1] == 1, "LZMA2 filter expected"
    xz[pos + 2] = props
    end = start + size - 4
    xz[end:end + 4] = struct.pack("<I", zlib.crc32(bytes(xz[start:end])))
    return bytes(xz)


def listing_cut(path, marker):
    """The listing up to and including the first line containing marker."""
    with open(os.path.join(ROOT, path)) as f:
        lines = f.read().split("\n")
    n = next(i for i, l in enumerate(lines) if marker in l)
    return "\n".join(lines[: n + 1]) + "\n"


def main():
    g = good()
    body = g[len(HEAD):]
    first_tb = body[: body.index("#END_TB") + len("#END_TB\n")]
    put("empty-trace.traceg.xz",
        lzma.compress((HEAD + "\n" * (1 << 20)).encode()), "wb")
    put("short-grid.traceg", HEAD + first_tb)
    put("dup-cta.traceg", HEAD + first_tb + first_tb)
    put("stray-end.traceg", g + "#END_TB\n")
    put("wrap.traceg", g.replace("4 1 0x00007f4a1e000000 4",
                                 "4 1 0xfffffffffffffff0 4", 1))
    put("dup-key.traceg", g.replace("-grid dim = (2,1,1)\n",
                                    "-grid dim = (2,1,1)\n-grid dim = (4,1,1)\n"))
    put("big-grid.traceg", g.replace("(2,1,1)", "(1,65535,65535)"))
    put("no-format.traceg", g.replace(HEAD[HEAD.index("#traces"):],
                                      "\n"))
    put("memlimit.traceg.xz", xz_with_dict_props(g.encode(), 40), "wb")
    put("bad-utf8.traceg", g.replace("_Z6vecAddPKfS0_Pfi",
                                     "_Z6vec\xff\xfeAdd").replace(
        "0000 ffffffff 1 R1 MOV 0 0", "0000 ffffffff 1 R1 FROB\xc3 0 0"
    ).encode("latin-1"), "wb")
    put("kernelslist-dir.g", "MemcpyHtoD,0x00007f4a1e000000,256\n"
        "kernel-dir.traceg\n")
    put("kernelslist-wrap.g", "MemcpyHtoD,0xffffffffffffff00,4096\n"
        "kernel-1.traceg\n")
    os.makedirs(os.path.join(HERE, "relpath"), exist_ok=True)
    put(os.path.join("relpath", "kernelslist.g"),
        "MemcpyHtoD,0x00007f4a1e000000,256\n../list/kernel-1.traceg\n")
    put("cut.sm_80.sass",
        listing_cut("traces/kernels/vecadd/vecadd.sm_80.sass", "/*0080*/"))
    put("cut.sm_90.nvdisasm",
        listing_cut("traces/kernels/reduce/reduce.sm_90.nvdisasm", "/*0100*/"))


if __name__ == "__main__":
    main()
