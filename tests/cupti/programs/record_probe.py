"""A small PyTorch (or CuPy) program with NVTX ranges, for `warpline record -- python3 record_probe.py`.

Runs a few matrix products and element-wise kernels inside NVTX ranges, then checks the result.
"""
import sys


def with_torch():
    import torch

    nvtx = torch.cuda.nvtx
    nvtx.range_push("Setup")
    a = torch.randn(2048, 2048, device="cuda")
    b = torch.randn(2048, 2048, device="cuda")
    nvtx.range_pop()
    nvtx.range_push("Matmuls")
    c = a
    for i in range(5):
        nvtx.range_push(f"Step {i}")
        c = torch.relu(c @ b) / 2048.0
        nvtx.range_pop()
    torch.cuda.synchronize()
    nvtx.range_pop()
    nvtx.range_push("Copy back")
    host = c.cpu()
    nvtx.range_pop()
    print(f"record_probe.py: torch {torch.__version__}, result mean {host.mean().item():.6f}")


def with_cupy():
    import cupy

    from cupy.cuda import nvtx

    nvtx.RangePush("Setup")
    a = cupy.random.standard_normal((2048, 2048), dtype=cupy.float32)
    b = cupy.random.standard_normal((2048, 2048), dtype=cupy.float32)
    nvtx.RangePop()
    nvtx.RangePush("Matmuls")
    c = a
    for i in range(5):
        nvtx.RangePush(f"Step {i}")
        c = cupy.maximum(c @ b, 0) / 2048.0
        nvtx.RangePop()
    cupy.cuda.Device().synchronize()
    nvtx.RangePop()
    print(f"record_probe.py: cupy {cupy.__version__}, result mean {float(c.mean()):.6f}")


if __name__ == "__main__":
    which = sys.argv[1] if len(sys.argv) > 1 else "torch"
    with_torch() if which == "torch" else with_cupy()
