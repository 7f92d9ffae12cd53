"""Reads and writes amp-run's params files (--save-params): "AMPPARAM1", an
int64 count, then per tensor an int64 rank, its int64 dims and its f32
values (lib/Runner/Exec/ParamsFile.cpp), little-endian as amp writes them
here. Plain Python: the tests need no numpy.

    params_file.py print FILE
        prints each tensor: its index, shape and values (%.9g)
    params_file.py affine IN OUT SCALE SHIFT
        writes IN with every value v as float32(v * SCALE + SHIFT)
    params_file.py set IN OUT INDEX V,V,...
        writes IN with tensor INDEX's values replaced (as many as it has)
"""
import math
import struct
import sys


def read_tensors(path):
    """The file's tensors, in order, each (dims, flat list of floats)."""
    data = open(path, "rb").read()
    assert data[:9] == b"AMPPARAM1", path
    (count,) = struct.unpack_from("<q", data, 9)
    offset, tensors = 17, []
    for _ in range(count):
        (rank,) = struct.unpack_from("<q", data, offset)
        dims = struct.unpack_from("<%dq" % rank, data, offset + 8)
        offset += 8 + 8 * rank
        size = math.prod(dims)
        tensors.append((dims, list(struct.unpack_from("<%df" % size, data,
                                                      offset))))
        offset += 4 * size
    return tensors


def read_params(path):
    """The file's tensors, in order, each a flat list of floats."""
    return [values for _, values in read_tensors(path)]


def write_tensors(path, tensors):
    """Writes (dims, values) pairs; values are rounded to float32."""
    out = [b"AMPPARAM1", struct.pack("<q", len(tensors))]
    for dims, values in tensors:
        assert len(values) == math.prod(dims)
        out.append(struct.pack("<q%dq" % len(dims), len(dims), *dims))
        out.append(struct.pack("<%df" % len(values), *values))
    open(path, "wb").write(b"".join(out))


def f32(v):
    return struct.unpack("<f", struct.pack("<f", v))[0]


def main(argv):
    command = argv[1]
    if command == "print":
        for i, (dims, values) in enumerate(read_tensors(argv[2])):
            print("#%d %s %s" % (i, list(dims),
                                 " ".join("%.9g" % v for v in values)))
        return
    tensors = read_tensors(argv[2])
    if command == "affine":
        scale, shift = float(argv[4]), float(argv[5])
        tensors = [(dims, [f32(v * scale + shift) for v in values])
                   for dims, values in tensors]
    elif command == "set":
        index = int(argv[4])
        values = [float(v) for v in argv[5].split(",")]
        dims = tensors[index][0]
        assert len(values) == math.prod(dims)
        tensors[index] = (dims, values)
    else:
        sys.exit("unknown command " + command)
    write_tensors(argv[3], tensors)


if __name__ == "__main__":
    main(sys.argv)
