#!/usr/bin/env python3
"""Figures that `warpline query` must reproduce, computed from a trace's JSON alone (no Warpline code).

    check_query.py TRACE.json[.gz]

Reads Chrome/Kineto JSON (standard library only) and prints, over its complete ("X") events:
kernels (cat "kernel"): their count, the sum of their durations in ns, and the kernel name with
the largest total duration with that total; the cudaLaunchKernel_v7000 calls (cat "cuda_runtime");
copies (cat "gpu_memcpy") by "copy kind": count and
bytes; NVTX ranges (cat "user_annotation") by name: count and total duration. Durations are the
file's microseconds with three decimals, as integer nanoseconds (round(dur * 1000)). Last, for
the NVTX range "train": the kernels that ran inside it (start >= its start, end <= its end, with
start = round(ts * 1000), end = start + round(dur * 1000)): their count and total duration.

Then, over the complete and instant ("X", "i") events, which are the slices: how many there are
of each category ("cat"; NULL for an event without one), how many args they have in all (one
row each in the args table), and for the keys "External id" and "correlation" how many events
have the key and the sum of their (integer) values.
"""
import collections
import gzip
import json
import sys


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        data = json.load(f)
    return data["traceEvents"] if isinstance(data, dict) else data


def main(path):
    events = [e for e in load(path) if e.get("ph") == "X"]
    kernels = [e for e in events if e.get("cat") == "kernel"]
    ns = lambda e: round(float(e.get("dur", 0)) * 1000)
    print("kernels", len(kernels), "total_ns", sum(ns(e) for e in kernels))
    by_name = collections.Counter()
    for e in kernels:
        by_name[e["name"]] += ns(e)
    if by_name:
        name, total = max(by_name.items(), key=lambda kv: (kv[1], kv[0]))
        print("top_kernel", total, name)
    copies = collections.defaultdict(lambda: [0, 0])
    for e in events:
        if e.get("cat") == "gpu_memcpy":
            kind = e.get("args", {}).get("copy kind", "Unknown")
            copies[kind][0] += 1
            copies[kind][1] += int(e.get("args", {}).get("bytes", 0))
    launches = sum(1 for e in events
                   if e.get("cat") == "cuda_runtime" and e["name"] == "cudaLaunchKernel_v7000")
    print("runtime cudaLaunchKernel_v7000", launches)
    for kind in sorted(copies):
        print("copies", kind, copies[kind][0], copies[kind][1])
    ranges = collections.defaultdict(lambda: [0, 0])
    for e in events:
        if e.get("cat") == "user_annotation":
            ranges[e["name"]][0] += 1
            ranges[e["name"]][1] += ns(e)
    for name in sorted(ranges):
        print("nvtx", ranges[name][0], ranges[name][1], name)
    start = lambda e: round(float(e["ts"]) * 1000)
    for r in events:
        if r.get("cat") == "user_annotation" and r["name"] == "train":
            inside = [k for k in kernels
                      if start(k) >= start(r) and start(k) + ns(k) <= start(r) + ns(r)]
            print("train_kernels", len(inside), sum(ns(k) for k in inside))
    slices = [e for e in load(path) if e.get("ph") in ("X", "i")]
    categories = collections.Counter(e.get("cat", "NULL") for e in slices)
    for cat in sorted(categories):
        print("category", cat, categories[cat])
    print("args_rows", sum(len(e.get("args", {})) for e in slices))
    for key in ("External id", "correlation"):
        values = [e["args"][key] for e in slices if key in e.get("args", {})]
        print("args", repr(key), len(values), sum(values))


if __name__ == "__main__":
    main(sys.argv[1])
