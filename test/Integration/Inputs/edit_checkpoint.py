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
import struct
import sys
import zipfile

import npy


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
                descr, shape, payload = npy.parse(archive.read(info))
                line = "%s %s %s" % (info.filename[:-4], descr, shape)
                if descr == "<i8" and shape == ():
                    line += " = %d" % struct.unpack("<q", payload)[0]
                print(line)
        return

    replace = {}
    for item in args.set:
        name, value = item.split("=")
        replace[name] = npy.encode('<i8', (), [int(value)])
    for item in args.set_list:
        name, value = item.split("=")
        values = [int(v) for v in value.split(",") if v]
        replace[name] = npy.encode('<i8', (len(values),), values)
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
