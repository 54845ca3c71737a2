# Records tests/data/pytorch_small.json.gz: a small real PyTorch profiler (Kineto) trace on a GPU.
# Matmuls on two streams, pageable and pinned H2D copies, a D2H copy, a cudaMemset (through CuPy,
# which calls cudaMemsetAsync where PyTorch would launch a fill kernel), torch.cuda.synchronize and
# record_function ranges. Usage: python3 record_pytorch_trace.py OUT.json.gz
import gzip
import os
import sys
import tempfile

import torch
from torch.profiler import ProfilerActivity, profile, record_function

try:
    import cupy
except ImportError:  # the memset is then missing from the trace
    cupy = None


def workload():
    device = torch.device("cuda")
    side = torch.cuda.Stream()
    a = torch.randn(512, 512, device=device)
    b = torch.randn(512, 512, device=device)
    host = torch.randn(256, 1024)
    pinned = torch.randn(256, 1024).pin_memory()
    torch.cuda.synchronize()
    for step in range(2):
        with record_function(f"step{step}"):
            with record_function("copies"):
                x = host.to(device)                      # pageable H2D
                y = pinned.to(device, non_blocking=True)  # pinned H2D
            with record_function("matmuls"):
                c = a @ b
                c = c @ b
                with torch.cuda.stream(side):
                    d = b @ a
            if cupy is not None:
                with record_function("memset"):
                    z = cupy.zeros(1 << 18, dtype=cupy.float32)  # cudaMemsetAsync
            back = (c.sum() + d.sum() + x.sum() + y.sum()).cpu()  # D2H
            torch.cuda.synchronize()
    return back


def main():
    out = sys.argv[1]
    workload()  # warm up: CUDA context, cuBLAS handles, CuPy memory pool
    kwargs = {}
    try:
        from torch._C._profiler import _ExperimentalConfig
        kwargs["experimental_config"] = _ExperimentalConfig(enable_cuda_sync_events=True)
    except Exception:
        pass
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], **kwargs) as prof:
        workload()
    with tempfile.TemporaryDirectory() as tmp:
        plain = os.path.join(tmp, "trace.json")
        prof.export_chrome_trace(plain)
        with open(plain, "rb") as f, gzip.open(out, "wb", compresslevel=9) as g:
            g.write(f.read())
    print("torch", torch.__version__, "cupy", getattr(cupy, "__version__", None),
          "gpu", torch.cuda.get_device_name(0), "bytes", os.path.getsize(out))


if __name__ == "__main__":
    main()
