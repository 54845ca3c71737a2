# torch_train.py's loop as people write it before they profile anything: no NVTX ranges, no
# profiler calls, no warm-up steps kept apart. Start-up (building the model, uploading it, cuDNN
# picking its algorithms in the first steps) comes first, then the steps. Warpline has nothing
# to go by but the GPU work itself: its default window is the steady state it finds there.
#
# Usage: python3 torch_markerless.py [--steps 100] [--batch-size 64]

import argparse
import time

import torch
import torch.nn.functional as F

from torch_train import SmallConvNet


def main():
    parser = argparse.ArgumentParser(description="A training loop without any markers")
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--batch-size", type=int, default=64)
    args = parser.parse_args()
    if not torch.cuda.is_available():
        raise SystemExit("CUDA is not available")
    torch.backends.cudnn.benchmark = True  # slow first steps, as in many real scripts
    device = torch.device("cuda")
    torch.manual_seed(0)
    images = torch.randn(16, args.batch_size, 3, 32, 32).pin_memory()
    labels = torch.randint(0, 10, (16, args.batch_size)).pin_memory()
    model = SmallConvNet().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    t0 = time.perf_counter()
    for step in range(args.steps):
        x = images[step % 16].to(device, non_blocking=True)
        y = labels[step % 16].to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        if step % 10 == 0:
            print(f"step {step:3d}: loss = {loss.item():.4f}")
    torch.cuda.synchronize()
    print(f"{args.steps} steps in {(time.perf_counter() - t0) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
