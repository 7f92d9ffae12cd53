//===- Passes.td - amp transformation passes ----------------*- tablegen -*-===//
//
// The mixed-precision passes: precision assignment, cast insertion, the
// precision report, master weights and loss scaling.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_DIALECT_AMP_TRANSFORMS_PASSES_TD
#define AMP_DIALECT_AMP_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def AssignPrecision : Pass<"amp-assign-precision", "::mlir::func::FuncOp"> {
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
       them, unless all their consumers stay f32 (then the cast moves to their
       input, where an f32-accumulating producer absorbs it).

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

    The coloring is `PrecisionAnalysis`
    (`amp/Dialect/AMP/Transforms/PrecisionAnalysis.h`), which the pass
    computes per function and leaves preserved for later queries. The pass
    runs on each `func.func` on its own and touches nothing outside it, so
    the pass manager colors functions in parallel.

    With `record-rules` it also writes why each op got its precision as
    `amp.precision_rule = "<rule>"`, which `amp-precision-report` reads
    and removes.
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
    Option<"recordRules", "record-rules", "bool", "false",
           "Record each op's rule as amp.precision_rule, for "
           "amp-precision-report">,
    Option<"emitRemarks", "remarks", "bool", "false",
           "Emit a remark on every op explaining its precision">,
  ];
  let statistics = [
    Statistic<"numLowPrecision", "low-precision-ops",
              "Ops assigned f16/bf16">,
    Statistic<"numF32", "f32-ops", "Ops kept in f32">,
  ];
}

def InsertCasts : Pass<"amp-insert-casts"> {
  let summary = "Retype ops to their assigned precision with the fewest casts";
  let description = [{
    Reads the `amp.precision` decisions of `amp-assign-precision` and
    retypes ops and region-carried values. Every use whose producer has a
    different type gets a cast; there is one cast per (value, target type,
    cast dialect), placed right after the value's definition and shared by
    all its users, so a weight is cast once per step for forward and
    backward. The cast is built by the `PrecisionCastInterface` of the
    dialect of the op it serves (its user, else its producer):
    `arith.truncf`/`arith.extf` next to linalg, arith and math ops,
    `tosa.cast` next to TOSA ops, `amp.cast` otherwise. Ops whose payload
    or typed attributes follow their operand types (linalg bodies,
    `tosa.clamp` bounds) are updated through the interface's
    `adaptToNewTypes`.
    Existing casts are absorbed and re-planned, casts of constants are
    folded into converted constants, and a low-precision op that
    accumulates in f32 (matmul, conv, reductions) produces f32 directly when
    every user wants f32. Function signatures are kept unless
    `keep-io-types=false`, which lets inputs and results of functions
    without callers take the precision of their uses and producers (params,
    optimizer state and the loss always stay f32).

    The pass runs on a function (each on its own, so in parallel) or on an
    op that holds functions, such as the module (one function after the
    other). `keep-io-types=false` changes signatures and must know the
    callers, which only the module sees: on a single function it is an
    error.
  }];
  let dependentDialects = ["::amp::AMPDialect", "::mlir::arith::ArithDialect"];
  let options = [
    Option<"keepIOTypes", "keep-io-types", "bool", "true",
           "Keep function argument and result types">,
  ];
  let statistics = [
    Statistic<"numCasts", "casts", "Casts inserted">,
    Statistic<"numConstantsConverted", "constants-converted",
              "Constants converted at compile time">,
  ];
}

def PrecisionReport : Pass<"amp-precision-report", "::mlir::ModuleOp"> {
  let summary = "Write the precision report (JSON) from the final IR";
  let description = [{
    Runs after `amp-insert-casts` and writes the report of
    docs/precision.md from the IR as it is: the compute type, each op's
    name, location (`"x"` for `loc("x")`), precision (`amp.precision`) and
    rule (`amp.precision_rule`, which `amp-assign-precision` records with
    `record-rules` and this pass removes), the `amp.cast` ops and the
    converted (f16/bf16) constants in the IR, op counts by precision and
    activation bytes by precision of the ops' result types. An op with
    `amp.precision` but no rule is an error. `amp-pipeline` runs it when
    given `report=<file.json>`.
  }];
  let options = [
    Option<"file", "file", "std::string", "\"-\"",
           "The JSON file to write (- for stdout)">,
    Option<"computeType", "compute-type", "std::string", "\"f16\"",
           "The compute type amp-assign-precision used, for the report">,
  ];
}

def MasterWeights : Pass<"amp-master-weights", "::mlir::func::FuncOp"> {
  let summary = "Keep f32 master weights: one low-precision copy per param and step";
  let description = [{
    Enforces the master-weight contract on training steps (functions whose
    arguments carry `nn.role`):

    * params and optimizer state are f32 at the function boundary, and the
      optimizer updates (`nn.sgd_update`, `nn.adam_update`,
      `nn.rmsprop_update`, `nn.adagrad_update`) read and write
      f32 values (an error otherwise);
    * each param used in low precision has exactly one working copy per step:
      duplicate `amp.cast`s of a param to the same type are merged into one,
      placed at the top of the function and shared by forward and backward;
    * gradients reach the updates in f32 without a cast: when a gradient is
      an `amp.cast` to f32 of a low-precision op that accumulates in f32
      (a weight-gradient matmul) and has no other use, that op stores f32
      directly and the cast goes away.
  }];
  let dependentDialects = ["::amp::AMPDialect"];
  let statistics = [
    Statistic<"numWorkingCopies", "working-copies",
              "Low-precision param copies per step">,
    Statistic<"numMergedCasts", "merged-casts", "Duplicate param casts merged">,
    Statistic<"numFusedGradCasts", "fused-grad-casts",
              "Gradient casts folded into an f32 accumulator">,
  ];
}

def LossScaling : Pass<"amp-loss-scaling", "::mlir::func::FuncOp"> {
  let summary = "Scale the loss, unscale and check gradients, skip overflowing steps";
  let description = [{
    Rewrites the backward pass of every training step for loss scaling, as
    PyTorch's GradScaler does at run time, but in the graph and on the
    device:

    * **seed**: each `nn.grad_seed` becomes `amp.scaled_grad_seed`, so every
      gradient is scaled;
    * **unscale and check**: before the optimizer, one
      `amp.unscale_and_check` unscales all param gradients (multiply by
      `f32(1/f64(scale))`) and computes `found_inf` over all of them (NaN
      and +-Inf, on the scaled values); `nn.clip_grad_norm` sees the
      unscaled gradients;
    * **skip step**: the optimizer updates move into `amp.skip_step_if`, so an
      overflowing step leaves params, moments and step counters bitwise
      unchanged;
    * **scale update** (dynamic mode): `amp.update_scale` with GradScaler's
      semantics;
    * **state**: the scale (`f32`, role `loss_scale`), the growth tracker
      (`i32`, `growth_tracker`), with `hysteresis > 1` a hysteresis tracker
      (`i32`, `hysteresis_tracker`), and `found_inf` (`i1`) are appended
      to the arguments and the results; `nn.init` on each argument gives its
      initial value.

    `mode=static` keeps the scale constant (it is still threaded through)
    and still skips overflowing steps unless `skip-on-overflow=false`;
    `mode=none` changes nothing. A training step that already has the
    machinery is left alone, so the pass is idempotent. A function with
    optimizer updates but no `nn.grad_seed`, a gradient that does not come
    from the seed, or a scaled value returned without going through an update
    is an error.
  }];
  let dependentDialects = ["::amp::AMPDialect", "::amp::nn::NNDialect"];
  let options = [
    Option<"mode", "mode", "std::string", "\"dynamic\"",
           "dynamic, static or none">,
    Option<"initScale", "init-scale", "double", "65536.0",
           "Initial (or static) loss scale">,
    Option<"growthFactor", "growth-factor", "double", "2.0",
           "Scale multiplier after growth-interval clean steps">,
    Option<"backoffFactor", "backoff-factor", "double", "0.5",
           "Scale multiplier on an overflowing step">,
    Option<"growthInterval", "growth-interval", "int", "2000",
           "Consecutive clean steps before the scale grows">,
    Option<"minScale", "min-scale", "double", "0.0",
           "Lower bound of the scale on backoff (0: none)">,
    Option<"maxScale", "max-scale", "double", "0.0",
           "Upper bound of the scale on growth (0: none)">,
    Option<"hysteresis", "hysteresis", "int", "1",
           "Overflowing steps tolerated before a backoff">,
    Option<"skipOnOverflow", "skip-on-overflow", "bool", "true",
           "Skip the optimizer update on steps with inf/NaN gradients">,
  ];
}

#endif // AMP_DIALECT_AMP_TRANSFORMS_PASSES_TD
