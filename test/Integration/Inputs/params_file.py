"""Reads amp-run's params files (--save-params): "AMPPARAM1", an int64
count, then per tensor an int64 rank, its int64 dims and its f32 values
(lib/Runner/Exec/ParamsFile.cpp), little-endian as amp writes them here.
Plain Python: the tests need no numpy."""
import math
import struct


def read_params(path):
    """The file's tensors, in order, each a flat list of floats."""
    data = open(path, "rb").read()
    assert data[:9] == b"AMPPARAM1", path
    (count,) = struct.unpack_from("<q", data, 9)
    offset, params = 17, []
    for _ in range(count):
        (rank,) = struct.unpack_from("<q", data, offset)
        dims = struct.unpack_from("<%dq" % rank, data, offset + 8)
        offset += 8 + 8 * rank
        size = math.prod(dims)
        params.append(list(struct.unpack_from("<%df" % size, data, offset)))
        offset += 4 * size
    return params
