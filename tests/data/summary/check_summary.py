#!/usr/bin/env python3
"""The Summary's figures computed from a trace's JSON alone, to check Warpline's (no Warpline code).

    check_summary.py TRACE.json[.gz] ...

Reads Chrome/Kineto JSON (the PyTorch profiler's, `warpline record`'s) with numpy and the standard
library only, and prints for each trace:

kernels   Per kernel name, over every kernel of the trace (cat "kernel" or 1.8's "Kernel"): the
          count, and of the durations in ns the median (np.median), the 95th percentile
          (np.percentile(d, 95), linear) and the standard deviation (np.std, ddof 0).

iterations
          The trace's iterations as Warpline's default window finds them and the Summary splits
          them (tracer/analysis/IterationBreakdown.cpp says the rules; here they are written again
          from that description):
          - NVTX iterations: the host ranges (cat "user_annotation") named like "step 3",
            "ProfilerStep#3", "iteration_3", "iter 3", "batch 3", "epoch 3"; the family (the name
            with its number folded) with the most ranges on one thread (at least 2) wins; the
            leading ranges longer than 5 times the median of those after them are warm-ups,
            left out while at least two remain;
          - else CUDA graph replays: the cudaGraphLaunch/cuGraphLaunch calls and the GPU ops of
            their correlation id; a graph is its "graph id" (our recordings), else its op count
            and first op's name (Kineto); the graph launched most often (at least 10 times) and
            any launched at least half as often; warm-ups as above, by call start to last op end;
            the launches whose first op is at or after the first kept launch's first op.
          Spans: iteration k starts at max(its host start, the start of k-1, the end of the GPU
          work k-1 launched) and ends where k+1 starts; the last ends at the latest of its start,
          its host end and its GPU work's end. An NVTX iteration's GPU work: the ops whose
          correlation id is that of an API call (cuda_runtime, cuda_driver) that starts inside its
          host range; a graph launch's: its ops.
          Parts, each ns to the first that holds it: kernel, memcpy, memset (GPU ops by category),
          CUDA API (cuda_runtime, cuda_driver), data loading (a host range whose name holds
          "dataloader" in any case), host compute (any other host range: X events of a host pid
          but API calls, overhead, syncs and memory records; not one that holds a whole
          iteration's mark: the NVTX range, or a launch call to the next call, the last to the
          end of its ops), other (the rest).
          Host pids: numeric pids >= 0 that hold no GPU ops (our recordings: the "warpline"
          block's processes with device -1).
          Printed: each iteration's name, duration and parts (ns), whether the parts sum to the
          duration, and the parts' totals.

operators Over the GPU work's extent (see memory below), the calls that start inside it: the CPU
          operators (cat "cpu_op", 1.8's "Operator") when the trace has any, else the host's NVTX
          ranges with a duration (cat "user_annotation"); not those named like iterations
          (ProfilerStep#3, step 3: see below). Per name, and per name and input shapes
          ("Input Dims", 1.8's "Input dims", as compact JSON): calls, host total and self (less
          the calls nested in it on its thread: pid and tid), GPU total and self (the GPU ops of
          the correlation ids of the API calls of its thread that start inside the call; self:
          not inside a nested call), in ns; the 10 longest host totals.

memory    The peak of device memory in use over the GPU work's extent (the first GPU op's start to
          the last one's end: Warpline's whole-trace window), per device: from the "[memory]"
          events' "Total Allocated" (Device Type 1), else by replaying our recordings'
          allocation and release records of device and managed memory (cat "gpu_memory"). The
          value in force at the extent's start counts; printed: the peak in bytes and its first
          time, in ns after the extent's start.

Times are exact integer ns: "ts" and "dur" (us) read as decimals, rounded half away from zero.
"""
import gzip
import json
import re
import sys
from collections import defaultdict
from decimal import ROUND_HALF_UP, Decimal

import numpy as np

KERNEL = {"kernel", "Kernel"}
MEMCPY = {"gpu_memcpy", "Memcpy"}
MEMSET = {"gpu_memset", "Memset"}
GPU = KERNEL | MEMCPY | MEMSET
API = {"cuda_runtime", "cuda_driver", "Runtime"}
NOT_HOST_RANGE = API | GPU | {"overhead", "cuda_sync", "gpu_memory", "gpu_unified_memory",
                              "gpu_user_annotation", "instant"}
PARTS = ["Kernel", "Memcpy", "Memset", "CUDA API", "Data loading", "Host compute", "Other"]


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        data = json.load(f, parse_float=Decimal)
    return data if isinstance(data, dict) else {"traceEvents": data}


def ns(value):
    return int((Decimal(str(value)) * 1000).to_integral_value(rounding=ROUND_HALF_UP))


class Event:
    __slots__ = ("cat", "name", "pid", "tid", "start", "end", "args", "order")

    def __init__(self, e, order):
        self.cat = e.get("cat", "")
        self.name = e.get("name", "")
        self.pid = e.get("pid")
        self.tid = e.get("tid")
        self.start = ns(e["ts"])
        self.end = self.start + ns(e.get("dur", 0))
        self.args = e.get("args", {})
        self.order = order


def events_of(trace):
    out = []
    for i, e in enumerate(trace["traceEvents"]):
        if e.get("ph") == "X" and "ts" in e:
            out.append(Event(e, i))
    return out


def gpu_pids(trace, events):
    block = trace.get("warpline", {}).get("processes")
    if block:
        return {p["pid"] for p in block if p.get("device", -1) >= 0}
    return {e.pid for e in events if e.cat in GPU or e.cat == "gpu_user_annotation"}


def is_host_pid(pid, gpus):
    return isinstance(pid, int) and pid >= 0 and pid not in gpus


# --- kernels -------------------------------------------------------------------------------------

def kernels(events):
    by_name = defaultdict(list)
    for e in events:
        if e.cat in KERNEL:
            by_name[e.name].append(e.end - e.start)
    rows = []
    for name, durations in by_name.items():
        d = np.array(durations, dtype=np.int64)
        rows.append((int(d.sum()), name, len(d), float(np.median(d)),
                     float(np.percentile(d, 95)), float(np.std(d))))
    rows.sort(key=lambda r: (-r[0], r[1]))
    return rows


# --- iterations ----------------------------------------------------------------------------------

WORDS = {"step", "profilerstep", "iteration", "iter", "batch", "epoch"}


def family(name):
    m = re.fullmatch(r"(.*?)([0-9]+)", name)
    if not m or not m.group(1):
        return ""
    prefix = m.group(1)
    if prefix.rstrip(" #_:").lower() not in WORDS:
        return ""
    return prefix if prefix.endswith("#") else prefix + "#"


def leading_warm_ups(durations):
    warm = 0
    while len(durations) - warm > 2:
        rest = sorted(durations[warm + 1:])
        if durations[warm] <= 5 * rest[len(rest) // 2]:
            break
        warm += 1
    return warm


def launched_ops(events, gpus):
    """correlation id -> [(start, end)] of GPU ops."""
    out = defaultdict(list)
    for e in events:
        if e.cat in GPU and "correlation" in e.args and e.args["correlation"]:
            out[int(e.args["correlation"])].append((e.start, e.end, e))
    return out


def nvtx_marks(events, gpus):
    per_thread = defaultdict(lambda: defaultdict(list))
    for e in events:
        if e.cat == "user_annotation" and is_host_pid(e.pid, gpus):
            f = family(e.name)
            if f:
                per_thread[f][(e.pid, e.tid)].append(e)
    best = None
    for f in sorted(per_thread):
        threads = per_thread[f]
        count = max(len(v) for v in threads.values())
        if count >= 2 and (best is None or count > best[1]):
            best = (f, count)
    if best is None:
        return []
    threads = per_thread[best[0]]
    thread = max(threads, key=lambda k: len(threads[k]))
    steps = sorted(threads[thread], key=lambda e: (e.start, e.end))
    warm = leading_warm_ups([e.end - e.start for e in steps])
    return [{"name": e.name, "host": (e.start, e.end), "test": (e.start, e.end), "gpu_end": None}
            for e in steps[warm:]]


def nvtx_gpu_ends(marks, events, gpus, ops):
    starts = [m["host"][0] for m in marks]
    for e in events:
        if e.cat not in API or not is_host_pid(e.pid, gpus) or "correlation" not in e.args:
            continue
        launched = ops.get(int(e.args["correlation"]))
        if not launched:
            continue
        k = int(np.searchsorted(starts, e.start, side="right")) - 1
        if k < 0:
            continue
        host = marks[k]["host"]
        if e.start < host[1] or e.start == host[0]:
            end = max(o[1] for o in launched)
            marks[k]["gpu_end"] = end if marks[k]["gpu_end"] is None else max(marks[k]["gpu_end"], end)


def graph_marks(events, gpus, ops):
    launches = []
    for e in events:
        base = re.sub(r"(_v[0-9]+)+$", "", e.name)
        if e.cat not in API or base not in ("cudaGraphLaunch", "cuGraphLaunch"):
            continue
        launched = ops.get(int(e.args.get("correlation", 0)))
        if not launched:
            continue
        first = min(launched, key=lambda o: o[0])
        graph_id = max(int(o[2].args.get("graph id", 0)) for o in launched)
        key = (e.pid, graph_id) if graph_id else (e.pid, 0, len(launched), first[2].name)
        launches.append({"key": key, "call": e, "first": first[0], "last": max(o[1] for o in launched),
                         "graph": graph_id})
    by_graph = defaultdict(list)
    for l in launches:
        by_graph[l["key"]].append(l)
    if not by_graph:
        return []
    most = max(len(v) for v in by_graph.values())
    if most < 10:
        return []
    best = next(v for k, v in sorted(by_graph.items()) if len(v) == most)
    loop = {k: v for k, v in by_graph.items() if 2 * len(v) >= most}
    best = sorted(best, key=lambda l: l["call"].start)
    warm = leading_warm_ups([l["last"] - l["call"].start for l in best])
    from_call = best[warm]["call"].start
    start = min(l["first"] for v in loop.values() for l in v if warm == 0 or l["call"].start >= from_call)
    start = min(start, best[warm]["first"])
    keys = sorted(loop)
    marks = []
    for gi, k in enumerate(keys):
        for number, l in enumerate(sorted(loop[k], key=lambda l: l["call"].start), 1):
            if l["first"] < start:
                continue
            graph = ("CUDA graph %d" % l["graph"] if l["graph"] else
                     "CUDA graph" if len(keys) == 1 else "CUDA graph #%d" % (gi + 1))
            c = l["call"]
            marks.append({"name": "launch %d of %s" % (number, graph), "host": (c.start, c.end),
                          "test": (c.start, c.end), "gpu_end": l["last"]})
    marks.sort(key=lambda m: m["host"])
    for a, b in zip(marks, marks[1:]):
        a["test"] = (a["test"][0], max(a["test"][1], b["host"][0]))
    if marks:
        last = marks[-1]
        last["test"] = (last["test"][0], max(last["test"][1], last["gpu_end"]))
    return marks


def union(intervals):
    out = []
    for s, e in sorted(i for i in intervals if i[1] > i[0]):
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return np.array(out, dtype=np.int64).reshape(-1, 2)


def covered(u, a, b):
    if len(u) == 0:
        return 0
    return int(np.clip(np.minimum(u[:, 1], b) - np.maximum(u[:, 0], a), 0, None).sum())


def iterations(events, gpus):
    ops = launched_ops(events, gpus)
    marks = nvtx_marks(events, gpus)
    source = "nvtx_ranges"
    if marks:
        nvtx_gpu_ends(marks, events, gpus, ops)
    else:
        marks = graph_marks(events, gpus, ops)
        source = "graph_launches"
    if not marks:
        return source, []
    starts = []
    for k, m in enumerate(marks):
        s = m["host"][0]
        if k > 0:
            s = max(s, starts[-1], marks[k - 1]["gpu_end"] if marks[k - 1]["gpu_end"] is not None else s)
        starts.append(s)
    last = marks[-1]
    end = max(starts[-1], last["host"][1], last["gpu_end"] if last["gpu_end"] is not None else starts[-1])
    spans = [(starts[k], starts[k + 1] if k + 1 < len(marks) else end) for k in range(len(marks))]
    tests = sorted(m["test"] for m in marks)
    test_starts = [t[0] for t in tests]

    def holds_a_mark(s, e):
        i = int(np.searchsorted(test_starts, s, side="left"))
        return i < len(tests) and tests[i][1] <= e

    lo, hi = spans[0][0], spans[-1][1]
    parts = [[] for _ in range(6)]
    for e in events:
        if e.end <= e.start or e.end <= lo or e.start >= hi:
            continue
        if e.cat in KERNEL:
            parts[0].append((e.start, e.end))
        elif e.cat in MEMCPY:
            parts[1].append((e.start, e.end))
        elif e.cat in MEMSET:
            parts[2].append((e.start, e.end))
        elif not is_host_pid(e.pid, gpus):
            continue
        elif e.cat in API:
            parts[3].append((e.start, e.end))
        elif e.cat in NOT_HOST_RANGE:
            continue
        elif "dataloader" in e.name.lower():
            parts[4].append((e.start, e.end))
        elif not holds_a_mark(e.start, e.end):
            parts[5].append((e.start, e.end))
    unions = []
    acc = []
    for p in parts:
        acc = acc + p
        unions.append(union(acc))
    rows = []
    for m, (a, b) in zip(marks, spans):
        values, before = [], 0
        for u in unions:
            c = covered(u, a, b)
            values.append(c - before)
            before = c
        values.append((b - a) - before)
        rows.append((m["name"], a, b, values))
    return source, rows


# --- operators -----------------------------------------------------------------------------------

def operators(trace, events, gpus, ops):
    gpu = [e for e in events if e.cat in GPU]
    if not gpu:
        return [], []
    lo = min(e.start for e in gpu)
    hi = max(e.end for e in gpu)
    cpu = any(e.cat in ("cpu_op", "Operator") for e in events)
    threads = defaultdict(lambda: ([], []))
    for e in events:
        if not is_host_pid(e.pid, gpus):
            continue
        if family(e.name):
            continue  # an iteration's mark (ProfilerStep#3, step 3), not an operator
        if (e.cat in ("cpu_op", "Operator") if cpu else e.cat == "user_annotation" and e.end > e.start):
            if e.start < hi and (e.end > lo or e.start >= lo):
                threads[(e.pid, e.tid)][0].append(e)
        elif e.cat in API and "correlation" in e.args and lo <= e.start < hi:
            launched = ops.get(int(e.args["correlation"]))
            if launched:
                threads[(e.pid, e.tid)][1].append((e.start, sum(o[1] - o[0] for o in launched), len(launched)))
    by_name = defaultdict(lambda: [0, 0, 0, 0, 0])
    by_shapes = defaultdict(lambda: [0, 0, 0, 0, 0])
    for calls, launches in threads.values():
        calls.sort(key=lambda e: (e.start, -e.end, e.order))
        launches.sort(key=lambda l: l[0])
        stats = {id(c): [0, 0, 0] for c in calls}  # child ns, gpu total, gpu self
        items = [(c.start, 0, c) for c in calls] + [(l[0], 1, l) for l in launches]
        items.sort(key=lambda x: (x[0], x[1]))
        open_calls = []
        for t, kind, item in items:
            while open_calls and open_calls[-1].end <= t:
                open_calls.pop()
            if kind == 0:
                if open_calls:
                    parent = open_calls[-1]
                    stats[id(parent)][0] += min(item.end, parent.end) - item.start
                open_calls.append(item)
            else:
                for c in open_calls:
                    stats[id(c)][1] += item[1]
                if open_calls:
                    stats[id(open_calls[-1])][2] += item[1]
        for c in calls:
            if not lo <= c.start < hi:
                continue
            child, gpu_total, gpu_self = stats[id(c)]
            dims = c.args.get("Input Dims", c.args.get("Input dims"))
            shapes = json.dumps(dims, separators=(",", ":"), default=str) if dims is not None else ""
            for row in (by_name[c.name], by_shapes[(c.name, shapes)]):
                row[0] += 1
                row[1] += c.end - c.start
                row[2] += max(0, c.end - c.start - child)
                row[3] += gpu_total
                row[4] += gpu_self
    top = sorted(by_name.items(), key=lambda kv: (-kv[1][1], kv[0]))[:10]
    top_shapes = sorted(by_shapes.items(), key=lambda kv: (-kv[1][1], kv[0]))[:10]
    return top, top_shapes


# --- memory --------------------------------------------------------------------------------------

def memory(trace, events):
    gpu = [e for e in events if e.cat in GPU]
    if not gpu:
        return {}
    lo = min(e.start for e in gpu)
    hi = max(e.end for e in gpu)
    samples = defaultdict(list)  # device -> [(ns, bytes)]
    raw = trace["traceEvents"]
    for e in raw:
        args = e.get("args", {})
        if (e.get("name") == "[memory]" and args.get("Device Type") == 1 and
                "Total Allocated" in args and args.get("Device Id", -1) >= 0):
            samples[int(args["Device Id"])].append((ns(e["ts"]), int(args["Total Allocated"])))
    if not samples:
        records = [(ns(e["ts"]), i, e) for i, e in enumerate(raw)
                   if e.get("cat") == "gpu_memory" and e.get("ph") == "X"]
        records.sort(key=lambda r: (r[0], r[1]))
        live = defaultdict(dict)
        in_use = defaultdict(int)
        for t, _, e in records:
            a = e["args"]
            if a.get("memory kind") not in ("Device", "Managed"):
                continue
            device = int(a.get("device", e.get("pid")))
            address = a.get("address")
            if a.get("memory op") == "allocation":
                if address in live[device]:
                    in_use[device] -= live[device][address]
                live[device][address] = int(a.get("bytes", 0))
                in_use[device] += int(a.get("bytes", 0))
            elif address in live[device]:
                in_use[device] -= live[device].pop(address)
            s = samples[device]
            if s and s[-1][0] == t:
                s[-1] = (t, in_use[device])
            else:
                s.append((t, in_use[device]))
    out = {}
    for device, s in samples.items():
        s.sort(key=lambda x: x[0])
        at_start = 0
        for t, v in s:
            if t <= lo:
                at_start = v
        peak, when = at_start, lo
        for t, v in s:
            if lo < t < hi and v > peak:
                peak, when = v, t
        out[device] = (peak, when - lo)
    return out


def main(paths):
    for path in paths:
        trace = load(path)
        events = events_of(trace)
        gpus = gpu_pids(trace, events)
        print("== %s" % path)
        print("kernels (name, count, median ns, p95 ns, std ns), longest total first:")
        for total, name, count, median, p95, std in kernels(events):
            print("  %r %d %.3f %.3f %.3f" % (name, count, median, p95, std))
        source, rows = iterations(events, gpus)
        if rows:
            print("iterations: %s, %d" % (source, len(rows)))
        else:
            print("iterations: none marked (the Summary shows its window as one bar)")
        totals = [0] * len(PARTS)
        for name, a, b, values in rows:
            totals = [t + v for t, v in zip(totals, values)]
            print("  %s: %d ns, parts %s, sum == duration: %s" % (
                name, b - a, values, sum(values) == b - a))
        print("  totals: %s" % ", ".join("%s %d" % (p, t) for p, t in zip(PARTS, totals)))
        top, top_shapes = operators(trace, events, gpus, launched_ops(events, gpus))
        print("operators (name, calls, host total, host self, GPU total, GPU self ns):")
        for name, row in top:
            print("  %r %s" % (name, " ".join(str(v) for v in row)))
        print("operators by name and input shapes:")
        for (name, shapes), row in top_shapes:
            print("  %r %r %s" % (name, shapes, " ".join(str(v) for v in row)))
        for device, (peak, when) in sorted(memory(trace, events).items()):
            print("memory: device %d peak %d bytes, first at %d ns after the GPU work's start" % (
                device, peak, when))


if __name__ == "__main__":
    main(sys.argv[1:])
