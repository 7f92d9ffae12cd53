"""Reads and edits amp-run checkpoints (.npz) with Python's standard library.

    edit_checkpoint.py list CKPT
        checks every member's CRC-32 with zipfile and prints the arrays,
        one per line: name, dtype, shape, and the value of 0-d i64 arrays
    edit_checkpoint.py edit IN OUT [--drop NAME] [--set NAME=INT]
                                   [--set-list NAME=INT,INT,...]
        writes IN without the array NAME, or with NAME replaced by a 0-d
        i64 array of INT, or by a 1-D i64 array of the list (repeatable)

numpy is not needed: the .npy members are parsed and written here, so the
test reads the archive with a zip reader independent of amp's.
"""
import argparse
import ast
import struct
import sys
import zipfile


def parse_npy(data):
    assert data[:6] == b"\x93NUMPY", "not a .npy member"
    major = data[6]
    if major == 1:
        (length,) = struct.unpack("<H", data[8:10])
        start = 10
    else:
        (length,) = struct.unpack("<I", data[8:12])
        start = 12
    header = ast.literal_eval(data[start:start + length].decode("latin1"))
    return header["descr"], tuple(header["shape"]), data[start + length:]


def npy_i64(values, shape):
    header = "{'descr': '<i8', 'fortran_order': False, 'shape': %s, }" % (
        repr(shape))
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    return (b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) +
            header.encode("latin1") +
            struct.pack("<%dq" % len(values), *values))


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    show = sub.add_parser("list")
    show.add_argument("checkpoint")
    edit = sub.add_parser("edit")
    edit.add_argument("input")
    edit.add_argument("output")
    edit.add_argument("--drop", action="append", default=[])
    edit.add_argument("--set", action="append", default=[])
    edit.add_argument("--set-list", action="append", default=[])
    args = parser.parse_args()

    if args.command == "list":
        with zipfile.ZipFile(args.checkpoint) as archive:
            bad = archive.testzip()
            if bad is not None:
                sys.exit("CRC mismatch in " + bad)
            for info in archive.infolist():
                descr, shape, payload = parse_npy(archive.read(info))
                line = "%s %s %s" % (info.filename[:-4], descr, shape)
                if descr == "<i8" and shape == ():
                    line += " = %d" % struct.unpack("<q", payload)[0]
                print(line)
        return

    replace = {}
    for item in args.set:
        name, value = item.split("=")
        replace[name] = npy_i64([int(value)], ())
    for item in args.set_list:
        name, value = item.split("=")
        values = [int(v) for v in value.split(",") if v]
        replace[name] = npy_i64(values, (len(values),))
    with zipfile.ZipFile(args.input) as source, \
            zipfile.ZipFile(args.output, "w") as target:
        for info in source.infolist():
            name = info.filename[:-4]
            if name in args.drop:
                continue
            data = source.read(info)
            if name in replace:
                data = replace[name]
            target.writestr(info.filename, data)


if __name__ == "__main__":
    main()
