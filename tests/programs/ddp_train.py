# Data-parallel training of torch_train.py's small conv net over the GPUs of one machine, one
# process per GPU, the way a job launched with torchrun is written (not from a seed):
#   torchrun --standalone --nproc_per_node 2 ddp_train.py [--steps 30] [--slow-rank 1]
# DistributedDataParallel all-reduces the gradients with NCCL every step, so every rank waits
# for the slowest. `--slow-rank R` makes rank R a straggler: it spends `--slow-ms` (default 8)
# on the host before each step (data loading, say), and the other ranks' NCCL kernels wait for
# it. Each step is an NVTX range "step N" on every rank; loss.item() every step.
#
# Recorded one trace per rank:
#   warpline record -o ddp-%q{RANK}.json.gz -- torchrun --standalone --nproc_per_node 2 ddp_train.py

import argparse
import os
import time

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel


class SmallConvNet(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 32, kernel_size=3, padding=1)
        self.conv2 = nn.Conv2d(32, 64, kernel_size=3, padding=1)
        self.fc1 = nn.Linear(64 * 8 * 8, 256)
        self.fc2 = nn.Linear(256, num_classes)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        return self.fc2(F.relu(self.fc1(torch.flatten(x, 1))))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--slow-rank", type=int, default=1)
    parser.add_argument("--slow-ms", type=float, default=8.0)
    # Slow only every N-th step (1: every step), so the late rank varies in size along the job.
    parser.add_argument("--slow-every", type=int, default=1)
    # Write each rank's steps as a torch.profiler (Kineto) trace, DIR/rank-R.pt.trace.json, the
    # form PyTorch users bring (NCCL kernels with their collective's name, group and sequence
    # number). Not under `warpline record`: both would use CUPTI.
    parser.add_argument("--profile-dir", default="")
    args = parser.parse_args()

    dist.init_process_group("nccl")
    rank = dist.get_rank()
    local_rank = int(os.environ.get("LOCAL_RANK", rank))
    torch.cuda.set_device(local_rank)
    device = torch.device("cuda", local_rank)

    torch.manual_seed(rank)
    model = DistributedDataParallel(SmallConvNet().to(device), device_ids=[local_rank])
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    images = torch.randn(args.batch_size, 3, 32, 32).pin_memory()
    labels = torch.randint(0, 10, (args.batch_size,)).pin_memory()

    def step(n):
        torch.cuda.nvtx.range_push(f"step {n}")
        if rank == args.slow_rank and n % max(args.slow_every, 1) == 0:
            time.sleep(args.slow_ms / 1000.0)  # the straggler's host work
        x = images.to(device, non_blocking=True)
        y = labels.to(device, non_blocking=True)
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad(set_to_none=True)
        loss.backward()  # DDP all-reduces the gradients here
        opt.step()
        value = loss.item()
        torch.cuda.nvtx.range_pop()
        return value

    for n in range(args.warmup):
        step(-1 - n)
    torch.cuda.synchronize()
    start = time.perf_counter()
    if args.profile_dir:
        from torch.profiler import ProfilerActivity, profile

        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
            for n in range(args.steps):
                loss = step(n)
            torch.cuda.synchronize()
        os.makedirs(args.profile_dir, exist_ok=True)
        prof.export_chrome_trace(os.path.join(args.profile_dir, f"rank-{rank}.pt.trace.json"))
    else:
        for n in range(args.steps):
            loss = step(n)
    torch.cuda.synchronize()
    ms = (time.perf_counter() - start) * 1000.0
    print(f"rank {rank}: {args.steps} steps in {ms:.1f} ms, loss {loss:.4f}", flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
