#!/usr/bin/env python3
"""Collectives of a two-or-more-rank job computed from the JSON alone, to check Warpline's.

    check_collectives.py RANK0.json.gz RANK1.json.gz ...   (PyTorch profiler traces, one per rank)
    check_collectives.py JOB.merged.json.gz                (a job `warpline record` merged)

Each rank's NCCL kernels ("cat": "kernel", name "nccl...") but the point-to-point ones
(send/receive) are put on a communicator: the
profiler's "Process Group Name" and "Process Group Ranks" args where the kernel has them, else the
kernel's stream; on each communicator the k-th kernel of every rank, in start order, is one
collective. A rank arrives when its kernel starts; the last rank is the latest arrival (the lowest
rank on a tie), its lateness that minus the second-latest arrival, each rank's wait the last
arrival minus its own. Times are exact integer ns: "ts" (us, three decimals) read as decimals and
put on one axis by adding "baseTimeNanoseconds" (per-rank traces; a merged trace has one base).
"""
import gzip
import json
import sys
from collections import Counter
from decimal import Decimal


def load(path):
    with gzip.open(path) as f:
        return json.load(f, parse_float=Decimal)


def collective_name(event):
    name = event["args"].get("Collective name")
    if name:
        return name
    for prefix in ("ncclDevKernel_", "ncclKernel_"):
        if event["name"].startswith(prefix):
            return event["name"][len(prefix):].split("_")[0].split("(")[0]
    return event["name"]


def communicator(event):
    args = event["args"]
    if "Process Group Name" in args:
        return ("process group", args["Process Group Name"], args.get("Process Group Ranks"))
    return ("stream", args.get("stream"))


def kernels_by_rank(paths):
    """{rank: {communicator: [(arrival ns, end ns, name), ...]}}"""
    out = {}
    for path in paths:
        trace = load(path)
        base = int(trace.get("baseTimeNanoseconds", 0))
        processes = trace.get("warpline", {}).get("processes", [])
        rank_of_pid = {p["pid"]: p["rank"] for p in processes if "rank" in p}
        own_rank = trace.get("distributedInfo", {}).get("rank")
        for e in trace["traceEvents"]:
            if e.get("cat") != "kernel" or not e.get("name", "").startswith("nccl"):
                continue
            if collective_name(e).lower() in ("sendrecv", "send", "recv"):
                continue  # point-to-point: pairs two ranks, no all-ranks arrival
            rank = int(rank_of_pid.get(e["pid"], own_rank))
            start = base + int(e["ts"] * 1000)
            end = base + int((e["ts"] + e["dur"]) * 1000)
            out.setdefault(rank, {}).setdefault(communicator(e), []).append(
                (start, end, collective_name(e)))
    for comms in out.values():
        for kernels in comms.values():
            kernels.sort()
    return out


def main(paths):
    ranks = kernels_by_rank(paths)
    order = sorted(ranks)
    comms = sorted(set().union(*(set(c) for c in ranks.values())), key=str)
    rows = []
    for comm in comms:
        counts = {r: len(ranks[r].get(comm, [])) for r in order}
        print("communicator", comm, "collectives per rank", counts)
        for k in range(min(counts.values())):
            arrivals = {r: ranks[r][comm][k][0] for r in order}
            ends = [ranks[r][comm][k][1] for r in order]
            names = {ranks[r][comm][k][2] for r in order}
            last = max(order, key=lambda r: (arrivals[r], -r))
            ordered = sorted(arrivals.values())
            rows.append(dict(
                seq=k + 1, name="/".join(sorted(names)), last=last,
                lateness_ns=ordered[-1] - ordered[-2],
                wait_ns=sum(ordered[-1] - arrivals[r] for r in order if r != last),
                end_spread_ns=max(ends) - min(ends)))
    for row in rows:
        print(row)
    print("collectives", len(rows))
    print("last (lateness > 0) per rank", dict(Counter(r["last"] for r in rows if r["lateness_ns"] > 0)))
    print("lateness summed per rank",
          {r: sum(x["lateness_ns"] for x in rows if x["last"] == r and x["lateness_ns"] > 0) for r in order})
    print("total wait ns", sum(r["wait_ns"] for r in rows))
    print("late by more than 10 ms", [(r["seq"], r["last"], r["lateness_ns"]) for r in rows
                                      if r["lateness_ns"] > 10_000_000])
    print("costliest 5 (seq, last, lateness ns, wait ns)",
          [(r["seq"], r["last"], r["lateness_ns"], r["wait_ns"])
           for r in sorted(rows, key=lambda r: (-r["wait_ns"], r["seq"]))[:5]])


if __name__ == "__main__":
    main(sys.argv[1:])
