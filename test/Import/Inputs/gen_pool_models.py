#!/usr/bin/env python3
"""Writes the models of test/Import/wide-pools.test.

  wide_pool_cnn.onnx           WidePoolCnn: a convolution, then
                               AvgPool2d(12, ceil_mode=True) and
                               MaxPool2d(12, ceil_mode=True) of its 8 x 8
                               map (windows larger than the map, one output
                               each: Hugging Face's EfficientNet pools its
                               last map so), a Linear; the TorchScript
                               exporter, opset 17
  wide_pool_cnn_logits.npy     its logits on bn_cnn_x.npy before training
  wide_pool_cnn_torch_log.csv  its losses over 10 full-batch SGD steps (lr
                               0.1, momentum 0.9) on bn_cnn_rows.csv
  wide_pool_bad_stride.onnx    a window a stride or more larger than the
                               input (no output: an error)
  wide_pool_bad_pads.onnx      AveragePool with pads, count_include_pad and
                               ceil_mode's extra padding (an error)

Needs PyPI's torch and onnx, as gen_torch_models.py:

    /tmp/tv/bin/python test/Import/Inputs/gen_pool_models.py
"""

import torch
from onnx import TensorProto, helper
from torch import nn

from gen_torch_models import export_and_train, save_graph


class WidePoolCnn(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 8, 3, padding=1)
        self.avg = nn.AvgPool2d(12, ceil_mode=True)
        self.max = nn.MaxPool2d(12, ceil_mode=True)
        self.fc = nn.Linear(16, 10)

    def forward(self, x):
        h = torch.relu(self.conv(x))
        return self.fc(torch.cat([self.avg(h), self.max(h)], 1).flatten(1))


def write_errors():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 8, 8])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    save_graph("wide_pool_bad_stride", [helper.make_node(
        "MaxPool", ["x"], ["y"], name="pool", kernel_shape=[12, 12],
        strides=[2, 2], ceil_mode=1)], [x], [y], opset=17, check=False)
    save_graph("wide_pool_bad_pads", [helper.make_node(
        "AveragePool", ["x"], ["y"], name="pool", kernel_shape=[3, 3],
        strides=[2, 2], pads=[1, 1, 1, 1], ceil_mode=1,
        count_include_pad=1)], [x], [y], opset=17, check=False)


if __name__ == "__main__":
    torch.manual_seed(59)
    export_and_train(WidePoolCnn(), "wide_pool_cnn", images=True, lr=0.1,
                     logits=True)
    write_errors()
