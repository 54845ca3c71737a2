# A short PyTorch training loop on the GPU, written the way people usually write one
# (not from a seed): a small conv net on random "images", batch 64, SGD with momentum,
# a few warm-up steps, then 50 timed steps. Each step is wrapped in
#   torch.cuda.nvtx.range_push(f"step {N}") / torch.cuda.nvtx.range_pop()
# and calls loss.item() every step (a host-device synchronisation per step, as real loops do).
# The data lives in pinned host memory and each batch is copied with non_blocking=True, so the
# trace has H2D copies as well as the forward/backward/optimizer kernels.
#
# Usage: python3 torch_train.py [--steps 50] [--warmup 5] [--batch-size 64]

import argparse
import time

import torch
import torch.nn as nn
import torch.nn.functional as F


class SmallConvNet(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 32, kernel_size=3, padding=1)
        self.bn1 = nn.BatchNorm2d(32)
        self.conv2 = nn.Conv2d(32, 64, kernel_size=3, padding=1)
        self.bn2 = nn.BatchNorm2d(64)
        self.fc1 = nn.Linear(64 * 8 * 8, 256)
        self.fc2 = nn.Linear(256, num_classes)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.bn1(self.conv1(x))), 2)  # 32x32 -> 16x16
        x = F.max_pool2d(F.relu(self.bn2(self.conv2(x))), 2)  # 16x16 -> 8x8
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        return self.fc2(x)


def main():
    parser = argparse.ArgumentParser(description="Small PyTorch training loop with NVTX step ranges")
    parser.add_argument("--steps", type=int, default=50)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--batch-size", type=int, default=64)
    args = parser.parse_args()

    if not torch.cuda.is_available():
        raise SystemExit("CUDA is not available")
    device = torch.device("cuda")
    torch.manual_seed(0)
    print(f"torch {torch.__version__} on {torch.cuda.get_device_name(device)}")

    # Random data set: enough batches for warm-up + timed steps, in pinned host memory.
    n_batches = args.warmup + args.steps
    images = torch.randn(n_batches, args.batch_size, 3, 32, 32).pin_memory()
    labels = torch.randint(0, 10, (n_batches, args.batch_size)).pin_memory()

    model = SmallConvNet().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    model.train()

    def train_step(b):
        x = images[b].to(device, non_blocking=True)
        y = labels[b].to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        return loss.item()  # synchronises with the GPU every step

    # Warm-up: cuDNN algorithm selection, allocator growth, lazy module loading.
    torch.cuda.nvtx.range_push("warmup")
    for b in range(args.warmup):
        train_step(b)
    torch.cuda.synchronize()
    torch.cuda.nvtx.range_pop()

    losses = []
    t0 = time.perf_counter()
    torch.cuda.nvtx.range_push("train")  # the part to analyse: `warpline analyze --range train`
    for step in range(args.steps):
        torch.cuda.nvtx.range_push(f"step {step}")
        loss = train_step(args.warmup + step)
        torch.cuda.nvtx.range_pop()
        losses.append(loss)
        if step % 10 == 0 or step == args.steps - 1:
            print(f"step {step:3d}: loss = {loss:.4f}")
    torch.cuda.synchronize()
    torch.cuda.nvtx.range_pop()
    t1 = time.perf_counter()

    print(f"{args.steps} steps in {(t1 - t0) * 1000:.1f} ms "
          f"({(t1 - t0) * 1000 / max(args.steps, 1):.2f} ms/step); "
          f"first loss {losses[0]:.4f}, last loss {losses[-1]:.4f}")


if __name__ == "__main__":
    main()
