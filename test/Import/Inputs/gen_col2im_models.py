#!/usr/bin/env python3
"""Writes the models of test/Import/col2im.test.

  fold_net.onnx                        FoldNet: the columns of a Linear
                                       summed back into a [2, 7, 7] image by
                                       F.fold (3 x 3 blocks, stride 2,
                                       padding 1; Col2Im), tanh, a Linear;
                                       the TorchScript exporter, opset 18
  fold_net_logits.npy                  its logits on the 16 rows of
                                       bn_cnn_rows.csv (/ 16) before training
  fold_net_torch_log.csv               its losses over 10 full-batch SGD
                                       steps (lr 0.1, momentum 0.9)
  col2im_bad_<case>.onnx               Col2Im nodes the importer rejects

Needs PyPI's torch and onnx, as gen_torch_models.py:

    /tmp/tv/bin/python test/Import/Inputs/gen_col2im_models.py
"""

import os

import numpy as np
import torch
import torch.nn.functional as F
from onnx import TensorProto, helper, numpy_helper
from torch import nn

from gen_torch_models import HERE, export_and_train, save_graph


class FoldNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(64, 2 * 3 * 3 * 16)
        self.head = nn.Linear(2 * 7 * 7, 4)

    def forward(self, x):
        cols = self.fc(x).reshape(-1, 2 * 9, 16)
        img = F.fold(cols, output_size=(7, 7), kernel_size=3, stride=2,
                     padding=1)
        return self.head(torch.tanh(img).flatten(1))


def write_fold_net():
    torch.manual_seed(41)
    export_and_train(FoldNet(), "fold_net", images=False, logits=True,
                     opset=18)


def write_bad():
    """Col2Im nodes the importer rejects: 3-D blocks, columns that are no
    multiple of the block, a block count that the geometry does not give,
    a zero stride, an empty image, two pads for a 2-D image, an image too
    large for int64 bytes."""
    for stem, xshape, image, block, attrs in (
            ("3d", [1, 8, 1], [2, 2, 2], [2, 2, 2], {}),
            ("rows", [1, 5, 4], [3, 3], [2, 2], {}),
            ("blocks", [1, 4, 5], [3, 3], [2, 2], {}),
            ("strides", [1, 4, 4], [3, 3], [2, 2], dict(strides=[0, 1])),
            ("image", [1, 4, 4], [0, 3], [2, 2], {}),
            ("pads", [1, 4, 4], [3, 3], [2, 2], dict(pads=[1, 1])),
            ("huge", [1, 4, 1], [2 ** 40, 2 ** 40], [2, 2],
             dict(strides=[2 ** 41, 2 ** 41]))):
        inits = [numpy_helper.from_array(np.array(image, np.int64), "image"),
                 numpy_helper.from_array(np.array(block, np.int64), "block")]
        save_graph("col2im_bad_" + stem,
                   [helper.make_node("Col2Im", ["x", "image", "block"],
                                     ["y"], name="n", **attrs)],
                   [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                                  xshape)],
                   [helper.make_tensor_value_info("y", TensorProto.FLOAT,
                                                  None)],
                   inits, opset=18, check=False)

def main():
    write_fold_net()
    write_bad()


if __name__ == "__main__":
    main()
