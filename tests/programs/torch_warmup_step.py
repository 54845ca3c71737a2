# A PyTorch-profiler trace whose first step is its warm-up, as `torch.profiler` users often get
# it: profiling starts with the loop, cuDNN benchmarks its algorithms and the allocator grows in
# ProfilerStep#0, and the later steps take a few ms each. Warpline's iterations window leaves
# the long first step out and says so.
#
# Usage: python3 torch_warmup_step.py OUT.pt.trace.json [--steps 6]

import argparse

import torch
import torch.nn.functional as F
from torch.profiler import ProfilerActivity, profile, schedule

from torch_train import SmallConvNet


def main():
    parser = argparse.ArgumentParser(description="A profiler trace with a warm-up first step")
    parser.add_argument("output")
    parser.add_argument("--steps", type=int, default=6)
    args = parser.parse_args()
    if not torch.cuda.is_available():
        raise SystemExit("CUDA is not available")
    torch.backends.cudnn.benchmark = True
    device = torch.device("cuda")
    torch.manual_seed(0)
    images = torch.randn(4, 256, 3, 32, 32).pin_memory()
    labels = torch.randint(0, 10, (4, 256)).pin_memory()
    model = SmallConvNet().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    # Every step active from the first: prof.step() then marks each one (ProfilerStep#N), and the
    # trace is written when the one cycle of `steps` steps is complete.
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA],
                 schedule=schedule(wait=0, warmup=0, active=args.steps, repeat=1),
                 on_trace_ready=lambda p: p.export_chrome_trace(args.output)) as prof:
        for step in range(args.steps):
            x = images[step % 4].to(device, non_blocking=True)
            y = labels[step % 4].to(device, non_blocking=True)
            optimizer.zero_grad(set_to_none=True)
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            optimizer.step()
            loss.item()
            prof.step()
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
