#!/usr/bin/env python3
"""Writes the small Accel-Sim traces bundled under traces/accelsim/.

These stand in for what the NVBit-based Accel-Sim tracer records on a GPU:
each kernel is its SASS (as nvcc emits it for the SM version named) executed
per warp in Python, with the active mask after predication and the lane
addresses of every memory instruction.  The kernels are the project's own
(traces/accelsim/README.md lists their CUDA source), small enough to commit
and to read by eye, and they cover every trace feature the reader must get
right: tracer versions 2 (pre-3 prefix), 3, 4 (line numbers) and 5
(immediates); address modes 0, 1 and 2; predicated-off lines; partial
warps; shared-memory and generic accesses; barriers; reductions at L2;
Hopper cluster lines; MemcpyHtoD commands; .xz compression.

Run from anywhere: python3 traces/accelsim/generate.py.  Output is
deterministic (no randomness, fixed addresses).
"""
import lzma
import os

HERE = os.path.dirname(os.path.abspath(__file__))
FULL = 0xFFFFFFFF
RZ = 255


def popcount(m):
    return bin(m).count("1")


def lanes_of(mask):
    return [l for l in range(32) if mask >> l & 1]


class Rec:
    """One dynamic warp instruction."""

    def __init__(self, pc, mask, op, dst=(), src=(), width=0, addrs=(),
                 imm=0, line=0):
        self.pc, self.mask, self.op = pc, mask, op
        self.dst, self.src = list(dst), list(src)
        self.width, self.addrs, self.imm, self.line = width, list(addrs), imm, line


def encode_addrs(mask, addrs, version, prefer):
    """Chooses an address mode the way the tracer does: base+stride when the
    active lanes form one run with a constant stride, else base+deltas (list
    before version 3).  prefer forces a mode for coverage."""
    act = lanes_of(mask)
    if not act:
        return "0"
    contiguous = act == list(range(act[0], act[0] + len(act)))
    strides = {addrs[i + 1] - addrs[i] for i in range(len(addrs) - 1)}
    mode = prefer
    if mode is None:
        if contiguous and len(strides) <= 1:
            mode = 1
        else:
            mode = 2 if version >= 3 else 0
    if mode == 1:
        stride = strides.pop() if strides else 0
        return "1 0x%016x %d" % (addrs[0], stride)
    if mode == 2:
        deltas = [addrs[i + 1] - addrs[i] for i in range(len(addrs) - 1)]
        return " ".join(["2", "0x%016x" % addrs[0]] + [str(d) for d in deltas])
    return " ".join(["0"] + ["0x%016x" % a for a in addrs])


def format_rec(r, version, lineinfo, cta, warp, prefer):
    f = []
    if version < 3:
        f += [str(cta[0]), str(cta[1]), str(cta[2]), str(warp)]
    if lineinfo:
        f.append(str(r.line))
    f += ["%04x" % r.pc, "%08x" % r.mask, str(len(r.dst))]
    f += ["R%d" % d for d in r.dst]
    f.append(r.op)
    f.append(str(len(r.src)))
    f += ["R%d" % s for s in r.src]
    f.append(str(r.width))
    if r.width:
        f.append(encode_addrs(r.mask, r.addrs, version, prefer))
    if version >= 5 or (version == 4 and r.imm):
        f.append(str(r.imm))
    return " ".join(f) + " "


def header(k, version, lineinfo):
    h = [
        "-kernel name = %s" % k["name"],
        "-kernel id = %d" % k["id"],
        "-grid dim = (%d,%d,%d)" % k["grid"],
        "-block dim = (%d,%d,%d)" % k["block"],
        "-shmem = %d" % k["shmem"],
        "-nregs = %d" % k["nregs"],
        "-binary version = %d" % k["sm"],
        "-cuda stream id = 0",
        "-shmem base_addr = 0x00007f4a4c000000",
        "-local mem base_addr = 0x00007f4a4a000000",
        "-nvbit version = 1.5.5",
    ]
    if "cluster" in k:
        h.append("-cluster dim = (%d,%d,%d)" % k["cluster"])
    if version >= 3:
        h.append("-accelsim tracer version = %d" % version)
    if version >= 4:
        h.append("-enable lineinfo = %d" % lineinfo)
    h.append("")
    fmt = ("#traces format = [line_num] PC mask dest_num [reg_dests] opcode "
           "src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses] "
           "[immediate]")
    if version < 3:
        fmt = "#traces format = threadblock_x threadblock_y threadblock_z warpid_tb " + fmt[17:]
    h.append(fmt)
    h.append("")
    return "\n".join(h) + "\n"


def write_kernel(path, k, version, lineinfo=0, prefer=None, xz=False):
    out = [header(k, version, lineinfo)]
    gx, gy, gz = k["grid"]
    nthreads = k["block"][0] * k["block"][1] * k["block"][2]
    nwarps = (nthreads + 31) // 32
    for z in range(gz):
        for y in range(gy):
            for x in range(gx):
                cta = (x, y, z)
                out.append("#BEGIN_TB\n\nthread block = %d,%d,%d\n" % cta)
                if "cluster" in k:
                    cx, cy, cz = k["cluster"]
                    out.append("cluster id = %d,%d,%d\n" % (x // cx, y // cy, z // cz))
                    out.append("cluster cta = %d,%d,%d\n" % (x % cx, y % cy, z % cz))
                    out.append("cluster rank = %d\n" % (x % cx + cx * (y % cy)))
                out.append("\n")
                warps = k["run"](cta)
                for w in range(nwarps):
                    recs = warps[w]
                    out.append("warp = %d\ninsts = %d\n" % (w, len(recs)))
                    for r in recs:
                        out.append(format_rec(r, version, lineinfo, cta, w, prefer) + "\n")
                out.append("\n#END_TB\n\n")
    text = "".join(out).encode()
    if xz:
        with lzma.open(path + ".xz", "wb", preset=6) as f:
            f.write(text)
    else:
        with open(path, "wb") as f:
            f.write(text)


# ---- kernels -----------------------------------------------------------
# Each run(cta) returns, per warp, its dynamic records.  Line numbers refer
# to the CUDA source lines in README.md.

A, B, C = 0x00007F4A1E000000, 0x00007F4A1E100000, 0x00007F4A1E200000


def vecadd(n, block=128, sm=70):
    """c[i] = a[i] + b[i] for i < n (15 warp instructions per full warp)."""
    def run(cta):
        warps = []
        for w in range(block // 32):
            base = cta[0] * block + w * 32
            live = sum(1 << l for l in range(32) if base + l < n)
            ex = FULL & ~live
            r = [Rec(0x00, FULL, "MOV", [1], line=3),
                 Rec(0x10, FULL, "S2R", [6], line=3),
                 Rec(0x20, FULL, "S2R", [3], line=3),
                 Rec(0x30, FULL, "IMAD", [6], [6, 3], line=3),
                 Rec(0x40, FULL, "ISETP.GE.AND", [], [6], line=4),
                 Rec(0x50, ex, "EXIT", line=4)]
            if live:
                idx = [base + l for l in lanes_of(live)]
                r += [Rec(0x60, live, "MOV", [7], line=5),
                      Rec(0x70, live, "IMAD.WIDE", [2], [6, 7], line=5),
                      Rec(0x80, live, "IMAD.WIDE", [4], [6, 7], line=5),
                      Rec(0x90, live, "LDG.E.SYS", [2], [2], 4, [A + 4 * i for i in idx], line=5),
                      Rec(0xA0, live, "LDG.E.SYS", [5], [4], 4, [B + 4 * i for i in idx], line=5),
                      Rec(0xB0, live, "IMAD.WIDE", [6], [6, 7], line=5),
                      Rec(0xC0, live, "FADD", [9], [2, 5], line=5),
                      Rec(0xD0, live, "STG.E.SYS", [], [6, 9], 4, [C + 4 * i for i in idx], line=5),
                      Rec(0xE0, live, "EXIT", line=6)]
            warps.append(r)
        return warps
    ctas = (n + block - 1) // block
    return {"name": "_Z6vecAddPKfS0_Pfi", "id": 1, "grid": (ctas, 1, 1),
            "block": (block, 1, 1), "shmem": 0, "nregs": 10, "sm": sm,
            "run": run}


def saxpy_strided(n, stride, block=128):
    """y[i*stride] = a*x[i*stride] + y[i*stride]: uncoalesced by stride."""
    def run(cta):
        warps = []
        for w in range(block // 32):
            base = cta[0] * block + w * 32
            live = sum(1 << l for l in range(32) if base + l < n)
            idx = [(base + l) * stride for l in lanes_of(live)]
            r = [Rec(0x00, FULL, "MOV", [1]),
                 Rec(0x10, FULL, "S2R", [0]),
                 Rec(0x20, FULL, "S2R", [3]),
                 Rec(0x30, FULL, "IMAD", [0], [0, 3]),
                 Rec(0x40, FULL, "ISETP.GE.AND", [], [0]),
                 Rec(0x50, FULL & ~live, "EXIT")]
            if live:
                r += [Rec(0x60, live, "IMAD", [0], [0]),
                      Rec(0x70, live, "IMAD.WIDE", [2], [0]),
                      Rec(0x80, live, "IMAD.WIDE", [4], [0]),
                      Rec(0x90, live, "LDG.E.SYS", [2], [2], 4, [A + 4 * i for i in idx]),
                      Rec(0xA0, live, "LDG.E.SYS", [7], [4], 4, [C + 4 * i for i in idx]),
                      Rec(0xB0, live, "FFMA", [7], [2, 7]),
                      Rec(0xC0, live, "STG.E.SYS", [], [4, 7], 4, [C + 4 * i for i in idx]),
                      Rec(0xD0, live, "EXIT")]
            warps.append(r)
        return warps
    return {"name": "_Z13saxpy_stridedifPKfPfi", "id": 1,
            "grid": ((n + block - 1) // block, 1, 1), "block": (block, 1, 1),
            "shmem": 0, "nregs": 8, "sm": 70, "run": run}


def reduce(n, block=256, kid=2):
    """Block sum in shared memory with barriers, then one RED per block."""
    nw = block // 32

    def run(cta):
        warps = [[] for _ in range(nw)]
        tids = [[w * 32 + l for l in range(32)] for w in range(nw)]

        def mask(w, pred):
            return sum(1 << l for l in range(32) if pred(tids[w][l]))

        for w in range(nw):
            r = warps[w]
            live = mask(w, lambda t: cta[0] * block + t < n)
            r += [Rec(0x00, FULL, "MOV", [1]), Rec(0x10, FULL, "S2R", [0]),
                  Rec(0x20, FULL, "S2R", [3]), Rec(0x30, FULL, "IMAD", [3], [3, 0]),
                  Rec(0x40, FULL, "ISETP.GE.AND", [], [3]),
                  Rec(0x50, FULL, "MOV", [2]),
                  Rec(0x60, live, "IMAD.WIDE", [4], [3]),
                  Rec(0x70, live, "LDG.E.SYS", [2], [4], 4,
                      [A + 4 * (cta[0] * block + t) for t in tids[w] if cta[0] * block + t < n]),
                  Rec(0x80, FULL, "SHF.L.U32", [6], [0]),
                  Rec(0x90, FULL, "STS", [], [6, 2], 4, [4 * t for t in tids[w]]),
                  Rec(0xA0, FULL, "BAR.SYNC", [], [], imm=0),
                  Rec(0xB0, FULL, "MOV", [7])]
        k = block // 2
        while k >= 1:
            for w in range(nw):
                m = mask(w, lambda t: t < k)
                act = [t for t in tids[w] if t < k]
                warps[w] += [
                    Rec(0xC0, FULL, "ISETP.GE.AND", [], [0, 7]),
                    Rec(0xD0, m, "LEA", [8], [7, 6]),
                    Rec(0xE0, m, "LDS.U.32", [9], [6], 4, [4 * t for t in act]),
                    Rec(0xF0, m, "LDS.U.32", [10], [8], 4, [4 * (t + k) for t in act]),
                    Rec(0x100, m, "FADD", [9], [9, 10]),
                    Rec(0x110, m, "STS", [], [6, 9], 4, [4 * t for t in act]),
                    Rec(0x120, FULL, "BAR.SYNC", [], [], imm=0),
                    Rec(0x130, FULL, "SHF.R.U32.HI", [7], [7]),
                    Rec(0x140, FULL, "ISETP.NE.AND", [], [7]),
                    Rec(0x150, FULL if k > 1 else 0, "BRA", [], [])]
            k //= 2
        for w in range(nw):
            t0 = 1 if w == 0 else 0
            warps[w] += [Rec(0x160, FULL, "ISETP.NE.AND", [], [0]),
                         Rec(0x170, FULL & ~t0, "EXIT")]
            if t0:
                warps[w] += [Rec(0x180, 1, "LDS.U.32", [11], [], 4, [0]),
                             Rec(0x190, 1, "MOV", [12]), Rec(0x1A0, 1, "MOV", [13]),
                             Rec(0x1B0, 1, "RED.E.ADD.F32.FTZ.RN.STRONG.GPU", [], [12, 11], 4, [B]),
                             Rec(0x1C0, 1, "EXIT")]
        return warps
    return {"name": "_Z6reducePKfPfi", "id": kid, "grid": ((n + block - 1) // block, 1, 1),
            "block": (block, 1, 1), "shmem": 4 * block, "nregs": 14, "sm": 70,
            "run": run}


SHBASE, LOCBASE = 0x00007F4A4C000000, 0x00007F4A4A000000


def spill(kid=3):
    """Local-memory spills and generic LD/ST that land in the shared and
    local windows; one 128-bit load that writes four registers."""
    def run(cta):
        t = list(range(32))
        r = [Rec(0x00, FULL, "MOV", [1]),
             Rec(0x10, FULL, "STL", [], [1, 4], 4, [LOCBASE + 0x1000 * cta[0] + 4 * l for l in t]),
             Rec(0x20, FULL, "LDL", [4], [1], 4, [LOCBASE + 0x1000 * cta[0] + 4 * l for l in t]),
             Rec(0x30, FULL, "ST.E", [], [2, 4], 4, [SHBASE + 8 * l for l in t]),
             Rec(0x40, FULL, "LD.E.64", [6], [2], 8, [SHBASE + 8 * l for l in t]),
             Rec(0x50, FULL, "LD.E", [8], [2], 4, [LOCBASE + 64 * l for l in t]),
             Rec(0x60, FULL, "LDG.E.128.SYS", [12], [2], 16, [A + 16 * l for l in t]),
             Rec(0x70, 0x0000FFFF, "LDG.E.SYS", [16], [2], 4, [A + 128 * l for l in range(16)]),
             Rec(0x80, 0x0F0F0F0F, "LDG.E.SYS", [17], [2], 4, [A + 4 * l for l in lanes_of(0x0F0F0F0F)]),
             Rec(0x90, FULL, "ATOMG.E.ADD.STRONG.GPU", [18], [2, 4], 4, [B] * 32),
             Rec(0xA0, FULL, "EXIT")]
        return [r]
    return {"name": "_Z5spillPfS_", "id": kid, "grid": (2, 1, 1), "block": (32, 1, 1),
            "shmem": 256, "nregs": 32, "sm": 70, "run": run}


def write_list(d, lines):
    with open(os.path.join(d, "kernelslist.g"), "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    def mk(name):
        d = os.path.join(HERE, name)
        os.makedirs(d, exist_ok=True)
        return d

    # vecadd: tracer v4, base+stride, a partial warp in the last CTA.
    d = mk("vecadd")
    write_kernel(os.path.join(d, "kernel-1.traceg"), vecadd(4010), 4)
    write_list(d, ["MemcpyHtoD,0x%016x,16040" % A, "MemcpyHtoD,0x%016x,16040" % B,
                   "kernel-1.traceg", "MemcpyDtoH,0x%016x,16040" % C])

    # saxpy with stride 8: v3, base+deltas forced, so mode 2 is exercised.
    d = mk("saxpy_stride8")
    write_kernel(os.path.join(d, "kernel-1.traceg"), saxpy_strided(1024, 8), 3, prefer=2)
    write_list(d, ["kernel-1.traceg"])

    # multi: three kernels in launch order, v5 with line numbers, xz.
    d = mk("multi")
    write_kernel(os.path.join(d, "kernel-1.traceg"), vecadd(1000), 5, lineinfo=1, xz=True)
    write_kernel(os.path.join(d, "kernel-2.traceg"), reduce(1000), 5, xz=True)
    write_kernel(os.path.join(d, "kernel-3.traceg"), spill(), 5)
    write_list(d, ["MemcpyHtoD,0x%016x,4000" % A, "kernel-1.traceg.xz",
                   "kernel-2.traceg.xz", "kernel-3.traceg"])

    # legacy: before tracer version 3 (four-token prefix, list mode).
    d = mk("legacy")
    write_kernel(os.path.join(d, "kernel-1.traceg"), vecadd(300), 2)
    write_list(d, ["kernel-1.traceg"])

    # hopper: sm_90 with cluster lines, v5.
    d = mk("hopper")
    k = vecadd(512, sm=90)
    k["cluster"] = (2, 1, 1)
    write_kernel(os.path.join(d, "kernel-1.traceg"), k, 5)
    write_list(d, ["kernel-1.traceg"])


if __name__ == "__main__":
    main()
