# Programs that end badly or start other GPU processes, for `warpline record`: each must leave a
# trace holding the kernels it ran.
#
#   python3 record_resilience.py sigterm   200 CuPy kernels, then SIGTERM to itself (as a launcher
#                                           stops a rank)
#   python3 record_resilience.py abort     200 kernels, then os.abort()
#   python3 record_resilience.py segv      200 kernels, then a segmentation fault
#   python3 record_resilience.py children  20 kernels here and 20 in each of two child processes
#                                           (multiprocessing, spawn: as DataLoader workers or a
#                                           launcher's ranks would)
import ctypes
import multiprocessing as mp
import os
import signal
import sys
import time

import cupy as cp


def run_kernels(n):
    x = cp.arange(1 << 16, dtype=cp.float32)
    for _ in range(n):
        x = x * 1.0001 + 1.0
    cp.cuda.Device().synchronize()
    return float(x[0])


def child(index):
    value = run_kernels(20)
    print(f"child {index} (pid {os.getpid()}): {value:.3f}", flush=True)


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "sigterm"
    if mode == "children":
        ctx = mp.get_context("spawn")
        procs = [ctx.Process(target=child, args=(i,)) for i in range(2)]
        for p in procs:
            p.start()
        print(f"parent (pid {os.getpid()}): {run_kernels(20):.3f}", flush=True)
        for p in procs:
            p.join()
        return 0 if all(p.exitcode == 0 for p in procs) else 1
    print(f"{mode} (pid {os.getpid()}): {run_kernels(200):.3f} after 200 x 2 kernels", flush=True)
    if mode == "sigterm":
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(10)
    elif mode == "abort":
        os.abort()
    elif mode == "segv":
        ctypes.string_at(0)
    return 3


if __name__ == "__main__":
    sys.exit(main())
