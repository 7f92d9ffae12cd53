//===- Passes.td - amp transformation passes ----------------*- tablegen -*-===//
//
// The mixed-precision passes: precision assignment and cast insertion.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_DIALECT_AMP_TRANSFORMS_PASSES_TD
#define AMP_DIALECT_AMP_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def AssignPrecision : Pass<"amp-assign-precision", "::mlir::ModuleOp"> {
  let summary = "Decide f16/bf16/f32 for every op from a policy by graph coloring";
  let description = [{
    Classifies every op that implements `MixedPrecisionOpInterface` with the
    policy (allow / deny / infer / clear, TensorFlow AMP's four lists, with
    separate defaults for f16 and bf16) and colors the whole dataflow graph,
    forward and backward, across `scf.for` / `scf.if` / `amp.autocast`
    regions, in time linear in its size:

    1. allow ops are low precision;
    2. deny spreads downstream through infer and clear ops (a path from a
       deny op to an infer op through infer/clear ops turns f32);
    3. infer and clear ops on a path between two allow ops are low precision;
    4. with bf16, infer ops that directly follow a low-precision op are low
       precision;
    5. clear ops connected to low-precision ops through clear ops follow
       them.

    A backward op shares its forward op's color (a `relu_grad` follows its
    `relu`). Values that cross regions (loop-carried values, `scf.if` and
    `amp.autocast` results) get one precision per value. The attribute
    `amp.precision` pins an op; `amp.autocast enabled = false` pins every op
    inside to f32 and `compute_type` sets the low type inside. Existing
    `amp.cast` ops are looked through (absorbed). Ops that implement the
    interface but appear in no list stay f32 with a remark.

    The decision is written as `amp.precision` on every op (and as an array,
    one entry per result, on region ops with loop-carried or yielded
    values), which `amp-insert-casts` reads; running the pass again reads
    its own decisions back, so it is idempotent.

    With `report=<file.json>` it writes the decisions: compute type, each
    op's name, location, precision and rule, the number of casts that
    `amp-insert-casts` will insert, op counts by precision and activation
    bytes by precision.
  }];
  let dependentDialects = [
    "::amp::AMPDialect", "::amp::nn::NNDialect",
    "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect", "::mlir::scf::SCFDialect"
  ];
  let options = [
    Option<"computeType", "compute-type", "std::string", "\"f16\"",
           "Low-precision type: f16 or bf16">,
    ListOption<"allowOps", "allow", "std::string",
               "Op names to add to the allow list">,
    ListOption<"denyOps", "deny", "std::string",
               "Op names to add to the deny list">,
    ListOption<"inferOps", "infer", "std::string",
               "Op names to add to the infer list">,
    ListOption<"clearOps", "clear", "std::string",
               "Op names to add to the clear list">,
    Option<"policyFile", "policy", "std::string", "\"\"",
           "JSON policy file: {\"allow\": [...], \"deny\": [...], "
           "\"infer\": [...], \"clear\": [...]}, applied over the defaults "
           "and before the list options">,
    Option<"reportFile", "report", "std::string", "\"\"",
           "Write a JSON report of every decision to this file">,
    Option<"emitRemarks", "remarks", "bool", "false",
           "Emit a remark on every op explaining its precision">,
  ];
  let statistics = [
    Statistic<"numLowPrecision", "low-precision-ops",
              "Ops assigned f16/bf16">,
    Statistic<"numF32", "f32-ops", "Ops kept in f32">,
  ];
}

def InsertCasts : Pass<"amp-insert-casts", "::mlir::ModuleOp"> {
  let summary = "Retype ops to their assigned precision with the fewest casts";
  let description = [{
    Reads the `amp.precision` decisions of `amp-assign-precision` and
    retypes ops and region-carried values. Every use whose producer has a
    different type gets an `amp.cast`; there is one cast per (value, target
    type), placed right after the value's definition and shared by all its
    users, so a weight is cast once per step for forward and backward.
    Existing casts are absorbed and re-planned, casts of constants are
    folded into converted constants, and a low-precision op that
    accumulates in f32 (matmul, conv, reductions) produces f32 directly when
    every user wants f32. Function signatures are kept unless
    `keep-io-types=false`, which lets inputs and results of functions
    without callers take the precision of their uses and producers (params,
    optimizer state and the loss always stay f32).
  }];
  let dependentDialects = ["::amp::AMPDialect", "::mlir::arith::ArithDialect"];
  let options = [
    Option<"keepIOTypes", "keep-io-types", "bool", "true",
           "Keep function argument and result types">,
  ];
  let statistics = [
    Statistic<"numCasts", "casts", "amp.cast ops inserted">,
    Statistic<"numConstantsConverted", "constants-converted",
              "Constants converted at compile time">,
  ];
}

#endif // AMP_DIALECT_AMP_TRANSFORMS_PASSES_TD
