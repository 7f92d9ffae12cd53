#!/usr/bin/env python3
"""Training-step time and peak memory on one GPU: amp against PyTorch.

The training-step table of issue #15. Two models, declared once in MODELS:

  mlp-4x4096    4 hidden layers of 4096 (matmul + bias + relu), 10 classes,
                batch 2048 (amp-exec's synthetic data is 20 batches and at
                most 2^28 values), SGD with momentum 0.9
  bert-b32s512  one BERT-base encoder layer (post-LN, d 768, 12 heads, ffn
                3072) with embeddings and a token head over 128 tokens,
                batch 32 x seq 512, AdamW

On the machine with the compiler, --prepare DIR writes each model with
scripts/gen_training_graph.py and compiles its training step ahead of time
with amp-compile (nn-autodiff, then the AMP pipeline) in f32, f16 and bf16,
and the VARIANTS: DIR/<model>.<precision or variant>.so (scripts/gpu-bundle.sh
calls it).

On the GPU machine, with that DIR, it runs interleaved over --rounds rounds,
each configuration in a fresh process:

  amp f32 | f16 | bf16        amp-exec --backend cuda --report-time
                              --report-memory (synthetic batches)
  amp f16/bf16 + graph        the same with --cuda-graph
  amp f16 softmax16           f16 with softmax in f16 storage (VARIANTS)
  torch f32                   PyTorch eager
  torch f16 autocast+scaler   torch.autocast(float16) + GradScaler
  torch f16 pinned prefetch   the same with amp-exec's input pipeline: the
                              next batch gathered by a thread into pinned
                              memory while a step runs, copied
                              non_blocking (DataLoader pin_memory=True)
  torch bf16 autocast         torch.autocast(bfloat16)
  torch.compile f16           torch.compile(model) under autocast +
                              GradScaler (first round only: compiling
                              takes a while)

A step is the same on both sides: the batch's rows gathered from a shuffled
host dataset of 20 batches and copied to the device, the forward pass, the
loss, backward, the optimizer update, the loss read back (which waits for
the GPU). (The first GPU run, 2026-11-27, took the torch batches from 4
ready host tensors, without the gather: see docs/gpu-results.md.) amp-exec
gathers each batch into page-locked memory while the step before it runs
(since 2026-12-04); "torch f16 pinned prefetch" is PyTorch with that input
pipeline, the other torch rows gather and copy in line. The first --warmup
steps are not counted (amp drops its first step). It prints the median ms/step over the rounds, the
peak device memory (amp: its allocator's peak in use; torch:
max_memory_allocated), and ratios: torch time / amp time (above 1: amp is
faster) and peak memory over amp f32's. --table FILE and --json FILE
(every number) are rewritten after each round.

  bench/gpu_step_bench.py --prepare build/gpu-bundle --amp-compile build/bin/amp-compile
  bench/gpu_step_bench.py --bundle build/gpu-bundle --amp-exec build-rt/bin/amp-exec
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

MODELS = {
    # name: generator arguments, nn-autodiff options, amp-exec flags,
    #       PyTorch mirror (bench/torch_models.py)
    "mlp-4x4096": dict(
        gen=["--model", "mlp", "--layers", "4", "--width", "4096",
             "--batch", "2048"],
        autodiff="lr=0.05 momentum=0.9", flags=[],
        torch=lambda tm: tm.mlp(4096, 4, 2048)),
    "bert-b32s512": dict(
        gen=["--model", "bert", "--layers", "1", "--batch", "32", "--seq",
             "512", "--dmodel", "768", "--heads", "12", "--ffn", "3072",
             "--vocab", "128"],
        autodiff="optimizer=adamw lr=3e-4", flags=["--vocab", "128"],
        torch=lambda tm: tm.lm(1, 768, 12, 3072, 128, 32, 512, pre_ln=False)),
}
PRECISIONS = ("f32", "f16", "bf16")
# Compiled variants beyond the precisions: name -> (precision, amp-pipeline
# options). softmax16 keeps softmax and its gradient in f16 storage (their
# kernels still compute in f32): the attention's [B, H, S, S] tensors take
# half the memory (the BERT layer's f16 peak: 1547 -> 996 MiB on the cpu
# backend, 2026-12-04).
VARIANTS = {"f16-softmax16": ("f16", "infer=nn.softmax,nn.softmax_grad")}

# (column, side, precision or torch mode, --cuda-graph, first round only)
CONFIGS = [
    ("amp f32", "amp", "f32", False, False),
    ("amp f16", "amp", "f16", False, False),
    ("amp bf16", "amp", "bf16", False, False),
    ("amp f16 graph", "amp", "f16", True, False),
    ("amp bf16 graph", "amp", "bf16", True, False),
    ("amp f16 softmax16", "amp", "f16-softmax16", False, False),
    ("torch f32", "torch", "f32", False, False),
    ("torch f16 autocast+scaler", "torch", "f16", False, False),
    ("torch f16 pinned prefetch", "torch", "pinned-f16", False, False),
    ("torch bf16 autocast", "torch", "bf16", False, False),
    ("torch.compile f16", "torch", "compile-f16", False, True),
]


def prepare(args):
    os.makedirs(args.prepare, exist_ok=True)
    for name, m in MODELS.items():
        source = os.path.join(args.prepare, name + ".mlir")
        subprocess.run([sys.executable,
                        os.path.join(ROOT, "scripts", "gen_training_graph.py")]
                       + m["gen"] + ["-o", source], check=True)
        builds = [(p, p, []) for p in PRECISIONS] + [
            (v, p, ["--pipeline-options", o]) for v, (p, o) in VARIANTS.items()]
        for variant, p, extra in builds:
            subprocess.run([args.amp_compile, source, "--precision", p,
                            "--autodiff-options", m["autodiff"], "-o",
                            os.path.join(args.prepare,
                                         "%s.%s.so" % (name, variant))]
                           + extra, check=True)


# --------------------------------------------------------------------------
# The PyTorch side (--torch-worker, a fresh process per configuration).


def torch_setup(name, precision, dev):
    """The PyTorch mirror of model `name` on `dev` from seed 0: (module,
    batch maker, optimizer, GradScaler or None, autocast dtype or None)."""
    import torch
    sys.path.insert(0, HERE)
    import torch_models as tm

    torch.manual_seed(0)
    model, data = MODELS[name]["torch"](tm)
    model = model.to(dev)
    opt = tm.optimizer(name, model)
    dtype = {"f32": None, "f16": torch.float16,
             "bf16": torch.bfloat16}[precision]
    scaler = torch.amp.GradScaler(dev) if dtype == torch.float16 else None
    return model, data, opt, scaler, dtype


def torch_worker(args):
    import time
    import torch
    import torch_models as tm

    dev = args.device
    model, data, opt, scaler, dtype = torch_setup(
        args.model, args.mode.split("-")[-1], dev)
    compiled = args.mode.startswith("compile-")
    forward = torch.compile(model) if compiled else model
    # A host dataset of 20 batches' rows, as amp-exec's synthetic one, and
    # each step's rows gathered from it in shuffled order, as amp-exec does.
    pool = [data() for _ in range(20)]
    batch = pool[0][0].shape[0]
    xs = torch.cat([x for x, _ in pool])
    ys = torch.cat([y.view(batch, -1) for _, y in pool])
    order = torch.randperm(xs.shape[0])

    def rows(step):
        return order[(step % 20) * batch:(step % 20 + 1) * batch]

    times = []
    steps = args.warmup + args.steps
    if args.mode.startswith("pinned-"):
        # What a DataLoader with pin_memory=True and a worker gives, and
        # amp-exec does: each batch gathered into page-locked memory by a
        # thread while the previous step runs, then copied asynchronously.
        import concurrent.futures
        pin = dev == "cuda"  # (pinning needs a GPU)
        staging = [tuple(torch.empty((batch,) + t.shape[1:], dtype=t.dtype,
                                     pin_memory=pin) for t in (xs, ys))
                   for _ in range(2)]

        def gather(step):
            bx, by = staging[step % 2]
            torch.index_select(xs, 0, rows(step), out=bx)
            torch.index_select(ys, 0, rows(step), out=by)

        with concurrent.futures.ThreadPoolExecutor(1) as worker:
            ready = worker.submit(gather, 0)
            for step in range(steps):
                start = time.perf_counter()
                ready.result()
                bx, by = staging[step % 2]
                x = bx.to(dev, non_blocking=True)
                y = by.flatten().to(dev, non_blocking=True)
                # The other buffer's copy finished with the last step.
                ready = worker.submit(gather, step + 1)
                tm.train_step(forward, opt, scaler, x, y, dev, dtype)
                times.append(time.perf_counter() - start)
            ready.result()
    else:
        for step in range(steps):
            start = time.perf_counter()
            x, y = xs[rows(step)].to(dev), ys[rows(step)].flatten().to(dev)
            tm.train_step(forward, opt, scaler, x, y, dev, dtype)
            times.append(time.perf_counter() - start)
    print("time %.4f ms peak %.2f MiB" %
          (1e3 * statistics.median(times[args.warmup:]),
           (torch.cuda.max_memory_allocated() if dev == "cuda" else 0)
           / 2 ** 20))


# --------------------------------------------------------------------------
# The driver.


def run(cmd):
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        print("failed (%d): %s\n%s%s" % (out.returncode, " ".join(cmd),
                                         out.stdout[-2000:], out.stderr[-2000:]),
              file=sys.stderr)
        return None
    return out.stdout


def measure(args, model, config):
    """(ms/step, peak MiB[, batch ms, step ms, prefetch ms]) of one
    configuration (amp's phase medians of --report-time: the batch gathered
    unless prefetched and its upload queued, the compiled step until the GPU
    finished it, the next batch's gather meanwhile), or None if it
    failed."""
    _, side, mode, graph, _ = config
    if side == "amp":
        so = os.path.join(args.bundle, "%s.%s.so" % (model, mode))
        out = run([args.amp_exec, so, "--backend", "cuda", "--seed", "1",
                   "--steps", str(args.steps + 1), "--print-every", "0",
                   "--report-time", "--report-memory"]
                  + (["--cuda-graph"] if graph else []) + MODELS[model]["flags"])
        if out is None:
            return None
        ms = re.search(r"median ([0-9.e+-]+) ms/step", out)
        mib = re.search(r"peak in use ([0-9.]+) MiB", out)
        phases = re.search(r"batch ([0-9.e+-]+) ms .*step ([0-9.e+-]+) ms"
                           r".*prefetch ([0-9.e+-]+) ms", out)
        return (float(ms.group(1)), float(mib.group(1))) + tuple(
            float(phases.group(i)) for i in (1, 2, 3))
    else:
        out = run([args.python, os.path.abspath(__file__), "--torch-worker",
                   "--model", model, "--mode", mode, "--steps", str(args.steps),
                   "--warmup", str(args.warmup)])
        if out is None:
            return None
        ms = re.search(r"time ([0-9.]+) ms", out)
        mib = re.search(r"peak ([0-9.]+) MiB", out)
    return float(ms.group(1)), float(mib.group(1))


def table(models, results):
    """The Markdown table of the medians over the rounds so far."""
    def med(m, column, i):
        values = [v[i] for v in results.get((m, column), []) if len(v) > i]
        return statistics.median(values) if values else None

    lines = ["| model | configuration | ms/step "
             "| amp phases: batch, step, prefetch ms "
             "| peak MiB | torch eager f16 autocast time / this "
             "| peak / amp f32 peak |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for m in models:
        base_ms = med(m, "torch f16 autocast+scaler", 0)
        base_mib = med(m, "amp f32", 1)
        for column, *_ in CONFIGS:
            if (m, column) not in results:
                continue
            ms, mib = med(m, column, 0), med(m, column, 1)
            if ms is None:
                lines.append("| %s | %s | failed | | | | |" % (m, column))
                continue
            phases = [med(m, column, i) for i in (2, 3, 4)]
            lines.append("| %s | %s | %.3f | %s | %.1f | %s | %s |" % (
                m, column, ms,
                ", ".join("%.3f" % p for p in phases if p is not None),
                mib,
                "%.2fx" % (base_ms / ms) if base_ms else "n/a",
                "%.2fx" % (mib / base_mib) if base_mib else "n/a"))
    return "\n".join(lines) + "\n"


def bench(args):
    models = args.models.split(",")
    configs = [c for c in CONFIGS
               if not args.configs or c[0] in args.configs.split(",")]
    results = {(m, c[0]): [] for m in models for c in configs}
    for r in range(args.rounds):
        for m in models:
            for config in configs:
                if config[4] and r > 0:
                    continue
                result = measure(args, m, config)
                if result:
                    results[(m, config[0])].append(result)
                print("round %d: %s %s: %s" % (r + 1, m, config[0], result),
                      file=sys.stderr, flush=True)
        # Written after every round, so a run cut short keeps its rounds.
        if args.table:
            with open(args.table, "w") as f:
                f.write(table(models, results))
        if args.json:
            with open(args.json, "w") as f:
                json.dump({"%s|%s" % k: v for k, v in results.items()}, f,
                          indent=1)
    print(table(models, results), end="")
    return 0 if all(results.values()) else 1



def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--prepare", metavar="DIR")
    ap.add_argument("--amp-compile",
                    default=os.path.join(ROOT, "build", "bin", "amp-compile"))
    ap.add_argument("--bundle", default=os.path.join(ROOT, "build",
                                                     "gpu-bundle"))
    ap.add_argument("--amp-exec", default=os.path.join(ROOT, "build-rt", "bin",
                                                       "amp-exec"))
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--configs", help="the configurations to run, by column "
                    "name, comma-separated (default: all)")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--table", help="write the Markdown table here too")
    ap.add_argument("--json")
    ap.add_argument("--torch-worker", action="store_true",
                    help=argparse.SUPPRESS)
    ap.add_argument("--model", help=argparse.SUPPRESS)
    ap.add_argument("--mode", help=argparse.SUPPRESS)
    # The worker's device: cpu only to try the script without a GPU.
    ap.add_argument("--device", default="cuda", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.torch_worker:
        return torch_worker(args)
    if args.prepare:
        return prepare(args)
    return bench(args)


if __name__ == "__main__":
    sys.exit(main())
