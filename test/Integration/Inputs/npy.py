"""NumPy .npy files in plain Python (the tests need no numpy): the
little-endian f32, i64 and bool arrays amp-run reads and writes."""
import ast
import struct

# descr -> struct format of one element.
FORMATS = {"<f4": "f", "<i8": "q", "|b1": "?"}


def encode(descr, shape, values):
    """A version-1 .npy file of `values` (C order)."""
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (
        descr, repr(tuple(shape)))
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    return (b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) +
            header.encode("latin1") +
            struct.pack("<%d%s" % (len(values), FORMATS[descr]), *values))


def parse(data):
    """(descr, shape, payload bytes) of a .npy file's contents."""
    assert data[:6] == b"\x93NUMPY", "not a .npy file"
    if data[6] == 1:
        (length,) = struct.unpack("<H", data[8:10])
        start = 10
    else:
        (length,) = struct.unpack("<I", data[8:12])
        start = 12
    header = ast.literal_eval(data[start:start + length].decode("latin1"))
    assert not header["fortran_order"], "a Fortran-order array"
    return header["descr"], tuple(header["shape"]), data[start + length:]


def write(path, descr, shape, values):
    with open(path, "wb") as f:
        f.write(encode(descr, shape, values))


def read(path):
    """A .npy file's (shape, values), flattened in C order."""
    descr, shape, payload = parse(open(path, "rb").read())
    fmt = FORMATS[descr]
    count = len(payload) // struct.calcsize(fmt)
    return shape, list(struct.unpack("<%d%s" % (count, fmt), payload))
