//===- Passes.td - amp conversion passes --------------------*- tablegen -*-===//
//
// The lowerings that follow the mixed-precision pipeline: nn ops to the
// runtime's GEMM and kernels.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_CONVERSION_PASSES_TD
#define AMP_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def LowerMatmulToCublasLt : Pass<"amp-lower-matmul-to-cublaslt",
                                 "::mlir::ModuleOp"> {
  let summary = "Lower low-precision nn.matmul and its epilogues to amp.gemm";
  let description = [{
    Rewrites every `nn.matmul` with `f16` or `bf16` operands, in any batch
    and transpose form, to `amp.gemm`, the tensor form of one runtime GEMM
    call (`amp_gemm`, cuBLASLt on the GPU), and fuses into it the ops that
    the runtime's epilogues compute:

    | pattern | epilogue |
    | --- | --- |
    | `nn.add` of a `[N]` bias (either operand order) | `bias` |
    | then `nn.relu` | `relu_bias` (`relu` without a bias) |
    | then `nn.gelu` | `gelu_bias`, or `gelu_aux_bias` when the pre-activation has other users, which then read the GEMM's `aux_out` |
    | `nn.relu_grad` / `nn.gelu_grad` of a GEMM's result | `drelu` / `dgelu`, with the forward input as `aux` |
    | `nn.reduce_sum` over the token (K) axis of a weight-gradient GEMM's operand | `bgrada` / `bgradb`, whose `bias_grad` replaces the sum |
    | `nn.reduce_sum` over the rows of a `drelu`/`dgelu` GEMM's result that no GEMM reads | `drelu_bgrad` / `dgelu_bgrad` |
    | `nn.add` of a tensor of the result's type (a residual, another GEMM) | `c` with `beta = 1` |
    | `nn.mul` by a splat constant | `alpha` |

    An op is fused only when the value it consumes has no other users, or
    when those users can read an output of the fused GEMM instead: the
    pre-activation of `gelu_aux*` (`aux_out`), or, for `relu`, the ReLU
    output, which `nn.relu_grad` and `drelu` can test instead of the
    pre-activation (`x > 0` exactly when `relu(x) > 0`). Element types must
    be the runtime's: a bias or bias gradient has the result's element type.
    `f32` matmuls are left alone unless `f32-gemm` is set. The pass is
    idempotent. docs/gemm-lowering.md has the rules in full.
  }];
  let dependentDialects = ["::amp::AMPDialect", "::amp::nn::NNDialect"];
  let options = [
    Option<"f32Gemm", "f32-gemm", "bool", "false",
           "Also lower f32 matmuls (to an f32 GEMM) and fuse their epilogues">,
    Option<"bgradThroughCast", "bgrad-through-cast", "bool", "false",
           "Fuse the bias gradient reduce_sum(x) into a weight-gradient GEMM "
           "that reads amp.cast(x): the sum then adds the rounded "
           "low-precision values">,
  ];
}

def LowerToRuntime : Pass<"amp-lower-to-runtime", "::mlir::ModuleOp"> {
  let summary = "Lower training steps to runtime kernel calls in the LLVM dialect";
  let description = [{
    Turns every `func.func` on tensors into an `llvm.func` on runtime
    buffers that calls the C ABI of `runtime/` (kernels.h, gemm.h) for each
    op, so that the same module runs on the reference (CPU) and the CUDA
    backend:

    * a function `@f(T0, ..., Tn-1) -> (R0, ..., Rm-1)` becomes
      `llvm.func @f(!llvm.ptr) -> i32` taking an array of `n + m` buffer
      pointers (the arguments, then caller-allocated result buffers) and
      returning an `amp_status_t`;
    * every tensor is a dense row-major buffer; intermediates are allocated
      with `amp_alloc` (device memory on the GPU) and freed with `amp_free`
      after their last use; a value that is returned is computed directly
      into its result buffer;
    * each call's status is checked: on failure the function stores the
      failing op's location in `@__amp_error_site` and returns the status
      (the runtime's `*_last_error()` says why);
    * matmuls go to `amp_gemm` (after `amp-lower-matmul-to-cublaslt`, which
      this pass runs first on anything left, f32 included);
      `amp.skip_step_if` passes `found_inf` to the optimizer kernels, which
      leave their outputs equal to their inputs on a skipped step (no host
      sync); `nn.reshape` and region results alias their source buffers;
      tensor constants are copied into runtime buffers once per call.
  }];
  let dependentDialects = ["::amp::AMPDialect", "::amp::nn::NNDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

#endif // AMP_CONVERSION_PASSES_TD
