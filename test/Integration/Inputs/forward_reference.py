"""Recomputes in f64 the first-step loss of examples/cnn.mlir (--model cnn),
Inputs/ops_regression.mlir (--model ops) or Inputs/pointwise_grads_step.mlir
(--model grads) from the params amp-run saved (--save-params, after one step
with a negligible learning rate) and the CSV batch it ran on (every row,
--feature-scale 0.0625), and checks it against the loss in amp-run's --log
within --rel-tolerance. For the cnn, whose saved params end with the running
statistics of its two batch norms (buffers, after the params), it also checks
those: one momentum-0.1 update from mean 0 and variance 1 with the batch's
mean and unbiased variance, within --rel-tolerance of the largest value.
With --eval-logits and --eval-output it checks the cnn's inference (the
running statistics) instead: its logits, or amp-run's held-out accuracy and
loss. Batch statistics and the mean losses do not depend on the row order;
dropout's mask does, so the ops model runs on copies of one row. Plain
Python: the tests need no numpy."""
import argparse
import csv
import math
import struct
import sys

import npy
from dropout_masks import keep as dropout_keep
from params_file import read_params

parser = argparse.ArgumentParser()
parser.add_argument("--model", choices=["cnn", "ops", "grads"], required=True)
parser.add_argument("--rel-tolerance", type=float, default=1e-5)
parser.add_argument("--eval-logits", metavar="NPY",
                    help="instead of the loss, check the cnn's inference "
                    "logits (amp-run --function train_step_forward --output, "
                    "on the rows of `data`), which normalize with the saved "
                    "running statistics, within --rel-tolerance of the "
                    "largest")
parser.add_argument("--eval-output", metavar="TXT",
                    help="instead of the loss, check amp-run's 'eval "
                    "accuracy: A (c/t), loss L' line in TXT: the cnn's "
                    "inference logits on the rows of `data` (the held-out "
                    "rows) must classify c of the t rows right, and their "
                    "mean cross-entropy must be L within --rel-tolerance")
parser.add_argument("--write-rows", metavar="NPY",
                    help="only write the rows of `data` as the f32 [rows, 64] "
                    "input of --eval-logits' amp-run call")
parser.add_argument("params", nargs="?")
parser.add_argument("data")
parser.add_argument("log", nargs="?")
args = parser.parse_args()


def f32(v):
    return struct.unpack("<f", struct.pack("<f", v))[0]


rows = [[float(v) for v in r] for r in csv.reader(open(args.data))]
xs = [[v * 0.0625 for v in r[:64]] for r in rows]
labels = [int(r[64]) for r in rows]
if args.write_rows:
    npy.write(args.write_rows, "<f4", (len(xs), 64), [v for x in xs for v in x])
    sys.exit(0)
params = read_params(args.params)


def conv3x3(x, channels, size, w, out):
    """x[n][c][i][j] with zero padding 1, w [out, channels, 3, 3]."""
    def at(img, c, i, j):
        return img[c][i][j] if 0 <= i < size and 0 <= j < size else 0.0
    return [[[[sum(at(img, c, i + a - 1, j + b - 1) *
                   w[((o * channels + c) * 3 + a) * 3 + b]
                   for c in range(channels) for a in range(3) for b in range(3))
               for j in range(size)] for i in range(size)] for o in range(out)]
            for img in x]


# The running statistics the batch norms would update, [mean..., var...] per
# batch norm in order.
running_stats = []


def batch_norm(x, channels, scale, bias, eps=1e-5, stats=None):
    """Batch statistics, or with `stats` (means, variances) inference."""
    y = [[[row[:] for row in ch] for ch in img] for img in x]
    means, variances = [], []
    for c in range(channels):
        vals = [v for img in x for row in img[c] for v in row]
        mean = sum(vals) / len(vals)
        var = sum((v - mean) ** 2 for v in vals) / len(vals)
        if stats:
            mean, var = stats[0][c], stats[1][c]
        means.append(0.1 * mean)
        variances.append(0.9 + 0.1 * var * len(vals) / (len(vals) - 1))
        inv = 1 / math.sqrt(var + eps)
        for img in y:
            img[c] = [[(v - mean) * inv * scale[c] + bias[c] for v in row]
                      for row in img[c]]
    running_stats.extend([means, variances])
    return y


def relu(x):
    return [[[[max(v, 0.0) for v in row] for row in ch] for ch in img]
            for img in x]


def cnn_logits(running=None):
    """The logits per row; `running`: the saved running statistics (rm1,
    rv1, rm2, rv2) for inference, else batch statistics."""
    w1, g1, b1, w2, g2, b2, w3, b3 = params[:8]
    s1, s2 = (running[:2], running[2:]) if running else (None, None)
    x = [[[r[i * 8:(i + 1) * 8] for i in range(8)]] for r in xs]
    h = relu(batch_norm(conv3x3(x, 1, 8, w1, 8), 8, g1, b1, stats=s1))
    p = [[[[max(ch[2 * i + a][2 * j + b] for a in range(2) for b in range(2))
            for j in range(4)] for i in range(4)] for ch in img] for img in h]

    def avg3x3(ch, i, j):  # padding 1, padded positions not counted
        vals = [ch[a][b] for a in range(i - 1, i + 2) for b in range(j - 1, j + 2)
                if 0 <= a < 4 and 0 <= b < 4]
        return sum(vals) / len(vals)
    a = [[[[avg3x3(ch, i, j) for j in range(4)] for i in range(4)] for ch in img]
         for img in p]
    n2 = batch_norm(conv3x3(a, 8, 4, w2, 8), 8, g2, b2, stats=s2)
    rows = []
    for img_p, img_n in zip(p, n2):
        f = [sum(max(u + v, 0.0) for ru, rv in zip(cp, cn) for u, v in zip(ru, rv))
             / 16 for cp, cn in zip(img_p, img_n)]
        rows.append([sum(f[c] * w3[c * 10 + k] for c in range(8)) + b3[k]
                     for k in range(10)])
    return rows


def cnn_loss():
    total = 0.0
    for logits, label in zip(cnn_logits(), labels):
        m = max(logits)
        total += math.log(sum(math.exp(v - m) for v in logits)) - (logits[label] - m)
    return total / len(xs)


def keep(i, seed=1234, rate=0.1):
    return dropout_keep(seed, i, rate)


def ops_loss():
    w1, b1, w2, b2 = params
    mask = [(j * 7) % 3 != 0 for j in range(32)]
    total = 0.0
    for n, x in enumerate(xs):
        h = [sum(x[k] * w1[k * 32 + j] for k in range(64)) + b1[j]
             for j in range(32)]
        t = [math.tanh(v) for v in h]
        s = [1 / (1 + math.exp(-v)) for v in h]
        c = [min(max(v, -0.25), 0.25) for v in h]
        w = [max(t[j], s[j]) if mask[j] else c[j] for j in range(32)]
        q = [math.sqrt(v ** 2 + 1) for v in w]
        r = [1 / math.sqrt(abs(v) + 1) for v in h]
        f = q + r + [min(a, b) for a, b in zip(t, s)]
        padded = [0.0] * 8 + f[1::2] + [0.0] * 8
        d = [v / f32(1 - f32(0.1)) if keep(n * 64 + k) else 0.0
             for k, v in enumerate(padded)]
        pred = sum(v * w2[k] for k, v in enumerate(d)) + b2[0] + max(h)
        total += (pred - x[0]) ** 2
    return total / len(xs)


def grads_loss():
    (w,) = params
    total = 0.0
    for x in xs:
        for dy, v in zip(x, (a + b for a, b in zip(x, w))):
            t, s, q = math.tanh(v), 1 / (1 + math.exp(-v)), math.sqrt(abs(v) + 1)
            r = 1 / q
            total += ((dy * (1 - t * t)) ** 2 + (dy * s * (1 - s)) ** 2 +
                      (dy / (2 * q)) ** 2 + (-0.5 * dy * r * r * r) ** 2)
    return total / (len(xs) * 256)


if args.eval_logits:
    assert args.model == "cnn", "--eval-logits is for the cnn"
    want = [v for row in cnn_logits(running=params[8:]) for v in row]
    _, got = npy.read(args.eval_logits)
    assert len(got) == len(want), (len(got), len(want))
    scale = max(abs(v) for v in want)
    error = max(abs(g - w) for g, w in zip(got, want))
    print(f"inference logits: max abs error {error:.3g} (largest {scale:.3g})")
    if error > args.rel_tolerance * scale:
        sys.exit(f"the inference logits differ by more than "
                 f"{args.rel_tolerance:g} of the largest")
    sys.exit(0)

if args.eval_output:
    assert args.model == "cnn", "--eval-output is for the cnn"
    import re
    line = re.search(r"eval accuracy: [0-9.]+ \(([0-9]+)/([0-9]+)\), "
                     r"loss ([0-9.e+-]+)", open(args.eval_output).read())
    if not line:
        sys.exit(f"{args.eval_output}: no 'eval accuracy: A (c/t), loss L' "
                 f"line")
    correct, total, loss = int(line[1]), int(line[2]), float(line[3])
    logits = cnn_logits(running=params[8:])
    want_correct = sum(max(range(len(l)), key=l.__getitem__) == y
                       for l, y in zip(logits, labels))
    want_loss = sum(math.log(sum(math.exp(v - max(l)) for v in l)) + max(l) -
                    l[y] for l, y in zip(logits, labels)) / len(labels)
    print(f"held-out: amp-run {correct}/{total}, loss {loss:.7g}; f64 "
          f"reference {want_correct}/{len(labels)}, loss {want_loss:.7g}")
    if (correct, total) != (want_correct, len(labels)):
        sys.exit("the held-out accuracy differs")
    if abs(loss - want_loss) > args.rel_tolerance * abs(want_loss):
        sys.exit(f"the held-out loss differs by more than "
                 f"{args.rel_tolerance:g}")
    sys.exit(0)

expected = {"cnn": cnn_loss, "ops": ops_loss, "grads": grads_loss}[args.model]()
got = float(next(csv.DictReader(open(args.log)))["loss"])
print(f"first-step loss: amp-run {got:.7g}, f64 reference {expected:.7g}")
if abs(got - expected) > args.rel_tolerance * abs(expected):
    sys.exit(f"the first-step loss differs by more than {args.rel_tolerance:g}")
if args.model == "cnn":
    saved = params[8:]
    assert len(saved) == len(running_stats), (len(saved), len(running_stats))
    for k, (got_stat, want_stat) in enumerate(zip(saved, running_stats)):
        scale = max(abs(v) for v in want_stat)
        error = max(abs(g - w) for g, w in zip(got_stat, want_stat))
        print(f"running {'var' if k % 2 else 'mean'} #{k // 2}: max abs error "
              f"{error:.3g} (largest value {scale:.3g})")
        if error > args.rel_tolerance * scale:
            sys.exit(f"running statistic #{k} differs by more than "
                     f"{args.rel_tolerance:g} of its largest value")
