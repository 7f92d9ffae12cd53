"""The dropout-mask check of dropout-masks.test, in plain Python (no numpy).

  write DIR T...   writes DIR/w.params (w = 0, [4, 8]), DIR/x.npy (ones) and
                   DIR/t<T>.npy (the 0-d i64 step count T) for each T
  check W T N      checks W.npy, the new w of dropout_probe.mlir's step at
                   step count T: -2 where keep(12345, T * 32 + i) holds and
                   0 elsewhere (elements [32 T, 32 T + 32) of the seed's mask
                   stream), and N.npy: T + 1

keep() is nn.dropout's mask (docs/runtime-kernels.md, amp_dropout): the top
24 bits of the splitmix64 finalizer of seed + i * 0x9E3779B97F4A7C15, kept
when below 2^24 * (1 - rate)."""
import ast
import struct
import sys

M = 2**64
SEED, RATE, N = 12345, 0.5, 32


def keep(seed, i):
    z = (seed + i * 0x9E3779B97F4A7C15) % M
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % M
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % M
    z ^= z >> 31
    return (z >> 40) < 16777216.0 * (1.0 - RATE)


def write_npy(path, descr, shape, payload):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (
        descr, repr(tuple(shape)))
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
        f.write(header.encode("latin1") + payload)


def read_npy(path):
    data = open(path, "rb").read()
    assert data[:6] == b"\x93NUMPY", path
    (length,) = struct.unpack_from("<H", data, 8)
    header = ast.literal_eval(data[10:10 + length].decode("latin1"))
    body = data[10 + length:]
    fmt = {"<f4": "f", "<i8": "q"}[header["descr"]]
    count = len(body) // struct.calcsize(fmt)
    return list(struct.unpack("<%d%s" % (count, fmt), body))


def main():
    if sys.argv[1] == "write":
        out = sys.argv[2]
        with open(out + "/w.params", "wb") as f:
            f.write(b"AMPPARAM1" + struct.pack("<qq", 1, 2) +
                    struct.pack("<qq", 4, 8) + struct.pack("<32f", *[0.0] * N))
        write_npy(out + "/x.npy", "<f4", (4, 8), struct.pack("<32f", *[1.0] * N))
        for t in sys.argv[3:]:
            write_npy("%s/t%s.npy" % (out, t), "<i8", (),
                      struct.pack("<q", int(t)))
        return
    w, t, n = read_npy(sys.argv[2]), int(sys.argv[3]), read_npy(sys.argv[4])
    expected = [-2.0 if keep(SEED, t * N + i) else 0.0 for i in range(N)]
    if w != expected:
        first = next(i for i in range(N) if w[i] != expected[i])
        sys.exit("step count %d: element %d of the new w is %g, expected %g" %
                 (t, first, w[first], expected[first]))
    if n != [t + 1]:
        sys.exit("step count %d: the new rng_state is %s, expected %d" %
                 (t, n, t + 1))
    print("step count %d: mask of elements [%d, %d): %d of %d kept" %
          (t, t * N, t * N + N, expected.count(-2.0), N))


main()
