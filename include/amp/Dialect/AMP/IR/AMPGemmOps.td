//===- AMPGemmOps.td - the runtime GEMM as a tensor op -------*- tablegen -*-===//
//
// amp.gemm: one call of the runtime GEMM (runtime/include/amp_runtime/gemm.h)
// on tensors, with its epilogue. amp-lower-matmul-to-cublaslt produces it
// from nn.matmul and the elementwise ops it fuses; amp-lower-to-runtime turns
// it into an amp_gemm call. Every attribute is one amp_gemm_desc_t field.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_DIALECT_AMP_IR_AMPGEMMOPS_TD
#define AMP_DIALECT_AMP_IR_AMPGEMMOPS_TD

include "mlir/IR/EnumAttr.td"

// The values are those of amp_gemm_epilogue_t, so the lowering passes the
// integer through.
def AMP_GemmEpilogue : I32EnumAttr<"GemmEpilogue",
    "the runtime GEMM epilogue (amp_gemm_epilogue_t)", [
  I32EnumAttrCase<"none", 0>,
  I32EnumAttrCase<"bias", 1>,
  I32EnumAttrCase<"relu", 2>,
  I32EnumAttrCase<"relu_bias", 3>,
  I32EnumAttrCase<"gelu", 4>,
  I32EnumAttrCase<"gelu_bias", 5>,
  I32EnumAttrCase<"gelu_aux", 6>,
  I32EnumAttrCase<"gelu_aux_bias", 7>,
  I32EnumAttrCase<"drelu", 8>,
  I32EnumAttrCase<"drelu_bgrad", 9>,
  I32EnumAttrCase<"dgelu", 10>,
  I32EnumAttrCase<"dgelu_bgrad", 11>,
  I32EnumAttrCase<"bgrada", 12>,
  I32EnumAttrCase<"bgradb", 13>
]> {
  let cppNamespace = "::amp";
}

def AMP_GemmOp : AMP_Op<"gemm", [Pure, ComputeBound, AttrSizedOperandSegments,
    AttrSizedResultSegments]> {
  let summary = "the runtime GEMM with its fused epilogue, on tensors";
  let description = [{
    For every batch, with fp32 accumulation and one rounding into the
    result's element type:

    ```
    T = alpha * op(a) * op(b) + beta * c        (c only when present)
    d = epilogue(T, bias, aux)
    ```

    exactly as `amp_gemm` (runtime/include/amp_runtime/gemm.h,
    docs/runtime-gemm.md) defines it. `op` transposes the last two
    dimensions when `transpose_a` / `transpose_b` is set, so `op(a)` is
    `M x K` and `op(b)` is `K x N`.

    | epilogue | `d` | `bias` | `aux` | extra result |
    | --- | --- | --- | --- | --- |
    | `none` | `T` | | | |
    | `bias` | `T + bias` | `[N]` | | |
    | `relu`, `relu_bias` | `max(T (+ bias), 0)` | (`[N]`) | | |
    | `gelu`, `gelu_bias` | `gelu(T (+ bias))` (tanh form) | (`[N]`) | | |
    | `gelu_aux`, `gelu_aux_bias` | `gelu(T (+ bias))` | (`[N]`) | | `aux_out`: the pre-activation `T (+ bias)` |
    | `drelu` | `aux > 0 ? T : 0` | | input | |
    | `dgelu` | `T * gelu'(aux)` | | input | |
    | `drelu_bgrad`, `dgelu_bgrad` | as `drelu`, `dgelu` | | input | `bias_grad[j] = sum_i d[i][j]` |
    | `bgrada` | `T` | | | `bias_grad[i] = sum_k op(a)[i][k]` |
    | `bgradb` | `T` | | | `bias_grad[j] = sum_k op(b)[k][j]` |

    Types follow the runtime: `a` and `b` have one element type; `d` has
    that type or `f32` (`f16 -> f16|f32`, `bf16 -> bf16|f32`,
    `f32 -> f32`); `c`, `aux`, `aux_out`, `bias` and `bias_grad` have `d`'s
    element type. `c`, `aux` and `aux_out` have `d`'s type; `bias` and
    `bias_grad` are 1-D. `beta` applies only with `c` (and must then be
    nonzero); without `c` the descriptor's beta is 0.

    **Batch dimensions** broadcast like `nn.matmul`, with one restriction
    that comes from the descriptor's single batch stride per operand: each
    operand's batch dimensions hold either one matrix (rank 2, or all ones),
    which every batch reads (stride 0), or one matrix per batch of the
    result. `getLayout()` computes the descriptor's `m, n, k, batch_count`,
    leading dimensions and strides from the types, for dense row-major
    buffers: when only `a` is batched and not transposed, its batches are
    consecutive rows, so the whole op is one 2-D GEMM with
    `m = batches * M`, `batch_count = 1` (what cuBLASLt runs best). Bias
    gradients need `batch_count = 1`.

    ```mlir
    %y, %pre = amp.gemm %x, %w bias(%b) epilogue = gelu_aux_bias {transpose_b}
        : (tensor<32x64xf16>, tensor<256x64xf16>, tensor<256xf16>)
        -> tensor<32x256xf16>, aux_out tensor<32x256xf16>
    ```
  }];
  let arguments = (ins AMP_FloatTensor:$a, AMP_FloatTensor:$b,
                   Optional<AMP_FloatTensor>:$bias,
                   Optional<AMP_FloatTensor>:$c,
                   Optional<AMP_FloatTensor>:$aux,
                   UnitAttr:$transpose_a, UnitAttr:$transpose_b,
                   DefaultValuedAttr<AMP_GemmEpilogue,
                                     "::amp::GemmEpilogue::none">:$epilogue,
                   DefaultValuedAttr<F32Attr, "1.0">:$alpha,
                   DefaultValuedAttr<F32Attr, "1.0">:$beta);
  let results = (outs AMP_FloatTensor:$d,
                 Optional<AMP_FloatTensor>:$aux_out,
                 Optional<AMP_FloatTensor>:$bias_grad);
  let assemblyFormat = [{
    $a `,` $b (`bias` `(` $bias^ `)`)? (`c` `(` $c^ `)`)?
    (`aux` `(` $aux^ `)`)? (`epilogue` `=` $epilogue^)? attr-dict
    `:` functional-type(operands, $d)
    `` custom<GemmExtraResults>(type($aux_out), type($bias_grad))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The shape and layout fields of amp_gemm_desc_t for dense row-major
    /// tensors (in elements). Only meaningful on a verified op.
    struct Layout {
      int64_t m, n, k, batchCount;
      int64_t lda, ldb, ldc, ldd, ldAux;
      int64_t strideA, strideB, strideC, strideD, strideAux, strideBias;
    };
    Layout getLayout();

    /// Epilogue properties, shared by the verifier and the rewrites.
    static bool hasBiasInput(GemmEpilogue e);
    static bool hasAuxInput(GemmEpilogue e);
    static bool hasAuxOutput(GemmEpilogue e);
    static bool hasBiasGradOutput(GemmEpilogue e);

    /// The assembly of the optional results: `, aux_out T` or
    /// `, bias_grad T` after `d`'s type.
    static ::mlir::ParseResult parseGemmExtraResults(
        ::mlir::OpAsmParser &parser, ::mlir::Type &auxOut,
        ::mlir::Type &biasGrad);
    static void printGemmExtraResults(::mlir::OpAsmPrinter &printer,
                                      GemmOp op, ::mlir::Type auxOut,
                                      ::mlir::Type biasGrad);
  }];
}

#endif // AMP_DIALECT_AMP_IR_AMPGEMMOPS_TD
