#!/usr/bin/env python3
"""PyTorch timings on the table of amp-gemm-bench, for comparison.

Times torch.matmul (epilogue NONE), F.linear with a bias (BIAS) and
F.gelu(F.linear(...), approximate='tanh') (GELU_BIAS / GELU_AUX_BIAS) on the
square and transformer MLP shapes of bench/GemmBench.cpp, in f16 and bf16,
with CUDA events, and prints TFLOP/s (2*M*N*K per GEMM; epilogue flops not
counted) in the same columns. The backward shapes have no single PyTorch op
with a fused epilogue: they are timed as plain matmuls and, for the
epilogue rows, as the unfused PyTorch expression.

Needs PyTorch with a CUDA device:  python3 bench/torch_gemm_bench.py
"""

import argparse
import sys

def mlp_block(prefix, t, d, f):
    """The forward and backward GEMMs of a transformer MLP block."""
    return [
        (prefix + "fc1.fwd", t, f, d, False, True,
         ["NONE", "BIAS", "GELU_AUX_BIAS"]),
        (prefix + "fc2.fwd", t, d, f, False, True, ["NONE", "BIAS"]),
        (prefix + "fc2.bwd.data", t, f, d, False, False,
         ["NONE", "DGELU", "DGELU_BGRAD"]),
        (prefix + "fc2.bwd.weight", d, f, t, True, False, ["NONE", "BGRADA"]),
        (prefix + "fc1.bwd.data", t, d, f, False, False, ["NONE"]),
        (prefix + "fc1.bwd.weight", f, d, t, True, False, ["NONE", "BGRADA"]),
    ]


def shapes():
    """(name, M, N, K, trans_a, trans_b, epilogues): GemmBench.cpp's table:
    squares, a large MLP block (tokens 8192, d 4096, ffn 16384), and a
    BERT-base layer at batch 32 x seq 512 (tokens 16384, d 768, ffn 3072)."""
    table = [("square", s, s, s, False, False, ["NONE", "GELU_BIAS"])
             for s in (1024, 2048, 4096, 8192)]
    table += mlp_block("", 8192, 4096, 16384)
    t, d, f = 16384, 768, 3072
    table += [
        ("bert.qkv.fwd", t, 3 * d, d, False, True, ["NONE", "BIAS"]),
        ("bert.qkv.bwd.data", t, d, 3 * d, False, False, ["NONE"]),
        ("bert.qkv.bwd.weight", 3 * d, d, t, True, False, ["NONE", "BGRADA"]),
    ]
    table += mlp_block("bert.", t, d, f)
    return table


def gelu_grad(x):
    """d/dx of the tanh GELU, as amp's DGELU epilogue applies it."""
    import torch
    k0, k1 = 0.7978845608028654, 0.044715
    t = torch.tanh(k0 * (x + k1 * x * x * x))
    return 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * k0 * (1 + 3 * k1 * x * x)


def make_op(torch, F_, m, n, k, trans_a, trans_b, epilogue, dtype):
    """A closure computing the row of the table the way PyTorch users do."""
    dev = "cuda"
    a = torch.randn((k, m) if trans_a else (m, k), device=dev, dtype=dtype)
    b = torch.randn((n, k) if trans_b else (k, n), device=dev, dtype=dtype)
    op_a = a.t() if trans_a else a
    bias = torch.randn(n, device=dev, dtype=dtype)
    aux = torch.randn(m, n, device=dev, dtype=dtype)
    if trans_b and epilogue in ("BIAS", "GELU_BIAS", "GELU_AUX_BIAS"):
        # F.linear takes the weight as stored: out x in.
        if epilogue == "BIAS":
            return lambda: F_.linear(op_a, b, bias)
        return lambda: F_.gelu(F_.linear(op_a, b, bias), approximate="tanh")
    op_b = b.t() if trans_b else b
    if epilogue == "NONE":
        return lambda: torch.matmul(op_a, op_b)
    if epilogue == "GELU_BIAS":
        return lambda: F_.gelu(torch.addmm(bias, op_a, op_b),
                               approximate="tanh")
    if epilogue == "DGELU":
        return lambda: torch.matmul(op_a, op_b) * gelu_grad(aux)
    if epilogue == "DGELU_BGRAD":
        def dgelu_bgrad():
            g = torch.matmul(op_a, op_b) * gelu_grad(aux)
            return g, g.sum(0)
        return dgelu_bgrad
    if epilogue == "BGRADA":
        return lambda: (torch.matmul(op_a, op_b), op_a.sum(1))
    raise ValueError(epilogue)


def time_per_call(torch, fn, warmup, iters):
    for _ in range(warmup):
        fn()
    start = torch.cuda.Event(enable_timing=True)
    stop = torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(iters):
        fn()
    stop.record()
    torch.cuda.synchronize()
    return start.elapsed_time(stop) / 1e3 / iters


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iters", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--filter", default="",
                        help="only shapes whose name contains this")
    args = parser.parse_args()

    try:
        import torch
        import torch.nn.functional as F_
    except ImportError:
        print("torch_gemm_bench.py: PyTorch is not installed", file=sys.stderr)
        return 77
    if not torch.cuda.is_available():
        print("torch_gemm_bench.py: no CUDA device, nothing to measure")
        return 77
    # amp accumulates in fp32; keep PyTorch from using reduced-precision
    # reductions so that the comparison is like for like.
    torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = False
    torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction = False

    print(f"torch {torch.__version__} on {torch.cuda.get_device_name()}")
    print(f"{'shape':<15} {'MxNxK':<17} {'dtype':<5} {'epilogue':<14} "
          f"{'ms':>9} {'TFLOP/s':>9}")
    for name, m, n, k, ta, tb, epilogues in shapes():
        if args.filter not in name:
            continue
        for dtype, dname in ((torch.float16, "f16"), (torch.bfloat16, "bf16")):
            for epilogue in epilogues:
                fn = make_op(torch, F_, m, n, k, ta, tb, epilogue, dtype)
                seconds = time_per_call(torch, fn, args.warmup, args.iters)
                tflops = 2.0 * m * n * k / seconds * 1e-12
                print(f"{name:<15} {f'{m}x{n}x{k}':<17} {dname:<5} "
                      f"{epilogue:<14} {seconds * 1e3:9.3f} {tflops:9.2f}")
                del fn
                torch.cuda.empty_cache()
    return 0


if __name__ == "__main__":
    sys.exit(main())
