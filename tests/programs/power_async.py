# Power iteration, asynchronous version (the notebook's exercise, solved).
#
# Source: NVIDIA's accelerated-computing-hub notebook "Asynchrony - Power Iteration" (CuPy;
# "异步性与幂迭代" in translation), section 6 (实现异步性) and 7 (性能分析).
# The seed keeps only the notebook's prose; the `power_iteration__async.py` cell's harness
# (config, generate_device, warm-up, cpx.profiler.profile() around start/stop, final "X ms" line)
# is the notebook's, and estimate_device() is the baseline's NVTX-annotated loop with asynchrony
# added using the tools section 6 lists: a second stream (cp.cuda.Stream(non_blocking=True)),
# an event recorded on a stream (.record()), .synchronize() on that event, and
# cp.asnumpy(..., blocking=False).
#
# Per check, compared with power_baseline.py:
#   1. "Copy i": the compute stream records an event; the copy stream waits for it
#      (device-side, the host does not block) and then copies `res` and `x` into *pinned* host
#      buffers with cp.asnumpy(..., out=pinned, blocking=False); an event is recorded on the copy
#      stream after the copies. (A D2H copy into ordinary pageable memory would make the host
#      wait for the copy anyway, which is why the buffers are pinned.)
#   2. "Compute i+1 to ...": the next batch of iterations is queued on the compute stream
#      right away, before anything waits.
#   3. "I/O i": only now the host waits, on the copy event alone (not on the queued compute),
#      then prints and np.savetxt()s the checkpoint while the GPU runs the next batch.
# The device arrays being copied are kept referenced until their copy event has completed, so
# CuPy's memory pool cannot hand their memory to later compute while the copy still reads it.
#
# `--same-stream` instead runs the notebook's published solution literally: the copies stay on
# the current stream, go to fresh pageable arrays (cp.asnumpy(..., blocking=False) with no
# `out`), and the event is recorded on that same stream.
#
# Deliberate difference from the notebook: checkpoints go to a fresh tempfile.mkdtemp() folder.

import argparse
import os
import shutil
import tempfile

import numpy as np
import cupy as cp
import cupyx as cpx
import cupyx.profiler  # NOQA: makes sure `cpx.profiler` is loaded
import nvtx
import time
from dataclasses import dataclass

parser = argparse.ArgumentParser(description="Power iteration with asynchronous checkpoint copies")
parser.add_argument("--same-stream", action="store_true",
                    help="copy on the compute stream into pageable memory (the notebook's published solution)")
ARGS = parser.parse_args()

CHECKPOINT_DIR = tempfile.mkdtemp(prefix="power_async_")

@dataclass
class PowerIterationConfig:
  dim: int = 8192
  dominance: float = 0.05
  max_steps: int = 1000
  check_frequency: int = 15
  progress: bool = True
  residual_threshold: float = 1e-10

def generate_device(cfg=PowerIterationConfig()):
  cp.random.seed(42)
  weak_lam = cp.random.random(cfg.dim - 1) * (1.0 - cfg.dominance)
  lam = cp.random.permutation(cp.concatenate((cp.asarray([1.0]), weak_lam)))
  P = cp.random.random((cfg.dim, cfg.dim))
  D = cp.diag(cp.random.permutation(lam))
  A = ((P @ D) @ cp.linalg.inv(P))
  return A

def estimate_device(A, cfg=PowerIterationConfig()) -> np.ndarray:
  with nvtx.annotate("Setup"):
    A_gpu = cp.asarray(A) # If `A` is on the host, copy from host to device.
                          # Otherwise, does nothing.

    x = cp.ones(A_gpu.shape[0], dtype=np.float64)

    compute_stream = cp.cuda.get_current_stream()
    if not ARGS.same_stream:
      copy_stream = cp.cuda.Stream(non_blocking=True)
      # Page-locked host buffers, reused for every checkpoint: each one is consumed (printed,
      # saved) before the next copy into it is queued.
      res_host = cpx.empty_pinned((), dtype=np.float64)
      x_host = cpx.empty_pinned(x.shape, dtype=x.dtype)

  with nvtx.annotate("Loop"):
    for i in range(0, cfg.max_steps, cfg.check_frequency):
      with nvtx.annotate(f"Step {i} to {i + cfg.check_frequency}"):
        with nvtx.annotate(f"Compute & Residual {i}"):
          y = A_gpu @ x
          lam = (x @ y) / (x @ x)            # Rayleigh quotient.
          res = cp.linalg.norm(y - lam * x)
          x = y / cp.linalg.norm(y)          # Normalize for next step.

        with nvtx.annotate(f"Copy {i}"):
          if ARGS.same_stream:
            res_host = cp.asnumpy(res, blocking=False)
            x_host = cp.asnumpy(x, blocking=False)
            copy_event = compute_stream.record()
          else:
            # The copy stream must not read `res`/`x` before the compute stream produced them.
            copy_stream.wait_event(compute_stream.record())
            cp.asnumpy(res, stream=copy_stream, out=res_host, blocking=False)
            cp.asnumpy(x, stream=copy_stream, out=x_host, blocking=False)
            copy_event = copy_stream.record()
          # Keep the copy sources alive until copy_event has completed (see header).
          copy_sources = (res, x)

        with nvtx.annotate(f"Compute {i + 1} to {i + cfg.check_frequency}"):
          for j in range(i + 1, i + cfg.check_frequency):
            with nvtx.annotate(f"Compute Step {j}"):
              y = A_gpu @ x # We have to use `A_gpu` here as well.
              x = y / cp.linalg.norm(y) # Normalize for next step.

        with nvtx.annotate(f"I/O {i}", payload=i):
          copy_event.synchronize() # Wait for the copies to complete (not for the compute).
          del copy_sources

          if cfg.progress:
            print(f"step {i}: residual = {res_host:.3e}")

          # Save a checkpoint while the GPU works on the batch queued above.
          np.savetxt(os.path.join(CHECKPOINT_DIR, f"device_{i}.txt"), x_host)

          if res_host < cfg.residual_threshold:
            break

  return cp.asnumpy((x.T @ (A_gpu @ x)) / (x.T @ x)) # Copy from device to host.

A_device = generate_device()

# Warmup to ensure modules are loaded and code is JIT compiled before timing.
lam_warmup = estimate_device(A_device, cfg=PowerIterationConfig(max_steps=1, check_frequency=1, progress=False))
assert isinstance(lam_warmup, np.ndarray), f"Expected np.ndarray, got {type(lam_warmup)}"

with cpx.profiler.profile():
  start = time.perf_counter()
  lam_est_device = estimate_device(A_device)
  stop = time.perf_counter()

np.testing.assert_allclose(lam_est_device, 1, atol=1e-4)

print(f"checkpoints: {len(os.listdir(CHECKPOINT_DIR))} files in {CHECKPOINT_DIR} (removed now)")
shutil.rmtree(CHECKPOINT_DIR, ignore_errors=True)

print()
print(f"{(stop - start) * 1000:.3f} ms")
