#!/usr/bin/env python3
"""Counts the GPU work in Chrome trace / PyTorch profiler files without any of Warpline's code,
and checks that `warpline analyze FILE --json` reports the same numbers. With --convert, also
converts each file that opens and checks the result: strict JSON (no duplicate keys, no NaN),
the same counts again, and every args key of the original's slice events still there as often.

Why: the importer decides what is a kernel, a copy or a memset from categories that changed over
the PyTorch profiler's history; an independent count over the raw JSON catches a vintage it reads
as empty. Python standard library only.

    scripts/check_import_counts.py [--warpline PATH] [--convert] FILE|DIR...

Prints one row per file (exit code of `warpline analyze`, expected and reported counts) and
exits 1 when a strict-JSON file is refused or any count differs.
"""

import argparse
import gzip
import json
import os
import subprocess
import sys

# Category names of GPU work: Kineto's, and the PyTorch 1.8-1.9 profiler's (Kernel, Memcpy,
# Memset). Only complete ("X") events carry GPU work in these producers.
KERNEL_CATS = {"kernel", "Kernel"}
MEMCPY_CATS = {"gpu_memcpy", "Memcpy"}
MEMSET_CATS = {"gpu_memset", "Memset"}


def read_text(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return data.decode("utf-8")


def expected_counts(path):
    """(kernels, memcpys, memsets), or None when the file is not strict JSON."""
    try:
        doc = json.loads(read_text(path))
    except (ValueError, UnicodeDecodeError, OSError, EOFError):
        return None
    events = doc if isinstance(doc, list) else doc.get("traceEvents", [])
    kernels = memcpys = memsets = 0
    for e in events:
        if not isinstance(e, dict) or e.get("ph") != "X":
            continue
        cat = e.get("cat")
        if cat in KERNEL_CATS:
            kernels += 1
        elif cat in MEMCPY_CATS:
            memcpys += 1
        elif cat in MEMSET_CATS:
            memsets += 1
    return kernels, memcpys, memsets


def strict_load(text):
    """JSON as a strict reader takes it: a duplicate key or a NaN/Infinity is an error."""
    def no_duplicates(pairs):
        keys = [k for k, _ in pairs]
        if len(keys) != len(set(keys)):
            raise ValueError("duplicate key in " + repr(keys))
        return dict(pairs)

    def no_constants(name):
        raise ValueError("not a JSON number: " + name)

    return json.loads(text, object_pairs_hook=no_duplicates, parse_constant=no_constants)


def arg_key_counts(doc):
    """How many slice events (X, B, i, I, b, n) carry each args key."""
    events = doc if isinstance(doc, list) else doc.get("traceEvents", [])
    counts = {}
    for e in events:
        if isinstance(e, dict) and e.get("ph") in ("X", "B", "i", "I", "b", "n"):
            args = e.get("args")
            if isinstance(args, dict):
                for k in args:
                    counts[k] = counts.get(k, 0) + 1
    return counts


def check_convert(warpline, path, timeout_s):
    """'' when the converted file is strict JSON with the same counts and args keys."""
    out = path + ".converted.json"
    out = os.path.join("/tmp" if os.path.isdir("/tmp") else ".", os.path.basename(out))
    try:
        run = subprocess.run([warpline, "convert", path, "-o", out], capture_output=True,
                             text=True, timeout=timeout_s)
        if run.returncode != 0:
            return "convert failed: " + run.stderr.strip()[:200]
        try:
            converted = strict_load(read_text(out))
        except ValueError as e:
            return "not strict JSON: " + str(e)[:200]
        if expected_counts(out) != expected_counts(path):
            return f"counts {expected_counts(out)} after convert"
        before = arg_key_counts(json.loads(read_text(path)))
        after = arg_key_counts(converted)
        lost = {k: (n, after.get(k, 0)) for k, n in before.items() if after.get(k, 0) < n}
        return f"args lost: {dict(list(lost.items())[:3])}" if lost else ""
    finally:
        if os.path.exists(out):
            os.remove(out)


def warpline_counts(warpline, path, timeout_s):
    """(exit code, (kernels, memcpys, memsets) or None, first stderr line)."""
    try:
        run = subprocess.run([warpline, "analyze", path, "--json"], capture_output=True,
                             text=True, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        return "timeout", None, ""
    err = run.stderr.strip().splitlines()
    first = err[0] if err else ""
    if run.returncode != 0:
        return run.returncode, None, first
    try:
        report = json.loads(run.stdout)
    except ValueError:
        return run.returncode, None, "unreadable --json output"
    counts = report.get("counts")
    if counts is None:
        return run.returncode, None, "no counts in --json output"
    return run.returncode, (counts["kernel"], counts["memcpy"], counts["memset"]), first


def trace_files(paths):
    for p in paths:
        if os.path.isdir(p):
            for name in sorted(os.listdir(p)):
                if name.endswith((".json", ".gz")) and name != "manifest.json":
                    yield os.path.join(p, name)
        else:
            yield p


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--warpline", default="build/import/app/warpline")
    parser.add_argument("--timeout-s", type=float, default=120.0)
    parser.add_argument("--convert", action="store_true",
                        help="also check `warpline convert` of each file that opens")
    parser.add_argument("paths", nargs="+")
    args = parser.parse_args()

    failures = 0
    print(f"{'file':52} {'exit':>4}  {'expected k/m/s':>16}  {'warpline k/m/s':>16}  result")
    for path in trace_files(args.paths):
        expected = expected_counts(path)
        code, got, message = warpline_counts(args.warpline, path, args.timeout_s)
        fmt = lambda c: "/".join(str(n) for n in c) if c else "-"
        if expected is None:
            # Not strict JSON: opening it or a clean refusal (exit 2 with an error line) are both
            # fine; a crash, a hang or another exit code is not.
            ok = code == 0 or (code == 2 and message.startswith("warpline: error:"))
            verdict = "lenient: " + ("opened" if code == 0 else message) if ok else "FAIL"
        else:
            ok = code == 0 and got == expected
            verdict = "ok" if ok else f"FAIL {message}"
            if ok and args.convert:
                problem = check_convert(args.warpline, path, args.timeout_s)
                ok = not problem
                verdict = "ok, converts" if ok else f"FAIL {problem}"
        failures += not ok
        print(f"{os.path.basename(path):52} {code!s:>4}  {fmt(expected):>16}  {fmt(got):>16}  "
              f"{verdict}")
    print(f"{failures} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
