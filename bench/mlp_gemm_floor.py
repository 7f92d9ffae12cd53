#!/usr/bin/env python3
"""How much of the 4 x 512 MLP's bf16 or f16 training step (batch 128) its
GEMMs and its update's memory traffic alone take on this CPU: a floor under
any implementation's step.

Issue #16 asks amp's bf16/f16-AMP step to take at most 0.5x PyTorch's
autocast step. amp's GEMMs are oneDNN's too, at best as fast as
torch.matmul's (bench/README.md, "CPU training steps against PyTorch"), so
if the step's GEMMs and its update's bytes alone take more than half of
PyTorch's step, the goal cannot be met on this CPU whatever the rest
costs. This script times, interleaved over --rounds rounds in one process
at --threads threads:

  step    PyTorch's eager step of cpu_backend_bench.py's mlp-4x512 model
          (autocast to --precision, f16 with a GradScaler; SGD momentum),
          median ms
  gemms   the 11 GEMMs of that step in --precision with torch.matmul: the forward
          x @ W^T of the four hidden layers, their weight gradients dy^T @ x,
          and the input gradients dy @ W of the upper three (the first
          layer's input needs none; the 512 x 10 head is left out), median ms

  copy    a 64 MB copy, for the memory speed: the SGD update must move at
          least 18 bytes per param (f32 param and momentum read and
          written, a 16-bit gradient read), which at that speed is a floor
          under the update

and prints gemms / step and (gemms + the update's floor) / step. Run it
with the benchmark venv's python:

  bench/cpu_backend_bench.py --setup
  bench/.venv/bin/python bench/mlp_gemm_floor.py [--precision bf16|f16]
      [--threads 1] [--rounds 5]
"""

import argparse
import statistics
import time

import torch

import torch_models as tm

WIDTH, LAYERS, BATCH = 512, 4, 128


def median_ms(fn, reps):
    fn()  # warm-up: oneDNN primitives, the allocator
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return 1e3 * statistics.median(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--precision", choices=("bf16", "f16"), default="bf16")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--steps", type=int, default=30)
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(0)

    model, data = tm.mlp(WIDTH, LAYERS, BATCH)
    opt = tm.optimizer("mlp-4x512", model)
    x, y = data()

    low = {"bf16": torch.bfloat16, "f16": torch.float16}[args.precision]
    scaler = torch.amp.GradScaler("cpu") if low == torch.float16 else None

    def step():
        tm.train_step(model, opt, scaler, x, y, "cpu", low)

    act = [torch.rand(BATCH, WIDTH).to(low) for _ in range(LAYERS)]
    grad = [torch.rand(BATCH, WIDTH).to(low) for _ in range(LAYERS)]
    weights = [torch.rand(WIDTH, WIDTH).to(low) for _ in range(LAYERS)]

    # nn.Linear's weight is [out, in]: forward x @ W^T, backward dy^T @ x
    # and dy @ W, as PyTorch's own step computes them.
    def gemms():
        for layer in range(LAYERS):
            torch.matmul(act[layer], weights[layer].t())
            torch.matmul(grad[layer].t(), act[layer])
            if layer > 0:
                torch.matmul(grad[layer], weights[layer])

    # The update's floor: SGD with momentum reads each f32 param, its f32
    # momentum and its gradient and writes the param and the momentum, at
    # least 18 bytes per param with a 16-bit gradient, at the speed of a
    # large copy (which reads and writes each byte once).
    params = sum(p.numel() for p in model.parameters())
    src = torch.rand(16 << 20)
    dst = torch.empty_like(src)

    def copy():
        dst.copy_(src)

    steps, floors, copies = [], [], []
    for _ in range(args.rounds):
        steps.append(median_ms(step, args.steps))
        floors.append(median_ms(gemms, args.steps))
        copies.append(median_ms(copy, args.steps))
    s, g = statistics.median(steps), statistics.median(floors)
    bytes_per_ms = 2 * src.numel() * 4 / statistics.median(copies)
    u = 18 * params / bytes_per_ms
    print(f"{args.precision}, threads {args.threads}: torch step {s:.3f} ms; "
          f"its 11 GEMMs alone {g:.3f} ms = {g / s:.2f}x the step; "
          f"the update's {18 * params / 1e6:.1f} MB at the copy speed "
          f"({bytes_per_ms / 1e6:.1f} GB/s) {u:.3f} ms; together "
          f"{(g + u) / s:.2f}x the step (the goal: 0.50x)")


if __name__ == "__main__":
    main()
