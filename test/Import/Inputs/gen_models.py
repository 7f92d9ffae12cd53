#!/usr/bin/env python3
"""Writes the small ONNX models of test/Import (committed beside this script).

Run once, with the onnx package of the wheel that scripts/get-onnx-tests.sh
unpacks and Debian's python3-numpy and python3-protobuf:

    PYTHONPATH=data/onnx python3 test/Import/Inputs/gen_models.py

The tests read the committed .onnx files and need neither network nor Python
packages. Weights come from a fixed seed, so the output is reproducible.
"""
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(12)


def init(name, *shape):
    return numpy_helper.from_array(
        rng.standard_normal(shape).astype(np.float32) * 0.5, name)


def ints(name, values):
    return numpy_helper.from_array(np.array(values, dtype=np.int64), name)


def save(name, graph, opset=17, check=True, ir_version=8):
    # Before IR version 4 every initializer is a graph input too.
    if ir_version < 4:
        for t in graph.initializer:
            graph.input.append(vi(t.name, t.data_type, list(t.dims)))
    model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", opset)],
        producer_name="amp-test")
    model.ir_version = ir_version
    if check:
        onnx.checker.check_model(model, full_check=True)
    # The message as built: onnx.save would write the raw_data of a tensor
    # marked EXTERNAL to its external file.
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(model.SerializeToString())


def vi(name, elem, shape):
    return helper.make_tensor_value_info(name, elem, shape)


F = TensorProto.FLOAT

# A small CNN: Conv (bias, pads, strides, groups), BatchNormalization,
# Relu, MaxPool, AveragePool, GlobalAveragePool, Flatten, Gemm, Softmax.
save("cnn.onnx", helper.make_graph(
    [
        helper.make_node("Conv", ["x", "c1.w", "c1.b"], ["c1"], name="conv1",
                         pads=[1, 1, 1, 1], strides=[1, 1]),
        helper.make_node("BatchNormalization",
                         ["c1", "bn.s", "bn.b", "bn.m", "bn.v"], ["bn"],
                         name="bn1", epsilon=1e-3),
        helper.make_node("Relu", ["bn"], ["r1"], name="relu1"),
        helper.make_node("Conv", ["r1", "c2.w"], ["c2"], name="conv2_dw",
                         group=4, kernel_shape=[3, 3], auto_pad="SAME_UPPER",
                         dilations=[1, 1]),
        helper.make_node("MaxPool", ["c2"], ["p1"], name="pool1",
                         kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("AveragePool", ["p1"], ["p2"], name="pool2",
                         kernel_shape=[3, 3], pads=[1, 1, 1, 1],
                         count_include_pad=1),
        helper.make_node("GlobalAveragePool", ["p2"], ["gap"], name="gap"),
        helper.make_node("Flatten", ["gap"], ["flat"], name="flatten"),
        helper.make_node("Gemm", ["flat", "fc.w", "fc.b"], ["logits"],
                         name="fc", transB=1, alpha=1.0, beta=1.0),
        helper.make_node("Softmax", ["logits"], ["probs"], name="softmax",
                         axis=1),
    ],
    "cnn",
    [vi("x", F, [2, 3, 8, 8])],
    [vi("probs", F, [2, 5])],
    [init("c1.w", 4, 3, 3, 3), init("c1.b", 4), init("bn.s", 4),
     init("bn.b", 4), init("bn.m", 4),
     numpy_helper.from_array(np.full(4, 0.5, np.float32), "bn.v"),
     init("c2.w", 4, 1, 3, 3), init("fc.w", 5, 4), init("fc.b", 5)]))

# Elementwise ops with broadcasting, MatMul, and a graph input of BOOL.
save("elementwise.onnx", helper.make_graph(
    [
        helper.make_node("Add", ["a", "bias"], ["add"], name="add_bias"),
        helper.make_node("Sub", ["add", "b"], ["sub"], name="sub"),
        helper.make_node("Mul", ["sub", "b"], ["mul"], name="mul"),
        helper.make_node("Div", ["mul", "two"], ["div"], name="div"),
        helper.make_node("Sum", ["div", "a", "b"], ["sum"], name="sum3"),
        helper.make_node("LeakyRelu", ["sum"], ["lrelu"], name="lrelu",
                         alpha=0.1),
        helper.make_node("Sigmoid", ["lrelu"], ["sig"], name="sigmoid"),
        helper.make_node("Tanh", ["sig"], ["tanh"], name="tanh"),
        helper.make_node("Pow", ["tanh", "three"], ["pow"], name="cube"),
        helper.make_node("Abs", ["pow"], ["abs"], name="abs"),
        helper.make_node("Sqrt", ["abs"], ["sqrt"], name="sqrt"),
        helper.make_node("Clip", ["sqrt", "lo", ""], ["clip"], name="clip"),
        helper.make_node("Where", ["cond", "clip", "a"], ["where"],
                         name="where"),
        helper.make_node("MatMul", ["where", "w"], ["y"], name="matmul"),
    ],
    "elementwise",
    [vi("a", F, [4, 6]), vi("b", F, [6]), vi("cond", TensorProto.BOOL, [4, 6])],
    [vi("y", F, [4, 3])],
    [init("bias", 1, 6), init("w", 6, 3),
     numpy_helper.from_array(np.array(2.0, np.float32), "two"),
     numpy_helper.from_array(np.array(3.0, np.float32), "three"),
     numpy_helper.from_array(np.array(0.1, np.float32), "lo")]))

# Shape computations folded at import time, shape ops, reductions, norms
# and an embedding.
save("shapes.onnx", helper.make_graph(
    [
        helper.make_node("Gather", ["emb.table", "ids"], ["emb"],
                         name="embedding", axis=0),            # [2, 5, 8]
        helper.make_node("LayerNormalization", ["emb", "ln.s", "ln.b"],
                         ["ln"], name="ln", axis=-1, epsilon=1e-5),
        helper.make_node("Shape", ["ln"], ["shape"], name="shape"),
        helper.make_node("Gather", ["shape", "zero"], ["batch"],
                         name="batch_dim", axis=0),
        helper.make_node("Unsqueeze", ["batch", "zero_axes"], ["batch1"],
                         name="unsq"),
        helper.make_node("Concat", ["batch1", "minus_one"], ["newshape"],
                         name="cat_shape", axis=0),
        helper.make_node("Reshape", ["ln", "newshape"], ["flat"],
                         name="reshape"),                      # [2, 40]
        helper.make_node("Slice", ["flat", "starts", "ends", "axes",
                                   "steps"], ["sl"], name="slice"),  # [2, 10]
        helper.make_node("Unsqueeze", ["sl", "one_axes"], ["u"],
                         name="unsq2"),                        # [2, 1, 10]
        helper.make_node("Transpose", ["u"], ["t"], name="transpose",
                         perm=[2, 0, 1]),                      # [10, 2, 1]
        helper.make_node("Squeeze", ["t", "two_axes"], ["s"],
                         name="squeeze"),                      # [10, 2]
        helper.make_node("Pad", ["s", "pads", "padval"], ["p"], name="pad",
                         mode="constant"),                     # [11, 4]
        helper.make_node("Identity", ["p"], ["id"], name="identity"),
        helper.make_node("Dropout", ["id"], ["d"], name="dropout"),
        helper.make_node("Concat", ["d", "d"], ["cc"], name="concat",
                         axis=1),                              # [11, 8]
        helper.make_node("ReduceMean", ["cc"], ["rm"], name="mean",
                         axes=[1], keepdims=1),                # [11, 1]
        helper.make_node("ReduceSum", ["cc", "zero_axes"], ["rs"],
                         name="sum", keepdims=0),              # [8]
        helper.make_node("Add", ["rm", "rs"], ["bc"], name="outer"),  # [11, 8]
        helper.make_node("LogSoftmax", ["bc"], ["y"], name="logsoftmax",
                         axis=-1),
    ],
    "shapes",
    [vi("ids", TensorProto.INT64, [2, 5])],
    [vi("y", F, [11, 8])],
    [init("emb.table", 7, 8), init("ln.s", 8), init("ln.b", 8),
     ints("zero", 0), ints("zero_axes", [0]), ints("minus_one", [-1]),
     ints("starts", [3]), ints("ends", [-7]), ints("axes", [1]),
     ints("steps", [3]), ints("one_axes", [1]), ints("two_axes", [2]),
     ints("pads", [1, 0, 0, 2]),
     numpy_helper.from_array(np.array(0.5, np.float32), "padval")]))

# A classifier for --train: Gemm, Relu, Gemm, Softmax.
save("mlp.onnx", helper.make_graph(
    [
        helper.make_node("Gemm", ["x", "w1", "b1"], ["h"], name="fc1"),
        helper.make_node("Relu", ["h"], ["a"], name="relu"),
        helper.make_node("Gemm", ["a", "w2", "b2"], ["logits"], name="fc2"),
        helper.make_node("Softmax", ["logits"], ["probs"], name="softmax"),
    ],
    "mlp",
    [vi("x", F, ["N", 16])],
    [vi("probs", F, ["N", 4])],
    [init("w1", 16, 8), init("b1", 8), init("w2", 8, 4), init("b2", 4)]))

# Error paths.
save("unsupported_op.onnx", helper.make_graph(
    [helper.make_node("Relu", ["x"], ["r"], name="relu"),
     helper.make_node("Bernoulli", ["r"], ["y"], name="the_bernoulli")],
    "unsupported", [vi("x", F, [2, 3])], [vi("y", F, [2, 3])]))

save("bad_attribute.onnx", helper.make_graph(
    [helper.make_node("MaxPool", ["x"], ["y"], name="pool",
                      kernel_shape=[2, 2], storage_order=2)],
    "bad_attribute", [vi("x", F, [1, 1, 4, 4])], [vi("y", F, [1, 1, 3, 3])]))

save("unknown_attribute.onnx", helper.make_graph(
    [helper.make_node("Relu", ["x"], ["y"], name="relu", slope=0.5)],
    "unknown_attribute", [vi("x", F, [2, 3])], [vi("y", F, [2, 3])]),
    check=False)

save("gelu.onnx", helper.make_graph(
    [helper.make_node("Gelu", ["x"], ["y"], name="gelu_exact")],
    "gelu", [vi("x", F, [2, 3])], [vi("y", F, [2, 3])]), opset=20)

save("old_opset.onnx", helper.make_graph(
    [helper.make_node("Relu", ["x"], ["y"], name="relu")],
    "old", [vi("x", F, [2, 3])], [vi("y", F, [2, 3])]), opset=7)

save("shape_mismatch.onnx", helper.make_graph(
    [helper.make_node("Add", ["a", "b"], ["y"], name="bad_add")],
    "mismatch", [vi("a", F, [2, 3]), vi("b", F, [4])], [vi("y", F, [2, 3])]),
    check=False)


# The exact GELU as exporters write it (PyTorch's nn.GELU() before opset
# 20): x * 0.5 * (1 + erf(x / sqrt 2)), and the form
# (x * 0.5) * (1 + erf(x * (1 / sqrt 2))).
save("erf_gelu.onnx", helper.make_graph(
    [
        helper.make_node("Div", ["x", "sqrt2"], ["d"], name="div"),
        helper.make_node("Erf", ["d"], ["e"], name="erf"),
        helper.make_node("Add", ["e", "one"], ["a"], name="add"),
        helper.make_node("Mul", ["x", "a"], ["m"], name="mul"),
        helper.make_node("Mul", ["m", "half"], ["g"], name="mul_half"),
        helper.make_node("Constant", [], ["rsqrt2"], name="c_rsqrt2",
                         value_float=float(1 / np.sqrt(2))),
        helper.make_node("Mul", ["g", "rsqrt2"], ["d2"], name="scale2"),
        helper.make_node("Erf", ["d2"], ["e2"], name="erf2"),
        helper.make_node("Add", ["one", "e2"], ["a2"], name="add2"),
        helper.make_node("Mul", ["g", "half"], ["h2"], name="half2"),
        helper.make_node("Mul", ["h2", "a2"], ["y"], name="mul2"),
    ],
    "erf_gelu", [vi("x", F, [4, 8])], [vi("y", F, [4, 8])],
    [numpy_helper.from_array(np.array(np.sqrt(2), np.float32), "sqrt2"),
     numpy_helper.from_array(np.array(1.0, np.float32), "one"),
     numpy_helper.from_array(np.array(0.5, np.float32), "half")]))

# Inputs and ONNX's reference outputs (onnx.reference.ReferenceEvaluator):
# what amp-run --function must reproduce from the imported models.
def reference(model_name, inputs, pb_inputs=()):
    model = onnx.load(os.path.join(HERE, model_name))
    outputs = ReferenceEvaluator(model).run(None, inputs)
    stem = model_name[:-len(".onnx")]
    for name, value in inputs.items():
        np.save(os.path.join(HERE, "%s_%s.npy" % (stem, name)), value)
        if name in pb_inputs:
            with open(os.path.join(HERE, "%s_%s.pb" % (stem, name)), "wb") as f:
                f.write(numpy_helper.from_array(value, name)
                        .SerializeToString())
    for out, value in zip(model.graph.output, outputs):
        # C order: the evaluator may return a transposed (Fortran) view.
        np.save(os.path.join(HERE, "%s_%s.npy" % (stem, out.name)),
                np.ascontiguousarray(value))


reference("cnn.onnx",
          {"x": rng.standard_normal((2, 3, 8, 8)).astype(np.float32)},
          pb_inputs=("x",))
reference("elementwise.onnx",
          {"a": rng.standard_normal((4, 6)).astype(np.float32),
           "b": rng.standard_normal(6).astype(np.float32),
           "cond": rng.standard_normal((4, 6)) > 0})
reference("shapes.onnx",
          {"ids": rng.integers(0, 7, (2, 5)).astype(np.int64)})
reference("erf_gelu.onnx",
          {"x": (rng.standard_normal((4, 8)) * 2).astype(np.float32)})

# Inputs that once crashed or hung the importer: a Split with no outputs, a
# ConstantOfShape of 2^80 elements, a folded Add of 10^10 elements.
save("split_no_outputs.onnx", helper.make_graph(
    [helper.make_node("Split", ["x"], [], name="split", axis=0)],
    "split_no_outputs", [vi("x", F, [4])], []), check=False)
save("huge_constant.onnx", helper.make_graph(
    [helper.make_node("ConstantOfShape", ["s"], ["c"], name="huge"),
     helper.make_node("Add", ["x", "c"], ["y"], name="add")],
    "huge_constant", [vi("x", F, [2])], [vi("y", F, [2])],
    [ints("s", [1 << 40, 1 << 40])]), check=False)
zero64 = helper.make_tensor("zero", TensorProto.INT64, [1], [0])
save("huge_fold.onnx", helper.make_graph(
    [helper.make_node("ConstantOfShape", ["sa"], ["a"], name="col",
                      value=zero64),
     helper.make_node("ConstantOfShape", ["sb"], ["b"], name="row",
                      value=zero64),
     helper.make_node("Add", ["a", "b"], ["c"], name="outer_sum"),
     helper.make_node("Reshape", ["x", "c"], ["y"], name="reshape")],
    "huge_fold", [vi("x", F, [2])], [vi("y", F, [2])],
    [ints("sa", [100000, 1]), ints("sb", [1, 100000])]), check=False)

# Found by amp-onnx-fuzzer (fuzz/ONNXFuzzer.cpp): a Reshape whose shape's
# element count overflows int64; an exact-GELU pattern whose Add has no
# output; a Dropout whose mask output would be a 2^32-element constant.
save("reshape_overflow.onnx", helper.make_graph(
    [helper.make_node("Reshape", ["x", "s"], ["y"], name="reshape")],
    "reshape_overflow", [vi("x", F, [4])], [vi("y", F, [4])],
    [ints("s", [2, 7957016116633534463])]), check=False)
save("erf_no_output.onnx", helper.make_graph(
    [helper.make_node("Div", ["x", "sqrt2"], ["d"], name="div"),
     helper.make_node("Erf", ["d"], ["e"], name="erf"),
     helper.make_node("Add", ["e", "one"], [], name="add")],
    "erf_no_output", [vi("x", F, [4])], [],
    [numpy_helper.from_array(np.array(np.sqrt(2), np.float32), "sqrt2"),
     numpy_helper.from_array(np.array(1.0, np.float32), "one")]),
    check=False)
save("dropout_huge_mask.onnx", helper.make_graph(
    [helper.make_node("Dropout", ["x"], ["y", "mask"], name="dropout")],
    "dropout_huge_mask", [vi("x", F, [65536, 65536])],
    [vi("y", F, [65536, 65536]), vi("mask", TensorProto.BOOL, [65536, 65536])]))

# A float shape holding NaN (read as int64 through a saturating
# conversion; a plain cast of NaN was undefined behavior).
save("reshape_nan_shape.onnx", helper.make_graph(
    [helper.make_node("Reshape", ["x", "s"], ["y"], name="reshape")],
    "reshape_nan_shape", [vi("x", F, [4])], [vi("y", F, [4])],
    [numpy_helper.from_array(np.array([np.nan, 4], np.float32), "s")]),
    check=False)

# Slices whose steps are near the int64 extremes (the element count
# overflowed int64 before): one element each, x[0] and x[5].
save("slice_extreme_steps.onnx", helper.make_graph(
    [helper.make_node("Slice", ["x", "s0", "e0", "a", "st0"], ["y0"],
                      name="slice_up"),
     helper.make_node("Slice", ["x", "s1", "e1", "a", "st1"], ["y1"],
                      name="slice_down")],
    "slice_extreme_steps", [vi("x", F, [6])],
    [vi("y0", F, [1]), vi("y1", F, [1])],
    [ints("s0", [0]), ints("e0", [(1 << 63) - 1]), ints("a", [0]),
     ints("st0", [(1 << 63) - 3]), ints("s1", [-1]), ints("e1", [-(1 << 63)]),
     ints("st1", [-(1 << 63)])]))

# A shape passed as a graph input, as ONNX's node tests do: bound with
# --constant-input reshape_shape.pb.
save("reshape_input.onnx", helper.make_graph(
    [helper.make_node("Reshape", ["x", "shape"], ["y"], name="reshape")],
    "reshape_input",
    [vi("x", F, [2, 6]), vi("shape", TensorProto.INT64, [2])],
    [vi("y", F, [3, 4])]))
with open(os.path.join(HERE, "reshape_shape.pb"), "wb") as f:
    f.write(numpy_helper.from_array(np.array([3, -1], np.int64), "shape")
            .SerializeToString())

# Not protobuf: the first bytes of a valid model, then garbage.
with open(os.path.join(HERE, "cnn.onnx"), "rb") as f:
    head = f.read(40)
with open(os.path.join(HERE, "corrupt.onnx"), "wb") as f:
    f.write(head + b"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01garbage")

# A convolutional classifier head for --train, on 1x8x8 images (digits):
# Conv, Relu, an 8x8 Conv to the 10 classes (a fully connected layer written
# as a convolution, as Caffe-era models do), GlobalAveragePool, Softmax, so
# the logits are [N, 10, 1, 1].
save("conv_head.onnx", helper.make_graph(
    [
        helper.make_node("Conv", ["x", "ch.w1", "ch.b1"], ["c1"],
                         name="conv1", pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
        helper.make_node("Conv", ["r1", "ch.w2"], ["c2"], name="classes"),
        helper.make_node("GlobalAveragePool", ["c2"], ["g"], name="pool"),
        helper.make_node("Softmax", ["g"], ["probs"], name="softmax",
                         axis=1),
    ],
    "conv_head",
    [vi("x", F, ["N", 1, 8, 8])],
    [vi("probs", F, ["N", 10, 1, 1])],
    [init("ch.w1", 8, 1, 3, 3), init("ch.b1", 8), init("ch.w2", 10, 8, 8, 8)]))

# A per-pixel output, [1, 2, 3, 3]: not logits that --train can flatten.
save("spatial_output.onnx", helper.make_graph(
    [helper.make_node("Relu", ["x"], ["y"], name="relu")],
    "spatial_output", [vi("x", F, [1, 2, 3, 3])], [vi("y", F, [1, 2, 3, 3])]))

# ConvTranspose: a decoder for --train on 1x8x8 digits (Conv stride 2 down
# to 4x4, ConvTranspose stride 2 with output_padding back to 8x8, an 8x8
# Conv to the 10 classes), and its error paths.
save("conv_transpose.onnx", helper.make_graph(
    [
        helper.make_node("Conv", ["x", "ct.w1"], ["c1"], name="down",
                         strides=[2, 2], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
        helper.make_node("ConvTranspose", ["r1", "ct.w2", "ct.b2"], ["u"],
                         name="up", strides=[2, 2], pads=[1, 1, 1, 1],
                         output_padding=[1, 1]),
        helper.make_node("Relu", ["u"], ["r2"], name="relu2"),
        helper.make_node("Conv", ["r2", "ct.w3"], ["c3"], name="classes"),
        helper.make_node("Softmax", ["c3"], ["probs"], name="softmax",
                         axis=1),
    ],
    "conv_transpose",
    [vi("x", F, ["N", 1, 8, 8])],
    [vi("probs", F, ["N", 10, 1, 1])],
    [init("ct.w1", 8, 1, 3, 3), init("ct.w2", 8, 4, 3, 3), init("ct.b2", 4),
     init("ct.w3", 10, 4, 8, 8)]))


def conv_transpose_error(name, x_shape, w_shape, y_shape, **attrs):
    save(name, helper.make_graph(
        [helper.make_node("ConvTranspose", ["x", "w"], ["y"], name="up",
                          **attrs)],
        name[:-len(".onnx")], [vi("x", F, x_shape)], [vi("y", F, y_shape)],
        [init("w", *w_shape)]), check=False)


conv_transpose_error("convtranspose_channels.onnx", [1, 2, 3, 3],
                     [3, 2, 3, 3], [1, 2, 5, 5])
conv_transpose_error("convtranspose_group.onnx", [1, 2, 3, 3],
                     [2, 1, 3, 3], [1, 3, 5, 5], group=3)
conv_transpose_error("convtranspose_output_padding.onnx", [1, 1, 3, 3],
                     [1, 1, 3, 3], [1, 1, 9, 9], strides=[2, 2],
                     output_padding=[2, 2])
conv_transpose_error("convtranspose_begin_pad.onnx", [1, 1, 3, 3],
                     [1, 1, 3, 3], [1, 1, 7, 7], output_shape=[7, 7],
                     auto_pad="SAME_UPPER")
reference("conv_transpose.onnx",
          {"x": rng.standard_normal((2, 1, 8, 8)).astype(np.float32)})

# Window attributes whose geometry overflows int64 (signed overflow in the
# importer's arithmetic before): a dilation of 2^62, a ConvTranspose stride
# of 2^62 over 3 input rows.
save("conv_huge_dilation.onnx", helper.make_graph(
    [helper.make_node("Conv", ["x", "w"], ["y"], name="conv",
                      dilations=[1 << 62, 1])],
    "conv_huge_dilation", [vi("x", F, [1, 1, 4, 4])],
    [vi("y", F, [1, 1, 2, 2])], [init("w", 1, 1, 3, 3)]), check=False)
conv_transpose_error("convtranspose_huge_stride.onnx", [1, 1, 3, 3],
                     [1, 1, 3, 3], [1, 1, 5, 5], strides=[1 << 62, 1])

# External data (onnx/docs/ExternalData.md): y = x @ w + b with w an
# initializer and b a Constant node's value, both stored in ext_data.bin
# (16 bytes of padding, w at offset 16 for 24 bytes, b from offset 40 to
# the end); then models whose external data is wrong in one way each.
ext_w = rng.standard_normal((3, 2)).astype(np.float32)
ext_b = rng.standard_normal(2).astype(np.float32)
with open(os.path.join(HERE, "ext_data.bin"), "wb") as f:
    f.write(b"\xff" * 16 + ext_w.tobytes() + ext_b.tobytes())


def external(array, name, entries, location=TensorProto.EXTERNAL,
             keep_raw=False):
    t = numpy_helper.from_array(array, name)
    if not keep_raw:
        t.ClearField("raw_data")
    t.data_location = location
    for key, value in entries:
        e = t.external_data.add()
        e.key, e.value = key, value
    return t


def ext_model(name, w_entries, b_entries=(("location", "ext_data.bin"),
                                          ("offset", "40")), **w_args):
    save(name, helper.make_graph(
        [helper.make_node("Constant", [], ["b"], name="bias",
                          value=external(ext_b, "b", b_entries)),
         helper.make_node("MatMul", ["x", "w"], ["xw"], name="matmul"),
         helper.make_node("Add", ["xw", "b"], ["y"], name="add")],
        name[:-len(".onnx")], [vi("x", F, [4, 3])], [vi("y", F, [4, 2])],
        [external(ext_w, "w", w_entries, **w_args)]), check=False)


W_AT = (("location", "ext_data.bin"), ("offset", "16"), ("length", "24"))
ext_model("ext_data.onnx", W_AT + (("checksum", "unverified"),))
reference("ext_data.onnx",
          {"x": rng.standard_normal((4, 3)).astype(np.float32)})
ext_model("ext_missing.onnx", (("location", "missing.bin"),))
ext_model("ext_parent.onnx", (("location", "../Inputs/ext_data.bin"),))
ext_model("ext_absolute.onnx", (("location", "/etc/passwd"),))
ext_model("ext_no_location.onnx", (("offset", "16"), ("length", "24")))
ext_model("ext_past_end.onnx", (("location", "ext_data.bin"),
                                ("offset", "40"), ("length", "24")))
ext_model("ext_bad_offset.onnx", (("location", "ext_data.bin"),
                                  ("offset", "-16")))
ext_model("ext_unknown_key.onnx", W_AT + (("basepath", "/tmp"),))
ext_model("ext_wrong_length.onnx", (("location", "ext_data.bin"),
                                    ("offset", "16"), ("length", "20")))
ext_model("ext_not_external.onnx", W_AT, location=TensorProto.DEFAULT,
          keep_raw=True)
ext_model("ext_raw_and_external.onnx", W_AT, keep_raw=True)
ext_model("ext_constant_missing.onnx", W_AT,
          b_entries=(("location", "missing.bin"),))

# Mod, folded at import time (PyTorch's TorchScript exporter emits it for
# index arithmetic): integers with the divisor's sign (fmod = 0) and the
# dividend's (fmod = 1), floats with fmod = 1, cast and added to x; then
# the Mods the importer rejects.
I64 = TensorProto.INT64


def mod_graph(name, a, b, fmod=None, x_input=False):
    attrs = {} if fmod is None else {"fmod": fmod}
    inputs = [vi("x", F, [5])]
    inits = [] if x_input else [numpy_helper.from_array(a, "a")]
    inits.append(numpy_helper.from_array(b, "b"))
    nodes = [helper.make_node("Mod", ["x" if x_input else "a", "b"], ["m"],
                              name="mod", **attrs)]
    if b.dtype != np.float32:
        nodes.append(helper.make_node("Cast", ["m"], ["mf"], name="cast",
                                      to=F))
    nodes.append(helper.make_node(
        "Add", ["x", "m" if b.dtype == np.float32 else "mf"], ["y"],
        name="add"))
    save(name, helper.make_graph(nodes, name[:-len(".onnx")], inputs,
                                 [vi("y", F, [5])], inits), check=False)


mod_a = np.array([-7, 7, -7, 7, 12], dtype=np.int64)
mod_b = np.array([3, -3, -3, 3, 5], dtype=np.int64)
mod_graph("mod_int.onnx", mod_a, mod_b)
mod_graph("mod_int_fmod.onnx", mod_a, mod_b, fmod=1)
mod_graph("mod_float.onnx", np.array([-7.5, 7.5, -7.5, 7.5, 0.25],
                                     dtype=np.float32),
          np.array([2, -2, -2, 2, 0.5], dtype=np.float32), fmod=1)
for mod_name in ("mod_int.onnx", "mod_int_fmod.onnx", "mod_float.onnx"):
    reference(mod_name, {"x": np.arange(5, dtype=np.float32)})
mod_graph("mod_runtime.onnx", None, np.full(5, 2, dtype=np.float32), fmod=1,
          x_input=True)
mod_graph("mod_float_fmod0.onnx", np.ones(5, dtype=np.float32),
          np.full(5, 2, dtype=np.float32))
mod_graph("mod_zero.onnx", mod_a, np.array([3, 0, 1, 1, 1], dtype=np.int64))
mod_graph("mod_fmod2.onnx", mod_a, mod_b, fmod=2)

# Attention masks built while importing, as PyTorch's TorchScript exporter
# builds the causal one: Expand of a constant, Trilu (upper and lower, k
# above and below the diagonal, batched), Equal and Where, all folded into
# one constant added to x; then a Trilu and an Equal of a graph input.
ones = numpy_helper.from_array(np.ones(1, dtype=np.float32), "one")
save("mask_fold.onnx", helper.make_graph(
    [helper.make_node("Expand", ["one", "shape"], ["full"], name="expand"),
     helper.make_node("Trilu", ["full"], ["lower"], name="tril", upper=0),
     helper.make_node("Trilu", ["full", "k1"], ["upper"], name="triu_k1"),
     helper.make_node("Trilu", ["full", "kneg"], ["band"], name="tril_kneg",
                      upper=0),
     helper.make_node("Equal", ["lower", "zero"], ["masked"], name="eq"),
     helper.make_node("Where", ["masked", "neg", "zero_f"], ["bias"],
                      name="where"),
     helper.make_node("Add", ["x", "bias"], ["a"], name="add_bias"),
     helper.make_node("Add", ["a", "upper"], ["b"], name="add_upper"),
     helper.make_node("Add", ["b", "band"], ["y"], name="add_band")],
    "mask_fold", [vi("x", F, [2, 4, 5])], [vi("y", F, [2, 4, 5])],
    [ones, ints("shape", [2, 4, 5]), ints("k1", [1]), ints("kneg", [-2]),
     numpy_helper.from_array(np.zeros(1, dtype=np.float32), "zero"),
     numpy_helper.from_array(np.float32(-100.0), "neg"),
     numpy_helper.from_array(np.float32(0.0), "zero_f")]))
reference("mask_fold.onnx",
          {"x": rng.standard_normal((2, 4, 5)).astype(np.float32)})
save("trilu_runtime.onnx", helper.make_graph(
    [helper.make_node("Trilu", ["x"], ["y"], name="triu")],
    "trilu_runtime", [vi("x", F, [4, 4])], [vi("y", F, [4, 4])]))
save("trilu_rank1.onnx", helper.make_graph(
    [helper.make_node("Trilu", ["c"], ["t"], name="triu"),
     helper.make_node("Add", ["x", "t"], ["y"], name="add")],
    "trilu_rank1", [vi("x", F, [4])], [vi("y", F, [4])],
    [numpy_helper.from_array(np.ones(4, dtype=np.float32), "c")]),
    check=False)
save("where_types.onnx", helper.make_graph(
    [helper.make_node("Where", ["cond", "a", "b"], ["w"], name="where"),
     helper.make_node("Add", ["x", "w"], ["y"], name="add")],
    "where_types", [vi("x", F, [2])], [vi("y", F, [2])],
    [numpy_helper.from_array(np.array([True, False]), "cond"),
     numpy_helper.from_array(np.ones(2, dtype=np.float32), "a"),
     ints("b", [0, 0])]), check=False)

# Comparisons, logical ops and casts of tensors computed at run time (a
# padding mask from the ids, an attention mask input cast to FLOAT), and the
# shape ops on INT64 and BOOL tensors: nn.compare, nn.where on i1,
# nn.convert, nn.reshape/transpose/slice/broadcast_to/concat of ids and
# masks. Every output, checked against ONNX's reference evaluator.
I64, B = TensorProto.INT64, TensorProto.BOOL
logical_outputs = [
    ("eq", B, [3, 4]), ("lt", B, [3, 4]), ("le", B, [3, 4]),
    ("gt", B, [3, 4]), ("ge", B, [3, 4]), ("not", B, [3, 4]),
    ("and", B, [3, 4]), ("or", B, [3, 4]), ("xor", B, [3, 4]),
    ("ids_f", F, [3, 4]), ("x_i", I64, [3, 4]), ("x_b", B, [3, 4]),
    ("m_f", F, [3, 4]), ("ids32", TensorProto.INT32, [3, 4]),
    ("sel", F, [3, 4]), ("m_u", B, [1, 3, 4]), ("ids_t", I64, [4, 3]),
    ("ids_s", I64, [3, 2]), ("m_e", B, [2, 3, 4]), ("ids_c", I64, [6, 4])]
save("logical.onnx", helper.make_graph(
    [helper.make_node("Equal", ["ids", "zero_i"], ["eq"], name="eq"),
     helper.make_node("Less", ["x", "y"], ["lt"], name="lt"),
     helper.make_node("LessOrEqual", ["x", "y"], ["le"], name="le"),
     helper.make_node("Greater", ["x", "half"], ["gt"], name="gt"),
     helper.make_node("GreaterOrEqual", ["ids", "row"], ["ge"], name="ge"),
     helper.make_node("Not", ["eq"], ["not"], name="not"),
     helper.make_node("And", ["lt", "m"], ["and"], name="and"),
     helper.make_node("Or", ["gt", "m"], ["or"], name="or"),
     helper.make_node("Xor", ["le", "m"], ["xor"], name="xor"),
     helper.make_node("Cast", ["ids"], ["ids_f"], name="ids_f", to=F),
     helper.make_node("Mul", ["x", "four"], ["x4"], name="x4"),
     helper.make_node("Cast", ["x4"], ["x_i"], name="x_i", to=I64),
     helper.make_node("Cast", ["x"], ["x_b"], name="x_b", to=B),
     helper.make_node("Cast", ["m"], ["m_f"], name="m_f", to=F),
     helper.make_node("Cast", ["ids"], ["ids32"], name="ids32",
                      to=TensorProto.INT32),
     helper.make_node("Where", ["and", "x", "ids_f"], ["w"], name="where"),
     helper.make_node("Add", ["w", "m_f"], ["sel"], name="sel"),
     helper.make_node("Unsqueeze", ["m", "axis0"], ["m_u"], name="m_u"),
     helper.make_node("Transpose", ["ids"], ["ids_t"], name="ids_t"),
     helper.make_node("Slice", ["ids", "starts", "ends", "axes", "steps"],
                      ["ids_s"], name="ids_s"),
     helper.make_node("Expand", ["m", "shape"], ["m_e"], name="m_e"),
     helper.make_node("Concat", ["ids", "ids"], ["ids_c"], name="ids_c",
                      axis=0)],
    "logical",
    [vi("x", F, [3, 4]), vi("y", F, [4]), vi("ids", I64, [3, 4]),
     vi("m", B, [3, 4])],
    [vi(n, t, shape) for n, t, shape in logical_outputs],
    [numpy_helper.from_array(np.array(0, dtype=np.int64), "zero_i"),
     numpy_helper.from_array(np.float32(0.5), "half"),
     numpy_helper.from_array(np.float32(4.0), "four"),
     ints("row", [1, 3, 5, 7]), ints("axis0", [0]), ints("starts", [3]),
     ints("ends", [0]), ints("axes", [1]), ints("steps", [-2]),
     ints("shape", [2, 3, 4])]))
logical_x = rng.standard_normal((3, 4)).astype(np.float32)
logical_y = rng.standard_normal(4).astype(np.float32)
logical_x[0, :] = logical_y        # ties for lt / le
logical_x[1, 0] = 0.0              # Cast to BOOL of 0
logical_x[1, 1] = -0.0
logical_x[2, 2] = 0.5              # Greater than 0.5, not
reference("logical.onnx",
          {"x": logical_x, "y": logical_y,
           "ids": rng.integers(0, 8, (3, 4)).astype(np.int64),
           "m": rng.standard_normal((3, 4)) > 0})
# Their errors: operands of different types, Not and And of FLOAT, a Cast
# to a type nn does not hold.
save("compare_types.onnx", helper.make_graph(
    [helper.make_node("Equal", ["ids", "x"], ["m"], name="eq")],
    "compare_types", [vi("ids", I64, [4]), vi("x", F, [4])],
    [vi("m", B, [4])]), check=False)
save("not_float.onnx", helper.make_graph(
    [helper.make_node("Not", ["x"], ["m"], name="not")],
    "not_float", [vi("x", F, [4])], [vi("m", B, [4])]), check=False)
save("and_float.onnx", helper.make_graph(
    [helper.make_node("And", ["m", "x"], ["y"], name="and")],
    "and_float", [vi("m", B, [4]), vi("x", F, [4])], [vi("y", B, [4])]),
    check=False)

# IsNaN and IsInf of a computed tensor (nn.compare of x with itself, with
# infinity), every detect_positive / detect_negative combination.
save("nan_inf.onnx", helper.make_graph(
    [helper.make_node("IsNaN", ["x"], ["nan"], name="isnan"),
     helper.make_node("IsInf", ["x"], ["inf"], name="isinf"),
     helper.make_node("IsInf", ["x"], ["pos"], name="ispos",
                      detect_negative=0),
     helper.make_node("IsInf", ["x"], ["neg"], name="isneg",
                      detect_positive=0),
     helper.make_node("IsInf", ["x"], ["none"], name="isnone",
                      detect_positive=0, detect_negative=0)],
    "nan_inf", [vi("x", F, [6])],
    [vi(n, B, [6]) for n in ("nan", "inf", "pos", "neg", "none")]))
reference("nan_inf.onnx",
          {"x": np.array([1.5, np.nan, np.inf, -np.inf, -0.0, -np.nan],
                         dtype=np.float32)})

# GatherElements and GatherND: folded on constants; of a tensor computed at
# run time with constant indices that select every element in order (the
# torch.export-based exporter's GatherND of an attention mask, the
# TorchScript exporter's Gather of a flattened mask), a reshape; any other
# selection of computed data is an error.
ge_data = np.arange(12, dtype=np.int64).reshape(3, 4)
save("gathers.onnx", helper.make_graph(
    [helper.make_node("GatherElements", ["table", "ge_idx"], ["ge"],
                      name="gather_elements", axis=1),
     helper.make_node("Cast", ["ge"], ["ge_f"], name="ge_f", to=F),
     helper.make_node("Add", ["x", "ge_f"], ["y"], name="add"),
     helper.make_node("GatherND", ["m", "nd_idx"], ["m_nd"], name="gather_nd"),
     helper.make_node("Flatten", ["m"], ["m_flat"], name="flatten", axis=2),
     helper.make_node("Gather", ["m_flat", "order"], ["m_g"], name="gather",
                      axis=0)],
    "gathers", [vi("x", F, [3, 2]), vi("m", B, [2, 3])],
    [vi("y", F, [3, 2]), vi("m_nd", B, [2, 1, 3]), vi("m_g", B, [6, 1])],
    [numpy_helper.from_array(ge_data, "table"),
     ints("ge_idx", [[3, -4], [1, 1], [0, 2]]),
     ints("nd_idx", [[[[0, 0], [0, 1], [0, 2]]], [[[1, 0], [1, 1], [1, 2]]]]),
     ints("order", list(range(6)))]))
reference("gathers.onnx",
          {"x": rng.standard_normal((3, 2)).astype(np.float32),
           "m": rng.standard_normal((2, 3)) > 0})
save("gather_nd_runtime.onnx", helper.make_graph(
    [helper.make_node("GatherND", ["x", "idx"], ["y"], name="gather_nd")],
    "gather_nd_runtime", [vi("x", F, [2, 3])], [vi("y", F, [2])],
    [ints("idx", [[1, 0], [0, 2]])]))
save("gather_elements_range.onnx", helper.make_graph(
    [helper.make_node("GatherElements", ["table", "idx"], ["g"], name="ge",
                      axis=1),
     helper.make_node("Cast", ["g"], ["g_f"], name="g_f", to=F),
     helper.make_node("Add", ["x", "g_f"], ["y"], name="add")],
    "gather_elements_range", [vi("x", F, [3, 2])], [vi("y", F, [3, 2])],
    [numpy_helper.from_array(ge_data, "table"),
     ints("idx", [[0, 1], [4, 0], [0, 0]])]))
save("gather_nd_depth.onnx", helper.make_graph(
    [helper.make_node("GatherND", ["table", "idx"], ["g"], name="gnd"),
     helper.make_node("Cast", ["g"], ["g_f"], name="g_f", to=F),
     helper.make_node("Add", ["x", "g_f"], ["y"], name="add")],
    "gather_nd_depth", [vi("x", F, [1])], [vi("y", F, [1])],
    [numpy_helper.from_array(ge_data, "table"), ints("idx", [[0, 1, 2]])]),
    check=False)

# ONNX's losses (test/Import/losses.test): a linear classifier's
# SoftmaxCrossEntropyLoss with an ignore_index and its log_prob output
# (reduction mean); NegativeLogLikelihoodLoss of [N, C, d1] log-probabilities
# with class weights (reduction sum); and two errors.
save("loss_sce.onnx", helper.make_graph(
    [helper.make_node("Gemm", ["x", "w", "b"], ["scores"], name="fc"),
     helper.make_node("SoftmaxCrossEntropyLoss", ["scores", "labels"],
                      ["loss", "log_prob"], name="sce", ignore_index=-1)],
    "loss_sce", [vi("x", F, [6, 4]), vi("labels", TensorProto.INT64, [6])],
    [vi("loss", F, []), vi("log_prob", F, [6, 3])],
    [init("w", 4, 3), init("b", 3)]))
reference("loss_sce.onnx",
          {"x": rng.standard_normal((6, 4)).astype(np.float32),
           "labels": np.array([0, 2, -1, 1, 2, -1], np.int64)})
save("loss_nll.onnx", helper.make_graph(
    [helper.make_node("NegativeLogLikelihoodLoss", ["x", "labels", "weight"],
                      ["loss"], name="nll", reduction="sum")],
    "loss_nll", [vi("x", F, [2, 3, 4]),
                 vi("labels", TensorProto.INT64, [2, 4])],
    [vi("loss", F, [])],
    [numpy_helper.from_array(np.array([0.5, 2.0, 1.0], np.float32),
                             "weight")]))
reference("loss_nll.onnx",
          {"x": -np.abs(rng.standard_normal((2, 3, 4))).astype(np.float32),
           "labels": rng.integers(0, 3, (2, 4)).astype(np.int64)})
save("loss_bad_labels.onnx", helper.make_graph(
    [helper.make_node("SoftmaxCrossEntropyLoss", ["x", "labels"], ["loss"],
                      name="sce")],
    "loss_bad_labels", [vi("x", F, [4, 3]),
                        vi("labels", TensorProto.INT64, [3])],
    [vi("loss", F, [])]), check=False)
save("loss_bad_reduction.onnx", helper.make_graph(
    [helper.make_node("NegativeLogLikelihoodLoss", ["x", "labels"], ["loss"],
                      name="nll", reduction="average")],
    "loss_bad_reduction", [vi("x", F, [4, 3]),
                           vi("labels", TensorProto.INT64, [4])],
    [vi("loss", F, [])]), check=False)
# The reference evaluator returns the reduced losses as [1]; ONNX's output
# is a scalar.
for stem in ("loss_sce", "loss_nll"):
    path = os.path.join(HERE, stem + "_loss.npy")
    np.save(path, np.load(path).reshape(()))
# BatchNormalizations whose running statistics --train cannot make buffers:
# two nodes that share a running mean, and a running variance that is a
# graph input.


def bn_node(name, x, y, mean, var):
    return helper.make_node("BatchNormalization", [x, "s", "b", mean, var],
                            [y], name=name)


def variance(name):
    return numpy_helper.from_array(
        np.abs(rng.standard_normal(3)).astype(np.float32) + 0.5, name)


save("bn_shared_stats.onnx", helper.make_graph(
    [bn_node("bn1", "x", "y1", "m", "v1"), bn_node("bn2", "y1", "y", "m", "v2")],
    "bn_shared_stats", [vi("x", F, [4, 3])], [vi("y", F, [4, 3])],
    [init("s", 3), init("b", 3), init("m", 3), variance("v1"),
     variance("v2")]))
save("bn_input_stats.onnx", helper.make_graph(
    [bn_node("bn", "x", "y", "m", "v")],
    "bn_input_stats", [vi("x", F, [4, 3]), vi("v", F, [3])],
    [vi("y", F, [4, 3])], [init("s", 3), init("b", 3), init("m", 3)]))
# The activations built of nn ops (test/Import/activations.test): one node
# of each on the input, with non-default attributes, summed; a PRelu whose
# slope (a per-column initializer) trains; and the errors: a slope that
# does not broadcast to the input's shape, and Celu's alpha = 0.
act_rng = np.random.default_rng(31)
ACTIVATIONS = [
    ("Elu", dict(alpha=0.5)), ("Selu", dict(alpha=1.5, gamma=1.1)),
    ("Celu", dict(alpha=2.0)), ("Softplus", {}), ("Softsign", {}),
    ("Mish", {}), ("HardSwish", {}), ("ThresholdedRelu", dict(alpha=0.4)),
    ("Shrink", dict(lambd=0.3, bias=0.2)),
]
save("activations.onnx", helper.make_graph(
    [helper.make_node(op, ["x"], [op.lower()], name=op.lower(), **attrs)
     for op, attrs in ACTIVATIONS]
    + [helper.make_node("PRelu", ["x", "slope"], ["prelu"], name="prelu"),
       helper.make_node("Sum", [op.lower() for op, _ in ACTIVATIONS]
                        + ["prelu"], ["y"], name="sum")],
    "activations", [vi("x", F, [4, 6])], [vi("y", F, [4, 6])],
    [numpy_helper.from_array(
        act_rng.uniform(0.05, 0.5, 6).astype(np.float32), "slope")]),
    opset=18)
reference("activations.onnx",
          {"x": (act_rng.standard_normal((4, 6)) * 2).astype(np.float32)})
save("prelu_bad_slope.onnx", helper.make_graph(
    [helper.make_node("PRelu", ["x", "slope"], ["y"], name="prelu")],
    "prelu_bad_slope", [vi("x", F, [2, 3]), vi("slope", F, [2, 3, 1])],
    [vi("y", F, [2, 3, 1])]), check=False)
save("celu_zero_alpha.onnx", helper.make_graph(
    [helper.make_node("Celu", ["x"], ["y"], name="celu", alpha=0.0)],
    "celu_zero_alpha", [vi("x", F, [2, 3])], [vi("y", F, [2, 3])]))
# Resize (test/Import/resize.test): nearest upsampling by 2 (a broadcast),
# linear to given sizes (matmuls on H and W, N and C left alone), cubic
# antialiased downsampling of axes 2 and 1 of a rank-3 input (axis 0 through
# a transpose), and tf_crop_and_resize with an extrapolation value; each
# with ONNX's reference output. Then the errors.
rs_rng = np.random.default_rng(47)


def floats(name, values):
    return numpy_helper.from_array(np.array(values, dtype=np.float32), name)


def resize_model(name, x_shape, y_shape, inputs, inits, opset=19, check=True,
                 **attrs):
    save(name + ".onnx", helper.make_graph(
        [helper.make_node("Resize", ["x"] + inputs, ["y"], name="resize",
                          **attrs)],
        name, [vi("x", F, x_shape)], [vi("y", F, y_shape)], inits),
        opset=opset, check=check)


resize_model("resize_nearest", [1, 2, 3, 4], [1, 2, 6, 8], ["", "scales"],
             [floats("scales", [1, 1, 2, 2])], mode="nearest",
             coordinate_transformation_mode="asymmetric",
             nearest_mode="floor")
resize_model("resize_linear", [1, 2, 3, 4], [1, 2, 5, 7], ["", "", "sizes"],
             [ints("sizes", [1, 2, 5, 7])], mode="linear",
             coordinate_transformation_mode="pytorch_half_pixel")
resize_model("resize_cubic_axes", [5, 6, 8], [3, 4, 8], ["", "scales"],
             [floats("scales", [0.75, 0.6])], mode="cubic", antialias=1,
             axes=[1, 0])
resize_model("resize_crop", [1, 1, 4, 5], [1, 1, 3, 6], ["roi", "", "sizes"],
             [floats("roi", [0, 0, -0.2, 0.3, 1, 1, 0.8, 1.4]),
              ints("sizes", [1, 1, 3, 6])], mode="linear",
             coordinate_transformation_mode="tf_crop_and_resize",
             extrapolation_value=2.5)
for stem, shape in (("resize_nearest", (1, 2, 3, 4)),
                    ("resize_linear", (1, 2, 3, 4)),
                    ("resize_cubic_axes", (5, 6, 8)),
                    ("resize_crop", (1, 1, 4, 5))):
    reference(stem + ".onnx",
              {"x": rs_rng.standard_normal(shape).astype(np.float32)})
resize_model("resize_both", [1, 1, 2, 2], [1, 1, 4, 4],
             ["", "scales", "sizes"],
             [floats("scales", [1, 1, 2, 2]), ints("sizes", [1, 1, 4, 4])],
             check=False)
resize_model("resize_antialias_nearest", [1, 1, 4, 4], [1, 1, 2, 2],
             ["", "scales"], [floats("scales", [1, 1, 0.5, 0.5])],
             antialias=1, check=False)
resize_model("resize_bad_mode", [1, 1, 2, 2], [1, 1, 4, 4], ["", "scales"],
             [floats("scales", [1, 1, 2, 2])], mode="area", check=False)
resize_model("resize_zero_scale", [1, 1, 2, 2], [1, 1, 4, 4], ["", "scales"],
             [floats("scales", [1, 1, 0, 2])], check=False)
resize_model("resize_scale_count", [1, 1, 2, 2], [1, 1, 4, 4],
             ["", "scales"], [floats("scales", [2, 2])], check=False)
resize_model("resize_no_roi", [1, 1, 2, 2], [1, 1, 4, 4], ["", "", "sizes"],
             [ints("sizes", [1, 1, 4, 4])],
             coordinate_transformation_mode="tf_crop_and_resize",
             check=False)
save("resize_runtime_sizes.onnx", helper.make_graph(
    [helper.make_node("Resize", ["x", "", "", "sizes"], ["y"], name="resize")],
    "resize_runtime_sizes",
    [vi("x", F, [1, 1, 2, 2]), vi("sizes", TensorProto.INT64, [4])],
    [vi("y", F, [1, 1, 4, 4])]), opset=19, check=False)
resize_model("resize_antialias_huge", [1, 1, 1, 1 << 25], [1, 1, 1, 1],
             ["", "", "sizes"], [ints("sizes", [1, 1, 1, 1])], mode="cubic",
             antialias=1, check=False)
# GroupNormalization at opset 18, whose scale and bias are per group
# (test/Import/group-norm.test; the node tests are opset 21's, per channel).
gn_rng = np.random.default_rng(53)
save("group_norm18.onnx", helper.make_graph(
    [helper.make_node("GroupNormalization", ["x", "gs", "gb"], ["y"],
                      name="gn", num_groups=3, epsilon=1e-3)],
    "group_norm18", [vi("x", F, [2, 6, 5])], [vi("y", F, [2, 6, 5])],
    [floats("gs", gn_rng.uniform(0.5, 1.5, 3)),
     floats("gb", gn_rng.uniform(-0.5, 0.5, 3))]), opset=18, check=False)
reference("group_norm18.onnx",
          {"x": (gn_rng.standard_normal((2, 6, 5)) * 3 + 1).astype(np.float32)})
save("group_norm_bad_groups.onnx", helper.make_graph(
    [helper.make_node("GroupNormalization", ["x", "gs", "gb"], ["y"],
                      name="gn", num_groups=4)],
    "group_norm_bad_groups", [vi("x", F, [2, 6, 5])], [vi("y", F, [2, 6, 5])],
    [floats("gs", np.ones(6)), floats("gb", np.zeros(6))]), opset=21,
    check=False)
# Tile (test/Import/tile.test): of a tensor computed at run time, a
# broadcast between reshapes; of a constant, folded.
tile_rng = np.random.default_rng(59)
save("tile.onnx", helper.make_graph(
    [helper.make_node("Tile", ["x", "reps"], ["y"], name="tile"),
     helper.make_node("Tile", ["ids", "id_reps"], ["tiled_ids"],
                      name="tile_ids")],
    "tile", [vi("x", F, [2, 3])],
    [vi("y", F, [4, 9]), vi("tiled_ids", TensorProto.INT64, [3, 2])],
    [ints("reps", [2, 3]), ints("ids", [[4, 7]]), ints("id_reps", [3, 1])]))
reference("tile.onnx",
          {"x": tile_rng.standard_normal((2, 3)).astype(np.float32)})
save("tile_bad_repeats.onnx", helper.make_graph(
    [helper.make_node("Tile", ["x", "reps"], ["y"], name="tile")],
    "tile_bad_repeats", [vi("x", F, [2, 3])], [vi("y", F, [4, 3])],
    [ints("reps", [2])]), check=False)
save("tile_zero_repeats.onnx", helper.make_graph(
    [helper.make_node("Tile", ["x", "reps"], ["y"], name="tile")],
    "tile_zero_repeats", [vi("x", F, [2, 3])], [vi("y", F, [0, 3])],
    [ints("reps", [0, 1])]), check=False)
# Einsum (test/Import/einsum.test): one node per form, each with its own
# inputs, and ONNX's reference outputs (the node tests are DOUBLE).
es_rng = np.random.default_rng(61)
EINSUMS = [
    ("attn", "bhqd,bhkd->bhqk", [(2, 3, 4, 5), (2, 3, 6, 5)]),
    ("implicit", "ij,jk", [(3, 4), (4, 2)]),
    ("ellipsis", "...ij,...jk->...ik", [(2, 1, 3, 4), (5, 4, 2)]),
    ("chain", "ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]),
    ("sum_one_side", "ijk,kl->il", [(2, 3, 4), (4, 5)]),
    ("outer", "i,j->ij", [(3,), (4,)]),
    ("transpose", "ijk->kji", [(2, 3, 4)]),
    ("total", "ij->", [(3, 4)]),
    ("bcast_label", "bij,bjk->bik", [(1, 2, 3), (4, 3, 5)]),
    ("trans_a", "ji,jk->ik", [(4, 3), (4, 2)]),
]


def save_einsums(cases, rng):
    """Each (stem, equation, shapes) of `cases` as einsum_<stem>.onnx, with
    inputs drawn from `rng` and ONNX's reference outputs."""
    for stem, eq, shapes in cases:
        names = ["x%d" % i for i in range(len(shapes))]
        values = {n: rng.standard_normal(s).astype(np.float32)
                  for n, s in zip(names, shapes)}
        out = np.einsum(eq, *values.values())
        save("einsum_%s.onnx" % stem, helper.make_graph(
            [helper.make_node("Einsum", names, ["y"], name="einsum",
                              equation=eq)],
            "einsum_" + stem, [vi(n, F, s) for n, s in zip(names, shapes)],
            [vi("y", F, list(out.shape))]), check=False)
        reference("einsum_%s.onnx" % stem, values)
        # The reference evaluator returns a full sum as [1]; ONNX's is 0-d.
        path = os.path.join(HERE, "einsum_%s_y.npy" % stem)
        np.save(path, np.load(path).reshape(out.shape))


save_einsums(EINSUMS, es_rng)
# Labels repeated within an operand: diagonals, a trace (implicit output),
# a batch of diagonals contracted with another operand; their own
# generator, so that the forms above keep theirs. A repeated label of two
# sizes is an error.
EINSUM_DIAGONALS = [
    ("diagonal", "ii->i", [(3, 3)]),
    ("trace", "ii", [(4, 4)]),
    ("batch_diag", "...ii,ij->...j", [(2, 3, 3), (3, 4)]),
    ("triple", "iij->ji", [(3, 3, 2)]),
]
save_einsums(EINSUM_DIAGONALS, np.random.default_rng(67))
save("einsum_diagonal_sizes.onnx", helper.make_graph(
    [helper.make_node("Einsum", ["x"], ["y"], name="einsum", equation="ii->i")],
    "einsum_diagonal_sizes", [vi("x", F, [2, 3])], [vi("y", F, [2])]),
    check=False)

# Unary ops of constants, folded at import time (fold-unary.test): Abs, Neg
# and Relu of INT64 and INT32 constants (two's complement wrapping at the
# minimum, as numpy), the float functions of a FLOAT constant.
i64_min = np.iinfo(np.int64).min
i32_min = np.iinfo(np.int32).min
fold_nodes = [helper.make_node(op, [src], [op.lower() + "_" + src], name=op.lower() + "_" + src)
              for src in ("c64", "c32") for op in ("Abs", "Neg", "Relu")]
fold_nodes += [helper.make_node(op, ["f"], [op.lower() + "_f"], name=op.lower() + "_f")
               for op in ("Abs", "Neg", "Relu", "Exp", "Log", "Sqrt", "Tanh",
                          "Sigmoid", "Sin", "Cos", "Erf")]
save("fold_unary.onnx", helper.make_graph(
    fold_nodes, "fold_unary", [],
    [vi(n.output[0], TensorProto.INT64 if n.input[0] == "c64" else
        TensorProto.INT32 if n.input[0] == "c32" else F,
        [4] if n.input[0] == "c64" else [2] if n.input[0] == "c32" else [3])
     for n in fold_nodes],
    [numpy_helper.from_array(np.array([-3, 0, 5, i64_min], np.int64), "c64"),
     numpy_helper.from_array(np.array([i32_min, -7], np.int32), "c32"),
     numpy_helper.from_array(np.array([-0.5, 1.0, 4.0], np.float32), "f")]))

# Range of constants (range.test): FLOAT with a fractional delta, INT64
# counting down, an empty INT32 range, then the errors.
def range_model(name, start, limit, delta, dtype=np.float32):
    nodes = [helper.make_node("Range", ["s", "l", "d"], ["y"], name="range")]
    inits = [numpy_helper.from_array(np.array(v, dtype), n)
             for n, v in (("s", start), ("l", limit), ("d", delta))]
    save(name, helper.make_graph(nodes, name[:-5], [],
                                 [vi("y", helper.np_dtype_to_tensor_dtype(
                                     np.dtype(dtype)), None)], inits),
         check=False)


range_model("range_float.onnx", 1.0, 2.0, 0.25)
range_model("range_int64_down.onnx", 10, 3, -3, np.int64)
range_model("range_empty.onnx", 5, 1, 2, np.int32)
range_model("range_zero_delta.onnx", 1, 5, 0, np.int64)
range_model("range_too_long.onnx", 0, 2 ** 40, 1, np.int64)
range_model("range_vector.onnx", [0, 1], 5, 1, np.int64)
save("range_runtime.onnx", helper.make_graph(
    [helper.make_node("Range", ["s", "l", "d"], ["y"], name="range")],
    "range_runtime", [vi("s", TensorProto.INT64, []),
                      vi("l", TensorProto.INT64, []),
                      vi("d", TensorProto.INT64, [])],
    [vi("y", TensorProto.INT64, None)]), check=False)

# Transpose of a constant folds (transpose-fold.test); a perm that is no
# permutation is an error.
for stem, perm in (("transpose_const", [1, 0]), ("transpose_bad_perm", [0, 0])):
    save(stem + ".onnx", helper.make_graph(
        [helper.make_node("Transpose", ["c"], ["y"], name="transpose",
                          perm=perm)],
        stem, [], [vi("y", TensorProto.INT64, None)],
        [numpy_helper.from_array(np.array([[1, 2, 3], [4, 5, 6]], np.int64),
                                 "c")]), check=False)

# A param (a float initializer of more than one element) under ops that
# fold on constants (param-not-folded.test): Expand (a ViT's class token
# broadcast to the batch), Tile, Mul by a constant, Where and a comparison
# keep it an argument that trains.
save("param_ops.onnx", helper.make_graph(
    [helper.make_node("Expand", ["p", "shape"], ["expanded"], name="expand"),
     helper.make_node("Tile", ["p", "reps"], ["tiled"], name="tile"),
     helper.make_node("Mul", ["p", "two"], ["scaled"], name="mul"),
     helper.make_node("Where", ["mask", "p", "two"], ["selected"],
                      name="where"),
     helper.make_node("Greater", ["p", "two"], ["greater"], name="greater")],
    "param_ops", [],
    [vi("expanded", F, [2, 3]), vi("tiled", F, [2, 3]),
     vi("scaled", F, [1, 3]), vi("selected", F, [1, 3]),
     vi("greater", TensorProto.BOOL, [1, 3])],
    [numpy_helper.from_array(np.array([[1, 2, 3]], np.float32), "p"),
     ints("shape", [2, 3]), ints("reps", [2, 1]),
     numpy_helper.from_array(np.array(2, np.float32), "two"),
     numpy_helper.from_array(np.array([[True, False, True]]), "mask")]))

# Position ids as RoBERTa computes them from a mask (cumsum.test): integer
# Equal/Not/Cast, a CumSum of INT32, Mul and Add of run-time integers, then
# a FLOAT CumSum (reverse, exclusive, negative INT32 axis), integer Sub and
# Max, and a CumSum of a constant that wraps in INT32 (folded).
save("positions.onnx", helper.make_graph(
    [helper.make_node("Equal", ["ids", "pad"], ["eq"], name="eq"),
     helper.make_node("Not", ["eq"], ["ne"], name="not"),
     helper.make_node("Cast", ["ne"], ["m"], name="cast32", to=TensorProto.INT32),
     helper.make_node("CumSum", ["m", "one"], ["cs"], name="cumsum_mask"),
     helper.make_node("Mul", ["cs", "m"], ["p"], name="mul"),
     helper.make_node("Cast", ["p"], ["p64"], name="cast64",
                      to=TensorProto.INT64),
     helper.make_node("Add", ["p64", "pad"], ["pos"], name="add"),
     helper.make_node("CumSum", ["x", "minus_two"], ["xs"], name="cumsum_x",
                      exclusive=1, reverse=1),
     helper.make_node("Sub", ["ids", "pos"], ["d"], name="sub"),
     helper.make_node("Max", ["d", "zero"], ["dm"], name="max"),
     helper.make_node("CumSum", ["big", "zero32"], ["wrapped"],
                      name="cumsum_const")],
    "positions",
    [vi("ids", TensorProto.INT64, [2, 8]), vi("x", F, [3, 4])],
    [vi("pos", TensorProto.INT64, [2, 8]), vi("xs", F, [3, 4]),
     vi("dm", TensorProto.INT64, [2, 8]), vi("wrapped", TensorProto.INT32, [3])],
    [numpy_helper.from_array(np.array(1, np.int64), "pad"),
     numpy_helper.from_array(np.array(1, np.int64), "one"),
     numpy_helper.from_array(np.array(-2, np.int32), "minus_two"),
     numpy_helper.from_array(np.array(0, np.int64), "zero"),
     numpy_helper.from_array(np.array(0, np.int32), "zero32"),
     numpy_helper.from_array(np.array([2 ** 31 - 1, 1, 5], np.int32), "big")]))
ids = rng.integers(2, 9, (2, 8)).astype(np.int64)
ids[0, 5:] = 1
ids[1, 2] = 1
reference("positions.onnx",
          {"ids": ids, "x": rng.standard_normal((3, 4)).astype(np.float32)})

# CumSum errors: an axis known only at run time, an axis out of range.
save("cumsum_runtime_axis.onnx", helper.make_graph(
    [helper.make_node("CumSum", ["x", "axis"], ["y"], name="cumsum")],
    "cumsum_runtime_axis", [vi("x", F, [3, 4]), vi("axis", TensorProto.INT64, [])],
    [vi("y", F, [3, 4])]))
save("cumsum_bad_axis.onnx", helper.make_graph(
    [helper.make_node("CumSum", ["x", "axis"], ["y"], name="cumsum")],
    "cumsum_bad_axis", [vi("x", F, [3, 4])], [vi("y", F, [3, 4])],
    [numpy_helper.from_array(np.array(2, np.int64), "axis")]), check=False)
save("div_int_runtime.onnx", helper.make_graph(
    [helper.make_node("Div", ["a", "b"], ["y"], name="div")],
    "div_int_runtime", [vi("a", TensorProto.INT64, [4]),
                        vi("b", TensorProto.INT64, [4])],
    [vi("y", TensorProto.INT64, [4])]))

# The last token of each row, as a decoder's sequence classifier picks it
# (argmax-gathernd.test): ArgMax of positions times the padding mask, then
# GatherND of the run-time scores at [row, last]; ArgMin of FLOAT with
# keepdims and select_last_index; GatherND of run-time indices with
# batch_dims 1, two tuples per batch, one negative.
save("last_token.onnx", helper.make_graph(
    [helper.make_node("Equal", ["ids", "pad"], ["eq"], name="eq"),
     helper.make_node("Not", ["eq"], ["ne"], name="not"),
     helper.make_node("Cast", ["ne"], ["m"], name="cast", to=TensorProto.INT64),
     helper.make_node("Mul", ["positions", "m"], ["pm"], name="mul"),
     helper.make_node("ArgMax", ["pm"], ["last"], name="argmax", axis=-1,
                      keepdims=0),
     helper.make_node("Unsqueeze", ["last", "minus_one"], ["last1"],
                      name="unsqueeze"),
     helper.make_node("Concat", ["rows", "last1"], ["index"], name="concat",
                      axis=-1),
     helper.make_node("GatherND", ["x", "index"], ["picked"], name="gathernd"),
     helper.make_node("ArgMin", ["x"], ["argmin"], name="argmin", axis=1,
                      keepdims=1, select_last_index=1)],
    "last_token",
    [vi("ids", TensorProto.INT64, [2, 5]), vi("x", F, [2, 5, 3])],
    [vi("picked", F, [2, 3]), vi("argmin", TensorProto.INT64, [2, 1, 3])],
    [numpy_helper.from_array(np.array(1, np.int64), "pad"),
     numpy_helper.from_array(np.arange(5, dtype=np.int64), "positions"),
     numpy_helper.from_array(np.array([-1], np.int64), "minus_one"),
     numpy_helper.from_array(np.array([[0], [1]], np.int64), "rows")]))
ids = np.array([[4, 7, 2, 1, 1], [3, 3, 8, 5, 9]], np.int64)
x = rng.integers(-2, 3, (2, 5, 3)).astype(np.float32)
reference("last_token.onnx", {"ids": ids, "x": x})
save("gathernd_batch_runtime.onnx", helper.make_graph(
    [helper.make_node("GatherND", ["x", "index"], ["y"], name="gathernd",
                      batch_dims=1)],
    "gathernd_batch_runtime",
    [vi("x", F, [2, 5, 3]), vi("index", TensorProto.INT64, [2, 2, 1])],
    [vi("y", F, [2, 2, 3])]))
reference("gathernd_batch_runtime.onnx", {
    "x": np.arange(30, dtype=np.float32).reshape(2, 5, 3),
    "index": np.array([[[4], [-1]], [[0], [2]]], np.int64)})

# A GatherND at constant indices of data computed at run time is
# nn.embedding of the data's elements, FLOAT or INT64 (gathers.test).
reference("gather_nd_runtime.onnx",
          {"x": np.arange(6, dtype=np.float32).reshape(2, 3) - 2})
save("gather_nd_runtime_int.onnx", helper.make_graph(
    [helper.make_node("GatherND", ["x", "idx"], ["y"], name="gather_nd")],
    "gather_nd_runtime_int", [vi("x", TensorProto.INT64, [2, 3])],
    [vi("y", TensorProto.INT64, [2])], [ints("idx", [[1, 0], [0, 2]])]))
reference("gather_nd_runtime_int.onnx",
          {"x": np.array([[7, -3, 1 << 60], [-(1 << 62), 5, 0]], np.int64)})

# DeBERTa-v2's relative-position arithmetic (relative-positions.test):
# GatherElements of FLOAT data at run-time indices (negative ones
# included), Clip of INT64 values computed at run time, and Sign, Ceil,
# Floor and Round of constants (folded; of run-time values an error).
save("relative_positions.onnx", helper.make_graph(
    [helper.make_node("GatherElements", ["x", "idx"], ["g"], name="ge",
                      axis=1),
     helper.make_node("Clip", ["idx", "lo", "hi"], ["clipped"], name="clip"),
     helper.make_node("Sign", ["c"], ["sign"], name="sign"),
     helper.make_node("Ceil", ["f"], ["ceil"], name="ceil"),
     helper.make_node("Floor", ["f"], ["floor"], name="floor"),
     helper.make_node("Round", ["f"], ["round"], name="round")],
    "relative_positions",
    [vi("x", F, [2, 4]), vi("idx", TensorProto.INT64, [2, 3])],
    [vi("g", F, [2, 3]), vi("clipped", TensorProto.INT64, [2, 3]),
     vi("sign", TensorProto.INT64, [4]), vi("ceil", F, [4]),
     vi("floor", F, [4]), vi("round", F, [4])],
    [numpy_helper.from_array(np.array(-1, np.int64), "lo"),
     numpy_helper.from_array(np.array(2, np.int64), "hi"),
     numpy_helper.from_array(np.array([-7, 0, 3, -1], np.int64), "c"),
     numpy_helper.from_array(np.array([-1.5, 0.5, 2.5, 1.2], np.float32),
                             "f")]))
reference("relative_positions.onnx",
          {"x": np.arange(8, dtype=np.float32).reshape(2, 4) * 1.5,
           "idx": np.array([[3, -1, 0], [-4, 2, 1]], np.int64)})
# An index outside the axis (5 of 4; -5): an error at run time.
np.save(os.path.join(HERE, "relative_positions_idx_outside.npy"),
        np.array([[3, -1, 0], [-5, 2, 1]], np.int64))

# ScatterND and ScatterElements at constant indices into tensors computed
# at run time (scatter.test): an encoder-decoder's label shift (a box of
# INT64 ids, then a column of a constant), rows of FLOAT data at
# non-adjacent positions (runs of slices), a reduction over repeated
# indices (layers), ScatterElements with negative indices, and more than
# 64 runs of FLOAT elements (nn.embedding of data and updates as one
# table).
save("scatter.onnx", helper.make_graph(
    [helper.make_node("Slice", ["ids", "zero", "minus_one", "one"],
                      ["head"], name="head"),
     helper.make_node("ScatterND", ["zeros", "box", "head"], ["moved"],
                      name="shift"),
     helper.make_node("ScatterND", ["moved", "column", "start"], ["shifted"],
                      name="start"),
     helper.make_node("ScatterND", ["x", "rows", "u"], ["placed"],
                      name="rows"),
     helper.make_node("ScatterND", ["x", "repeated", "u3"], ["added"],
                      name="add", reduction="add"),
     helper.make_node("ScatterND", ["x", "repeated", "u3"], ["largest"],
                      name="max", reduction="max"),
     helper.make_node("ScatterElements", ["x", "elements", "u"],
                      ["elementwise"], name="elements", axis=1),
     helper.make_node("ScatterElements", ["wide", "odd", "half"],
                      ["interleaved"], name="interleave", axis=1)],
    "scatter",
    [vi("ids", TensorProto.INT64, [2, 5]), vi("x", F, [4, 3]),
     vi("u", F, [2, 3]), vi("u3", F, [3, 3]), vi("wide", F, [2, 140]),
     vi("half", F, [2, 70])],
    [vi("shifted", TensorProto.INT64, [2, 5]), vi("placed", F, [4, 3]),
     vi("added", F, [4, 3]), vi("largest", F, [4, 3]),
     vi("elementwise", F, [4, 3]), vi("interleaved", F, [2, 140])],
    [ints("zero", [0]), ints("minus_one", [-1]), ints("one", [1]),
     numpy_helper.from_array(np.zeros((2, 5), np.int64), "zeros"),
     ints("box", [[[0, 1], [0, 2], [0, 3], [0, 4]],
                  [[1, 1], [1, 2], [1, 3], [1, 4]]]),
     ints("column", [[0, 0], [1, 0]]), ints("start", [7, 7]),
     ints("rows", [[2], [0]]), ints("repeated", [[1], [3], [-3]]),
     ints("elements", [[2, -2, 0], [0, 2, 1]]),
     ints("odd", np.tile(np.arange(1, 140, 2), (2, 1)))]), opset=18)
reference("scatter.onnx", {
    "ids": np.array([[5, 9, 4, 2, 1], [6, 3, 2, 1, 1]], np.int64),
    "x": rng.standard_normal((4, 3)).astype(np.float32),
    "u": rng.standard_normal((2, 3)).astype(np.float32),
    "u3": rng.standard_normal((3, 3)).astype(np.float32),
    "wide": rng.standard_normal((2, 140)).astype(np.float32),
    "half": rng.standard_normal((2, 70)).astype(np.float32)})
# More than 64 runs of INT64 elements, a table lookup of an i64 table; the
# errors: an element addressed twice without a reduction, indices computed
# at run time, more than 64 runs of BOOL elements.
save("scatter_twice.onnx", helper.make_graph(
    [helper.make_node("ScatterND", ["x", "idx", "u"], ["y"], name="twice")],
    "scatter_twice", [vi("x", F, [4, 3]), vi("u", F, [2, 3])],
    [vi("y", F, [4, 3])], [ints("idx", [[1], [-3]])]), opset=18)
save("scatter_runtime_indices.onnx", helper.make_graph(
    [helper.make_node("ScatterND", ["x", "idx", "u"], ["y"], name="computed")],
    "scatter_runtime_indices",
    [vi("x", F, [4, 3]), vi("idx", TensorProto.INT64, [2, 1]),
     vi("u", F, [2, 3])], [vi("y", F, [4, 3])]), opset=18)
# Its own generator, so that the models after it keep theirs.
computed_rng = np.random.default_rng(137)
reference("scatter_runtime_indices.onnx", {
    "x": computed_rng.standard_normal((4, 3)).astype(np.float32),
    "idx": np.array([[3], [-3]], np.int64),
    "u": computed_rng.standard_normal((2, 3)).astype(np.float32)})
save("scatter_int_runs.onnx", helper.make_graph(
    [helper.make_node("ScatterElements", ["x", "odd", "u"], ["y"],
                      name="int_runs", axis=0)],
    "scatter_int_runs",
    [vi("x", TensorProto.INT64, [140]), vi("u", TensorProto.INT64, [70])],
    [vi("y", TensorProto.INT64, [140])],
    [ints("odd", np.arange(1, 140, 2))]), opset=18)
reference("scatter_int_runs.onnx",
          {"x": np.arange(140, dtype=np.int64) * 3 - (1 << 40),
           "u": -np.arange(70, dtype=np.int64)})
save("scatter_bool_runs.onnx", helper.make_graph(
    [helper.make_node("ScatterElements", ["x", "odd", "u"], ["y"],
                      name="bool_runs", axis=0)],
    "scatter_bool_runs",
    [vi("x", TensorProto.BOOL, [140]), vi("u", TensorProto.BOOL, [70])],
    [vi("y", TensorProto.BOOL, [140])],
    [ints("odd", np.arange(1, 140, 2))]), opset=18)
# A scatter of constants folds; INT32 products wrap (scatter.test).
save("scatter_fold.onnx", helper.make_graph(
    [helper.make_node("ScatterND", ["data", "idx", "u"], ["y"], name="fold",
                      reduction="mul")],
    "scatter_fold", [], [vi("y", TensorProto.INT32, [3])],
    [numpy_helper.from_array(np.array([65536, 3, 5], np.int32), "data"),
     ints("idx", [[0], [0], [2]]),
     numpy_helper.from_array(np.array([65536, 2, 7], np.int32), "u")]),
     opset=18)
# --train with a graph input named labels that does not fit the logits
# (train.test).
save("labels_input_shape.onnx", helper.make_graph(
    [helper.make_node("MatMul", ["x", "w"], ["logits"], name="linear")],
    "labels_input_shape",
    [vi("x", F, [2, 3]), vi("labels", TensorProto.INT64, [2, 3])],
    [vi("logits", F, [2, 4])],
    [numpy_helper.from_array(np.ones((3, 4), np.float32), "w")]))
# Integers computed at run time (int-gathers.test): ReduceSum of INT64
# (over one axis, over two, over an empty one without keepdims), and Gather,
# GatherElements and GatherND of INT64 data at indices computed at run
# time (mBART's end token: the count of non-padding ids minus one,
# gathered from the ids).
save("int_gathers.onnx", helper.make_graph(
    [helper.make_node("ReduceSum", ["ids", "axis1"], ["count"], name="count"),
     helper.make_node("ReduceSum", ["ids", "both"], ["total"], name="total"),
     helper.make_node("ReduceSum", ["empty", "axis1"], ["none"], name="none",
                      keepdims=0),
     helper.make_node("Sub", ["count", "one"], ["last"], name="last"),
     helper.make_node("GatherElements", ["ids", "last"], ["end"],
                      name="end", axis=1),
     helper.make_node("Gather", ["ids", "cols"], ["picked"], name="picked",
                      axis=1),
     helper.make_node("GatherND", ["ids", "pairs"], ["pairs_out"],
                      name="pairs")],
    "int_gathers",
    [vi("ids", TensorProto.INT64, [2, 4]), vi("empty", TensorProto.INT64, [2, 0]),
     vi("cols", TensorProto.INT64, [3]), vi("pairs", TensorProto.INT64, [2, 2])],
    [vi("count", TensorProto.INT64, [2, 1]), vi("total", TensorProto.INT64, [1, 1]),
     vi("none", TensorProto.INT64, [2]), vi("end", TensorProto.INT64, [2, 1]),
     vi("picked", TensorProto.INT64, [2, 3]),
     vi("pairs_out", TensorProto.INT64, [2])],
    [ints("axis1", [1]), ints("both", [0, 1]), ints("one", 1)]))
reference("int_gathers.onnx", {
    "ids": np.array([[1, 1, 0, 0], [1, 1, 1, 1]], np.int64),
    "empty": np.zeros((2, 0), np.int64),
    "cols": np.array([3, 0, 2], np.int64),
    "pairs": np.array([[1, 3], [0, 1]], np.int64)})
# Gathers that PyTorch's torch.export-based exporter translated from
# aten.embedding, as its nodes' FX metadata records them (padding-idx.test):
# each of `calls` is the text after the call's target, the Gather reading
# the 5 x 2 table t<k> at the run-time ids.
def save_fx_embeddings(name, calls):
    nodes, outputs, tables = [], [], []
    for k, call in enumerate(calls):
        node = helper.make_node("Gather", [f"t{k}", "ids"], [f"y{k}"],
                                name=f"embedding_{k}")
        node.metadata_props.add(
            key="pkg.torch.onnx.fx_node",
            value=f"%embedding_{k} : [num_users=1] = call_function[target="
                  f"torch.ops.aten.embedding.default]({call}")
        nodes.append(node)
        outputs.append(vi(f"y{k}", F, [2, 3, 2]))
        tables.append(numpy_helper.from_array(
            np.arange(10, dtype=np.float32).reshape(5, 2) + k, f"t{k}"))
    save(name, helper.make_graph(nodes, name.removesuffix(".onnx"),
                                 [vi("ids", TensorProto.INT64, [2, 3])],
                                 outputs, tables), check=False)


save_fx_embeddings("fx_embeddings.onnx", [
    "args = (%p_t0, %ids, 2), kwargs = {})",
    "args = (%p_t1, %ids), kwargs = {padding_idx: 1})",
    "args = (%p_t2, %ids, -1, False, True), kwargs = {})",
    "args = (%p_t3, %ids), kwargs = {})"])
save_fx_embeddings("fx_embedding_cut.onnx", ["args = (%p_t0, %ids, 2"])
save_fx_embeddings("fx_embedding_word.onnx",
                   ["args = (%p_t0, %ids, pad), kwargs = {})"])
save_fx_embeddings("fx_embedding_past.onnx",
                   ["args = (%p_t0, %ids, 5), kwargs = {})"])
# An INT64 table looked up by run-time ids (padding-idx.test: --padding-idx
# naming it is an error, an integer table has no gradient).
save("int_table_gather.onnx", helper.make_graph(
    [helper.make_node("Gather", ["table", "ids"], ["rows"], name="lookup")],
    "int_table_gather",
    [vi("ids", TensorProto.INT64, [3])],
    [vi("rows", TensorProto.INT64, [3, 2])],
    [ints("table", np.arange(8, dtype=np.int64).reshape(4, 2))]))
# What PyTorch's torch.export-based exporter folds, as its metadata says
# (folded-params.test): `wt` is the transpose of the param `w`, which a
# Gather also reads (a tied output projection), `pos` repeats one row for
# each of the batch's (a position embedding's lookup), `other` was folded
# from `w` but is no transpose of it, and `buf` is a buffer of the module.
def folded(name, elem, shape, sources=None, kind=None):
    info = vi(name, elem, shape)
    for key, value in (
            ("pkg.onnxscript.optimizer.folded_from", sources and repr(sources)),
            ("pkg.torch.export.graph_signature.InputSpec.kind", kind)):
        if value:
            entry = info.metadata_props.add()
            entry.key, entry.value = key, value
    return info


w = rng.standard_normal((3, 2)).astype(np.float32)
save("folded_params.onnx", helper.make_graph(
    [helper.make_node("MatMul", ["x", "wt"], ["xw"], name="project"),
     helper.make_node("Add", ["xw", "pos"], ["placed"], name="place"),
     helper.make_node("Add", ["placed", "buf"], ["y"], name="shift"),
     helper.make_node("MatMul", ["x", "other"], ["z"], name="other_use"),
     helper.make_node("Gather", ["w", "ids"], ["e"], name="lookup")],
    "folded_params",
    [vi("x", F, [4, 2]), vi("ids", TensorProto.INT64, [4])],
    [vi("y", F, [4, 3]), vi("z", F, [4, 3]), vi("e", F, [4, 2])],
    [numpy_helper.from_array(w, "w"),
     numpy_helper.from_array(np.ascontiguousarray(w.T), "wt"),
     numpy_helper.from_array(
         np.tile(rng.standard_normal((1, 3)).astype(np.float32), (4, 1)),
         "pos"),
     numpy_helper.from_array(w.T + 1, "other"),
     numpy_helper.from_array(np.array([0.5, -1, 2], np.float32), "buf")],
    value_info=[folded("w", F, [3, 2], kind="PARAMETER"),
                folded("wt", F, [2, 3], ["w", "permute"]),
                folded("pos", F, [4, 3], ["arange", "pos.weight", "expand"]),
                folded("other", F, [2, 3], ["w"]),
                folded("buf", F, [3], kind="BUFFER")]))
reference("folded_params.onnx", {
    "x": rng.standard_normal((4, 2)).astype(np.float32),
    "ids": np.array([2, 0, 1, 2], np.int64)})
# Two initializers, each folded from the other and its transpose: one is
# the transpose of the other, not a cycle (folded-params.test).
a = rng.standard_normal((2, 3)).astype(np.float32)
save("folded_cycle.onnx", helper.make_graph(
    [helper.make_node("MatMul", ["x", "a"], ["xa"], name="first"),
     helper.make_node("MatMul", ["xa", "b"], ["y"], name="second")],
    "folded_cycle", [vi("x", F, [4, 2])], [vi("y", F, [4, 2])],
    [numpy_helper.from_array(a, "a"),
     numpy_helper.from_array(np.ascontiguousarray(a.T), "b")],
    value_info=[folded("a", F, [2, 3], ["b"]), folded("b", F, [3, 2], ["a"])]))
reference("folded_cycle.onnx",
          {"x": rng.standard_normal((4, 2)).astype(np.float32)})
# One-element initializers (folded-params.test): `slope`, folded from a
# module's weight (nn.PReLU()'s single slope, reshaped), and `gain`, a
# PARAMETER, train; `eps` and `half`, folded from the exporter's own values,
# are constants. Their own generator, so that the models above keep theirs.
scalar_rng = np.random.default_rng(131)
save("folded_scalars.onnx", helper.make_graph(
    [helper.make_node("PRelu", ["x", "slope"], ["p"], name="prelu"),
     helper.make_node("Mul", ["p", "gain"], ["g"], name="gain"),
     helper.make_node("Add", ["g", "eps"], ["e"], name="eps"),
     helper.make_node("Mul", ["e", "half"], ["y"], name="half")],
    "folded_scalars", [vi("x", F, [2, 3, 4])], [vi("y", F, [2, 3, 4])],
    [numpy_helper.from_array(np.array([[[0.25]]], np.float32), "slope"),
     numpy_helper.from_array(np.array([1.5], np.float32), "gain"),
     numpy_helper.from_array(np.array([1e-3], np.float32), "eps"),
     numpy_helper.from_array(np.array(0.5, np.float32), "half")],
    value_info=[folded("slope", F, [1, 1, 1], ["act.weight", "val_30"]),
                folded("gain", F, [1], kind="PARAMETER"),
                folded("half", F, [], ["val_3", "val_4"])]))
reference("folded_scalars.onnx",
          {"x": scalar_rng.standard_normal((2, 3, 4)).astype(np.float32)})
# Tied tables as the TorchScript exporter writes them, without metadata
# (folded-params.test): `onnx::MatMul_7`, the transpose of the embedding
# `emb.weight` that a Gather reads, is its transpose; `onnx::MatMul_9`, the
# transpose of a table of zeros, and `proj.weight`, the transpose of
# `emb.weight` under a module's name, are params of their own.
tied_rng = np.random.default_rng(132)
emb = tied_rng.standard_normal((5, 3)).astype(np.float32)
save("script_tied.onnx", helper.make_graph(
    [helper.make_node("Gather", ["emb.weight", "ids"], ["e"], name="lookup"),
     helper.make_node("MatMul", ["e", "onnx::MatMul_7"], ["y"], name="head"),
     helper.make_node("MatMul", ["e", "proj.weight"], ["p"], name="proj"),
     helper.make_node("Gather", ["zeros.weight", "ids"], ["z0"],
                      name="zero_lookup"),
     helper.make_node("MatMul", ["z0", "onnx::MatMul_9"], ["z"],
                      name="zero_head")],
    "script_tied", [vi("ids", TensorProto.INT64, [4])],
    [vi("y", F, [4, 5]), vi("p", F, [4, 5]), vi("z", F, [4, 5])],
    [numpy_helper.from_array(emb, "emb.weight"),
     numpy_helper.from_array(np.ascontiguousarray(emb.T), "onnx::MatMul_7"),
     numpy_helper.from_array(np.ascontiguousarray(emb.T), "proj.weight"),
     numpy_helper.from_array(np.zeros((5, 3), np.float32), "zeros.weight"),
     numpy_helper.from_array(np.zeros((3, 5), np.float32), "onnx::MatMul_9")]))
reference("script_tied.onnx", {"ids": np.array([4, 0, 2, 4], np.int64)})
# Sequences (sequences.test): SplitToSequence of a param (run-time
# slices) by sizes, by one size (the last piece smaller) and into pieces of
# 1 without their axis; SequenceAt (a negative position too),
# SequenceInsert, SequenceErase, SequenceLength, SequenceConstruct and
# ConcatFromSequence (concatenated, and stacked along a new axis); a
# SplitToSequence of a Constant folds.
seq_rng = np.random.default_rng(133)
save("sequences.onnx", helper.make_graph(
    [helper.make_node("Mul", ["x", "w"], ["xw"], name="scale"),
     helper.make_node("Constant", [], ["table"], name="table",
                      value=numpy_helper.from_array(
                          np.arange(24, dtype=np.float32).reshape(3, 8))),
     helper.make_node("Gather", ["x", "first_col"], ["x_cols"],
                      name="first_col", axis=1),
     helper.make_node("SplitToSequence", ["xw", "sizes"], ["by_sizes"],
                      name="split_sizes", axis=1),
     helper.make_node("SplitToSequence", ["xw", "two"], ["by_two"],
                      name="split_two", axis=1),
     helper.make_node("SplitToSequence", ["xw"], ["rows"], name="split_rows",
                      axis=0, keepdims=0),
     helper.make_node("SequenceAt", ["by_sizes", "minus_one"], ["last"],
                      name="at_last"),
     helper.make_node("SequenceAt", ["by_two", "two"], ["odd"], name="at_2"),
     helper.make_node("SequenceErase", ["by_two", "zero"], ["erased"],
                      name="erase_first"),
     helper.make_node("SequenceInsert", ["erased", "x_cols"], ["inserted"],
                      name="insert_front_cols"),
     helper.make_node("SequenceInsert", ["inserted", "x_cols", "zero"],
                      ["inserted2"], name="insert_at_0"),
     helper.make_node("ConcatFromSequence", ["inserted2"], ["joined"],
                      name="join", axis=1),
     helper.make_node("ConcatFromSequence", ["rows"], ["stacked"],
                      name="stack", axis=-1, new_axis=1),
     helper.make_node("SequenceLength", ["by_two"], ["count"], name="length"),
     helper.make_node("SequenceConstruct", ["last", "odd"], ["pair"],
                      name="construct"),
     helper.make_node("ConcatFromSequence", ["pair"], ["pair_joined"],
                      name="join_pair", axis=1),
     helper.make_node("SplitToSequence", ["table", "four"], ["table_parts"],
                      name="split_const", axis=1),
     helper.make_node("SequenceAt", ["table_parts", "one"], ["table_1"],
                      name="at_const"),
     helper.make_node("Add", ["pair_joined", "table_1"], ["shifted"],
                      name="shift")],
    "sequences", [vi("x", F, [3, 5])],
    [vi("joined", F, [3, 5]), vi("stacked", F, [5, 3]),
     vi("count", TensorProto.INT64, []), vi("shifted", F, [3, 4])],
    [numpy_helper.from_array(
        seq_rng.standard_normal((3, 5)).astype(np.float32), "w"),
     ints("sizes", [2, 3]), numpy_helper.from_array(np.array(2, np.int64), "two"),
     numpy_helper.from_array(np.array(-1, np.int64), "minus_one"),
     numpy_helper.from_array(np.array(0, np.int64), "zero"),
     numpy_helper.from_array(np.array(1, np.int64), "one"),
     numpy_helper.from_array(np.array(4, np.int64), "four"),
     ints("first_col", [0])]))
reference("sequences.onnx",
          {"x": seq_rng.standard_normal((3, 5)).astype(np.float32)})
# SequenceLength is a scalar (its spec); ONNX's reference evaluator returns
# it as [1].
np.save(os.path.join(HERE, "sequences_count.npy"),
        np.load(os.path.join(HERE, "sequences_count.npy")).reshape(()))
# Sequences that cannot import (sequences.test): one as a graph output,
# one read by Add, a position past the end, a split that does not cover
# its axis.
def save_sequence_error(name, nodes, outputs, extra=()):
    save(name, helper.make_graph(
        [helper.make_node("SplitToSequence", ["x", "sizes"], ["parts"],
                         name="split", axis=1)] + nodes,
        name[:-len(".onnx")], [vi("x", F, [2, 5])], outputs,
        [ints("sizes", [2, 3]),
         numpy_helper.from_array(np.array(5, np.int64), "five")] +
        list(extra)), check=False)


save_sequence_error("seq_output.onnx", [], [helper.make_tensor_sequence_value_info("parts", F, None)])
save_sequence_error(
    "seq_into_add.onnx",
    [helper.make_node("Add", ["parts", "x"], ["y"], name="add")],
    [vi("y", F, [2, 5])])
save_sequence_error(
    "seq_bad_position.onnx",
    [helper.make_node("SequenceAt", ["parts", "five"], ["y"], name="at")],
    [vi("y", F, [2, 2])])
save("seq_bad_split.onnx", helper.make_graph(
    [helper.make_node("SplitToSequence", ["x", "sizes"], ["parts"],
                      name="split", axis=1),
     helper.make_node("SequenceAt", ["parts", "zero"], ["y"], name="at")],
    "seq_bad_split", [vi("x", F, [2, 5])], [vi("y", F, [2, 2])],
    [ints("sizes", [2, 2]),
     numpy_helper.from_array(np.array(0, np.int64), "zero")]), check=False)
# A BatchNormalization in training mode whose updated running mean is a
# graph output: amp-export-onnx --inference cannot drop it (export.test).
save("bn_training_stats.onnx", helper.make_graph(
    [helper.make_node("BatchNormalization", ["x", "s", "b", "m", "v"],
                      ["y", "mean", "var"], name="bn", training_mode=1)],
    "bn_training_stats", [vi("x", F, [2, 3, 4, 4])],
    [vi("y", F, [2, 3, 4, 4]), vi("mean", F, [3])],
    [numpy_helper.from_array(tied_rng.standard_normal(3).astype(np.float32),
                             name) for name in ("s", "b", "m")] +
    [numpy_helper.from_array(np.ones(3, np.float32), "v")]), opset=15)


# Models of opsets older than 9, which amp-import-onnx brings up to opset 9
# with ONNX's version converter (old-opsets.test). The expected outputs are
# computed with numpy from the old ops' definitions, not by a converter.
def save_old(name, graph, opset, check=True):
    save(name, graph, opset=opset, check=check, ir_version=3)


def np_conv_pad1(x, w, b):
    n, c, h, wd = x.shape
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    out = np.zeros((n, w.shape[0], h, wd), np.float64)
    for i in range(3):
        for j in range(3):
            out += np.einsum("nchw,oc->nohw", xp[:, :, i:i + h, j:j + wd],
                             w[:, :, i, j])
    return out + b[None, :, None, None]


old_w = {k: rng.standard_normal(s).astype(np.float32) * 0.5 for k, s in [
    ("conv.w", (4, 3, 3, 3)), ("conv.b", (4,)), ("bn.s", (4,)),
    ("bn.b", (4,)), ("bn.m", (4,)), ("slope", (4,)), ("chan", (4,)),
    ("fc.w", (36, 5)), ("fc.b", (5,))]}
old_w["bn.v"] = rng.uniform(0.5, 1.5, 4).astype(np.float32)
# Opset 6 (PyTorch's exporter until 2018): BatchNormalization-6 with
# is_test, PRelu-6 with a slope per channel, Add-6 with broadcast = 1 along
# axis 1, Gemm-6 with broadcast = 1, Dropout-6 with is_test.
save_old("old_cnn.onnx", helper.make_graph(
    [helper.make_node("Conv", ["x", "conv.w", "conv.b"], ["c"], name="conv",
                      pads=[1, 1, 1, 1], kernel_shape=[3, 3]),
     helper.make_node("BatchNormalization",
                      ["c", "bn.s", "bn.b", "bn.m", "bn.v"], ["bn"],
                      name="bn", epsilon=1e-3, is_test=1),
     helper.make_node("PRelu", ["bn", "slope"], ["pr"], name="prelu"),
     helper.make_node("Add", ["pr", "chan"], ["ad"], name="add_chan",
                      broadcast=1, axis=1),
     helper.make_node("MaxPool", ["ad"], ["mp"], name="pool",
                      kernel_shape=[2, 2], strides=[2, 2]),
     helper.make_node("Reshape", ["mp", "flat"], ["fl"], name="flatten"),
     helper.make_node("Gemm", ["fl", "fc.w", "fc.b"], ["g"], name="fc",
                      broadcast=1),
     helper.make_node("Dropout", ["g"], ["d"], name="drop", is_test=1,
                      ratio=0.5),
     helper.make_node("Softmax", ["d"], ["y"], name="softmax")],
    "old_cnn", [vi("x", F, [2, 3, 6, 6])], [vi("y", F, [2, 5])],
    [numpy_helper.from_array(v, k) for k, v in old_w.items()] +
    [ints("flat", [2, 36])]), opset=6)
x = rng.standard_normal((2, 3, 6, 6)).astype(np.float32)
c = np_conv_pad1(x.astype(np.float64), old_w["conv.w"], old_w["conv.b"])
bn = ((c - old_w["bn.m"][None, :, None, None]) /
      np.sqrt(old_w["bn.v"][None, :, None, None] + 1e-3) *
      old_w["bn.s"][None, :, None, None] + old_w["bn.b"][None, :, None, None])
pr = np.where(bn > 0, bn, bn * old_w["slope"][None, :, None, None])
ad = pr + old_w["chan"][None, :, None, None]
mp = ad.reshape(2, 4, 3, 2, 3, 2).max(axis=(3, 5))
g = mp.reshape(2, 36) @ old_w["fc.w"] + old_w["fc.b"]
e = np.exp(g - g.max(axis=1, keepdims=True))
np.save(os.path.join(HERE, "old_cnn_x.npy"), x)
np.save(os.path.join(HERE, "old_cnn_y.npy"),
        (e / e.sum(axis=1, keepdims=True)).astype(np.float32))

# Opset 7: Upsample-7's scales are an attribute (an input from opset 9).
save_old("old_upsample.onnx", helper.make_graph(
    [helper.make_node("Upsample", ["x"], ["y"], name="up", mode="nearest",
                      scales=[1.0, 1.0, 2.0, 3.0])],
    "old_upsample", [vi("x", F, [1, 2, 2, 3])], [vi("y", F, [1, 2, 4, 9])]),
    opset=7)
x = rng.standard_normal((1, 2, 2, 3)).astype(np.float32)
np.save(os.path.join(HERE, "old_upsample_x.npy"), x)
np.save(os.path.join(HERE, "old_upsample_y.npy"),
        np.repeat(np.repeat(x, 2, axis=2), 3, axis=3))

# What the checker or the converter refuses: an op of a later opset (Erf is
# opset 9's), a value nobody defines, Pad-1 (the converter has no adapter
# for it), and opset 0.
save_old("old_erf.onnx", helper.make_graph(
    [helper.make_node("Erf", ["x"], ["y"], name="erf")],
    "old_erf", [vi("x", F, [2])], [vi("y", F, [2])]), opset=7, check=False)
save_old("old_undefined.onnx", helper.make_graph(
    [helper.make_node("Relu", ["nobody"], ["y"], name="relu")],
    "old_undefined", [vi("x", F, [2])], [vi("y", F, [2])]), opset=6,
    check=False)
save_old("old_pad1.onnx", helper.make_graph(
    [helper.make_node("Pad", ["x"], ["y"], name="pad", paddings=[1, 1])],
    "old_pad1", [vi("x", F, [2])], [vi("y", F, [4])]), opset=1)
save_old("opset0.onnx", helper.make_graph(
    [helper.make_node("Relu", ["x"], ["y"], name="relu")],
    "opset0", [vi("x", F, [2])], [vi("y", F, [2])]), opset=0, check=False)


# Pad's modes edge, reflect and wrap, past the input's length and with
# negative pads (pad.test; ONNX's reference, which is numpy's np.pad).
def pad_model(name, x_shape, y_shape, mode, pads, opset=18, value=None):
    inits = [ints("pads", pads)]
    inputs = ["x", "pads"]
    if value is not None:
        inits.append(numpy_helper.from_array(np.array(value, np.float32),
                                             "value"))
        inputs.append("value")
    save(name, helper.make_graph(
        [helper.make_node("Pad", inputs, ["y"], name="pad", mode=mode)],
        name[:-len(".onnx")], [vi("x", F, x_shape)], [vi("y", F, y_shape)],
        inits), opset=opset)


pad_model("pad_reflect_long.onnx", [2, 3], [2, 12], "reflect", [0, 5, 0, 4])
reference("pad_reflect_long.onnx",
          {"x": rng.standard_normal((2, 3)).astype(np.float32)})
# ONNX's reference pads with np.pad, which takes no negative pads: these
# crop first, then pad.
def save_pad_crop(stem, x, crop, pads, **kwargs):
    np.save(os.path.join(HERE, stem + "_x.npy"), x)
    np.save(os.path.join(HERE, stem + "_y.npy"),
            np.pad(x[crop], pads, **kwargs))


pad_model("pad_edge_crop.onnx", [3, 4], [2, 5], "edge", [1, -1, -2, 2])
save_pad_crop("pad_edge_crop",
              rng.standard_normal((3, 4)).astype(np.float32),
              (slice(0, 1), slice(1, 4)), ((1, 0), (0, 2)), mode="edge")
pad_model("pad_wrap_long.onnx", [2, 3], [6, 14], "wrap", [3, 4, 1, 7],
          opset=19)
reference("pad_wrap_long.onnx",
          {"x": rng.standard_normal((2, 3)).astype(np.float32)})
pad_model("pad_reflect_one.onnx", [1, 3], [4, 3], "reflect", [2, 0, 1, 0])
reference("pad_reflect_one.onnx",
          {"x": rng.standard_normal((1, 3)).astype(np.float32)})
pad_model("pad_constant_crop.onnx", [3, 4], [3, 2], "constant",
          [-1, 1, 1, -3], value=2.0)
save_pad_crop("pad_constant_crop",
              rng.standard_normal((3, 4)).astype(np.float32),
              (slice(1, 3), slice(0, 1)), ((0, 1), (1, 0)),
              mode="constant", constant_values=2.0)
# Errors: an unknown mode, wrap before opset 19, a crop of more than the
# dimension, a pad past 2^30, and a reflection of more than 1024 pieces.
pad_model("pad_bad_mode.onnx", [2, 3], [2, 5], "symmetric", [0, 1, 0, 1])
pad_model("pad_wrap_18.onnx", [2, 3], [2, 5], "wrap", [0, 1, 0, 1])
pad_model("pad_crop_all.onnx", [2, 3], [2, 1], "constant", [0, -5, 0, 3])
pad_model("pad_huge.onnx", [2, 3], [2, 3 + (1 << 40)], "edge",
          [0, 1 << 40, 0, 0])
pad_model("pad_many_runs.onnx", [2, 3], [2, 3003], "reflect",
          [0, 3000, 0, 0])


# Pow with a tensor exponent (pow.test): an initializer of integer-valued
# exponents (negative bases, 0 and -1 among them), a run-time exponent,
# and an INT64 exponent converted to FLOAT.
save("pow_tensor.onnx", helper.make_graph(
    [helper.make_node("Pow", ["x", "e"], ["y"], name="pow_init"),
     helper.make_node("Pow", ["a", "b"], ["z"], name="pow_runtime"),
     helper.make_node("Pow", ["x", "k"], ["w"], name="pow_int")],
    "pow_tensor",
    [vi("x", F, [3, 4]), vi("a", F, [3, 4]), vi("b", F, [3, 4]),
     vi("k", TensorProto.INT64, [4])],
    [vi("y", F, [3, 4]), vi("z", F, [3, 4]), vi("w", F, [3, 4])],
    [numpy_helper.from_array(np.array([2, 3, -1, 0], np.float32), "e")]))
reference("pow_tensor.onnx", {
    "x": np.array([[-2, 1.5, 0.5, -3], [0, -1, 4, 0], [1, 2, -0.5, 7]],
                  np.float32),
    "a": rng.uniform(0.25, 3, (3, 4)).astype(np.float32),
    "b": rng.uniform(-2, 2.5, (3, 4)).astype(np.float32),
    "k": np.array([3, -2, 0, 1], np.int64)})
# Pow of integer bases computed at run time by constant exponents
# (pow.test): INT32 by per-column exponents (0, 1, 5, 31: 2^31 and 3^31
# wrap), INT64 by one FLOAT exponent 3.0, and INT32 by INT64 exponents
# whose largest is 40 (its powers of 3 wrap); the values are numpy's
# (wrapping as the type, which ONNX's reference does through float64);
# an exponent -1 and one of 0.5 are errors.
save("pow_int.onnx", helper.make_graph(
    [helper.make_node("Pow", ["i", "cols"], ["p"], name="pow_cols"),
     helper.make_node("Pow", ["l", "three"], ["q"], name="pow_three"),
     helper.make_node("Pow", ["i", "big"], ["r"], name="pow_big")],
    "pow_int",
    [vi("i", TensorProto.INT32, [3, 4]), vi("l", TensorProto.INT64, [3])],
    [vi("p", TensorProto.INT32, [3, 4]), vi("q", TensorProto.INT64, [3]),
     vi("r", TensorProto.INT32, [3, 4])],
    [numpy_helper.from_array(np.array([0, 1, 5, 31], np.int32), "cols"),
     numpy_helper.from_array(np.array(3.0, np.float32), "three"),
     numpy_helper.from_array(np.array([[2], [40], [7]], np.int64), "big")]),
    opset=15)
pow_i = np.array([[2, -3, 3, 2], [0, 5, -2, 3], [7, 1, -1, -2]], np.int32)
pow_l = np.array([-4, 1 << 20, 9], np.int64)
np.save(os.path.join(HERE, "pow_int_i.npy"), pow_i)
np.save(os.path.join(HERE, "pow_int_l.npy"), pow_l)
with np.errstate(over="ignore"):
    np.save(os.path.join(HERE, "pow_int_p.npy"),
            np.power(pow_i, np.array([0, 1, 5, 31], np.int32)))
    np.save(os.path.join(HERE, "pow_int_q.npy"), np.power(pow_l, 3))
    np.save(os.path.join(HERE, "pow_int_r.npy"),
            np.power(pow_i, np.array([[2], [40], [7]], np.int32)))
for stem, exponent in (("pow_int_negative", np.array([2, -1], np.int64)),
                       ("pow_int_fraction", np.array(0.5, np.float32))):
    save(stem + ".onnx", helper.make_graph(
        [helper.make_node("Pow", ["i", "e"], ["y"], name="pow")], stem,
        [vi("i", TensorProto.INT32, [2])],
        [vi("y", TensorProto.INT32, [2])],
        [numpy_helper.from_array(exponent, "e")]), opset=15)


# Gather at indices computed at run time that may be negative (a length
# minus one): they count from the end (gathers.test).
save("gather_computed_negative.onnx", helper.make_graph(
    [helper.make_node("Sub", ["k", "one"], ["idx"], name="minus_one"),
     helper.make_node("Gather", ["x", "idx"], ["y"], name="gather", axis=1)],
    "gather_computed_negative",
    [vi("x", F, [3, 5]), vi("k", TensorProto.INT64, [2])],
    [vi("y", F, [3, 2])], [ints("one", [1])]))
reference("gather_computed_negative.onnx", {
    "x": rng.standard_normal((3, 5)).astype(np.float32),
    "k": np.array([0, 3], np.int64)})
np.save(os.path.join(HERE, "gather_computed_negative_k_bad.npy"),
        np.array([-5, 1], np.int64))


# tf_crop_and_resize whose extrapolation values (9000 x 9000) exceed the
# limit on constants: an error before the axis weights are built
# (resize.test).
resize_model("resize_crop_huge", [1, 1, 4, 5], [1, 1, 9000, 9000],
             ["roi", "", "sizes"],
             [floats("roi", [0, 0, -0.2, 0.3, 1, 1, 0.8, 1.4]),
              ints("sizes", [1, 1, 9000, 9000])], mode="linear",
             coordinate_transformation_mode="tf_crop_and_resize",
             extrapolation_value=2.5)


# Floor, Ceil, Round and Sign of a run-time FLOAT value: the nn step
# functions, against ONNX's reference on halves (Round's ties to even),
# signed zeros, infinities and NaN; Sign of a run-time INT64 value, as
# numpy's (step.test).
STEP_OPS = ("Floor", "Ceil", "Round", "Sign")
save("step_runtime.onnx", helper.make_graph(
    [helper.make_node(op, ["x"], [op.lower()], name=op.lower())
     for op in STEP_OPS],
    "step_runtime", [vi("x", F, [3, 8])],
    [vi(op.lower(), F, [3, 8]) for op in STEP_OPS]))
reference("step_runtime.onnx", {"x": np.concatenate([
    np.array([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, -0.0, 0.0,
              np.inf, -np.inf, np.nan, 3.75], np.float32),
    (rng.standard_normal(12) * 4).astype(np.float32)]).reshape(3, 8)})
save("sign_runtime_int.onnx", helper.make_graph(
    [helper.make_node("Sign", ["k"], ["y"], name="sign")],
    "sign_runtime_int", [vi("k", TensorProto.INT64, [4])],
    [vi("y", TensorProto.INT64, [4])]))
reference("sign_runtime_int.onnx",
          {"k": np.array([5, -3, 0, np.iinfo(np.int64).min], np.int64)})


# 3-D windows the importer refuses (conv3d.test): a depth pad as large as
# the window and a kernel deeper than 1024.
save("conv3d_pad_large.onnx", helper.make_graph(
    [helper.make_node("Conv", ["x", "w"], ["y"], name="conv", pads=[3, 0, 0,
                                                                    3, 0, 0])],
    "conv3d_pad_large", [vi("x", F, [1, 1, 4, 4, 4])],
    [vi("y", F, [1, 2, 8, 2, 2])],
    [numpy_helper.from_array(np.ones((2, 1, 3, 3, 3), np.float32), "w")]))
save("maxpool3d_deep.onnx", helper.make_graph(
    [helper.make_node("MaxPool", ["x"], ["y"], name="pool",
                      kernel_shape=[2000, 1, 1])],
    "maxpool3d_deep", [vi("x", F, [1, 1, 2000, 2, 2])],
    [vi("y", F, [1, 1, 1, 2, 2])]))


# FLOAT16, BFLOAT16 and DOUBLE lift to f32 (float-types.test): Casts to
# FLOAT16 and BFLOAT16 of a run-time FLOAT value and of an INT64 one (2049
# rounds to 2048), a Cast to DOUBLE, a folded Cast of a constant, and
# FLOAT16 (int32_data) and BFLOAT16 (raw_data) initializers; ONNX's
# reference outputs saved as f32.
def bf16_bits(a):
    u = np.asarray(a, np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


cast_x = np.array([[1 + 2.0**-11, 1 + 3 * 2.0**-11, 70000.0, -1e-8],
                   [1 + 2.0**-8, 1 + 3 * 2.0**-8, 3.0e38, 0.1]], np.float32)
cast_c = np.array([0.1, 65520.0, -2.0**-25, 1 / 3], np.float32)
bf16_init = onnx.TensorProto()
bf16_init.name = "wb"
bf16_init.data_type = TensorProto.BFLOAT16
bf16_init.dims.extend([4])
bf16_init.raw_data = bf16_bits([0.1, -2.5, 1e30, 3.0]).tobytes()
save("cast_floats.onnx", helper.make_graph(
    [helper.make_node("Constant", [], ["c"], name="const",
                      value=numpy_helper.from_array(cast_c)),
     helper.make_node("Cast", ["x"], ["h"], name="to_half",
                      to=TensorProto.FLOAT16),
     helper.make_node("Cast", ["x"], ["b"], name="to_bf16",
                      to=TensorProto.BFLOAT16),
     helper.make_node("Cast", ["x"], ["d"], name="to_double",
                      to=TensorProto.DOUBLE),
     helper.make_node("Cast", ["k"], ["kh"], name="ids_to_half",
                      to=TensorProto.FLOAT16),
     helper.make_node("Cast", ["c"], ["ch"], name="const_to_half",
                      to=TensorProto.FLOAT16),
     helper.make_node("Identity", ["wh"], ["wh_out"], name="half_init"),
     helper.make_node("Identity", ["wb"], ["wb_out"], name="bf16_init")],
    "cast_floats", [vi("x", F, [2, 4]), vi("k", TensorProto.INT64, [4])],
    [vi("h", TensorProto.FLOAT16, [2, 4]), vi("b", TensorProto.BFLOAT16, [2, 4]),
     vi("d", TensorProto.DOUBLE, [2, 4]), vi("kh", TensorProto.FLOAT16, [4]),
     vi("ch", TensorProto.FLOAT16, [4]), vi("wh_out", TensorProto.FLOAT16, [4]),
     vi("wb_out", TensorProto.BFLOAT16, [4])],
    [helper.make_tensor("wh", TensorProto.FLOAT16, [4],
                        np.array([0.1, -2.5, 60000.0, 3.0], np.float16)),
     bf16_init]))
cast_inputs = {"x": cast_x, "k": np.array([2049, -3, 0, 70000], np.int64)}
cast_outputs = ReferenceEvaluator(
    onnx.load(os.path.join(HERE, "cast_floats.onnx"))).run(None, cast_inputs)
for name, value in cast_inputs.items():
    np.save(os.path.join(HERE, "cast_floats_%s.npy" % name), value)
for name, value in zip(["h", "b", "d", "kh", "ch", "wh_out", "wb_out"],
                       cast_outputs):
    np.save(os.path.join(HERE, "cast_floats_%s.npy" % name),
            np.asarray(value).astype(np.float32))

# TopK (topk.test): nn.topk's positions and the values gathered at them,
# along the last axis (ties in position order), along axis 0 smallest
# first, of INT64 data (sorted = 0); TopK-1's attribute k
# in an opset-9 model; K computed at run time and K larger than the axis
# are errors.
topk_rng = np.random.default_rng(40)
save("topk.onnx", helper.make_graph(
    [helper.make_node("TopK", ["x", "k3"], ["v", "i"], name="topk_last"),
     helper.make_node("TopK", ["x", "k2"], ["vs", "is"], name="topk_smallest",
                      axis=0, largest=0),
     helper.make_node("TopK", ["n", "k2"], ["vn", "in"], name="topk_int",
                      axis=1, sorted=0)],
    "topk",
    [vi("x", F, [3, 6]), vi("n", TensorProto.INT64, [2, 5])],
    [vi("v", F, [3, 3]), vi("i", TensorProto.INT64, [3, 3]),
     vi("vs", F, [2, 6]), vi("is", TensorProto.INT64, [2, 6]),
     vi("vn", TensorProto.INT64, [2, 2]), vi("in", TensorProto.INT64, [2, 2])],
    [ints("k3", [3]), ints("k2", [2])]))
reference("topk.onnx",
          {"x": topk_rng.integers(-3, 4, (3, 6)).astype(np.float32),
           "n": np.array([[5, -(1 << 62), 5, 1 << 61, 0],
                          [-1, -1, 7, -1, 7]], np.int64)})
save("topk_v1.onnx", helper.make_graph(
    [helper.make_node("TopK", ["x"], ["v", "i"], name="topk", k=2, axis=1)],
    "topk_v1", [vi("x", F, [3, 6])],
    [vi("v", F, [3, 2]), vi("i", TensorProto.INT64, [3, 2])]), opset=9)
reference("topk_v1.onnx",
          {"x": topk_rng.standard_normal((3, 6)).astype(np.float32)})
save("topk_runtime_k.onnx", helper.make_graph(
    [helper.make_node("TopK", ["x", "k"], ["v", "i"], name="topk")],
    "topk_runtime_k", [vi("x", F, [3, 6]), vi("k", TensorProto.INT64, [1])],
    [vi("v", F, [3, None]), vi("i", TensorProto.INT64, [3, None])]))
save("topk_k_too_large.onnx", helper.make_graph(
    [helper.make_node("TopK", ["x", "k"], ["v", "i"], name="topk")],
    "topk_k_too_large", [vi("x", F, [3, 6])],
    [vi("v", F, [3, 7]), vi("i", TensorProto.INT64, [3, 7])],
    [ints("k", [7])]), check=False)

# ScatterElements at indices computed at run time (scatter-runtime.test):
# reduction none along axis 0 (a negative index among them; no element
# written twice, which ONNX leaves undefined), reduction add along axis 1
# with an element written twice; reduction mul and INT64 data at run-time
# indices are errors.
scatter_rng = np.random.default_rng(41)
save("scatter_runtime.onnx", helper.make_graph(
    [helper.make_node("ScatterElements", ["x", "rows", "u"], ["none"],
                      name="scatter_none", axis=0),
     helper.make_node("ScatterElements", ["x", "cols", "v"], ["add"],
                      name="scatter_add", axis=1, reduction="add")],
    "scatter_runtime",
    [vi("x", F, [3, 4]), vi("rows", TensorProto.INT64, [2, 4]),
     vi("u", F, [2, 4]), vi("cols", TensorProto.INT64, [3, 2]),
     vi("v", F, [3, 2])],
    [vi("none", F, [3, 4]), vi("add", F, [3, 4])]))
reference("scatter_runtime.onnx",
          {"x": scatter_rng.standard_normal((3, 4)).astype(np.float32),
           "rows": np.array([[0, -1, 1, 2], [1, 0, -3, 1]], np.int64),
           "u": scatter_rng.standard_normal((2, 4)).astype(np.float32),
           "cols": np.array([[3, 3], [0, -2], [1, 0]], np.int64),
           "v": scatter_rng.standard_normal((3, 2)).astype(np.float32)})
for stem, dtype, reduction in (("scatter_runtime_mul", F, "mul"),
                               ("scatter_runtime_int", TensorProto.INT64,
                                "none")):
    save(stem + ".onnx", helper.make_graph(
        [helper.make_node("ScatterElements", ["x", "idx", "u"], ["y"],
                          name="scatter", axis=1, reduction=reduction)],
        stem,
        [vi("x", dtype, [2, 3]), vi("idx", TensorProto.INT64, [2, 1]),
         vi("u", dtype, [2, 1])], [vi("y", dtype, [2, 3])]))

# Dropout in training mode (training_mode = true, as PyTorch's
# TrainingMode.TRAINING export writes it): without a seed attribute, then
# with seed 7 on the first's output; the first's mask is an output. And a
# ratio of 1, which training mode refuses.
save("dropout_train.onnx", helper.make_graph(
    [helper.make_node("Dropout", ["x", "ratio", "train"], ["y", "mask"],
                      name="drop1"),
     helper.make_node("Dropout", ["y", "ratio", "train"], ["z"],
                      name="drop2", seed=7)],
    "dropout_train", [vi("x", F, [4, 8])],
    [vi("y", F, [4, 8]), vi("mask", TensorProto.BOOL, [4, 8]),
     vi("z", F, [4, 8])],
    [numpy_helper.from_array(np.array(0.25, np.float32), "ratio"),
     numpy_helper.from_array(np.array(True), "train")]))
save("dropout_train_ratio_one.onnx", helper.make_graph(
    [helper.make_node("Dropout", ["x", "ratio", "train"], ["y"],
                      name="drop")],
    "dropout_train_ratio_one", [vi("x", F, [4])], [vi("y", F, [4])],
    [numpy_helper.from_array(np.array(1.0, np.float32), "ratio"),
     numpy_helper.from_array(np.array(True), "train")]))

# ReduceLogSumExp at extremes, where exp(x) alone overflows or every term
# is -inf, and ReduceL1 and ReduceLogSum beside it (opset 18: axes as an
# input).
LSE_X = np.array([[1000.0, 1000.0, 999.0], [-np.inf, -np.inf, -np.inf],
                  [np.inf, 1.0, 2.0], [0.0, -1000.0, 3.0]], np.float32)
save("reduce_lse.onnx", helper.make_graph(
    [helper.make_node("ReduceLogSumExp", ["x", "axes"], ["lse"], name="lse",
                      keepdims=0),
     helper.make_node("ReduceL1", ["x2", "axes"], ["l1"], name="l1"),
     helper.make_node("ReduceLogSum", ["x2", "axes"], ["ls"], name="ls",
                      keepdims=0)],
    "reduce_lse", [vi("x", F, [4, 3]), vi("x2", F, [4, 3])],
    [vi("lse", F, [4]), vi("l1", F, [4, 1]), vi("ls", F, [4])],
    [ints("axes", [1])]), opset=18)
reference("reduce_lse.onnx",
          {"x": LSE_X,
           "x2": np.abs(rng.standard_normal((4, 3))).astype(np.float32)})
# ONNX's reference gives NaN for the row of -inf (its shift computes
# -inf - -inf); log(sum(exp(x))) there is log(0) = -inf.
LSE = np.load(os.path.join(HERE, "reduce_lse_lse.npy"))
LSE[1] = -np.inf
np.save(os.path.join(HERE, "reduce_lse_lse.npy"), LSE)

# DepthToSpace and SpaceToDepth that the importer rejects: a blocksize
# whose square does not divide C (or that does not divide H and W), an
# unknown mode.
for stem, op, name, shape, attrs in (
        ("depth_to_space_bad", "DepthToSpace", "d2s", [1, 8, 2, 2],
         dict(blocksize=3)),
        ("depth_to_space_mode", "DepthToSpace", "d2s", [1, 8, 2, 2],
         dict(blocksize=2, mode="XYZ")),
        ("space_to_depth_bad", "SpaceToDepth", "s2d", [1, 2, 4, 4],
         dict(blocksize=3))):
    save(stem + ".onnx", helper.make_graph(
        [helper.make_node(op, ["x"], ["y"], name=name, **attrs)], stem,
        [vi("x", F, shape)], [vi("y", F, None)]), check=False)

# OneHot of run-time ids (negative ones wrap, one past the depth matches
# nothing) with INT64 values on a new middle axis; LpNormalization (p 1)
# and MeanVarianceNormalization of run-time values, checked against ONNX's
# reference.
save("onehot_lpnorm.onnx", helper.make_graph(
    [helper.make_node("OneHot", ["ids", "depth", "values"], ["hot"],
                      name="hot", axis=1),
     helper.make_node("LpNormalization", ["x"], ["l1"], name="l1", axis=0,
                      p=1),
     helper.make_node("MeanVarianceNormalization", ["x"], ["mvn"],
                      name="mvn", axes=[1])],
    "onehot_lpnorm", [vi("ids", TensorProto.INT64, [2, 3]),
                      vi("x", F, [3, 5])],
    [vi("hot", TensorProto.INT64, [2, 4, 3]), vi("l1", F, [3, 5]),
     vi("mvn", F, [3, 5])],
    [numpy_helper.from_array(np.array(4, np.int64), "depth"),
     numpy_helper.from_array(np.array([-1, 7], np.int64), "values")]),
    opset=22)
OH_X = rng.standard_normal((3, 5)).astype(np.float32)
OH_X[:, 2] = 0.0
reference("onehot_lpnorm.onnx",
          {"ids": np.array([[0, 3, -1], [-4, 4, 2]], np.int64), "x": OH_X})
# ONNX 1.23's reference sums x, not |x|, for p = 1 (its node tests' inputs
# are not negative); the L1 norm is the sum of |x|. A zero column stays
# zeros, as the reference has it.
L1 = np.abs(OH_X).sum(axis=0, keepdims=True)
np.save(os.path.join(HERE, "onehot_lpnorm_l1.npy"),
        np.where(L1 == 0, 0, OH_X / np.where(L1 == 0, 1, L1)).astype(np.float32))

# OneHot, Hardmax, LpNormalization and MeanVarianceNormalization that the
# importer rejects.
for stem, op, inputs, attrs, inits in (
        ("onehot_depth", "OneHot", ["ids", "depth", "values"], {},
         [numpy_helper.from_array(np.array(0, np.int64), "depth"),
          numpy_helper.from_array(np.array([0.0, 1.0], np.float32),
                                  "values")]),
        ("onehot_values", "OneHot", ["ids", "depth", "values"], {},
         [numpy_helper.from_array(np.array(3, np.int64), "depth"),
          numpy_helper.from_array(np.array([0.0, 1.0, 2.0], np.float32),
                                  "values")]),
        ("onehot_dynamic_depth", "OneHot", ["ids", "ids", "values"], {},
         [numpy_helper.from_array(np.array([0.0, 1.0], np.float32),
                                  "values")]),
        ("lpnorm_p3", "LpNormalization", ["x"], dict(p=3), []),
        ("mvn_axes", "MeanVarianceNormalization", ["x"], dict(axes=[1, -1]),
         []),
        ("hardmax_axis", "Hardmax", ["x"], dict(axis=2), []),
        ("onehot_huge_depth", "OneHot", ["ids", "depth", "values"], {},
         [numpy_helper.from_array(np.array(2 ** 62, np.int64), "depth"),
          numpy_helper.from_array(np.array([0.0, 1.0], np.float32),
                                  "values")]),
        ("hardmax_huge", "Hardmax", ["x"], {}, [])):
    graph_inputs = ([vi("ids", TensorProto.INT64, [3])] if op == "OneHot"
                    else [vi("x", F, [2, 2 ** 40 if "huge" in stem else 3])])
    save(stem + ".onnx", helper.make_graph(
        [helper.make_node(op, inputs, ["y"], name="n", **attrs)], stem,
        graph_inputs, [vi("y", F, None)], inits), opset=22, check=False)
