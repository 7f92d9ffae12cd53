#!/usr/bin/env python3
"""Training-step time of amp-run --backend=cpu against PyTorch eager on the CPU.

For each model and precision it runs, interleaved over --rounds rounds:

  amp cpu     amp-run MODEL --backend cpu --report-time    (median ms/step)
  amp ref     the same on --backend reference (--with-reference)
  torch       the same model in PyTorch eager (forward, loss, backward,
              optimizer step; f16/bf16 through torch.autocast, f16 with a
              GradScaler), in a fresh process, median ms/step
  compile     the same with torch.compile(model) (--with-compile; TorchInductor's
              C++ code for the CPU; its compilation falls in the first steps,
              which the median leaves out)

each at 1 thread and at every core (amp: --threads; torch: set_num_threads),
then prints the medians over the rounds and amp/torch ratios (below 1: amp is
faster). With --gemm it also compares amp_gemm (build/bin/amp-gemm-bench-cpu)
with torch.matmul on square GEMMs of 512, 1024, 2048 and 4096 in GFLOP/s
(above 1: amp is faster), interleaved the same way. The first step of every run (plans, JIT, allocator warm-up) is not
counted. The PyTorch models mirror amp's: same shapes, same layers, same
optimizer; their init and data differ, which does not change a step's time.

  models      mlp-digits  examples/mlp.mlir, 64-128-10, batch 32, SGD momentum
              mlp-4x512   4 hidden layers of 512, batch 128, SGD momentum
              transformer examples/transformer.mlir (pre-LN LM), AdamW
              bert        examples/bert_layer.mlir (post-LN, 768/3072), AdamW

PyTorch is not a dependency of amp: with --setup the script creates a
virtual environment (default bench/.venv) and installs torch from PyPI.

  bench/cpu_backend_bench.py --setup
  bench/cpu_backend_bench.py [--models mlp-4x512,bert] [--precisions f32,bf16]
      [--rounds 3] [--steps 30] [--threads 1,2] [--build build]
      [--with-reference] [--with-compile] [--gemm | --gemm-only]
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile

import bench_venv

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

MODELS = {
    # name: (amp source or generator arguments, amp-run flags)
    "mlp-digits": ("examples/mlp.mlir",
                   ["--autodiff-options", "lr=0.05 momentum=0.9"]),
    "mlp-4x512": (["--model", "mlp", "--layers", "4", "--width", "512",
                   "--batch", "128"],
                  ["--autodiff-options", "lr=0.05 momentum=0.9"]),
    "transformer": ("examples/transformer.mlir",
                    ["--autodiff-options", "optimizer=adamw", "--vocab", "128"]),
    "bert": ("examples/bert_layer.mlir",
             ["--autodiff-options", "optimizer=adamw lr=3e-4", "--vocab", "128"]),
}

# --------------------------------------------------------------------------
# The PyTorch side (run in the venv's python with --torch-worker).


def torch_worker(args):
    import time
    import torch
    import torch_models as tm

    torch.set_num_threads(args.threads)
    torch.manual_seed(0)

    if args.model == "gemm":
        low = {"f32": torch.float32, "bf16": torch.bfloat16,
               "f16": torch.float16}[args.precision]
        for size in (512, 1024, 2048, 4096):
            a = torch.rand(size, size).to(low)
            b = torch.rand(size, size).to(low)
            torch.matmul(a, b)
            reps = max(2, int(2e10 / (2 * size ** 3)))
            start = time.perf_counter()
            for _ in range(reps):
                torch.matmul(a, b)
            seconds = (time.perf_counter() - start) / reps
            print(size, 2 * size ** 3 / seconds / 1e9)
        return

    if args.model == "mlp-digits":
        model = tm.Mlp(128, 1, 10, 64)
        data = lambda: (torch.rand(32, 64), torch.randint(0, 10, (32,)))
    elif args.model == "mlp-4x512":
        model, data = tm.mlp(512, 4, 128)
    elif args.model == "transformer":
        model, data = tm.lm(2, 64, 4, 256, 128, 2, 16, pre_ln=True)
    else:
        model, data = tm.lm(1, 768, 12, 3072, 128, 2, 16, pre_ln=False)
    opt = tm.optimizer(args.model, model)
    low = {"f32": None, "bf16": torch.bfloat16, "f16": torch.float16}
    dtype = low[args.precision]
    scaler = torch.amp.GradScaler("cpu") if dtype == torch.float16 else None

    forward = torch.compile(model) if args.compile else model
    # torch.compile's first steps compile (forward and backward graphs);
    # eager's first step warms the allocator. Neither is counted.
    warmup = 3 if args.compile else 1
    times = []
    for _ in range(warmup + args.steps):
        x, y = data()
        start = time.perf_counter()
        tm.train_step(forward, opt, scaler, x, y, "cpu", dtype)
        times.append(time.perf_counter() - start)
    print(1e3 * statistics.median(times[warmup:]))


# --------------------------------------------------------------------------
# The driver.


def model_file(name, workdir):
    source = MODELS[name][0]
    if isinstance(source, str):
        return os.path.join(ROOT, source)
    path = os.path.join(workdir, name + ".mlir")
    if not os.path.exists(path):
        subprocess.run([sys.executable,
                        os.path.join(ROOT, "scripts", "gen_training_graph.py")]
                       + source + ["-o", path], check=True)
    return path


def amp_time(amp_run, path, name, precision, backend, threads, steps):
    cmd = [amp_run, path, "--backend", backend, "--steps", str(steps),
           "--print-every", "0", "--precision", precision, "--report-time",
           "--threads", str(threads)] + MODELS[name][1]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), out.stderr))
    line = [l for l in out.stdout.splitlines() if l.startswith("time:")][-1]
    return float(line.split("median ")[1].split(" ms")[0])


def torch_time(python, name, precision, threads, steps, compiled=False):
    cmd = [python, os.path.abspath(__file__), "--torch-worker", "--model",
           name, "--precision", precision, "--threads", str(threads),
           "--steps", str(steps)] + (["--compile"] if compiled else [])
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    out = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if out.returncode != 0:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), out.stderr))
    return float(out.stdout.split()[-1])


def amp_gemm_gflops(bench, precision, threads):
    """{size: GFLOP/s} of amp-gemm-bench-cpu's square rows, epilogue NONE."""
    cmd = [bench, "--scale", "2", "--filter", "square", "--dtypes", precision,
           "--no-overhead", "--warmup", "2", "--iters", "5"]
    env = dict(os.environ, AMP_NUM_THREADS=str(threads))
    out = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if out.returncode != 0:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), out.stderr))
    result = {}
    for line in out.stdout.splitlines():
        cols = line.split()
        if len(cols) >= 6 and cols[0] == "square" and cols[3] == "NONE":
            result[int(cols[1].split("x")[0])] = float(cols[5])
    return result


def torch_gemm_gflops(python, precision, threads):
    cmd = [python, os.path.abspath(__file__), "--torch-worker", "--model",
           "gemm", "--precision", precision, "--threads", str(threads)]
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    out = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if out.returncode != 0:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), out.stderr))
    return {int(l.split()[0]): float(l.split()[1])
            for l in out.stdout.splitlines() if l.strip()}


def gemm_table(args, python):
    bench = os.path.join(args.build, "bin", "amp-gemm-bench-cpu")
    configs = [(p, int(t)) for p in args.precisions.split(",")
               for t in args.threads.split(",")]
    amp = {c: [] for c in configs}
    torch = {c: [] for c in configs}
    for r in range(args.rounds):
        for (p, t) in configs:
            amp[(p, t)].append(amp_gemm_gflops(bench, p, t))
            torch[(p, t)].append(torch_gemm_gflops(python, p, t))
        print("gemm round %d of %d done" % (r + 1, args.rounds),
              file=sys.stderr)
    print("\n| GEMM | precision | threads | amp GFLOP/s | torch.matmul GFLOP/s "
          "| amp/torch |")
    print("| --- | --- | --- | --- | --- | --- |")
    for (p, t) in configs:
        for size in sorted(amp[(p, t)][0]):
            a = statistics.median(run[size] for run in amp[(p, t)])
            b = statistics.median(run[size] for run in torch[(p, t)])
            print("| %d^3 | %s | %d | %.1f | %.1f | %.2fx |" %
                  (size, p, t, a, b, a / b))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--setup", action="store_true",
                    help="create the venv and install torch, then exit")
    ap.add_argument("--venv", default=bench_venv.DEFAULT)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--precisions", default="f32,bf16,f16")
    ap.add_argument("--threads", default="1,%d" % os.cpu_count())
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--with-reference", action="store_true")
    ap.add_argument("--with-compile", action="store_true",
                    help="also time torch.compile of the PyTorch model")
    ap.add_argument("--gemm", action="store_true",
                    help="also compare square GEMMs with torch.matmul")
    ap.add_argument("--gemm-only", action="store_true",
                    help="only the GEMM comparison")
    # Internal: one PyTorch measurement.
    ap.add_argument("--torch-worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--model", help=argparse.SUPPRESS)
    ap.add_argument("--precision", help=argparse.SUPPRESS)
    ap.add_argument("--compile", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()

    if args.torch_worker:
        args.threads = int(args.threads)
        return torch_worker(args)
    if args.setup:
        return bench_venv.setup(args.venv, ["torch", "numpy"])
    if not os.path.exists(bench_venv.python(args.venv)):
        sys.exit("no PyTorch venv at %s: run with --setup first" % args.venv)
    amp_run = os.path.join(args.build, "bin", "amp-run")
    python = bench_venv.python(args.venv)
    if args.gemm_only:
        return gemm_table(args, python)
    workdir = tempfile.mkdtemp(prefix="amp-cpu-bench-")
    configs = [(m, p, int(t)) for m in args.models.split(",")
               for p in args.precisions.split(",")
               for t in args.threads.split(",")]
    sides = (["amp cpu", "torch"] +
             (["compile"] if args.with_compile else []) +
             (["amp ref"] if args.with_reference else []))
    results = {c: {s: [] for s in sides} for c in configs}
    for r in range(args.rounds):
        for (m, p, t) in configs:
            path = model_file(m, workdir)
            res = results[(m, p, t)]
            res["amp cpu"].append(amp_time(amp_run, path, m, p, "cpu", t,
                                           args.steps))
            res["torch"].append(torch_time(python, m, p, t, args.steps))
            if args.with_compile:
                res["compile"].append(torch_time(python, m, p, t, args.steps,
                                                 compiled=True))
            if args.with_reference:
                res["amp ref"].append(amp_time(amp_run, path, m, p,
                                               "reference", t, args.steps))
        print("round %d of %d done" % (r + 1, args.rounds), file=sys.stderr)

    print("| model | precision | threads | amp cpu ms/step | torch ms/step "
          "| amp/torch |" +
          (" torch.compile ms/step | amp/compile |" if args.with_compile
           else "") +
          (" amp ref ms/step |" if args.with_reference else ""))
    print("| --- | --- | --- | --- | --- | --- |" +
          (" --- | --- |" if args.with_compile else "") +
          (" --- |" if args.with_reference else ""))
    for (m, p, t), res in results.items():
        amp = statistics.median(res["amp cpu"])
        torch = statistics.median(res["torch"])
        row = "| %s | %s | %d | %.3f | %.3f | %.2fx |" % (m, p, t, amp, torch,
                                                        amp / torch)
        if args.with_compile:
            compiled = statistics.median(res["compile"])
            row += " %.3f | %.2fx |" % (compiled, amp / compiled)
        if args.with_reference:
            row += " %.3f |" % statistics.median(res["amp ref"])
        print(row)
    if args.gemm:
        gemm_table(args, python)


if __name__ == "__main__":
    main()
