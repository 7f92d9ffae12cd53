#!/usr/bin/env python3
"""Benchmark: compile time of amp-assign-precision + amp-insert-casts against
canonicalize + cse on large generated training steps (not a test).

For each model and size it generates one forward model with
scripts/gen_training_graph.py --ops-target K and makes its training step
with amp-opt --nn-autodiff=optimizer=adamw (the op count reported is the
step's), then runs on that same step, interleaved, REPEAT times each:

  parse+print   amp-opt FILE
  amp           amp-opt FILE --amp-assign-precision --amp-insert-casts
  canon+cse     amp-opt FILE --canonicalize --cse

always with --mlir-timing and -o /dev/null (so every command prints the
same way). Whole-command time is the wall time of the process; pass-only
time is the sum of the top-level pass rows of the --mlir-timing report
(parser and printer excluded); the child's CPU time is shown too, since it
suffers less than wall time on a loaded machine. It prints best-of and
median per command, the ratio amp / (canon+cse), per-pass times, and the
growth from the smallest to each larger size (best times), which is about
the op growth for linear-time passes.

With --flow the graphs are the forward models themselves (the op count is
the forward function's) and "amp" is the whole flow from them: nn-autodiff
(AdamW), amp-pipeline and the lowering. --flow=llvm (the default) lowers
with the whole amp-to-runtime pipeline, as amp-run compiles (frees, status
checks, the upstream conversions to the LLVM dialect, the contract check);
--flow=calls stops after amp-lower-matmul-to-cublaslt and
amp-lower-to-runtime. The whole-command table also gives each command's
peak memory (max RSS).

With --threads it measures instead how the pass manager runs the
per-function passes in parallel: it writes one module with --copies copies
of a transformer training step (each about --copy-ops ops) and times

  1 thread      amp-opt FILE --amp-pipeline --mlir-disable-threading
  threads       amp-opt FILE --amp-pipeline

interleaved, printing both (whole command and passes only) and their ratio
side by side. MLIR's default thread pool has one thread per hardware
thread (mlir-opt tools have no flag to choose the count), so "threads" is
as many threads as the machine has cores.

Usage: bench/precision_passes.py [--amp-opt PATH] [--sizes 10000,100000]
           [--models transformer,mlp] [--repeat 5]
       bench/precision_passes.py --flow[=llvm|calls] --sizes 10000,100000,200000
       bench/precision_passes.py --threads [--copies 64] [--copy-ops 1000]
           [--repeat 5]
Standard library only.
"""

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GEN = os.path.join(ROOT, "scripts", "gen_training_graph.py")

CONFIGS = [
    ("parse+print", []),
    ("amp", ["--amp-assign-precision", "--amp-insert-casts"]),
    ("canon+cse", ["--canonicalize", "--cse"]),
]
AUTODIFF = "--nn-autodiff=optimizer=adamw"
FLOWS = {
    # amp's lowering to runtime calls, without the upstream conversions to
    # the LLVM dialect and the frees and status checks
    "calls": [AUTODIFF, "--amp-pipeline", "--amp-lower-matmul-to-cublaslt",
              "--amp-lower-to-runtime"],
    # what amp-run compiles: the whole amp-to-runtime pipeline
    "llvm": [AUTODIFF, "--amp-pipeline", "--amp-to-runtime"],
}
NOT_PASSES = {"Parser", "Output", "Rest", "Total"}
# A top-level row of the --mlir-timing report; with threads it has a user
# time column before the wall time.
ROW = re.compile(r"^\s+(?:[0-9.]+ \(\s*[0-9.]+%\)\s+)?"
                 r"([0-9.]+) \(\s*[0-9.]+%\)  (\S.*)$")


def find_amp_opt():
    for build in ("build-bench", "build"):
        p = os.path.join(ROOT, build, "bin", "amp-opt")
        if os.access(p, os.X_OK):
            return p
    sys.exit("error: no amp-opt found; build it or pass --amp-opt")


def generate(model, target, workdir, amp_opt, forward_only=False):
    """A forward model of about `target` ops, or (forward_only=False) the
    training step nn-autodiff makes of it; returns its path and op count
    (the ops of the function body, func.return included)."""
    forward = os.path.join(workdir, "%s-%d-forward.mlir" % (model, target))
    r = subprocess.run([sys.executable, GEN, "--model", model, "--ops-target",
                        str(target), "--forward-only", "-o", forward],
                       capture_output=True, text=True, check=True)
    ops = int(re.search(r"ops=(\d+)", r.stderr).group(1))
    if forward_only:
        return forward, ops
    step = os.path.join(workdir, "%s-%d.mlir" % (model, target))
    subprocess.run([amp_opt, forward, AUTODIFF, "-o", step], check=True)
    return step, count_ops(step)


def count_ops(path):
    """The ops in the body of the file's one function: the lines that
    define values or are ops without results, as printed by amp-opt."""
    n = 0
    with open(path) as f:
        inside = False
        for line in f:
            t = line.strip()
            if t.startswith("func.func"):
                inside = True
                continue
            if inside and t == "}":
                inside = False
            if inside and t and not t.startswith(("//", "^", "}")):
                n += 1
    return n


def generate_copies(copies, copy_ops, workdir):
    """One module holding `copies` renamed copies of a transformer step."""
    one, ops = generate("transformer", copy_ops, workdir, a.amp_opt)
    with open(one) as f:
        text = f.read()
    path = os.path.join(workdir, "transformer-x%d.mlir" % copies)
    with open(path, "w") as f:
        for i in range(copies):
            f.write(text.replace("@train_step(", "@train_step_%d(" % i, 1))
            f.write("\n")
    return path, ops * copies


def threads_main(a, amp_opt, workdir):
    path, ops = generate_copies(a.copies, a.copy_ops, workdir)
    print("generated %s: %d functions, %d ops, %.1f MB" %
          (path, a.copies, ops, os.path.getsize(path) / 1e6), flush=True)
    configs = [
        ("1 thread", ["--amp-pipeline", "--mlir-disable-threading"]),
        ("%d threads" % os.cpu_count(), ["--amp-pipeline"]),
    ]
    samples = {name: [] for name, _ in configs}
    for _ in range(a.repeat):
        for name, args in configs:
            samples[name].append(run_once(amp_opt, path, args))
    st = {n: Stats(v) for n, v in samples.items()}
    one, many = (n for n, _ in configs)
    med, best = statistics.median, min
    print()
    print("amp-pipeline on %d functions: seconds, best / median of %d runs."
          % (a.copies, a.repeat))
    print()
    print("| measure | %s | %s | speed-up (best) | speed-up (median) |"
          % (one, many))
    print("|---|---:|---:|---:|---:|")
    for label, pick in (("passes (--mlir-timing)", lambda x: x.passes),
                        ("whole command (wall)", lambda x: x.wall),
                        ("whole command (CPU)", lambda x: x.cpu)):
        a1, an = pick(st[one]), pick(st[many])
        print("| %s | %s / %s | %s / %s | %.2f | %.2f |" % (
            label, fmt(best(a1)), fmt(med(a1)), fmt(best(an)), fmt(med(an)),
            best(a1) / best(an), med(a1) / med(an)))
    print()
    print("load average at end: %.2f %.2f %.2f" % os.getloadavg())


EXTRA_ARGS = []


def run_once(amp_opt, path, args):
    """Returns (wall s, child CPU s, pass-only s, --mlir-timing rows, max RSS
    in MB)."""
    cmd = [amp_opt, path] + args + EXTRA_ARGS + ["--mlir-timing", "-o",
                                                 os.devnull]
    t0 = time.perf_counter()
    child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)
    stderr = child.stderr.read()
    _, status, ru = os.wait4(child.pid, 0)
    wall = time.perf_counter() - t0
    cpu = ru.ru_utime + ru.ru_stime
    if status != 0:
        sys.exit("error: %s failed:\n%s" % (" ".join(cmd), stderr[-2000:]))
    rows = {}
    for line in stderr.splitlines():
        m = ROW.match(line)
        if m:
            rows[m.group(2).strip()] = float(m.group(1))
    passes = sum(v for k, v in rows.items() if k not in NOT_PASSES)
    return wall, cpu, passes, rows, ru.ru_maxrss / 1024.0


def fmt(s):
    return "%.3f" % s


class Stats:
    """Samples of one command on one graph."""

    def __init__(self, samples):
        self.wall = [x[0] for x in samples]
        self.cpu = [x[1] for x in samples]
        self.passes = [x[2] for x in samples]
        self.rows = [x[3] for x in samples]
        self.maxrss = [x[4] for x in samples]

    def row(self, name, pick):
        return pick([r.get(name, 0.0) for r in self.rows])


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--amp-opt", default=None)
    ap.add_argument("--sizes", default="10000,100000",
                    help="op-count targets, comma-separated")
    ap.add_argument("--models", default="transformer,mlp")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--workdir", default=None,
                    help="where to write the graphs (default: a temp dir)")
    ap.add_argument("--flow", choices=sorted(FLOWS), nargs="?",
                    const="llvm", default=None,
                    help="forward models through nn-autodiff, amp-pipeline "
                    "and the lowering: 'llvm' (the default) is the whole "
                    "amp-to-runtime pipeline, 'calls' stops after "
                    "amp-lower-to-runtime")
    ap.add_argument("--no-verify-each", action="store_true",
                    help="pass --verify-each=false to every command: the "
                    "module is verified after parsing but not after each "
                    "pass (as amp-run's lowering does)")
    ap.add_argument("--threads", action="store_true",
                    help="time amp-pipeline on a module of many functions, "
                    "single-threaded against multi-threaded")
    ap.add_argument("--copies", type=int, default=64,
                    help="--threads: functions in the module")
    ap.add_argument("--copy-ops", type=int, default=1000,
                    help="--threads: op-count target of each function")
    a = ap.parse_args()
    amp_opt = a.amp_opt = a.amp_opt or find_amp_opt()
    if a.no_verify_each:
        EXTRA_ARGS.append("--verify-each=false")
    sizes = [int(s) for s in a.sizes.split(",")]
    models = a.models.split(",")
    workdir = a.workdir or tempfile.mkdtemp(prefix="amp-bench-")
    os.makedirs(workdir, exist_ok=True)

    print("amp-opt: %s" % amp_opt)
    if a.threads:
        print("repeat: %d; every command: --mlir-timing -o %s"
              % (a.repeat, os.devnull))
        print("cores: %s, load average at start: %.2f %.2f %.2f"
              % ((os.cpu_count(),) + os.getloadavg()))
        return threads_main(a, amp_opt, workdir)
    print("repeat: %d; every command: %s--mlir-timing -o %s"
          % (a.repeat, "".join(x + " " for x in EXTRA_ARGS), os.devnull))
    print("cores: %s, load average at start: %.2f %.2f %.2f"
          % ((os.cpu_count(),) + os.getloadavg()))
    if a.flow:
        CONFIGS[1] = ("amp", FLOWS[a.flow])
        print("amp = amp-opt FILE " + " ".join(FLOWS[a.flow]))
    res = {}
    for model in models:
        for size in sizes:
            path, ops = generate(model, size, workdir, amp_opt,
                                 forward_only=bool(a.flow))
            print("generated %s: %d ops, %.1f MB" %
                  (path, ops, os.path.getsize(path) / 1e6), flush=True)
            samples = {name: [] for name, _ in CONFIGS}
            for _ in range(a.repeat):
                for name, args in CONFIGS:
                    samples[name].append(run_once(amp_opt, path, args))
            res[(model, size)] = (ops, {n: Stats(v) for n, v in samples.items()})

    med, best = statistics.median, min

    def cpu_passes(st, n):
        return med(st[n].cpu) - med(st["parse+print"].cpu)
    names = [n for n, _ in CONFIGS]

    print()
    print("Whole command, wall seconds: best / median of %d runs "
          "(CPU seconds, median, in brackets)." % a.repeat)
    print()
    print("| model | ops | " + " | ".join(names) + " | ratio amp/canon+cse (best) "
          "| max RSS MB " + " / ".join(names) + " |")
    print("|---|---:|" + "---:|" * len(names) + "---:|---:|")
    for (model, size), (ops, st) in res.items():
        cells = ["%s / %s [%s]" % (fmt(best(st[n].wall)), fmt(med(st[n].wall)),
                                   fmt(med(st[n].cpu))) for n in names]
        ratio = best(st["amp"].wall) / best(st["canon+cse"].wall)
        rss = " / ".join("%.0f" % max(st[n].maxrss) for n in names)
        print("| %s | %d | %s | %.2f | %s |" % (model, ops, " | ".join(cells),
                                                ratio, rss))

    def cpu_ratio(num, den):
        """num / den of two CPU estimates; "n/a" when den is below what a
        difference of two process CPU times resolves (their clock ticks)."""
        return "%.2f" % (num / den) if den >= 0.02 else "n/a"

    print()
    print("Passes only (--mlir-timing, parser and printer excluded), wall "
          "seconds: best / median.")
    print()
    print("The CPU columns estimate pass CPU time as median CPU(command) - "
          "median CPU(parse+print).")
    print()
    print("| model | ops | amp | canon+cse | ratio (best) | ratio (median) "
          "| amp us/op (best) | canon+cse us/op (best) | amp CPU | canon+cse CPU "
          "| ratio CPU |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for (model, size), (ops, st) in res.items():
        A, C = st["amp"].passes, st["canon+cse"].passes
        ca, cc = cpu_passes(st, "amp"), cpu_passes(st, "canon+cse")
        print("| %s | %d | %s / %s | %s / %s | %.2f | %.2f | %.1f | %.1f "
              "| %s | %s | %s |" % (
                  model, ops, fmt(best(A)), fmt(med(A)), fmt(best(C)),
                  fmt(med(C)), best(A) / best(C), med(A) / med(C),
                  1e6 * best(A) / ops, 1e6 * best(C) / ops, fmt(ca), fmt(cc),
                  cpu_ratio(ca, cc)))

    print()
    print("Per-pass times (best / median s) from --mlir-timing:")
    for (model, size), (ops, st) in res.items():
        parts = []
        base = st["parse+print"]
        for k in ("Parser", "Output"):
            parts.append("%s %s/%s" % (k, fmt(base.row(k, best)), fmt(base.row(k, med))))
        for n in ("amp", "canon+cse"):
            for k in st[n].rows[0]:
                if k not in NOT_PASSES:
                    parts.append("%s %s/%s" % (k, fmt(st[n].row(k, best)),
                                               fmt(st[n].row(k, med))))
        print("  %s %d ops: %s" % (model, ops, ", ".join(parts)))

    if len(sizes) > 1:
        print()
        print("Growth from the smallest size, best wall times and the CPU "
              "estimates (linear = op growth):")
        print()
        print("| model | ops | op growth | amp passes | canon+cse passes "
              "| amp cmd | canon+cse cmd | parse+print cmd | amp CPU "
              "| canon+cse CPU |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for model in models:
            ops0, st0 = res[(model, sizes[0])]
            for size in sizes[1:]:
                ops, st = res[(model, size)]
                g = lambda n, f: best(f(st[n])) / best(f(st0[n]))
                P = lambda x: x.passes
                W = lambda x: x.wall
                print("| %s | %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f "
                      "| %s | %s |" % (
                          model, ops, ops / ops0, g("amp", P),
                          g("canon+cse", P), g("amp", W), g("canon+cse", W),
                          g("parse+print", W),
                          cpu_ratio(cpu_passes(st, "amp"),
                                    cpu_passes(st0, "amp")),
                          cpu_ratio(cpu_passes(st, "canon+cse"),
                                    cpu_passes(st0, "canon+cse"))))
    print()
    print("load average at end: %.2f %.2f %.2f" % os.getloadavg())


if __name__ == "__main__":
    main()
