#!/usr/bin/env python3
"""Where a training step's GPU time goes: amp's kernels against PyTorch's.

Issue #15's profile, for the models of bench/gpu_step_bench.py (MODELS) in
one precision (default f16, AMP with the loss scaled on both sides):

  amp     amp-exec --backend cuda on the bundled step, under Nsight Compute
          (ncu --clock-control none, one metric: gpu__time_duration.sum, so
          each kernel is replayed once and timed alone)
  torch   the same step as gpu_step_bench.py's torch worker (eager autocast,
          GradScaler for f16), under torch.profiler

For each side it sums the kernels' device time by kernel name over --steps
profiled steps (after --warmup unprofiled ones for torch; amp's count
includes its first step, whose kernels are the same) and prints the top
kernels in ms per step, with the total. The total over the step time that
gpu_step_bench.py measures says how much of a step the GPU is busy: far
under 1, the step waits on the host (launches, batch upload, sync).

  bench/gpu_profile.py --bundle build/gpu-bundle --amp-exec build-rt/bin/amp-exec \\
      --out DIR                           # DIR/profile.md, DIR/*.csv

Needs a GPU, PyTorch, and ncu on PATH or under /opt/nvidia or
/usr/local/cuda (the amp side is skipped without it).
"""

import argparse
import collections
import csv
import glob
import io
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gpu_step_bench as steps  # noqa: E402  (MODELS, the torch step)


def find_ncu():
    found = shutil.which("ncu")
    if found:
        return found
    for pattern in ("/usr/local/cuda/bin/ncu", "/opt/nvidia/nsight-compute/*/ncu",
                    "/usr/local/cuda/nsight-compute*/ncu"):
        hits = sorted(glob.glob(pattern))
        if hits:
            return hits[-1]
    return None


def amp_kernels(args, model, out_dir):
    """{kernel name: total ns} over the profiled steps, or None."""
    ncu = find_ncu()
    if not ncu:
        print("amp side skipped: no ncu", file=sys.stderr)
        return None
    so = os.path.join(args.bundle, "%s.%s.so" % (model, args.precision))
    report = os.path.join(out_dir, "%s.amp" % model)
    cmd = [ncu, "--clock-control", "none", "--metrics", "gpu__time_duration.sum",
           "-f", "-o", report, args.amp_exec, so, "--backend", "cuda", "--seed",
           "1", "--steps", str(args.steps), "--print-every", "0"] \
        + steps.MODELS[model]["flags"]
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode != 0:
        print("ncu failed (%d): %s\n%s" % (run.returncode, " ".join(cmd),
                                           (run.stdout + run.stderr)[-3000:]),
              file=sys.stderr)
        return None
    text = subprocess.run([ncu, "-i", report + ".ncu-rep", "--csv", "--page",
                           "raw", "--print-units", "base", "--metrics",
                           "gpu__time_duration.sum"],
                          capture_output=True, text=True, check=True).stdout
    os.remove(report + ".ncu-rep")  # the CSV holds what is used
    with open(os.path.join(out_dir, "%s.amp.csv" % model), "w") as f:
        f.write(text)
    rows = list(csv.DictReader(io.StringIO(text)))
    totals = collections.Counter()
    for row in rows:
        value = row.get("gpu__time_duration.sum", "")
        try:
            totals[row["Kernel Name"]] += float(value.replace(",", ""))
        except ValueError:
            continue  # the units row
    return totals


def torch_kernels(args, model, out_dir):
    """{kernel name: total ns} over the profiled steps."""
    import torch
    import torch_models as tm
    from torch.profiler import ProfilerActivity, profile

    net, data, opt, scaler, dtype = steps.torch_setup(model, args.precision,
                                                      "cuda")
    x, y = data()
    x, y = x.cuda(), y.flatten().cuda()
    for _ in range(args.warmup):
        tm.train_step(net, opt, scaler, x, y, "cuda", dtype)
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(args.steps):
            tm.train_step(net, opt, scaler, x, y, "cuda", dtype)
        torch.cuda.synchronize()
    totals = collections.Counter()
    for event in prof.events():
        if event.device_type == torch.autograd.DeviceType.CUDA:
            totals[event.name] += 1e3 * event.time_range.elapsed_us()
    with open(os.path.join(out_dir, "%s.torch.csv" % model), "w") as f:
        w = csv.writer(f)
        w.writerow(["kernel", "total ns"])
        w.writerows(totals.most_common())
    return totals


def summary(name, totals, n_steps, top):
    if not totals:
        return ["%s: not measured" % name, ""]
    total = sum(totals.values()) / n_steps / 1e6
    lines = ["%s: %d kernel names, %.3f ms of kernels per step" %
             (name, len(totals), total), "",
             "| ms/step | share | kernel |", "| --- | --- | --- |"]
    for kernel, ns in totals.most_common(top):
        ms = ns / n_steps / 1e6
        lines.append("| %.3f | %.1f%% | `%s` |" % (ms, 100 * ms / total,
                                                   kernel[:110]))
    return lines + [""]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bundle", default=os.path.join(steps.ROOT, "build",
                                                     "gpu-bundle"))
    ap.add_argument("--amp-exec", default=os.path.join(steps.ROOT, "build-rt",
                                                       "bin", "amp-exec"))
    ap.add_argument("--models", default=",".join(steps.MODELS))
    ap.add_argument("--precision", default="f16", choices=steps.PRECISIONS)
    ap.add_argument("--steps", type=int, default=2)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    lines = []
    for model in args.models.split(","):
        lines += ["## %s, %s" % (model, args.precision), ""]
        lines += summary("amp (ncu)", amp_kernels(args, model, args.out),
                         args.steps, args.top)
        try:
            torch = torch_kernels(args, model, args.out)
        except Exception as e:  # one side's failure keeps the other's
            print("torch side failed: %r" % e, file=sys.stderr)
            torch = None
        lines += summary("torch eager autocast (torch.profiler)", torch,
                         args.steps, args.top)
        with open(os.path.join(args.out, "profile.md"), "w") as f:
            f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
