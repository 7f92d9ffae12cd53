//===- Evaluators.h - the reference interpreter's op table ------*- C++ -*-===//
//
// What every op family of the f64 interpreter shares: the table that maps an
// op name to its evaluator, one registration function per family (one file
// each), and the indexing helpers (strides, numpy broadcasting, lines along
// an axis). Adding an op is one function plus one `table.add<OpT>` line.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_REFERENCE_EVALUATORS_H
#define AMP_LIB_REFERENCE_EVALUATORS_H

#include "amp/Reference/RefTensor.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"

#include <functional>
#include <type_traits>

namespace amp::reference {

using Operands = llvm::ArrayRef<const RefTensor *>;
using Results = llvm::SmallVector<RefTensor, 1>;

/// Computes an op's results from its operands. Fails, after emitting an
/// error at the op, only on data the op's semantics reject (an id out of
/// range); shapes and attributes are those the verifier accepted.
using Evaluator =
    std::function<mlir::FailureOr<Results>(mlir::Operation *, Operands)>;

class EvaluatorTable {
public:
  /// Registers `fn` as the evaluator of OpT. `fn(OpT, Operands)` returns the
  /// single result (RefTensor) or all of them (Results, FailureOr<Results>).
  template <typename OpT, typename Fn> void add(Fn fn) {
    evaluators[OpT::getOperationName()] =
        [fn](mlir::Operation *op, Operands in) -> mlir::FailureOr<Results> {
      auto result = fn(llvm::cast<OpT>(op), in);
      if constexpr (std::is_same_v<decltype(result), RefTensor>) {
        Results results;
        results.push_back(std::move(result));
        return results;
      } else {
        return result;
      }
    };
  }

  const Evaluator *lookup(llvm::StringRef name) const {
    auto it = evaluators.find(name);
    return it == evaluators.end() ? nullptr : &it->second;
  }

private:
  llvm::StringMap<Evaluator> evaluators;
};

// One per file, each registering its family.
void registerElementwiseOps(EvaluatorTable &table);
void registerContractionOps(EvaluatorTable &table);
void registerPoolingOps(EvaluatorTable &table);
void registerNormOps(EvaluatorTable &table);
void registerAttentionOps(EvaluatorTable &table);

/// Whether nn.dropout (seed, rate) in training keeps element i of the
/// tensor it drops (ElementwiseOps.cpp; nn.attention's dropout too).
bool dropoutKeeps(uint64_t seed, uint64_t i, float rate);

/// The bits of a 0-d i64 seed as the interpreter holds it: a double, exact
/// to 2^53; a value the double rounded to +-2^63 or past saturates instead
/// of overflowing the conversion (an imported seed hashed from a name).
uint64_t seedBits(double seed);
void registerReductionOps(EvaluatorTable &table);
void registerShapeOps(EvaluatorTable &table);
void registerEmbeddingAndLossOps(EvaluatorTable &table);
void registerOptimizerOps(EvaluatorTable &table);
void registerConstantOps(EvaluatorTable &table);

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// The static shape of `value`'s ranked tensor type.
llvm::ArrayRef<int64_t> shapeOf(mlir::Value value);

/// A tensor shaped like result `i` of `op`, every element `fill`.
RefTensor resultLike(mlir::Operation *op, unsigned i = 0, double fill = 0.0);

/// Row-major strides of `shape`.
llvm::SmallVector<int64_t> getStrides(llvm::ArrayRef<int64_t> shape);

/// The strides with which an element of `target` reads `shape` under numpy
/// broadcasting (trailing dims aligned): 0 along dims that `shape` lacks or
/// has as 1.
llvm::SmallVector<int64_t> getBroadcastStrides(llvm::ArrayRef<int64_t> shape,
                                               llvm::ArrayRef<int64_t> target);

/// `sum index[i] * strides[i]`.
int64_t offsetOf(llvm::ArrayRef<int64_t> index,
                 llvm::ArrayRef<int64_t> strides);

/// Calls `fn(index, offset)` for every element of `shape` in row-major
/// order (`offset` is the element's row-major position).
void forEachIndex(
    llvm::ArrayRef<int64_t> shape,
    llvm::function_ref<void(llvm::ArrayRef<int64_t> index, int64_t offset)> fn);

/// The elements of `x` broadcast to `target` (numpy rules).
std::vector<double> broadcastData(const RefTensor &x,
                                  llvm::ArrayRef<int64_t> target);

/// `axis` in [0, rank) (negative counts from the end).
int64_t normalizeAxis(int64_t axis, int64_t rank);

/// Calls `fn(base, stride)` for every line of `shape` along `axis`: its
/// elements are at `base + i * stride` for i in [0, shape[axis]).
void forEachLine(llvm::ArrayRef<int64_t> shape, int64_t axis,
                 llvm::function_ref<void(int64_t base, int64_t stride)> fn);

/// Checks that `value` (element `position` of an integer operand) is an
/// index in [0, limit); otherwise emits an error at `op` naming `what`.
mlir::LogicalResult checkIndex(mlir::Operation *op, llvm::StringRef what,
                               double value, int64_t position, int64_t limit);

} // namespace amp::reference

#endif // AMP_LIB_REFERENCE_EVALUATORS_H
