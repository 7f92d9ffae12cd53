//===- Interpreter.h - the f64 reference interpreter of nn functions ------===//
//
// Evaluates a func.func of nn ops in f64, every op implemented from its
// documented semantics (NNOps.td, docs/runtime-kernels.md) and independently
// of the runtime kernels, so that it can serve as the oracle of gradient
// checks. f16/bf16 tensors and amp.cast are computed in f64 too: the
// reference is the exact math the mixed-precision program approximates.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_REFERENCE_INTERPRETER_H
#define AMP_REFERENCE_INTERPRETER_H

#include "amp/Reference/RefTensor.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/LogicalResult.h"

namespace amp::reference {

/// Called after each op's evaluator with the op's operands and results,
/// before any later op reads them; it may change the results (a gradient
/// check holds the rows an embedding reads at its padding_idx fixed).
using ResultHook = llvm::function_ref<void(
    mlir::Operation *op, llvm::ArrayRef<const RefTensor *> operands,
    llvm::MutableArrayRef<RefTensor> results)>;

/// Runs `fn` (one block of ops with evaluators, ended by func.return) on
/// `args`, which must have the shapes of its argument types, calling `hook`
/// (when given) after each op. On an op the interpreter does not support,
/// an argument of the wrong shape, or an error in the data (an id or label
/// out of range), emits one error at the op or function and fails.
llvm::FailureOr<llvm::SmallVector<RefTensor>>
evaluate(mlir::func::FuncOp fn, llvm::ArrayRef<RefTensor> args,
         ResultHook hook = nullptr);

/// Whether the interpreter has an evaluator for ops named `name` (e.g.
/// "nn.matmul").
bool isSupported(llvm::StringRef name);

} // namespace amp::reference

#endif // AMP_REFERENCE_INTERPRETER_H
