# The training loop of torch_train.py under PyTorch's own profiler (Kineto), exported as a
# Chrome trace: the kind of file users bring to Warpline from `torch.profiler`. Its size grows
# with --steps (about 40 GPU ops per step), which makes it the large "other producer" input of
# the import benchmark in docs/PERFORMANCE.md.
#
# Usage: python3 torch_profiler_export.py OUT.pt.trace.json [--steps 2000] [--warmup 5]
#            [--profiler-steps] [--profile-memory] [--dataloader]
# --profiler-steps marks each step as the profiler's tutorials do (a schedule and prof.step():
# ProfilerStep#N ranges); --profile-memory records the caching allocator's events ([memory]
# instants).
#        [--batch-size 64]
# Prints the file's size and its event, kernel, copy and memset counts.

import argparse
import json
import os
import time

import torch
import torch.nn.functional as F
from torch.profiler import ProfilerActivity, profile

from torch_train import SmallConvNet


def main():
    parser = argparse.ArgumentParser(description="torch_train.py's loop under torch.profiler")
    parser.add_argument("output", help="Chrome trace to write (.json)")
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--profiler-steps", action="store_true")
    parser.add_argument("--profile-memory", action="store_true")
    parser.add_argument("--dataloader", action="store_true",
                        help="take the batches from a torch.utils.data.DataLoader, as most "
                             "training scripts do (the profiler marks its fetches)")
    args = parser.parse_args()

    if not torch.cuda.is_available():
        raise SystemExit("CUDA is not available")
    device = torch.device("cuda")
    torch.manual_seed(0)

    # A few batches reused round-robin: the profiler, not host memory, should bound the run.
    n_batches = 16
    images = torch.randn(n_batches, args.batch_size, 3, 32, 32).pin_memory()
    labels = torch.randint(0, 10, (n_batches, args.batch_size)).pin_memory()
    model = SmallConvNet().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    model.train()

    loader = None
    if args.dataloader:
        dataset = torch.utils.data.TensorDataset(images.flatten(0, 1), labels.flatten(0, 1))
        loader = torch.utils.data.DataLoader(dataset, batch_size=args.batch_size, shuffle=True,
                                             pin_memory=True, drop_last=True)

    def batches():
        while True:
            for batch in loader:
                yield batch

    source = batches() if loader is not None else None

    def train_step(b):
        if source is not None:
            cpu_x, cpu_y = next(source)
        else:
            cpu_x, cpu_y = images[b % n_batches], labels[b % n_batches]
        x = cpu_x.to(device, non_blocking=True)
        y = cpu_y.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        return loss

    for b in range(args.warmup):
        train_step(b).item()
    torch.cuda.synchronize()

    # The profiler writes ProfilerStep#N ranges only under a schedule (as its tutorials use it):
    # one warm-up step, then every other step active, the trace written when they end.
    schedule = None
    on_ready = None
    if args.profiler_steps:
        schedule = torch.profiler.schedule(wait=0, warmup=1, active=args.steps - 1, repeat=1)
        on_ready = lambda p: p.export_chrome_trace(args.output)
    t0 = time.perf_counter()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA],
                 record_shapes=True, profile_memory=args.profile_memory, schedule=schedule,
                 on_trace_ready=on_ready) as prof:
        for step in range(args.steps):
            loss = train_step(step)
            if step % 50 == 0:
                loss.item()  # a sync now and then, as loops that log do
            if args.profiler_steps:
                prof.step()
        torch.cuda.synchronize()
    t1 = time.perf_counter()
    if not args.profiler_steps:
        prof.export_chrome_trace(args.output)
    t2 = time.perf_counter()

    with open(args.output) as f:
        events = json.load(f)["traceEvents"]
    cats = {}
    for e in events:
        cats[e.get("cat", "")] = cats.get(e.get("cat", ""), 0) + 1
    print(f"{args.steps} steps profiled in {t1 - t0:.1f} s, exported in {t2 - t1:.1f} s: "
          f"{os.path.getsize(args.output) / 1e6:.1f} MB, {len(events)} events, "
          f"{cats.get('kernel', 0)} kernels, {cats.get('gpu_memcpy', 0)} copies, "
          f"{cats.get('gpu_memset', 0)} memsets")


if __name__ == "__main__":
    main()
