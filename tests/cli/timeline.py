#!/usr/bin/env python3
"""run --timeline writes a trace Perfetto shows well (trace-event JSON).

Checked, on a bundled trace of several kernels at a clock that is not the
config's (--set clock.core=1755MHz):
  - every process and track an "X" event uses is named by "M" metadata
    (process_name, thread_name, and their sort indexes, SMs by number),
    once, and no track without an event is named;
  - ts and dur are microseconds at that clock: the last event ends at the
    run's last cycle (--json: first kernel's start_cycle + total_cycles)
    / MHz, within a cycle, and each event's args.cycle is its ts x MHz;
    otherData says the clock and the unit;
  - every "X" event has args naming its kernel (a launch id of the run),
    CTA spans and kernel spans the kernel's name too, issue spans a PC and
    opcode, stall spans a reason the legend in otherData explains;
  - no two spans of a track overlap once Perfetto rounds ts and dur to
    whole nanoseconds (it would nest or drop one);
  - --timeline-level cta has the kernels and CTA slots only, the same CTA
    spans, and is smaller; a bad level is one usage error, exit 2;
  - --timeline-window keeps events inside it and says it in cycles and us;
  - --timeline-max-events 10 keeps 10 spans, says truncated, and warns.

    usage: timeline.py WARPSIM   (run from the source root)
"""
import json
import math
import os
import subprocess
import sys
import tempfile

TRACE = "traces/accelsim/multi"
MHZ = 1755.0
CLOCK = ["--set", "clock.core=%gMHz" % MHZ]
WARP_TRACK = 1000  # stats/ws_timeline.h: WS_TL_WARP_TRACK


def fail(what):
    sys.exit("FAIL timeline: " + what)


def check(cond, what):
    if not cond:
        fail(what)


def run(ws, args):
    r = subprocess.run([ws, "run"] + args, capture_output=True, text=True)
    return r.returncode, r.stderr.splitlines()


def simulate(ws, tmp, name, extra):
    tl = os.path.join(tmp, name + ".json")
    js = os.path.join(tmp, name + ".run.json")
    rc, err = run(ws, CLOCK + ["--json", js, "--timeline", tl] + extra
                  + [TRACE])
    check(rc == 0, "%s: exit %d: %s" % (name, rc, err))
    with open(tl) as fp:
        trace = json.load(fp)
    with open(js) as fp:
        report = json.load(fp)
    return trace, report, os.path.getsize(tl), err


def spans(trace):
    return [e for e in trace["traceEvents"] if e["ph"] == "X"]


def named(trace):
    """{pid: name}, {(pid, tid): name}, and the sort indexes alike."""
    procs, threads, psort, tsort = {}, {}, {}, {}
    seen = set()
    for e in trace["traceEvents"]:
        if e["ph"] != "M":
            continue
        what, args = e["name"], e["args"]
        key = (what, e["pid"], e.get("tid"))
        check(key not in seen, "%s given twice" % (key,))
        seen.add(key)
        if what == "process_name":
            procs[e["pid"]] = args["name"]
        elif what == "thread_name":
            threads[(e["pid"], e["tid"])] = args["name"]
        elif what == "process_sort_index":
            psort[e["pid"]] = args["sort_index"]
        elif what == "thread_sort_index":
            tsort[(e["pid"], e["tid"])] = args["sort_index"]
        else:
            fail("unknown metadata event %r" % e)
    return procs, threads, psort, tsort


def check_names(trace, what):
    procs, threads, psort, tsort = named(trace)
    used_p = {e["pid"] for e in spans(trace)}
    used_t = {(e["pid"], e["tid"]) for e in spans(trace)}
    check(used_p == set(procs) == set(psort),
          "%s: processes used %s, named %s, sorted %s"
          % (what, sorted(used_p), sorted(procs), sorted(psort)))
    check(used_t == set(threads) == set(tsort),
          "%s: %d tracks used, %d named, %d sorted (named, unused: %s; "
          "used, unnamed: %s)"
          % (what, len(used_t), len(threads), len(tsort),
             sorted(set(threads) - used_t)[:5],
             sorted(used_t - set(threads))[:5]))
    sms = sorted(p for p, n in procs.items() if n.startswith("SM "))
    check(sms and all(procs[p] == "SM %d" % p for p in sms),
          "%s: SM processes %r" % (what, procs))
    check(sorted(sms, key=lambda p: psort[p]) == sms,
          "%s: SMs do not sort by number" % what)
    kernels = [p for p, n in procs.items() if n == "kernels"]
    check(len(kernels) == 1 and psort[kernels[0]] < min(psort[p] for p in sms),
          "%s: no kernels process sorted first: %r" % (what, procs))
    for (pid, tid), n in threads.items():
        if pid in kernels:
            continue
        want = ("warp slot %d" % (tid - WARP_TRACK) if tid >= WARP_TRACK
                else "CTA slot %d" % tid)
        check(n == want, "%s: track %d/%d named %r, expected %r"
              % (what, pid, tid, n, want))
    return procs, threads, kernels[0]


def perfetto_ns(us):
    """Perfetto's import of a time: llround(us * 1000)."""
    return math.floor(us * 1000.0 + 0.5)


def check_times(trace, report, what):
    other = trace["otherData"]
    check(other.get("time_unit") == "us" and other.get("clock_mhz") == MHZ,
          "%s: otherData %r" % (what, other))
    cycle_us = 1.0 / MHZ
    xs = spans(trace)
    for e in xs:
        check(e["dur"] >= 0, "%s: negative dur %r" % (what, e))
        # ts is the first cycle's time, written to 10 ps
        check(abs(e["ts"] * MHZ - e["args"]["cycle"]) < 0.05,
              "%s: ts %r is not args.cycle / %g MHz: %r" % (what, e["ts"],
                                                            MHZ, e))
    first = report["kernels"][0]["start_cycle"]
    last = (first + report["total_cycles"]) * cycle_us
    end = max(e["ts"] + e["dur"] for e in xs)
    check(abs(end - last) < cycle_us,
          "%s: last event ends at %.6f us, the run at %d cycles = %.6f us"
          % (what, end, first + report["total_cycles"], last))
    # kernel spans: exactly the run's kernels, start to end, in cycles too
    for k in report["kernels"]:
        cycles = k["counters"]["gpc__cycles_elapsed.max"]["value"]
        match = [e for e in xs if e["name"] == k["demangled"]
                 and e["args"]["kernel"] == k["id"]]
        check(len(match) == 1, "%s: kernel %d has %d spans" % (what, k["id"],
                                                               len(match)))
        e = match[0]
        check(e["args"]["cycle"] == k["start_cycle"]
              and e["args"]["cycles"] == cycles,
              "%s: kernel span %r, run %r" % (what, e["args"],
                                              (k["start_cycle"], cycles)))
        check(abs(e["dur"] - cycles * cycle_us) < cycle_us,
              "%s: kernel %d lasts %r us, %d cycles" % (what, k["id"],
                                                        e["dur"], cycles))
    # Perfetto keeps whole nanoseconds: a span of a track ending after the
    # next one starts would be nested into it or dropped.
    tracks = {}
    for e in xs:
        s = perfetto_ns(e["ts"])
        tracks.setdefault((e["pid"], e["tid"]), []).append(
            (s, s + perfetto_ns(e["dur"]), e))
    for key, v in tracks.items():
        v.sort(key=lambda x: (x[0], x[1]))
        for a, b in zip(v, v[1:]):
            check(b[0] >= a[1], "%s: track %r: %r overlaps %r in Perfetto's "
                  "nanoseconds" % (what, key, a[2], b[2]))


def check_args(trace, report, kernels_pid, what):
    ids = {k["id"]: k["name"] for k in report["kernels"]}
    shown = {k["id"]: k["demangled"] for k in report["kernels"]}
    legend = trace["otherData"].get("stall_reasons", {})
    check(legend, "%s: no stall_reasons legend" % what)
    kinds = set()
    for e in spans(trace):
        a = e.get("args")
        check(isinstance(a, dict) and a.get("kernel") in ids,
              "%s: event without its kernel's launch id: %r" % (what, e))
        if e["pid"] == kernels_pid:
            kind = "kernel"
            check(e["name"] == shown[a["kernel"]]
                  and a.get("kernel_name") == ids[a["kernel"]],
                  "%s: kernel span %r" % (what, e))
        elif e["tid"] < WARP_TRACK:
            kind = "cta"
            want = "CTA (%d,%d,%d)" % tuple(a.get("ctaid", (-1, -1, -1)))
            check(e["name"] == want and a.get("kernel_name") == ids[a["kernel"]]
                  and isinstance(a.get("cta"), int),
                  "%s: CTA span %r" % (what, e))
        else:
            check(isinstance(a.get("warp"), int) and isinstance(a.get("cta"),
                                                                int),
                  "%s: warp span without its warp and CTA: %r" % (what, e))
            if e["name"] == "issue":
                kind = "issue"
                check(a.get("pc", "").startswith("0x") and a.get("op"),
                      "%s: issue span without PC and opcode: %r" % (what, e))
            else:
                kind = "stall"
                check(e["name"] in legend,
                      "%s: stall %r not in the legend %r" % (what, e["name"],
                                                            legend))
        kinds.add(kind)
    return kinds


def main():
    ws = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        warp, report, warp_size, err = simulate(ws, tmp, "warp", [])
        check(err == [], "a clean run wrote to stderr: %r" % err)
        check(warp["otherData"].get("level") == "warp", "level not warp")
        _, _, kpid = check_names(warp, "warp level")
        check_times(warp, report, "warp level")
        kinds = check_args(warp, report, kpid, "warp level")
        check(kinds == {"kernel", "cta", "issue", "stall"},
              "warp level: span kinds %r" % kinds)
        meta = warp["metadata"]
        check(meta["events"] == len(spans(warp)) and not meta["truncated"],
              "warp level: metadata %r for %d spans" % (meta,
                                                        len(spans(warp))))

        cta, report2, cta_size, err = simulate(ws, tmp, "cta",
                                               ["--timeline-level", "cta"])
        check(err == [] and report2["total_cycles"] == report["total_cycles"],
              "cta level: the run differs")
        check(cta["otherData"].get("level") == "cta", "level not cta")
        _, threads, kpid = check_names(cta, "cta level")
        check(all(tid < WARP_TRACK for _, tid in threads),
              "cta level has warp tracks")
        check_times(cta, report, "cta level")
        kinds = check_args(cta, report, kpid, "cta level")
        check(kinds == {"kernel", "cta"}, "cta level: span kinds %r" % kinds)
        same = sorted(json.dumps(e, sort_keys=True) for e in spans(warp)
                      if e["tid"] < WARP_TRACK)
        check(same == sorted(json.dumps(e, sort_keys=True)
                             for e in spans(cta)),
              "cta level's spans are not the warp level's CTA and kernel "
              "spans")
        check(cta_size * 4 < warp_size,
              "cta level %d bytes, warp level %d" % (cta_size, warp_size))

        rc, err = run(ws, ["--timeline", os.path.join(tmp, "x.json"),
                           "--timeline-level", "threads", TRACE])
        check(rc == 2 and len(err) == 1
              and "expected warp or cta" in err[0]
              and "--timeline-level" in err[0],
              "bad level: exit %d, %r" % (rc, err))

        win, _, _, err = simulate(ws, tmp, "win",
                                  ["--timeline-window", "100:300"])
        check(err == [], "window: stderr %r" % err)
        tick = 1e-5  # times are written to 10 ps
        for e in spans(win):
            check(100 / MHZ - tick <= e["ts"]
                  and e["ts"] + e["dur"] <= 300 / MHZ + tick,
                  "window: %r outside [100, 300) cycles" % e)
        check(win["metadata"]["window"] == [100, 300]
              and abs(win["metadata"]["window_us"][0] - 100 / MHZ) < 1e-5
              and abs(win["metadata"]["window_us"][1] - 300 / MHZ) < 1e-5,
              "window: metadata %r" % win["metadata"])
        check_names(win, "window")

        cut, _, _, err = simulate(ws, tmp, "cut",
                                  ["--timeline-max-events", "10"])
        meta = cut["metadata"]
        check(meta["truncated"] is True and meta["events"] == 10
              and len(spans(cut)) == 10,
              "truncated: metadata %r, %d spans" % (meta, len(spans(cut))))
        check(len(err) == 1 and err[0].startswith("warpsim: warning: ")
              and "truncated at 10 events" in err[0],
              "truncated: stderr %r" % err)
        procs, threads, _, _ = named(cut)
        check({e["pid"] for e in spans(cut)} == set(procs)
              and {(e["pid"], e["tid"]) for e in spans(cut)} == set(threads),
              "truncated: names do not match the spans kept")
    print("ok timeline (warp %d bytes, cta %d bytes)" % (warp_size, cta_size))


if __name__ == "__main__":
    main()
