# Programs that end badly or start other GPU processes, for `warpline record`: each must leave a
# trace holding the kernels it ran.
#
#   python3 record_resilience.py sigterm   200 CuPy kernels, then SIGTERM to itself (as a launcher
#                                           stops a rank)
#   python3 record_resilience.py abort     200 kernels, then os.abort()
#   python3 record_resilience.py segv      200 kernels, then a segmentation fault
#   python3 record_resilience.py sigkill   200 kernels, a pause (CUPTI hands its buffers over),
#                                           then SIGKILL to itself: nothing can run after it, so
#                                           the recorder rebuilds the trace from the spill file
#   python3 record_resilience.py children  20 kernels here and 20 in each of two child processes
#                                           (multiprocessing, spawn: as DataLoader workers or a
#                                           launcher's ranks would)
#   python3 record_resilience.py capture   30 kernels of warm-up, 10 inside
#                                           cupyx.profiler.profile() (cudaProfilerStart/Stop),
#                                           20 after: --capture-range=cudaProfilerApi keeps 10
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


def capture():
    import cupyx.profiler

    x = cp.zeros(1 << 16, dtype=cp.float32)
    cp.cuda.Device().synchronize()
    for _ in range(30):
        cp.multiply(x, 1.0001, out=x)  # one kernel each
    cp.cuda.Device().synchronize()
    with cupyx.profiler.profile():
        for _ in range(10):
            cp.add(x, 1.0, out=x)
        cp.cuda.Device().synchronize()
    for _ in range(20):
        cp.multiply(x, 1.0001, out=x)
    cp.cuda.Device().synchronize()
    print(f"capture (pid {os.getpid()}): {float(x[0]):.3f}", flush=True)
    return 0


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "sigterm"
    if mode == "capture":
        return capture()
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
    elif mode == "sigkill":
        time.sleep(3)
        os.kill(os.getpid(), signal.SIGKILL)
    return 3


if __name__ == "__main__":
    sys.exit(main())
