# A training step captured once as a CUDA graph and replayed, the way PyTorch's CUDA Graphs
# documentation ("Whole-network capture") and torch.compile's "reduce-overhead" mode run small
# models: a few eager warm-up steps on a side stream, one capture, then many replays. The warm-up
# and capture load cuBLAS and PyTorch's kernels lazily (tens of milliseconds of module loading);
# the replays are the program's steady state.
#
# Usage: python3 torch_graph_replay.py [--replays 320] [--warmup 3] [--batches 32] [--small]
#        [--profile OUT.pt.trace.json]
# --profile writes the replays (and nothing else) as a torch.profiler (Kineto) trace instead of
# running under `warpline record` (both would use CUPTI).

import argparse
import time

import torch


def main():
    parser = argparse.ArgumentParser(description="one training step as a CUDA graph, replayed")
    parser.add_argument("--replays", type=int, default=320)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--batches", type=int, default=32)
    parser.add_argument("--profile", default="")
    # The documentation's sizes (640 x 4096 -> 2048 -> 1024) replay in about 1 ms on an H200;
    # "--small" (64 x 1024 -> 512 -> 256) in about 0.2 ms, where lazy loading's tens of
    # milliseconds outweigh the replays.
    parser.add_argument("--small", action="store_true")
    args = parser.parse_args()
    if not torch.cuda.is_available():
        raise SystemExit("CUDA is not available")

    torch.manual_seed(0)
    n, d_in, hidden, d_out = (64, 1024, 512, 256) if args.small else (640, 4096, 2048, 1024)
    model = torch.nn.Sequential(
        torch.nn.Linear(d_in, hidden),
        torch.nn.Dropout(p=0.2),
        torch.nn.Linear(hidden, d_out),
        torch.nn.Dropout(p=0.1),
    ).cuda()
    loss_fn = torch.nn.MSELoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

    # Placeholders the graph reads from; each replay copies a batch into them first.
    static_input = torch.randn(n, d_in, device="cuda")
    static_target = torch.randn(n, d_out, device="cuda")

    # Warm-up on a side stream, as the documentation requires before capture.
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(args.warmup):
            optimizer.zero_grad(set_to_none=True)
            loss = loss_fn(model(static_input), static_target)
            loss.backward()
            optimizer.step()
    torch.cuda.current_stream().wait_stream(side)

    graph = torch.cuda.CUDAGraph()
    optimizer.zero_grad(set_to_none=True)
    with torch.cuda.graph(graph):
        static_loss = loss_fn(model(static_input), static_target)
        static_loss.backward()
        optimizer.step()

    inputs = [torch.rand_like(static_input) for _ in range(args.batches)]
    targets = [torch.rand_like(static_target) for _ in range(args.batches)]
    torch.cuda.synchronize()

    def replay_all():
        for i in range(args.replays):
            static_input.copy_(inputs[i % args.batches])
            static_target.copy_(targets[i % args.batches])
            graph.replay()
        torch.cuda.synchronize()

    start = time.perf_counter()
    if args.profile:
        from torch.profiler import ProfilerActivity, profile

        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
            replay_all()
        prof.export_chrome_trace(args.profile)
    else:
        replay_all()
    ms = (time.perf_counter() - start) * 1000.0
    print(f"{args.replays} replays in {ms:.1f} ms ({1000.0 * ms / args.replays:.1f} us each), "
          f"loss {static_loss.item():.4f}", flush=True)


if __name__ == "__main__":
    main()
