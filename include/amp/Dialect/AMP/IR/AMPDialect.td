//===- AMPDialect.td - The amp dialect ----------------------*- tablegen -*-===//
//
// The `amp` dialect holds what the mixed-precision pipeline adds to a model:
// casts, the autocast scope, the per-op precision override and (later) the
// loss-scale state machinery.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_DIALECT_AMP_IR_AMPDIALECT_TD
#define AMP_DIALECT_AMP_IR_AMPDIALECT_TD

include "mlir/IR/OpBase.td"

def AMP_Dialect : Dialect {
  let name = "amp";
  let cppNamespace = "::amp";
  let summary = "Mixed-precision casts, autocast scopes and loss-scale state";
  let description = [{
    * `amp.cast` converts floating-point tensors between `f32`, `f16` and
      `bf16` with round-to-nearest-even.
    * `amp.autocast` is a region that switches mixed precision off
      (`enabled = false`, like `with torch.autocast(enabled=False)`) or sets
      its own compute type for the ops inside.
    * `amp.precision = f32 | f16 | bf16` (a type) is a discardable attribute
      that pins the precision of one op, whatever the policy says. On a
      region op (`scf.for`, `scf.if`, `amp.autocast`) it is an array with
      one type per result: `amp.precision = [f16, f32]`.
    * `amp.precision_rule = "allow"` records why `amp-assign-precision`
      chose an op's precision (with `record-rules`), for
      `amp-precision-report`, which reads and removes it.
    * `amp.aliasing_output = N : i64` on a function argument donates the
      argument's buffer to result N, of the same type (XLA's
      `tf.aliasing_output`): the caller does not read the argument after
      the call, so `amp-lower-to-runtime` may compute the result in place.
      The lowered function's `amp.results_in_arguments = array<i64: ...>`
      says, per result, which argument's buffer holds it (-1: its own).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
  let hasConstantMaterializer = 1;
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let extraClassDeclaration = [{
    /// The per-op precision override attribute.
    static constexpr llvm::StringLiteral getPrecisionAttrName() {
      return "amp.precision";
    }
    /// Why amp-assign-precision chose the precision (read by the report).
    static constexpr llvm::StringLiteral getPrecisionRuleAttrName() {
      return "amp.precision_rule";
    }
    /// The argument attribute that donates the argument's buffer to a
    /// result.
    static constexpr llvm::StringLiteral getAliasingOutputAttrName() {
      return "amp.aliasing_output";
    }
    /// A lowered function's record of the results it left in the buffers of
    /// the arguments donated to them.
    static constexpr llvm::StringLiteral getResultsInArgumentsAttrName() {
      return "amp.results_in_arguments";
    }
    /// Verifies `amp.aliasing_output = attr` on argument `arg` of `fn`: an
    /// integer that names a result of the argument's type.
    static ::llvm::LogicalResult
    verifyAliasingOutput(::mlir::FunctionOpInterface fn, unsigned arg,
                         ::mlir::Attribute attr);

    /// Verifies the body of a region op that runs once (amp.autocast,
    /// amp.skip_step_if): no block arguments, and an amp.yield of the op's
    /// result types.
    static ::llvm::LogicalResult verifyYieldingBody(::mlir::Operation *op);
  }];
}

#endif // AMP_DIALECT_AMP_IR_AMPDIALECT_TD
