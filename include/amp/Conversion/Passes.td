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
    | `nn.mul` by a splat constant of `nn.softmax_grad` whose output gradient is a GEMM's result | that GEMM's `alpha` |

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
  let summary = "Lower training steps to runtime kernel calls on buffers";
  let description = [{
    Turns every `func.func` on tensors into a function on runtime buffers
    that calls the C ABI of `runtime/` (kernels.h, gemm.h) for each op, so
    that the same module runs on every backend. One lowering per op,
    declared per op family and applied in one walk over each function;
    static tensors become `!llvm.ptr` buffers, and `scf.for`, `scf.if` and
    `scf.while` on tensors carry pointers:

    * a function `@f(T0, ..., Tn-1) -> (R0, ..., Rm-1)` becomes
      `func.func @f(!llvm.ptr) -> i32` taking an array of `n + m` buffer
      pointers (the arguments, then caller-allocated result buffers) and
      returning an `amp_status_t`;
    * every tensor is a dense row-major buffer from `amp_alloc` (device
      memory on the GPU); a value computed in the function body is computed
      straight into its result buffer, others are copied there; each
      buffer pointer is loaded from the array right before its first use,
      and a pointer array of a multi-tensor call whose elements are all in
      the array (8 or more) is filled by a loop over a constant table of
      their positions;
    * buffer ownership is made explicit first: a loop takes over its init
      values and a region hands on what it yields, and where a value is not
      the block's to hand over (an argument, a value read later, one yielded
      twice) a copy is made;
    * `amp.skip_step_if` passes `found_inf` to the optimizer kernels, which
      leave their outputs equal to their inputs on a skipped step (no host
      sync); `amp.autocast` is inlined; `nn.reshape` aliases its input;
      tensor constants are copied into runtime buffers on each call; a
      splat is filled (`amp_fill`) or, when the fill cannot store its value
      exactly (a NaN payload, an integer beyond 2^24), one element is copied
      and broadcast, so a splat of any size adds a few bytes to the module.
      A constant with distinct elements larger than `max-constant-bytes` is
      an error (pass it as an argument instead);
    * an argument with `amp.aliasing_output = N` donates its buffer to
      result N (the caller does not read it after the call): an optimizer
      update (`nn.sgd_update`, `nn.adam_update`, `nn.rmsprop_update`,
      `nn.adagrad_update`) that the function returns as result N computes it in place, in the
      argument's buffer, when nothing reads the argument after the update,
      and an argument returned
      unchanged as result N is not copied. The lowered function's
      `amp.results_in_arguments` lists, per result, the argument whose
      buffer holds it (-1: its own slot); such a result's slot is not used.
      A bad index, a result of another type or two arguments donated to one
      result are errors;
    * with `in-place` (the default), a result is computed in the buffer of
      an operand of its type that dies at the op, where the kernel's header
      allows the two to be one buffer (elementwise ops and their gradients,
      softmax and its gradient, the norms, the loss gradients, unscale and
      clip): the operand was made in the same block by an op (not a
      constant or an argument), nothing reads it afterwards and the op
      takes it once.

    `nn.matmul` must be `amp.gemm` already (`amp-lower-matmul-to-cublaslt
    f32-gemm=true`). Frees and status checks are added by
    `amp-runtime-deallocate` and `amp-check-runtime-status`; the
    `amp-to-runtime` pipeline runs them all. docs/runtime-abi.md describes
    the boundary.
  }];
  let options = [
    Option<"maxConstantBytes", "max-constant-bytes", "int64_t",
           /*default=*/"int64_t(256) << 20",
           "The largest constant with distinct elements, in bytes, that the "
           "lowering embeds in the module (default 256 MiB)">,
    Option<"inPlace", "in-place", "bool", /*default=*/"true",
           "Compute a result in the buffer of an operand that dies at the "
           "op where the kernel allows the two to be one buffer; false: "
           "every result gets a buffer of its own (donated arguments are "
           "still honoured)">
  ];
  let dependentDialects = ["::amp::AMPDialect", "::amp::nn::NNDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

def RuntimeDeallocate : Pass<"amp-runtime-deallocate", "::mlir::func::FuncOp"> {
  let summary = "Free each runtime buffer after its last use";
  let description = [{
    On functions lowered by `amp-lower-to-runtime`: a block owns the buffers
    `amp_alloc` returns in it, the buffer results of its `scf` ops and, in a
    `scf` region, its pointer arguments. Every owned buffer that the block
    does not hand over (as a loop's init value, or through `scf.yield` and
    `scf.condition`) gets an `amp_free` right after its last read. Reads
    are followed through SSA uses and through the stack memory runtime calls
    take pointers in (pointer arrays); a read in a
    nested region counts at its ancestor op. Runs per function.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def RuntimePlanBuffers : Pass<"amp-runtime-plan-buffers",
                              "::mlir::func::FuncOp"> {
  let summary = "Place a function's temporary buffers in one arena";
  let description = [{
    After `amp-runtime-deallocate`, on a function whose body is one block:
    every buffer that the block allocates with a constant size and frees
    itself (not a result, not handed to a loop) gets an offset in one
    arena, so that buffers whose lifetimes do not overlap share memory. The
    offsets come from the smaller of two placements: a best-fit free list
    replayed over the block at compile time (freed ranges are merged with
    their neighbours), and, where that arena is larger than the bytes live
    at its peak and there are at most 8192 buffers, the buffers placed
    largest first, each in the smallest gap that the placed buffers live at
    the same time leave. Each offset is a multiple of `alignment`. The arena is one `amp_alloc`
    before the first of these buffers and one `amp_free` where the last of
    them was freed; each buffer becomes a `getelementptr` into it, and its
    own `amp_alloc` and `amp_free` (and their status checks) go away. A
    pointer array of a multi-tensor call whose elements are all in the
    arena (8 or more: the grads that `amp_unscale_and_check` and the
    optimizers read) is then filled by a loop over a constant table of
    their offsets, not by a store per element.
    Buffers inside loops, with sizes not known at compile time, or that
    outlive the block keep their own allocations. With `remarks`, each
    function gets a remark with the buffers placed, the arena's size and
    the bytes live at the peak (the least any placement needs).
  }];
  let options = [
    Option<"alignment", "alignment", "int64_t", "256",
           "Byte alignment of every buffer in the arena (a power of two from "
           "64, the alignment amp_alloc guarantees, to 2^30)">,
    Option<"emitRemarks", "remarks", "bool", "false",
           "Emit a remark on each function with its arena's size">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::scf::SCFDialect"];
}

def RuntimeShareStackSlots : Pass<"amp-runtime-share-stack-slots",
                                  "::mlir::func::FuncOp"> {
  let summary = "Give runtime calls' stack memory one slot per kind, in the frame";
  let description = [{
    After `amp-runtime-deallocate`: the `llvm.alloca`s that
    `amp-lower-to-runtime` makes for the memory runtime calls read (the
    arrays of multi-tensor calls and concatenations), each where its call is,
    become slots at the top of the function. In each block, allocas of the
    same element type, count and alignment whose lifetimes (up to the last
    op that uses the address or one computed from it) do not overlap share
    one slot. Left where they were, they were dynamic allocations once the
    status checks split the function into blocks: the stack grew with every
    such call until the step returned, and every iteration of a loop grew
    it again.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def CheckRuntimeStatus : Pass<"amp-check-runtime-status", "::mlir::ModuleOp"> {
  let summary = "Stop a function at its first failing runtime call";
  let description = [{
    After `amp-lower-to-runtime` and `convert-scf-to-cf`. A function's
    runtime calls share a sticky status, an i32 slot at the top of the
    function: each call of a runtime function (all return `amp_status_t`
    but `amp_alloc`, whose NULL is `AMP_STATUS_BACKEND_ERROR`) goes through
    its callee's checked wrapper, `@__amp_checked_<callee>(%status, %site,
    args...)`, a private function built once per module. The wrapper does
    nothing once the status holds a failure (`amp_alloc`'s returns NULL);
    else it makes the call, and on failure stores the status and the
    failing op's location ("file:line:col", or the name of a `NameLoc`) in
    `@__amp_error_site` (the runtime's `*_last_error()` says why). The
    function reads the status before each branch of a block that made calls
    since its last check (so no loop runs on after a failure), after every
    64 calls of a block, and at each return, which returns the failure's
    status; a check branches to the function's one failure block, which
    returns the status. The locations' strings are one internal constant
    global, `@__amp_sites`, each string once, in the order of the calls; a
    call passes its site's offset there to the wrapper. Calls outside the
    function's body (in an `scf` region) and functions with runtime calls
    that do not return the i32 status are errors.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def VerifyRuntimeContract : Pass<"amp-verify-runtime-contract",
                                 "::mlir::ModuleOp"> {
  let summary = "Check that a module holds only what the runtime ABI runs";
  let description = [{
    The last step of `amp-to-runtime`. Fails with an error at the op when
    the module holds an op or a type outside the LLVM dialect, a call of a
    function it neither defines nor declares, an indirect call, or a
    declaration that is not a runtime function of the ABI table or differs
    from the table's signature.
  }];
}

#endif // AMP_CONVERSION_PASSES_TD
