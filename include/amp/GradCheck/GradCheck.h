//===- GradCheck.h - gradients against finite differences -------*- C++ -*-===//
//
// The library behind amp-grad-check: builds a forward loss function's
// gradient function with nn-autodiff (optimizer=none), evaluates it and the
// forward function with the f64 reference interpreter on seeded random
// arguments, and compares each checked param element's gradient with the
// central difference (loss(p + h) - loss(p - h)) / 2h. docs/autodiff.md
// ("Gradient checks") describes the arguments, tolerances and output.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_GRADCHECK_GRADCHECK_H
#define AMP_GRADCHECK_GRADCHECK_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

namespace amp::gradcheck {

struct GradCheckOptions {
  /// The function to check; empty: every forward loss function.
  std::string entry;
  /// Seeds the arguments and the sampled elements of each function.
  uint64_t seed = 0;
  /// The central-difference step h.
  double step = 1e-5;
  /// An element passes when |g - fd| <= atol + rtol * |fd|.
  double rtol = 1e-6;
  double atol = 1e-9;
  /// Params with more elements get a seeded sample of this many.
  int64_t maxChecksPerParam = 32;
  /// Test hook: multiplies the first param's autodiff gradient by 1.01, so
  /// that tests can see the checker fail.
  bool perturbGradient = false;

  /// The message of the first bad value, or nullopt.
  std::optional<std::string> validate() const;
};

/// The comparison of one param's gradient.
struct ParamCheck {
  /// The argument's name in the source (%w1), else its location or #index.
  std::string name;
  llvm::SmallVector<int64_t> shape;
  int64_t numChecked = 0;
  int64_t numFailed = 0;
  /// Over the checked elements; the relative error only over those with
  /// |fd| > atol (below that the absolute error is what counts).
  double maxAbsError = 0;
  double maxRelError = 0;
  /// The element whose error is largest against its tolerance.
  llvm::SmallVector<int64_t> worstIndex;
  double worstGradient = 0;
  double worstFiniteDifference = 0;

  bool passed() const { return numFailed == 0; }
};

struct FunctionCheck {
  std::string name;
  double loss = 0;
  llvm::SmallVector<ParamCheck> params;

  bool passed() const {
    return llvm::all_of(params, [](const ParamCheck &p) { return p.passed(); });
  }
};

/// Checks one forward loss function. Emits an error and fails on input it
/// cannot check: not a forward loss function, nn-autodiff errors, an integer
/// argument whose range cannot be inferred, an op the interpreter does not
/// support, data the ops reject.
llvm::FailureOr<FunctionCheck> checkFunction(mlir::func::FuncOp fn,
                                             const GradCheckOptions &options);

/// Checks options.entry, or every forward loss function of `module`,
/// printing each function's report to `os` as it is done and then a
/// summary line. Returns whether every param passed; fails (after emitting
/// an error) on bad input.
llvm::FailureOr<bool> checkModule(mlir::ModuleOp module,
                                  const GradCheckOptions &options,
                                  llvm::raw_ostream &os);

void printFunctionCheck(const FunctionCheck &check, llvm::raw_ostream &os);

} // namespace amp::gradcheck

#endif // AMP_GRADCHECK_GRADCHECK_H
