"""Writes the bad inputs of amp-run-inputs.test into a directory.

Params files follow lib/Runner/Exec/ParamsFile.cpp's format (native-endian:
"AMPPARAM1", int64 count, then per param int64 rank, rank int64 dims and
the f32 values) for test/Integration/Inputs/mlp_train.mlir, whose params are [64, 128],
[128], [128, 10] and [10]. Each file breaks one field. CSV files have the
MLP's 64 features and labels in [0, 10) except where noted.
"""

import math
import os
import struct
import sys

out = sys.argv[1]
MLP = [[64, 128], [128], [128, 10], [10]]


def param(shape, count=None):
    n = math.prod(shape) if count is None else count
    data = struct.pack("<q", len(shape)) + struct.pack(f"<{len(shape)}q", *shape)
    return data + struct.pack(f"<{n}f", *([0.5] * n))


def params_file(name, body, count, magic=b"AMPPARAM1"):
    with open(os.path.join(out, name), "wb") as f:
        f.write(magic + struct.pack("<q", count) + body)


good = b"".join(param(s) for s in MLP)
params_file("good.params", good, 4)
params_file("bad-magic.params", good, 4, magic=b"AMPPARAM2")
with open(os.path.join(out, "no-count.params"), "wb") as f:
    f.write(b"AMPPARAM1\x01\x00")
params_file("negative-count.params", good, -1)
params_file("huge-count.params", good, 1 << 62)
params_file("missing-param.params", b"".join(param(s) for s in MLP[:3]), 3)
params_file("extra-param.params", good + param([3]), 5)
# The first param's rank and dims replaced; the file keeps its size, so that
# the count is plausible.
params_file("negative-rank.params", struct.pack("<q", -1) + good[8:], 4)
params_file("huge-rank.params", struct.pack("<q", 1 << 40) + good[8:], 4)
params_file("negative-dim.params", struct.pack("<qqq", 2, -5, 128) + good[24:], 4)
params_file("huge-dim.params", struct.pack("<qqq", 2, 1 << 62, 4) + good[24:], 4)
params_file("overflowing-dims.params",
            struct.pack("<qqq", 2, 1 << 40, 1 << 40) + good[24:], 4)
# Same element count as [64, 128], transposed.
params_file("transposed.params",
            param([128, 64]) + b"".join(param(s) for s in MLP[1:]), 4)
params_file("truncated.params", good[:-4], 4)
params_file("trailing.params", good + b"\x00" * 3, 4)


def csv(name, rows):
    with open(os.path.join(out, name), "w") as f:
        for features, label in rows:
            f.write(",".join(features) + f",{label}\n")


def row(i, label=None):
    return ([str((i * 7 + f) % 17) for f in range(64)],
            i % 10 if label is None else label)


rows = [row(i) for i in range(200)]
csv("good.csv", rows)
# Line 57 (a training row or a held-out one, it is checked at load either way).
csv("label-too-large.csv", rows[:56] + [row(56, 10)] + rows[57:])
# The very last row, with --eval-fraction 0.5 and no training step.
csv("label-negative-last.csv", rows[:-1] + [row(199, -1)])
nan_row = row(41)
nan_row[0][5] = "nan"
csv("nan.csv", rows[:41] + [nan_row] + rows[42:])
inf_row = row(7)
inf_row[0][63] = "-inf"
csv("inf.csv", rows[:7] + [inf_row] + rows[8:])
