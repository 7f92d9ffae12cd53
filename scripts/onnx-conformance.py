#!/usr/bin/env python3
"""Runs ONNX's backend node tests of the supported ops through amp.

For every case of a supported op (data/onnx, scripts/get-onnx-tests.sh)
it imports model.onnx with `amp-import-onnx --constants` and runs the
imported @forward with `amp-run --function forward --precision f32` on the
case's test_data_set_0/input_*.pb, comparing each result with output_*.pb
(--expected-output, --tolerance). The model suites of the same wheel run the
same way, every case of each: PyTorch layers and operators exported by
PyTorch's exporter of 2018 at opset 6 (pytorch-converted, pytorch-operator;
amp-import-onnx brings them up to opset 9) and small hand-built models
(simple). It prints one line per case and a summary per op or suite;
--markdown FILE writes the node tests' table of docs/onnx.md,
--markdown-models FILE the model suites'. Standard library only.

    scripts/onnx-conformance.py [--build build] [--jobs 2] [--ops Conv,Relu]
        [--suites node,pytorch-converted,pytorch-operator,simple]
        [--markdown table.md] [--markdown-models models.md]
        [--expected passing.txt]

Exit code 1 when a case fails that docs/onnx.md lists as passing
(--expected FILE, one case name per line), else 0.
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "data", "onnx", "onnx", "backend", "test",
                    "data")
NODE = os.path.join(DATA, "node")
# The model suites: every case of each runs; a case is named
# <suite>/<case directory>.
MODEL_SUITES = ("pytorch-converted", "pytorch-operator", "simple")

# Each supported op and the node-test cases that exercise it (a regex on the
# case directory's name; `_expanded` cases, which test function bodies built
# of other ops, are left out).
OPS = {
    "Abs": r"test_abs$",
    "Acos": r"test_acos(_example)?$",
    "Acosh": r"test_acosh(_example)?$",
    "AffineGrid": r"test_affine_grid_",
    "Add": r"test_add(_bcast|_u?int(8|16|32|64))?$",
    "And": r"test_and",
    "Asin": r"test_asin(_example)?$",
    "Asinh": r"test_asinh(_example)?$",
    "Atan": r"test_atan(_example)?$",
    "Atanh": r"test_atanh(_example)?$",
    "Attention": r"test_attention_",
    "AveragePool": r"test_averagepool_",
    "BlackmanWindow": r"test_blackmanwindow(_symmetric)?$",
    "BatchNormalization": r"test_batchnorm_",
    "Cast": r"test_cast_",
    "CastLike": r"test_castlike_",
    "Celu": r"test_celu$",
    "Clip": r"test_clip",
    "Col2Im": r"test_col2im",
    "Concat": r"test_concat_",
    "Constant": r"test_constant$",
    "ConstantOfShape": r"test_constantofshape_",
    "Conv": r"test_(basic_conv_|conv_with_)",
    "ConvTranspose": r"test_convtranspose",
    "ArgMax": r"test_argmax_",
    "ArgMin": r"test_argmin_",
    "Ceil": r"test_ceil(_example)?$",
    "Cos": r"test_cos(_example)?$",
    "Cosh": r"test_cosh(_example)?$",
    "CumSum": r"test_cumsum_",
    "DepthToSpace": r"test_depthtospace_",
    "Div": r"test_div(_bcast|_example|_u?int(8|16|32|64))?$",
    "DFT": r"test_dft",
    "Dropout": r"test_dropout_",
    "Einsum": r"test_einsum_",
    "Elu": r"test_elu",
    "Equal": r"test_equal",
    "Erf": r"test_erf$",
    "Exp": r"test_exp(_example)?$",
    "EyeLike": r"test_eyelike_",
    "Expand": r"test_expand_",
    "Flatten": r"test_flatten_",
    "Floor": r"test_floor(_example)?$",
    "Gather": r"test_gather_[0-9n]",
    "GatherElements": r"test_gather_elements_",
    "GatherND": r"test_gathernd_",
    "GridSample": r"test_gridsample",
    "Gelu": r"test_gelu_",
    "Gemm": r"test_gemm_",
    "GlobalAveragePool": r"test_globalaveragepool",
    "GlobalMaxPool": r"test_globalmaxpool",
    "Greater": r"test_greater(_bcast|_u?int(8|16|32|64))?$",
    "GroupNormalization": r"test_group_normalization_",
    "GreaterOrEqual": r"test_greater_equal",
    "GRU": r"test_gru_",
    "Hardmax": r"test_hardmax_",
    "HammingWindow": r"test_hammingwindow(_symmetric)?$",
    "HannWindow": r"test_hannwindow(_symmetric)?$",
    "HardSigmoid": r"test_hardsigmoid",
    "HardSwish": r"test_hardswish$",
    "Identity": r"test_identity$",
    "InstanceNormalization": r"test_instancenorm_",
    "IsInf": r"test_isinf",
    "IsNaN": r"test_isnan",
    "LayerNormalization": r"test_layer_normalization_",
    "LeakyRelu": r"test_leakyrelu",
    "Less": r"test_less(_bcast|_u?int(8|16|32|64))?$",
    "LessOrEqual": r"test_less_equal",
    "Log": r"test_log(_example)?$",
    "LogSoftmax": r"test_logsoftmax_",
    "LpNormalization": r"test_(l1|l2|lp)normalization_",
    "LpPool": r"test_lppool_",
    "LRN": r"test_lrn",
    "LSTM": r"test_lstm_",
    "MatMul": r"test_matmul_",
    "Max": r"test_max_",
    "MaxPool": r"test_maxpool_",
    "MelWeightMatrix": r"test_melweightmatrix$",
    "Mean": r"test_mean_",
    "MeanVarianceNormalization": r"test_mvn$",
    "Min": r"test_min_",
    "Mod": r"test_mod_",
    "Mish": r"test_mish$",
    "Mul": r"test_mul(_bcast|_example|_u?int(8|16|32|64))?$",
    "Neg": r"test_neg(_example)?$",
    "NegativeLogLikelihoodLoss": r"test_nllloss_",
    "NonZero": r"test_nonzero_example$",
    "Not": r"test_not_",
    "OneHot": r"test_onehot_",
    "Or": r"test_or[0-9_]",
    "Pad": r"test_(constant_pad|edge_pad|reflect_pad|wrap_pad)",
    "Pow": r"test_pow",
    "PRelu": r"test_prelu_",
    "Range": r"test_range_(float|int32)_type_(positive|negative)_delta$",
    "Reciprocal": r"test_reciprocal",
    "ReduceL1": r"test_reduce_l1_",
    "ReduceL2": r"test_reduce_l2_",
    "ReduceLogSum": r"test_reduce_log_sum_(asc|desc|default|empty|negative)",
    "ReduceLogSumExp": r"test_reduce_log_sum_exp_",
    "ReduceMax": r"test_reduce_max_",
    "ReduceMean": r"test_reduce_mean_",
    "ReduceMin": r"test_reduce_min_",
    "ReduceProd": r"test_reduce_prod_",
    "ReduceSum": r"test_reduce_sum_(default|do_not|empty|keepdims|negative)",
    "ReduceSumSquare": r"test_reduce_sum_square_",
    "Relu": r"test_relu$",
    "ReverseSequence": r"test_reversesequence_",
    "RNN": r"test_(simple_rnn|rnn)_",
    "Reshape": r"test_reshape_",
    "Resize": r"test_resize_",
    "RMSNormalization": r"test_rms_normalization_",
    "RotaryEmbedding": r"test_rotary_embedding",
    "Round": r"test_round$",
    "Scatter": r"test_scatter_with(out)?_axis$",
    "ScatterElements": r"test_scatter_elements_",
    "ScatterND": r"test_scatternd",
    "Selu": r"test_selu",
    "Shape": r"test_shape",
    "Shrink": r"test_shrink_",
    "Sigmoid": r"test_sigmoid",
    "Sign": r"test_sign$",
    "Sin": r"test_sin(_example)?$",
    "Sinh": r"test_sinh(_example)?$",
    "Size": r"test_size",
    "Slice": r"test_slice",
    "Softmax": r"test_softmax_",
    "SoftmaxCrossEntropyLoss": r"test_sce_",
    "Softplus": r"test_softplus",
    "Softsign": r"test_softsign",
    "Split": r"test_split_(?!to_sequence)",
    "SplitToSequence": r"test_split_to_sequence",
    "SequenceInsert": r"test_sequence_insert",
    "SpaceToDepth": r"test_spacetodepth",
    "STFT": r"test_stft",
    "Sqrt": r"test_sqrt",
    "Squeeze": r"test_squeeze",
    "Sub": r"test_sub(_bcast|_example|_u?int(8|16|32|64))?$",
    "Sum": r"test_sum_",
    "Swish": r"test_swish$",
    "Tan": r"test_tan(_example)?$",
    "Tanh": r"test_tanh",
    "ThresholdedRelu": r"test_thresholdedrelu",
    "Tile": r"test_tile",
    "Trilu": r"test_tri[lu]",
    "TopK": r"test_top_k",
    "Transpose": r"test_transpose_",
    "Unsqueeze": r"test_unsqueeze",
    "Upsample": r"test_upsample_",
    "Where": r"test_where_",
    "Xor": r"test_xor",
}


# Cases whose expected outputs ONNX 1.23 corrected without a new opset
# (the Attention errata: the softcap applies before the mask, and
# qk_matmul_output_mode 1 is the scores after the softcap, before the
# mask), one per line in ERRATA: the importer implements the corrected
# semantics, which test/Import/attention-errata.test checks against ONNX
# 1.23's reference on these very models, so they are reported as
# superseded, not failing.
ERRATA = os.path.join(ROOT, "test", "Import", "Inputs", "attention-errata.txt")
with open(ERRATA) as _f:
    SUPERSEDED = {line.strip(): "the data predates ONNX 1.23's Attention "
                  "errata" for line in _f if line.strip()}
# LpNormalization of a line of zeros: ONNX 1.23's reference gives zeros,
# the data of 1.19.1 NaN (0 / 0); the importer gives zeros, which
# test/Import/onehot-lpnorm.test checks.
SUPERSEDED["test_l2normalization_axis_0"] = (
    "ONNX 1.23's reference gives zeros for a line of zeros, the data NaN")

# ONNX's element types whose outputs are rounded to 16 bits: FLOAT16 and
# BFLOAT16. amp computes in f32, so such an expected output is only as
# close as its rounding: compared to within FLOAT16_TOLERANCE (twice an
# f16's relative half-ulp, 2^-11).
FLOAT16_TYPES = (10, 16)
FLOAT16_TOLERANCE = 1e-3


def _varint(data, i):
    value, shift = 0, 0
    while True:
        byte = data[i]
        i += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, i


def tensor_data_type(path):
    """The data_type (field 2) of the TensorProto file `path`, or 0."""
    with open(path, "rb") as f:
        data = f.read()
    i = 0
    while i < len(data):
        key, i = _varint(data, i)
        field, wire = key >> 3, key & 7
        if wire == 0:
            value, i = _varint(data, i)
            if field == 2:
                return value
        elif wire == 1:
            i += 8
        elif wire == 2:
            size, i = _varint(data, i)
            i += size
        elif wire == 5:
            i += 4
        else:
            return 0
    return 0


def cases_of(op):
    pattern = re.compile(OPS[op])
    return sorted(c for c in os.listdir(NODE)
                  if pattern.match(c) and "_expanded" not in c)


def first_line(text):
    for line in text.splitlines():
        if "error" in line:
            # Without the tool's name and the model's path.
            return re.sub(r"^[\w-]+: error: (\S*model\.onnx: )?", "",
                          line.strip())
    lines = text.strip().splitlines()
    return lines[-1] if lines else ""


def index_of(name):
    return int(re.findall(r"\d+", name)[0])


def cases_of_suite(suite):
    return sorted("%s/%s" % (suite, c)
                  for c in os.listdir(os.path.join(DATA, suite)))


def case_dir_of(case):
    """A node test's directory (its bare name) or a model suite's case's."""
    return os.path.join(DATA if "/" in case else NODE, case)


def run_case(build, case, tolerance):
    """Returns (status, message): pass, unsupported (import error), fail, or
    superseded (a SUPERSEDED case that differs from its outdated data)."""
    case_dir = case_dir_of(case)
    data = os.path.join(case_dir, "test_data_set_0")
    inputs = sorted((f for f in os.listdir(data) if f.startswith("input_")),
                    key=index_of)
    outputs = sorted((f for f in os.listdir(data) if f.startswith("output_")),
                     key=index_of)
    bound = {}  # graph input position -> name, bound with --constant-input
    with tempfile.TemporaryDirectory() as tmp:
        mlir = os.path.join(tmp, "model.mlir")
        # Node tests pass shapes, pads, axes and exponents as graph inputs;
        # the importer needs them at import time and says which input they
        # are: bind those with --constant-input and import again.
        for _ in range(len(inputs) + 1):
            cmd = [os.path.join(build, "bin", "amp-import-onnx"), "--constants",
                   os.path.join(case_dir, "model.onnx"), "-o", mlir]
            for k, name in bound.items():
                cmd += ["--constant-input",
                        "%s=@%s" % (name, os.path.join(data, inputs[k]))]
            imp = subprocess.run(cmd, capture_output=True, text=True,
                                 timeout=300)
            if imp.returncode == 0:
                break
            m = re.search(r"\(input \d+, '([^']+)'\) must be known at import "
                          r"time.*\(it is graph input #(\d+)\)", imp.stderr)
            if not m or int(m.group(2)) >= len(inputs):
                return "unsupported", first_line(imp.stderr)
            bound[int(m.group(2))] = m.group(1)
        else:
            return "unsupported", first_line(imp.stderr)
        if any(tensor_data_type(os.path.join(data, f)) in FLOAT16_TYPES
               for f in outputs):
            tolerance = max(tolerance, FLOAT16_TOLERANCE)
        cmd = [os.path.join(build, "bin", "amp-run"), mlir, "--function",
               "forward", "--precision", "f32", "--tolerance", str(tolerance)]
        for k, f in enumerate(inputs):
            if k not in bound:
                cmd += ["--input", "@" + os.path.join(data, f)]
        for f in outputs:
            cmd += ["--expected-output", "@" + os.path.join(data, f)]
        run = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        # A data file of a type amp does not read (ONNX stores BFLOAT16 test
        # data as UINT16, numpy having no bfloat16): no result to compare.
        if run.returncode != 0 and re.search(
                r"\.pb': its element type \w+ is not supported", run.stderr):
            return "unsupported", first_line(run.stderr)
        if run.returncode != 0 and case in SUPERSEDED:
            return "superseded", SUPERSEDED[case]
        if run.returncode != 0:
            return "fail", first_line(run.stderr)
        return "pass", ""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--ops", default="", help="comma-separated op types")
    parser.add_argument("--suites", default="",
                        help="comma-separated: node and the model suites "
                        "(all; only node with --ops)")
    parser.add_argument("--tolerance", type=float, default=1e-4)
    parser.add_argument("--markdown", default="")
    parser.add_argument("--markdown-models", default="")
    parser.add_argument("--expected", default="",
                        help="file of case names that must pass")
    args = parser.parse_args()
    if not os.path.isdir(NODE):
        sys.exit("onnx-conformance: %s is missing; run scripts/get-onnx-tests.sh"
                 % NODE)
    suites = (args.suites.split(",") if args.suites else
              ["node"] if args.ops else ["node"] + list(MODEL_SUITES))
    for suite in suites:
        if suite != "node" and suite not in MODEL_SUITES:
            sys.exit("onnx-conformance: unknown suite %s" % suite)
    ops = args.ops.split(",") if args.ops else sorted(OPS)
    if "node" not in suites:
        ops = []
    for op in ops:
        if op not in OPS:
            sys.exit("onnx-conformance: unknown op %s" % op)
    models = [s for s in MODEL_SUITES if s in suites]
    cases = {op: cases_of(op) for op in ops}
    cases.update({suite: cases_of_suite(suite) for suite in models})
    jobs = [(group, case) for group in ops + models for case in cases[group]]
    results = {}
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = {pool.submit(run_case, args.build, case, args.tolerance):
                   (op, case) for op, case in jobs}
        for future in concurrent.futures.as_completed(futures):
            op, case = futures[future]
            status, message = future.result()
            results[(op, case)] = (status, message)
            print("%-11s %-55s %s" % (status.upper(), case, message),
                  flush=True)

    rows = {}  # group -> (passing cases, the others)
    for group in ops + models:
        passed = [c for c in cases[group] if results[(group, c)][0] == "pass"]
        others = [c for c in cases[group] if results[(group, c)][0] != "pass"]
        rows[group] = (passed, others)
        print("%-20s %3d/%-3d" % (group, len(passed), len(cases[group])))
    total_pass = sum(len(passed) for passed, _ in rows.values())
    print("total: %d/%d cases pass" % (total_pass, len(jobs)))

    def short(case):
        return re.sub(r"^test_", "", case.split("/")[-1])

    def write_table(path, groups, heading):
        with open(path, "w") as f:
            f.write("| %s | passing | passing cases | not passing |\n" % heading)
            f.write("| --- | --- | --- | --- |\n")
            for group in groups:
                passed, others = rows[group]
                f.write("| %s | %d/%d | %s | %s |\n" % (
                    group, len(passed), len(passed) + len(others),
                    " ".join("`%s`" % short(c) for c in passed),
                    " ".join("`%s`" % short(c) for c in others)))

    if args.markdown:
        write_table(args.markdown, ops, "op")
    if args.markdown_models:
        write_table(args.markdown_models, models, "suite")
    if args.expected:
        with open(args.expected) as f:
            must = {line.strip() for line in f if line.strip()}
        regressions = [case for (op, case), (status, _) in results.items()
                       if case in must and status != "pass"]
        for case in sorted(regressions):
            print("REGRESSION: %s" % case)
        if regressions:
            sys.exit(1)


if __name__ == "__main__":
    main()
