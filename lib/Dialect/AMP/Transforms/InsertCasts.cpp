//===- InsertCasts.cpp - retype ops to their assigned precision -----------===//
//
// amp-insert-casts: applies the CastPlan of every function (see CastPlan.h).
//
//===----------------------------------------------------------------------===//

#include "amp/Dialect/AMP/Transforms/Passes.h"

#include "CastPlan.h"

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

  void runOnOperation() override {
    SmallVector<FunctionOpInterface> functions;
    getOperation().walk([&](FunctionOpInterface fn) {
      if (!fn.isExternal())
        functions.push_back(fn);
    });
    for (FunctionOpInterface fn : functions) {
      CastPlan plan(fn, keepIOTypes);
      unsigned casts = 0, constants = 0;
      plan.apply(casts, constants);
      numCasts += casts;
      numConstantsConverted += constants;
    }
  }
};
} // namespace
