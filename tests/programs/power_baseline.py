# Power iteration, baseline (blocking) version.
#
# Source: NVIDIA's accelerated-computing-hub notebook "Asynchrony - Power Iteration" (CuPy;
# "异步性与幂迭代" in translation), sections 3 (基线实现) and 5 (使用 NVTX 提高可见性).
# The translation keeps only the notebook's prose; the code of the `power_iteration__baseline.py` cell is
# the notebook's (NVIDIA accelerated-computing-hub, accelerated-python fundamentals,
# 06__asynchrony__power_iteration.ipynb), with the section-5 TODO done as the notebook asks:
#   - nested nvtx.annotate() regions ("Setup", "Loop", "Step ...", "Compute & Residual i",
#     "Copy i", "I/O i", "Compute ...", "Compute Step j"),
#   - a cpx.profiler.profile() (cudaProfilerStart/Stop) around the `start =` / `stop =` lines
#     that run the solver.
# Deliberate difference: checkpoints go to a fresh tempfile.mkdtemp() folder instead of /tmp.
#
# What it does per check (every `check_frequency` steps): compute the residual, copy `res` and `x`
# to the host with a *blocking* cp.asnumpy (host waits for the GPU), then print + np.savetxt on
# the host while the GPU sits idle, and only then queue the next batch of iterations.

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

CHECKPOINT_DIR = tempfile.mkdtemp(prefix="power_baseline_")

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

  with nvtx.annotate("Loop"):
    for i in range(0, cfg.max_steps, cfg.check_frequency):
      with nvtx.annotate(f"Step {i} to {i + cfg.check_frequency}"):
        with nvtx.annotate(f"Compute & Residual {i}"):
          y = A_gpu @ x
          lam = (x @ y) / (x @ x)            # Rayleigh quotient.
          res = cp.linalg.norm(y - lam * x)
          x = y / cp.linalg.norm(y)          # Normalize for next step.

        with nvtx.annotate(f"Copy {i}"):
          # Blocking device-to-host copies: the host waits here for all queued GPU work.
          res_host = cp.asnumpy(res)
          x_host = cp.asnumpy(x)

        with nvtx.annotate(f"I/O {i}"):
          if cfg.progress:
            print(f"step {i}: residual = {res_host:.3e}")

          # Save a checkpoint (the GPU has nothing queued while this runs).
          np.savetxt(os.path.join(CHECKPOINT_DIR, f"device_{i}.txt"), x_host)

          if res_host < cfg.residual_threshold:
            break

        with nvtx.annotate(f"Compute {i + 1} to {i + cfg.check_frequency}"):
          for j in range(i + 1, i + cfg.check_frequency):
            with nvtx.annotate(f"Compute Step {j}"):
              y = A_gpu @ x # We have to use `A_gpu` here as well.
              x = y / cp.linalg.norm(y) # Normalize for next step.

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
