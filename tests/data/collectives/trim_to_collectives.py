#!/usr/bin/env python3
"""Trims a trace to what matching collectives needs: trim_to_collectives.py IN.json.gz OUT.json.gz

Keeps the metadata events and top-level keys, the NCCL kernels and, for a Warpline recording,
NCCL's NVTX ranges (and the tracks that hold them); every other event goes. Paths of the machine
that made the trace are cut to their last part (the profiler's traceName, the recorded command's
interpreter)."""
import gzip
import json
import os
import sys

src, dst = sys.argv[1], sys.argv[2]
with gzip.open(src) as f:
    trace = json.load(f)
kept = []
for e in trace["traceEvents"]:
    name = e.get("name", "")
    if (e.get("ph") == "M"
            or (e.get("cat") == "kernel" and name.startswith("nccl"))
            or (e.get("cat") == "user_annotation" and e.get("args", {}).get("domain") == "NCCL")):
        kept.append(e)
trace["traceEvents"] = kept
if "traceName" in trace:
    trace["traceName"] = os.path.basename(trace["traceName"])
if "warpline" in trace:
    used = {(e["pid"], e.get("tid")) for e in kept if e.get("ph") != "M"}
    trace["warpline"]["tracks"] = [t for t in trace["warpline"]["tracks"]
                                   if any((t["pid"], tid) in used for tid in t["tids"])]
meta = trace.get("warplineMetadata", {})
if "command" in meta:
    words = meta["command"].split(" ")
    meta["command"] = " ".join([os.path.basename(words[0])] + words[1:])
with gzip.GzipFile(dst, "wb", mtime=0) as f:
    f.write(json.dumps(trace, separators=(",", ":")).encode())
print(dst, len(kept), "events")
