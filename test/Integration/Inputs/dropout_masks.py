"""The dropout-mask check of dropout-masks.test, in plain Python (no numpy).

  write DIR T...   writes DIR/w.params (w = 0, [4, 8]), DIR/x.npy (ones) and
                   DIR/t<T>.npy (the 0-d i64 step count T) for each T
  check W T N      checks W.npy, the new w of dropout_probe.mlir's step at
                   step count T: -2 where keep(12345, T * 32 + i) holds and
                   0 elsewhere (elements [32 T, 32 T + 32) of the seed's mask
                   stream), and N.npy: T + 1
  onnx DIR         checks DIR/y.npy, mask.npy and z.npy, the outputs of
                   test/Import/Inputs/dropout_train.onnx (two Dropouts in
                   training mode, ratio 0.25) on DIR/x.npy (0.75 everywhere,
                   written by `write`): y is 1 where its mask output keeps
                   and 0 elsewhere, and z, y's dropout with seed 7, is
                   y / 0.75 where keep(7, i) holds and 0 elsewhere

keep() is nn.dropout's mask (docs/runtime-kernels.md, amp_dropout): the top
24 bits of the splitmix64 finalizer of seed + i * 0x9E3779B97F4A7C15, kept
when below 2^24 * (1 - rate); forward_reference.py imports it."""
import struct
import sys

import npy

SEED, RATE, N = 12345, 0.5, 32


def f32(v):
    return struct.unpack("<f", struct.pack("<f", v))[0]


def keep(seed, i, rate):
    """Whether nn.dropout (seed, rate) keeps element i: dropoutKeep of
    amp_runtime/dropout.h, the threshold rounded to f32 as it is."""
    m = (1 << 64) - 1
    z = (seed + i * 0x9E3779B97F4A7C15) & m
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & m
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & m
    z ^= z >> 31
    return float(z >> 40) < f32(16777216.0 * f32(1.0 - f32(rate)))


def check_onnx(out):
    (_, y), (_, mask), (_, z) = (npy.read(out + "/%s.npy" % name)
                                 for name in ("y", "mask", "z"))
    if y != [1.0 if m else 0.0 for m in mask]:
        sys.exit("y is not x / 0.75 where the mask keeps and 0 elsewhere")
    if all(mask) or not any(mask):
        sys.exit("the mask keeps %d of %d elements" % (sum(mask), len(mask)))
    expected = [f32(f32(y[i]) / f32(0.75)) if keep(7, i, 0.25) else 0.0
                for i in range(len(y))]
    if z != expected:
        sys.exit("z is not the dropout of y with seed 7")
    print("dropout_train.onnx: the first mask keeps %d of %d, the second "
          "(seed 7) %d" % (sum(mask), len(mask), sum(v != 0 for v in z)))


def main():
    if sys.argv[1] == "write":
        out = sys.argv[2]
        with open(out + "/w.params", "wb") as f:
            f.write(b"AMPPARAM1" + struct.pack("<qq", 1, 2) +
                    struct.pack("<qq", 4, 8) + struct.pack("<32f", *[0.0] * N))
        npy.write(out + "/x.npy", "<f4", (4, 8), [1.0] * N)
        npy.write(out + "/x75.npy", "<f4", (4, 8), [0.75] * N)
        for t in sys.argv[3:]:
            npy.write("%s/t%s.npy" % (out, t), "<i8", (), [int(t)])
        return
    if sys.argv[1] == "onnx":
        return check_onnx(sys.argv[2])
    (_, w), t, (_, n) = (npy.read(sys.argv[2]), int(sys.argv[3]),
                         npy.read(sys.argv[4]))
    expected = [-2.0 if keep(SEED, t * N + i, RATE) else 0.0
                for i in range(N)]
    if w != expected:
        first = next(i for i in range(N) if w[i] != expected[i])
        sys.exit("step count %d: element %d of the new w is %g, expected %g" %
                 (t, first, w[first], expected[first]))
    if n != [t + 1]:
        sys.exit("step count %d: the new rng_state is %s, expected %d" %
                 (t, n, t + 1))
    print("step count %d: mask of elements [%d, %d): %d of %d kept" %
          (t, t * N, t * N + N, expected.count(-2.0), N))


if __name__ == "__main__":
    main()
