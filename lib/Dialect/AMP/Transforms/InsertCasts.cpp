//===- InsertCasts.cpp - retype ops to their assigned precision -----------===//
//
// amp-insert-casts: applies the CastPlan of a function, or of every function
// in the op it runs on (see CastPlan.h).
//
//===----------------------------------------------------------------------===//

#include "amp/Dialect/AMP/Transforms/Passes.h"

#include "CastPlan.h"

#include "amp/Interfaces/MixedPrecisionOpInterface.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

namespace amp {
#define GEN_PASS_DEF_INSERTCASTS
#include "amp/Dialect/AMP/Transforms/Passes.h.inc"
} // namespace amp

using namespace mlir;
using namespace amp;

namespace {
struct InsertCastsPass : amp::impl::InsertCastsBase<InsertCastsPass> {
  using InsertCastsBase::InsertCastsBase;

  LogicalResult initialize(MLIRContext *ctx) override {
    return checkPrecisionModelsRegistered(ctx, "amp-insert-casts");
  }

  void runOnOperation() override {
    Operation *op = getOperation();
    if (auto fn = dyn_cast<FunctionOpInterface>(op)) {
      // Whether a function has callers is known only to its parent, and
      // other functions may be changing at the same time.
      if (!keepIOTypes) {
        fn.emitError("amp-insert-casts: keep-io-types=false changes function "
                     "signatures, which needs the callers: run it on the "
                     "module, not on each function");
        return signalPassFailure();
      }
      if (!fn.isExternal())
        apply(fn);
      return;
    }
    SmallVector<FunctionOpInterface> functions;
    op->walk([&](FunctionOpInterface fn) {
      if (!fn.isExternal())
        functions.push_back(fn);
    });
    for (FunctionOpInterface fn : functions)
      apply(fn);
  }

  void apply(FunctionOpInterface fn) {
    CastPlan plan(fn, keepIOTypes);
    unsigned casts = 0, constants = 0;
    plan.apply(casts, constants);
    numCasts += casts;
    numConstantsConverted += constants;
  }
};
} // namespace
