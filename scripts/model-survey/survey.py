#!/usr/bin/env python3
"""Exports real PyTorch architectures to ONNX and checks them through amp.

    survey.py [--python P] [--build DIR] [--out DIR] [NAME ...]
    survey.py [--out DIR] --table

Each NAME (default: all of export_model.py's NAMES and EXTRAS), one after
another: `P export_model.py NAME OUT` in a subprocess with a timeout, then
run_amp.py's import and run of each export. The rows of OUT/results.tsv
(the latest per model) are updated after each model; at the end the rows
of this run are printed as a markdown table. --table prints all of
OUT/results.tsv instead. Standard library only; P needs torch,
torchvision, transformers, onnx and onnxscript (see README.md).
"""
import argparse
import os
import subprocess
import sys
import tempfile

import run_amp

HERE = os.path.dirname(os.path.abspath(__file__))
EXPORT = os.path.join(HERE, "export_model.py")


def read_results(path):
    """The rows of a results.tsv, as lists of 4 fields."""
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [line.rstrip("\n").split("\t", 3) for line in f
                if line.strip()]


def save_results(path, name, rows):
    """Replaces model name's rows of results.tsv with rows."""
    kept = [r for r in read_results(path) if r[0] != name]
    with open(path, "w") as f:
        for r in kept + [[name] + list(row) for row in rows]:
            f.write("\t".join(r) + "\n")


def markdown(rows):
    """A markdown table of results rows, details cut to 260 characters."""
    lines = ["| model | exporter | result | detail |", "|---|---|---|---|"]
    for r in rows:
        cells = r[:3] + [r[3][:260]]
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells)
                     + " |")
    return "\n".join(lines)


def survey(name, python, out, bindir, timeout):
    """Exports model name and runs it with amp; its result rows."""
    d = os.path.join(out, name)
    meta = os.path.join(d, "meta.json")
    if os.path.exists(meta):
        os.remove(meta)  # a crash must not leave the last run's exports
    log = os.path.join(out, name + ".export.log")
    rc, text = run_amp.run([python, EXPORT, name, out], log, timeout)
    if not os.path.exists(meta):
        lines = [x for x in text.splitlines() if "rror" in x] or [""]
        detail = run_amp.ANSI.sub("", lines[-1]).strip()[:300]
        return [("both", "build/export crash",
                 (detail + run_amp.exit_note(rc)).strip())]
    return run_amp.run_model(d, bindir, timeout)


def model_names(python):
    """NAMES + EXTRAS of export_model.py, as python P sees them."""
    p = subprocess.run([python, EXPORT, "--list"], capture_output=True,
                       text=True)
    if p.returncode != 0:
        sys.exit(f"{python} {EXPORT} --list failed (does this python have "
                 f"torch and transformers?):\n{p.stderr}")
    return p.stdout.split()


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Model names: python export_model.py --list")
    parser.add_argument("--python", default=sys.executable,
                        help="a python with torch, torchvision, "
                        "transformers, onnx, onnxscript (default: this one)")
    parser.add_argument("--build",
                        default=os.path.join(run_amp.ROOT, "build"),
                        help="amp's build directory (default: %(default)s)")
    parser.add_argument("--out",
                        default=os.path.join(tempfile.gettempdir(),
                                             "amp-model-survey"),
                        help="output directory (default: %(default)s)")
    parser.add_argument("--timeout", type=int, default=300,
                        help="seconds per export and per amp command "
                        "(default: 300)")
    parser.add_argument("--table", action="store_true",
                        help="only print OUT/results.tsv as markdown")
    parser.add_argument("names", nargs="*", metavar="NAME")
    args = parser.parse_args()
    results = os.path.join(args.out, "results.tsv")
    if args.table:
        print(markdown(read_results(results)))
        return
    bindir = os.path.join(args.build, "bin")
    for tool in ("amp-import-onnx", "amp-run"):
        if not os.access(os.path.join(bindir, tool), os.X_OK):
            sys.exit(f"no {tool} in {bindir} (see --build)")
    known = model_names(args.python)
    unknown = [n for n in args.names if n not in known]
    if unknown:
        sys.exit("unknown model(s): " + " ".join(unknown)
                 + " (see: export_model.py --list)")
    os.makedirs(args.out, exist_ok=True)
    done = []
    for name in args.names or known:
        rows = survey(name, args.python, args.out, bindir, args.timeout)
        save_results(results, name, rows)
        for row in rows:
            print("\t".join((name,) + tuple(row)), file=sys.stderr,
                  flush=True)
        done += [[name] + list(row) for row in rows]
    print(markdown(done))


if __name__ == "__main__":
    main()
