#!/usr/bin/env python3
"""Writes the Attention test data of test/Import/attention.test with ONNX
1.23's reference implementation (onnx.reference), whose Attention follows
the corrected specification (the errata of ONNX 1.23: the softcap before
the mask, qk_matmul_output_mode 1 before the mask, causal frontiers aligned
bottom-right by the cached keys, zeros for a query that sees no key).

    python3 -m pip install 'onnx>=1.23' numpy
    python3 test/Import/Inputs/gen_attention_models.py

It writes, beside this script:

  attn_errata_<case>_out<k>.pb   ONNX 1.23's outputs for the node tests of
                                 ONNX 1.19.1 (scripts/get-onnx-tests.sh)
                                 whose expected outputs predate the errata,
                                 on those tests' own inputs
  attn_<name>.onnx, attn_<name>_in<k>.pb, attn_<name>_out<k>.pb
                                 small models of what the node tests of
                                 1.19.1 leave out: nonpad_kv_seqlen (opset
                                 24) with and without is_causal, causal
                                 after a past_key cache, sliding
                                 windows (opset 25), a mask that hides every
                                 key of a query, the softcap under a mask
                                 with each qk_matmul_output_mode, a boolean
                                 mask shorter than the keys

The tests read the committed files and need neither network nor Python
packages.
"""
import glob
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
NODE = os.path.join(ROOT, "data", "onnx", "onnx", "backend", "test", "data",
                    "node")

# The node tests whose data predates the errata (scripts/onnx-conformance.py
# reports them as superseded).
with open(os.path.join(HERE, "attention-errata.txt")) as f:
    ERRATA = [line.strip() for line in f if line.strip()]


def save(array, path):
    with open(path, "wb") as f:
        f.write(numpy_helper.from_array(array).SerializeToString())


def write_errata():
    for case in ERRATA:
        d = os.path.join(NODE, case)
        model = onnx.load(os.path.join(d, "model.onnx"))
        inputs = [numpy_helper.to_array(onnx.load_tensor(f)) for f in
                  sorted(glob.glob(os.path.join(d, "test_data_set_0",
                                                "input_*.pb")))]
        names = [i.name for i in model.graph.input]
        outputs = ReferenceEvaluator(model).run(None, dict(zip(names, inputs)))
        for k, out in enumerate(outputs):
            save(out, os.path.join(HERE, "attn_errata_%s_out%d.pb" %
                                   (case[len("test_attention_"):], k)))


def tensor_type(array):
    return helper.np_dtype_to_tensor_dtype(array.dtype)


def write_model(name, opset, inputs, outputs, attrs, num_outputs=1):
    """One Attention node of opset `opset` reading `inputs` ((name, array)
    pairs; "" names an omitted input), with its outputs `outputs` and
    reference results."""
    given = {n: a for n, a in inputs if n}
    graph_inputs = [helper.make_tensor_value_info(n, tensor_type(a), a.shape)
                    for n, a in given.items()]
    node = helper.make_node("Attention", [n for n, _ in inputs], outputs,
                            **attrs)
    probe = helper.make_model(
        helper.make_graph([node], name, graph_inputs,
                          [helper.make_tensor_value_info(o, TensorProto.FLOAT,
                                                         None)
                           for o in outputs if o]),
        opset_imports=[helper.make_opsetid("", opset)])
    results = ReferenceEvaluator(probe).run(None, given)
    graph_outputs = [helper.make_tensor_value_info(o, TensorProto.FLOAT,
                                                   r.shape)
                     for o, r in zip([o for o in outputs if o], results)]
    model = helper.make_model(
        helper.make_graph([node], name, graph_inputs, graph_outputs),
        opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 10
    onnx.checker.check_model(model, full_check=True)
    onnx.save(model, os.path.join(HERE, "attn_%s.onnx" % name))
    for k, a in enumerate(given.values()):
        save(a, os.path.join(HERE, "attn_%s_in%d.pb" % (name, k)))
    for k, r in enumerate(results):
        save(r.astype(np.float32),
             os.path.join(HERE, "attn_%s_out%d.pb" % (name, k)))


def write_bad(name, op, inputs, attrs, opset=23):
    """A model of one `op` node that the importer rejects: `inputs` are
    (name, ONNX element type, shape) triples ("" omits one)."""
    graph_inputs = [helper.make_tensor_value_info(n, t, shape)
                    for n, t, shape in inputs if n]
    node = helper.make_node(op, [n for n, _, _ in inputs], ["Y"], **attrs)
    model = helper.make_model(
        helper.make_graph([node], name, graph_inputs,
                          [helper.make_tensor_value_info(
                              "Y", TensorProto.FLOAT, None)]),
        opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 10
    onnx.save(model, os.path.join(HERE, "attn_bad_%s.onnx" % name))


def write_errors():
    F, B, I = TensorProto.FLOAT, TensorProto.BOOL, TensorProto.INT64
    q4 = [("Q", F, [2, 4, 3, 8]), ("K", F, [2, 2, 5, 8]),
          ("V", F, [2, 2, 5, 8])]
    write_bad("mode", "Attention", q4, {"qk_matmul_output_mode": 4})
    write_bad("softcap", "Attention", q4, {"softcap": -1.0})
    write_bad("precision", "Attention", q4,
              {"softmax_precision": TensorProto.INT32})
    write_bad("window", "Attention", q4,
              {"is_causal": 1, "right_window_size": 2}, opset=25)
    write_bad("rank", "Attention",
              [("Q", F, [2, 4, 3, 8]), ("K", F, [2, 5, 16]),
               ("V", F, [2, 5, 16])], {})
    write_bad("no_heads", "Attention",
              [("Q", F, [2, 3, 32]), ("K", F, [2, 5, 16]),
               ("V", F, [2, 5, 16])], {})
    write_bad("hidden", "Attention",
              [("Q", F, [2, 3, 30]), ("K", F, [2, 5, 16]),
               ("V", F, [2, 5, 16])], {"q_num_heads": 4, "kv_num_heads": 2})
    write_bad("heads_attr", "Attention", q4, {"q_num_heads": 8})
    write_bad("groups", "Attention",
              [("Q", F, [2, 4, 3, 8]), ("K", F, [2, 3, 5, 8]),
               ("V", F, [2, 3, 5, 8])], {})
    write_bad("head_size", "Attention",
              [("Q", F, [2, 4, 3, 8]), ("K", F, [2, 2, 5, 4]),
               ("V", F, [2, 2, 5, 8])], {})
    write_bad("past", "Attention",
              q4 + [("", F, None), ("past_key", F, [2, 2, 1, 8])], {})
    write_bad("mask_keys", "Attention", q4 + [("attn_mask", B, [3, 6])], {})
    write_bad("mask_rank", "Attention",
              q4 + [("attn_mask", F, [1, 2, 4, 3, 5])], {})
    write_bad("mask_shape", "Attention", q4 + [("attn_mask", F, [3, 3, 5])],
              {})
    write_bad("nonpad", "Attention",
              q4 + [("", F, None), ("", F, None), ("", F, None),
                    ("nonpad_kv_seqlen", I, [3])], {}, opset=24)
    write_bad("rms_stash", "RMSNormalization",
              [("X", F, [2, 8]), ("scale", F, [8])], {"stash_type": 0})
    write_bad("rms_scale", "RMSNormalization",
              [("X", F, [2, 8]), ("scale", F, [4])], {})
    write_bad("rotary_dim", "RotaryEmbedding",
              [("X", F, [2, 2, 3, 8]), ("cos", F, [2, 3, 2]),
               ("sin", F, [2, 3, 2])], {"rotary_embedding_dim": 6})
    write_bad("rotary_odd", "RotaryEmbedding",
              [("X", F, [2, 2, 3, 8]), ("cos", F, [2, 3, 2]),
               ("sin", F, [2, 3, 2])], {"rotary_embedding_dim": 5})
    write_bad("rotary_heads", "RotaryEmbedding",
              [("X", F, [2, 3, 8]), ("cos", F, [2, 3, 4]),
               ("sin", F, [2, 3, 4])], {})
    write_bad("rotary_ids", "RotaryEmbedding",
              [("X", F, [2, 2, 3, 8]), ("cos", F, [16, 4]),
               ("sin", F, [16, 4]), ("ids", I, [2, 4])], {})


def main():
    write_errata()
    write_errors()
    rng = np.random.default_rng(23)

    def rand(*shape):
        return rng.standard_normal(shape).astype(np.float32)

    # An external cache: 6 keys of which nonpad_kv_seqlen[b] are valid, 3
    # queries; causal from offset nonpad[b] - 3 (negative for batch 2: its
    # first query sees no key), with grouped-query heads.
    q, k, v = rand(3, 4, 3, 8), rand(3, 2, 6, 8), rand(3, 2, 6, 8)
    nonpad = np.array([6, 4, 2], dtype=np.int64)
    write_model("nonpad_causal", 24,
                [("Q", q), ("K", k), ("V", v), ("", None), ("", None),
                 ("", None), ("nonpad_kv_seqlen", nonpad)],
                ["Y"], {"is_causal": 1})
    write_model("nonpad", 24,
                [("Q", q), ("K", k), ("V", v), ("attn_mask", rand(3, 6)),
                 ("", None), ("", None), ("nonpad_kv_seqlen", nonpad)],
                ["Y"], {})
    # Sliding windows: two keys back, causal; and one key either side of a
    # query after 2 cached keys (3-D inputs, grouped heads).
    write_model("window_causal", 25,
                [("Q", rand(2, 2, 5, 4)), ("K", rand(2, 2, 5, 4)),
                 ("V", rand(2, 2, 5, 4))],
                ["Y"], {"is_causal": 1, "left_window_size": 2})
    write_model("window_past", 25,
                [("Q", rand(2, 3, 16)), ("K", rand(2, 3, 8)),
                 ("V", rand(2, 3, 8)), ("", None),
                 ("past_key", rand(2, 2, 2, 4)),
                 ("past_value", rand(2, 2, 2, 4))],
                ["Y", "present_key", "present_value"],
                {"q_num_heads": 4, "kv_num_heads": 2, "left_window_size": 1,
                 "right_window_size": 1})
    # An internal cache: the causal frontier after its 3 keys.
    write_model("past_causal", 23,
                [("Q", rand(2, 4, 3, 8)), ("K", rand(2, 2, 3, 8)),
                 ("V", rand(2, 2, 3, 8)), ("", None),
                 ("past_key", rand(2, 2, 3, 8)),
                 ("past_value", rand(2, 2, 3, 8))],
                ["Y"], {"is_causal": 1})
    # A boolean mask that hides every key of query 1 (zeros), shorter than
    # the keys (the missing keys are hidden), fused and with the softcap.
    mask = np.ones((4, 5), dtype=bool)
    mask[1, :] = False
    mask[2, 3:] = False
    qkv = [("Q", rand(2, 2, 4, 8)), ("K", rand(2, 2, 7, 8)),
           ("V", rand(2, 2, 7, 8)), ("attn_mask", mask)]
    write_model("dead_row", 23, qkv, ["Y"], {})
    write_model("dead_row_softcap", 23, qkv, ["Y"], {"softcap": 2.0})
    # The softcap under a float mask, grouped heads, each output mode.
    qkv = [("Q", rand(2, 4, 3, 8)), ("K", rand(2, 2, 5, 8)),
           ("V", rand(2, 2, 5, 6)), ("attn_mask", rand(1, 4, 3, 5))]
    for mode in range(4):
        write_model("softcap_mode%d" % mode, 23, qkv,
                    ["Y", "", "", "qk"],
                    {"softcap": 1.5, "qk_matmul_output_mode": mode,
                     "scale": 0.3})
    # Mode 0 is the raw scores, scale * Q K^T, by the specification; ONNX
    # 1.23.2's reference gives them after the softcap (it overwrites one
    # variable), so that output is computed here.
    q, k = qkv[0][1], np.repeat(qkv[1][1], 2, axis=1)
    raw = 0.3 * np.matmul(q.astype(np.float64),
                          k.astype(np.float64).transpose(0, 1, 3, 2))
    save(raw.astype(np.float32), os.path.join(HERE, "attn_softcap_mode0_out1.pb"))


if __name__ == "__main__":
    main()
